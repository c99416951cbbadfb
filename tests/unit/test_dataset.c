/* Unit tests of `futhorc dataset` (compiler/tools/dataset.c): type parsing,
 * bounds, the generator, the command line, and that what it writes reads
 * back as values of the requested types. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rt.h"
#include "tools/dataset.h"

/* Size of message buffers in these tests. */
#define ERR_LEN 512
/* Most arguments one test passes to dataset_run. */
#define MAX_ARGS 16
/* Enough samples that every value of a small range appears (the chance that
 * one of 11 values is missing from 2000 draws is below 1e-80). */
#define SAMPLES 2000

/* The output, messages and status of one run of `futhorc dataset`. */
typedef struct Run {
    char *out, *err;
    size_t out_len;
    int status;
} Run;

/* Runs `futhorc dataset ARGS...` (NULL-terminated) with stdin text in. */
static Run run_in(const char *in, ...) {
    char *argv[MAX_ARGS + 1] = {"dataset"};
    int argc = 1;
    va_list ap;
    va_start(ap, in);
    for (const char *a; (a = va_arg(ap, const char *)) && argc < MAX_ARGS;) argv[argc++] = (char *)a;
    va_end(ap);
    Run r = {0};
    size_t err_len;
    FILE *out = open_memstream(&r.out, &r.out_len), *err = open_memstream(&r.err, &err_len);
    FILE *inf = fmemopen((void *)(in ? in : " "), in ? strlen(in) : 1, "r");
    assert_non_null(out);
    assert_non_null(err);
    assert_non_null(inf);
    r.status = dataset_run(argc, argv, inf, out, err);
    fclose(out);
    fclose(err);
    fclose(inf);
    return r;
}

#define RUN(...) run_in(NULL, __VA_ARGS__, (const char *)NULL)

static void run_free(Run *r) {
    free(r->out);
    free(r->err);
}

/* Reads the values of r's output, expecting exactly n of them. */
static void read_all(const Run *r, rt_value *vs, int n) {
    rt_reader rd = {(const unsigned char *)r->out, r->out_len, 0};
    char err[ERR_LEN];
    for (int i = 0; i < n; i++)
        if (!rt_read_any(&rd, &vs[i], err, sizeof err)) fail_msg("value %d: %s\n%s", i, err, r->out);
    assert_true(rt_reader_at_end(&rd));
}

static void test_parse_type(void **state) {
    DatasetType t;
    char err[ERR_LEN];
    assert_true(dataset_parse_type("[10][20]f32", &t, err, sizeof err));
    assert_int_equal(t.elem, RT_F32);
    assert_int_equal(t.rank, 2);
    assert_int_equal(t.dims[0], 10);
    assert_int_equal(t.dims[1], 20);
    assert_true(dataset_parse_type("i64", &t, err, sizeof err));
    assert_int_equal(t.elem, RT_I64);
    assert_int_equal(t.rank, 0);
    assert_true(dataset_parse_type("[0]bool", &t, err, sizeof err));
    assert_int_equal(t.dims[0], 0);
    assert_true(dataset_parse_type("[2]f16", &t, err, sizeof err));
    assert_int_equal(t.elem, RT_F16);
    const char *bad[] = {"[]i32", "[3]i33", "[-1]i32", "[3", "[3]", "", "[3]i32 ", "[x]f32", "f8", "[3][]u8"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        if (dataset_parse_type(bad[i], &t, err, sizeof err)) fail_msg("accepted '%s'", bad[i]);
        assert_true(strlen(err) > 0);
    }
    assert_false(dataset_parse_type("[]i32", &t, err, sizeof err));
    assert_non_null(strstr(err, "needs a size"));
}

/* SplitMix64's published first outputs for seed 0 and 1: the sequence is
 * portable, so datasets are the same on every machine. */
static void test_rng(void **state) {
    DatasetRng r;
    dataset_rng_seed(&r, 0);
    assert_true(dataset_rng_next(&r) == UINT64_C(0xe220a8397b1dcdaf));
    assert_true(dataset_rng_next(&r) == UINT64_C(0x6e789e6aa1b965f4));
    dataset_rng_seed(&r, 1);
    assert_true(dataset_rng_next(&r) == UINT64_C(0x910a2dec89025cc1));
}

/* Integers cover their whole range by default: i8 values hit both signs and
 * u16 values exceed the i16 range. */
static void test_default_ranges(void **state) {
    Run r = RUN("-g", "[2000]i8", "-g", "[2000]u16", "-g", "[2000]f64", "-g", "[2000]f32");
    assert_int_equal(r.status, 0);
    rt_value v[4];
    read_all(&r, v, 4);
    int8_t *i8 = v[0].data, lo8 = 0, hi8 = 0;
    for (int i = 0; i < SAMPLES; i++) lo8 = i8[i] < lo8 ? i8[i] : lo8, hi8 = i8[i] > hi8 ? i8[i] : hi8;
    assert_true(lo8 < -100 && hi8 > 100);
    uint16_t *u16 = v[1].data, hi16 = 0;
    for (int i = 0; i < SAMPLES; i++) hi16 = u16[i] > hi16 ? u16[i] : hi16;
    assert_true(hi16 > 40000);
    double *f = v[2].data, sum = 0;
    for (int i = 0; i < SAMPLES; i++) {
        assert_true(f[i] >= 0.0 && f[i] < 1.0);
        sum += f[i];
    }
    assert_true(sum / SAMPLES > 0.4 && sum / SAMPLES < 0.6);
    float *g = v[3].data;
    for (int i = 0; i < SAMPLES; i++) assert_true(g[i] >= 0.0f && g[i] < 1.0f);
    for (int i = 0; i < 4; i++) rt_value_free(&v[i]);
    run_free(&r);
}

/* --T-bounds restricts the following -g options only, inclusively. */
static void test_bounds(void **state) {
    Run r = RUN("-g", "[4]i32", "--i32-bounds=-5:5", "-g", "[2000]i32", "--f32-bounds=10:20", "-g",
                "[2000]f32", "--u64-bounds=7:7", "-g", "[3]u64");
    assert_int_equal(r.status, 0);
    rt_value v[4];
    read_all(&r, v, 4);
    int32_t *a = v[1].data;
    bool seen[11] = {false};
    for (int i = 0; i < SAMPLES; i++) {
        assert_true(a[i] >= -5 && a[i] <= 5);
        seen[a[i] + 5] = true;
    }
    for (int k = 0; k < 11; k++) assert_true(seen[k]);
    float *f = v[2].data;
    for (int i = 0; i < SAMPLES; i++) assert_true(f[i] >= 10.0f && f[i] <= 20.0f);
    uint64_t *u = v[3].data;
    for (int i = 0; i < 3; i++) assert_true(u[i] == 7);
    for (int i = 0; i < 4; i++) rt_value_free(&v[i]);
    run_free(&r);
    Run bad = RUN("--i32-bounds=5:1", "-g", "i32");
    assert_int_equal(bad.status, 1);
    assert_non_null(strstr(bad.err, "MIN <= MAX"));
    run_free(&bad);
    Run bad2 = RUN("--i8-bounds=0:300", "-g", "i8");
    assert_int_equal(bad2.status, 1);
    run_free(&bad2);
}

/* The same seed gives the same output; another seed another; values of one
 * run differ from each other. */
static void test_deterministic(void **state) {
    Run a = RUN("-g", "[8]i64", "-g", "[8]i64"), b = RUN("-g", "[8]i64", "-g", "[8]i64");
    Run c = RUN("--seed=2", "-g", "[8]i64", "-g", "[8]i64"), d = RUN("-s", "2", "-g", "[8]i64", "-g", "[8]i64");
    assert_string_equal(a.out, b.out);
    assert_string_equal(c.out, d.out);
    assert_string_not_equal(a.out, c.out);
    const char *nl = strchr(a.out, '\n');
    assert_non_null(nl);
    assert_true(strncmp(a.out, nl + 1, (size_t)(nl - a.out)) != 0);
    Run e = RUN("-s1", "-g", "[8]i64", "-g", "[8]i64");
    assert_string_equal(a.out, e.out); /* the default seed is 1 */
    run_free(&a), run_free(&b), run_free(&c), run_free(&d), run_free(&e);
}

/* -b writes the exact binary format; text and binary hold the same values. */
static void test_binary(void **state) {
    Run b = RUN("-b", "-g", "[3][2]i16");
    Run t = RUN("-g", "[3][2]i16");
    assert_int_equal(b.status, 0);
    assert_int_equal(b.out_len, 7 + 2 * 8 + 6 * 2);
    assert_memory_equal(b.out, "b\x02\x02 i16\x03\0\0\0\0\0\0\0\x02\0\0\0\0\0\0\0", 23);
    rt_value vb, vt;
    read_all(&b, &vb, 1);
    read_all(&t, &vt, 1);
    char err[ERR_LEN];
    assert_true(rt_values_match(&vb, &vt, err, sizeof err));
    rt_value_free(&vb), rt_value_free(&vt);
    run_free(&b), run_free(&t);
}

/* -g takes literal values too; -t prints types with sizes; an empty array. */
static void test_literals_and_types(void **state) {
    Run r = RUN("-g", "10i32", "-g", "[1,2,3]", "-g", "[0][2]f32");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "10i32\n[1i32, 2i32, 3i32]\nempty([0][2]f32)\n");
    run_free(&r);
    Run t = RUN("-t", "-g", "[4][5]u8", "-g", "bool");
    assert_string_equal(t.out, "[4][5]u8\nbool\n");
    run_free(&t);
}

/* Without -g, values on stdin are converted. */
static void test_convert(void **state) {
    Run r = run_in("[1, 2] 3i64 -- comment\n true", "-t", (const char *)NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "[2]i32\ni64\nbool\n");
    run_free(&r);
    Run b = run_in("[1u8, 2u8]", "-b", (const char *)NULL);
    assert_int_equal(b.out_len, 7 + 8 + 2);
    assert_memory_equal(b.out, "b\x02\x01  u8\x02\0\0\0\0\0\0\0\x01\x02", 17);
    run_free(&b);
    Run bad = run_in("[1, 2", "-t", (const char *)NULL);
    assert_int_equal(bad.status, 1);
    assert_non_null(strstr(bad.err, "malformed"));
    run_free(&bad);
}

/* Bad command lines exit 1 with a message naming the problem and write no
 * values. */
static void test_errors(void **state) {
    struct { const char *args[3]; const char *msg; } cases[] = {
        {{"-g", "[]i32", NULL}, "needs a size"},
        {{"-g", "[3]i33", NULL}, "i33"},
        {{"-g", NULL, NULL}, "needs a value"},
        {{"-x", NULL, NULL}, "unknown option"},
        {{"-s", "abc", NULL}, "invalid seed"},
        {{"--bool-bounds=0:1", NULL, NULL}, "unknown option"},
        {{"--i32-bounds=1", NULL, NULL}, "MIN:MAX"},
        {{"-g", "[100000000000000]f64", NULL}, "too large"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Run r = run_in(NULL, "-g", "i32", cases[i].args[0], cases[i].args[1], cases[i].args[2]);
        assert_int_equal(r.status, 1);
        if (!strstr(r.err, cases[i].msg)) fail_msg("case %zu: message '%s' lacks '%s'", i, r.err, cases[i].msg);
        if (i < 7) assert_int_equal(r.out_len, 0); /* refused before anything is written */
        run_free(&r);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_type),   cmocka_unit_test(test_rng),
        cmocka_unit_test(test_default_ranges), cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_deterministic), cmocka_unit_test(test_binary),
        cmocka_unit_test(test_literals_and_types), cmocka_unit_test(test_convert),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
