/* `futhorc bench`: the benchmark runner of survey §2.6 (Futhark's
 * src/Futhark/Bench.hs and CLI/Bench.hs are the model).
 *
 * Each program is compiled with `futhorc c` and every runnable case of its
 * test blocks (spec.c) is timed by running the plain executable as
 * `prog -e ENTRY -r N -t TIMES -b` with the case's input on stdin: one
 * warm-up run, then N measured runs whose times (µs, the span around the
 * entry call) the executable writes to TIMES. Without -r, N is 10, and if
 * the measured runs took less than BENCH_MIN_US in total, the executable is
 * run again with as many further runs as the fastest run of the latest
 * execution says are needed, plus a margin (Futhark's "initial phase", its
 * run-count guess included);
 * with -r N exactly N runs are made. Futhark's convergence phase is not
 * done. The output of the last run is checked against the expected output.
 * Per dataset the console shows the mean, its 95% confidence interval
 * (Student's t) and the standard deviation; --json writes Futhark's bench
 * JSON, --plot an SVG bar chart, and --compare reads two JSON files and
 * prints the speedup per dataset. */
#include "bench.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_run.h"

/* Measured runs per dataset by default (Futhark's -r default). */
enum { BENCH_DEFAULT_RUNS = 10 };
/* Least total measured time per dataset, µs (Futhark's 0.5 s). */
#define BENCH_MIN_US 500000.0
/* Most measured runs per dataset: a program of a microsecond would need
 * half a million runs for 0.5 s; beyond this count the mean's standard
 * error is negligible and the JSON file stays small. */
enum { BENCH_MAX_RUNS = 100000 };
/* Most executions of the program per dataset: the first measures the
 * requested runs, the others top the time up to BENCH_MIN_US; more than a
 * few means the run times are erratic, and the limit bounds the time. */
enum { BENCH_MAX_PHASES = 4 };
/* Runs of a top-up execution beyond what the fastest recent run says:
 * later runs are often faster than the first ones (warm caches, a machine
 * that became less busy). An estimate from the mean of all runs fell short
 * of BENCH_MIN_US in each of the BENCH_MAX_PHASES executions on a busy CI
 * machine (894 runs of 0.5 ms); the fastest run of the latest execution
 * bounds the time a run takes now, so an execution falls short only when
 * its runs are faster than any before. */
#define BENCH_TOPUP_MARGIN 1.25
/* Time limit of one compilation, as in `futhorc test`. */
enum { BENCH_COMPILE_TIMEOUT_S = 300 };
/* Pause between checks on a running child, in ms. */
enum { BENCH_POLL_MS = 5 };
/* Pause between updates of the progress line, in seconds. */
#define BENCH_PROGRESS_S 0.2
/* Dataset names are padded to the longest and cut at this many characters
 * on the console (Futhark's rule). */
enum { BENCH_NAME_COLS = 40 };
/* Most bytes of a child's stderr kept in an error message. */
enum { BENCH_MAX_QUOTE = 4000 };
/* Deepest nesting read from a JSON file: the schema needs 4 levels, and the
 * limit bounds the recursion of the reader on hostile input. */
enum { BENCH_JSON_MAX_DEPTH = 64 };
/* Geometry of the SVG plot, in pixels. */
enum { PLOT_WIDTH = 960, PLOT_ROW = 22, PLOT_HEAD = 26, PLOT_TOP = 50, PLOT_BOTTOM = 60,
       PLOT_CHAR = 7, PLOT_MAX_LABEL = 60, PLOT_RIGHT = 90 };

typedef SpecStrings Strings;
typedef VEC(int64_t) Runtimes;
typedef VEC(const SpecCase *) Cases;

/* ---- Results ------------------------------------------------------------- */

static BenchEntry *results_entry(Arena *a, BenchResults *rs, const char *key) {
    for (int i = 0; i < rs->len; i++)
        if (!strcmp(rs->items[i]->key, key)) return rs->items[i];
    BenchEntry *e = NEW(a, BenchEntry);
    e->key = key;
    vec_push(rs, e);
    return e;
}

static void results_free(BenchResults *rs) {
    for (int i = 0; i < rs->len; i++) vec_free(&rs->items[i]->data);
    vec_free(rs);
}

/* ---- Statistics ------------------------------------------------------------ */

double bench_t975(int df) {
    static const double table[] = {12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060,
                                   2.2622,  2.2281, 2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199,
                                   2.1098,  2.1009, 2.0930, 2.0860, 2.0796, 2.0739, 2.0687, 2.0639,
                                   2.0595,  2.0555, 2.0518, 2.0484, 2.0452, 2.0423};
    int ntable = (int)(sizeof table / sizeof table[0]);
    if (df < 1) df = 1;
    if (df <= ntable) return table[df - 1];
    /* Cornish-Fisher expansion around the normal quantile: exact to four
     * decimals beyond the table. */
    double z = 1.959963985, v = df, z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;
    return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v) +
           (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v * v * v);
}

void bench_stats(const int64_t *xs, int n, BenchStats *s) {
    double sum = 0, sq = 0;
    for (int i = 0; i < n; i++) sum += (double)xs[i];
    s->n = n;
    s->mean = n ? sum / n : 0;
    for (int i = 0; i < n; i++) sq += ((double)xs[i] - s->mean) * ((double)xs[i] - s->mean);
    s->sd = n > 1 ? sqrt(sq / (n - 1)) : 0;
    double half = n > 1 ? bench_t975(n - 1) * s->sd / sqrt((double)n) : 0;
    s->lo = s->mean - half > 0 ? s->mean - half : 0; /* runtimes are never negative */
    s->hi = s->mean + half;
}

/* ---- The runner ------------------------------------------------------------- */

double bench_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Shows the progress line (only on a terminal): what runs and for how long. */
static void bench_progress(Bencher *b, const char *what, double start) {
    if (!b->progress) return;
    fprintf(stderr, "\r\033[K%s (%.1f s)", what, bench_now() - start);
    fflush(stderr);
}

static void bench_progress_clear(Bencher *b) {
    if (b->progress) fputs("\r\033[K", stderr), fflush(stderr);
}

/* Waits for pid, killing its process group once deadline (a bench_now time;
 * 0 for none) has passed; shows what on the progress line meanwhile.
 * Returns the wait status; *timed_out tells whether it was killed. */
static int bench_wait(Bencher *b, pid_t pid, double deadline, const char *what, bool *timed_out) {
    struct timespec pause = {0, BENCH_POLL_MS * 1000000L};
    double start = bench_now(), shown = 0;
    int status = 0;
    *timed_out = false;
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR)) break;
        double now = bench_now();
        if (deadline > 0 && now > deadline && !*timed_out) {
            kill(-pid, SIGKILL), kill(pid, SIGKILL);
            *timed_out = true;
        }
        if (now - shown >= BENCH_PROGRESS_S) bench_progress(b, what, start), shown = now;
        nanosleep(&pause, NULL);
    }
    bench_progress_clear(b);
    return status;
}

/* The first BENCH_MAX_QUOTE bytes of a file, trimmed ("" if none). */
static const char *bench_read_quote(Bencher *b, const char *path) {
    char *text = util_read_file(path, NULL);
    if (!text) return "";
    size_t n = strlen(text);
    if (n > BENCH_MAX_QUOTE) n = BENCH_MAX_QUOTE;
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == ' ')) n--;
    const char *q = arena_strndup(&b->arena, text, n);
    free(text);
    return q;
}

const char *bench_exec(Bencher *b, char **argv, const char *in, const char *out, double deadline,
                              const char *what, char **log) {
    const char *err = spec_tmp(&b->work, "err");
    pid_t pid = spec_spawn(argv, in, out, err);
    if (pid < 0) return "cannot fork";
    bool timed_out;
    int status = bench_wait(b, pid, deadline, what, &timed_out);
    const char *msg = bench_read_quote(b, err);
    if (log) *log = util_read_file(err, NULL);
    unlink(err);
    if (timed_out) return arena_printf(&b->arena, "timed out after %d s", b->timeout_s);
    if (status == 0) return NULL;
    return arena_printf(&b->arena, "failed with %s%s%s", spec_status_str(&b->arena, status), *msg ? ":\n" : "",
                        msg);
}

/* Reads the runtimes file (one integer per line) onto rs; false if it is
 * missing or malformed. */
static bool bench_read_times(const char *path, Runtimes *rs) {
    char *text = util_read_file(path, NULL);
    if (!text) return false;
    bool ok = true;
    for (char *p = text, *end; ok && *p;) {
        while (*p == '\n' || *p == ' ' || *p == '\r') p++;
        if (!*p) break;
        long long x = strtoll(p, &end, 10);
        ok = end != p && x >= 0;
        vec_push(rs, (int64_t)x);
        p = end;
    }
    free(text);
    return ok;
}

/* The executable's command line for one execution of n measured runs,
 * with the options extra (or NULL) after the user's. */
static char **bench_run_argv(Bencher *b, const char *exe, const char *entry, int n, const char *times,
                             const Strings *extra) {
    int nextra = extra ? extra->len : 0;
    char **argv = NEW_ARRAY(&b->arena, char *, b->popts.len + nextra + 12);
    int k = 0;
    argv[k++] = (char *)exe;
    argv[k++] = "-e", argv[k++] = (char *)entry;
    argv[k++] = "-r", argv[k++] = arena_printf(&b->arena, "%d", n);
    argv[k++] = "-t", argv[k++] = (char *)times;
    argv[k++] = "-b";
    if (b->tuning) argv[k++] = "--tuning", argv[k++] = (char *)b->tuning;
    for (int i = 0; i < b->popts.len; i++) argv[k++] = (char *)b->popts.items[i];
    for (int i = 0; i < nextra; i++) argv[k++] = (char *)extra->items[i];
    argv[k] = NULL;
    return argv;
}

/* The number of runs of the next execution: enough more to reach
 * BENCH_MIN_US at the speed of the fastest of the latest execution's runs,
 * rs[from..n) (0 when done). */
static int bench_more_runs(const int64_t *rs, int from, int n) {
    double sum = 0, fastest = 0;
    for (int i = 0; i < n; i++) sum += (double)rs[i];
    for (int i = from; i < n; i++)
        if (i == from || (double)rs[i] < fastest) fastest = (double)rs[i];
    if (sum >= BENCH_MIN_US || n >= BENCH_MAX_RUNS) return 0;
    double want = fastest > 0 ? ceil((BENCH_MIN_US - sum) / fastest * BENCH_TOPUP_MARGIN) : BENCH_MAX_RUNS;
    if (want > BENCH_MAX_RUNS - n) want = BENCH_MAX_RUNS - n;
    return want < 1 ? 1 : (int)want;
}

/* The input of a script input case: the binary values of its expression,
 * evaluated by `futhorc script` with exe's entry points, in a temporary
 * file (*tmp). NULL with *why on failure. */
static const char *bench_script_input(Bencher *b, const char *path, const char *exe, const SpecCase *c,
                                      const char *label, const char **tmp, const char **why) {
    const char *text = spec_script_text(&b->work, c, why);
    if (!text) return NULL;
    char **argv = NEW_ARRAY(&b->arena, char *, b->popts.len + 7);
    int k = 0;
    argv[k++] = (char *)b->futhorc, argv[k++] = "script", argv[k++] = "-b";
    argv[k++] = arena_printf(&b->arena, "--directory=%s", spec_dir_of(&b->arena, path));
    for (int i = 0; i < b->popts.len; i++) argv[k++] = arena_printf(&b->arena, "--pass-option=%s", b->popts.items[i]);
    argv[k++] = (char *)exe, argv[k++] = (char *)text, argv[k] = NULL;
    *tmp = spec_tmp(&b->work, "script");
    double deadline = b->timeout_s > 0 ? bench_now() + b->timeout_s : 0;
    *why = bench_exec(b, argv, NULL, *tmp, deadline, arena_printf(&b->arena, "%s: script input", label), NULL);
    return *why ? NULL : *tmp;
}

const char *bench_input(Bencher *b, const char *path, const char *exe, const SpecCase *c, const char *label,
                        const char **tmp, const char **why) {
    *tmp = NULL, *why = NULL;
    return c->in_kind == SPEC_IN_SCRIPT ? bench_script_input(b, path, exe, c, label, tmp, why)
                                        : spec_stdin_file(&b->work, c, tmp, why);
}

void bench_time(Bencher *b, const char *exe, const SpecCase *c, const char *in, const char *label,
                const Strings *extra, char **log, BenchData *d) {
    const char *why = NULL;
    Runtimes rs = {0};
    const char *out = spec_tmp(&b->work, "out"), *times = spec_tmp(&b->work, "times");
    double deadline = b->timeout_s > 0 ? bench_now() + b->timeout_s : 0;
    int phases = b->exact ? 1 : BENCH_MAX_PHASES;
    for (int phase = 0, n = b->runs; in && !why && n > 0 && phase < phases; phase++) {
        int before = rs.len;
        const char *what = arena_printf(&b->arena, "%s: warm-up and %d runs", label, n);
        if (log) free(*log), *log = NULL;
        why = bench_exec(b, bench_run_argv(b, exe, c->entry, n, times, extra), in, out, deadline, what, log);
        if (!why && (!bench_read_times(times, &rs) || rs.len - before != n))
            why = arena_printf(&b->arena, "the program did not write %d runtimes to %s", n, times);
        n = bench_more_runs(rs.items, before, rs.len);
    }
    if (in && !why && (c->out_kind == SPEC_OUT_VALUES || c->out_kind == SPEC_OUT_FILE)) {
        size_t olen = 0;
        char *got = util_read_file(out, &olen);
        why = got ? spec_check_output(&b->work, c, got, olen) : "the program's output is missing";
        if (why) why = arena_printf(&b->arena, "wrong result: %s", why);
        free(got);
    }
    unlink(out), unlink(times);
    d->name = c->name;
    d->error = why;
    d->nruns = why ? 0 : rs.len;
    d->runtimes = why || !rs.len ? NULL : vec_to_arena(&b->arena, &rs);
    vec_free(&rs);
}

/* Times one case of a compiled program into d (runtimes or an error). */
static void bench_case(Bencher *b, const char *path, const char *exe, const SpecCase *c, const char *label,
                       BenchData *d) {
    const char *tmp, *why;
    const char *in = bench_input(b, path, exe, c, label, &tmp, &why);
    if (in) bench_time(b, exe, c, in, label, NULL, NULL, d);
    else d->name = c->name, d->error = why, d->nruns = 0, d->runtimes = NULL;
    if (tmp) unlink(tmp);
}

/* ---- Console output ------------------------------------------------------------ */

/* Prints text indented by four spaces. */
static void bench_quote(const char *text) {
    fputs("    ", stdout);
    for (const char *p = text; *p; p++) {
        putchar(*p);
        if (*p == '\n') fputs("    ", stdout);
    }
    putchar('\n');
}

/* Prints one dataset's line: "name:   mean μs (95% CI: [lo, hi]; sd)". */
static void bench_print_data(const BenchData *d, int pad) {
    int len = (int)strlen(d->name);
    bool cut = len > BENCH_NAME_COLS;
    printf("%.*s%s:%*s", cut ? BENCH_NAME_COLS - 3 : len, d->name, cut ? "..." : "", pad - (cut ? BENCH_NAME_COLS : len), "");
    if (d->error) {
        printf(" failed\n");
        bench_quote(d->error);
        return;
    }
    BenchStats s;
    bench_stats(d->runtimes, d->nruns, &s);
    printf("%10.0f\xce\xbcs (95%% CI: [%10.1f, %10.1f]; sd: %.1f\xce\xbcs; %d runs)\n", s.mean, s.lo, s.hi, s.sd,
           s.n);
    fflush(stdout);
}

/* The padding width for the names of cases (the longest, capped). */
static int bench_pad(const SpecCase *const *cs, int n) {
    int pad = 0;
    for (int i = 0; i < n; i++) {
        int len = (int)strlen(cs[i]->name);
        if (len > pad) pad = len;
    }
    return pad > BENCH_NAME_COLS ? BENCH_NAME_COLS : pad;
}

/* ---- Programs --------------------------------------------------------------------- */

bool bench_runnable(Bencher *b, const SpecCase *c) {
    for (int i = 0; i < b->exclude.len; i++)
        if (spec_case_has_tag(c, b->exclude.items[i])) return false;
    if (b->entry_only && strcmp(c->entry, b->entry_only)) return false;
    return c->out_kind != SPEC_OUT_ERROR;
}

/* The JSON key of a program's entry point (Futhark's rule). */
static const char *bench_key(Bencher *b, const char *path, const char *entry) {
    return strcmp(entry, "main") ? arena_printf(&b->arena, "%s:%s", path, entry) : path;
}

const char *bench_compile(Bencher *b, const char *path, const char *exe) {
    printf("Compiling %s...\n", path);
    fflush(stdout);
    char **argv = NEW_ARRAY(&b->arena, char *, b->copts.len + 6);
    int n = 0;
    argv[n++] = (char *)b->futhorc;
    argv[n++] = (char *)b->backend;
    for (int i = 0; i < b->copts.len; i++) argv[n++] = (char *)b->copts.items[i];
    argv[n++] = (char *)path, argv[n++] = "-o", argv[n++] = (char *)exe;
    argv[n] = NULL;
    const char *out = spec_tmp(&b->work, "ccout");
    const char *why = bench_exec(b, argv, NULL, out, bench_now() + BENCH_COMPILE_TIMEOUT_S,
                                 arena_printf(&b->arena, "compiling %s", path), NULL);
    unlink(out);
    return why ? arena_printf(&b->arena, "compilation %s", why) : NULL;
}

/* Benchmarks the cases of one entry point (cs, all of entry) and records
 * them; compile_error, when set, fails them all. */
static void bench_entry(Bencher *b, const char *path, const char *exe, const SpecCase *const *cs, int n,
                        const char *compile_error) {
    BenchEntry *e = results_entry(&b->arena, &b->results, bench_key(b, path, cs[0]->entry));
    if (b->tuning) printf("\n%s (using %s):\n", e->key, b->tuning);
    else printf("\n%s (no tuning file):\n", e->key);
    int pad = bench_pad(cs, n);
    for (int i = 0; i < n; i++) {
        BenchData d = {cs[i]->name, compile_error, NULL, 0};
        const char *label = arena_printf(&b->arena, "%s: %s", e->key, cs[i]->name);
        if (!compile_error) bench_case(b, path, exe, cs[i], label, &d);
        if (d.error) b->failures++;
        bench_print_data(&d, pad);
        vec_push(&e->data, d);
    }
}

/* Benchmarks the runnable cases of the program at path, entry by entry in
 * the order the entries first appear. */
static void bench_program(Bencher *b, const char *path, const SpecFile *f) {
    Cases cs = {0}, group = {0};
    for (int i = 0; i < f->cases.len; i++)
        if (bench_runnable(b, f->cases.items[i])) vec_push(&cs, f->cases.items[i]);
    const char *exe = spec_tmp(&b->work, "prog");
    const char *cerr = cs.len ? bench_compile(b, path, exe) : NULL;
    const char *why;
    b->tuning = cerr ? NULL : spec_tuning_for(&b->work, b->backend, path, b->tuning_ext, exe, &why);
    if (!cerr && why) printf("%s: no tuning file: %s\n", path, why);
    for (int i = 0; i < cs.len; i++) {
        bool seen = false;
        for (int j = 0; j < i; j++) seen = seen || !strcmp(cs.items[j]->entry, cs.items[i]->entry);
        if (seen) continue;
        group.len = 0;
        for (int j = i; j < cs.len; j++)
            if (!strcmp(cs.items[j]->entry, cs.items[i]->entry)) vec_push(&group, cs.items[j]);
        bench_entry(b, path, exe, group.items, group.len, cerr);
    }
    unlink(exe);
    vec_free(&group);
    vec_free(&cs);
}

/* Reads and parses one program and benchmarks it unless it is tagged
 * nobench or disable, or its path matches --ignore-files. */
static void bench_file(Bencher *b, const char *path) {
    bool bad = false;
    if (b->ignore && spec_regex_match(b->ignore, path, &bad)) return;
    char *text = util_read_file(path, NULL);
    if (!text) {
        fprintf(stderr, "futhorc bench: cannot read %s: %s\n", path, strerror(errno));
        b->failures++;
        return;
    }
    SpecFile f = {0};
    spec_parse_file(&b->arena, &f, path, text);
    free(text);
    if (f.error) {
        fprintf(stderr, "futhorc bench: %s: %s\n", path, f.error);
        b->failures++;
    } else if (!spec_file_has_tag(&f, "nobench") && !spec_file_has_tag(&f, "disable")) {
        bench_program(b, path, &f);
    }
    spec_file_free(&f);
}

/* ---- JSON output (Futhark's bench schema) ------------------------------------------ */

/* Writes s as a JSON string. */
static void json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p == '\n') fputs("\\n", f);
        else if (*p == '\t') fputs("\\t", f);
        else if (*p == '\r') fputs("\\r", f);
        else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
}

/* Writes one dataset's entry: its runtimes and (empty) memory map, or its
 * error message. futhorc's programs keep no memory statistics, so "bytes"
 * is {} as `futhark bench` writes it for a server whose report has none. */
static void json_data(FILE *f, const BenchData *d) {
    fputs("      ", f);
    json_string(f, d->name);
    fputs(": ", f);
    if (d->error) {
        json_string(f, d->error);
        return;
    }
    fputs("{\n        \"runtimes\": [", f);
    for (int i = 0; i < d->nruns; i++) fprintf(f, "%s%lld", i ? ", " : "", (long long)d->runtimes[i]);
    fputs("],\n        \"bytes\": {}\n      }", f);
}

/* Writes the results as {"prog.fut[:entry]": {"datasets": {...}}}; false
 * after a message. */
static bool json_write(const BenchResults *rs, const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "futhorc bench: cannot write %s: %s\n", path, strerror(errno));
        return false;
    }
    fputs("{", f);
    for (int i = 0; i < rs->len; i++) {
        const BenchEntry *e = rs->items[i];
        fputs(i ? ",\n  " : "\n  ", f);
        json_string(f, e->key);
        fputs(": {\n    \"datasets\": {", f);
        for (int j = 0; j < e->data.len; j++) {
            fputs(j ? ",\n" : "\n", f);
            json_data(f, &e->data.items[j]);
        }
        fputs(e->data.len ? "\n    }\n  }" : "}\n  }", f);
    }
    fputs(rs->len ? "\n}\n" : "}\n", f);
    bool ok = !ferror(f);
    if (fclose(f) != 0) ok = false;
    if (!ok) fprintf(stderr, "futhorc bench: cannot write %s\n", path);
    return ok;
}

/* ---- JSON input (for --compare) ------------------------------------------------------- */

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } JsonKind;

/* A parsed JSON value; arrays and objects hold n items (objects with keys). */
typedef struct Json {
    JsonKind kind;
    double num;
    const char *str;
    int n;
    const char **keys;
    struct Json **items;
} Json;

typedef struct JsonReader {
    Arena *a;
    const char *s;
    size_t pos;
    const char *error;
} JsonReader;

static Json *json_value(JsonReader *r, int depth);

/* Records the first error, naming the line and column. */
static Json *json_fail(JsonReader *r, const char *msg) {
    if (r->error) return NULL;
    int line = 1, col = 1;
    for (size_t i = 0; i < r->pos && r->s[i]; i++) {
        if (r->s[i] == '\n') line++, col = 1;
        else col++;
    }
    r->error = arena_printf(r->a, "line %d, column %d: %s", line, col, msg);
    return NULL;
}

static void json_ws(JsonReader *r) {
    while (r->s[r->pos] == ' ' || r->s[r->pos] == '\t' || r->s[r->pos] == '\n' || r->s[r->pos] == '\r') r->pos++;
}

/* Appends code point u as UTF-8. */
static void json_utf8(Buf *b, unsigned u) {
    if (u < 0x80) buf_putc(b, (char)u);
    else if (u < 0x800) buf_putc(b, (char)(0xc0 | u >> 6)), buf_putc(b, (char)(0x80 | (u & 0x3f)));
    else {
        buf_putc(b, (char)(0xe0 | u >> 12));
        buf_putc(b, (char)(0x80 | ((u >> 6) & 0x3f)));
        buf_putc(b, (char)(0x80 | (u & 0x3f)));
    }
}

/* Reads a string at r->pos (at its '"'); NULL after an error. */
static const char *json_str(JsonReader *r) {
    Buf b = {0};
    r->pos++;
    for (;;) {
        char c = r->s[r->pos++];
        if (c == '"') break;
        if (!c || c == '\n') return buf_free(&b), r->pos--, json_fail(r, "unterminated string"), NULL;
        if (c != '\\') {
            buf_putc(&b, c);
            continue;
        }
        char e = r->s[r->pos++];
        const char *simple = strchr("\"\\/bfnrt", e), *to = "\"\\/\b\f\n\r\t";
        unsigned u;
        if (e && simple) buf_putc(&b, to[simple - "\"\\/bfnrt"]);
        else if (e == 'u' && sscanf(r->s + r->pos, "%4x", &u) == 1) json_utf8(&b, u), r->pos += 4;
        else return buf_free(&b), json_fail(r, "bad escape in string"), NULL;
    }
    const char *s = arena_strdup(r->a, b.data ? b.data : "");
    buf_free(&b);
    return s;
}

/* Reads the items of an array or object (after its bracket). */
static Json *json_items(JsonReader *r, Json *j, char close, int depth) {
    VEC(Json *) items = {0};
    VEC(const char *) keys = {0};
    json_ws(r);
    bool more = r->s[r->pos] != close;
    if (!more) r->pos++;
    while (more && !r->error) {
        json_ws(r);
        if (close == '}') {
            if (r->s[r->pos] != '"') return vec_free(&items), vec_free(&keys), json_fail(r, "expected a key");
            const char *k = json_str(r);
            json_ws(r);
            if (!k || r->s[r->pos++] != ':') return vec_free(&items), vec_free(&keys), json_fail(r, "expected ':'");
            vec_push(&keys, k);
        }
        Json *v = json_value(r, depth + 1);
        if (!v) break;
        vec_push(&items, v);
        json_ws(r);
        char c = r->s[r->pos++];
        if (c == close) more = false;
        else if (c != ',') r->pos--, json_fail(r, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
    }
    j->n = items.len;
    j->items = items.len ? vec_to_arena(r->a, &items) : NULL;
    j->keys = keys.len ? vec_to_arena(r->a, &keys) : NULL;
    vec_free(&items), vec_free(&keys);
    return r->error ? NULL : j;
}

static Json *json_value(JsonReader *r, int depth) {
    json_ws(r);
    if (depth > BENCH_JSON_MAX_DEPTH) return json_fail(r, "nested too deeply");
    Json *j = NEW(r->a, Json);
    const char *p = r->s + r->pos;
    char *end;
    if (*p == '{' || *p == '[') {
        j->kind = *p == '{' ? J_OBJ : J_ARR;
        r->pos++;
        return json_items(r, j, *p == '{' ? '}' : ']', depth);
    }
    if (*p == '"') return j->kind = J_STR, (j->str = json_str(r)) ? j : NULL;
    if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4)) return r->pos += 4, j->kind = *p == 't' ? J_BOOL : J_NULL, j;
    if (!strncmp(p, "false", 5)) return r->pos += 5, j->kind = J_BOOL, j;
    j->num = strtod(p, &end);
    if (end == p || (*p != '-' && (*p < '0' || *p > '9'))) return json_fail(r, "expected a JSON value");
    r->pos += (size_t)(end - p);
    j->kind = J_NUM;
    return j;
}

/* The member named key of object j, or NULL. */
static Json *json_get(const Json *j, const char *key) {
    for (int i = 0; j->kind == J_OBJ && i < j->n; i++)
        if (!strcmp(j->keys[i], key)) return j->items[i];
    return NULL;
}

/* Reads one dataset of the schema into d; NULL or an error. */
static const char *json_to_data(Arena *a, const Json *v, BenchData *d) {
    if (v->kind == J_STR) return d->error = v->str, NULL;
    const Json *rt = json_get(v, "runtimes"), *by = json_get(v, "bytes");
    if (v->kind != J_OBJ) return "expected an object or an error string";
    if (!rt || rt->kind != J_ARR) return "'runtimes' must be an array";
    if (!by || by->kind != J_OBJ) return "'bytes' must be an object";
    d->nruns = rt->n;
    d->runtimes = NEW_ARRAY(a, int64_t, rt->n + 1);
    for (int i = 0; i < rt->n; i++) {
        const Json *x = rt->items[i];
        if (x->kind != J_NUM || x->num < 0 || x->num != floor(x->num) || x->num > 9.2e18)
            return "'runtimes' must hold non-negative integers";
        d->runtimes[i] = (int64_t)x->num;
    }
    return NULL;
}

/* Converts a parsed bench file to results; NULL or an error. */
static const char *json_to_results(Arena *a, const Json *top, BenchResults *rs) {
    if (top->kind != J_OBJ) return "expected an object of programs";
    for (int i = 0; i < top->n; i++) {
        const Json *ds = json_get(top->items[i], "datasets");
        if (!ds || ds->kind != J_OBJ) return arena_printf(a, "program '%s': expected {\"datasets\": {...}}", top->keys[i]);
        BenchEntry *e = results_entry(a, rs, top->keys[i]);
        for (int k = 0; k < ds->n; k++) {
            BenchData d = {ds->keys[k], NULL, NULL, 0};
            const char *why = json_to_data(a, ds->items[k], &d);
            if (why) return arena_printf(a, "program '%s', dataset '%s': %s", top->keys[i], ds->keys[k], why);
            vec_push(&e->data, d);
        }
    }
    return NULL;
}

/* Reads a bench JSON file into rs; false after a message. */
static bool json_read_results(Arena *a, const char *path, BenchResults *rs) {
    size_t len;
    char *text = util_read_file(path, &len);
    if (!text) {
        fprintf(stderr, "futhorc bench: cannot read %s: %s\n", path, strerror(errno));
        return false;
    }
    JsonReader r = {a, text, 0, NULL};
    Json *top = strlen(text) == len ? json_value(&r, 0) : (json_fail(&r, "NUL byte in file"), NULL);
    json_ws(&r);
    if (top && r.s[r.pos]) json_fail(&r, "text after the JSON value");
    const char *why = r.error ? r.error : json_to_results(a, top, rs);
    free(text);
    if (why) fprintf(stderr, "futhorc bench: %s is not a bench result file: %s\n", path, why);
    return !why;
}

/* ---- --compare ------------------------------------------------------------------------ */

static const BenchData *find_data(const BenchEntry *e, const char *name) {
    for (int i = 0; e && i < e->data.len; i++)
        if (!strcmp(e->data.items[i].name, name)) return &e->data.items[i];
    return NULL;
}

static const BenchEntry *find_entry(const BenchResults *rs, const char *key) {
    for (int i = 0; i < rs->len; i++)
        if (!strcmp(rs->items[i]->key, key)) return rs->items[i];
    return NULL;
}

/* Prints one row of the speedup table, the name padded to width. */
static void compare_row(int width, const char *name, const BenchData *o, const BenchData *n) {
    printf("  %-*s", width, name);
    BenchStats so, sn;
    if (!o || !n) printf("  only in %s\n", o ? "OLD" : "NEW");
    else if (o->error || n->error) printf("  failed in %s\n", o->error ? (n->error ? "both" : "OLD") : "NEW");
    else if (!o->nruns || !n->nruns) printf("  no runtimes\n");
    else {
        bench_stats(o->runtimes, o->nruns, &so), bench_stats(n->runtimes, n->nruns, &sn);
        printf(" %12.0f %12.0f ", so.mean, sn.mean);
        if (so.mean > 0 && sn.mean > 0) printf("%9.2fx\n", so.mean / sn.mean);
        else printf("%10s\n", "-"); /* a time of 0 (below a microsecond) has no ratio */
    }
}

/* `--compare OLD NEW`: per dataset, old and new mean and the speedup
 * old/new (above 1 means NEW is faster). */
static int bench_compare(const char *old_path, const char *new_path) {
    Arena a = {0};
    BenchResults old = {0}, new = {0};
    int rc = 1;
    if (json_read_results(&a, old_path, &old) && json_read_results(&a, new_path, &new)) {
        for (int i = 0; i < old.len + new.len; i++) {
            const BenchEntry *e = i < old.len ? old.items[i] : new.items[i - old.len];
            const BenchEntry *o = find_entry(&old, e->key), *n = find_entry(&new, e->key);
            if (i >= old.len && o) continue;
            int width = 40; /* the column of dataset names: 40, or the longest */
            for (int k = 0; o && k < o->data.len; k++)
                if ((int)strlen(o->data.items[k].name) > width) width = (int)strlen(o->data.items[k].name);
            for (int k = 0; n && k < n->data.len; k++)
                if ((int)strlen(n->data.items[k].name) > width) width = (int)strlen(n->data.items[k].name);
            printf("%s\n  %-*s %13s %13s %10s\n", e->key, width, "dataset", "old (\xce\xbcs)", "new (\xce\xbcs)",
                   "speedup");
            for (int k = 0; o && k < o->data.len; k++)
                compare_row(width, o->data.items[k].name, &o->data.items[k], find_data(n, o->data.items[k].name));
            for (int k = 0; n && k < n->data.len; k++)
                if (!find_data(o, n->data.items[k].name))
                    compare_row(width, n->data.items[k].name, NULL, &n->data.items[k]);
            printf("\n");
        }
        rc = 0;
    }
    results_free(&old), results_free(&new);
    arena_free(&a);
    return rc;
}

/* ---- --plot: an SVG bar chart -------------------------------------------------------------- */

/* Writes s escaped for XML text or attributes. */
static void xml_text(FILE *f, const char *s, int max) {
    int n = 0;
    for (const char *p = s; *p && n < max; p++, n++) {
        if (*p == '&') fputs("&amp;", f);
        else if (*p == '<') fputs("&lt;", f);
        else if (*p == '>') fputs("&gt;", f);
        else if (*p == '"') fputs("&quot;", f);
        else if ((unsigned char)*p < 0x20) fputc(' ', f);
        else fputc(*p, f);
    }
    if (s[n]) fputs("...", f);
}

/* The horizontal axis: linear from 0, or logarithmic (whole decades) when
 * the means differ by more than PLOT_LOG_RATIO. */
typedef struct Axis {
    bool log;
    double lo, hi; /* in µs (log: powers of ten) */
    double x0, width;
} Axis;

/* Means this far apart would make the shortest bars invisible on a linear
 * axis. */
#define PLOT_LOG_RATIO 100.0

static double axis_x(const Axis *ax, double v) {
    double t = ax->log ? (log10(v < ax->lo ? ax->lo : v) - log10(ax->lo)) / (log10(ax->hi) - log10(ax->lo))
                       : (v - ax->lo) / (ax->hi - ax->lo);
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    return ax->x0 + t * ax->width;
}

/* A "nice" tick step (1, 2 or 5 times a power of ten) for about six ticks. */
static double nice_step(double range) {
    double raw = range / 6, p = pow(10, floor(log10(raw)));
    return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}

/* Chooses the axis from the results' means and interval tops. */
static void axis_fit(Axis *ax, const BenchResults *rs) {
    double minmean = INFINITY, maxhi = 0;
    for (int i = 0; i < rs->len; i++)
        for (int k = 0; k < rs->items[i]->data.len; k++) {
            const BenchData *d = &rs->items[i]->data.items[k];
            if (d->error || !d->nruns) continue;
            BenchStats s;
            bench_stats(d->runtimes, d->nruns, &s);
            if (s.mean > 0 && s.mean < minmean) minmean = s.mean;
            if (s.hi > maxhi) maxhi = s.hi;
        }
    if (maxhi <= 0) maxhi = 1;
    ax->log = minmean < INFINITY && maxhi / minmean > PLOT_LOG_RATIO;
    if (ax->log) {
        ax->lo = pow(10, floor(log10(minmean)));
        ax->hi = pow(10, ceil(log10(maxhi)));
    } else {
        double step = nice_step(maxhi);
        ax->lo = 0;
        ax->hi = ceil(maxhi / step) * step;
    }
}

/* Draws the ticks, grid lines and label of the axis at height y. */
static void plot_axis(FILE *f, const Axis *ax, double top, double y) {
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", ax->x0, y,
            ax->x0 + ax->width, y);
    double step = ax->log ? 10 : nice_step(ax->hi - ax->lo);
    for (double v = ax->lo; v <= ax->hi * 1.0000001; v = ax->log ? v * step : v + step) {
        double x = axis_x(ax, v);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n", x, top, x, y);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", x, y, x, y + 5);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", x, y + 18, v);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-weight=\"bold\">mean runtime "
               "(\xce\xbcs%s); whiskers: 95%% confidence interval</text>\n",
            ax->x0 + ax->width / 2, y + 40, ax->log ? ", logarithmic scale" : "");
}

/* Draws one dataset's row: label, bar, whiskers and value, or "failed". */
static void plot_row(FILE *f, const Axis *ax, const BenchData *d, double y) {
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", ax->x0 - 8, y + PLOT_ROW * 0.65);
    xml_text(f, d->name, PLOT_MAX_LABEL);
    fputs("</text>\n", f);
    if (d->error || !d->nruns) {
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#c00000\">failed</text>\n", ax->x0 + 6, y + PLOT_ROW * 0.65);
        return;
    }
    BenchStats s;
    bench_stats(d->runtimes, d->nruns, &s);
    double x = axis_x(ax, s.mean), lo = axis_x(ax, s.lo), hi = axis_x(ax, s.hi), mid = y + PLOT_ROW / 2.0;
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#4e79a7\"/>\n", ax->x0, y + 3,
            x - ax->x0, PLOT_ROW - 6.0);
    fprintf(f, "<path d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\" stroke=\"black\" fill=\"none\"/>\n", lo, mid,
            hi, lo, mid - 5, mid + 5, hi, mid - 5, mid + 5);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">%.*f</text>\n", (hi > x ? hi : x) + 5,
            y + PLOT_ROW * 0.65, s.mean < 10 ? 2 : 0, s.mean);
}

/* The width of the label column: the longest dataset name, bounded. */
static int plot_label_width(const BenchResults *rs) {
    int longest = 10;
    for (int i = 0; i < rs->len; i++)
        for (int k = 0; k < rs->items[i]->data.len; k++) {
            int n = (int)strlen(rs->items[i]->data.items[k].name);
            if (n > longest) longest = n > PLOT_MAX_LABEL ? PLOT_MAX_LABEL + 3 : n;
        }
    return longest * PLOT_CHAR + 20;
}

/* Writes the plot: one row per dataset under a heading per program entry. */
static bool plot_write(const BenchResults *rs, const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "futhorc bench: cannot write %s: %s\n", path, strerror(errno));
        return false;
    }
    int rows = 0;
    for (int i = 0; i < rs->len; i++) rows += rs->items[i]->data.len;
    double height = PLOT_TOP + rs->len * PLOT_HEAD + rows * PLOT_ROW + PLOT_BOTTOM;
    int label = plot_label_width(rs);
    Axis ax = {false, 0, 1, label, PLOT_WIDTH - label - PLOT_RIGHT};
    axis_fit(&ax, rs);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
               "height=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
            PLOT_WIDTH, height);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n<text x=\"%d\" y=\"28\" font-size=\"16\" "
               "font-weight=\"bold\">futhorc bench: mean runtime per dataset</text>\n", 10);
    double y = PLOT_TOP;
    plot_axis(f, &ax, PLOT_TOP, height - PLOT_BOTTOM);
    for (int i = 0; i < rs->len; i++) {
        fprintf(f, "<text x=\"10\" y=\"%.1f\" font-weight=\"bold\">", y + PLOT_HEAD * 0.7);
        xml_text(f, rs->items[i]->key, 2 * PLOT_MAX_LABEL);
        fputs("</text>\n", f);
        y += PLOT_HEAD;
        for (int k = 0; k < rs->items[i]->data.len; k++, y += PLOT_ROW) plot_row(f, &ax, &rs->items[i]->data.items[k], y);
    }
    fputs("</svg>\n", f);
    bool ok = !ferror(f);
    if (fclose(f) != 0) ok = false;
    if (!ok) fprintf(stderr, "futhorc bench: cannot write %s\n", path);
    return ok;
}

/* ---- The command line ----------------------------------------------------------------------- */

static void bench_usage(void) {
    printf("Usage: futhorc bench [OPTIONS] FILES|DIRS\n"
           "       futhorc bench --compare OLD.json NEW.json\n"
           "Compiles each program and times its entry points on the datasets of its\n"
           "-- == test blocks: one warm-up run, then 10 runs and more until 0.5 s,\n"
           "or with -r N exactly N runs.\n\n"
           "Options:\n"
           "  -r N, --runs=N                 exactly N measured runs per dataset (default:\n"
           "                                 %d, then more until 0.5 s)\n"
           "  --json=FILE                    write the results in Futhark's bench JSON format\n"
           "  --plot=FILE.svg                draw the results as an SVG bar chart\n"
           "  --compare OLD.json NEW.json    print the speedup of NEW over OLD per dataset\n"
           "  --backend=NAME                 compile with backend NAME: c (default), opencl\n"
           "                                 or multicore\n"
           "  --pass-compiler-option=OPT     pass OPT to the compiler\n"
           "  -p OPT, --pass-option=OPT      pass OPT to the benchmarked programs\n"
           "  --exclude-case=TAG             skip cases tagged TAG (nobench and disable\n"
           "                                 are always skipped, and no_BACKEND)\n"
           "  -e NAME, --entry-point=NAME    only time entry point NAME\n"
           "  --ignore-files=REGEX           skip programs whose path matches REGEX\n"
           "  --timeout=SECONDS              time limit of all runs of one dataset (default none)\n"
           "  --tuning=EXT                   run the opencl programs with the tuning file\n"
           "                                 PROG.futEXT when it exists (default .tuning)\n"
           "  --no-tuning                    use no tuning file\n"
           "  -h, --help                     print this text\n",
           BENCH_DEFAULT_RUNS);
}



static int bench_bad_usage(const char *what, const char *arg) {
    fprintf(stderr, "futhorc bench: %s%s%s; try --help\n", what, *arg ? " " : "", arg);
    return 1;
}

/* Parses one option with a value at argv[*i]; 0 if handled, 1 on a bad
 * value, -1 if argv[*i] is none of them. */
static int bench_value_option(Bencher *b, int argc, char **argv, int *i) {
    const char *v;
    if ((v = spec_optval(argc, argv, i, "-r")) || (v = spec_optval(argc, argv, i, "--runs"))) {
        if ((b->runs = spec_posint(v, BENCH_MAX_RUNS)) < 0) return bench_bad_usage("bad number of runs", v);
        b->exact = true;
    } else if ((v = spec_optval(argc, argv, i, "--timeout"))) {
        if ((b->timeout_s = spec_posint(v, INT32_MAX)) < 0) return bench_bad_usage("bad --timeout value", v);
    } else if ((v = spec_optval(argc, argv, i, "--json"))) b->json = v;
    else if ((v = spec_optval(argc, argv, i, "--plot"))) {
        size_t n = strlen(v);
        if (n < 5 || strcmp(v + n - 4, ".svg")) /* an SVG in a file named .png would not open */
            return bench_bad_usage("--plot writes an SVG image; name its file .svg, not", v);
        b->plot = v;
    }
    else if ((v = spec_optval(argc, argv, i, "--backend"))) b->backend = v;
    else if ((v = spec_optval(argc, argv, i, "--pass-compiler-option"))) vec_push(&b->copts, v);
    else if ((v = spec_optval(argc, argv, i, "-p")) || (v = spec_optval(argc, argv, i, "--pass-option")))
        vec_push(&b->popts, v);
    else if ((v = spec_optval(argc, argv, i, "--exclude-case"))) vec_push(&b->exclude, v);
    else if ((v = spec_optval(argc, argv, i, "-e")) || (v = spec_optval(argc, argv, i, "--entry-point")))
        b->entry_only = v;
    else if ((v = spec_optval(argc, argv, i, "--ignore-files"))) b->ignore = v;
    else if ((v = spec_optval(argc, argv, i, "--tuning"))) b->tuning_ext = v;
    else return -1;
    return 0;
}

/* Parses the options; returns 0 to go on, 1 on error, 2 after --help or
 * --compare (with its status in *status). */
static int bench_options(Bencher *b, int argc, char **argv, Strings *paths, int *status) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int r;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            bench_usage();
            return *status = 0, 2;
        } else if (!strcmp(a, "--no-tuning")) {
            b->tuning_ext = NULL;
        } else if (!strcmp(a, "--compare")) {
            if (i + 2 >= argc) return bench_bad_usage("--compare needs two files, OLD.json NEW.json", "");
            if (i + 3 < argc) return bench_bad_usage("--compare takes exactly two files; unexpected", argv[i + 3]);
            return *status = bench_compare(argv[i + 1], argv[i + 2]), 2;
        } else if ((r = bench_value_option(b, argc, argv, &i)) >= 0) {
            if (r) return 1;
        } else if (a[0] == '-' && a[1]) {
            return bench_bad_usage("unknown or incomplete option", a);
        } else {
            vec_push(paths, a);
        }
    }
    if (paths->len == 0) return bench_bad_usage("no files or directories given", "");
    if (!spec_backend_known(b->backend)) return bench_bad_usage("unknown backend", b->backend);
    bool bad = false;
    if (b->ignore) spec_regex_match(b->ignore, "", &bad);
    if (bad) return bench_bad_usage("invalid --ignore-files regex", b->ignore);
    return 0;
}

/* Benchmarks every program found at paths and writes the requested files. */
static int bench_run(Bencher *b, const Strings *paths) {
    Strings files = {0};
    for (int i = 0; i < paths->len; i++)
        if (!spec_collect(&b->arena, paths->items[i], &files)) {
            fprintf(stderr, "futhorc bench: cannot access %s: %s\n", paths->items[i], strerror(errno));
            return vec_free(&files), 1;
        }
    if (b->exact) printf("Reporting arithmetic mean runtime of %d runs for each dataset.\n", b->runs);
    else
        printf("Reporting arithmetic mean runtime of at least %d runs for each dataset (min %.1fs).\n", b->runs,
               BENCH_MIN_US / 1e6);
    for (int i = 0; i < files.len; i++) bench_file(b, files.items[i]);
    vec_free(&files);
    bool ok = (!b->json || json_write(&b->results, b->json)) && (!b->plot || plot_write(&b->results, b->plot));
    if (b->failures) fprintf(stderr, "futhorc bench: %d dataset%s or program%s failed\n", b->failures,
                             b->failures == 1 ? "" : "s", b->failures == 1 ? "" : "s");
    return ok && b->failures == 0 ? 0 : 1;
}

int tool_bench(int argc, char **argv, const char *futhorc_path) {
    Bencher b = {0};
    b.futhorc = futhorc_path;
    b.backend = "c";
    b.tuning_ext = ".tuning";
    b.runs = BENCH_DEFAULT_RUNS;
    b.progress = isatty(2);
    Strings paths = {0};
    int status = 1;
    int rc = bench_options(&b, argc, argv, &paths, &status);
    if (rc == 0 && spec_work_init(&b.work, &b.arena, "bench")) {
        vec_push(&b.exclude, "nobench");
        vec_push(&b.exclude, "disable");
        vec_push(&b.exclude, arena_printf(&b.arena, "no_%s", b.backend));
        status = bench_run(&b, &paths);
    }
    spec_work_free(&b.work);
    results_free(&b.results);
    vec_free(&paths), vec_free(&b.copts), vec_free(&b.popts), vec_free(&b.exclude);
    arena_free(&b.arena);
    return rc == 1 ? 1 : status;
}
