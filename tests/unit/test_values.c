/* Unit tests of the runtime's value I/O (runtime/values.c): reading text and
 * binary values, writing them, and comparing them with tolerance. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "rt.h"

/* Size of message buffers in these tests. */
#define ERR_LEN 512
/* Size of the in-memory files values are written to. */
#define OUT_LEN 4096
/* Longer than any literal the reader accepts (its limit is 256 characters). */
#define LONG_LITERAL 300

static rt_type ty(rt_prim e, int rank) { return (rt_type){e, rank}; }

/* Reads one value of type t from text s; fails the test on error. */
static rt_value read_ok(const char *s, rt_type t) {
    rt_reader r = {(const unsigned char *)s, strlen(s), 0};
    rt_value v;
    char err[ERR_LEN] = "";
    if (!rt_read_value(&r, t, &v, err, sizeof err)) fail_msg("reading \"%s\": %s", s, err);
    assert_true(rt_reader_at_end(&r));
    return v;
}

/* Reads one value of type t from s, expecting failure; returns the message. */
static const char *read_bad(const char *s, size_t len, rt_type t) {
    static char err[ERR_LEN];
    rt_reader r = {(const unsigned char *)s, len, 0};
    rt_value v;
    err[0] = 0;
    if (rt_read_value(&r, t, &v, err, sizeof err)) fail_msg("\"%s\" was accepted", s);
    assert_true(strlen(err) > 0);
    return err;
}

static const char *read_bad_text(const char *s, rt_type t) {
    const char *err = read_bad(s, strlen(s), t);
    if (!strstr(err, "line ") || !strstr(err, "column "))
        fail_msg("message without position for \"%s\": %s", s, err);
    return err;
}

static rt_value read_any_ok(const char *s) {
    rt_reader r = {(const unsigned char *)s, strlen(s), 0};
    rt_value v;
    char err[ERR_LEN] = "";
    if (!rt_read_any(&r, &v, err, sizeof err)) fail_msg("reading \"%s\": %s", s, err);
    return v;
}

/* Writes v as text (or binary) into buf; returns the length. */
static size_t write_to(const rt_value *v, bool binary, char *buf) {
    FILE *f = fmemopen(buf, OUT_LEN, "w");
    assert_non_null(f);
    if (binary) rt_write_binary(f, v);
    else rt_write_text(f, v);
    long n = ftell(f);
    fclose(f);
    buf[n] = 0;
    return (size_t)n;
}

static void assert_text(const rt_value *v, const char *want) {
    char buf[OUT_LEN];
    write_to(v, false, buf);
    assert_string_equal(buf, want);
}

/* Reads s as t, writes it back as text and compares with want. */
static void roundtrip_text(const char *s, rt_type t, const char *want) {
    rt_value v = read_ok(s, t);
    assert_text(&v, want);
    rt_value_free(&v);
}

static void test_scalars(void **state) {
    roundtrip_text("42", ty(RT_I32, 0), "42i32");
    roundtrip_text("-128i8", ty(RT_I8, 0), "-128i8");
    roundtrip_text("127", ty(RT_I8, 0), "127i8");
    roundtrip_text("-32768i16", ty(RT_I16, 0), "-32768i16");
    roundtrip_text("-2147483648", ty(RT_I32, 0), "-2147483648i32");
    roundtrip_text("-9223372036854775808i64", ty(RT_I64, 0), "-9223372036854775808i64");
    roundtrip_text("9223372036854775807", ty(RT_I64, 0), "9223372036854775807i64");
    roundtrip_text("255u8", ty(RT_U8, 0), "255u8");
    roundtrip_text("-1u16", ty(RT_U16, 0), "65535u16"); /* two's complement */
    roundtrip_text("-1", ty(RT_U32, 0), "4294967295u32");
    roundtrip_text("-255u8", ty(RT_U8, 0), "1u8");
    roundtrip_text("255i8", ty(RT_I8, 0), "-1i8"); /* a signed literal wraps */
    roundtrip_text("128", ty(RT_I8, 0), "-128i8");
    /* any integer, modulo 2^width (Futhark's data reader's fromInteger) */
    roundtrip_text("32767i8", ty(RT_I8, 0), "-1i8");
    roundtrip_text("256i8", ty(RT_I8, 0), "0i8");
    roundtrip_text("65537", ty(RT_I16, 0), "1i16");
    roundtrip_text("-129", ty(RT_I8, 0), "127i8");
    roundtrip_text("-65536u16", ty(RT_U16, 0), "0u16");
    roundtrip_text("0x1FF", ty(RT_U8, 0), "255u8");
    roundtrip_text("18446744073709551617", ty(RT_I64, 0), "1i64");
    roundtrip_text("99999999999999999999999", ty(RT_U64, 0), "200376420520689663u64");
    roundtrip_text("9223372036854775808", ty(RT_I64, 0), "-9223372036854775808i64");
    roundtrip_text("65535", ty(RT_U16, 0), "65535u16");
    roundtrip_text("4294967295u32", ty(RT_U32, 0), "4294967295u32");
    roundtrip_text("18446744073709551615u64", ty(RT_U64, 0), "18446744073709551615u64");
    roundtrip_text("3.5f32", ty(RT_F32, 0), "3.5f32");
    roundtrip_text("1e-3f64", ty(RT_F64, 0), "0.001f64");
    roundtrip_text("2.5E2", ty(RT_F64, 0), "250f64");
    roundtrip_text("7", ty(RT_F32, 0), "7f32");
    roundtrip_text("0.1", ty(RT_F32, 0), "0.100000001f32");
    roundtrip_text("0.1", ty(RT_F64, 0), "0.10000000000000001f64");
    roundtrip_text("true", ty(RT_BOOL, 0), "true");
    roundtrip_text("false", ty(RT_BOOL, 0), "false");
    roundtrip_text("0xFF", ty(RT_I32, 0), "255i32");
    roundtrip_text("0xffu8", ty(RT_U8, 0), "255u8");
    roundtrip_text("0xFFi8", ty(RT_I8, 0), "-1i8");
    roundtrip_text("0b101", ty(RT_I64, 0), "5i64");
    roundtrip_text("1_000_000", ty(RT_I32, 0), "1000000i32");
    roundtrip_text("-0.5e1_0", ty(RT_F64, 0), "-5000000000f64");
}

static void test_special_floats(void **state) {
    roundtrip_text("f32.nan", ty(RT_F32, 0), "f32.nan");
    roundtrip_text("f64.nan", ty(RT_F64, 0), "f64.nan");
    roundtrip_text("f32.inf", ty(RT_F32, 0), "f32.inf");
    roundtrip_text("-f64.inf", ty(RT_F64, 0), "-f64.inf");
    roundtrip_text("[f32.nan, -f32.inf, 1]", ty(RT_F32, 1), "[f32.nan, -f32.inf, 1f32]");
}

static void test_arrays(void **state) {
    roundtrip_text("[1, 2, 3]", ty(RT_I32, 1), "[1i32, 2i32, 3i32]");
    roundtrip_text("[1i64,2i64,]", ty(RT_I64, 1), "[1i64, 2i64]");
    roundtrip_text("[[1, 2], [3, 4]]", ty(RT_I32, 2), "[[1i32, 2i32], [3i32, 4i32]]");
    roundtrip_text("[[[true]], [[false]]]", ty(RT_BOOL, 3), "[[[true]], [[false]]]");
    roundtrip_text(" -- comment\n [ 1.5 , -- inside\n 2 ]\n-- end", ty(RT_F64, 1),
                   "[1.5f64, 2f64]");
    rt_value v = read_ok("[[1, 2, 3], [4, 5, 6]]", ty(RT_U16, 2));
    assert_int_equal(v.shape[0], 2);
    assert_int_equal(v.shape[1], 3);
    assert_int_equal(rt_value_count(&v), 6);
    assert_int_equal(((uint16_t *)v.data)[5], 6);
    rt_value_free(&v);
}

static void test_empty_arrays(void **state) {
    roundtrip_text("empty([0]i32)", ty(RT_I32, 1), "empty([0]i32)");
    roundtrip_text("empty([2][0]f64)", ty(RT_F64, 2), "empty([2][0]f64)");
    roundtrip_text("empty( [0] [3] bool )", ty(RT_BOOL, 2), "empty([0][3]bool)");
    rt_value v = read_ok("empty([0][3]i32)", ty(RT_I32, 2));
    assert_int_equal(rt_value_count(&v), 0);
    assert_int_equal(v.shape[1], 3);
    rt_value_free(&v);
    read_bad_text("empty([0]i64)", ty(RT_I32, 1));
    read_bad_text("empty([2]i32)", ty(RT_I32, 1));
    read_bad_text("empty([0]i32)", ty(RT_I32, 2));
    read_bad_text("empty([0]i32", ty(RT_I32, 1));
    read_bad_text("empty([0]q32)", ty(RT_I32, 1));
    /* Dimensions before the 0 one whose product overflows (found by the
     * values fuzz target). */
    roundtrip_text("empty([9999999999][9999999999][0]i32)", ty(RT_I32, 3), "empty([9999999999][9999999999][0]i32)");
}

/* Sizes of shapes: a 0 dimension makes 0 bytes whatever the others; a
 * negative dimension or an overflowing size is refused. */
static void test_shape_bytes(void **state) {
    int64_t bytes = -1, big = INT64_MAX / 2 + 1;
    int64_t ok[] = {2, 3, 4}, empty[] = {big, big, 0}, neg[] = {2, -1, 0}, over[] = {big, 2}, huge[] = {big};
    assert_true(rt_shape_bytes(ok, 3, 8, &bytes) && bytes == 192);
    assert_true(rt_shape_bytes(ok, 0, 4, &bytes) && bytes == 4);
    assert_true(rt_shape_bytes(empty, 3, 8, &bytes) && bytes == 0);
    assert_false(rt_shape_bytes(neg, 3, 1, &bytes));
    assert_false(rt_shape_bytes(over, 2, 1, &bytes));
    assert_true(rt_shape_bytes(huge, 1, 1, &bytes) && bytes == big);
    assert_false(rt_shape_bytes(huge, 1, 2, &bytes));
}

static void test_several_values(void **state) {
    const char *s = "1 [2,3]\n4.5f32 -- rest\n";
    rt_reader r = {(const unsigned char *)s, strlen(s), 0};
    rt_value a, b, c;
    char err[ERR_LEN];
    assert_true(rt_read_value(&r, ty(RT_I64, 0), &a, err, sizeof err));
    assert_false(rt_reader_at_end(&r));
    assert_true(rt_read_value(&r, ty(RT_I8, 1), &b, err, sizeof err));
    assert_true(rt_read_value(&r, ty(RT_F32, 0), &c, err, sizeof err));
    assert_true(rt_reader_at_end(&r));
    assert_int_equal(*(int64_t *)a.data, 1);
    assert_int_equal(((int8_t *)b.data)[1], 3);
    assert_true(*(float *)c.data == 4.5f);
    rt_value_free(&a);
    rt_value_free(&b);
    rt_value_free(&c);
}

static void test_read_any(void **state) {
    struct { const char *text; rt_prim elem; int rank; const char *out; } cases[] = {
        {"3", RT_I32, 0, "3i32"},
        {"3.0", RT_F64, 0, "3f64"},
        {"[1, 2u8]", RT_U8, 1, "[1u8, 2u8]"},
        {"[[1.5], [2]]", RT_F64, 2, "[[1.5f64], [2f64]]"},
        {"[true, false]", RT_BOOL, 1, "[true, false]"},
        {"-f32.inf", RT_F32, 0, "-f32.inf"},
        {"empty([0][2]u64)", RT_U64, 2, "empty([0][2]u64)"},
        {"[ -- c\n [7i16]]", RT_I16, 2, "[[7i16]]"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rt_value v = read_any_ok(cases[i].text);
        assert_int_equal(v.type.elem, cases[i].elem);
        assert_int_equal(v.type.rank, cases[i].rank);
        assert_text(&v, cases[i].out);
        rt_value_free(&v);
    }
    rt_reader r = {(const unsigned char *)"[1, 2i64, 3i32]", 15, 0};
    rt_value v;
    char err[ERR_LEN];
    assert_false(rt_read_any(&r, &v, err, sizeof err));
    assert_non_null(strstr(err, "column 11"));
}

/* A deterministic element pattern for type t at index i, covering signs,
 * extremes and fractions. */
static void fill_elem(rt_prim t, int64_t i, void *p) {
    int64_t x = (i * 2654435761LL) ^ (i << 40);
    switch (t) {
    case RT_F32: { float f = (float)x / 3.0f; memcpy(p, &f, 4); break; }
    case RT_F64: { double d = (double)x / 7.0; memcpy(p, &d, 8); break; }
    case RT_BOOL: *(unsigned char *)p = (unsigned char)(x & 1); break;
    default: memcpy(p, &x, (size_t)rt_prim_size(t)); break;
    }
}

/* A value of type t and shape dims, filled by fill_elem. */
static rt_value make_value(rt_type t, const int64_t *dims) {
    rt_value v = {t, NULL, NULL};
    v.shape = malloc(sizeof(int64_t) * (size_t)(t.rank + 1));
    for (int i = 0; i < t.rank; i++) v.shape[i] = dims[i];
    int64_t n = rt_value_count(&v);
    v.data = malloc((size_t)(n * rt_prim_size(t.elem) + 1));
    for (int64_t i = 0; i < n; i++) fill_elem(t.elem, i, (char *)v.data + i * rt_prim_size(t.elem));
    return v;
}

static void assert_same(const rt_value *a, const rt_value *b) {
    assert_int_equal(a->type.elem, b->type.elem);
    assert_int_equal(a->type.rank, b->type.rank);
    for (int i = 0; i < a->type.rank; i++) assert_int_equal(a->shape[i], b->shape[i]);
    assert_memory_equal(a->data, b->data, (size_t)(rt_value_count(a) * rt_prim_size(a->type.elem)));
}

static void test_binary_roundtrip(void **state) {
    const int64_t dims[] = {3, 2, 4};
    const int64_t empty_dims[] = {2, 0, 5};
    for (int e = 0; e < RT_PRIM_COUNT; e++)
        for (int rank = 0; rank <= 3; rank++)
            for (int empty = 0; empty <= (rank > 1); empty++) {
                rt_type t = ty((rt_prim)e, rank);
                rt_value v = make_value(t, empty ? empty_dims : dims);
                char buf[OUT_LEN], err[ERR_LEN];
                size_t n = write_to(&v, true, buf);
                int64_t count = rt_value_count(&v);
                assert_int_equal(n, 7 + 8 * rank + count * rt_prim_size(t.elem));
                rt_reader r = {(const unsigned char *)buf, n, 0};
                rt_value w;
                assert_true(rt_read_value(&r, t, &w, err, sizeof err));
                assert_true(rt_reader_at_end(&r));
                assert_same(&v, &w);
                rt_value_free(&w);
                r.pos = 0;
                assert_true(rt_read_any(&r, &w, err, sizeof err));
                assert_same(&v, &w);
                rt_value_free(&w);
                rt_value_free(&v);
            }
}

static void test_binary_exact(void **state) {
    static const unsigned char want[] = {0x62, 2, 1, ' ', 'i', '3', '2', 3, 0, 0, 0, 0, 0, 0, 0,
                                         1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0};
    rt_value v = read_ok("[1,2,3]", ty(RT_I32, 1));
    char buf[OUT_LEN];
    assert_int_equal(write_to(&v, true, buf), sizeof want);
    assert_memory_equal(buf, want, sizeof want);
    rt_value_free(&v);
}

static void test_text_roundtrip(void **state) {
    const int64_t dims[] = {2, 3, 2};
    for (int e = 0; e < RT_PRIM_COUNT; e++)
        for (int rank = 0; rank <= 3; rank++) {
            rt_type t = ty((rt_prim)e, rank);
            rt_value v = make_value(t, dims);
            if (e == RT_F32) ((float *)v.data)[0] = NAN;
            if (e == RT_F64) ((double *)v.data)[0] = -INFINITY;
            char buf[OUT_LEN], err[ERR_LEN];
            size_t n = write_to(&v, false, buf);
            rt_reader r = {(const unsigned char *)buf, n, 0};
            rt_value w;
            if (!rt_read_value(&r, t, &w, err, sizeof err)) fail_msg("%s: %s", buf, err);
            assert_true(rt_values_match(&w, &v, err, sizeof err));
            if (e != RT_F32) assert_same(&v, &w); /* NaN bits may differ */
            rt_value_free(&w);
            r.pos = 0;
            assert_true(rt_read_any(&r, &w, err, sizeof err));
            assert_int_equal(w.type.elem, e);
            rt_value_free(&w);
            rt_value_free(&v);
        }
}

static void test_malformed_text(void **state) {
    read_bad_text("", ty(RT_I32, 0));
    read_bad_text("  -- only a comment", ty(RT_I32, 1));
    read_bad_text("1.5", ty(RT_I32, 0));
    read_bad_text("1i64", ty(RT_I32, 0));
    read_bad_text("1f32", ty(RT_F64, 0));
    read_bad_text("f64.nan", ty(RT_F32, 0));
    read_bad_text("1e400", ty(RT_F64, 0));
    read_bad_text("1e50f32", ty(RT_F32, 0));
    read_bad_text("true", ty(RT_I32, 0));
    read_bad_text("1", ty(RT_BOOL, 0));
    read_bad_text("12abc", ty(RT_I32, 0));
    read_bad_text("1i33", ty(RT_I32, 0));
    read_bad_text("0x", ty(RT_I32, 0));
    read_bad_text("1e", ty(RT_F64, 0));
    read_bad_text(".", ty(RT_F64, 0));
    read_bad_text("[1, 2]", ty(RT_I32, 0));
    read_bad_text("1", ty(RT_I32, 1));
    read_bad_text("[1, [2]]", ty(RT_I32, 1));
    read_bad_text("[[1], 2]", ty(RT_I32, 2));
    read_bad_text("[[1, 2], [3]]", ty(RT_I32, 2));
    read_bad_text("[[1], [2, 3]]", ty(RT_I32, 2));
    read_bad_text("[]", ty(RT_I32, 1));
    read_bad_text("[,]", ty(RT_I32, 1));
    read_bad_text("[1,,2]", ty(RT_I32, 1));
    read_bad_text("[1 2]", ty(RT_I32, 1));
    read_bad_text("[1, 2", ty(RT_I32, 1));
    read_bad_text("[1, 2,", ty(RT_I32, 1));
    read_bad_text("[[[[[[", ty(RT_I32, 2));
    read_bad_text("]", ty(RT_I32, 1));
    read_bad_text("@", ty(RT_I32, 0));
    const char *err = read_bad_text("[1,\n 2,\n 3.5]", ty(RT_U8, 1));
    assert_non_null(strstr(err, "line 3, column 2"));
    err = read_bad_text("[[1, 2],\n [3]]", ty(RT_I32, 2));
    assert_non_null(strstr(err, "irregular"));
    char long_lit[LONG_LITERAL];
    memset(long_lit, '1', sizeof long_lit - 1);
    long_lit[sizeof long_lit - 1] = 0;
    read_bad_text(long_lit, ty(RT_F64, 0));
}

static void test_deep_nesting_any(void **state) {
    char s[400];
    memset(s, '[', sizeof s - 1);
    s[sizeof s - 1] = 0;
    rt_reader r = {(const unsigned char *)s, strlen(s), 0};
    rt_value v;
    char err[ERR_LEN];
    assert_false(rt_read_any(&r, &v, err, sizeof err));
    assert_non_null(strstr(err, "line 1"));
}

/* Reads binary bytes b[0..n) as t and expects failure naming a byte offset. */
static void bad_binary(const unsigned char *b, size_t n, rt_type t) {
    const char *err = read_bad((const char *)b, n, t);
    if (!strstr(err, "byte offset")) fail_msg("message without offset: %s", err);
}

static void test_malformed_binary(void **state) {
    unsigned char ok[] = {'b', 2, 1, ' ', 'i', '3', '2', 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0};
    unsigned char b[sizeof ok];
    for (size_t cut = 1; cut < sizeof ok; cut++) bad_binary(ok, cut, ty(RT_I32, 1));
    bad_binary(ok, sizeof ok, ty(RT_I32, 2));
    bad_binary(ok, sizeof ok, ty(RT_I64, 1));
    bad_binary(ok, sizeof ok, ty(RT_F32, 1));
    memcpy(b, ok, sizeof ok), b[1] = 1;
    bad_binary(b, sizeof b, ty(RT_I32, 1));
    memcpy(b, ok, sizeof ok), memcpy(b + 3, " f16", 4);
    bad_binary(b, sizeof b, ty(RT_I32, 1));
    memcpy(b, ok, sizeof ok), memcpy(b + 3, "xxxx", 4);
    bad_binary(b, sizeof b, ty(RT_I32, 1));
    memcpy(b, ok, sizeof ok), b[2] = 0x80;
    bad_binary(b, sizeof b, ty(RT_I32, 1));
    /* Huge dimensions must be rejected before allocating anything. */
    memcpy(b, ok, sizeof ok), memset(b + 7, 0xff, 7), b[14] = 0x7f;
    bad_binary(b, sizeof b, ty(RT_I32, 1));
    memcpy(b, ok, sizeof ok), memset(b + 7, 0xff, 8);
    bad_binary(b, sizeof b, ty(RT_I32, 1));
    unsigned char two[] = {'b', 2, 2, ' ', 'i', '3', '2', 0, 0, 0, 0, 0, 0, 0x10, 0,
                           0, 0, 0, 0, 0, 0, 0x10, 0, 1, 2, 3, 4};
    bad_binary(two, sizeof two, ty(RT_I32, 2));
    unsigned char boolv[] = {'b', 2, 0, 'b', 'o', 'o', 'l', 2};
    bad_binary(boolv, sizeof boolv, ty(RT_BOOL, 0));
    /* A zero dimension beside a huge one is a valid empty array. */
    unsigned char empty[] = {'b', 2, 2, ' ', 'i', '3', '2', 0, 0, 0, 0, 0, 0, 0, 0,
                             0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};
    rt_reader r = {empty, sizeof empty, 0};
    rt_value v;
    char err[ERR_LEN];
    assert_true(rt_read_value(&r, ty(RT_I32, 2), &v, err, sizeof err));
    assert_int_equal(rt_value_count(&v), 0);
    rt_value_free(&v);
}

/* Compares texts got and exp read with rt_read_any. */
static bool match(const char *got, const char *exp, char *err) {
    rt_value g = read_any_ok(got), e = read_any_ok(exp);
    bool ok = rt_values_match(&g, &e, err, ERR_LEN);
    rt_value_free(&g);
    rt_value_free(&e);
    return ok;
}

static void test_strings(void **state) {
    (void)state;
    rt_value v = read_ok("\"ab\\n\\x41\\\"\"", ty(RT_U8, 1));
    assert_int_equal(v.shape[0], 5);
    assert_memory_equal(v.data, "ab\nA\"", 5);
    rt_value_free(&v);
    v = read_any_ok("\"\"");
    assert_int_equal(v.type.elem, RT_U8);
    assert_int_equal(v.type.rank, 1);
    assert_int_equal(v.shape[0], 0);
    rt_value_free(&v);
    assert_non_null(strstr(read_bad_text("\"abc", ty(RT_U8, 1)), "unterminated"));
    assert_non_null(strstr(read_bad_text("\"abc\"", ty(RT_I32, 1)), "[]u8"));
}

static void test_values_match(void **state) {
    char err[ERR_LEN];
    assert_true(match("[1, 2, 3]", "[1, 2, 3]", err));
    assert_false(match("[1, 2, 4]", "[1, 2, 3]", err));
    assert_non_null(strstr(err, "[2]"));
    assert_non_null(strstr(err, "3i32"));
    assert_non_null(strstr(err, "4i32"));
    assert_false(match("[[1, 2], [3, 5]]", "[[1, 2], [3, 4]]", err));
    assert_non_null(strstr(err, "[1, 1]"));
    assert_false(match("[1, 2]", "[1, 2, 3]", err));
    assert_non_null(strstr(err, "shape"));
    assert_false(match("[1i64, 2i64]", "[1, 2]", err));
    assert_non_null(strstr(err, "type"));
    assert_false(match("[[1, 2]]", "[1, 2]", err));
    assert_false(match("1.0f32", "1.0f64", err));
    assert_false(match("true", "false", err));
    assert_true(match("1.0015", "1.0", err));
    assert_false(match("1.0025", "1.0", err));
    /* The tolerance grows with the largest expected element. */
    assert_true(match("[1000.0, 1.5]", "[1000.0, 1.0]", err));
    assert_false(match("[1000.0, 3.5]", "[1000.0, 1.0]", err));
    /* Negative expected values do not widen it (Futhark uses exp, not |exp|). */
    assert_false(match("[-1000.0, 1.5]", "[-1000.0, 1.0]", err));
    assert_true(match("[f32.nan, 1f32]", "[f32.nan, 1f32]", err));
    assert_false(match("[f32.nan]", "[1f32]", err));
    assert_false(match("[1f32]", "[f32.nan]", err));
    assert_true(match("f64.inf", "f64.inf", err));
    assert_false(match("-f64.inf", "f64.inf", err));
    assert_false(match("1e308", "f64.inf", err));
    /* Infinite expected elements do not widen the tolerance. */
    assert_false(match("[f32.inf, 2f32]", "[f32.inf, 1f32]", err));
    assert_true(match("empty([0]i32)", "empty([0]i32)", err));
    assert_false(match("empty([0][2]i32)", "empty([0][3]i32)", err));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scalars),         cmocka_unit_test(test_special_floats),
        cmocka_unit_test(test_arrays),          cmocka_unit_test(test_empty_arrays),
        cmocka_unit_test(test_several_values),  cmocka_unit_test(test_read_any),
        cmocka_unit_test(test_binary_roundtrip), cmocka_unit_test(test_binary_exact),
        cmocka_unit_test(test_text_roundtrip),  cmocka_unit_test(test_malformed_text),
        cmocka_unit_test(test_deep_nesting_any), cmocka_unit_test(test_malformed_binary),
        cmocka_unit_test(test_values_match),    cmocka_unit_test(test_strings),
        cmocka_unit_test(test_shape_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
