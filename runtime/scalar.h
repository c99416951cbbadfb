/* Scalar operations of generated programs, one static inline function per
 * operation and type (rt_<op>_<type>, ops from compiler/ir/ops.def), with
 * Futhark's semantics and no C undefined behaviour: integer arithmetic
 * wraps, / and mod round towards -inf, quot and rem towards zero, shifts by
 * the width or more give 0 (or -1 for arithmetic right shifts of negative
 * values), float to integer conversion of NaN or an infinity gives 0 and
 * saturates out of range (a negative value to an unsigned type goes
 * through the signed type of its width). Conversions are
 * rt_conv_<from>_<to>. Header only. */
#ifndef FUTHORC_RT_SCALAR_H
#define FUTHORC_RT_SCALAR_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/* How the operations are defined: static inline, or kept in the object
 * even when unused (the LLVM backend's runtime bitcode, runtime/llvm/glue.c,
 * whose functions the generated code calls by name). */
#ifndef RT_INLINE
#define RT_INLINE static inline
#endif

/* ---- Integers: NAME, C type, unsigned C type, W, bits --------------------- */

/* Products are computed in W, the unsigned type of the width but at least
 * unsigned int: uint8_t and uint16_t operands would be promoted to int,
 * whose products (65535 * 65535) overflow. */
#define RT_INT_COMMON(N, T, U, W, B)                                                               \
    RT_INLINE T rt_add_##N(T x, T y) { return (T)((U)x + (U)y); }                                  \
    RT_INLINE T rt_sub_##N(T x, T y) { return (T)((U)x - (U)y); }                                  \
    RT_INLINE T rt_mul_##N(T x, T y) { return (T)((W)(U)x * (W)(U)y); }                            \
    RT_INLINE T rt_neg_##N(T x) { return (T)(0 - (U)x); }                                          \
    RT_INLINE T rt_and_##N(T x, T y) { return (T)(x & y); }                                        \
    RT_INLINE T rt_or_##N(T x, T y) { return (T)(x | y); }                                         \
    RT_INLINE T rt_xor_##N(T x, T y) { return (T)(x ^ y); }                                        \
    RT_INLINE T rt_compl_##N(T x) { return (T)(~(U)x); }                                           \
    RT_INLINE T rt_shl_##N(T x, T y) { return (U)y >= B ? 0 : (T)((U)x << (U)y); }                 \
    RT_INLINE T rt_lshr_##N(T x, T y) { return (U)y >= B ? 0 : (T)((U)x >> (U)y); }                \
    RT_INLINE T rt_min_##N(T x, T y) { return x < y ? x : y; }                                     \
    RT_INLINE T rt_max_##N(T x, T y) { return x < y ? y : x; }                                     \
    RT_INLINE bool rt_eq_##N(T x, T y) { return x == y; }                                          \
    RT_INLINE bool rt_ne_##N(T x, T y) { return x != y; }                                          \
    RT_INLINE bool rt_lt_##N(T x, T y) { return x < y; }                                           \
    RT_INLINE bool rt_le_##N(T x, T y) { return x <= y; }                                          \
    RT_INLINE bool rt_gt_##N(T x, T y) { return x > y; }                                           \
    RT_INLINE bool rt_ge_##N(T x, T y) { return x >= y; }                                          \
    RT_INLINE int32_t rt_popc_##N(T x) { return (int32_t)__builtin_popcountll((uint64_t)(U)x); }     \
    RT_INLINE int32_t rt_clz_##N(T x) {                                                            \
        return (U)x == 0 ? B : (int32_t)(__builtin_clzll((uint64_t)(U)x) - (64 - B));              \
    }                                                                                              \
    RT_INLINE int32_t rt_ctz_##N(T x) { return (U)x == 0 ? B : (int32_t)__builtin_ctzll((uint64_t)(U)x); }     \
    RT_INLINE U rt_powu_##N(U b, U e) {                                                            \
        W r = 1, w = b;                                                                            \
        for (; e; e >>= 1, w = (U)(w * w))                                                         \
            if (e & 1) r = (U)(r * w);                                                             \
        return (U)r;                                                                               \
    }

/* Division by zero is checked by the program's assertions; here it gives 0
 * so that unchecked (--unsafe) code does not trap. */
#define RT_SIGNED(N, T, U, W, B)                                                                   \
    RT_INT_COMMON(N, T, U, W, B)                                                                   \
    RT_INLINE T rt_quot_##N(T x, T y) { return y == 0 ? 0 : y == -1 ? rt_neg_##N(x) : (T)(x / y); }     \
    RT_INLINE T rt_rem_##N(T x, T y) { return y == 0 || y == -1 ? 0 : (T)(x % y); }                \
    RT_INLINE T rt_div_##N(T x, T y) {                                                             \
        T q = rt_quot_##N(x, y);                                                                   \
        return (y != 0 && y != -1 && x % y != 0 && ((x < 0) != (y < 0))) ? (T)(q - 1) : q;         \
    }                                                                                              \
    RT_INLINE T rt_mod_##N(T x, T y) {                                                             \
        T r = rt_rem_##N(x, y);                                                                    \
        return (r != 0 && ((r < 0) != (y < 0))) ? (T)(r + y) : r;                                  \
    }                                                                                              \
    RT_INLINE T rt_shr_##N(T x, T y) { return (U)y >= B ? (x < 0 ? -1 : 0) : (T)(x >> y); }        \
    RT_INLINE T rt_abs_##N(T x) { return x < 0 ? rt_neg_##N(x) : x; }                              \
    RT_INLINE T rt_sgn_##N(T x) { return (T)((x > 0) - (x < 0)); }                              \
    RT_INLINE T rt_pow_##N(T x, T y) { return (T)rt_powu_##N((U)x, (U)y); }

#define RT_UNSIGNED(N, T, W, B)                                                                    \
    RT_INT_COMMON(N, T, T, W, B)                                                                   \
    RT_INLINE T rt_quot_##N(T x, T y) { return y == 0 ? 0 : (T)(x / y); }                          \
    RT_INLINE T rt_rem_##N(T x, T y) { return y == 0 ? 0 : (T)(x % y); }                           \
    RT_INLINE T rt_div_##N(T x, T y) { return rt_quot_##N(x, y); }                                 \
    RT_INLINE T rt_mod_##N(T x, T y) { return rt_rem_##N(x, y); }                                  \
    RT_INLINE T rt_shr_##N(T x, T y) { return rt_lshr_##N(x, y); }                                 \
    RT_INLINE T rt_abs_##N(T x) { return x; }                                                      \
    RT_INLINE T rt_sgn_##N(T x) { return (T)(x > 0); }                                          \
    RT_INLINE T rt_pow_##N(T x, T y) { return rt_powu_##N(x, y); }

/* The high half of the double-width product (mul_hi): OpenCL's builtin,
 * in C a product in the next wider type (__int128 for 64 bits). */
#ifdef __OPENCL_VERSION__
#define RT_MUL_HI(N, T, T2) RT_INLINE T rt_mul_hi_##N(T x, T y) { return mul_hi(x, y); }
#else
#define RT_MUL_HI(N, T, T2) RT_INLINE T rt_mul_hi_##N(T x, T y) { return (T)(((T2)x * (T2)y) >> (8 * sizeof(T))); }
#endif
RT_MUL_HI(i8, int8_t, int32_t)
RT_MUL_HI(i16, int16_t, int32_t)
RT_MUL_HI(i32, int32_t, int64_t)
RT_MUL_HI(u8, uint8_t, uint32_t)
RT_MUL_HI(u16, uint16_t, uint32_t)
RT_MUL_HI(u32, uint32_t, uint64_t)
#ifdef __OPENCL_VERSION__
RT_MUL_HI(i64, int64_t, int64_t)
RT_MUL_HI(u64, uint64_t, uint64_t)
#else
RT_MUL_HI(i64, int64_t, __int128)
RT_MUL_HI(u64, uint64_t, unsigned __int128)
#endif

RT_SIGNED(i8, int8_t, uint8_t, unsigned int, 8)
RT_SIGNED(i16, int16_t, uint16_t, unsigned int, 16)
RT_SIGNED(i32, int32_t, uint32_t, uint32_t, 32)
RT_SIGNED(i64, int64_t, uint64_t, uint64_t, 64)
RT_UNSIGNED(u8, uint8_t, unsigned int, 8)
RT_UNSIGNED(u16, uint16_t, unsigned int, 16)
RT_UNSIGNED(u32, uint32_t, uint32_t, 32)
RT_UNSIGNED(u64, uint64_t, uint64_t, 64)

/* The byte or element count of an allocation (OP_SIZE_MUL): x * y, but -1
 * when either is negative and INT64_MAX (never allocatable) when the
 * product does not fit, so an overflowing size fails to allocate instead
 * of allocating a block smaller than its array. */
RT_INLINE int64_t rt_size_mul_i64(int64_t x, int64_t y) {
    if (x < 0 || y < 0) return -1;
    return x != 0 && y > INT64_MAX / x ? INT64_MAX : x * y;
}

/* ---- Floats: NAME, C type, math.h suffix (f for float, empty for double) -- */

#define RT_FLOAT_FN1(N, T, S, OP, FN) RT_INLINE T rt_##OP##_##N(T x) { return FN##S(x); }
/* rsqrt: 1 / sqrt x, exactly in C; OpenCL's rsqrt in kernels (within 2
 * ulp, runtime/prelude.cl), and the LLVM backend's f32 rsqrt is the
 * processor's estimate refined by a Newton step, as Futhark's GPU backends
 * may compute it approximately too. */
#ifndef RT_RSQRT
#define RT_RSQRT(T, S, x) ((T)1 / sqrt##S(x))
#endif
#define RT_FLOAT(N, T, S)                                                                          \
    RT_INLINE T rt_add_##N(T x, T y) { return x + y; }                                             \
    RT_INLINE T rt_sub_##N(T x, T y) { return x - y; }                                             \
    RT_INLINE T rt_mul_##N(T x, T y) { return x * y; }                                             \
    RT_INLINE T rt_div_##N(T x, T y) { return x / y; }                                             \
    RT_INLINE T rt_mod_##N(T x, T y) { return fmod##S(x, y); }                                     \
    RT_INLINE T rt_pow_##N(T x, T y) { return pow##S(x, y); }                                      \
    RT_INLINE T rt_min_##N(T x, T y) { return fmin##S(x, y); }                                     \
    RT_INLINE T rt_max_##N(T x, T y) { return fmax##S(x, y); }                                     \
    RT_INLINE T rt_atan2_##N(T x, T y) { return atan2##S(x, y); }                                 \
    RT_INLINE T rt_hypot_##N(T x, T y) { return hypot##S(x, y); }                                 \
    RT_INLINE T rt_neg_##N(T x) { return -x; }                                                     \
    RT_INLINE T rt_abs_##N(T x) { return fabs##S(x); }                                            \
    RT_INLINE T rt_sgn_##N(T x) { return x > 0 ? (T)1 : x < 0 ? (T)-1 : x; }                       \
    RT_INLINE T rt_round_##N(T x) { return rint##S(x); }                                           \
    RT_INLINE bool rt_isnan_##N(T x) { return isnan(x); }                                          \
    RT_INLINE bool rt_isinf_##N(T x) { return isinf(x); }                                          \
    RT_INLINE bool rt_eq_##N(T x, T y) { return x == y; }                                          \
    RT_INLINE bool rt_ne_##N(T x, T y) { return x != y; }                                          \
    RT_INLINE bool rt_lt_##N(T x, T y) { return x < y; }                                           \
    RT_INLINE bool rt_le_##N(T x, T y) { return x <= y; }                                          \
    RT_INLINE bool rt_gt_##N(T x, T y) { return x > y; }                                           \
    RT_INLINE bool rt_ge_##N(T x, T y) { return x >= y; }                                          \
    RT_FLOAT_FN1(N, T, S, sqrt, sqrt) RT_FLOAT_FN1(N, T, S, cbrt, cbrt)                            \
    RT_INLINE T rt_rsqrt_##N(T x) { return RT_RSQRT(T, S, x); }                                   \
    RT_FLOAT_FN1(N, T, S, exp, exp) RT_FLOAT_FN1(N, T, S, log, log)                                \
    RT_FLOAT_FN1(N, T, S, log2, log2) RT_FLOAT_FN1(N, T, S, log10, log10)                          \
    RT_FLOAT_FN1(N, T, S, sin, sin) RT_FLOAT_FN1(N, T, S, cos, cos)                                \
    RT_FLOAT_FN1(N, T, S, tan, tan) RT_FLOAT_FN1(N, T, S, asin, asin)                              \
    RT_FLOAT_FN1(N, T, S, acos, acos) RT_FLOAT_FN1(N, T, S, atan, atan)                            \
    RT_FLOAT_FN1(N, T, S, sinh, sinh) RT_FLOAT_FN1(N, T, S, cosh, cosh)                            \
    RT_FLOAT_FN1(N, T, S, tanh, tanh) RT_FLOAT_FN1(N, T, S, floor, floor)                          \
    RT_FLOAT_FN1(N, T, S, ceil, ceil) RT_FLOAT_FN1(N, T, S, trunc, trunc)                          \
    RT_FLOAT_FN1(N, T, S, asinh, asinh) RT_FLOAT_FN1(N, T, S, acosh, acosh)                        \
    RT_FLOAT_FN1(N, T, S, atanh, atanh) RT_FLOAT_FN1(N, T, S, log1p, log1p)                        \
    RT_FLOAT_FN1(N, T, S, gamma, tgamma) RT_FLOAT_FN1(N, T, S, lgamma, lgamma)                     \
    RT_FLOAT_FN1(N, T, S, erf, erf) RT_FLOAT_FN1(N, T, S, erfc, erfc)                              \
    RT_INLINE T rt_nextafter_##N(T x, T y) { return nextafter##S(x, y); }                         \
    RT_INLINE T rt_copysign_##N(T x, T y) { return copysign##S(x, y); }                           \
    RT_INLINE T rt_fma_##N(T x, T y, T z) { return fma##S(x, y, z); }                             \
    /* y is integral; beyond +-100000 every result is already 0 or infinite */                   \
    RT_INLINE T rt_ldexp_##N(T x, T y) {                                                           \
        return ldexp##S(x, y > 100000 ? 100000 : y < -100000 ? -100000 : (int)y);                  \
    }

/* A float's bits and back, through a union (defined in C11 and OpenCL C). */
#define RT_BITS(N, T, UN, U)                                                                       \
    RT_INLINE U rt_to_bits_##N(T x) {                                                              \
        union { T f; U u; } b;                                                                     \
        b.f = x;                                                                                   \
        return b.u;                                                                                \
    }                                                                                              \
    RT_INLINE T rt_from_bits_##UN(U x) {                                                           \
        union { T f; U u; } b;                                                                     \
        b.u = x;                                                                                   \
        return b.f;                                                                                \
    }

RT_FLOAT(f32, float, f)
RT_FLOAT(f64, double, )
RT_BITS(f32, float, u32, uint32_t)
RT_BITS(f64, double, u64, uint64_t)

/* ---- Half precision ------------------------------------------------------- */

/* An f16 is held as its IEEE binary16 bits (a uint16_t) in memory and at
 * the C API; generated code computes with the float of the same value and
 * rounds each result back to half precision (compiler/imp/half.c), which
 * for +, -, *, / and sqrt is exactly binary16 arithmetic (a float has more
 * than twice the bits of the half's significand, plus two). These are the
 * conversions, in integer arithmetic on the bits, so that they need no
 * half type in C, OpenCL C or LLVM's runtime bitcode. */

/* The float of half bits h (exact; a NaN keeps its sign and payload). */
RT_INLINE float rt_conv_f16_f32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (uint32_t)(h >> 10) & 0x1fu, m = h & 0x3ffu;
    union { float f; uint32_t u; } b;
    if (e == 0) { /* zero or subnormal: m * 2^-24, exact in a float */
        float f = (float)m * 5.9604644775390625e-8f;
        return sign ? -f : f;
    }
    b.u = sign | (e == 0x1f ? 0x7f800000u | (m << 13) : ((e + 112u) << 23) | (m << 13));
    return b.f;
}

/* The half bits nearest to x (ties to even; beyond the largest half,
 * 65504, from 65520 on, infinity; a NaN stays a quiet NaN of x's sign). */
RT_INLINE uint16_t rt_conv_f64_f16(double x) {
    union { double f; uint64_t u; } b;
    b.f = x;
    uint16_t sign = (uint16_t)((b.u >> 48) & 0x8000u);
    uint64_t a = b.u & 0x7fffffffffffffffUL;
    if (a > 0x7ff0000000000000UL) return (uint16_t)(sign | 0x7e00u | ((a >> 42) & 0x1ffu));
    if (a >= 0x40effe0000000000UL) return (uint16_t)(sign | 0x7c00u); /* 65520 and up */
    if (a >= 0x3f10000000000000UL) { /* 2^-14 and up: a normal half */
        uint64_t r = a - ((uint64_t)1008 << 52), q = r >> 42, rest = r & 0x3ffffffffffUL;
        if (rest > 0x20000000000UL || (rest == 0x20000000000UL && (q & 1))) q++;
        return (uint16_t)(sign | q);
    }
    /* a subnormal half or zero: the nearest multiple of 2^-24 (scaling by
     * 2^24 is exact; rint rounds ties to even) */
    return (uint16_t)(sign | (uint16_t)rint(fabs(x) * 16777216.0));
}

RT_INLINE uint16_t rt_conv_f32_f16(float x) { return rt_conv_f64_f16((double)x); }

/* An f16's bits and back: its representation already. */
RT_INLINE uint16_t rt_to_bits_f16(uint16_t x) { return x; }
RT_INLINE uint16_t rt_from_bits_u16(uint16_t x) { return x; }

/* ---- Booleans ------------------------------------------------------------- */

RT_INLINE bool rt_land_bool(bool x, bool y) { return x && y; }
RT_INLINE bool rt_lor_bool(bool x, bool y) { return x || y; }
RT_INLINE bool rt_not_bool(bool x) { return !x; }
RT_INLINE bool rt_eq_bool(bool x, bool y) { return x == y; }
RT_INLINE bool rt_ne_bool(bool x, bool y) { return x != y; }
RT_INLINE bool rt_lt_bool(bool x, bool y) { return !x && y; }
RT_INLINE bool rt_le_bool(bool x, bool y) { return !x || y; }
RT_INLINE bool rt_gt_bool(bool x, bool y) { return x && !y; }
RT_INLINE bool rt_ge_bool(bool x, bool y) { return x || !y; }

/* ---- Conversions ---------------------------------------------------------- */

/* Float to integer, as prim_convert (compiler/ir/prim.c) and, where
 * Futhark defines it, as Futhark: NaN and the infinities give 0; other
 * values are truncated towards zero and saturate to the type's range,
 * but a negative value converted to an unsigned type goes through the
 * signed type of its width (u8.f32 (-1) is 255, as Futhark's
 * (uint8_t)(int8_t)x). */
#define RT_F2S(F, TF, N, T, LO, HI)                                                                \
    RT_INLINE T rt_conv_##F##_##N(TF x) {                                                          \
        if (isnan(x) || isinf(x)) return 0;                                                        \
        if (x <= (TF)(LO)) return LO;                                                              \
        if (x >= (TF)(HI)) return HI;                                                              \
        return (T)x;                                                                               \
    }
#define RT_F2U(F, TF, N, T, S, SLO, HI)                                                            \
    RT_INLINE T rt_conv_##F##_##N(TF x) {                                                          \
        if (isnan(x) || isinf(x)) return 0;                                                        \
        if (x < 0) return (T)(x <= (TF)(SLO) ? (S)(SLO) : (S)x);                                   \
        if (x >= (TF)(HI)) return HI;                                                              \
        return (T)x;                                                                               \
    }
#define RT_F2I_ALL(F, TF)                                                                          \
    RT_F2S(F, TF, i8, int8_t, INT8_MIN, INT8_MAX)                                                  \
    RT_F2S(F, TF, i16, int16_t, INT16_MIN, INT16_MAX)                                              \
    RT_F2S(F, TF, i32, int32_t, INT32_MIN, INT32_MAX)                                              \
    RT_F2S(F, TF, i64, int64_t, INT64_MIN, INT64_MAX)                                              \
    RT_F2U(F, TF, u8, uint8_t, int8_t, INT8_MIN, UINT8_MAX)                                        \
    RT_F2U(F, TF, u16, uint16_t, int16_t, INT16_MIN, UINT16_MAX)                                   \
    RT_F2U(F, TF, u32, uint32_t, int32_t, INT32_MIN, UINT32_MAX)                                   \
    RT_F2U(F, TF, u64, uint64_t, int64_t, INT64_MIN, UINT64_MAX)                                   \
    RT_INLINE float rt_conv_##F##_f32(TF x) { return (float)x; }                                   \
    RT_INLINE double rt_conv_##F##_f64(TF x) { return (double)x; }                                \
    RT_INLINE bool rt_conv_##F##_bool(TF x) { return x != 0; }
RT_F2I_ALL(f32, float)
RT_F2I_ALL(f64, double)

/* Integer (and bool) sources: truncation modulo 2^n; extension is a
 * sign extension only from a signed to a signed type and a zero extension
 * otherwise (Futhark's u64.i32 (-1) is 4294967295, as prim_convert); to
 * bool is != 0. UF is the unsigned type as wide as the source. */
#define RT_X2(F, TF, UF)                                                                           \
    RT_INLINE int8_t rt_conv_##F##_i8(TF x) { return (int8_t)x; }                                 \
    RT_INLINE int16_t rt_conv_##F##_i16(TF x) { return (int16_t)x; }                              \
    RT_INLINE int32_t rt_conv_##F##_i32(TF x) { return (int32_t)x; }                               \
    RT_INLINE int64_t rt_conv_##F##_i64(TF x) { return (int64_t)x; }                               \
    RT_INLINE uint8_t rt_conv_##F##_u8(TF x) { return (uint8_t)(UF)x; }                                \
    RT_INLINE uint16_t rt_conv_##F##_u16(TF x) { return (uint16_t)(UF)x; }                             \
    RT_INLINE uint32_t rt_conv_##F##_u32(TF x) { return (uint32_t)(UF)x; }                             \
    RT_INLINE uint64_t rt_conv_##F##_u64(TF x) { return (uint64_t)(UF)x; }                             \
    RT_INLINE float rt_conv_##F##_f32(TF x) { return (float)x; }                                   \
    RT_INLINE double rt_conv_##F##_f64(TF x) { return (double)x; }                                \
    RT_INLINE bool rt_conv_##F##_bool(TF x) { return x != 0; }
RT_X2(i8, int8_t, uint8_t)
RT_X2(i16, int16_t, uint16_t)
RT_X2(i32, int32_t, uint32_t)
RT_X2(i64, int64_t, uint64_t)
RT_X2(u8, uint8_t, uint8_t)
RT_X2(u16, uint16_t, uint16_t)
RT_X2(u32, uint32_t, uint32_t)
RT_X2(u64, uint64_t, uint64_t)
RT_X2(bool, bool, bool)

#endif
