/* Test blocks (`-- ==`, survey §2.1) and the data of their cases: the parser
 * and the helpers that `futhorc test` and `futhorc bench` share to turn a
 * case into a stdin file (literal values, data files, gzip, random input),
 * to compare a program's output with the expected values, to find programs
 * under directories and to start child processes. */
#ifndef FUTHORC_TOOLS_SPEC_H
#define FUTHORC_TOOLS_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "../util/util.h"

typedef enum { SPEC_IN_VALUES, SPEC_IN_FILE, SPEC_IN_RANDOM, SPEC_IN_SCRIPT } SpecInKind;
typedef enum { SPEC_OUT_NONE, SPEC_OUT_VALUES, SPEC_OUT_FILE, SPEC_OUT_ERROR, SPEC_OUT_AUTO } SpecOutKind;

typedef VEC(const char *) SpecStrings;

/* One case of a test block on one entry point (a case of a block with
 * `entry: a b` becomes two SpecCases). */
typedef struct SpecCase {
    const char *entry, *name;
    const char **tags; /* the words before `input` (random and script excluded) */
    int ntags;
    SpecInKind in_kind;
    const char *input;  /* values text, resolved path, the types of random input, script */
    bool script_file;   /* script input @ FILE: input is the file's path */
    SpecOutKind out_kind;
    const char *output; /* values text, resolved path or regex */
    int line;           /* of the block's "==" line */
} SpecCase;

/* A `structure [stage] { Name count ... }` line. */
typedef struct SpecStruct {
    const char *stage;  /* as written; soacs when none was given */
    const char *counts; /* the braced text, checked to be "Name count" pairs */
    int line;
} SpecStruct;

/* What the test blocks of one program ask for. */
typedef struct SpecFile {
    const char *path, *dir;
    const char *error;         /* malformed test block, or NULL */
    const char *compile_regex; /* set for a compile-error test */
    bool has_block;
    SpecStrings tags; /* `tags { ... }` of the first block */
    VEC(SpecCase *) cases;
    VEC(SpecStruct *) structs;
} SpecFile;

/* Parses the test blocks in text (the program at path) into f; problems go
 * to f->error. Strings live in arena a; free f with spec_file_free. */
void spec_parse_file(Arena *a, SpecFile *f, const char *path, const char *text);
void spec_file_free(SpecFile *f);

bool spec_case_has_tag(const SpecCase *c, const char *tag);
bool spec_file_has_tag(const SpecFile *f, const char *tag);

/* Whether name is a backend futhorc test and bench compile with (c,
 * opencl, multicore). */
bool spec_backend_known(const char *name);

/* The next whitespace-separated word of s at *pos (NULL at the end). */
const char *spec_next_word(Arena *a, const char *s, size_t *pos);

/* ---- Case data ----------------------------------------------------------- */

/* Temporary files of one tool run: fresh names in tmpdir, and the files
 * generated for random input, kept (and shared by cases with the same
 * types) until the directory is removed. */
typedef struct SpecWork {
    Arena *arena;
    const char *tmpdir;
    int serial;
    SpecStrings random_keys, random_files;
} SpecWork;

/* Creates the temporary directory ($TMPDIR or /tmp) named after tool;
 * false after a message. spec_work_free removes it and what it holds. */
bool spec_work_init(SpecWork *w, Arena *a, const char *tool);
void spec_work_free(SpecWork *w);

/* A fresh file name in the temporary directory. */
const char *spec_tmp(SpecWork *w, const char *what);

/* Reads a data file, decompressing .gz files with gzip -dc; NULL (with a
 * message in *why) on failure. The result is malloc'd. */
char *spec_load(SpecWork *w, const char *path, size_t *len, const char **why);

/* The file to give a case's program as stdin: the data file itself, the
 * cached random data, or a temporary file (*tmp, for the caller to remove)
 * holding literal values or a decompressed file. NULL (with *why) on
 * failure. Random input is generated with `futhorc dataset -b` semantics
 * and seed 1. */
const char *spec_stdin_file(SpecWork *w, const SpecCase *c, const char **tmp, const char **why);

/* The FutharkScript expression of a script input case: the braced text,
 * or the contents of its file (in the arena). NULL (with *why) when the
 * file cannot be read. */
const char *spec_script_text(SpecWork *w, const SpecCase *c, const char **why);

/* Compares a program's output with the case's expected values (SPEC_OUT_VALUES
 * or SPEC_OUT_FILE); NULL if they match, else what differs. */
const char *spec_check_output(SpecWork *w, const SpecCase *c, const char *out, size_t olen);

/* True if text matches the POSIX extended regex re; sets *bad when re does
 * not compile. */
bool spec_regex_match(const char *re, const char *text, bool *bad);

/* ---- Files and processes ------------------------------------------------- */

/* Adds path (a file, or every *.fut under a directory, sorted) to out;
 * false if path does not exist. */
bool spec_collect(Arena *a, const char *path, SpecStrings *out);

/* The directory part of path ("." when none). */
const char *spec_dir_of(Arena *a, const char *path);
/* The tuning file of the program at path that runs of its executables
 * take (--tuning FILE): path followed by ext (".tuning", written by
 * `futhorc autotune`) when it exists and the backend has tuning
 * parameters (opencl); else NULL (also for ext NULL: --no-tuning). */
const char *spec_tuning_file(Arena *a, const char *backend, const char *path, const char *ext);

/* The tuning file of the program at path (spec_tuning_file), compiled as
 * exe, or NULL with *why set when the file names a parameter that exe
 * does not list (--print-params): a tuning file written for another
 * compiler, such as Futhark's in futhark-benchmarks, which the program
 * would reject. */
const char *spec_tuning_for(SpecWork *w, const char *backend, const char *path, const char *ext, const char *exe,
                            const char **why);

/* Starts argv in its own process group with stdin from in (or /dev/null)
 * and stdout/stderr into the files out and err; the pid, or -1. */
pid_t spec_spawn(char *const *argv, const char *in, const char *out, const char *err);

/* Describes a wait status ("exit status 1", "killed by signal 11"). */
const char *spec_status_str(Arena *a, int status);

/* Command-line helpers shared by the tools. */
/* The value of option opt given as "--opt=V", "-xV" or "-x V" at argv[*i]
 * (advancing *i past a separate value); NULL if argv[*i] is not opt. */
const char *spec_optval(int argc, char **argv, int *i, const char *opt);
/* v as an integer within [1, max]; -1 if it is not one (or NULL). */
int spec_posint(const char *v, int max);

#endif
