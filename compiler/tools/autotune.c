/* `futhorc autotune PROG.fut`: sets the thresholds of a program's
 * multi-versioned code (issue 18; seed 002 ch. 7,
 * ../shared/reference/seed-002-funmem.md §5) from timings on the datasets
 * of its test blocks, and writes them to PROG.fut.tuning, which `futhorc
 * bench` and `futhorc test` pass to the program (--tuning FILE).
 *
 * The program is compiled with the opencl backend; `--print-params` lists
 * its thresholds with the branches of the thresholds above them (parents
 * come first) and its variant parameters (tune_variants: tried after the
 * thresholds), and a run with -L logs each comparison ("Compared NAME <=
 * P: true."), which gives the degrees of parallelism P a dataset compares.
 *
 * The algorithm is the thesis's (TuneProgram with size-variant branches):
 * per dataset, every threshold starts at infinity (each comparison false:
 * the bottom-most version of every tree), then the thresholds are tuned
 * bottom-up (last listed first). For threshold i with the distinct P
 * values p_1 < ... < p_m it compared in the dataset's baseline run,
 * setting it to p_k makes the comparisons with P >= p_k take the true
 * branch; the tuner times each cut k = 1..m besides the current setting
 * (cut m+1: none takes it). The cuts within TUNE_NOISE of the fastest are
 * all optimal for the dataset (timing noise must not decide between
 * them: a dataset whose times do not depend on the threshold constrains
 * nothing, and two runs of the tuner write the same file), and they span
 * the interval of values that are: [p_{k-1}+1, p_l] for tied cuts k..l
 * (p_0 + 1 = 0, p_{m+1} = inf). The intervals of all datasets are
 * intersected. Under the thesis's monotonicity assumption the
 * intersection is not empty; the value written is the compiler's default
 * clamped into it, so that where the datasets say nothing the default
 * stays. A threshold whose intervals do not meet keeps the intersection
 * of the datasets before the one that broke it (a warning names it).
 * Finally every dataset runs with the default and with the tuned values,
 * and a warning names each that got slower.
 *
 * The P values come from the baseline run of a dataset (every threshold
 * at infinity): a threshold compared only inside the true branch of
 * another is not seen there and keeps its default (futhorc's versions are
 * one level deep so far).
 *
 * Runs: one baseline per dataset plus one per observed P value per
 * threshold (2 log2 m for m > TUNE_LINEAR_CUTS values): O(thresholds x
 * datasets), against the product of the
 * thresholds' candidate counts times the datasets for an exhaustive
 * search, which --exhaustive does (to measure the tuner against it). */
#include "autotune.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_run.h"

/* A threshold value no degree of parallelism reaches (the largest value
 * the runtime accepts). */
#define TUNE_INF (INT64_C(1) << 40)
/* A new setting must be faster by this fraction to replace the current. */
#define TUNE_NOISE 0.02
/* Most P values of a threshold on a dataset that are each timed as the
 * cut; with more, the cut is found by bisection. */
enum { TUNE_LINEAR_CUTS = 8 };
/* Measured runs per timing by default. */
enum { TUNE_DEFAULT_RUNS = 10 };
/* Most settings --exhaustive tries. */
enum { TUNE_MAX_SETTINGS = 4096 };

typedef VEC(int64_t) Values;

typedef struct Thr {
    const char *name;
    int64_t dflt;
    int64_t lb, ub; /* the values that are optimal for every dataset so far */
    int64_t value;  /* what is written */
    Values ps;      /* the P values compared in the latest run */
    Values all_ps;  /* every P value any baseline compared (--exhaustive) */
    bool broken;    /* the datasets' intervals did not meet */
} Thr;

/* A parameter that picks one of a kernel's variants (1 to count). */
typedef struct Variant {
    const char *name;
    int count;
    int value; /* what runs with tuned values take, and what is written */
} Variant;

typedef struct Dataset {
    const SpecCase *c;
    const char *in, *tmp, *label;
    double default_us, tuned_us;
} Dataset;

typedef struct Tuner {
    Bencher b;
    const char *path, *exe;
    VEC(Thr) thr;
    VEC(Variant) var;
    VEC(Dataset) ds;
    bool exhaustive;
    int executions; /* runs of the program (each: a warm-up and b.runs timed runs) */
} Tuner;

/* ---- Thresholds ----------------------------------------------------------------- */

/* Reads the thresholds and the variant parameters from `exe
 * --print-params`: lines "NAME (threshold DEFAULT (ANCESTORS))" and
 * "NAME (variant DEFAULT of COUNT: ...)"; false after a message. */
static bool tune_read_params(Tuner *T) {
    const char *out = spec_tmp(&T->b.work, "params");
    char *argv[] = {(char *)T->exe, "--print-params", NULL};
    const char *why = bench_exec(&T->b, argv, NULL, out, 0, "listing the parameters", NULL);
    char *text = why ? NULL : util_read_file(out, NULL);
    unlink(out);
    if (!text) {
        fprintf(stderr, "futhorc autotune: %s --print-params %s\n", T->exe, why ? why : "wrote nothing");
        return false;
    }
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        char name[512];
        long long dflt;
        int dvar, count;
        if (sscanf(line, "%511s (variant %d of %d:", name, &dvar, &count) == 3 && dvar >= 1 && dvar <= count) {
            Variant v = {.name = arena_strdup(&T->b.arena, name), .count = count, .value = dvar};
            vec_push(&T->var, v);
        }
        if (sscanf(line, "%511s (threshold %lld", name, &dflt) != 2) continue;
        Thr t = {.name = arena_strdup(&T->b.arena, name), .dflt = dflt, .lb = 0, .ub = TUNE_INF};
        vec_push(&T->thr, t);
    }
    free(text);
    return true;
}

static int tune_find(Tuner *T, const char *name, size_t len) {
    for (int i = 0; i < T->thr.len; i++)
        if (strlen(T->thr.items[i].name) == len && !strncmp(T->thr.items[i].name, name, len)) return i;
    return -1;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Sorts v and removes repeated values. */
static void sort_unique(Values *v) {
    if (!v->len) return;
    qsort(v->items, (size_t)v->len, sizeof(int64_t), cmp_i64);
    int n = 1;
    for (int i = 1; i < v->len; i++)
        if (v->items[i] != v->items[n - 1]) v->items[n++] = v->items[i];
    v->len = n;
}

/* Records the P values of a -L log's "Compared NAME <= P: ..." lines. */
static void tune_read_log(Tuner *T, const char *log) {
    for (int i = 0; i < T->thr.len; i++) T->thr.items[i].ps.len = 0;
    for (const char *l = log; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        if (strncmp(l, "Compared ", 9)) continue;
        const char *name = l + 9, *sp = strchr(name, ' ');
        if (!sp || strncmp(sp, " <= ", 4)) continue;
        int i = tune_find(T, name, (size_t)(sp - name));
        if (i >= 0) vec_push(&T->thr.items[i].ps, strtoll(sp + 4, NULL, 10));
    }
    for (int i = 0; i < T->thr.len; i++) sort_unique(&T->thr.items[i].ps);
}

/* ---- Runs ------------------------------------------------------------------------ */

/* The mean runtime (µs) of dataset d with the thresholds at values and
 * the variants at theirs (values NULL: every parameter at its default);
 * with log, the P values compared are recorded. A run that fails (a
 * version out of local memory, a wrong result) counts as infinitely slow,
 * with a note. */
static double tune_run(Tuner *T, Dataset *d, const int64_t *values, bool log) {
    SpecStrings extra = {0};
    for (int i = 0; values && i < T->thr.len; i++) {
        vec_push(&extra, "--param");
        vec_push(&extra, arena_printf(&T->b.arena, "%s=%lld", T->thr.items[i].name, (long long)values[i]));
    }
    for (int i = 0; values && i < T->var.len; i++) {
        vec_push(&extra, "--param");
        vec_push(&extra, arena_printf(&T->b.arena, "%s=%d", T->var.items[i].name, T->var.items[i].value));
    }
    if (log) vec_push(&extra, "-L");
    BenchData r = {0};
    char *text = NULL;
    bench_time(&T->b, T->exe, d->c, d->in, d->label, &extra, log ? &text : NULL, &r);
    T->executions++;
    if (log) tune_read_log(T, text);
    free(text);
    vec_free(&extra);
    if (r.error) {
        printf("  %s: a setting fails: %s\n", d->label, r.error);
        return INFINITY;
    }
    BenchStats s;
    bench_stats(r.runtimes, r.nruns, &s);
    return s.mean;
}

/* The time of cut k of threshold i (values[i] = ps[k]; k = m: now), timed
 * once (us[k] is NAN until then). */
static double tune_cut(Tuner *T, Dataset *d, int64_t *values, int i, const Values *ps, int64_t now, double *us,
                       int k) {
    if (isnan(us[k])) {
        values[i] = k == ps->len ? now : ps->items[k];
        us[k] = tune_run(T, d, values, false);
    }
    return us[k];
}

/* Tunes threshold i on dataset d (values: the current setting, whose time
 * is *best) and narrows its interval: the cuts within TUNE_NOISE of the
 * fastest are all optimal on d, and the interval spans them. With more
 * than TUNE_LINEAR_CUTS values of P, the cuts are searched by bisection,
 * the time being unimodal in the cut under the monotonicity assumption
 * (the thesis's size-variant search): O(log m) runs. */
static void tune_threshold(Tuner *T, Dataset *d, int64_t *values, int i, double *best) {
    Thr *t = &T->thr.items[i];
    int m = t->ps.len;
    if (!m) return; /* not compared on this dataset */
    Values ps = {0};
    for (int k = 0; k < m; k++) vec_push(&ps, t->ps.items[k]);
    double *us = NEW_ARRAY(&T->b.arena, double, m + 1);
    for (int k = 0; k < m; k++) us[k] = NAN;
    us[m] = *best; /* cut m: no P takes the true branch (the value now) */
    int64_t now = values[i];
    if (m <= TUNE_LINEAR_CUTS) {
        for (int k = 0; k < m; k++) tune_cut(T, d, values, i, &ps, now, us, k);
    } else {
        int a = 0, b = m;
        while (a < b) {
            int mid = (a + b) / 2;
            if (tune_cut(T, d, values, i, &ps, now, us, mid) <= tune_cut(T, d, values, i, &ps, now, us, mid + 1)) b = mid;
            else a = mid + 1;
        }
    }
    int chosen = m, lo = m, hi = 0;
    for (int k = 0; k <= m; k++)
        if (!isnan(us[k]) && us[k] < us[chosen]) chosen = k;
    for (int k = 0; k <= m; k++)
        if (!isnan(us[k]) && us[k] <= us[chosen] * (1 + TUNE_NOISE)) lo = k < lo ? k : lo, hi = k > hi ? k : hi;
    int64_t lb = lo == 0 ? 0 : ps.items[lo - 1] + 1;
    int64_t ub = hi == m ? TUNE_INF : ps.items[hi];
    *best = us[chosen];
    values[i] = chosen == m ? now : ps.items[chosen];
    printf("  %s: %s in [%lld, %lld]\n", d->label, t->name, (long long)lb, (long long)ub);
    if (lb > t->ub || ub < t->lb) {
        if (!t->broken)
            fprintf(stderr, "futhorc autotune: warning: %s: dataset %s disagrees with the datasets before it "
                            "(the versions are not monotone in P); keeping [%lld, %lld]\n",
                    t->name, d->label, (long long)t->lb, (long long)t->ub);
        t->broken = true;
    } else {
        if (lb > t->lb) t->lb = lb;
        if (ub < t->ub) t->ub = ub;
    }
    vec_free(&ps);
}

/* The thesis's TuneProgram over every dataset. */
static void tune_all(Tuner *T) {
    int n = T->thr.len;
    int64_t *values = NEW_ARRAY(&T->b.arena, int64_t, n + 1);
    for (int j = 0; j < T->ds.len; j++) {
        Dataset *d = &T->ds.items[j];
        for (int i = 0; i < n; i++) values[i] = TUNE_INF;
        double best = tune_run(T, d, values, true);
        for (int i = 0; i < n; i++)
            for (int k = 0; k < T->thr.items[i].ps.len; k++) vec_push(&T->thr.items[i].all_ps, T->thr.items[i].ps.items[k]);
        for (int i = n - 1; i >= 0; i--) tune_threshold(T, d, values, i, &best);
    }
    for (int i = 0; i < n; i++) {
        Thr *t = &T->thr.items[i];
        t->value = t->dflt < t->lb ? t->lb : t->dflt > t->ub ? t->ub : t->dflt;
    }
}

/* A time relative to the least of its dataset (at µs resolution). */
static double tune_relative(double us, double least) { return us / (least > 1 ? least : 1); }

/* The variants (RaijinCL's search, seed 004): with the thresholds at
 * values, each variant parameter in turn tries each of its variants on
 * every dataset, keeping the others at their best so far; the variant of
 * least total relative time wins (each dataset's time divided by its
 * least, as --exhaustive does), and it replaces the current one only if
 * that is more than TUNE_NOISE slower. count x datasets runs each. */
static void tune_variants(Tuner *T, const int64_t *values) {
    int nd = T->ds.len;
    for (int i = 0; i < T->var.len; i++) {
        Variant *v = &T->var.items[i];
        int now = v->value - 1;
        double *us = NEW_ARRAY(&T->b.arena, double, v->count * nd + 1), *least = NEW_ARRAY(&T->b.arena, double, nd + 1);
        for (int j = 0; j < nd; j++) least[j] = INFINITY;
        for (int x = 0; x < v->count; x++) {
            v->value = x + 1;
            for (int j = 0; j < nd; j++) {
                us[x * nd + j] = tune_run(T, &T->ds.items[j], values, false);
                if (us[x * nd + j] < least[j]) least[j] = us[x * nd + j];
            }
        }
        double *score = NEW_ARRAY(&T->b.arena, double, v->count);
        int fastest = 0;
        for (int x = 0; x < v->count; x++) {
            score[x] = 0;
            for (int j = 0; j < nd; j++)
                if (isfinite(least[j])) score[x] += tune_relative(us[x * nd + j], least[j]);
            printf("  %s=%d: mean relative time %.3f\n", v->name, x + 1, score[x] / nd);
            if (score[x] < score[fastest]) fastest = x;
        }
        v->value = score[now] > score[fastest] * (1 + TUNE_NOISE) ? fastest + 1 : now + 1;
    }
}

/* --exhaustive: every combination of the values that make a difference
 * (each P value any baseline compared, and infinity) on every dataset;
 * the combination of least total relative time (each dataset's time
 * divided by its least over all combinations, so that a long dataset's
 * noise does not outweigh a short one's difference). */
static bool tune_exhaustive(Tuner *T) {
    int n = T->thr.len;
    long long settings = 1;
    for (int i = 0; i < n; i++) {
        sort_unique(&T->thr.items[i].all_ps);
        vec_push(&T->thr.items[i].all_ps, TUNE_INF);
        settings *= T->thr.items[i].all_ps.len;
        if (settings > TUNE_MAX_SETTINGS) {
            fprintf(stderr, "futhorc autotune: --exhaustive: more than %d settings\n", TUNE_MAX_SETTINGS);
            return false;
        }
    }
    int nd = T->ds.len;
    int64_t *values = NEW_ARRAY(&T->b.arena, int64_t, n * settings + 1);
    double *us = NEW_ARRAY(&T->b.arena, double, nd * settings + 1), *least = NEW_ARRAY(&T->b.arena, double, nd + 1);
    for (int j = 0; j < nd; j++) least[j] = INFINITY;
    int before = T->executions;
    for (long long s = 0; s < settings; s++) {
        int64_t *v = values + n * s;
        for (long long i = 0, r = s; i < n; i++) {
            v[i] = T->thr.items[i].all_ps.items[r % T->thr.items[i].all_ps.len];
            r /= T->thr.items[i].all_ps.len;
        }
        for (int j = 0; j < nd; j++) {
            us[nd * s + j] = tune_run(T, &T->ds.items[j], v, false);
            if (us[nd * s + j] < least[j]) least[j] = us[nd * s + j];
        }
    }
    double best = INFINITY;
    for (long long s = 0; s < settings; s++) {
        double score = 0;
        for (int j = 0; j < nd; j++) score += tune_relative(us[nd * s + j], least[j]);
        if (score < best) {
            best = score;
            for (int i = 0; i < n; i++) T->thr.items[i].value = values[n * s + i];
        }
    }
    printf("Exhaustive search: %lld settings x %d datasets = %d runs, best mean relative time %.3f\n", settings,
           nd, T->executions - before, best / nd);
    return true;
}

/* ---- The program ------------------------------------------------------------------ */

/* Prepares the inputs of the runnable cases of f. */
static bool tune_datasets(Tuner *T, const SpecFile *f) {
    for (int i = 0; i < f->cases.len; i++) {
        const SpecCase *c = f->cases.items[i];
        if (!bench_runnable(&T->b, c)) continue;
        Dataset d = {.c = c, .label = arena_printf(&T->b.arena, "%s:%s", c->entry, c->name)};
        const char *why;
        if (!(d.in = bench_input(&T->b, T->path, T->exe, c, d.label, &d.tmp, &why))) {
            fprintf(stderr, "futhorc autotune: %s: %s\n", d.label, why);
            return false;
        }
        vec_push(&T->ds, d);
    }
    return true;
}

static bool tune_write(Tuner *T, const char *file) {
    FILE *f = fopen(file, "w");
    if (!f) {
        fprintf(stderr, "futhorc autotune: cannot write %s: %s\n", file, strerror(errno));
        return false;
    }
    for (int i = 0; i < T->thr.len; i++) fprintf(f, "%s=%lld\n", T->thr.items[i].name, (long long)T->thr.items[i].value);
    for (int i = 0; i < T->var.len; i++) fprintf(f, "%s=%d\n", T->var.items[i].name, T->var.items[i].value);
    return fclose(f) == 0;
}

/* Times every dataset with the defaults and with the tuned values (the
 * thresholds' values, and the variants'). */
static void tune_check(Tuner *T, const int64_t *values) {
    printf("\n%-40s %12s %12s\n", "dataset", "default \xce\xbcs", "tuned \xce\xbcs");
    for (int j = 0; j < T->ds.len; j++) {
        Dataset *d = &T->ds.items[j];
        d->default_us = tune_run(T, d, NULL, false);
        d->tuned_us = tune_run(T, d, values, false);
        printf("%-40s %12.0f %12.0f\n", d->label, d->default_us, d->tuned_us);
        if (d->tuned_us > d->default_us * (1 + TUNE_NOISE))
            fprintf(stderr, "futhorc autotune: warning: %s is slower with the tuned parameters\n", d->label);
    }
}

static int tune_program(Tuner *T, const char *out_file) {
    char *text = util_read_file(T->path, NULL);
    if (!text) {
        fprintf(stderr, "futhorc autotune: cannot read %s: %s\n", T->path, strerror(errno));
        return 1;
    }
    SpecFile f = {0};
    spec_parse_file(&T->b.arena, &f, T->path, text);
    free(text);
    int rc = 1;
    const char *why;
    if (f.error) fprintf(stderr, "futhorc autotune: %s: %s\n", T->path, f.error);
    else if ((why = bench_compile(&T->b, T->path, T->exe))) fprintf(stderr, "futhorc autotune: %s\n", why);
    else if (tune_read_params(T) && tune_datasets(T, &f)) {
        if (!T->thr.len && !T->var.len) printf("%s has no thresholds: nothing to tune.\n", T->path), rc = 0;
        else if (!T->ds.len) fprintf(stderr, "futhorc autotune: %s has no datasets to tune on\n", T->path);
        else {
            printf("Tuning %d threshold%s on %d dataset%s.\n", T->thr.len, T->thr.len == 1 ? "" : "s", T->ds.len,
                   T->ds.len == 1 ? "" : "s");
            if (T->thr.len) tune_all(T);
            printf("Tuner: %d runs.\n", T->executions);
            if (!T->thr.len || !T->exhaustive || tune_exhaustive(T)) {
                int64_t *values = NEW_ARRAY(&T->b.arena, int64_t, T->thr.len + 1);
                for (int i = 0; i < T->thr.len; i++) {
                    const Thr *t = &T->thr.items[i];
                    values[i] = t->value;
                    printf("%s=%lld (optimal interval [%lld, %lld], default %lld)\n", t->name, (long long)t->value,
                           (long long)t->lb, (long long)t->ub, (long long)t->dflt);
                }
                if (T->var.len) {
                    int before = T->executions;
                    printf("Tuning %d variant parameter%s.\n", T->var.len, T->var.len == 1 ? "" : "s");
                    tune_variants(T, values);
                    printf("Variants: %d runs.\n", T->executions - before);
                    for (int i = 0; i < T->var.len; i++)
                        printf("%s=%d (of %d)\n", T->var.items[i].name, T->var.items[i].value, T->var.items[i].count);
                }
                tune_check(T, values);
                if (tune_write(T, out_file)) printf("Wrote %s.\n", out_file), rc = 0;
            }
        }
    }
    for (int j = 0; j < T->ds.len; j++)
        if (T->ds.items[j].tmp) unlink(T->ds.items[j].tmp);
    unlink(T->exe);
    spec_file_free(&f);
    return rc;
}

/* ---- The command line --------------------------------------------------------------- */

static void tune_usage(void) {
    printf("Usage: futhorc autotune [OPTIONS] PROG.fut\n"
           "Sets the thresholds of the program's multi-versioned code, then the variants\n"
           "of its tiled kernels, from timings on the datasets of its -- == test blocks\n"
           "and writes them to PROG.fut.tuning, which futhorc bench and futhorc test\n"
           "then use.\n\n"
           "Options:\n"
           "  -r N, --runs=N                 timed runs per measurement (default %d)\n"
           "  --backend=NAME                 the backend (only opencl has thresholds)\n"
           "  --pass-compiler-option=OPT     pass OPT to the compiler\n"
           "  -p OPT, --pass-option=OPT      pass OPT to the program\n"
           "  --exclude-case=TAG             tune without the cases tagged TAG\n"
           "  -e NAME, --entry-point=NAME    tune on the datasets of entry point NAME only\n"
           "  --timeout=SECONDS              time limit of one measurement\n"
           "  --tuning=EXT                   write PROG.futEXT (default .tuning)\n"
           "  --exhaustive                   try every combination of threshold values\n"
           "                                 instead (to measure the tuner against)\n"
           "  -h, --help                     print this text\n",
           TUNE_DEFAULT_RUNS);
}

static int tune_bad_usage(const char *what, const char *arg) {
    fprintf(stderr, "futhorc autotune: %s%s%s; try --help\n", what, *arg ? " " : "", arg);
    return 1;
}

int tool_autotune(int argc, char **argv, const char *futhorc_path) {
    Tuner T = {0};
    Bencher *b = &T.b;
    b->futhorc = futhorc_path;
    b->backend = "opencl";
    b->runs = TUNE_DEFAULT_RUNS;
    b->exact = true;
    b->progress = isatty(2);
    const char *ext = ".tuning", *v;
    int rc = 0;
    for (int i = 1; i < argc && !rc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) return tune_usage(), 0;
        else if (!strcmp(a, "--exhaustive")) T.exhaustive = true;
        else if ((v = spec_optval(argc, argv, &i, "-r")) || (v = spec_optval(argc, argv, &i, "--runs"))) {
            if ((b->runs = spec_posint(v, 100000)) < 1) rc = tune_bad_usage("bad number of runs", v);
        } else if ((v = spec_optval(argc, argv, &i, "--timeout"))) {
            if ((b->timeout_s = spec_posint(v, INT32_MAX)) < 0) rc = tune_bad_usage("bad --timeout value", v);
        } else if ((v = spec_optval(argc, argv, &i, "--backend"))) b->backend = v;
        else if ((v = spec_optval(argc, argv, &i, "--pass-compiler-option"))) vec_push(&b->copts, v);
        else if ((v = spec_optval(argc, argv, &i, "-p")) || (v = spec_optval(argc, argv, &i, "--pass-option")))
            vec_push(&b->popts, v);
        else if ((v = spec_optval(argc, argv, &i, "--exclude-case"))) vec_push(&b->exclude, v);
        else if ((v = spec_optval(argc, argv, &i, "-e")) || (v = spec_optval(argc, argv, &i, "--entry-point")))
            b->entry_only = v;
        else if ((v = spec_optval(argc, argv, &i, "--tuning"))) ext = v;
        else if (a[0] == '-' && a[1]) rc = tune_bad_usage("unknown or incomplete option", a);
        else if (T.path) rc = tune_bad_usage("one program at a time; unexpected", a);
        else T.path = a;
    }
    if (!rc && !T.path) rc = tune_bad_usage("no program given", "");
    if (!rc && !spec_backend_known(b->backend)) rc = tune_bad_usage("unknown backend", b->backend);
    if (!rc && spec_work_init(&b->work, &b->arena, "autotune")) {
        vec_push(&b->exclude, "notune");
        vec_push(&b->exclude, "nobench");
        vec_push(&b->exclude, "disable");
        vec_push(&b->exclude, arena_printf(&b->arena, "no_%s", b->backend));
        T.exe = spec_tmp(&b->work, "prog");
        rc = tune_program(&T, arena_printf(&b->arena, "%s%s", T.path, ext));
    } else if (!rc) {
        rc = 1;
    }
    spec_work_free(&b->work);
    for (int i = 0; i < T.thr.len; i++) vec_free(&T.thr.items[i].ps), vec_free(&T.thr.items[i].all_ps);
    vec_free(&T.thr), vec_free(&T.var), vec_free(&T.ds), vec_free(&b->copts), vec_free(&b->popts), vec_free(&b->exclude);
    arena_free(&b->arena);
    return rc;
}
