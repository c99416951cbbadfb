/* A C application written against the Futhark C API (as documented for
 * `futhark c --library`), linked with the library that `futhorc c --library`
 * makes of tests/library/arrays.fut. Prints "ok NAME" or "FAIL NAME: why"
 * per check; tests/library/run.sh builds it with AddressSanitizer and
 * counts the lines. Exits 1 if any check failed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrays.h"

static int failures;

static void check(int ok, const char *name, const char *why) {
    if (ok) printf("ok %s\n", name);
    else printf("FAIL %s: %s\n", name, why), failures++;
}

/* Takes the context's error (which the caller must free): checks that there
 * is one and that it mentions `part`. */
static void check_error(struct futhark_context *ctx, const char *name, const char *part) {
    char *err = futhark_context_get_error(ctx);
    int ok = err && strstr(err, part);
    char why[512];
    snprintf(why, sizeof why, "error message \"%s\" lacks \"%s\"", err ? err : "(none)", part);
    check(ok, name, why);
    free(err);
    char *again = futhark_context_get_error(ctx);
    snprintf(why, sizeof why, "%s: error cleared once taken", name);
    check(again == NULL, why, "a second get_error returned a message");
    free(again);
}

static void test_scalars(struct futhark_context *ctx) {
    int32_t r = 0;
    check(futhark_entry_answer(ctx, &r) == 0 && r == 42, "entry without arguments", "answer != 42");
    int8_t a;
    int16_t b;
    int32_t c;
    int64_t d;
    uint8_t e;
    uint16_t f;
    uint32_t g;
    uint64_t h;
    float x;
    double y;
    bool z;
    int rc = futhark_entry_next(ctx, &a, &b, &c, &d, &e, &f, &g, &h, &x, &y, &z, 127, -2, 3, INT64_C(1) << 40, 255,
                                7, 4000000000u, UINT64_C(1) << 63, 1.5f, -0.25, true);
    check(rc == 0 && a == -128 && b == -1 && c == 4 && d == (INT64_C(1) << 40) + 1 && e == 0 && f == 8 &&
              g == 4000000001u && h == (UINT64_C(1) << 63) + 1 && x == 2.5f && y == 0.75 && z == false,
          "scalars of every type, eleven results", "wrong results");
    check(futhark_entry_checked_div(ctx, &c, 7, 2) == 0 && c == 3, "scalar entry", "7/2 != 3");
    c = 12345;
    rc = futhark_entry_checked_div(ctx, &c, 7, 0);
    check(rc != 0 && c == 12345, "failing entry returns non-zero, output untouched", "rc 0 or output written");
    check_error(ctx, "failing entry sets the error", "ssertion");
}

static void test_1d(struct futhark_context *ctx) {
    int32_t data[100];
    for (int i = 0; i < 100; i++) data[i] = i + 1;
    struct futhark_i32_1d *xs = futhark_new_i32_1d(ctx, data, 100);
    int32_t s = 0;
    check(xs && futhark_entry_sum(ctx, &s, xs) == 0 && s == 5050, "sum of []i32", "sum != 5050");
    check(futhark_shape_i32_1d(ctx, xs)[0] == 100, "shape of []i32", "shape != 100");
    int32_t v = 0;
    check(futhark_index_i32_1d(ctx, &v, xs, 41) == 0 && v == 42, "index of []i32", "xs[41] != 42");
    check(futhark_index_i32_1d(ctx, &v, xs, 100) != 0, "index out of bounds fails", "returned 0");
    check_error(ctx, "index out of bounds message", "out of bounds");
    data[0] = 1000;
    check(futhark_entry_sum(ctx, &s, xs) == 0 && s == 5050, "new copies its data", "array changed with the data");

    struct futhark_i32_1d *ys = NULL;
    check(futhark_entry_set_first(ctx, &ys, xs) == 0, "consuming entry", "failed");
    int32_t out[100];
    check(futhark_values_i32_1d(ctx, ys, out) == 0 && futhark_context_sync(ctx) == 0 && out[0] == 42 && out[99] == 100,
          "values of a result", "wrong values");
    futhark_free_i32_1d(ctx, ys);
    futhark_free_i32_1d(ctx, xs);

    struct futhark_i32_1d *empty = futhark_new_i32_1d(ctx, NULL, 0);
    s = -1;
    check(empty && futhark_entry_sum(ctx, &s, empty) == 0 && s == 0, "empty array", "sum of [] != 0");
    check(futhark_values_i32_1d(ctx, empty, NULL) == 0, "values of an empty array", "failed");
    futhark_free_i32_1d(ctx, empty);

    uint8_t bytes[3] = {9, 8, 7};
    struct futhark_u8_1d *bs = futhark_new_u8_1d(ctx, bytes, 3);
    uint8_t b = 0;
    check(futhark_entry_at(ctx, &b, bs, 2) == 0 && b == 7, "[]u8 argument and u8 result", "xs[2] != 7");
    check(futhark_entry_at(ctx, &b, bs, 3) != 0, "bounds failure in the program", "returned 0");
    check_error(ctx, "bounds failure message", "ndex");
    futhark_free_u8_1d(ctx, bs);

    bool flags[4] = {false, false, true, false};
    struct futhark_bool_1d *fl = futhark_new_bool_1d(ctx, flags, 4);
    bool any = false;
    int64_t n = 0;
    check(futhark_entry_any_true(ctx, &any, &n, fl) == 0 && any && n == 4, "[]bool argument, two results", "wrong");
    futhark_free_bool_1d(ctx, fl);
}

static void test_ranks(struct futhark_context *ctx) {
    float m[2][3] = {{1, 2, 3}, {4, 5, 6}};
    struct futhark_f32_2d *a = futhark_new_f32_2d(ctx, &m[0][0], 2, 3), *r = NULL;
    check(futhark_entry_scale(ctx, &r, 0.5f, a) == 0, "scale [][]f32", "failed");
    const int64_t *sh = futhark_shape_f32_2d(ctx, r);
    float got[6];
    check(sh && sh[0] == 2 && sh[1] == 3 && futhark_values_f32_2d(ctx, r, got) == 0 && got[0] == 0.5f && got[5] == 3.0f,
          "[][]f32 result, row-major", "wrong shape or values");
    float e = 0;
    check(futhark_index_f32_2d(ctx, &e, r, 1, 0) == 0 && e == 2.0f, "index of [][]f32", "r[1][0] != 2");
    futhark_free_f32_2d(ctx, a);
    futhark_free_f32_2d(ctx, r);

    int16_t c[2 * 3 * 4];
    for (int i = 0; i < 24; i++) c[i] = (int16_t)(i * 10);
    struct futhark_i16_3d *c3 = futhark_new_i16_3d(ctx, c, 2, 3, 4), *c4 = NULL;
    int16_t out[24];
    int ok = futhark_entry_incr3(ctx, &c4, c3) == 0 && futhark_values_i16_3d(ctx, c4, out) == 0;
    for (int i = 0; ok && i < 24; i++) ok = out[i] == i * 10 + 1;
    sh = futhark_shape_i16_3d(ctx, c4);
    check(ok && sh[0] == 2 && sh[1] == 3 && sh[2] == 4, "[][][]i16 argument and result", "wrong values or shape");
    futhark_free_i16_3d(ctx, c3);
    futhark_free_i16_3d(ctx, c4);

    double xs[4] = {1, 7, -2, 3};
    struct futhark_f64_1d *x = futhark_new_f64_1d(ctx, xs, 4), *dbl = NULL;
    double sum = 0, max = 0, d[4];
    check(futhark_entry_stats(ctx, &sum, &max, &dbl, x) == 0 && sum == 9 && max == 7 &&
              futhark_values_f64_1d(ctx, dbl, d) == 0 && d[1] == 14 && d[2] == -4,
          "three results (scalars and an array)", "wrong results");
    futhark_free_f64_1d(ctx, x);
    futhark_free_f64_1d(ctx, dbl);

}

/* futhark_new_raw_* borrows the backend's own storage (host memory, or a
 * cl_mem of the context's OpenCL context) and futhark_values_raw_* gives
 * it back. */
static void test_raw(struct futhark_context *ctx) {
    int64_t three[3] = {1, 2, 3};
#ifdef FUTHARK_BACKEND_opencl
    cl_context clctx = NULL;
    clGetCommandQueueInfo(futhark_context_get_command_queue(ctx), CL_QUEUE_CONTEXT, sizeof clctx, &clctx, NULL);
    cl_mem raw = clCreateBuffer(clctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof three, three, NULL);
#else
    unsigned char raw[3 * sizeof(int64_t)];
    memcpy(raw, three, sizeof three);
#endif
    struct futhark_i64_1d *rw = futhark_new_raw_i64_1d(ctx, raw, 3), *sum2 = NULL;
    check(rw && futhark_values_raw_i64_1d(ctx, rw) == raw, "new_raw borrows, values_raw gives it back", "other pointer");
    check(futhark_entry_add(ctx, &sum2, rw, rw) == 0 && futhark_index_i64_1d(ctx, &three[0], sum2, 2) == 0 &&
              three[0] == 6,
          "raw array as an argument", "wrong result");
    futhark_free_i64_1d(ctx, rw);
    futhark_free_i64_1d(ctx, sum2);
#ifdef FUTHARK_BACKEND_opencl
    clReleaseMemObject(raw);
#endif
}

/* Results passed straight into other entry points, results that are an
 * argument (freed apart from it) or a slice of one, and a failure inside a
 * parallel map (a kernel on OpenCL) reported with its source location. */
static void test_chains(struct futhark_context *ctx) {
    float m[2][2] = {{1, 2}, {3, 4}}, got[4];
    struct futhark_f32_2d *a = futhark_new_f32_2d(ctx, &m[0][0], 2, 2), *b = NULL, *c = NULL;
    int ok = futhark_entry_scale(ctx, &b, 2.0f, a) == 0 && futhark_entry_scale(ctx, &c, 0.25f, b) == 0 &&
             futhark_values_f32_2d(ctx, c, got) == 0;
    check(ok && got[0] == 0.5f && got[3] == 2.0f, "a result as the next entry's argument", "wrong values");
    futhark_free_f32_2d(ctx, a);
    futhark_free_f32_2d(ctx, b);
    futhark_free_f32_2d(ctx, c);

    int32_t data[4] = {5, 6, 7, 8}, out[4] = {0}, s = 0;
    struct futhark_i32_1d *xs = futhark_new_i32_1d(ctx, data, 4), *same = NULL, *tail = NULL;
    check(futhark_entry_same(ctx, &same, xs) == 0 && same && same != xs, "a result that is the argument",
          "failed or the same pointer");
    futhark_free_i32_1d(ctx, xs);
    check(futhark_values_i32_1d(ctx, same, out) == 0 && out[0] == 5 && out[3] == 8,
          "such a result outlives the freed argument", "wrong values");
    ok = futhark_entry_tail(ctx, &tail, same) == 0 && futhark_shape_i32_1d(ctx, tail)[0] == 3 &&
         futhark_values_i32_1d(ctx, tail, out) == 0;
    check(ok && out[0] == 6 && out[2] == 8, "a slice of the argument as the result", "wrong shape or values");
    check(futhark_entry_sum(ctx, &s, tail) == 0 && s == 21, "the slice as an argument", "sum != 21");
    futhark_free_i32_1d(ctx, same);
    futhark_free_i32_1d(ctx, tail);

    int32_t ten[3] = {10, 20, 30};
    int64_t good[2] = {2, 0}, bad[2] = {2, 7};
    struct futhark_i32_1d *t = futhark_new_i32_1d(ctx, ten, 3), *r = NULL;
    struct futhark_i64_1d *gi = futhark_new_i64_1d(ctx, good, 2), *bi = futhark_new_i64_1d(ctx, bad, 2);
    check(futhark_entry_gather(ctx, &r, t, bi) != 0 && r == NULL, "index out of bounds in a parallel map fails",
          "rc 0 or output written");
    check_error(ctx, "its message names the source location", "arrays.fut:35:");
    check(futhark_context_sync(ctx) == 0, "sync after the failure", "non-zero");
    ok = futhark_entry_gather(ctx, &r, t, gi) == 0 && futhark_values_i32_1d(ctx, r, out) == 0;
    check(ok && out[0] == 30 && out[1] == 10, "the context works after a failure in a map", "wrong values");
    futhark_free_i32_1d(ctx, t);
    futhark_free_i32_1d(ctx, r);
    futhark_free_i64_1d(ctx, gi);
    futhark_free_i64_1d(ctx, bi);
}

/* A second context beside the first: each keeps its own arrays. */
static void test_two_contexts(struct futhark_context *ctx) {
    struct futhark_context_config *cfg2 = futhark_context_config_new();
    struct futhark_context *ctx2 = futhark_context_new(cfg2);
    char *err = futhark_context_get_error(ctx2);
    check(!err, "a second context at the same time", err ? err : "");
    free(err);
    int32_t d1[3] = {1, 2, 3}, d2[3] = {10, 20, 30}, s1 = 0, s2 = 0;
    struct futhark_i32_1d *x1 = futhark_new_i32_1d(ctx, d1, 3), *x2 = futhark_new_i32_1d(ctx2, d2, 3), *y2 = NULL;
    int ok = futhark_entry_same(ctx2, &y2, x2) == 0 && futhark_entry_sum(ctx, &s1, x1) == 0 &&
             futhark_entry_sum(ctx2, &s2, y2) == 0;
    check(ok && s1 == 6 && s2 == 60, "entry points of two contexts in turn", "wrong sums");
    check(futhark_entry_sum(ctx, &s1, x2) != 0, "an array of the other context is refused", "rc 0");
    check_error(ctx, "the other context's array message", "not a live array");
    futhark_free_i32_1d(ctx2, x2);
    futhark_free_i32_1d(ctx2, y2);
    futhark_context_free(ctx2);
    futhark_context_config_free(cfg2);
    s1 = 0;
    check(futhark_entry_sum(ctx, &s1, x1) == 0 && s1 == 6, "the first context after the second is freed", "sum != 6");
    futhark_free_i32_1d(ctx, x1);
}

static void test_errors(struct futhark_context *ctx) {
    int64_t a[3] = {1, 2, 3}, b[4] = {1, 2, 3, 4};
    struct futhark_i64_1d *x = futhark_new_i64_1d(ctx, a, 3), *y = futhark_new_i64_1d(ctx, b, 4), *r = NULL;
    check(futhark_entry_add(ctx, &r, x, y) != 0 && r == NULL, "size mismatch fails", "rc 0 or output written");
    check_error(ctx, "size mismatch message", "size");
    check(futhark_entry_add(ctx, &r, x, NULL) != 0, "NULL array argument fails", "rc 0");
    check_error(ctx, "NULL argument message", "NULL");
    check(futhark_entry_add(ctx, NULL, x, x) != 0, "NULL output pointer fails", "rc 0");
    check_error(ctx, "NULL output message", "NULL");
    struct futhark_i32_1d *wrong = (struct futhark_i32_1d *)x;
    int32_t s;
    check(futhark_entry_sum(ctx, &s, wrong) != 0, "array of the wrong type fails", "rc 0");
    check_error(ctx, "wrong type message", "[]i64");
    check(futhark_free_i64_1d(ctx, y) == 0, "free", "non-zero");
    check(futhark_entry_add(ctx, &r, y, y) != 0, "freed array argument fails", "rc 0");
    check_error(ctx, "freed argument message", "not a live array");
    check(futhark_free_i64_1d(ctx, y) != 0, "double free fails", "rc 0");
    check_error(ctx, "double free message", "not a live array");
    check(futhark_values_i64_1d(ctx, y, b) != 0 && futhark_shape_i64_1d(ctx, y) == NULL, "freed array: values, shape",
          "succeeded");
    free(futhark_context_get_error(ctx));
    check(futhark_new_i64_1d(ctx, a, -1) == NULL, "negative dimension fails", "returned an array");
    check_error(ctx, "negative dimension message", "negative");
    check(futhark_new_i64_1d(ctx, NULL, 3) == NULL, "NULL data fails", "returned an array");
    check_error(ctx, "NULL data message", "NULL");
    check(futhark_new_f32_2d(ctx, (float *)a, INT64_MAX, 4) == NULL, "huge shape fails", "returned an array");
    check_error(ctx, "huge shape message", "too large");
    /* An empty array whose other dimensions' product overflows (found by
     * the library fuzz target): made, and indexing it fails. */
    struct futhark_i16_3d *e = futhark_new_i16_3d(ctx, NULL, INT64_MAX, INT64_MAX, 0);
    int16_t h;
    check(e != NULL && futhark_shape_i16_3d(ctx, e)[1] == INT64_MAX, "empty array of huge dimensions", "failed");
    check(futhark_index_i16_3d(ctx, &h, e, INT64_MAX - 1, INT64_MAX - 1, 0) != 0, "index into it fails", "rc 0");
    check_error(ctx, "index into it message", "out of bounds");
    futhark_free_i16_3d(ctx, e);
    check(futhark_entry_add(ctx, &r, x, x) == 0, "context still works after errors", "failed");
    futhark_free_i64_1d(ctx, r);
    futhark_free_i64_1d(ctx, x);
}

static void test_context(void) {
    struct futhark_context_config *cfg = futhark_context_config_new();
    futhark_context_config_set_debugging(cfg, 0);
    futhark_context_config_set_logging(cfg, 0);
    futhark_context_config_set_profiling(cfg, 1);
    futhark_context_config_set_cache_file(cfg, "/nonexistent/cache");
#ifdef FUTHARK_BACKEND_opencl
    check(futhark_context_config_set_tuning_param(cfg, "nope", 1) != 0 && futhark_get_tuning_param_count() > 0,
          "unknown tuning parameter refused", "accepted, or no parameters");
#else
    check(futhark_context_config_set_tuning_param(cfg, "nope", 1) != 0 && futhark_get_tuning_param_count() == 0,
          "no tuning parameters", "a parameter was accepted");
#endif
    struct futhark_context *ctx = futhark_context_new(cfg);
    char *err = futhark_context_get_error(ctx);
    check(ctx && !err, "context creation", err ? err : "NULL context");
    free(err);
    int32_t r;
    futhark_entry_answer(ctx, &r);
    futhark_context_pause_profiling(ctx);
    futhark_entry_answer(ctx, &r);
    futhark_context_unpause_profiling(ctx);
    char *rep = futhark_context_report(ctx);
    const char *first = rep ? strstr(rep, "\"answer\"") : NULL;
    check(first && !strstr(first + 1, "\"answer\"") && rep[0] == '{', "report lists one unpaused call",
          rep ? rep : "NULL");
    free(rep);
    check(futhark_context_clear_caches(ctx) == 0, "clear caches", "non-zero");
    int32_t data[2] = {1, 2};
    futhark_new_i32_1d(ctx, data, 2); /* left live: futhark_context_free frees it */
    futhark_context_free(ctx);
    futhark_context_config_free(cfg);

    struct futhark_context *bad = futhark_context_new(NULL);
    err = futhark_context_get_error(bad);
    check(err != NULL, "context from a NULL configuration reports an error", "no error");
    free(err);
    futhark_context_free(bad);
}

int main(void) {
    struct futhark_context_config *cfg = futhark_context_config_new();
    struct futhark_context *ctx = futhark_context_new(cfg);
    char *err = futhark_context_get_error(ctx);
    if (err) {
        printf("FAIL context: %s\n", err);
        return 1;
    }
    test_scalars(ctx);
    test_1d(ctx);
    test_ranks(ctx);
    test_raw(ctx);
    test_chains(ctx);
    test_two_contexts(ctx);
    test_errors(ctx);
    futhark_context_sync(ctx);
    futhark_context_free(ctx);
    futhark_context_config_free(cfg);
    test_context();
    return failures ? 1 : 0;
}
