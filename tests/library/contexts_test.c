/* Creates and frees many contexts of the library that `futhorc c --library`
 * (or opencl) makes of tests/library/arrays.fut, each running an entry
 * point on a new array, and checks that memory does not grow: the resident
 * set after all of them is within CT_MAX_GROWTH_KB of that after the first
 * tenth. Under AddressSanitizer, whose quarantine keeps freed memory, the
 * growth is printed but not checked; LeakSanitizer checks instead, at exit,
 * that nothing was leaked. Prints "ok NAME" or "FAIL NAME: why";
 * tests/library/run.sh counts the lines.
 *
 *   contexts_test DIR [N]     (N contexts, default 1000; DIR, the library's
 *                             directory that run.sh gives every test, is unused) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrays.h"

/* Growth of the resident set allowed over the last nine tenths: a leak of
 * even 16 bytes per context over 10^5 contexts exceeds it, while malloc's
 * own bookkeeping stays well below. */
enum { CT_MAX_GROWTH_KB = 1024 };

#if defined(__SANITIZE_ADDRESS__)
#define CT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CT_ASAN 1
#endif
#endif

/* The resident set size in KiB (VmRSS of /proc/self/status), or -1. */
static long ct_rss_kb(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmRSS:", 6)) kb = strtol(line + 6, NULL, 10);
    if (f) fclose(f);
    return kb;
}

/* One context's life: configure, create, sum an array, free everything.
 * False after printing why. */
static int ct_one(int32_t *data, int n) {
    struct futhark_context_config *cfg = futhark_context_config_new();
    struct futhark_context *ctx = cfg ? futhark_context_new(cfg) : NULL;
    char *err = ctx ? futhark_context_get_error(ctx) : NULL;
    struct futhark_i32_1d *xs = ctx && !err ? futhark_new_i32_1d(ctx, data, n) : NULL;
    int32_t sum = 0;
    int ok = xs && futhark_entry_sum(ctx, &sum, xs) == 0 && futhark_context_sync(ctx) == 0 &&
             sum == n * (n + 1) / 2;
    if (!ok) printf("FAIL contexts: %s\n", err ? err : "creating a context or summing failed");
    free(err);
    if (xs) futhark_free_i32_1d(ctx, xs);
    if (ctx) futhark_context_free(ctx);
    if (cfg) futhark_context_config_free(cfg);
    return ok;
}

int main(int argc, char **argv) {
    long n = argc > 2 ? strtol(argv[2], NULL, 10) : 1000;
    if (n < 10) n = 10;
    int32_t data[100];
    for (int i = 0; i < 100; i++) data[i] = i + 1;
    long warm = -1;
    for (long i = 0; i < n; i++) {
        if (!ct_one(data, 100)) return 1;
        if (i + 1 == n / 10) warm = ct_rss_kb();
    }
    long end = ct_rss_kb();
    printf("ok %ld contexts created and freed (resident set %ld KiB after %ld, %ld KiB after all)\n", n, warm,
           n / 10, end);
#ifndef CT_ASAN
    if (end - warm > CT_MAX_GROWTH_KB) {
        printf("FAIL contexts: the resident set grew by %ld KiB\n", end - warm);
        return 1;
    }
#endif
    return 0;
}
