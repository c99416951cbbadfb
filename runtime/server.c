/* Server mode of generated executables (`prog --server`): Futhark's server
 * protocol (survey §3, Futhark's docs/server-protocol.rst) on stdin and
 * stdout. Values live in a table of named variables; commands restore them
 * from files, call entry points on them, store them to files and free them.
 *
 * Both protocol versions are spoken: the one of the `futhark-server` 1.0.1
 * Python client (`outputs E`, `call E OUT1..OUTn IN1..INm`) and the newer
 * one (`output E`, `call E OUT IN1..INm`, where an entry with several results
 * yields one tuple variable whose fields are projected). Every failure, bad
 * input included, prints "%%% FAILURE", a message and "%%% OK"; the server
 * then goes on reading commands.
 *
 * Pasted into every generated program after values.c and before main.c, so
 * static names start with rts_ and macros are #undef'd at the end. */
#ifndef FUTHORC_RT_H
#include "rt.h"
#endif

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Most words in one command line: far more than any entry point has
 * arguments, and it bounds the word array. */
#define RTS_MAX_WORDS 65536
/* Size of a buffer for an error message from the value reader. */
#define RTS_MSG_LEN 1024
/* Deepest array type name accepted: the binary format stores the rank in a
 * signed byte, so no value can have more dimensions. */
#define RTS_MAX_RANK 127
/* Size of a buffer for a type name: a tuple of many deep arrays is cut, but
 * the name is only printed. */
#define RTS_TYPE_LEN 4096
/* The answer to `report`: futhorc keeps no memory statistics or profiling
 * events, and `futhark bench` parses this JSON object. */
#define RTS_EMPTY_REPORT "{\"memory\":{},\"events\":[]}"


/* A server-side type: a primitive or array (ntypes 1, not a tuple), or a
 * tuple of primitives and arrays (the result of an entry point with several
 * results, called with one output variable). */
typedef struct rts_type {
    bool tuple;
    int n;
    rt_type *ts; /* n entries, malloc'd */
} rts_type;

/* A named variable: n values (one unless a tuple). A consumed variable may
 * only be freed. */
typedef struct rts_var {
    char *name;
    rts_type type;
    rt_value *vals;
    bool consumed;
} rts_var;

typedef struct rts_state {
    const rt_entry *entries;
    int nentries;
    rts_var *vars;
    int nvars, cap;
    bool profiling;
    rt_ctx ctx; /* of every call: the backend's state (a multicore
                   program's threads and freed blocks) lasts the session */
} rts_state;

typedef void (*rts_cmd_fn)(rts_state *s, int argc, char **argv);

/* ---- Replies --------------------------------------------------------------- */

/* Prints the failure marker and the message of a failed command. */
static void rts_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void rts_fail(const char *fmt, ...) {
    printf("%%%%%% FAILURE\n");
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

static void rts_ok(void) {
    printf("%%%%%% OK\n");
    fflush(stdout);
}

/* Microseconds from a monotonic clock where POSIX is visible, else C11's
 * wall clock. */
static int64_t rts_now_us(void) {
    struct timespec ts;
#if defined(CLOCK_MONOTONIC)
    clock_gettime(CLOCK_MONOTONIC, &ts);
#else
    timespec_get(&ts, TIME_UTC);
#endif
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* ---- Types ----------------------------------------------------------------- */

static void rts_type_free(rts_type *t) {
    free(t->ts);
    t->ts = NULL;
    t->n = 0;
}

static bool rts_type_eq(const rts_type *a, const rts_type *b) {
    if (a->tuple != b->tuple || a->n != b->n) return false;
    for (int i = 0; i < a->n; i++)
        if (a->ts[i].elem != b->ts[i].elem || a->ts[i].rank != b->ts[i].rank) return false;
    return true;
}

/* A copy of the single type t; false when out of memory. */
static bool rts_type_single(rt_type t, rts_type *out) {
    out->tuple = false;
    out->n = 1;
    out->ts = malloc(sizeof(rt_type));
    if (out->ts) out->ts[0] = t;
    return out->ts != NULL;
}

/* The tuple of types ts[0..n-1] (or the single type when n is 1). */
static bool rts_type_of(const rt_type *ts, int n, rts_type *out) {
    out->tuple = n != 1;
    out->n = n;
    out->ts = malloc(sizeof(rt_type) * (size_t)(n > 0 ? n : 1));
    if (out->ts) memcpy(out->ts, ts, sizeof(rt_type) * (size_t)n);
    return out->ts != NULL;
}

/* Appends the Futhark name of t ("[][]f32") to buf at *k. */
static void rts_put_simple(rt_type t, char *buf, size_t n, size_t *k) {
    for (int i = 0; i < t.rank && *k + 3 < n; i++) buf[(*k)++] = '[', buf[(*k)++] = ']';
    int w = snprintf(buf + *k, n - *k, "%s", rt_prim_name(t.elem));
    *k += w > 0 && (size_t)w < n - *k ? (size_t)w : 0;
}

/* The type's name: "[]i32", or "(i32, []f64)" for a tuple. */
static const char *rts_type_name(const rts_type *t, char *buf, size_t n) {
    size_t k = 0;
    buf[0] = 0;
    if (t->tuple && k + 1 < n) buf[k++] = '(';
    for (int i = 0; i < t->n && k + 3 < n; i++) {
        if (i > 0) buf[k++] = ',', buf[k++] = ' ';
        rts_put_simple(t->ts[i], buf, n, &k);
    }
    if (t->tuple && k + 1 < n) buf[k++] = ')';
    buf[k < n ? k : n - 1] = 0;
    return buf;
}

static const char *rts_skip_blank(const char *s) {
    while (*s == ' ' || *s == '\t') s++;
    return s;
}

/* Parses a primitive or array type name at *s ("[][]i32"), advancing *s. */
static bool rts_parse_simple(const char **s, rt_type *out) {
    const char *p = rts_skip_blank(*s);
    int rank = 0;
    while (p[0] == '[' && p[1] == ']') {
        if (++rank > RTS_MAX_RANK) return false;
        p += 2;
    }
    for (int e = 0; e < RT_PRIM_COUNT; e++) {
        const char *name = rt_prim_name((rt_prim)e);
        size_t len = strlen(name);
        if (strncmp(p, name, len)) continue; /* before p[len]: p may be shorter */
        char next = p[len];
        if (next == 0 || next == ',' || next == ')' || next == ' ' || next == '\t') {
            out->elem = (rt_prim)e;
            out->rank = rank;
            *s = rts_skip_blank(p + len);
            return true;
        }
    }
    return false;
}

/* Parses a type name: a primitive, an array or a tuple of those. */
static bool rts_parse_type(const char *s, rts_type *out) {
    memset(out, 0, sizeof *out);
    s = rts_skip_blank(s);
    rt_type one;
    if (*s != '(') return rts_parse_simple(&s, &one) && *s == 0 && rts_type_single(one, out);
    int cap = 0;
    out->tuple = true;
    s++;
    for (;;) {
        if (!rts_parse_simple(&s, &one) || (*s != ',' && *s != ')')) break;
        if (out->n == cap) {
            cap = cap ? 2 * cap : 4;
            rt_type *more = cap <= RTS_MAX_WORDS ? realloc(out->ts, sizeof(rt_type) * (size_t)cap) : NULL;
            if (!more) break;
            out->ts = more;
        }
        out->ts[out->n++] = one;
        if (*s++ == ')') {
            if (*rts_skip_blank(s) == 0 && out->n >= 2) return true;
            break;
        }
    }
    rts_type_free(out);
    return false;
}

/* Parses argument `name` as a type; a failure (after the message) if it is
 * no type. */
static bool rts_arg_type(const char *name, rts_type *out) {
    if (rts_parse_type(name, out)) return true;
    rts_fail("Unknown type: %s", name);
    return false;
}

/* ---- Values ---------------------------------------------------------------- */

static void rts_free_values(rt_value *vs, int n) {
    for (int i = 0; i < n; i++) rt_value_free(&vs[i]);
}

/* A deep copy of v into out; false when out of memory. */
static bool rts_copy_value(const rt_value *v, rt_value *out) {
    size_t bytes = (size_t)rt_value_count(v) * (size_t)rt_prim_size(v->type.elem); /* v fits in memory */
    out->type = v->type;
    out->shape = v->type.rank ? malloc(sizeof(int64_t) * (size_t)v->type.rank) : NULL;
    out->data = malloc(bytes ? bytes : 1);
    if ((v->type.rank && !out->shape) || !out->data) {
        rt_value_free(out);
        return false;
    }
    if (v->type.rank) memcpy(out->shape, v->shape, sizeof(int64_t) * (size_t)v->type.rank);
    memcpy(out->data, v->data, bytes);
    return true;
}

/* Parses a decimal integer argument in [lo, hi]. */
static bool rts_parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out) {
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (errno || end == s || *end || x < lo || x > hi) return false;
    *out = (int64_t)x;
    return true;
}

/* ---- Variables ------------------------------------------------------------- */

static rts_var *rts_find(rts_state *s, const char *name) {
    for (int i = 0; i < s->nvars; i++)
        if (!strcmp(s->vars[i].name, name)) return &s->vars[i];
    return NULL;
}

/* The variable `name`, usable as a value (known and not consumed); NULL
 * after a failure message otherwise. */
static rts_var *rts_get(rts_state *s, const char *name) {
    rts_var *v = rts_find(s, name);
    if (!v) rts_fail("Unknown variable: %s", name);
    else if (v->consumed) rts_fail("Variable %s was consumed by an entry point; it can only be freed.", name);
    else return v;
    return NULL;
}

/* True if `name` is free to be defined; else a failure message. Names among
 * earlier[0..n-1] count as taken too (outputs of one command). */
static bool rts_name_free(rts_state *s, const char *name, char **earlier, int n, int step) {
    bool taken = rts_find(s, name) != NULL;
    for (int i = 0; i < n && !taken; i++) taken = !strcmp(earlier[i * step], name);
    if (taken) rts_fail("Variable already exists: %s", name);
    return !taken;
}

/* Adds a variable owning type and vals (moved in); false (after a failure
 * message) when out of memory, with type and vals freed. */
static bool rts_define(rts_state *s, const char *name, rts_type type, rt_value *vals) {
    char *copy = malloc(strlen(name) + 1);
    if (copy && s->nvars == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        rts_var *more = realloc(s->vars, sizeof(rts_var) * (size_t)cap);
        if (more) s->vars = more, s->cap = cap;
    }
    if (!copy || s->nvars == s->cap) {
        free(copy);
        rts_free_values(vals, type.n);
        free(vals);
        rts_type_free(&type);
        rts_fail("Out of memory defining variable %s", name);
        return false;
    }
    strcpy(copy, name);
    s->vars[s->nvars++] = (rts_var){copy, type, vals, false};
    return true;
}

static void rts_drop(rts_state *s, rts_var *v) {
    free(v->name);
    rts_free_values(v->vals, v->type.n);
    free(v->vals);
    rts_type_free(&v->type);
    *v = s->vars[--s->nvars];
}

/* Defines `name` as one value (moved in); false after a failure message. */
static bool rts_define_one(rts_state *s, const char *name, rt_value *val) {
    rts_type t;
    rt_value *vals = malloc(sizeof(rt_value));
    if (!vals || !rts_type_single(val->type, &t)) {
        free(vals);
        rt_value_free(val);
        rts_fail("Out of memory defining variable %s", name);
        return false;
    }
    vals[0] = *val;
    return rts_define(s, name, t, vals);
}

/* ---- Entry points ---------------------------------------------------------- */

static const rt_entry *rts_entry(rts_state *s, const char *name) {
    for (int i = 0; i < s->nentries; i++)
        if (s->entries[i].name && !strcmp(s->entries[i].name, name)) return &s->entries[i];
    rts_fail("Unknown entry point: %s", name);
    return NULL;
}

/* Whether entry e consumes (takes as unique) its input i; a consumed
 * variable cannot be used again, as in Futhark's server. */
static bool rts_consumes(const rt_entry *e, int i) { return e->in_unique && e->in_unique[i]; }

/* Checks the call's input variables against the entry's parameter types;
 * fills ins with (borrowed) values. */
static bool rts_call_inputs(rts_state *s, const rt_entry *e, char **names, rt_value *ins) {
    char want[RTS_TYPE_LEN], got[RTS_TYPE_LEN];
    for (int i = 0; i < e->nin; i++) {
        rts_var *v = rts_get(s, names[i]);
        if (!v) return false;
        rts_type t = {false, 1, (rt_type *)&e->in_types[i]};
        if (!rts_type_eq(&v->type, &t)) {
            rts_fail("Wrong input type.  Expected %s, got %s.", rts_type_name(&t, want, sizeof want),
                     rts_type_name(&v->type, got, sizeof got));
            return false;
        }
        ins[i] = v->vals[0];
    }
    return true;
}

/* Defines the call's results: one variable per output, or one tuple. */
static void rts_call_outputs(rts_state *s, const rt_entry *e, char **outs, int nouts, rt_value *vals) {
    if (nouts == e->nout) {
        for (int i = 0; i < nouts; i++) rts_define_one(s, outs[i], &vals[i]);
        free(vals);
        return;
    }
    rts_type t;
    if (!rts_type_of(e->out_types, e->nout, &t)) {
        rts_free_values(vals, e->nout);
        free(vals);
        rts_fail("Out of memory defining variable %s", outs[0]);
        return;
    }
    rts_define(s, outs[0], t, vals);
}

/* call ENTRY OUT1..OUTn IN1..INm, or call ENTRY OUT IN1..INm. */
static void rts_cmd_call(rts_state *s, int argc, char **argv) {
    const rt_entry *e = rts_entry(s, argv[0]);
    if (!e) return;
    int nargs = argc - 1, nouts = nargs - e->nin;
    if (nouts != e->nout && (nouts != 1 || e->nout == 0)) {
        rts_fail("Entry point %s takes %d inputs and gives %d outputs, but %d variables were given.",
                 e->name, e->nin, e->nout, nargs);
        return;
    }
    char **outs = argv + 1, **inames = argv + 1 + nouts;
    for (int i = 0; i < nouts; i++)
        if (!rts_name_free(s, outs[i], outs, i, 1)) return;
    rt_value *ins = calloc((size_t)e->nin + 1, sizeof(rt_value));
    rt_value *vals = calloc((size_t)e->nout + 1, sizeof(rt_value));
    if (!ins || !vals) {
        free(ins), free(vals);
        rts_fail("Out of memory");
        return;
    }
    if (!rts_call_inputs(s, e, inames, ins)) {
        free(ins), free(vals);
        return;
    }
    rt_ctx *ctx = &s->ctx;
    int64_t t0 = rts_now_us();
    int rc = e->fn(ctx, ins, vals);
    printf("runtime: %" PRId64 "\n", rts_now_us() - t0);
    free(ins);
    if (rc != 0) {
        rts_fail("%s", ctx->error ? ctx->error : "unknown run-time error");
        free(ctx->error);
        ctx->error = NULL;
        rts_free_values(vals, e->nout);
        free(vals);
        return;
    }
    free(ctx->error);
    ctx->error = NULL;
    for (int i = 0; i < e->nin; i++)
        if (rts_consumes(e, i)) rts_find(s, inames[i])->consumed = true;
    rts_call_outputs(s, e, outs, nouts, vals);
}

/* Prints a type per line, with a '*' before the unique ones. */
static void rts_print_types(const rt_type *ts, int n, const rt_entry *e, bool outputs) {
    char buf[RTS_TYPE_LEN];
    for (int i = 0; i < n; i++) {
        rts_type t = {false, 1, (rt_type *)&ts[i]};
        bool star = outputs || rts_consumes(e, i); /* results are always fresh */
        printf("%s%s\n", star ? "*" : "", rts_type_name(&t, buf, sizeof buf));
    }
}

static void rts_cmd_inputs(rts_state *s, int argc, char **argv) {
    const rt_entry *e = rts_entry(s, argv[0]);
    if (e) rts_print_types(e->in_types, e->nin, e, false);
}

/* outputs ENTRY: the old protocol, one line per result. */
static void rts_cmd_outputs(rts_state *s, int argc, char **argv) {
    const rt_entry *e = rts_entry(s, argv[0]);
    if (e) rts_print_types(e->out_types, e->nout, e, true);
}

/* output ENTRY: the new protocol, one line (a tuple for several results). */
static void rts_cmd_output(rts_state *s, int argc, char **argv) {
    const rt_entry *e = rts_entry(s, argv[0]);
    rts_type t;
    char buf[RTS_TYPE_LEN];
    if (!e) return;
    if (!rts_type_of(e->out_types, e->nout, &t)) {
        rts_fail("Out of memory");
        return;
    }
    printf("*%s\n", rts_type_name(&t, buf, sizeof buf));
    rts_type_free(&t);
}

/* ---- Files ----------------------------------------------------------------- */

/* Reads all of the file at path; NULL after a failure message. */
static unsigned char *rts_slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        rts_fail("Failed to open %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t n = 0;
    unsigned char *buf = rt_read_all(f, &n);
    bool bad = !buf;
    fclose(f);
    if (bad) {
        free(buf);
        rts_fail("Failed to read %s", path);
        return NULL;
    }
    *len = n;
    return buf;
}

/* Reads the values of one variable of type t; false after a message. */
static bool rts_restore_one(rt_reader *r, const char *file, const char *name, const rts_type *t,
                            rt_value *vals) {
    char err[RTS_MSG_LEN];
    for (int k = 0; k < t->n; k++) {
        if (!rt_read_value(r, t->ts[k], &vals[k], err, sizeof err)) {
            rts_free_values(vals, k);
            rts_fail("Failed to restore variable %s.\nPossibly malformed data in %s: %s", name, file,
                     err);
            return false;
        }
    }
    return true;
}

/* restore FILE V1 T1 ... Vn Tn: all the variables or (on failure) none. */
static void rts_cmd_restore(rts_state *s, int argc, char **argv) {
    int n = (argc - 1) / 2, done = 0;
    if ((argc - 1) % 2) {
        rts_fail("restore: expected a file and pairs of variable names and types");
        return;
    }
    for (int i = 0; i < n; i++)
        if (!rts_name_free(s, argv[1 + 2 * i], argv + 1, i, 2)) return;
    size_t len;
    unsigned char *buf = rts_slurp(argv[0], &len);
    if (!buf) return;
    rt_reader r = {buf, len, 0};
    int first = s->nvars;
    for (; done < n; done++) {
        rts_type t;
        if (!rts_arg_type(argv[2 + 2 * done], &t)) break;
        rt_value *vals = calloc((size_t)t.n, sizeof(rt_value));
        if (!vals) {
            rts_type_free(&t);
            rts_fail("Out of memory");
            break;
        }
        if (!rts_restore_one(&r, argv[0], argv[1 + 2 * done], &t, vals)) {
            free(vals);
            rts_type_free(&t);
            break;
        }
        if (!rts_define(s, argv[1 + 2 * done], t, vals)) break;
    }
    if (done == n && !rt_reader_at_end(&r)) rts_fail("Expected EOF after reading %d values from %s", n, argv[0]);
    else if (done == n) first = s->nvars; /* success: keep them all */
    while (s->nvars > first) rts_drop(s, &s->vars[s->nvars - 1]);
    free(buf);
}

/* store FILE V1 ... Vn: the values in the binary format (a tuple's fields
 * one after the other). */
static void rts_cmd_store(rts_state *s, int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!rts_get(s, argv[i])) return;
    FILE *f = fopen(argv[0], "wb");
    if (!f) {
        rts_fail("Failed to open %s: %s", argv[0], strerror(errno));
        return;
    }
    for (int i = 1; i < argc; i++) {
        rts_var *v = rts_find(s, argv[i]);
        for (int k = 0; k < v->type.n; k++) rt_write_binary(f, &v->vals[k]);
    }
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad) rts_fail("Failed to write %s", argv[0]);
}

/* ---- Variables: free, rename, type ------------------------------------------ */

static void rts_cmd_free(rts_state *s, int argc, char **argv) {
    for (int i = 0; i < argc; i++) {
        rts_var *v = rts_find(s, argv[i]);
        if (!v) {
            rts_fail("Unknown variable: %s", argv[i]);
            return;
        }
        rts_drop(s, v);
    }
}

static void rts_cmd_rename(rts_state *s, int argc, char **argv) {
    rts_var *v = rts_get(s, argv[0]);
    if (!v || !rts_name_free(s, argv[1], NULL, 0, 1)) return;
    char *name = malloc(strlen(argv[1]) + 1);
    if (!name) {
        rts_fail("Out of memory");
        return;
    }
    strcpy(name, argv[1]);
    free(v->name);
    v->name = name;
}

static void rts_cmd_type(rts_state *s, int argc, char **argv) {
    char buf[RTS_TYPE_LEN];
    rts_var *v = rts_get(s, argv[0]);
    if (v) printf("%s\n", rts_type_name(&v->type, buf, sizeof buf));
}

/* ---- Program information ---------------------------------------------------- */

static void rts_cmd_entry_points(rts_state *s, int argc, char **argv) {
    for (int i = 0; i < s->nentries; i++)
        if (s->entries[i].name) printf("%s\n", s->entries[i].name);
}

/* Prints name unless an earlier line (in seen, n of them) had it. */
static void rts_print_once(char **seen, int *n, const char *name) {
    for (int i = 0; i < *n; i++)
        if (!strcmp(seen[i], name)) return;
    char *copy = malloc(strlen(name) + 1);
    if (!copy) return;
    strcpy(copy, name);
    seen[(*n)++] = copy;
    printf("%s\n", name);
}

/* types: every type the entry points take or give, each once. */
static void rts_cmd_types(rts_state *s, int argc, char **argv) {
    int total = 0, n = 0;
    for (int i = 0; i < s->nentries; i++) total += s->entries[i].nin + 2 * s->entries[i].nout;
    char **seen = malloc(sizeof(char *) * (size_t)(total + 1)), buf[RTS_TYPE_LEN];
    if (!seen) {
        rts_fail("Out of memory");
        return;
    }
    for (int i = 0; i < s->nentries; i++) {
        const rt_entry *e = &s->entries[i];
        for (int k = 0; k < e->nin + e->nout; k++) {
            rts_type t = {false, 1, (rt_type *)(k < e->nin ? &e->in_types[k] : &e->out_types[k - e->nin])};
            rts_print_once(seen, &n, rts_type_name(&t, buf, sizeof buf));
        }
        rts_type t = {true, e->nout, (rt_type *)e->out_types};
        if (e->nout > 1) rts_print_once(seen, &n, rts_type_name(&t, buf, sizeof buf));
    }
    for (int i = 0; i < n; i++) free(seen[i]);
    free(seen);
}

static void rts_cmd_kind(rts_state *s, int argc, char **argv) {
    rts_type t;
    if (!rts_arg_type(argv[0], &t)) return;
    printf("%s\n", t.tuple ? "record" : t.ts[0].rank ? "array" : "primitive");
    rts_type_free(&t);
}

/* No-op commands: clear (no caches), attributes (none). */
static void rts_cmd_nothing(rts_state *s, int argc, char **argv) {}

static void rts_cmd_entry_nothing(rts_state *s, int argc, char **argv) { rts_entry(s, argv[0]); }

static void rts_cmd_pause(rts_state *s, int argc, char **argv) { s->profiling = false; }
static void rts_cmd_unpause(rts_state *s, int argc, char **argv) { s->profiling = true; }
static void rts_cmd_report(rts_state *s, int argc, char **argv) { printf("%s\n", RTS_EMPTY_REPORT); }

/* set_tuning_param NAME VALUE and tuning_param_class NAME: the
 * backend's tuning parameters (the OpenCL backend's; the others have
 * none, so every name is unknown). */
static void rts_cmd_set_tuning(rts_state *s, int argc, char **argv) {
    int64_t v;
    if (!rts_parse_int(argv[1], 0, INT64_MAX, &v)) rts_fail("Invalid tuning parameter value: %s", argv[1]);
    else if (!rt_the_backend || !rt_the_backend->set_param || !rt_the_backend->set_param(argv[0], v))
        rts_fail("Unknown tuning parameter: %s", argv[0]);
}

/* tuning_params ENTRY: every tuning parameter of the program (futhorc does
 * not record which entry point uses which). */
static void rts_cmd_tuning_params(rts_state *s, int argc, char **argv) {
    if (!rts_entry(s, argv[0])) return;
    for (int i = 0; rt_the_backend && rt_the_backend->param_name && rt_the_backend->param_name(i); i++)
        printf("%s\n", rt_the_backend->param_name(i));
}

static void rts_cmd_tuning_class(rts_state *s, int argc, char **argv) {
    const char *c = rt_the_backend && rt_the_backend->param_class ? rt_the_backend->param_class(argv[0]) : NULL;
    if (c) printf("%s\n", c);
    else rts_fail("Unknown tuning parameter: %s", argv[0]);
}

/* ---- Arrays ------------------------------------------------------------------ */

/* The single array type named by arg; false after a failure message if it
 * is no array type. */
static bool rts_array_type(const char *arg, rt_type *out) {
    rts_type t;
    if (!rts_arg_type(arg, &t)) return false;
    bool ok = !t.tuple && t.ts[0].rank > 0;
    if (ok) *out = t.ts[0];
    else rts_fail("Not an array type: %s", arg);
    rts_type_free(&t);
    return ok;
}

static void rts_cmd_rank(rts_state *s, int argc, char **argv) {
    rt_type t;
    if (rts_array_type(argv[0], &t)) printf("%d\n", t.rank);
}

static void rts_cmd_elemtype(rts_state *s, int argc, char **argv) {
    rt_type t;
    if (rts_array_type(argv[0], &t)) printf("%s\n", rt_prim_name(t.elem));
}

/* The array variable `name`; NULL after a failure message. */
static rts_var *rts_get_array(rts_state *s, const char *name) {
    rts_var *v = rts_get(s, name);
    if (v && (v->type.tuple || v->type.ts[0].rank == 0)) {
        rts_fail("Not an array: %s", name);
        return NULL;
    }
    return v;
}

static void rts_cmd_shape(rts_state *s, int argc, char **argv) {
    rts_var *v = rts_get_array(s, argv[0]);
    if (!v) return;
    for (int i = 0; i < v->vals[0].type.rank; i++) printf("%" PRId64 "\n", v->vals[0].shape[i]);
}

/* The row-major element offset of indices idx[0..rank-1] into array a;
 * -1 after a failure message if one is bad or the count is wrong. The
 * offset is computed once every index is known to be in bounds, so that
 * it is less than the number of elements (dimensions before a 0 one may
 * have any size). */
static int64_t rts_offset(const rt_value *a, int nidx, char **idx) {
    if (nidx != a->type.rank) {
        rts_fail("%d indices expected but %d values provided.", a->type.rank, nidx);
        return -1;
    }
    int64_t k[RTS_MAX_RANK], off = 0;
    for (int i = 0; i < nidx; i++)
        if (!rts_parse_int(idx[i], 0, a->shape[i] - 1, &k[i])) {
            rts_fail("Invalid index `%s` on dimension %d.", idx[i], i + 1);
            return -1;
        }
    for (int i = 0; i < nidx; i++) off = off * a->shape[i] + k[i];
    return off;
}

/* index TO FROM I1..In: the element of an array as a new scalar. */
static void rts_cmd_index(rts_state *s, int argc, char **argv) {
    rts_var *from = rts_get_array(s, argv[1]);
    if (!from || !rts_name_free(s, argv[0], NULL, 0, 1)) return;
    const rt_value *a = &from->vals[0];
    int64_t off = rts_offset(a, argc - 2, argv + 2);
    if (off < 0) return;
    int size = rt_prim_size(a->type.elem);
    rt_value v = {{a->type.elem, 0}, NULL, malloc((size_t)size)};
    if (!v.data) {
        rts_fail("Out of memory");
        return;
    }
    memcpy(v.data, (char *)a->data + off * size, (size_t)size);
    rts_define_one(s, argv[0], &v);
}

/* set ARR VAL I1..In: replaces one element of an array variable. */
static void rts_cmd_set(rts_state *s, int argc, char **argv) {
    rts_var *arr = rts_get_array(s, argv[0]), *val = arr ? rts_get(s, argv[1]) : NULL;
    if (!val) return;
    rt_value *a = &arr->vals[0];
    if (val->type.tuple || val->type.ts[0].rank != 0 || val->type.ts[0].elem != a->type.elem) {
        rts_fail("Value %s is not a %s.", argv[1], rt_prim_name(a->type.elem));
        return;
    }
    int64_t off = rts_offset(a, argc - 2, argv + 2);
    int size = rt_prim_size(a->type.elem);
    if (off >= 0) memcpy((char *)a->data + off * size, val->vals[0].data, (size_t)size);
}

/* The shape arguments of new_array of element type t; the element count,
 * or -1 after a failure message. */
static int64_t rts_parse_shape(rt_type t, char **args, int64_t *shape) {
    int64_t bytes;
    for (int i = 0; i < t.rank; i++)
        if (!rts_parse_int(args[i], 0, INT64_MAX, &shape[i])) {
            rts_fail("Invalid dimension size: %s", args[i]);
            return -1;
        }
    if (!rt_shape_bytes(shape, t.rank, rt_prim_size(t.elem), &bytes)) {
        rts_fail("Array too large: out of memory");
        return -1;
    }
    return bytes / rt_prim_size(t.elem);
}

/* Copies the scalar variables names[0..count-1] of element type elem into
 * data; false after a failure message. */
static bool rts_gather(rts_state *s, rt_prim elem, char **names, int64_t count, char *data) {
    int size = rt_prim_size(elem);
    for (int64_t i = 0; i < count; i++) {
        rts_var *v = rts_get(s, names[i]);
        if (!v) return false;
        if (v->type.tuple || v->type.ts[0].rank || v->type.ts[0].elem != elem) {
            rts_fail("Value %s is not a %s.", names[i], rt_prim_name(elem));
            return false;
        }
        memcpy(data + i * size, v->vals[0].data, (size_t)size);
    }
    return true;
}

/* new_array V T S1..Sn X1..Xm: an array from scalar variables. */
static void rts_cmd_new_array(rts_state *s, int argc, char **argv) {
    rt_type t;
    if (!rts_name_free(s, argv[0], NULL, 0, 1) || !rts_array_type(argv[1], &t)) return;
    if (argc - 2 < t.rank) {
        rts_fail("new_array: %d dimension sizes expected.", t.rank);
        return;
    }
    rt_value v = {t, malloc(sizeof(int64_t) * (size_t)t.rank), NULL};
    int64_t count = v.shape ? rts_parse_shape(t, argv + 2, v.shape) : -1;
    if (count >= 0 && count != argc - 2 - t.rank)
        rts_fail("new_array: %" PRId64 " values expected but %d provided.", count, argc - 2 - t.rank);
    else if (count >= 0 && !(v.data = malloc((size_t)count * (size_t)rt_prim_size(t.elem) + 1)))
        rts_fail("Out of memory");
    else if (count >= 0 && rts_gather(s, t.elem, argv + 2 + t.rank, count, v.data)) {
        rts_define_one(s, argv[0], &v);
        return;
    }
    rt_value_free(&v);
}

/* ---- Records (tuples) and sums -------------------------------------------------- */

static void rts_cmd_fields(rts_state *s, int argc, char **argv) {
    rts_type t;
    char buf[RTS_TYPE_LEN];
    if (!rts_arg_type(argv[0], &t)) return;
    if (!t.tuple) rts_fail("Not a record type: %s", argv[0]);
    for (int i = 0; t.tuple && i < t.n; i++) {
        rts_type f = {false, 1, &t.ts[i]};
        printf("%d %s\n", i, rts_type_name(&f, buf, sizeof buf));
    }
    rts_type_free(&t);
}

/* project TO FROM FIELD: a copy of a tuple's field. */
static void rts_cmd_project(rts_state *s, int argc, char **argv) {
    rts_var *from = rts_get(s, argv[1]);
    int64_t k;
    if (!from || !rts_name_free(s, argv[0], NULL, 0, 1)) return;
    if (!from->type.tuple) rts_fail("Not a record: %s", argv[1]);
    else if (!rts_parse_int(argv[2], 0, from->type.n - 1, &k)) rts_fail("No such field: %s", argv[2]);
    else {
        rt_value v;
        if (rts_copy_value(&from->vals[k], &v)) rts_define_one(s, argv[0], &v);
        else rts_fail("Out of memory");
    }
}

/* Copies the values of the variables names[0..t->n-1] (checked against the
 * tuple type t) into vals; false after a failure message. */
static bool rts_gather_fields(rts_state *s, const rts_type *t, char **names, rt_value *vals) {
    char want[RTS_TYPE_LEN], got[RTS_TYPE_LEN];
    for (int i = 0; i < t->n; i++) {
        rts_var *v = rts_get(s, names[i]);
        rts_type f = {false, 1, &t->ts[i]};
        if (v && !rts_type_eq(&v->type, &f))
            rts_fail("Field %d mismatch: expected type %s, got %s", i, rts_type_name(&f, want, sizeof want),
                     rts_type_name(&v->type, got, sizeof got));
        if (!v || !rts_type_eq(&v->type, &f) || !rts_copy_value(&v->vals[0], &vals[i])) {
            if (v && rts_type_eq(&v->type, &f)) rts_fail("Out of memory");
            rts_free_values(vals, i);
            return false;
        }
    }
    return true;
}

/* new V TYPE X1..Xn: a tuple from variables. */
static void rts_cmd_new(rts_state *s, int argc, char **argv) {
    rts_type t;
    if (!rts_name_free(s, argv[0], NULL, 0, 1) || !rts_arg_type(argv[1], &t)) return;
    rt_value *vals = NULL;
    if (!t.tuple) rts_fail("Not a record type: %s", argv[1]);
    else if (argc - 2 != t.n) rts_fail("%d fields expected but %d values provided.", t.n, argc - 2);
    else if (!(vals = calloc((size_t)t.n, sizeof(rt_value)))) rts_fail("Out of memory");
    else if (rts_gather_fields(s, &t, argv + 2, vals)) {
        rts_define(s, argv[0], t, vals);
        return;
    }
    free(vals);
    rts_type_free(&t);
}

/* zip and unzip: futhorc programs have no arrays of records. */
static void rts_cmd_zip(rts_state *s, int argc, char **argv) {
    rts_fail("%s: futhorc programs have no arrays of records", argv[-1]);
}

/* variants, construct, destruct, variant: futhorc programs have no sum
 * types in their interface. */
static void rts_cmd_sum(rts_state *s, int argc, char **argv) { rts_fail("Not a sum type"); }

/* ---- The command loop ------------------------------------------------------------- */

typedef struct rts_command {
    const char *name;
    int min_args, max_args; /* max_args -1: any number */
    rts_cmd_fn fn;
} rts_command;

static const rts_command rts_commands[] = {
    {"call", 1, -1, rts_cmd_call},
    {"restore", 1, -1, rts_cmd_restore},
    {"store", 1, -1, rts_cmd_store},
    {"free", 0, -1, rts_cmd_free},
    {"rename", 2, 2, rts_cmd_rename},
    {"inputs", 1, 1, rts_cmd_inputs},
    {"outputs", 1, 1, rts_cmd_outputs},
    {"output", 1, 1, rts_cmd_output},
    {"clear", 0, 0, rts_cmd_nothing},
    {"kind", 1, 1, rts_cmd_kind},
    {"type", 1, 1, rts_cmd_type},
    {"types", 0, 0, rts_cmd_types},
    {"entry_points", 0, 0, rts_cmd_entry_points},
    {"pause_profiling", 0, 0, rts_cmd_pause},
    {"unpause_profiling", 0, 0, rts_cmd_unpause},
    {"report", 0, 0, rts_cmd_report},
    {"set_tuning_param", 2, 2, rts_cmd_set_tuning},
    {"tuning_params", 1, 1, rts_cmd_tuning_params},
    {"tuning_param_class", 1, 1, rts_cmd_tuning_class},
    {"attributes", 1, 1, rts_cmd_entry_nothing},
    {"rank", 1, 1, rts_cmd_rank},
    {"elemtype", 1, 1, rts_cmd_elemtype},
    {"shape", 1, 1, rts_cmd_shape},
    {"index", 2, -1, rts_cmd_index},
    {"set", 2, -1, rts_cmd_set},
    {"new_array", 2, -1, rts_cmd_new_array},
    {"zip", 2, -1, rts_cmd_zip},
    {"unzip", 1, -1, rts_cmd_zip},
    {"fields", 1, 1, rts_cmd_fields},
    {"new", 2, -1, rts_cmd_new},
    {"project", 3, 3, rts_cmd_project},
    {"variants", 1, 1, rts_cmd_sum},
    {"construct", 3, -1, rts_cmd_sum},
    {"destruct", 1, -1, rts_cmd_sum},
    {"variant", 1, 1, rts_cmd_sum},
};

/* Splits line (modified in place) into words: runs of non-blanks, or
 * "quoted text". Returns the count, or -1 after a failure message. */
static int rts_split(char *line, char **words) {
    int n = 0;
    for (char *p = line;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
        if (!*p) return n;
        if (n == RTS_MAX_WORDS) {
            rts_fail("Command line has more than %d words", RTS_MAX_WORDS);
            return -1;
        }
        bool quoted = *p == '"';
        words[n++] = p + quoted;
        p += quoted;
        while (*p && (quoted ? *p != '"' : !(*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))) p++;
        if (quoted && !*p) {
            rts_fail("Malformed command: unterminated quote");
            return -1;
        }
        if (*p) *p++ = 0;
    }
}

/* Runs one command line. */
static void rts_process(rts_state *s, char *line, char **words) {
    int n = rts_split(line, words);
    if (n < 0) return;
    if (n == 0) {
        rts_fail("Empty line");
        return;
    }
    for (size_t i = 0; i < sizeof rts_commands / sizeof rts_commands[0]; i++) {
        const rts_command *c = &rts_commands[i];
        if (strcmp(c->name, words[0])) continue;
        if (n - 1 < c->min_args || (c->max_args >= 0 && n - 1 > c->max_args))
            rts_fail("Wrong number of arguments to %s: %d", c->name, n - 1);
        else c->fn(s, n - 1, words + 1);
        return;
    }
    rts_fail("Unknown command: %s", words[0]);
}

/* ---- Options ------------------------------------------------------------------------ */

/* Checks a tuning file: `name=integer` lines, blank lines and -- comments.
 * The backends that read --tuning themselves (OpenCL) take it before
 * this; the others have no tuning parameters, so the names are ignored. */
static bool rts_check_tuning_file(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "Error: cannot open tuning file %s: %s\n", path, strerror(errno));
        return false;
    }
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0;
    bool ok = true;
    while (ok && getline(&line, &cap, f) > 0) {
        lineno++;
        const char *p = rts_skip_blank(line), *eq = strchr(p, '=');
        if (*p == '\n' || *p == '\r' || *p == 0 || !strncmp(p, "--", 2)) continue;
        char *end;
        if (!eq || eq == p || (strtoll(eq + 1, &end, 10), end == eq + 1) ||
            *rts_skip_blank(end) > ' ') {
            fprintf(stderr, "Error: %s:%d: expected NAME=INTEGER\n", path, lineno);
            ok = false;
        }
    }
    free(line);
    fclose(f);
    return ok;
}

/* Parses the server's command line: the options of the executable that
 * make sense in server mode. False after a message on stderr. */
static bool rts_options(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int taken = rt_the_backend && rt_the_backend->option ? rt_the_backend->option(argc, argv, &i) : 0;
        if (taken < 0) return false;
        if (taken > 0) continue;
        bool has_value = !strcmp(a, "--tuning") || !strcmp(a, "--cache-file") || !strcmp(a, "--param");
        if (has_value && i + 1 >= argc) {
            fprintf(stderr, "Option %s requires an argument.\n", a);
            return false;
        }
        if (!strcmp(a, "--tuning") && !rts_check_tuning_file(argv[i + 1])) return false;
        if (!strcmp(a, "--param") && !strchr(argv[i + 1], '=')) {
            fprintf(stderr, "Error: --param expects NAME=INTEGER, not %s\n", argv[i + 1]);
            return false;
        }
        i += has_value;
        bool known = has_value || !strcmp(a, "--server") || !strcmp(a, "-D") || !strcmp(a, "--debugging") ||
                     !strcmp(a, "-L") || !strcmp(a, "--log") || !strcmp(a, "-P") || !strcmp(a, "--profile");
        if (!known) {
            fprintf(stderr, "%s: option '%s' is not accepted in server mode\n", argv[0], a);
            return false;
        }
    }
    return true;
}

static void rts_help(const char *prog) {
    printf("Usage: %s --server [OPTIONS]\n"
           "Reads server protocol commands on stdin (Futhark's server protocol).\n\nOptions:\n"
           "  --tuning FILE      tuning file (NAME=INTEGER lines; futhorc has no parameters)\n"
           "  --param NAME=INT   accepted and ignored\n"
           "  --cache-file FILE  accepted and ignored\n"
           "  -D, -L, -P         accepted and ignored (debug, log, profile)\n",
           prog);
}

int rt_server_main(int argc, char **argv, const rt_entry *entries, int nentries) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            rts_help(argv[0]);
            return 0;
        }
    if (!rts_options(argc, argv)) return 1;
    int rc = rt_server_run(stdin, entries, nentries);
    if (rt_the_backend && rt_the_backend->finish) rt_the_backend->finish();
    return rc;
}

int rt_server_run(FILE *in, const rt_entry *entries, int nentries) {
    rts_state s = {entries, nentries, NULL, 0, 0, false, {0}};
    char *line = NULL, **words = malloc(sizeof(char *) * RTS_MAX_WORDS);
    size_t cap = 0;
    if (!words) {
        fprintf(stderr, "Error: out of memory\n");
        return 1;
    }
    if (rt_the_backend && rt_the_backend->init_ctx) rt_the_backend->init_ctx(&s.ctx);
    rts_ok();
    while (getline(&line, &cap, in) > 0) {
        rts_process(&s, line, words);
        rts_ok();
    }
    while (s.nvars > 0) rts_drop(&s, &s.vars[s.nvars - 1]);
    if (rt_the_backend && rt_the_backend->fini_ctx) rt_the_backend->fini_ctx(&s.ctx);
    free(s.vars);
    free(words);
    free(line);
    return 0;
}

#undef RTS_MAX_WORDS
#undef RTS_MSG_LEN
#undef RTS_MAX_RANK
#undef RTS_TYPE_LEN
#undef RTS_EMPTY_REPORT
