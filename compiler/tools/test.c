/* `futhorc test`: finds .fut programs, parses their `-- ==` test blocks
 * (survey §2.1, with spec.c), compiles each program once, runs each case's entry point
 * with the case's input on stdin and checks the output (rt_values_match) or
 * the expected error. Child processes run in parallel (-j), each with its
 * stdin, stdout and stderr in files of a temporary directory and with a time
 * limit. Random input is generated (seed 1) into the temporary directory
 * once per run and shared by the cases with the same types. Programs are
 * linked with one runtime object made by the first compilation of the run
 * (futhorc c --runtime-object), unless --self-contained. Results are
 * printed in file order, then "N passed, N failed"; a progress line comes
 * every TEST_PROGRESS_S seconds meanwhile. */
#include "test.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../util/util.h"
#include "rt.h"
#include "spec.h"

/* Time limit of one run of a test program: generous for the small data sets
 * of tests, while a hang still fails within a minute. */
enum { TEST_RUN_TIMEOUT_S = 60 };
/* Time limit of one compilation: large programs through the whole optimiser
 * take seconds; minutes mean the compiler hangs. */
enum { TEST_COMPILE_TIMEOUT_S = 300 };
/* Parallel processes by default: the machines this runs on have few cores. */
enum { TEST_DEFAULT_JOBS = 2 };
/* Most processes at once: sizes the slot table; more is never useful. */
enum { TEST_MAX_JOBS = 64 };
/* Pause between checks on running children, in ms: adds no noticeable
 * latency and costs no noticeable CPU. */
enum { TEST_POLL_MS = 10 };
/* Most bytes of a child's stderr quoted in a failure: enough for any real
 * message, while a runaway program cannot flood the report. */
enum { TEST_MAX_QUOTE = 4000 };
/* Seconds between progress lines: often enough that a log shows the run is
 * alive, rarely enough not to fill it. */
enum { TEST_PROGRESS_S = 20 };
/* The exit status of a generated program's run-time error and of a
 * compilation error; a case expecting an error wants exactly this status
 * (a crash or a sanitizer's report exits otherwise). */
enum { TEST_ERROR_STATUS = 1 };

typedef struct TestProg TestProg;

/* One case of a test block, run on one entry point. */
typedef struct TestRun {
    TestProg *prog;
    const SpecCase *c;
    SpecCase *expected; /* auto output: c with the reference run's output */
    Buf report;         /* its result lines, printed in case order */
} TestRun;

/* A program, what its test blocks ask for, and its results. */
struct TestProg {
    const char *path, *exe;
    const char *ref_exe; /* compiled by futhorc c for auto output, or NULL */
    SpecFile spec;
    int nskipped;
    int compiling;     /* compilations not finished */
    bool compile_failed;
    VEC(TestRun *) runs;
    VEC(SpecStruct *) structs; /* the checks of stages soacs and mem */
    Buf report; /* failures (and passes with -v), printed in file order */
    int npassed, nfailed;
    int pending; /* tasks not finished */
    bool tuning_known; /* tuning: its tuning file, once looked up (test_tuning) */
    const char *tuning;
};

/* A child process to run: compiling a program (run == NULL) or one run. */
typedef struct Task {
    TestProg *prog;
    TestRun *run;
    pid_t pid;
    double start;
    int limit_s;
    bool timed_out;
    const char *out, *err;
    const char *in_tmp; /* temporary stdin file, removed when done */
    SpecStruct *sc;     /* set for a structure check */
    bool ref;           /* the reference compilation or run of auto output */
} Task;

typedef VEC(Task) TaskQueue;
typedef SpecStrings Strings;

typedef struct Tester {
    Arena arena;
    SpecWork work;
    const char *futhorc, *backend;
    const char *rt_object; /* the runtime object programs link, or NULL (--self-contained) */
    const char *tuning_ext; /* programs' tuning files are PROG.fut<tuning_ext>; NULL: none */
    Strings copts, popts; /* options of the compiler and of the programs */
    int jobs, timeout_s;
    bool verbose, self_contained;
    double start, progress_at; /* when the run began; when to show progress */
    VEC(TestProg *) progs;
    TaskQueue compiles, runs; /* waiting tasks; runs go first */
    int compiles_head, runs_head, next_report;
    Task slots[TEST_MAX_JOBS];
    int running;
} Tester;

/* ---- Reporting ------------------------------------------------------------ */

/* Appends text indented by four spaces, cut at TEST_MAX_QUOTE bytes. */
static void test_quote(Buf *b, const char *text) {
    size_t n = text ? strlen(text) : 0;
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == ' ')) n--;
    if (n == 0) {
        buf_puts(b, "    (no output)\n");
        return;
    }
    bool cut = n > TEST_MAX_QUOTE;
    if (cut) n = TEST_MAX_QUOTE;
    buf_puts(b, "    ");
    for (size_t i = 0; i < n; i++) {
        buf_putc(b, text[i]);
        if (text[i] == '\n') buf_puts(b, "    ");
    }
    buf_puts(b, cut ? "\n    ...\n" : "\n");
}

/* Appends "WHAT path[, entry E, NAME]: " for a result line to the run's
 * report (or the program's); returns that report. */
static Buf *test_header(TestProg *p, TestRun *r, const char *what) {
    Buf *b = r ? &r->report : &p->report;
    buf_printf(b, "%s %s", what, p->path);
    if (r) buf_printf(b, ", entry %s, %s", r->c->entry, r->c->name);
    buf_puts(b, ": ");
    return b;
}

static void test_fail(TestProg *p, TestRun *r, const char *why, const char *quote) {
    Buf *b = test_header(p, r, "FAIL");
    buf_printf(b, "%s\n", why);
    if (quote) test_quote(b, quote);
    p->nfailed++;
}

static void test_pass(Tester *t, TestProg *p, TestRun *r) {
    if (t->verbose) buf_puts(test_header(p, r, "PASS"), r ? "ok\n" : "compiled as expected\n");
    p->npassed++;
}

/* Prints the reports of finished programs, in file order. */
static void test_flush_reports(Tester *t) {
    while (t->next_report < t->progs.len && t->progs.items[t->next_report]->pending == 0) {
        TestProg *p = t->progs.items[t->next_report++];
        if (p->report.len) fputs(p->report.data, stdout);
        buf_free(&p->report);
        for (int i = 0; i < p->runs.len; i++) {
            if (p->runs.items[i]->report.len) fputs(p->runs.items[i]->report.data, stdout);
            buf_free(&p->runs.items[i]->report);
        }
    }
    fflush(stdout);
}

static double test_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Prints a progress line when TEST_PROGRESS_S seconds have passed since the
 * last: programs finished, cases passed and failed so far. */
static void test_progress(Tester *t) {
    double now = test_now();
    if (now < t->progress_at) return;
    t->progress_at = now + TEST_PROGRESS_S;
    int done = 0, passed = 0, failed = 0;
    for (int i = 0; i < t->progs.len; i++) {
        done += t->progs.items[i]->pending == 0;
        passed += t->progs.items[i]->npassed;
        failed += t->progs.items[i]->nfailed;
    }
    printf("progress: %d of %d programs, %d passed, %d failed, %.0f s\n", done, t->progs.len, passed, failed,
           now - t->start);
    fflush(stdout);
}

/* ---- Checking results ----------------------------------------------------- */

/* Checks the output of a successful run against the expected values. */
static void test_check_output(Tester *t, TestRun *r, const char *out, size_t olen) {
    const char *why = spec_check_output(&t->work, r->expected ? r->expected : r->c, out, olen);
    if (why) test_fail(r->prog, r, why, NULL);
    else test_pass(t, r->prog, r);
}

/* Whether a child exited with the status of a reported error. */
static bool test_error_status(int status) {
    return WIFEXITED(status) && WEXITSTATUS(status) == TEST_ERROR_STATUS;
}

/* Judges a finished run from its exit status and output files. */
static void test_run_done(Tester *t, Task *k, int status, const char *out, size_t olen,
                          const char *err) {
    TestRun *r = k->run;
    TestProg *p = r->prog;
    bool bad = false;
    if (k->timed_out) {
        test_fail(p, r, arena_printf(&t->arena, "timed out after %d s", k->limit_s), NULL);
    } else if (r->c->out_kind == SPEC_OUT_ERROR) {
        const char *re = r->c->output;
        if (status == 0)
            test_fail(p, r, arena_printf(&t->arena, "succeeded, but an error matching /%s/ was "
                                         "expected", re), NULL);
        else if (!test_error_status(status))
            test_fail(p, r, arena_printf(&t->arena, "failed (%s), but exit status %d was expected:",
                                         spec_status_str(&t->arena, status), TEST_ERROR_STATUS), err);
        else if (spec_regex_match(re, err, &bad)) test_pass(t, p, r);
        else if (bad) test_fail(p, r, arena_printf(&t->arena, "invalid regex /%s/", re), NULL);
        else test_fail(p, r, arena_printf(&t->arena, "error did not match /%s/:", re), err);
    } else if (status != 0) {
        test_fail(p, r, arena_printf(&t->arena, "failed (%s):", spec_status_str(&t->arena, status)), err);
    } else if (r->c->out_kind == SPEC_OUT_NONE || (r->c->out_kind == SPEC_OUT_AUTO && !r->expected)) {
        test_pass(t, p, r); /* auto output on the reference backend: its own output */
    } else {
        test_check_output(t, r, out, olen);
    }
}

/* The count printed for name in a `futhorc structure` output (0 if absent). */
static long test_struct_count(const char *out, const char *name) {
    size_t n = strlen(name);
    for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (!strncmp(l, name, n) && l[n] == ' ') return strtol(l + n + 1, NULL, 10);
    return 0;
}

/* Judges a structure check: every named count must match. */
static void test_struct_done(Tester *t, Task *k, int status, const char *out, const char *err) {
    TestProg *p = k->prog;
    SpecStruct *sc = k->sc;
    const char *what = arena_printf(&t->arena, "structure %s check (test block at line %d)", sc->stage, sc->line);
    if (k->timed_out || status != 0) {
        test_fail(p, NULL, arena_printf(&t->arena, "%s: futhorc structure failed (%s):", what,
                                        k->timed_out ? "timed out" : spec_status_str(&t->arena, status)), err);
        return;
    }
    Buf why = {0};
    size_t pos = 0;
    for (const char *w; (w = spec_next_word(&t->arena, sc->counts, &pos));) {
        const char *n = spec_next_word(&t->arena, sc->counts, &pos); /* checked by the parser */
        long want = strtol(n ? n : "0", NULL, 10), got = test_struct_count(out, w);
        if (got != want) buf_printf(&why, "%s%s %ld, expected %ld", why.len ? "; " : "", w, got, want);
    }
    if (why.len) test_fail(p, NULL, arena_printf(&t->arena, "%s: %s; all counts:", what, why.data), out);
    else if (t->verbose) buf_printf(test_header(p, NULL, "PASS"), "%s\n", what), p->npassed++;
    else p->npassed++;
    buf_free(&why);
}

/* ---- Scheduling ----------------------------------------------------------- */

/* Queues a task for p. */
static void test_queue(TaskQueue *q, TestProg *p, TestRun *run, SpecStruct *sc, int limit_s, bool ref) {
    Task k = {p, run, 0, 0, limit_s, false, NULL, NULL, NULL, sc, ref};
    vec_push(q, k);
    p->pending++;
}

/* Whether r's expected output comes from a run of the reference (C)
 * program, compiled apart because the backend is another. */
static bool test_needs_ref(const TestProg *p, const TestRun *r) {
    return r->c->out_kind == SPEC_OUT_AUTO && p->ref_exe;
}

/* After a reference run: its output becomes the case's expected output. */
static void test_ref_done(Tester *t, Task *k, int status, const char *err) {
    TestRun *r = k->run;
    if (k->timed_out || status != 0) {
        const char *how = k->timed_out ? "timed out" : spec_status_str(&t->arena, status);
        const char *why = arena_printf(&t->arena, "the reference run (futhorc c) for auto output failed (%s):", how);
        test_fail(r->prog, r, why, err);
        return;
    }
    r->expected = NEW(&t->arena, SpecCase);
    *r->expected = *r->c;
    r->expected->out_kind = SPEC_OUT_FILE;
    r->expected->output = k->out;
    k->out = NULL; /* kept until the run is judged */
    test_queue(&t->runs, r->prog, r, NULL, t->timeout_s, false);
}

/* Judges a compile-error test from the compiler's exit status. */
static void test_compile_error_done(Tester *t, Task *k, int status, const char *err) {
    TestProg *p = k->prog;
    const char *re = p->spec.compile_regex;
    bool bad = false;
    if (k->timed_out)
        test_fail(p, NULL, arena_printf(&t->arena, "compiler timed out after %d s", k->limit_s), NULL);
    else if (status == 0)
        test_fail(p, NULL, arena_printf(&t->arena, "compiled, but an error matching /%s/ was "
                                        "expected", re), NULL);
    else if (!test_error_status(status))
        test_fail(p, NULL, arena_printf(&t->arena, "compiler failed (%s), but exit status %d was expected:",
                                        spec_status_str(&t->arena, status), TEST_ERROR_STATUS), err);
    else if (spec_regex_match(re, err, &bad)) test_pass(t, p, NULL);
    else if (bad) test_fail(p, NULL, arena_printf(&t->arena, "invalid regex /%s/", re), NULL);
    else test_fail(p, NULL, arena_printf(&t->arena, "compiler error did not match /%s/:", re), err);
}

/* After compiling (the program, or the reference of auto output): when
 * both are done, queue the runs, or fail them all. */
static void test_compile_done(Tester *t, Task *k, int status, const char *err) {
    TestProg *p = k->prog;
    if (p->spec.compile_regex) {
        test_compile_error_done(t, k, status, err);
        return;
    }
    p->compiling--;
    if ((k->timed_out || status != 0) && !p->compile_failed) {
        const char *how = k->timed_out ? arena_printf(&t->arena, "timed out after %d s", k->limit_s)
                                       : spec_status_str(&t->arena, status);
        int n = p->runs.len ? p->runs.len : 1;
        test_fail(p, NULL, arena_printf(&t->arena, "%s failed (%s; %d case%s not run):",
                                        k->ref ? "compilation of the reference for auto output (futhorc c)"
                                               : "compilation", how, n, n == 1 ? "" : "s"), err);
        p->nfailed += n - 1;
        p->compile_failed = true;
    }
    if (p->compiling > 0 || p->compile_failed) return;
    if (p->runs.len == 0) test_pass(t, p, NULL);
    for (int i = 0; i < p->runs.len; i++) {
        TestRun *r = p->runs.items[i];
        test_queue(&t->runs, p, r, NULL, t->timeout_s, test_needs_ref(p, r));
    }
}

/* The compiler's command line for p, or for its reference program (the C
 * backend, self-contained, without the options meant for the backend
 * under test). */
static char **test_compile_argv(Tester *t, TestProg *p, bool ref) {
    char **argv = NEW_ARRAY(&t->arena, char *, t->copts.len + 7);
    int n = 0;
    argv[n++] = (char *)t->futhorc;
    argv[n++] = ref ? "c" : (char *)t->backend;
    if (!ref && t->rt_object && strcmp(t->backend, "multicore")) /* whose runtime object is futhorc's own */
        argv[n++] = arena_printf(&t->arena, "--runtime-object=%s", t->rt_object);
    for (int i = 0; i < t->copts.len && !ref; i++) argv[n++] = (char *)t->copts.items[i];
    argv[n++] = (char *)p->path;
    argv[n++] = "-o";
    argv[n++] = (char *)(ref ? p->ref_exe : p->exe);
    argv[n] = NULL;
    return argv;
}

/* The tuning file p's runs take, looked up once it is compiled: none when
 * the file names parameters p does not have (a note in p's report says
 * so). */
static const char *test_tuning(Tester *t, TestProg *p) {
    if (!p->tuning_known) {
        const char *why;
        p->tuning = spec_tuning_for(&t->work, t->backend, p->path, t->tuning_ext, p->exe, &why);
        if (why) buf_printf(&p->report, "NOTE %s: no tuning file: %s\n", p->path, why);
        p->tuning_known = true;
    }
    return p->tuning;
}

/* The command line of a run: the program on the case's stdin, or for script
 * input `futhorc script` applying the entry point to the script's value.
 * Auto output compares binary values; the reference run takes no program
 * options. */
static char **test_run_argv(Tester *t, Task *k, const char **why) {
    const SpecCase *c = k->run->c;
    const char *exe = k->ref ? k->prog->ref_exe : k->prog->exe;
    int npopts = k->ref ? 0 : t->popts.len;
    const char *tuning = k->ref ? NULL : test_tuning(t, k->prog);
    char **argv = NEW_ARRAY(&t->arena, char *, npopts + 12);
    int n = 0;
    if (c->in_kind == SPEC_IN_SCRIPT) {
        const char *text = spec_script_text(&t->work, c, why);
        if (!text) return NULL;
        argv[n++] = (char *)t->futhorc, argv[n++] = "script", argv[n++] = "-b";
        argv[n++] = arena_printf(&t->arena, "--directory=%s", k->prog->spec.dir);
        for (int i = 0; i < npopts; i++) argv[n++] = arena_printf(&t->arena, "--pass-option=%s", t->popts.items[i]);
        if (tuning) argv[n++] = arena_printf(&t->arena, "--pass-option=--tuning=%s", tuning);
        argv[n++] = (char *)exe;
        argv[n++] = arena_printf(&t->arena, "%s (%s)", c->entry, text);
    } else {
        argv[n++] = (char *)exe, argv[n++] = "-e", argv[n++] = (char *)c->entry;
        if (c->out_kind == SPEC_OUT_AUTO) argv[n++] = "-b";
        if (tuning) argv[n++] = "--tuning", argv[n++] = (char *)tuning;
        for (int i = 0; i < npopts; i++) argv[n++] = (char *)t->popts.items[i];
    }
    argv[n] = NULL;
    return argv;
}

/* The command line of a structure check. */
static char **test_struct_argv(Tester *t, Task *k) {
    char **argv = NEW_ARRAY(&t->arena, char *, t->copts.len + 6);
    int n = 0;
    argv[n++] = (char *)t->futhorc;
    argv[n++] = "structure";
    argv[n++] = "--stage";
    argv[n++] = (char *)k->sc->stage;
    for (int i = 0; i < t->copts.len; i++) argv[n++] = (char *)t->copts.items[i];
    argv[n++] = (char *)k->prog->path;
    argv[n] = NULL;
    return argv;
}

/* Starts task k; false if it could not start (its failure is recorded). */
static bool test_start(Tester *t, Task *k) {
    char **argv;
    const char *in = NULL, *why = NULL;
    if (k->sc) {
        argv = test_struct_argv(t, k);
    } else if (k->run) {
        if (k->run->c->in_kind != SPEC_IN_SCRIPT && !(in = spec_stdin_file(&t->work, k->run->c, &k->in_tmp, &why))) {
            if (k->in_tmp) unlink(k->in_tmp);
            return test_fail(k->prog, k->run, why, NULL), false;
        }
        if (!(argv = test_run_argv(t, k, &why))) return test_fail(k->prog, k->run, why, NULL), false;
    } else {
        argv = test_compile_argv(t, k->prog, k->ref);
    }
    k->out = spec_tmp(&t->work, "out");
    k->err = spec_tmp(&t->work, "err");
    k->pid = spec_spawn(argv, in, k->out, k->err);
    if (k->pid < 0) return test_fail(k->prog, k->run, "cannot fork", NULL), false;
    k->start = test_now();
    return true;
}

/* Collects a finished task's output and judges it. */
static void test_finish(Tester *t, Task *k, int status) {
    size_t olen = 0;
    char *out = util_read_file(k->out, &olen), *err = util_read_file(k->err, NULL);
    if (k->sc) test_struct_done(t, k, status, out ? out : "", err);
    else if (k->run && k->ref) test_ref_done(t, k, status, err);
    else if (k->run) test_run_done(t, k, status, out, olen, err);
    else test_compile_done(t, k, status, err);
    free(out);
    free(err);
    if (k->out) unlink(k->out);
    unlink(k->err);
    if (k->in_tmp) unlink(k->in_tmp);
    k->prog->pending--;
    k->pid = 0;
    t->running--;
}

/* Starts waiting tasks while slots are free: runs before compilations. */
static void test_fill_slots(Tester *t) {
    for (int s = 0; s < t->jobs && t->running < t->jobs; s++) {
        if (t->slots[s].pid) continue;
        Task k;
        if (t->runs_head < t->runs.len) k = t->runs.items[t->runs_head++];
        else if (t->compiles_head < t->compiles.len) k = t->compiles.items[t->compiles_head++];
        else return;
        if (test_start(t, &k)) {
            t->slots[s] = k;
            t->running++;
        } else {
            k.prog->pending--;
            s--; /* the slot is still free */
        }
    }
}

/* Kills tasks that ran past their limit (their whole process group). */
static void test_kill_late(Tester *t) {
    double now = test_now();
    for (int s = 0; s < t->jobs; s++) {
        Task *k = &t->slots[s];
        if (k->pid && !k->timed_out && now - k->start > k->limit_s) {
            kill(-k->pid, SIGKILL);
            kill(k->pid, SIGKILL);
            k->timed_out = true;
        }
    }
}

/* Runs every queued task to completion. */
static void test_run_all(Tester *t) {
    struct timespec pause = {0, TEST_POLL_MS * 1000000L};
    t->start = test_now();
    t->progress_at = t->start + TEST_PROGRESS_S;
    for (;;) {
        test_fill_slots(t);
        test_flush_reports(t);
        test_progress(t);
        if (t->running == 0) return;
        int status;
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid < 0 && errno != EINTR) return;
        if (pid <= 0) {
            test_kill_late(t);
            nanosleep(&pause, NULL);
            continue;
        }
        for (int s = 0; s < t->jobs; s++)
            if (t->slots[s].pid == pid) test_finish(t, &t->slots[s], status);
    }
}

/* ---- Files and options ---------------------------------------------------- */

static void test_usage(void) {
    printf("Usage: futhorc test [OPTIONS] FILES|DIRS\n"
           "Compiles each program and runs the cases of its -- == test blocks.\n\n"
           "Options:\n"
           "  -j N, --concurrency=N          run N test processes at once (default %d)\n"
           "  -v, --verbose                  also print passing cases and skipped files\n"
           "  --backend=NAME                 compile with backend NAME: c (default), opencl\n"
           "                                 or multicore\n"
           "  --pass-compiler-option=OPT     pass OPT to the compiler\n"
           "  -p OPT, --pass-option=OPT      pass OPT to the test programs\n"
           "  --timeout=SECONDS              time limit of each run (default %d)\n"
           "  --self-contained               compile each program with its whole runtime\n"
           "  --tuning=EXT                   run the opencl programs with the tuning file\n"
           "                                 PROG.futEXT when it exists (default .tuning)\n"
           "  --no-tuning                    use no tuning file\n"
           "  -h, --help                     print this text\n",
           TEST_DEFAULT_JOBS, TEST_RUN_TIMEOUT_S);
}



/* Prints a command-line error; returns the exit status 1. */
static int test_bad_usage(const char *what, const char *arg) {
    fprintf(stderr, "futhorc test: %s '%s'; try --help\n", what, arg);
    return 1;
}

/* Parses options; returns 0 to go on, 1 on error, 2 after --help. */
static int test_options(Tester *t, int argc, char **argv, Strings *paths) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            test_usage();
            return 2;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            t->verbose = true;
        } else if (!strcmp(a, "--self-contained")) {
            t->self_contained = true;
        } else if (!strcmp(a, "--no-tuning")) {
            t->tuning_ext = NULL;
        } else if ((v = spec_optval(argc, argv, &i, "--tuning"))) {
            t->tuning_ext = v;
        } else if ((v = spec_optval(argc, argv, &i, "-j")) ||
                   (v = spec_optval(argc, argv, &i, "--concurrency"))) {
            if ((t->jobs = spec_posint(v, TEST_MAX_JOBS)) < 0) return test_bad_usage("bad -j value", v);
        } else if ((v = spec_optval(argc, argv, &i, "--timeout"))) {
            if ((t->timeout_s = spec_posint(v, INT32_MAX)) < 0)
                return test_bad_usage("bad --timeout value", v);
        } else if ((v = spec_optval(argc, argv, &i, "--backend"))) {
            t->backend = v;
        } else if ((v = spec_optval(argc, argv, &i, "-p")) || (v = spec_optval(argc, argv, &i, "--pass-option"))) {
            vec_push(&t->popts, v);
        } else if ((v = spec_optval(argc, argv, &i, "--pass-compiler-option"))) {
            vec_push(&t->copts, v);
        } else if (a[0] == '-' && a[1]) {
            return test_bad_usage("unknown or incomplete option", a);
        } else {
            vec_push(paths, a);
        }
    }
    if (paths->len == 0) return test_bad_usage("no files or directories given", "");
    if (!spec_backend_known(t->backend)) return test_bad_usage("unknown backend", t->backend);
    return 0;
}

/* Sorts the parsed cases and structure checks of p into runs and skipped
 * ones (notest, disable, no_<backend>; structure stages other than soacs,
 * gpu and mem). */
static void test_classify(Tester *t, TestProg *p) {
    const char *no_backend = arena_printf(&t->arena, "no_%s", t->backend);
    for (int i = 0; i < p->spec.cases.len; i++) {
        const SpecCase *c = p->spec.cases.items[i];
        if (spec_case_has_tag(c, "notest") || spec_case_has_tag(c, "disable") || spec_case_has_tag(c, no_backend)) {
            p->nskipped++;
            continue;
        }
        TestRun *r = NEW(&t->arena, TestRun);
        r->prog = p;
        r->c = c;
        vec_push(&p->runs, r);
    }
    for (int i = 0; i < p->spec.structs.len; i++) {
        SpecStruct *sc = p->spec.structs.items[i];
        if (strcmp(sc->stage, "soacs") && strcmp(sc->stage, "mem") && strcmp(sc->stage, "gpu")) p->nskipped++;
        else vec_push(&p->structs, sc);
    }
}

/* Reads and parses p; queues its compilation if it has anything to run. */
static void test_prepare(Tester *t, TestProg *p) {
    char *text = util_read_file(p->path, NULL);
    if (!text) {
        test_fail(p, NULL, arena_printf(&t->arena, "cannot read: %s", strerror(errno)), NULL);
        return;
    }
    spec_parse_file(&t->arena, &p->spec, p->path, text);
    free(text);
    if (p->spec.error) {
        test_fail(p, NULL, p->spec.error, NULL);
        return;
    }
    test_classify(t, p);
    if (!p->spec.has_block) {
        p->nskipped = 1;
        if (t->verbose) buf_printf(&p->report, "SKIP %s: no test block\n", p->path);
        return;
    }
    /* A program tagged no_<backend> is left out on that backend, as
     * Futhark's test runner does (finpar's InterestCalib: no_opencl). */
    const char *no_backend = arena_printf(&t->arena, "no_%s", t->backend);
    if (spec_file_has_tag(&p->spec, "disable") || spec_file_has_tag(&p->spec, "notest") ||
        spec_file_has_tag(&p->spec, no_backend)) {
        p->nskipped += p->runs.len + p->structs.len + (p->runs.len == 0 && p->nskipped == 0);
        if (t->verbose) buf_printf(&p->report, "SKIP %s: tagged disable, notest or %s\n", p->path, no_backend);
        return;
    }
    for (int i = 0; i < p->structs.len && !p->spec.compile_regex; i++)
        test_queue(&t->runs, p, NULL, p->structs.items[i], TEST_COMPILE_TIMEOUT_S, false);
    if (p->runs.len == 0 && p->nskipped > 0 && !p->spec.compile_regex) return;
    p->exe = spec_tmp(&t->work, "prog");
    test_queue(&t->compiles, p, NULL, NULL, TEST_COMPILE_TIMEOUT_S, false);
    p->compiling = 1;
    for (int i = 0; i < p->runs.len && strcmp(t->backend, "c") && !p->ref_exe; i++)
        if (p->runs.items[i]->c->out_kind == SPEC_OUT_AUTO) {
            p->ref_exe = spec_tmp(&t->work, "ref");
            test_queue(&t->compiles, p, NULL, NULL, TEST_COMPILE_TIMEOUT_S, true);
            p->compiling = 2;
        }
}

/* Prints the totals line; returns the exit status. */
static int test_summary(Tester *t) {
    int passed = 0, failed = 0, skipped = 0;
    for (int i = 0; i < t->progs.len; i++) {
        passed += t->progs.items[i]->npassed;
        failed += t->progs.items[i]->nfailed;
        skipped += t->progs.items[i]->nskipped;
    }
    printf("%d passed, %d failed", passed, failed);
    if (skipped) printf(", %d skipped", skipped);
    printf("\n");
    return failed ? 1 : 0;
}

/* Adds a program for each .fut file found at the given paths; false after
 * a message when a path does not exist. */
static bool test_add_programs(Tester *t, const Strings *paths) {
    Strings files = {0};
    bool ok = true;
    for (int i = 0; ok && i < paths->len; i++)
        if (!spec_collect(&t->arena, paths->items[i], &files))
            ok = false, fprintf(stderr, "futhorc test: cannot access %s: %s\n", paths->items[i], strerror(errno));
    for (int i = 0; ok && i < files.len; i++) {
        TestProg *p = NEW(&t->arena, TestProg);
        p->path = files.items[i];
        vec_push(&t->progs, p);
    }
    vec_free(&files);
    return ok;
}

int tool_test(int argc, char **argv, const char *futhorc_path) {
    Tester t = {0};
    t.futhorc = futhorc_path;
    t.backend = "c";
    t.tuning_ext = ".tuning";
    t.jobs = TEST_DEFAULT_JOBS;
    t.timeout_s = TEST_RUN_TIMEOUT_S;
    Strings paths = {0};
    int rc = test_options(&t, argc, argv, &paths);
    if (rc == 0 && !test_add_programs(&t, &paths)) rc = 1;
    if (rc == 0 && !spec_work_init(&t.work, &t.arena, "test")) rc = 1;
    if (rc == 0 && !t.self_contained) t.rt_object = arena_printf(&t.arena, "%s/runtime.o", t.work.tmpdir);
    if (rc == 0) {
        for (int i = 0; i < t.progs.len; i++) test_prepare(&t, t.progs.items[i]);
        test_run_all(&t);
        test_flush_reports(&t);
        rc = test_summary(&t);
    }
    spec_work_free(&t.work);
    for (int i = 0; i < t.progs.len; i++) {
        TestProg *p = t.progs.items[i];
        vec_free(&p->runs), vec_free(&p->structs), buf_free(&p->report), spec_file_free(&p->spec);
    }
    vec_free(&paths), vec_free(&t.progs), vec_free(&t.copts), vec_free(&t.popts), vec_free(&t.compiles), vec_free(&t.runs);
    arena_free(&t.arena);
    return rc == 2 ? 0 : rc;
}
