/* The runtime interface shared by generated programs and the compiler.
 *
 * Generated C includes the runtime sources (embedded in the compiler) into
 * one translation unit, defines its entry points as an rt_entry table and
 * calls rt_main. The compiler links the same sources to read and compare
 * values in `futhorc test`. Every external name starts with rt_. */
#ifndef FUTHORC_RT_H
#define FUTHORC_RT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Element types, in the order of the compiler's PrimType (compiler/ir/prim.def). */
typedef enum rt_prim {
    RT_I8, RT_I16, RT_I32, RT_I64, RT_U8, RT_U16, RT_U32, RT_U64, RT_F16, RT_F32, RT_F64, RT_BOOL,
    RT_PRIM_COUNT
} rt_prim;

const char *rt_prim_name(rt_prim t); /* "i32" */
int rt_prim_size(rt_prim t);         /* bytes */

typedef struct rt_type {
    rt_prim elem;
    int rank; /* 0 for a scalar */
} rt_type;

/* A value: a scalar or a dense row-major array. data holds
 * product(shape) elements of the element type, stored as the C type of the
 * element (bool as one byte 0 or 1). A scalar has rank 0 and one element.
 * Owned: rt_value_free releases shape and data. */
typedef struct rt_value {
    rt_type type;
    int64_t *shape; /* rank entries */
    void *data;
} rt_value;

void rt_value_free(rt_value *v);
/* The number of elements of v: the product of its dimensions, 0 if one is
 * 0 (whatever the others are), and 0 for a shape whose product overflows,
 * which no value can have (every size is checked with rt_shape_bytes). */
int64_t rt_value_count(const rt_value *v);

/* The bytes of a row-major array of rank dimensions shape[0..rank-1] whose
 * elements take elem_size bytes, in *bytes; false when a dimension is
 * negative or the size overflows int64_t. A shape with a 0 dimension takes
 * 0 bytes whatever its other dimensions. */
bool rt_shape_bytes(const int64_t *shape, int rank, int64_t elem_size, int64_t *bytes);

/* ---- Reading and writing values (Futhark's data formats) ------------------ */

/* A reader over a byte buffer with line/column tracking for messages. */
typedef struct rt_reader {
    const unsigned char *buf;
    size_t len, pos;
} rt_reader;

/* Reads one value of the expected type in the textual or binary format
 * (type-directed: unsuffixed literals take the expected type; a suffix that
 * disagrees is an error). On failure returns false and writes a message
 * into err (which names the position). */
bool rt_read_value(rt_reader *r, rt_type expected, rt_value *out, char *err, size_t errlen);
/* Reads one value whose type is given by the data itself: suffixes, or the
 * defaults i32 for integers and f64 for decimals; binary values carry their
 * type. Used for expected outputs in test blocks. */
bool rt_read_any(rt_reader *r, rt_value *out, char *err, size_t errlen);
/* Reads all of f into a malloc'd buffer; NULL when out of memory or on a
 * read error. */
unsigned char *rt_read_all(FILE *f, size_t *len);
/* Skips whitespace and -- comments; true if the input is exhausted. */
bool rt_reader_at_end(rt_reader *r);

void rt_write_text(FILE *f, const rt_value *v);   /* "[1i32, 2i32]", with suffixes */
void rt_write_binary(FILE *f, const rt_value *v); /* binary format version 2 */

/* Compares got with expected as `futhark test` does: same type and shape,
 * integers and bools equal, floats within the tolerance of
 * ../shared/reference/futhark-survey.md §2.4. On mismatch returns false and
 * describes the first difference in err. */
bool rt_values_match(const rt_value *got, const rt_value *expected, char *err, size_t errlen);

/* ---- Entry points and the executable's main ------------------------------ */

/* Run-time state of a generated program: the first error message, if any.
 * A generated function that fails (bounds check, assertion, size mismatch,
 * out of memory) sets the error with rt_error and returns non-zero. */
typedef struct rt_ctx {
    char *error;    /* malloc'd message, or NULL; rt_error sets it
                       atomically, as tasks of a parallel loop may fail at
                       once */
    int64_t run_us; /* the caller sets -1 to have a run timed; OpenCL entry
                       points set the microseconds the device worked,
                       without copying inputs and results (between markers
                       on the device when it keeps timestamps); multicore
                       ones the microseconds until the results began to be
                       written out; else it stays -1 */
    int64_t start_us; /* multicore: when the running entry point started */
    void *device;   /* NULL in executables: array arguments and results are
                       in host memory. An OpenCL library's context sets it
                       to its rt_dpool (runtime/opencl_library.h): array
                       arguments and results then stay on the device, their
                       data being device blocks (rt_dblock *) */
    struct rt_cache *cache; /* multicore: the blocks entries freed, kept
                               for reuse (runtime/memory.h), or NULL */
    struct rt_sched *sched; /* the threads that run parallel loops
                               (runtime/sched.h), set by the multicore
                               backend's init_ctx; NULL: loops run in order
                               on the calling thread */
} rt_ctx;

void rt_error(rt_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* An entry point as seen from outside: it takes nin values and produces nout
 * values. The function must not keep references to ins after returning; it
 * allocates outs (dense, row-major) which the caller frees. */
typedef int (*rt_entry_fn)(rt_ctx *ctx, const rt_value *ins, rt_value *outs);

typedef struct rt_entry {
    const char *name;
    int nin;
    const rt_type *in_types;
    int nout;
    const rt_type *out_types;
    rt_entry_fn fn;
    const bool *in_unique; /* nin flags: the entry consumes that input (*t), or NULL */
} rt_entry;

/* A backend's share of the command line and of the run (OpenCL,
 * multicore; none for sequential C). option takes argv[*i] (and its value,
 * advancing *i) and returns 1 when it took it, 0 when the option is not the
 * backend's, -1 after a message when its value is bad; help lines are added
 * to --help; finish runs when the program is done (the -P report, releasing
 * the device). init_ctx sets up each context that rt_main and server mode
 * make before entries run on it (the multicore scheduler), fini_ctx
 * releases what it set up; either may be NULL. The generated program sets
 * rt_the_backend before rt_main. */
typedef struct rt_backend {
    const char *help;
    bool profiles; /* -P/--profile is the backend's option, not ignored */
    int (*option)(int argc, char **argv, int *i);
    void (*finish)(void);
    void (*init_ctx)(rt_ctx *ctx);
    void (*fini_ctx)(rt_ctx *ctx);
    /* Tuning parameters (NULL: the backend has none): sets parameter name
     * to value (false: there is no such parameter); the class of
     * parameter name ("threshold", "group_size"), or NULL when there is
     * no such parameter; the names, by index. */
    bool (*set_param)(const char *name, int64_t value);
    const char *(*param_class)(const char *name);
    const char *(*param_name)(int i); /* parameter i's name; NULL past the last */
} rt_backend;
extern const rt_backend *rt_the_backend;

/* The command line of generated executables (-e -r -t -b -n -h): reads the
 * chosen entry's arguments from stdin, runs it, prints the results one per
 * line. Returns the process exit status (0, or 1 after printing an error to
 * stderr). */
int rt_main(int argc, char **argv, const rt_entry *entries, int nentries);

/* Server mode (runtime/server.c): Futhark's server protocol on stdin and
 * stdout. rt_main hands over to it when given --server; executables built
 * with `futhorc c --server` call it directly. */
int rt_server_main(int argc, char **argv, const rt_entry *entries, int nentries);
/* The server's command loop on the commands read from in (stdin for
 * rt_server_main); returns 0, or 1 when out of memory at the start. */
int rt_server_run(FILE *in, const rt_entry *entries, int nentries);

#endif
