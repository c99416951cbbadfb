/* Opaque types of the Futhark C API, against the library that
 * `futhorc c --library` or `futhorc opencl --library` makes of
 * tests/library/opaque.fut: records and tuples from and to entry points,
 * made with futhark_new_opaque_* and read with futhark_project_opaque_*,
 * stored and restored, arrays of tuples, nested records, irregular
 * arrays (the prelude's `irregular` record), and the errors
 * of values of the wrong type or freed ones. Prints "ok NAME" or
 * "FAIL NAME: why" per check; tests/library/run.sh builds it with
 * AddressSanitizer and counts the lines. Exits 1 if any check failed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opaque.h"

static int failures;

static void check(int ok, const char *name, const char *why) {
    if (ok) printf("ok opaque: %s\n", name);
    else printf("FAIL opaque: %s: %s\n", name, why), failures++;
}

/* Takes the context's error: checks that there is one mentioning part. */
static void check_error(struct futhark_context *ctx, const char *name, const char *part) {
    char *err = futhark_context_get_error(ctx);
    char why[512];
    snprintf(why, sizeof why, "error message \"%s\" lacks \"%s\"", err ? err : "(none)", part);
    check(err && strstr(err, part), name, why);
    free(err);
}

static void test_point(struct futhark_context *ctx) {
    struct futhark_opaque_point *p = NULL, *q = NULL, *r = NULL;
    float n = 0, x = 0, y = 0;
    check(futhark_entry_mk_point(ctx, &p, 3, 4) == 0 && p, "a record result is an opaque value", "failed");
    check(futhark_entry_norm2(ctx, &n, p) == 0 && n == 25, "an opaque value as an argument", "norm2 != 25");
    int ok = futhark_entry_shift(ctx, &q, p, 1) == 0 && futhark_project_opaque_point_x(ctx, &x, q) == 0 &&
             futhark_project_opaque_point_y(ctx, &y, q) == 0;
    check(ok && x == 4 && y == 5, "project the fields of a result", "wrong fields");
    check(futhark_new_opaque_point(ctx, &r, 7, 24) == 0 && futhark_entry_norm2(ctx, &n, r) == 0 && n == 625,
          "new_opaque makes a record", "norm2 != 625");

    size_t size = 0;
    void *bytes = NULL;
    check(futhark_store_opaque_point(ctx, r, NULL, &size) == 0 && size > 0, "store reports the size", "no size");
    ok = futhark_store_opaque_point(ctx, r, &bytes, &size) == 0 && bytes;
    futhark_free_opaque_point(ctx, r);
    r = ok ? futhark_restore_opaque_point(ctx, bytes) : NULL;
    check(r && futhark_entry_norm2(ctx, &n, r) == 0 && n == 625, "store and restore", "restored value differs");
    char buf[256];
    void *into = buf;
    check(size <= sizeof buf && futhark_store_opaque_point(ctx, r, &into, &size) == 0 && into == buf &&
              !memcmp(buf, bytes, size),
          "store into the caller's memory", "other bytes");
    free(bytes);

    check(futhark_restore_opaque_point(ctx, "no such bytes") == NULL, "restore of other bytes fails", "restored");
    check_error(ctx, "its message", "not a stored opaque value");
    struct futhark_opaque_cloud *wrong = (struct futhark_opaque_cloud *)p;
    double d = 0;
    check(futhark_entry_cloud_total(ctx, &d, wrong) != 0, "an opaque value of another type is refused", "rc 0");
    check_error(ctx, "its message names both types", "has type point, not cloud");
    check(futhark_values_f32_1d(ctx, (struct futhark_f32_1d *)p, &x) != 0, "an opaque value is not an array", "rc 0");
    check_error(ctx, "its message", "opaque value of type point");
    futhark_free_opaque_point(ctx, p);
    check(futhark_entry_norm2(ctx, &n, p) != 0, "a freed opaque value is refused", "rc 0");
    check_error(ctx, "its message", "not a live value");
    check(futhark_free_opaque_point(ctx, p) != 0, "double free fails", "rc 0");
    free(futhark_context_get_error(ctx));
    futhark_free_opaque_point(ctx, q);
    futhark_free_opaque_point(ctx, r);
}

static void test_cloud(struct futhark_context *ctx) {
    float pts[3] = {1, 2, 3}, got[3] = {0};
    struct futhark_f32_1d *xs = futhark_new_f32_1d(ctx, pts, 3), *back = NULL;
    struct futhark_opaque_cloud *c = NULL, *c2 = NULL, *c3 = NULL;
    double total = 0, w = 0;
    check(futhark_entry_mk_cloud(ctx, &c, xs, 2.0) == 0 && futhark_entry_cloud_total(ctx, &total, c) == 0 &&
              total == 12,
          "a record with an array field", "total != 12");
    check(futhark_new_opaque_cloud(ctx, &c2, xs, 0.5) == 0, "new_opaque with an array field", "failed");
    futhark_free_f32_1d(ctx, xs);
    check(futhark_entry_cloud_total(ctx, &total, c2) == 0 && total == 3, "it outlives the array it was made from",
          "total != 3");
    int ok = futhark_project_opaque_cloud_pts(ctx, &back, c) == 0 && futhark_project_opaque_cloud_weight(ctx, &w, c) == 0 &&
             futhark_values_f32_1d(ctx, back, got) == 0;
    check(ok && w == 2 && got[0] == 1 && got[2] == 3 && futhark_shape_f32_1d(ctx, back)[0] == 3,
          "project an array field", "wrong field");
    futhark_free_opaque_cloud(ctx, c);
    check(futhark_values_f32_1d(ctx, back, got) == 0 && got[1] == 2, "a projected array outlives its record",
          "wrong values");
    futhark_free_f32_1d(ctx, back);

    void *bytes = NULL;
    size_t size = 0;
    ok = futhark_store_opaque_cloud(ctx, c2, &bytes, &size) == 0;
    c3 = ok ? futhark_restore_opaque_cloud(ctx, bytes) : NULL;
    check(c3 && futhark_entry_cloud_total(ctx, &total, c3) == 0 && total == 3, "store and restore an array field",
          "wrong total");
    check(futhark_restore_opaque_point(ctx, bytes) == NULL, "restore as another type fails", "restored");
    check_error(ctx, "its message", "another type");
    free(bytes);
    futhark_free_opaque_cloud(ctx, c2);
    futhark_free_opaque_cloud(ctx, c3);
    check(futhark_new_opaque_cloud(ctx, &c, NULL, 1.0) != 0, "new_opaque with a NULL array fails", "rc 0");
    check_error(ctx, "its message", "NULL");
}

static void test_tuples(struct futhark_context *ctx) {
    int32_t n = 0;
    int64_t t = 0, first = 0, iota[4] = {0};
    struct futhark_opaque_tup2_i64_arr1d_i64 *pair = NULL;
    struct futhark_i64_1d *arr = NULL;
    int ok = futhark_entry_counted(ctx, &n, &pair, 4) == 0 && futhark_entry_pair_total(ctx, &t, pair) == 0;
    check(ok && n == 4 && t == 10, "a tuple inside a top-level tuple result", "wrong values");
    ok = futhark_project_opaque_tup2_i64_arr1d_i64_0(ctx, &first, pair) == 0 &&
         futhark_project_opaque_tup2_i64_arr1d_i64_1(ctx, &arr, pair) == 0 && futhark_values_i64_1d(ctx, arr, iota) == 0;
    check(ok && first == 4 && iota[3] == 3, "project tuple fields 0 and 1", "wrong fields");
    futhark_free_i64_1d(ctx, arr);
    futhark_free_opaque_tup2_i64_arr1d_i64(ctx, pair);
    check(futhark_entry_counted(ctx, &n, NULL, 4) != 0, "a NULL opaque output pointer fails", "rc 0");
    check_error(ctx, "its message", "NULL");

    int32_t a[3] = {1, 2, 3};
    float b[3] = {0.5f, 0.25f, 0.25f}, sum = 0;
    struct futhark_i32_1d *as = futhark_new_i32_1d(ctx, a, 3);
    struct futhark_f32_1d *bs = futhark_new_f32_1d(ctx, b, 3);
    struct futhark_opaque_arr1d_tup2_i32_f32 *z = NULL;
    ok = futhark_entry_zipped(ctx, &z, as, bs) == 0 && futhark_entry_zipped_total(ctx, &sum, z) == 0;
    check(ok && sum == 7, "an array of tuples", "sum != 7");
    futhark_free_opaque_arr1d_tup2_i32_f32(ctx, z);
    futhark_free_i32_1d(ctx, as);
    futhark_free_f32_1d(ctx, bs);

    struct futhark_opaque_nested *v = NULL;
    ok = futhark_entry_mk_nested(ctx, &v, 2.5f, 10) == 0 && futhark_entry_nested_total(ctx, &n, v) == 0;
    check(ok && n == 12, "a record nested in a record", "total != 12");
    /* left live: futhark_context_free frees it */
}

static void test_irregular(struct futhark_context *ctx) {
    struct futhark_opaque_irregular_f32 *tri = NULL, *mine = NULL, *bad = NULL;
    struct futhark_i64_1d *sizes = NULL;
    struct futhark_f32_1d *elems = NULL, *sums = NULL;
    int64_t got_sizes[3] = {0};
    float got_elems[6] = {0}, got_sums[3] = {0};
    int ok = futhark_entry_irr_rows(ctx, &tri, 3) == 0 &&
             futhark_project_opaque_irregular_f32_sizes(ctx, &sizes, tri) == 0 &&
             futhark_project_opaque_irregular_f32_elems(ctx, &elems, tri) == 0 &&
             futhark_values_i64_1d(ctx, sizes, got_sizes) == 0 && futhark_values_f32_1d(ctx, elems, got_elems) == 0;
    check(ok && futhark_shape_f32_1d(ctx, elems)[0] == 6 && got_sizes[0] == 1 && got_sizes[2] == 3 &&
              got_elems[0] == 0 && got_elems[2] == 1 && got_elems[5] == 2,
          "an irregular array result: its elements and sizes", "wrong fields");
    futhark_free_i64_1d(ctx, sizes);
    futhark_free_f32_1d(ctx, elems);

    float xs[4] = {1, 2, 3, 4};
    int64_t lens[3] = {3, 0, 1}, wrong[2] = {1, 1};
    elems = futhark_new_f32_1d(ctx, xs, 4);
    sizes = futhark_new_i64_1d(ctx, lens, 3);
    ok = futhark_new_opaque_irregular_f32(ctx, &mine, elems, sizes) == 0 && futhark_entry_irr_sums(ctx, &sums, mine) == 0 &&
         futhark_values_f32_1d(ctx, sums, got_sums) == 0;
    check(ok && got_sums[0] == 6 && got_sums[1] == 0 && got_sums[2] == 4, "an irregular array made with new_opaque",
          "wrong sums");
    futhark_free_f32_1d(ctx, sums);
    futhark_free_i64_1d(ctx, sizes);
    sizes = futhark_new_i64_1d(ctx, wrong, 2);
    check(futhark_new_opaque_irregular_f32(ctx, &bad, elems, sizes) == 0 && futhark_entry_irr_sums(ctx, &sums, bad) != 0,
          "sizes that do not add up to the elements are refused", "rc 0");
    check_error(ctx, "its message", "add up to 2, not to the 4 elements");
    futhark_free_i64_1d(ctx, sizes);
    futhark_free_f32_1d(ctx, elems);
    futhark_free_opaque_irregular_f32(ctx, tri);
    futhark_free_opaque_irregular_f32(ctx, mine);
    futhark_free_opaque_irregular_f32(ctx, bad);
}

int main(void) {
    struct futhark_context_config *cfg = futhark_context_config_new();
    struct futhark_context *ctx = futhark_context_new(cfg);
    char *err = futhark_context_get_error(ctx);
    if (err) {
        printf("FAIL opaque: context: %s\n", err);
        return 1;
    }
    test_point(ctx);
    test_cloud(ctx);
    test_tuples(ctx);
    test_irregular(ctx);
    char *rep = futhark_context_report(ctx);
    check(rep && strstr(rep, "\"memory\""), "report with a live opaque value", rep ? rep : "NULL");
    free(rep);
    futhark_context_free(ctx);
    futhark_context_config_free(cfg);
    return failures ? 1 : 0;
}
