/* `futhorc bench`: times the entry points of programs on the datasets of
 * their test blocks, like `futhark bench` (survey §2.6). */
#ifndef FUTHORC_TOOLS_BENCH_H
#define FUTHORC_TOOLS_BENCH_H

#include <stdbool.h>
#include <stdint.h>

/* Runs `futhorc bench [options] FILES|DIRS` or `futhorc bench --compare
 * OLD.json NEW.json` (argv[0] is "bench"), compiling programs with the
 * futhorc at futhorc_path. Returns the exit status: 1 if a program failed to
 * compile, a dataset failed, or the command line or a file was bad. */
int tool_bench(int argc, char **argv, const char *futhorc_path);

/* The statistics of one dataset's runtimes (µs): arithmetic mean, sample
 * standard deviation, and the 95% confidence interval of the mean from
 * Student's t-distribution (mean ± t(0.975, n-1)·sd/√n, its lower end
 * clamped at 0; a single run gives sd 0 and the interval [mean, mean]). */
typedef struct BenchStats {
    double mean, sd, lo, hi;
    int n;
} BenchStats;

void bench_stats(const int64_t *runtimes, int n, BenchStats *s);

/* The 0.975 quantile of Student's t-distribution with df degrees of freedom
 * (df >= 1). */
double bench_t975(int df);

#endif
