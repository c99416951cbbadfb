/* Unit tests for compiler/ir/prim.c: the type and operation tables,
 * wrapping constructors, conversions, formatting, and prim_eval on
 * representative and edge values of every type (exhaustively for 8-bit
 * integer arithmetic against an independent reference). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir/prim.h"
#include "scalar.h"

/* ---- Helpers ---------------------------------------------------------------- */

static PrimValue I(PrimType t, int64_t v) { return prim_int(t, v); }
static PrimValue F(PrimType t, double v) { return prim_float(t, v); }

/* Evaluates a binary op, asserting that it folds. */
static PrimValue ev2(Op op, PrimValue x, PrimValue y) {
    PrimValue args[2] = {x, y}, out;
    assert_true(prim_eval(op, args, &out));
    assert_int_equal(out.type, op_result(op, x.type));
    return out;
}

static PrimValue ev1(Op op, PrimValue x) {
    PrimValue out;
    assert_true(prim_eval(op, &x, &out));
    assert_int_equal(out.type, op_result(op, x.type));
    return out;
}

static bool folds2(Op op, PrimValue x, PrimValue y) {
    PrimValue args[2] = {x, y}, out;
    return prim_eval(op, args, &out);
}

static int64_t iv(PrimValue v) { return v.v.i; }
static uint64_t uv(PrimValue v) { return (uint64_t)v.v.i; }
static bool bv(PrimValue v) { return v.v.b; }
static double fv(PrimValue v) { return v.v.f; }

/* Binary op on type t with int64 operands, returning the int64 result. */
static int64_t ibin(Op op, PrimType t, int64_t x, int64_t y) { return iv(ev2(op, I(t, x), I(t, y))); }
static bool icmp(Op op, PrimType t, int64_t x, int64_t y) { return bv(ev2(op, I(t, x), I(t, y))); }
static double fbin(Op op, PrimType t, double x, double y) { return fv(ev2(op, F(t, x), F(t, y))); }
static double fun(Op op, PrimType t, double x) { return fv(ev1(op, F(t, x))); }

/* Hides a constant from the C compiler, so reference libm calls happen at
 * run time like prim_eval's (gcc folds constant calls with MPFR, which can
 * differ from libm in the last place). */
static double rt(double x) {
    volatile double v = x;
    return v;
}

static const char *fmt(PrimValue v) {
    static char buf[64];
    return prim_format(v, buf, sizeof buf);
}

/* ---- Tables ------------------------------------------------------------------- */

static void test_type_table(void **state) {
    (void)state;
    assert_string_equal(prim_name(PT_I32), "i32");
    assert_string_equal(prim_name(PT_BOOL), "bool");
    assert_string_equal(prim_ctype(PT_U16), "uint16_t");
    assert_string_equal(prim_ctype(PT_F64), "double");
    assert_int_equal(prim_size(PT_I8), 1);
    assert_int_equal(prim_size(PT_U64), 8);
    assert_int_equal(prim_size(PT_F32), 4);
    assert_int_equal(prim_size(PT_BOOL), 1);
    assert_int_equal(prim_class(PT_I16), PC_SIGNED);
    assert_int_equal(prim_class(PT_U32), PC_UNSIGNED);
    assert_int_equal(prim_class(PT_F64), PC_FLOAT);
    assert_int_equal(prim_class(PT_BOOL), PC_BOOL);
    assert_true(prim_is_int(PT_U8));
    assert_true(prim_is_int(PT_I64));
    assert_false(prim_is_int(PT_F32));
    assert_false(prim_is_int(PT_BOOL));
    assert_true(prim_is_float(PT_F32));
    assert_false(prim_is_float(PT_I32));
    for (int t = 0; t < PT_COUNT; t++) {
        PrimType back;
        assert_true(prim_from_name(prim_name((PrimType)t), &back));
        assert_int_equal(back, t);
    }
    PrimType dummy;
    assert_false(prim_from_name("i128", &dummy));
    assert_false(prim_from_name("", &dummy));
}

static void test_op_table(void **state) {
    (void)state;
    assert_string_equal(op_name(OP_ADD), "add");
    assert_string_equal(op_name(OP_ISINF), "isinf");
    assert_int_equal(op_arity(OP_ADD), 2);
    assert_int_equal(op_arity(OP_NEG), 1);
    assert_string_equal(op_cspelling(OP_ADD), "+");
    assert_string_equal(op_cspelling(OP_SHL), "shl");
    assert_true(op_accepts(OP_ADD, PT_F32));
    assert_false(op_accepts(OP_ADD, PT_BOOL));
    assert_true(op_accepts(OP_EQ, PT_BOOL));
    assert_true(op_accepts(OP_AND, PT_U8));
    assert_false(op_accepts(OP_AND, PT_F64));
    assert_false(op_accepts(OP_SQRT, PT_I32));
    assert_true(op_accepts(OP_SQRT, PT_F32));
    assert_true(op_accepts(OP_LAND, PT_BOOL));
    assert_false(op_accepts(OP_LAND, PT_I32));
    assert_false(op_accepts(OP_QUOT, PT_F32));
    assert_int_equal(op_result(OP_ADD, PT_U16), PT_U16);
    assert_int_equal(op_result(OP_LT, PT_F32), PT_BOOL);
    assert_int_equal(op_result(OP_POPC, PT_U64), PT_I32);
    assert_int_equal(op_result(OP_ISNAN, PT_F64), PT_BOOL);
    for (int op = 0; op < OP_COUNT; op++) {
        assert_true(op_arity((Op)op) >= 1 && op_arity((Op)op) <= 3);
        assert_true(strlen(op_name((Op)op)) > 0);
    }
}

/* Every op folds on ordinary operands of every type it accepts, with the
 * table's result type; ill-typed calls never fold. */
static void test_every_op_every_type(void **state) {
    (void)state;
    for (int op = 0; op < OP_COUNT; op++) {
        for (int t = 0; t < PT_COUNT; t++) {
            PrimValue x = t == PT_BOOL ? prim_bool(true) : prim_is_float(t) ? F(t, 0.5) : I(t, 7);
            PrimValue y = t == PT_BOOL ? prim_bool(false) : prim_is_float(t) ? F(t, 0.25) : I(t, 3);
            PrimValue args[3] = {x, y, x}, out;
            bool ok = prim_eval((Op)op, args, &out);
            assert_int_equal(ok, op_accepts((Op)op, (PrimType)t));
            if (ok) assert_int_equal(out.type, op_result((Op)op, (PrimType)t));
        }
    }
    PrimValue mixed[2] = {I(PT_I32, 1), I(PT_I64, 1)}, out;
    assert_false(prim_eval(OP_ADD, mixed, &out));
    assert_false(prim_eval(OP_COUNT, mixed, &out));
}

/* ---- Constructors and conversions ------------------------------------------- */

static void test_prim_int_wraps(void **state) {
    (void)state;
    assert_int_equal(iv(I(PT_I8, 127)), 127);
    assert_int_equal(iv(I(PT_I8, 128)), -128);
    assert_int_equal(iv(I(PT_I8, 255)), -1);
    assert_int_equal(iv(I(PT_I8, 256)), 0);
    assert_int_equal(iv(I(PT_I8, -129)), 127);
    assert_int_equal(iv(I(PT_U8, -1)), 255);
    assert_int_equal(iv(I(PT_U8, 256)), 0);
    assert_int_equal(iv(I(PT_I16, 40000)), 40000 - 65536);
    assert_int_equal(iv(I(PT_U16, -1)), 65535);
    assert_int_equal(iv(I(PT_I32, 0x80000000LL)), INT32_MIN);
    assert_int_equal(iv(I(PT_U32, -1)), 0xFFFFFFFFLL);
    assert_int_equal(iv(I(PT_I64, INT64_MIN)), INT64_MIN);
    assert_true(uv(I(PT_U64, -1)) == UINT64_MAX);
    assert_true(bv(I(PT_BOOL, 5)));
    assert_false(bv(I(PT_BOOL, 0)));
    assert_int_equal(I(PT_U32, 1).type, PT_U32);
}

static void test_prim_float_rounds(void **state) {
    (void)state;
    assert_true(fv(F(PT_F64, 0.1)) == 0.1);
    assert_true(fv(F(PT_F32, 0.1)) == (double)0.1f);
    assert_true(fv(F(PT_F32, 0.1)) != 0.1);
    assert_true(isinf(fv(F(PT_F32, 1e39))));
    assert_true(fv(F(PT_F32, 1e-46)) == 0.0);
    assert_true(isnan(fv(F(PT_F32, NAN))));
    assert_true(bv(prim_bool(true)));
    assert_int_equal(prim_bool(false).type, PT_BOOL);
}

static void test_convert_int_int(void **state) {
    (void)state;
    assert_int_equal(iv(prim_convert(I(PT_U8, 255), PT_I32)), 255);
    assert_int_equal(iv(prim_convert(I(PT_I8, -1), PT_I32)), -1);
    assert_int_equal(iv(prim_convert(I(PT_I8, -1), PT_U16)), 255);
    assert_int_equal(iv(prim_convert(I(PT_I32, 300), PT_U8)), 44);
    assert_int_equal(iv(prim_convert(I(PT_I32, 200), PT_I8)), -56);
    assert_true(uv(prim_convert(I(PT_I64, -1), PT_U64)) == UINT64_MAX);
    assert_int_equal(iv(prim_convert(I(PT_U64, -1), PT_I64)), -1);
    assert_int_equal(iv(prim_convert(I(PT_U64, -1), PT_U8)), 255);
    assert_int_equal(iv(prim_convert(I(PT_U32, 0xFFFFFFFFLL), PT_I64)), 0xFFFFFFFFLL);
    assert_int_equal(prim_convert(I(PT_I8, 1), PT_U64).type, PT_U64);
}

static void test_convert_bool(void **state) {
    (void)state;
    assert_true(bv(prim_convert(I(PT_I32, 2), PT_BOOL)));
    assert_true(bv(prim_convert(I(PT_I8, -128), PT_BOOL)));
    assert_false(bv(prim_convert(I(PT_U64, 0), PT_BOOL)));
    assert_true(bv(prim_convert(I(PT_U8, 256 + 1), PT_BOOL)));
    assert_int_equal(iv(prim_convert(prim_bool(true), PT_I64)), 1);
    assert_int_equal(iv(prim_convert(prim_bool(false), PT_U8)), 0);
    assert_true(fv(prim_convert(prim_bool(true), PT_F32)) == 1.0);
    assert_true(fv(prim_convert(prim_bool(false), PT_F64)) == 0.0);
    assert_true(bv(prim_convert(F(PT_F64, 0.5), PT_BOOL)));
    assert_false(bv(prim_convert(F(PT_F32, -0.0), PT_BOOL)));
    assert_true(bv(prim_convert(F(PT_F32, NAN), PT_BOOL)));
    assert_true(bv(prim_convert(prim_bool(true), PT_BOOL)));
}

static void test_convert_float_int(void **state) {
    (void)state;
    assert_int_equal(iv(prim_convert(F(PT_F64, 2.9), PT_I32)), 2);
    assert_int_equal(iv(prim_convert(F(PT_F64, -2.9), PT_I32)), -2);
    assert_int_equal(iv(prim_convert(F(PT_F32, -0.5), PT_I8)), 0);
    assert_int_equal(iv(prim_convert(F(PT_F64, 200.7), PT_U8)), 200);
    /* out of range: saturation; NaN and infinities give 0, as Futhark; a
     * negative value to an unsigned type through the signed one */
    assert_int_equal(iv(prim_convert(F(PT_F64, 300.0), PT_I8)), 127);
    assert_int_equal(iv(prim_convert(F(PT_F64, -300.0), PT_I8)), -128);
    assert_int_equal(iv(prim_convert(F(PT_F64, -1.0), PT_U8)), 255);
    assert_int_equal(iv(prim_convert(F(PT_F64, -300.0), PT_U8)), 128); /* -128 as a u8 */
    assert_int_equal(iv(prim_convert(F(PT_F64, 256.0), PT_U8)), 255);
    assert_int_equal(iv(prim_convert(F(PT_F32, -3.5), PT_U32)), 4294967293LL);
    assert_int_equal(iv(prim_convert(F(PT_F64, 3e9), PT_U32)), 3000000000LL);
    assert_int_equal(iv(prim_convert(F(PT_F64, 1e300), PT_I64)), INT64_MAX);
    assert_int_equal(iv(prim_convert(F(PT_F64, -1e300), PT_I64)), INT64_MIN);
    assert_int_equal(iv(prim_convert(F(PT_F64, 9223372036854775808.0), PT_I64)), INT64_MAX);
    assert_int_equal(iv(prim_convert(F(PT_F64, -9223372036854775808.0), PT_I64)), INT64_MIN);
    assert_true(uv(prim_convert(F(PT_F64, 1e30), PT_U64)) == UINT64_MAX);
    assert_true(uv(prim_convert(F(PT_F64, 18446744073709549568.0), PT_U64)) == 18446744073709549568ULL);
    assert_int_equal(iv(prim_convert(F(PT_F32, 2147483648.0), PT_I32)), INT32_MAX);
    assert_int_equal(iv(prim_convert(F(PT_F32, 4294967040.0), PT_U32)), 4294967040LL);
    assert_int_equal(iv(prim_convert(F(PT_F64, INFINITY), PT_I32)), 0);
    assert_int_equal(iv(prim_convert(F(PT_F64, -INFINITY), PT_I32)), 0);
    assert_int_equal(iv(prim_convert(F(PT_F64, INFINITY), PT_U16)), 0);
    assert_int_equal(iv(prim_convert(F(PT_F64, NAN), PT_I32)), 0);
    /* the constant folder and the runtime agree */
    const double xs[] = {0.0, -0.5, 0.99, -1.0, -3.5, 127.9, 128.0, -128.9, -129.0, 255.5, 256.0, 3e9, -3e9,
                         9.3e18, -9.3e18, 1.9e19, 1e300, -1e300, INFINITY, -INFINITY, NAN};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        double x = xs[i];
        assert_int_equal(iv(prim_convert(F(PT_F64, x), PT_I8)), rt_conv_f64_i8(x));
        assert_int_equal(iv(prim_convert(F(PT_F64, x), PT_U8)), rt_conv_f64_u8(x));
        assert_int_equal(iv(prim_convert(F(PT_F64, x), PT_I32)), rt_conv_f64_i32(x));
        assert_int_equal(iv(prim_convert(F(PT_F64, x), PT_U32)), rt_conv_f64_u32(x));
        assert_int_equal(iv(prim_convert(F(PT_F64, x), PT_I64)), rt_conv_f64_i64(x));
        assert_true(uv(prim_convert(F(PT_F64, x), PT_U64)) == rt_conv_f64_u64(x));
        assert_int_equal(iv(prim_convert(F(PT_F32, x), PT_I32)), rt_conv_f32_i32((float)x));
        assert_int_equal(iv(prim_convert(F(PT_F32, x), PT_U16)), rt_conv_f32_u16((float)x));
    }
    assert_int_equal(iv(prim_convert(F(PT_F32, NAN), PT_U64)), 0);
}

static void test_convert_to_float(void **state) {
    (void)state;
    assert_true(fv(prim_convert(I(PT_I32, -3), PT_F64)) == -3.0);
    assert_true(fv(prim_convert(I(PT_U8, 255), PT_F32)) == 255.0);
    assert_true(fv(prim_convert(I(PT_U64, -1), PT_F64)) == 18446744073709551616.0);
    assert_true(fv(prim_convert(I(PT_I64, INT64_MIN), PT_F32)) == -9223372036854775808.0);
    /* 2^24 + 1 rounds (ties to even) to 2^24 in f32, once */
    assert_true(fv(prim_convert(I(PT_I32, 16777217), PT_F32)) == 16777216.0);
    /* direct rounding: 2^53+2^29+1 needs one rounding to f32, not two */
    int64_t tricky = (1LL << 53) + (1LL << 29) + 1;
    assert_true(fv(prim_convert(I(PT_I64, tricky), PT_F32)) == (double)(float)tricky);
    assert_true(fv(prim_convert(F(PT_F64, 0.1), PT_F32)) == (double)0.1f);
    assert_true(isinf(fv(prim_convert(F(PT_F64, 1e300), PT_F32))));
    assert_true(fv(prim_convert(F(PT_F32, 0.1), PT_F64)) == (double)0.1f);
    assert_true(isnan(fv(prim_convert(F(PT_F64, NAN), PT_F32))));
    assert_int_equal(prim_convert(F(PT_F64, 1), PT_F32).type, PT_F32);
}

/* ---- Formatting --------------------------------------------------------------- */

static void test_format_ints(void **state) {
    (void)state;
    assert_string_equal(fmt(I(PT_I32, 3)), "3i32");
    assert_string_equal(fmt(I(PT_I32, -3)), "-3i32");
    assert_string_equal(fmt(I(PT_U8, 255)), "255u8");
    assert_string_equal(fmt(I(PT_U8, -1)), "255u8");
    assert_string_equal(fmt(I(PT_I8, -128)), "-128i8");
    assert_string_equal(fmt(I(PT_I64, INT64_MIN)), "-9223372036854775808i64");
    assert_string_equal(fmt(I(PT_U64, -1)), "18446744073709551615u64");
    assert_string_equal(fmt(I(PT_U16, 0)), "0u16");
    assert_string_equal(fmt(prim_bool(true)), "true");
    assert_string_equal(fmt(prim_bool(false)), "false");
}

static void test_format_floats(void **state) {
    (void)state;
    assert_string_equal(fmt(F(PT_F32, 1.5)), "1.5f32");
    assert_string_equal(fmt(F(PT_F32, 1.0)), "1f32");
    assert_string_equal(fmt(F(PT_F64, -2.0)), "-2f64");
    assert_string_equal(fmt(F(PT_F32, 0.1)), "0.1f32");
    assert_string_equal(fmt(F(PT_F64, 0.1)), "0.1f64");
    assert_string_equal(fmt(F(PT_F64, 1.0 / 3.0)), "0.3333333333333333f64");
    assert_string_equal(fmt(F(PT_F32, 1.0 / 3.0)), "0.33333334f32");
    assert_string_equal(fmt(F(PT_F64, 1e20)), "1e20f64");
    assert_string_equal(fmt(F(PT_F64, 1e-5)), "1e-5f64");
    assert_string_equal(fmt(F(PT_F64, 1.5e300)), "1.5e300f64");
    assert_string_equal(fmt(F(PT_F32, 16777216.0)), "16777216f32");
    assert_string_equal(fmt(F(PT_F64, -0.0)), "-0f64");
    assert_string_equal(fmt(F(PT_F32, NAN)), "f32.nan");
    assert_string_equal(fmt(F(PT_F64, NAN)), "f64.nan");
    assert_string_equal(fmt(F(PT_F32, INFINITY)), "f32.inf");
    assert_string_equal(fmt(F(PT_F64, -INFINITY)), "-f64.inf");
    char small[4];
    assert_ptr_equal(prim_format(I(PT_I32, 123456), small, sizeof small), small);
    assert_string_equal(small, "123");
}

/* Every formatted float reads back exactly (suffix stripped). */
static void test_format_round_trips(void **state) {
    (void)state;
    const double vals[] = {0.1, 0.2, 0.3, 1e-300, 5e-324, 1.7976931348623157e308, 3.14159265358979,
                           123456789.0, 2.5e-8, 6.02214076e23, -7.25, 1.0 / 7.0};
    for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) {
        for (int t = PT_F32; t <= PT_F64; t++) {
            PrimValue v = F((PrimType)t, vals[i]);
            if (isinf(v.v.f)) continue;
            char buf[64];
            prim_format(v, buf, sizeof buf);
            char *suffix = strstr(buf, prim_name((PrimType)t));
            assert_non_null(suffix);
            assert_string_equal(suffix, prim_name((PrimType)t));
            *suffix = 0;
            double back = t == PT_F32 ? (double)strtof(buf, NULL) : strtod(buf, NULL);
            assert_true(back == v.v.f);
            assert_null(strchr(buf, '+'));
        }
    }
}

/* ---- Integer arithmetic ------------------------------------------------------- */

static void test_int_add_sub_mul_wrap(void **state) {
    (void)state;
    assert_int_equal(ibin(OP_ADD, PT_I32, 2, 3), 5);
    assert_int_equal(ibin(OP_ADD, PT_I8, 127, 1), -128);
    assert_int_equal(ibin(OP_ADD, PT_U8, 255, 1), 0);
    assert_int_equal(ibin(OP_ADD, PT_I32, INT32_MAX, 1), INT32_MIN);
    assert_int_equal(ibin(OP_ADD, PT_I64, INT64_MAX, 1), INT64_MIN);
    assert_int_equal(ibin(OP_SUB, PT_U16, 0, 1), 65535);
    assert_int_equal(ibin(OP_SUB, PT_I16, -32768, 1), 32767);
    assert_int_equal(ibin(OP_SUB, PT_I64, INT64_MIN, 1), INT64_MAX);
    assert_int_equal(ibin(OP_MUL, PT_I8, 16, 16), 0);
    assert_int_equal(ibin(OP_MUL, PT_I8, 12, 12), 144 - 256);
    assert_int_equal(ibin(OP_MUL, PT_U32, 0x10000, 0x10000), 0);
    assert_int_equal(ibin(OP_MUL, PT_I64, INT64_MIN, -1), INT64_MIN);
    assert_int_equal(ibin(OP_MUL, PT_I32, -7, 6), -42);
    assert_true(uv(ev2(OP_MUL, I(PT_U64, -1), I(PT_U64, -1))) == 1);
}

/* Allocation sizes never wrap: products that do not fit saturate at
 * INT64_MAX and a negative operand gives -1 (whatever the other one is),
 * in the constant folder and in the generated code's rt_size_mul_i64. */
static void test_size_mul(void **state) {
    (void)state;
    static const int64_t cases[][3] = {
        {3, 5, 15},
        {0, INT64_MAX, 0},
        {INT64_MAX, 0, 0},
        {INT64_MAX, 1, INT64_MAX},
        {4, INT64_C(1) << 62, INT64_MAX},
        {8, INT64_C(1) << 61, INT64_MAX},
        {INT64_C(1) << 32, INT64_C(1) << 32, INT64_MAX},
        {INT64_C(1) << 31, INT64_C(1) << 31, INT64_C(1) << 62},
        {-1, -1, -1},
        {-4, 0, -1},
        {0, -5, -1},
        {INT64_MIN, -1, -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(prim_size_mul(cases[i][0], cases[i][1]), cases[i][2]);
        assert_int_equal(rt_size_mul_i64(cases[i][0], cases[i][1]), cases[i][2]);
        assert_int_equal(ibin(OP_SIZE_MUL, PT_I64, cases[i][0], cases[i][1]), cases[i][2]);
    }
}

static void test_int_div_mod(void **state) {
    (void)state;
    /* div rounds to -inf, mod has the divisor's sign */
    assert_int_equal(ibin(OP_DIV, PT_I32, 7, 2), 3);
    assert_int_equal(ibin(OP_DIV, PT_I32, -7, 2), -4);
    assert_int_equal(ibin(OP_DIV, PT_I32, 7, -2), -4);
    assert_int_equal(ibin(OP_DIV, PT_I32, -7, -2), 3);
    assert_int_equal(ibin(OP_DIV, PT_I32, -8, 2), -4);
    assert_int_equal(ibin(OP_MOD, PT_I32, 7, 2), 1);
    assert_int_equal(ibin(OP_MOD, PT_I32, -7, 2), 1);
    assert_int_equal(ibin(OP_MOD, PT_I32, 7, -2), -1);
    assert_int_equal(ibin(OP_MOD, PT_I32, -7, -2), -1);
    assert_int_equal(ibin(OP_MOD, PT_I32, -8, 2), 0);
    assert_int_equal(ibin(OP_MOD, PT_I64, -1, 5), 4);
    /* quot/rem round towards zero, rem has the dividend's sign */
    assert_int_equal(ibin(OP_QUOT, PT_I32, -7, 2), -3);
    assert_int_equal(ibin(OP_QUOT, PT_I32, 7, -2), -3);
    assert_int_equal(ibin(OP_REM, PT_I32, -7, 2), -1);
    assert_int_equal(ibin(OP_REM, PT_I32, 7, -2), 1);
    assert_int_equal(ibin(OP_REM, PT_I32, -7, -2), -1);
    /* most negative / -1 wraps */
    assert_int_equal(ibin(OP_DIV, PT_I64, INT64_MIN, -1), INT64_MIN);
    assert_int_equal(ibin(OP_MOD, PT_I64, INT64_MIN, -1), 0);
    assert_int_equal(ibin(OP_QUOT, PT_I64, INT64_MIN, -1), INT64_MIN);
    assert_int_equal(ibin(OP_REM, PT_I64, INT64_MIN, -1), 0);
    assert_int_equal(ibin(OP_DIV, PT_I32, INT32_MIN, -1), INT32_MIN);
    assert_int_equal(ibin(OP_DIV, PT_I8, -128, -1), -128);
    assert_int_equal(ibin(OP_MOD, PT_I8, -128, -1), 0);
    assert_int_equal(ibin(OP_DIV, PT_I64, INT64_MIN, 2), INT64_MIN / 2);
    assert_int_equal(ibin(OP_MOD, PT_I64, INT64_MAX, INT64_MIN), -1);
    /* unsigned: big values are positive */
    assert_int_equal(ibin(OP_DIV, PT_U8, 255, 2), 127);
    assert_int_equal(ibin(OP_MOD, PT_U8, 255, 2), 1);
    assert_int_equal(ibin(OP_DIV, PT_U32, -2, 2), 0x7FFFFFFF);
    assert_int_equal(ibin(OP_QUOT, PT_U32, -1, 16), 0x0FFFFFFF);
    assert_int_equal(ibin(OP_REM, PT_U32, -1, 16), 15);
    assert_true(uv(ev2(OP_DIV, I(PT_U64, -1), I(PT_U64, 3))) == UINT64_MAX / 3);
    assert_true(uv(ev2(OP_MOD, I(PT_U64, -1), I(PT_U64, 10))) == UINT64_MAX % 10);
    /* by zero: no folding, output untouched */
    for (int op = OP_DIV; op <= OP_REM; op++) {
        if (op == OP_POW) continue;
        assert_false(folds2((Op)op, I(PT_I32, 5), I(PT_I32, 0)));
        assert_false(folds2((Op)op, I(PT_U8, 5), I(PT_U8, 0)));
        assert_false(folds2((Op)op, I(PT_I64, INT64_MIN), I(PT_I64, 0)));
    }
    PrimValue args[2] = {I(PT_I32, 1), I(PT_I32, 0)}, out = I(PT_I16, 99);
    assert_false(prim_eval(OP_DIV, args, &out));
    assert_int_equal(out.type, PT_I16);
    assert_int_equal(out.v.i, 99);
}

static void test_int_pow(void **state) {
    (void)state;
    assert_int_equal(ibin(OP_POW, PT_I32, 2, 10), 1024);
    assert_int_equal(ibin(OP_POW, PT_I32, 3, 0), 1);
    assert_int_equal(ibin(OP_POW, PT_I32, 0, 0), 1);
    assert_int_equal(ibin(OP_POW, PT_I32, 0, 5), 0);
    assert_int_equal(ibin(OP_POW, PT_I32, -2, 3), -8);
    assert_int_equal(ibin(OP_POW, PT_I32, -1, 1001), -1);
    assert_int_equal(ibin(OP_POW, PT_I32, 2, 31), INT32_MIN);
    assert_int_equal(ibin(OP_POW, PT_I32, 2, 32), 0);
    assert_int_equal(ibin(OP_POW, PT_I8, 3, 5), 243 - 256);
    assert_int_equal(ibin(OP_POW, PT_U8, 3, 5), 243);
    assert_int_equal(ibin(OP_POW, PT_I64, 3, 39), 4052555153018976267LL);
    assert_int_equal(ibin(OP_POW, PT_I64, 10, 18), 1000000000000000000LL);
    assert_int_equal(ibin(OP_POW, PT_I64, 2, 63), INT64_MIN);
    /* an unsigned exponent with the top bit set is a large exponent */
    assert_int_equal(ibin(OP_POW, PT_U8, 1, 200), 1);
    assert_int_equal(ibin(OP_POW, PT_U8, 2, 200), 0);
    assert_int_equal(ibin(OP_POW, PT_U8, 3, 128), 1); /* 3^128 mod 256 */
    /* negative signed exponents are not folded */
    assert_false(folds2(OP_POW, I(PT_I32, 2), I(PT_I32, -1)));
    assert_false(folds2(OP_POW, I(PT_I8, 1), I(PT_I8, -128)));
}

/* Powers up to 70 agree with repeated wrapping multiplication. */
static void test_int_pow_matches_repeated_mul(void **state) {
    (void)state;
    for (int t = PT_I8; t <= PT_U64; t++) {
        for (int64_t base = -5; base <= 7; base++) {
            uint64_t acc = 1;
            for (int e = 0; e <= 70; e++) {
                assert_int_equal(ibin(OP_POW, (PrimType)t, base, e), iv(I((PrimType)t, (int64_t)acc)));
                acc *= (uint64_t)base;
            }
        }
    }
}

static void test_int_min_max_abs_sgn_neg(void **state) {
    (void)state;
    assert_int_equal(ibin(OP_MIN, PT_I32, -1, 1), -1);
    assert_int_equal(ibin(OP_MAX, PT_I32, -1, 1), 1);
    assert_int_equal(ibin(OP_MIN, PT_U32, -1, 1), 1); /* 0xFFFFFFFF > 1 */
    assert_int_equal(ibin(OP_MAX, PT_U32, -1, 1), 0xFFFFFFFFLL);
    assert_int_equal(ibin(OP_MAX, PT_U64, -1, 1), -1);
    assert_int_equal(ibin(OP_MIN, PT_I64, INT64_MIN, INT64_MAX), INT64_MIN);
    assert_int_equal(iv(ev1(OP_NEG, I(PT_I32, 5))), -5);
    assert_int_equal(iv(ev1(OP_NEG, I(PT_I32, INT32_MIN))), INT32_MIN);
    assert_int_equal(iv(ev1(OP_NEG, I(PT_I64, INT64_MIN))), INT64_MIN);
    assert_int_equal(iv(ev1(OP_NEG, I(PT_U8, 1))), 255);
    assert_int_equal(iv(ev1(OP_NEG, I(PT_U8, 0))), 0);
    assert_int_equal(iv(ev1(OP_ABS, I(PT_I16, -300))), 300);
    assert_int_equal(iv(ev1(OP_ABS, I(PT_I8, -128))), -128);
    assert_int_equal(iv(ev1(OP_ABS, I(PT_I64, INT64_MIN))), INT64_MIN);
    assert_int_equal(iv(ev1(OP_ABS, I(PT_U8, 200))), 200);
    assert_int_equal(iv(ev1(OP_SGN, I(PT_I32, -9))), -1);
    assert_int_equal(iv(ev1(OP_SGN, I(PT_I32, 0))), 0);
    assert_int_equal(iv(ev1(OP_SGN, I(PT_I32, 9))), 1);
    assert_int_equal(iv(ev1(OP_SGN, I(PT_U8, 200))), 1);
    assert_int_equal(iv(ev1(OP_SGN, I(PT_U8, 0))), 0);
    assert_int_equal(iv(ev1(OP_SGN, I(PT_I64, INT64_MIN))), -1);
}

static void test_int_bits(void **state) {
    (void)state;
    assert_int_equal(ibin(OP_AND, PT_I32, 0xF0, 0x3C), 0x30);
    assert_int_equal(ibin(OP_OR, PT_U8, 0xF0, 0x0F), 0xFF);
    assert_int_equal(ibin(OP_XOR, PT_I8, -1, 0x0F), -16);
    assert_int_equal(iv(ev1(OP_COMPL, I(PT_I32, 0))), -1);
    assert_int_equal(iv(ev1(OP_COMPL, I(PT_U8, 0))), 255);
    assert_int_equal(iv(ev1(OP_COMPL, I(PT_U16, 0x00FF))), 0xFF00);
    assert_true(uv(ev1(OP_COMPL, I(PT_U64, 0))) == UINT64_MAX);
    assert_int_equal(iv(ev1(OP_POPC, I(PT_I32, -1))), 32);
    assert_int_equal(iv(ev1(OP_POPC, I(PT_I8, -1))), 8);
    assert_int_equal(iv(ev1(OP_POPC, I(PT_U64, -1))), 64);
    assert_int_equal(iv(ev1(OP_POPC, I(PT_U16, 0x1234))), 5);
    assert_int_equal(iv(ev1(OP_CLZ, I(PT_I32, 1))), 31);
    assert_int_equal(iv(ev1(OP_CLZ, I(PT_I8, 1))), 7);
    assert_int_equal(iv(ev1(OP_CLZ, I(PT_I8, -1))), 0);
    assert_int_equal(iv(ev1(OP_CLZ, I(PT_U16, 0))), 16);
    assert_int_equal(iv(ev1(OP_CLZ, I(PT_I64, 0))), 64);
    assert_int_equal(iv(ev1(OP_CLZ, I(PT_U64, 1))), 63);
    assert_int_equal(iv(ev1(OP_CTZ, I(PT_I32, 8))), 3);
    assert_int_equal(iv(ev1(OP_CTZ, I(PT_I8, 0))), 8);
    assert_int_equal(iv(ev1(OP_CTZ, I(PT_I8, -128))), 7);
    assert_int_equal(iv(ev1(OP_CTZ, I(PT_U32, 0))), 32);
    assert_int_equal(iv(ev1(OP_CTZ, I(PT_I64, INT64_MIN))), 63);
    assert_int_equal(ev1(OP_CTZ, I(PT_I64, 4)).type, PT_I32);
}

static void test_int_shifts(void **state) {
    (void)state;
    assert_int_equal(ibin(OP_SHL, PT_I32, 1, 4), 16);
    assert_int_equal(ibin(OP_SHL, PT_I32, 1, 31), INT32_MIN);
    assert_int_equal(ibin(OP_SHL, PT_I32, 1, 32), 0);
    assert_int_equal(ibin(OP_SHL, PT_I32, 1, 100), 0);
    assert_int_equal(ibin(OP_SHL, PT_I32, 1, -1), 0); /* amount 0xFFFFFFFF */
    assert_int_equal(ibin(OP_SHL, PT_I8, 3, 7), -128);
    assert_int_equal(ibin(OP_SHL, PT_U8, 0xFF, 4), 0xF0);
    assert_int_equal(ibin(OP_SHL, PT_I64, 1, 63), INT64_MIN);
    assert_int_equal(ibin(OP_SHL, PT_I64, 1, 64), 0);
    /* shr: arithmetic for signed, logical for unsigned */
    assert_int_equal(ibin(OP_SHR, PT_I32, -16, 2), -4);
    assert_int_equal(ibin(OP_SHR, PT_I32, -1, 31), -1);
    assert_int_equal(ibin(OP_SHR, PT_I32, -1, 32), -1);
    assert_int_equal(ibin(OP_SHR, PT_I32, 5, 32), 0);
    assert_int_equal(ibin(OP_SHR, PT_I8, -128, 7), -1);
    assert_int_equal(ibin(OP_SHR, PT_I8, -128, 200 - 256), -1); /* amount 200 */
    assert_int_equal(ibin(OP_SHR, PT_I64, INT64_MIN, 63), -1);
    assert_int_equal(ibin(OP_SHR, PT_I64, INT64_MAX, 62), 1);
    assert_int_equal(ibin(OP_SHR, PT_U8, 0x80, 7), 1);
    assert_int_equal(ibin(OP_SHR, PT_U32, -1, 28), 15);
    assert_int_equal(ibin(OP_SHR, PT_U32, -1, 32), 0);
    /* lshr: always logical on the width's bits */
    assert_int_equal(ibin(OP_LSHR, PT_I32, -1, 28), 15);
    assert_int_equal(ibin(OP_LSHR, PT_I8, -128, 7), 1);
    assert_int_equal(ibin(OP_LSHR, PT_I8, -1, 1), 127);
    assert_int_equal(ibin(OP_LSHR, PT_I16, -1, 16), 0);
    assert_int_equal(ibin(OP_LSHR, PT_I64, -1, 63), 1);
    assert_int_equal(ibin(OP_LSHR, PT_I64, -1, 0), -1);
    assert_int_equal(ibin(OP_LSHR, PT_U16, 0x8000, 15), 1);
}

static void test_int_compare(void **state) {
    (void)state;
    assert_true(icmp(OP_LT, PT_I32, -1, 1));
    assert_false(icmp(OP_LT, PT_U32, -1, 1));
    assert_true(icmp(OP_GT, PT_U8, 200, 100));
    assert_false(icmp(OP_GT, PT_I8, 200, 100)); /* -56 > 100 is false */
    assert_true(icmp(OP_LE, PT_I64, INT64_MIN, INT64_MIN));
    assert_true(icmp(OP_GE, PT_U64, -1, 0));
    assert_false(icmp(OP_GE, PT_I64, -1, 0));
    assert_true(icmp(OP_EQ, PT_U16, 65536 + 3, 3));
    assert_true(icmp(OP_NE, PT_I16, 1, 2));
    assert_false(icmp(OP_NE, PT_I16, 2, 2));
    assert_false(icmp(OP_LT, PT_I32, 3, 3));
    assert_true(icmp(OP_LE, PT_I32, 3, 3));
    assert_false(icmp(OP_GT, PT_I32, 3, 3));
    assert_true(icmp(OP_GE, PT_I32, 3, 3));
}

/* Reference floor division / modulo of mathematical integers. */
static int64_t ref_floor_div(int64_t x, int64_t y) {
    int64_t q = x / y;
    return (x % y != 0 && ((x < 0) != (y < 0))) ? q - 1 : q;
}

/* Every pair of i8 and u8 values: arithmetic in wide integers, then wrapped
 * by hand, agrees with prim_eval. */
static void test_exhaustive_8bit(void **state) {
    (void)state;
    for (int t = 0; t < 2; t++) {
        PrimType pt = t ? PT_U8 : PT_I8;
        int lo = t ? 0 : -128, hi = t ? 255 : 127;
        for (int x = lo; x <= hi; x++) {
            for (int y = lo; y <= hi; y++) {
                int wrap_add = (int)(int8_t)(x + y), wrap_sub = (int)(int8_t)(x - y), wrap_mul = (int)(int8_t)(x * y);
                if (t) {
                    wrap_add = (x + y) & 255;
                    wrap_sub = (x - y) & 255;
                    wrap_mul = (x * y) & 255;
                }
                assert_int_equal(ibin(OP_ADD, pt, x, y), wrap_add);
                assert_int_equal(ibin(OP_SUB, pt, x, y), wrap_sub);
                assert_int_equal(ibin(OP_MUL, pt, x, y), wrap_mul);
                assert_int_equal(icmp(OP_LT, pt, x, y), x < y);
                assert_int_equal(ibin(OP_MIN, pt, x, y), x < y ? x : y);
                if (y != 0) {
                    int q = (int)ref_floor_div(x, y), r = x - q * y;
                    int tq = x / y, tr = x % y;
                    assert_int_equal(ibin(OP_DIV, pt, x, y), iv(I(pt, q)));
                    assert_int_equal(ibin(OP_MOD, pt, x, y), iv(I(pt, r)));
                    assert_int_equal(ibin(OP_QUOT, pt, x, y), iv(I(pt, tq)));
                    assert_int_equal(ibin(OP_REM, pt, x, y), iv(I(pt, tr)));
                    assert_true(r == 0 || (r < 0) == (y < 0));
                }
                int amount = y & 255;
                int shl = amount >= 8 ? 0 : (int)(((unsigned)x << amount) & 255);
                assert_int_equal(ibin(OP_SHL, pt, x, y), iv(I(pt, shl)));
                int lshr = amount >= 8 ? 0 : (x & 255) >> amount;
                assert_int_equal(ibin(OP_LSHR, pt, x, y), iv(I(pt, lshr)));
                int shr = t ? lshr : (amount >= 8 ? (x < 0 ? -1 : 0) : (int)floor(x / pow(2, amount)));
                assert_int_equal(ibin(OP_SHR, pt, x, y), shr);
            }
        }
    }
}

/* ---- Floats --------------------------------------------------------------------- */

static void test_float_arith(void **state) {
    (void)state;
    assert_true(fbin(OP_ADD, PT_F64, 0.1, 0.2) == 0.1 + 0.2);
    assert_true(fbin(OP_ADD, PT_F32, 0.1, 0.2) == (double)(0.1f + 0.2f));
    assert_true(fbin(OP_SUB, PT_F32, 1.0, 1e-8) == 1.0); /* absorbed in f32 */
    assert_true(fbin(OP_SUB, PT_F64, 1.0, 1e-8) != 1.0);
    assert_true(fbin(OP_MUL, PT_F32, 3e38, 10) == INFINITY);
    assert_true(fbin(OP_DIV, PT_F64, 1, 0) == INFINITY);
    assert_true(fbin(OP_DIV, PT_F64, -1, 0) == -INFINITY);
    assert_true(isnan(fbin(OP_DIV, PT_F32, 0, 0)));
    assert_true(fbin(OP_DIV, PT_F32, 1, 3) == (double)(1.0f / 3.0f));
    /* mod is fmod: the sign of the dividend */
    assert_true(fbin(OP_MOD, PT_F64, 5.5, 2) == 1.5);
    assert_true(fbin(OP_MOD, PT_F64, -5.5, 2) == -1.5);
    assert_true(fbin(OP_MOD, PT_F32, 5.5, -2) == 1.5);
    assert_true(isnan(fbin(OP_MOD, PT_F64, 1, 0)));
    assert_true(fbin(OP_POW, PT_F64, 2, 10) == 1024);
    assert_true(fbin(OP_POW, PT_F64, 2, -1) == 0.5);
    assert_true(fbin(OP_POW, PT_F32, 0, 0) == 1);
    assert_true(isnan(fbin(OP_POW, PT_F64, -8, 1.0 / 3.0)));
    assert_true(fbin(OP_ATAN2, PT_F64, 1, 1) == atan2(rt(1), 1));
    assert_true(fbin(OP_ATAN2, PT_F32, 1, -1) == (double)atan2f((float)rt(1), -1));
    assert_true(fbin(OP_HYPOT, PT_F64, 3, 4) == 5);
    assert_true(fbin(OP_HYPOT, PT_F32, INFINITY, NAN) == INFINITY);
}

static void test_float_min_max_nan(void **state) {
    (void)state;
    assert_true(fbin(OP_MIN, PT_F64, 1, 2) == 1);
    assert_true(fbin(OP_MAX, PT_F32, 1, 2) == 2);
    assert_true(fbin(OP_MIN, PT_F64, NAN, 2) == 2);
    assert_true(fbin(OP_MIN, PT_F64, 2, NAN) == 2);
    assert_true(fbin(OP_MAX, PT_F32, NAN, -3) == -3);
    assert_true(fbin(OP_MAX, PT_F32, -3, NAN) == -3);
    assert_true(isnan(fbin(OP_MIN, PT_F64, NAN, NAN)));
    assert_true(fbin(OP_MIN, PT_F64, -INFINITY, 0) == -INFINITY);
    assert_true(fbin(OP_MAX, PT_F64, -INFINITY, INFINITY) == INFINITY);
}

static void test_float_compare(void **state) {
    (void)state;
    PrimValue n = F(PT_F64, NAN), one = F(PT_F64, 1);
    assert_false(bv(ev2(OP_EQ, n, n)));
    assert_true(bv(ev2(OP_NE, n, n)));
    assert_false(bv(ev2(OP_LT, n, one)));
    assert_false(bv(ev2(OP_LE, one, n)));
    assert_false(bv(ev2(OP_GT, n, one)));
    assert_false(bv(ev2(OP_GE, n, n)));
    assert_true(bv(ev2(OP_EQ, F(PT_F32, 0.0), F(PT_F32, -0.0))));
    assert_true(bv(ev2(OP_LT, F(PT_F32, -INFINITY), F(PT_F32, -3e38))));
    assert_true(bv(ev2(OP_LE, one, one)));
    assert_true(bv(ev2(OP_GE, one, one)));
    assert_true(bv(ev2(OP_GT, F(PT_F64, 2), one)));
    assert_true(bv(ev1(OP_ISNAN, n)));
    assert_false(bv(ev1(OP_ISNAN, F(PT_F32, INFINITY))));
    assert_true(bv(ev1(OP_ISINF, F(PT_F32, -INFINITY))));
    assert_false(bv(ev1(OP_ISINF, n)));
    assert_false(bv(ev1(OP_ISINF, F(PT_F64, 1e308))));
}

static void test_float_unary(void **state) {
    (void)state;
    assert_true(fun(OP_NEG, PT_F64, 2.5) == -2.5);
    assert_true(signbit(fun(OP_NEG, PT_F64, 0.0)));
    assert_true(fun(OP_ABS, PT_F32, -2.5) == 2.5);
    assert_false(signbit(fun(OP_ABS, PT_F64, -0.0)));
    assert_true(fun(OP_SGN, PT_F64, -7) == -1);
    assert_true(fun(OP_SGN, PT_F64, 7) == 1);
    assert_true(fun(OP_SGN, PT_F32, 0) == 0);
    assert_true(fun(OP_SGN, PT_F32, -INFINITY) == -1);
    assert_true(isnan(fun(OP_SGN, PT_F64, NAN)));
    assert_true(fun(OP_SQRT, PT_F64, 2) == sqrt(rt(2)));
    assert_true(fun(OP_SQRT, PT_F32, 2) == (double)sqrtf((float)rt(2)));
    assert_true(isnan(fun(OP_SQRT, PT_F64, -1)));
    assert_true(fun(OP_RSQRT, PT_F64, 4) == 0.5);
    assert_true(fun(OP_RSQRT, PT_F32, 2) == (double)(1.0f / sqrtf(2.0f)));
    assert_true(fun(OP_RSQRT, PT_F64, 0) == INFINITY);
    assert_true(fun(OP_RSQRT, PT_F64, -0.0) == -INFINITY);
    assert_true(isnan(fun(OP_RSQRT, PT_F32, -1)));
    assert_true(fun(OP_CBRT, PT_F64, -27) == cbrt(rt(-27)));
    assert_true(fabs(fun(OP_CBRT, PT_F64, -27) + 3) < 1e-15);
    assert_true(fun(OP_EXP, PT_F64, 0) == 1);
    assert_true(fun(OP_EXP, PT_F32, 1) == (double)expf((float)rt(1)));
    assert_true(fun(OP_EXP, PT_F32, 100) == INFINITY);
    assert_true(fun(OP_LOG, PT_F64, 1) == 0);
    assert_true(fun(OP_LOG, PT_F64, 0) == -INFINITY);
    assert_true(isnan(fun(OP_LOG, PT_F32, -1)));
    assert_true(fun(OP_LOG2, PT_F64, 1024) == 10);
    assert_true(fun(OP_LOG10, PT_F32, 1000) == 3);
    assert_true(fun(OP_SIN, PT_F64, 0.5) == sin(rt(0.5)));
    assert_true(fun(OP_SIN, PT_F32, 0.5) == (double)sinf((float)rt(0.5)));
    assert_true(fun(OP_COS, PT_F64, 0) == 1);
    assert_true(fun(OP_TAN, PT_F32, 0.25) == (double)tanf((float)rt(0.25)));
    assert_true(fun(OP_ASIN, PT_F64, 1) == asin(rt(1)));
    assert_true(isnan(fun(OP_ACOS, PT_F64, 2)));
    assert_true(fun(OP_ATAN, PT_F64, INFINITY) == atan(rt(INFINITY)));
    assert_true(fun(OP_SINH, PT_F64, 1) == sinh(rt(1)));
    assert_true(fun(OP_COSH, PT_F32, 1) == (double)coshf((float)rt(1)));
    assert_true(fun(OP_TANH, PT_F64, 100) == 1);
}

/* The functions of Futhark's real and float module types, against libm
 * and runtime/scalar.h (whose C functions the C backend calls and whose
 * text the OpenCL backend compiles). */
static void test_float_prelude_functions(void **state) {
    (void)state;
    assert_true(fun(OP_ASINH, PT_F64, -0.5) == asinh(rt(-0.5)));
    assert_true(fun(OP_ACOSH, PT_F32, 2) == (double)acoshf((float)rt(2)));
    assert_true(isnan(fun(OP_ACOSH, PT_F64, 0.5)));
    assert_true(fun(OP_ATANH, PT_F64, 1) == INFINITY);
    assert_true(fun(OP_LOG1P, PT_F64, 1e-20) == 1e-20);
    assert_true(fun(OP_GAMMA, PT_F64, 5) == 24);
    assert_true(fun(OP_GAMMA, PT_F32, 0.5) == (double)rt_gamma_f32((float)rt(0.5)));
    assert_true(fun(OP_LGAMMA, PT_F64, 0.5) == rt_lgamma_f64(rt(0.5)));
    assert_true(fun(OP_ERF, PT_F64, 0) == 0);
    assert_true(fun(OP_ERF, PT_F32, 0.5) == (double)rt_erf_f32(0.5f));
    assert_true(fun(OP_ERFC, PT_F64, 0.5) == rt_erfc_f64(rt(0.5)));
    /* nextafter, copysign, ldexp (exponent clamped as the runtime does) */
    assert_true(fbin(OP_NEXTAFTER, PT_F64, 1, 2) == 1 + 0x1p-52);
    assert_true(fbin(OP_NEXTAFTER, PT_F32, 1, 0) == 1 - 0x1p-24);
    assert_true(fbin(OP_COPYSIGN, PT_F64, 3, -0.0) == -3);
    assert_true(fbin(OP_COPYSIGN, PT_F32, -3, 1) == 3);
    assert_true(fbin(OP_LDEXP, PT_F64, 1.5, 3) == 12);
    assert_true(fbin(OP_LDEXP, PT_F64, 1, 2147483647.0) == INFINITY);
    assert_true(fbin(OP_LDEXP, PT_F32, 1, -2147483648.0) == 0);
    assert_true(rt_ldexp_f32(1, 2147483648.0f) == INFINITY);
    assert_true(fbin(OP_LDEXP, PT_F32, 3, -1) == (double)rt_ldexp_f32(3, -1));
    /* fma rounds once: 0.1 * 10 - 1 is 0 when rounded twice */
    PrimValue args[3] = {F(PT_F64, 0.1), F(PT_F64, 10), F(PT_F64, -1)}, out;
    assert_true(prim_eval(OP_FMA, args, &out));
    assert_true(fv(out) == 0x1p-54);
    assert_true(fv(out) == rt_fma_f64(rt(0.1), 10, -1));
    args[0] = F(PT_F32, 0.1), args[1] = F(PT_F32, 10), args[2] = F(PT_F32, -1);
    assert_true(prim_eval(OP_FMA, args, &out));
    assert_int_equal(out.type, PT_F32);
    assert_true(fv(out) == (double)rt_fma_f32(0.1f, 10, -1));
    assert_true(fv(out) != 0);
}

/* to_bits and from_bits: IEEE layouts, round trips, NaNs left to run time. */
static void test_float_bits(void **state) {
    (void)state;
    PrimValue b = ev1(OP_TO_BITS, F(PT_F32, 1));
    assert_int_equal(b.type, PT_U32);
    assert_int_equal(uv(b), 0x3f800000u);
    assert_int_equal(rt_to_bits_f32(1.0f), 0x3f800000u);
    b = ev1(OP_TO_BITS, F(PT_F64, -2));
    assert_int_equal(b.type, PT_U64);
    assert_true(uv(b) == 0xc000000000000000ull);
    assert_true(uv(ev1(OP_TO_BITS, F(PT_F64, -0.0))) == 0x8000000000000000ull);
    PrimValue f = ev1(OP_FROM_BITS, I(PT_U32, 0x40490fdb));
    assert_int_equal(f.type, PT_F32);
    assert_true(fv(f) == (double)3.14159274f);
    assert_true(fv(f) == (double)rt_from_bits_u32(0x40490fdb));
    assert_true(fv(ev1(OP_FROM_BITS, I(PT_U64, 0x3ff0000000000000))) == 1);
    assert_true(fv(ev1(OP_FROM_BITS, I(PT_U32, 1))) == 0x1p-149);
    PrimValue out, nanbits = I(PT_U32, 0x7fc00001), fnan = F(PT_F64, NAN);
    assert_false(prim_eval(OP_FROM_BITS, &nanbits, &out));
    assert_false(prim_eval(OP_TO_BITS, &fnan, &out));
    assert_false(op_accepts(OP_FROM_BITS, PT_I32));
    assert_false(op_accepts(OP_FROM_BITS, PT_U8));
    assert_false(op_accepts(OP_TO_BITS, PT_U32));
    /* f16: to u16 bits and back */
    b = ev1(OP_TO_BITS, F(PT_F16, -2));
    assert_int_equal(b.type, PT_U16);
    assert_int_equal(uv(b), 0xc000);
    f = ev1(OP_FROM_BITS, I(PT_U16, 0x3555));
    assert_int_equal(f.type, PT_F16);
    assert_true(fv(f) == 0x1.554p-2);
}

/* The half nearest to x by search over every finite half (ties to the
 * even bits; from 65520 on, infinity), as bits. */
static uint16_t nearest_half(double x) {
    if (isnan(x)) return 0x7e00;
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    double a = fabs(x);
    if (a >= 65520) return sign | 0x7c00;
    uint16_t best = 0;
    for (uint16_t h = 1; h < 0x7c00; h++) {
        double d = fabs(rt_conv_f16_f32(h) - a), e = fabs(rt_conv_f16_f32(best) - a);
        if (d < e || (d == e && !(h & 1))) best = h;
    }
    return sign | best;
}

/* Half precision: every bit pattern converts to its float and back; the
 * rounding of doubles (near halves, ties, subnormals, overflow) agrees
 * with a search over all halves; f16 constants fold as rounded f32
 * arithmetic. */
static void test_half(void **state) {
    (void)state;
    for (uint32_t h = 0; h < 0x10000; h++) {
        float f = rt_conv_f16_f32((uint16_t)h);
        if (isnan(f)) {
            assert_true((h & 0x7c00) == 0x7c00 && (h & 0x3ff));
            assert_true(isnan(rt_conv_f16_f32(rt_conv_f32_f16(f))));
        } else assert_int_equal(rt_conv_f32_f16(f), h);
    }
    assert_true(rt_conv_f16_f32(0x3c00) == 1.0f && rt_conv_f16_f32(0x7bff) == 65504.0f);
    assert_true(rt_conv_f16_f32(0x0001) == 0x1p-24f && rt_conv_f16_f32(0xfc00) == -INFINITY);
    uint64_t seed = 12345;
    for (int i = 0; i < 4000; i++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        uint16_t h = (uint16_t)(seed >> 48) & 0x7fff;
        if (h >= 0x7c00) continue;
        double lo = rt_conv_f16_f32(h), hi = h == 0x7bff ? 65536 : rt_conv_f16_f32((uint16_t)(h + 1));
        double xs[] = {lo, (lo + hi) / 2, lo + (hi - lo) * 0.49, lo + (hi - lo) * 0.51,
                       lo + (hi - lo) * (double)(seed & 0xffff) / 65536.0};
        for (size_t k = 0; k < sizeof xs / sizeof xs[0]; k++) {
            assert_int_equal(rt_conv_f64_f16(xs[k]), nearest_half(xs[k]));
            assert_int_equal(rt_conv_f64_f16(-xs[k]), nearest_half(-xs[k]));
        }
    }
    assert_int_equal(rt_conv_f64_f16(65519.99), 0x7bff);
    assert_int_equal(rt_conv_f64_f16(1e300), 0x7c00);
    assert_int_equal(rt_conv_f64_f16(0x1p-26), 0); /* a quarter of the least subnormal */
    assert_int_equal(rt_conv_f64_f16(0x1.8p-25), 1);
    /* 0.1 + 0.2: each rounded to a half first, and the sum rounded again */
    PrimValue x = F(PT_F16, 0.1), y = F(PT_F16, 0.2);
    assert_true(fv(x) == 0x1.998p-4);
    assert_true(fv(ev2(OP_ADD, x, y)) == (double)rt_conv_f16_f32(rt_conv_f32_f16((float)fv(x) + (float)fv(y))));
    assert_true(isinf(fv(ev2(OP_MUL, F(PT_F16, 300), F(PT_F16, 300)))));
    char buf[32];
    assert_string_equal(prim_format(x, buf, sizeof buf), "0.1f16");
}

/* mul_hi: every pair of 8-bit values against a wide product, and 64-bit
 * extremes against __int128, for prim_eval and the runtime alike. */
static void test_mul_hi(void **state) {
    (void)state;
    for (int x = -128; x < 128; x++)
        for (int y = -128; y < 128; y++) {
            assert_int_equal(ibin(OP_MUL_HI, PT_I8, x, y), (x * y) >> 8);
            assert_int_equal(ibin(OP_MUL_HI, PT_I8, x, y), rt_mul_hi_i8((int8_t)x, (int8_t)y));
            int ux = x & 255, uy = y & 255;
            assert_int_equal(ibin(OP_MUL_HI, PT_U8, ux, uy), (ux * uy) >> 8);
            assert_int_equal(ibin(OP_MUL_HI, PT_U8, ux, uy), rt_mul_hi_u8((uint8_t)ux, (uint8_t)uy));
        }
    assert_int_equal(ibin(OP_MUL_HI, PT_I32, 100000, 100000), 2);
    assert_int_equal(ibin(OP_MUL_HI, PT_I32, -1, 1), -1);
    assert_int_equal(ibin(OP_MUL_HI, PT_U32, -1, -1), (int64_t)0xfffffffe);
    assert_int_equal(ibin(OP_MUL_HI, PT_I16, -32768, -32768), 16384);
    assert_int_equal(ibin(OP_MUL_HI, PT_U16, 65535, 2), 1);
    assert_true(ibin(OP_MUL_HI, PT_I64, INT64_MIN, INT64_MIN) == (int64_t)1 << 62);
    assert_true(ibin(OP_MUL_HI, PT_I64, INT64_MIN, INT64_MIN) == rt_mul_hi_i64(INT64_MIN, INT64_MIN));
    assert_true(ibin(OP_MUL_HI, PT_I64, -1, 5) == -1);
    assert_true(uv(ev2(OP_MUL_HI, I(PT_U64, -1), I(PT_U64, -1))) == UINT64_MAX - 1);
    assert_true(rt_mul_hi_u64(UINT64_MAX, UINT64_MAX) == UINT64_MAX - 1);
    assert_true(ibin(OP_MUL_HI, PT_I64, (int64_t)1 << 40, (int64_t)1 << 40) == (int64_t)1 << 16);
}

static void test_float_rounding(void **state) {
    (void)state;
    /* round: ties to even */
    assert_true(fun(OP_ROUND, PT_F64, 0.5) == 0);
    assert_true(fun(OP_ROUND, PT_F64, 1.5) == 2);
    assert_true(fun(OP_ROUND, PT_F64, 2.5) == 2);
    assert_true(fun(OP_ROUND, PT_F64, -2.5) == -2);
    assert_true(fun(OP_ROUND, PT_F32, 3.5) == 4);
    assert_true(fun(OP_ROUND, PT_F64, 2.6) == 3);
    assert_true(fun(OP_ROUND, PT_F64, -0.4) == 0);
    assert_true(fun(OP_FLOOR, PT_F64, -1.5) == -2);
    assert_true(fun(OP_FLOOR, PT_F32, 1.5) == 1);
    assert_true(fun(OP_CEIL, PT_F64, -1.5) == -1);
    assert_true(fun(OP_CEIL, PT_F32, 1.1) == 2);
    assert_true(fun(OP_TRUNC, PT_F64, -1.9) == -1);
    assert_true(fun(OP_TRUNC, PT_F32, 1.9) == 1);
    assert_true(fun(OP_FLOOR, PT_F64, INFINITY) == INFINITY);
    assert_true(isnan(fun(OP_ROUND, PT_F32, NAN)));
}

/* ---- Booleans ------------------------------------------------------------------- */

static void test_bool_ops(void **state) {
    (void)state;
    PrimValue t = prim_bool(true), f = prim_bool(false);
    assert_true(bv(ev2(OP_LAND, t, t)));
    assert_false(bv(ev2(OP_LAND, t, f)));
    assert_true(bv(ev2(OP_LOR, f, t)));
    assert_false(bv(ev2(OP_LOR, f, f)));
    assert_false(bv(ev1(OP_NOT, t)));
    assert_true(bv(ev1(OP_NOT, f)));
    assert_true(bv(ev2(OP_EQ, f, f)));
    assert_true(bv(ev2(OP_NE, t, f)));
    assert_true(bv(ev2(OP_LT, f, t)));
    assert_false(bv(ev2(OP_LT, t, f)));
    assert_false(bv(ev2(OP_LT, t, t)));
    assert_true(bv(ev2(OP_LE, t, t)));
    assert_false(bv(ev2(OP_LE, t, f)));
    assert_true(bv(ev2(OP_GT, t, f)));
    assert_true(bv(ev2(OP_GE, f, f)));
    assert_false(bv(ev2(OP_GE, f, t)));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_type_table),
        cmocka_unit_test(test_op_table),
        cmocka_unit_test(test_every_op_every_type),
        cmocka_unit_test(test_prim_int_wraps),
        cmocka_unit_test(test_prim_float_rounds),
        cmocka_unit_test(test_convert_int_int),
        cmocka_unit_test(test_convert_bool),
        cmocka_unit_test(test_convert_float_int),
        cmocka_unit_test(test_convert_to_float),
        cmocka_unit_test(test_format_ints),
        cmocka_unit_test(test_format_floats),
        cmocka_unit_test(test_format_round_trips),
        cmocka_unit_test(test_int_add_sub_mul_wrap),
        cmocka_unit_test(test_size_mul),
        cmocka_unit_test(test_int_div_mod),
        cmocka_unit_test(test_int_pow),
        cmocka_unit_test(test_int_pow_matches_repeated_mul),
        cmocka_unit_test(test_int_min_max_abs_sgn_neg),
        cmocka_unit_test(test_int_bits),
        cmocka_unit_test(test_int_shifts),
        cmocka_unit_test(test_int_compare),
        cmocka_unit_test(test_exhaustive_8bit),
        cmocka_unit_test(test_float_arith),
        cmocka_unit_test(test_float_min_max_nan),
        cmocka_unit_test(test_float_compare),
        cmocka_unit_test(test_float_unary),
        cmocka_unit_test(test_float_prelude_functions),
        cmocka_unit_test(test_float_bits),
        cmocka_unit_test(test_half),
        cmocka_unit_test(test_mul_hi),
        cmocka_unit_test(test_float_rounding),
        cmocka_unit_test(test_bool_ops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
