/* The benchmark runner that `futhorc bench` (bench.c) and `futhorc
 * autotune` (autotune.c) share: compiling a program, preparing a case's
 * input, and timing an entry point on it. */
#ifndef FUTHORC_TOOLS_BENCH_RUN_H
#define FUTHORC_TOOLS_BENCH_RUN_H

#include "../util/util.h"
#include "bench.h"
#include "spec.h"

/* The result of one dataset: runtimes (µs) or an error. */
typedef struct BenchData {
    const char *name;
    const char *error;
    int64_t *runtimes;
    int nruns;
} BenchData;

/* The results of one program and entry point, keyed "prog.fut[:entry]". */
typedef struct BenchEntry {
    const char *key;
    VEC(BenchData) data;
} BenchEntry;

typedef VEC(BenchEntry *) BenchResults;

typedef struct Bencher {
    Arena arena;
    SpecWork work;
    const char *futhorc, *backend, *json, *plot, *entry_only, *ignore;
    const char *tuning_ext; /* programs' tuning files are PROG.fut<tuning_ext>; NULL: none */
    const char *tuning;     /* the tuning file of the program being timed, or NULL */
    SpecStrings copts, popts, exclude;
    int runs, timeout_s;
    bool exact;    /* -r given: exactly runs runs, no top-up */
    bool progress; /* stderr is a terminal */
    int failures;
    BenchResults results;
} Bencher;

/* Seconds on a monotonic clock. */
double bench_now(void);
/* Runs argv with stdin from in (or none), stdout to out, killed after
 * deadline (a bench_now time; 0: none); NULL on success, else why it
 * failed (with the start of its stderr). With log, *log is its whole
 * stderr (malloc'd; NULL when unreadable). */
const char *bench_exec(Bencher *b, char **argv, const char *in, const char *out, double deadline, const char *what,
                       char **log);
/* Compiles path into exe (with b's backend and compiler options); NULL on
 * success, else why not. */
const char *bench_compile(Bencher *b, const char *path, const char *exe);
/* True if a case is to be timed: not excluded by a tag, not expecting an
 * error, on the entry asked. */
bool bench_runnable(Bencher *b, const SpecCase *c);
/* The file holding case c's input for exe (*tmp: a temporary file to
 * delete after, or NULL); NULL with *why when it cannot be made. */
const char *bench_input(Bencher *b, const char *path, const char *exe, const SpecCase *c, const char *label,
                        const char **tmp, const char **why);
/* Times c's entry of exe on input file in into d (runtimes, or an error;
 * a wrong result is an error): a warm-up run and b->runs measured runs
 * (more until 0.5 s unless b->exact), with b's program options, the
 * program's tuning file (b->tuning) and then extra (or NULL). With log,
 * *log is the last execution's stderr (malloc'd, or NULL). */
void bench_time(Bencher *b, const char *exe, const SpecCase *c, const char *in, const char *label,
                const SpecStrings *extra, char **log, BenchData *d);

#endif
