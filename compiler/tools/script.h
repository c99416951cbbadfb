/* FutharkScript: the small expression language of `futhorc script`,
 * `script input` test cases and (later) literate programs, evaluated by
 * driving a compiled program in server mode (futhorc-script(1)). */
#ifndef FUTHORC_TOOLS_SCRIPT_H
#define FUTHORC_TOOLS_SCRIPT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "spec.h"

typedef struct ScriptVal ScriptVal;
struct Ty;

/* A running server-mode program and the script's variables. */
typedef struct Script {
    Arena *a;
    SpecWork *work;
    const char *dir; /* builtins' file names are relative to it */
    pid_t pid;
    FILE *to, *from;
    int nvars;
    bool verbose;
    const char *error; /* the last failure, for the caller to report */
    /* The declared result types of the entry points, when the program's
     * source is at hand: results are then tuples and records as declared,
     * else a tuple of the server's (flattened) outputs. */
    int nentries;
    const char **entry_names;
    struct Ty **entry_results;
} Script;

/* Starts exe --server (with the extra options opts, NULL-terminated);
 * false with s->error set. */
bool script_start(Script *s, const char *exe, char *const *opts);
/* Ends the server (closing its input) and waits for it. */
void script_stop(Script *s);

/* Evaluates the expression text; NULL with s->error set on failure. */
ScriptVal *script_eval(Script *s, const char *text);
/* Writes v to f: in Futhark's textual syntax (tuples as (a, b), records as
 * {x=a}), or with binary the values of v's components in the binary data
 * format one after another. False with s->error set. */
bool script_write(Script *s, const ScriptVal *v, FILE *f, bool binary);

/* The value of a scalar or array v (a server variable or a literal) in
 * *val, for the caller to free; false with s->error set otherwise. */
struct rt_value;
bool script_fetch(Script *s, const ScriptVal *v, struct rt_value *val);
/* The components of a tuple or record v (names NULL for a tuple); -1 if v
 * is neither. */
int script_components(const ScriptVal *v, const char *const **names, ScriptVal *const **elems);

/* Compiles prog with `futhorc BACKEND COPTS... prog` into w's directory and
 * returns the executable; NULL after printing the compiler's messages. */
const char *script_compile(Arena *a, SpecWork *w, const char *futhorc, const char *backend, char *const *copts,
                           int ncopts, const char *prog);
/* Reads the declared result types of prog's entry points (and of the
 * definitions --entry-point options among copts name) from its source. */
void script_entry_types(Script *s, const char *prog, char *const *copts, int ncopts);

/* `futhorc script`; argv[0] is "script". */
int tool_script(int argc, char **argv, const char *futhorc_path);

#endif
