/* The command line of generated executables (survey §3): options, reading
 * the entry point's arguments from stdin, running it (with timing), and
 * printing its results; plus rt_error, which records a run-time error.
 *
 * `--server` anywhere on the command line hands over to rt_server_main
 * (runtime/server.c), which speaks Futhark's server protocol instead.
 *
 * Pasted into every generated program after values.c and server.c, so static
 * names start with rtm_ and macros are #undef'd at the end. The generated
 * code defines main and calls rt_main. */
#ifndef FUTHORC_RT_H
#include "rt.h"
#endif

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Longest error message kept from rt_error: enough for any message with a
 * source location; longer ones are cut. */
#define RTM_MAX_ERROR 4096
/* Size of a buffer for a message about malformed input. */
#define RTM_MSG_LEN 1024
/* Longest type name printed in usage text ("[][]f32"): a rank far beyond
 * any real program still fits. */
#define RTM_TYPE_LEN 300

/* Server mode, in runtime/server.c. */

const rt_backend *rt_the_backend = NULL;

/* Passes argv[*i] to the backend: 1 taken, 0 not its option, -1 bad value. */
static int rtm_backend_option(int argc, char **argv, int *i) {
    return rt_the_backend && rt_the_backend->option ? rt_the_backend->option(argc, argv, i) : 0;
}

/* The first error is the cause; keep it. Tasks of a parallel loop may fail
 * at once: the message that lands first (by compare-and-swap, with the
 * builtins of gcc and clang, so that the field stays a plain pointer for
 * its other readers) wins, and the others are freed. */
void rt_error(rt_ctx *ctx, const char *fmt, ...) {
    if (__atomic_load_n(&ctx->error, __ATOMIC_ACQUIRE)) return;
    char *msg = malloc(RTM_MAX_ERROR);
    if (!msg) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, RTM_MAX_ERROR, fmt, ap);
    va_end(ap);
    char *none = NULL;
    if (!__atomic_compare_exchange_n(&ctx->error, &none, msg, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        free(msg);
}

/* Options of one run of the executable. */
typedef struct rtm_opts {
    const char *entry;
    const char *runtime_file;
    int runs; /* 0: a single run and no warm-up */
    bool binary, no_print, help;
} rtm_opts;

/* Writes a type in Futhark syntax ("[][]f32"). */
static void rtm_type_str(rt_type t, char *buf, size_t n) {
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < t.rank && k + 3 < n; i++) k += (size_t)snprintf(buf + k, n - k, "[]");
    if (k < n) snprintf(buf + k, n - k, "%s", rt_prim_name(t.elem));
}

/* Prints "name: t1 t2 -> r1 r2" for an entry point. */
static void rtm_print_entry(FILE *f, const rt_entry *e) {
    char t[RTM_TYPE_LEN];
    fprintf(f, "  %s:", e->name);
    for (int i = 0; i < e->nin; i++) rtm_type_str(e->in_types[i], t, sizeof t), fprintf(f, " %s", t);
    fprintf(f, " ->");
    for (int i = 0; i < e->nout; i++) rtm_type_str(e->out_types[i], t, sizeof t), fprintf(f, " %s", t);
    fputc('\n', f);
}

static void rtm_usage(const char *prog, const rt_entry *entries, int nentries) {
    printf("Usage: %s [OPTIONS] < INPUT\n"
           "Reads the entry point's arguments from stdin (text or binary values) and\n"
           "prints its results.\n\nOptions:\n"
           "  -e, --entry-point NAME      entry point to run (default: main)\n"
           "  -r, --runs N                N measured runs after one warm-up run\n"
           "  -t, --write-runtime-to FILE write each measured run's time in microseconds\n"
           "  -b, --binary-output         print results in the binary data format\n"
           "  -n, --no-print-result       do not print the results\n"
           "%s"
           "  --server                    speak Futhark's server protocol on stdin/stdout\n"
           "  -h, --help                  print this text\n%s\nEntry points:\n",
           prog,
           rt_the_backend && rt_the_backend->profiles
               ? "  -D, -L                      accepted and ignored (debug, log)\n"
               : "  -D, -L, -P                  accepted and ignored (debug, log, profile)\n",
           rt_the_backend && rt_the_backend->help ? rt_the_backend->help : "");
    for (int i = 0; i < nentries; i++) rtm_print_entry(stdout, &entries[i]);
}

/* The value of option `opt` at argv[*i]: "-eNAME", "--entry-point=NAME" or
 * the next argument. NULL (after a message) if missing. */
static const char *rtm_arg(int argc, char **argv, int *i, const char *opt) {
    const char *a = argv[*i];
    size_t n = strlen(opt);
    if (!strncmp(a, opt, n) && a[n] == '=') return a + n + 1;
    if (opt[1] != '-' && a[2]) return a + 2;
    if (*i + 1 < argc) return argv[++*i];
    fprintf(stderr, "Option %s requires an argument.\n", opt);
    return NULL;
}

/* True if argv[i] is the short option s or the long option l (alone, or
 * with an attached value when takes_value). */
static bool rtm_is(const char *a, const char *s, const char *l, bool takes_value) {
    size_t n = strlen(l);
    if (!strncmp(a, l, n) && (a[n] == 0 || (takes_value && a[n] == '='))) return true;
    return !strncmp(a, s, 2) && (a[2] == 0 || takes_value);
}

/* Parses one option with a value; returns false on a bad value. */
static bool rtm_value_opt(int argc, char **argv, int *i, rtm_opts *o, char which) {
    const char *longs = which == 'e' ? "--entry-point" : which == 'r' ? "--runs"
                                                                       : "--write-runtime-to";
    const char shorts[3] = {'-', which, 0};
    const char *v = rtm_arg(argc, argv, i, argv[*i][1] == '-' ? longs : shorts);
    if (!v) return false;
    if (which == 'e') o->entry = v;
    else if (which == 't') o->runtime_file = v;
    else {
        char *end;
        long n = strtol(v, &end, 10);
        if (*v == 0 || *end || n < 1 || n > 1000000000L) {
            fprintf(stderr, "Invalid number of runs: %s\n", v);
            return false;
        }
        o->runs = (int)n;
    }
    return true;
}

/* Parses the command line into o; false (after a message) on a bad option. */
static bool rtm_parse_opts(int argc, char **argv, rtm_opts *o) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int taken = rtm_backend_option(argc, argv, &i);
        if (taken < 0) return false;
        if (taken > 0) continue;
        if (rtm_is(a, "-e", "--entry-point", true)) {
            if (!rtm_value_opt(argc, argv, &i, o, 'e')) return false;
        } else if (rtm_is(a, "-r", "--runs", true)) {
            if (!rtm_value_opt(argc, argv, &i, o, 'r')) return false;
        } else if (rtm_is(a, "-t", "--write-runtime-to", true)) {
            if (!rtm_value_opt(argc, argv, &i, o, 't')) return false;
        } else if (rtm_is(a, "-b", "--binary-output", false)) o->binary = true;
        else if (rtm_is(a, "-n", "--no-print-result", false)) o->no_print = true;
        else if (rtm_is(a, "-h", "--help", false)) o->help = true;
        else if (rtm_is(a, "-D", "--debugging", false) || rtm_is(a, "-L", "--log", false) ||
                 rtm_is(a, "-P", "--profile", false)) continue;
        else {
            fprintf(stderr, "%s: unknown option '%s'; try --help\n", argv[0], a);
            return false;
        }
    }
    return true;
}

/* Reads the entry's arguments from stdin into ins; false after a message. */
static bool rtm_read_inputs(const rt_entry *e, rt_value *ins) {
    size_t len;
    unsigned char *buf = rt_read_all(stdin, &len);
    if (!buf) {
        fprintf(stderr, "Error: cannot read stdin.\n");
        return false;
    }
    rt_reader r = {buf, len, 0};
    char err[RTM_MSG_LEN], t[RTM_TYPE_LEN];
    bool ok = true;
    for (int i = 0; ok && i < e->nin; i++) {
        ok = rt_read_value(&r, e->in_types[i], &ins[i], err, sizeof err);
        if (!ok) {
            rtm_type_str(e->in_types[i], t, sizeof t);
            fprintf(stderr, "Error: cannot read argument %d of entry \"%s\" (type %s) from stdin: %s\n",
                    i + 1, e->name, t, err);
            for (int j = 0; j < i; j++) rt_value_free(&ins[j]);
        }
    }
    if (ok && !rt_reader_at_end(&r)) {
        fprintf(stderr, "Error: Expected EOF on stdin after reading input for \"%s\".\n", e->name);
        for (int j = 0; j < e->nin; j++) rt_value_free(&ins[j]);
        ok = false;
    }
    free(buf);
    return ok;
}

/* Microseconds from a monotonic clock where POSIX is visible (the generated
 * program defines _POSIX_C_SOURCE), else C11's wall clock, else CPU time. */
static int64_t rtm_now_us(void) {
#if defined(CLOCK_MONOTONIC)
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
#elif defined(TIME_UTC)
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
#else
    return (int64_t)((double)clock() * 1e6 / CLOCKS_PER_SEC);
#endif
}

static void rtm_free_values(rt_value *vs, int n) {
    for (int i = 0; i < n; i++) rt_value_free(&vs[i]);
}

/* Runs the entry (warm-up and measured runs) on ctx; leaves the last run's
 * results in outs. Returns false after printing the run-time error. */
static bool rtm_runs(const rt_entry *e, const rtm_opts *o, rt_value *ins, rt_value *outs,
                     FILE *times, rt_ctx *ctx) {
    int total = o->runs > 0 ? o->runs + 1 : 1;
    for (int run = 0; run < total; run++) {
        memset(outs, 0, sizeof(rt_value) * (size_t)e->nout);
        ctx->run_us = -1;
        int64_t t0 = rtm_now_us();
        int rc = e->fn(ctx, ins, outs);
        int64_t t1 = rtm_now_us();
        if (ctx->run_us >= 0) t1 = t0 + ctx->run_us; /* the device's time, without transfers */
        if (rc != 0) {
            fprintf(stderr, "Error: %s\n", ctx->error ? ctx->error : "unknown run-time error");
            rtm_free_values(outs, e->nout);
            return false;
        }
        if (times && (o->runs == 0 || run > 0)) fprintf(times, "%lld\n", (long long)(t1 - t0));
        if (run + 1 < total) rtm_free_values(outs, e->nout);
    }
    return true;
}

/* rtm_runs on a context that the backend sets up before and releases after. */
static bool rtm_run(const rt_entry *e, const rtm_opts *o, rt_value *ins, rt_value *outs,
                    FILE *times) {
    rt_ctx ctx = {0};
    if (rt_the_backend && rt_the_backend->init_ctx) rt_the_backend->init_ctx(&ctx);
    bool ok = rtm_runs(e, o, ins, outs, times, &ctx);
    if (rt_the_backend && rt_the_backend->fini_ctx) rt_the_backend->fini_ctx(&ctx);
    free(ctx.error);
    return ok;
}

static void rtm_print_results(const rt_value *outs, int n, bool binary) {
    for (int i = 0; i < n; i++) {
        if (binary) rt_write_binary(stdout, &outs[i]);
        else rt_write_text(stdout, &outs[i]);
        fputc('\n', stdout);
    }
}

static const rt_entry *rtm_find_entry(const char *name, const rt_entry *entries, int nentries) {
    for (int i = 0; i < nentries; i++)
        if (!strcmp(entries[i].name, name)) return &entries[i];
    if (nentries == 0) { /* a program of definitions only, compiled to check them */
        fprintf(stderr, "No entry point \"%s\": the program has no entry points (no `entry` and no `main`).\n", name);
        return NULL;
    }
    fprintf(stderr, "No entry point \"%s\". Select another with --entry-point. Options are:\n",
            name);
    for (int i = 0; i < nentries; i++) fprintf(stderr, "  %s\n", entries[i].name);
    return NULL;
}

/* Reads the inputs, runs the entry, prints the results; the exit status. */
static int rtm_execute(const rt_entry *e, const rtm_opts *o, FILE *times) {
    rt_value *ins = calloc((size_t)e->nin + 1, sizeof(rt_value));
    rt_value *outs = calloc((size_t)e->nout + 1, sizeof(rt_value));
    int status = 1;
    if (!ins || !outs) fprintf(stderr, "Error: out of memory\n");
    else if (rtm_read_inputs(e, ins)) {
        if (rtm_run(e, o, ins, outs, times)) {
            if (!o->no_print) rtm_print_results(outs, e->nout, o->binary);
            rtm_free_values(outs, e->nout);
            status = 0;
        }
        rtm_free_values(ins, e->nin);
    }
    free(ins);
    free(outs);
    if (fflush(stdout) != 0) status = 1;
    return status;
}

int rt_main(int argc, char **argv, const rt_entry *entries, int nentries) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--server")) return rt_server_main(argc, argv, entries, nentries);
    rtm_opts o = {"main", NULL, 0, false, false, false};
    if (!rtm_parse_opts(argc, argv, &o)) return 1;
    if (o.help) {
        rtm_usage(argc > 0 ? argv[0] : "prog", entries, nentries);
        return 0;
    }
    const rt_entry *e = rtm_find_entry(o.entry, entries, nentries);
    if (!e) return 1;
    FILE *times = NULL;
    if (o.runtime_file && !(times = fopen(o.runtime_file, "w"))) {
        fprintf(stderr, "Error: cannot open %s for writing.\n", o.runtime_file);
        return 1;
    }
    int status = rtm_execute(e, &o, times);
    if (times && fclose(times) != 0) status = 1;
    if (rt_the_backend && rt_the_backend->finish) rt_the_backend->finish();
    return status;
}

#undef RTM_MAX_ERROR
#undef RTM_MSG_LEN
#undef RTM_TYPE_LEN
