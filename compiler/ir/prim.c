/* Primitive types, primitive values, the operation table (prim.def and
 * ops.def) and constant evaluation of every scalar operation.
 *
 * Semantics of prim_eval. The constant folder, any interpreter and the
 * generated C must all implement exactly these rules:
 *
 * Integers (i8..i64, u8..u64) are two's complement of their width; every
 * result wraps modulo 2^width.
 *  - add, sub, mul, neg, abs, compl wrap (abs of the most negative signed
 *    value is itself; abs and neg of unsigned values: abs is the identity,
 *    neg wraps).
 *  - div rounds towards negative infinity and mod takes the sign of the
 *    divisor (x == div(x,y)*y + mod(x,y)); quot rounds towards zero and rem
 *    takes the sign of the dividend (C's / and %). Unsigned types use plain
 *    unsigned division for both. The most negative value divided by -1
 *    wraps to itself, with modulo/remainder 0. Division or modulo by zero is
 *    not folded (prim_eval returns false); internalisation guards it.
 *  - pow is exponentiation by squaring with wrapping multiplication; x**0 is
 *    1 (also 0**0). A negative exponent of a signed type is not folded
 *    (Futhark's own folder and interpreter reject it); at run time the
 *    exponent's bits are then read as unsigned, as Futhark's C does.
 *  - shl, shr, lshr take the shift amount as the unsigned value of the
 *    right operand's bits. An amount >= width gives 0 for shl and lshr, and
 *    for shr gives 0 or -1 by the sign of a signed left operand (0 for
 *    unsigned). shr is arithmetic for signed types, logical for unsigned;
 *    lshr is always logical on the width's bits.
 *  - min, max and comparisons are signed or unsigned per the type.
 *  - sgn is -1/0/1 (0/1 for unsigned). popc, clz, ctz count within the
 *    width and return i32; clz 0 and ctz 0 are the width.
 *  - size_mul (i64 allocation sizes only) does not wrap: it is -1 when an
 *    operand is negative and INT64_MAX when the product does not fit.
 * Floats: f32 operations are computed in single precision (float
 * arithmetic and the f-suffixed <math.h> functions), f64 in double; f16
 * operations as f32 ones whose result is rounded to half precision (as the
 * generated code computes them: compiler/imp/half.c).
 *  - div is IEEE division; mod is C fmod (sign of the dividend); pow is C
 *    pow; min and max are C fmin and fmax (a NaN operand yields the other).
 *  - round is rint under the default rounding mode: ties to even.
 *  - sgn is -1, 0 or 1, and NaN for NaN. abs is fabs.
 *  - comparisons are IEEE (every comparison with NaN is false except ne).
 * Booleans: land, lor, not; comparisons order false < true.
 *
 * Conversions (prim_convert): integer to integer wraps; a signed source
 * is sign-extended into a signed type and zero-extended into an unsigned
 * one, as Futhark's prelude does (u8 255 becomes i32 255, i8 -1 becomes
 * u16 255 and i32 -1 becomes i64 -1); integer to float rounds to nearest once; float to float rounds
 * to nearest (overflow gives inf); anything to bool is != 0 (NaN is true);
 * bool to a number is 0 or 1. Float to integer truncates towards zero and
 * saturates to the type's range, NaN and the infinities give 0 (as
 * Futhark), and a negative value converted to an unsigned type goes
 * through the signed type of the same width (u8.f64 (-1) is 255, as
 * Futhark's C). This is C's cast where C defines it, and defined
 * everywhere else. */
#include "prim.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scalar.h" /* the runtime's half-precision conversions */

/* ---- Tables ---------------------------------------------------------------- */

typedef struct PrimInfo {
    const char *name, *ctype;
    int size;
    PrimClass cls;
} PrimInfo;

static const PrimInfo prim_info[PT_COUNT] = {
#define X(e, name, ctype, size, cls) [e] = {name, #ctype, size, PC_##cls},
#include "prim.def"
#undef X
};

/* Operand classes and result kinds, as spelled in ops.def. */
typedef enum OperandClass { OC_ANY, OC_NUM, OC_INT, OC_FLT, OC_BOOLS, OC_UBITS } OperandClass;
typedef enum ResultKind { RK_SAME, RK_BOOLR, RK_I32R, RK_I64R, RK_UBITS, RK_FBITS } ResultKind;

typedef struct OpInfo {
    const char *name;
    int arity;
    OperandClass operands;
    ResultKind result;
    const char *cspell;
} OpInfo;

static const OpInfo op_info[OP_COUNT] = {
#define X(e, name, arity, operands, result, cspell) \
    [e] = {name, arity, OC_##operands, RK_##result, cspell},
#include "ops.def"
#undef X
};

static bool prim_valid(PrimType t) { return (unsigned)t < PT_COUNT; }
static bool op_valid(Op op) { return (unsigned)op < OP_COUNT; }

const char *prim_name(PrimType t) { return prim_valid(t) ? prim_info[t].name : "?"; }
const char *prim_ctype(PrimType t) { return prim_valid(t) ? prim_info[t].ctype : "?"; }
int prim_size(PrimType t) { return prim_valid(t) ? prim_info[t].size : 0; }
PrimClass prim_class(PrimType t) { return prim_valid(t) ? prim_info[t].cls : PC_BOOL; }

bool prim_is_int(PrimType t) {
    PrimClass c = prim_class(t);
    return prim_valid(t) && (c == PC_SIGNED || c == PC_UNSIGNED);
}

bool prim_is_float(PrimType t) { return prim_valid(t) && prim_class(t) == PC_FLOAT; }

bool prim_from_name(const char *name, PrimType *out) {
    for (int t = 0; t < PT_COUNT; t++) {
        if (name && strcmp(name, prim_info[t].name) == 0) {
            *out = (PrimType)t;
            return true;
        }
    }
    return false;
}

const char *op_name(Op op) { return op_valid(op) ? op_info[op].name : "?"; }
int op_arity(Op op) { return op_valid(op) ? op_info[op].arity : 0; }
const char *op_cspelling(Op op) { return op_valid(op) ? op_info[op].cspell : "?"; }

bool op_accepts(Op op, PrimType t) {
    if (!op_valid(op) || !prim_valid(t)) return false;
    switch (op_info[op].operands) {
    case OC_ANY: return true;
    case OC_NUM: return prim_class(t) != PC_BOOL;
    case OC_INT: return prim_is_int(t);
    case OC_FLT: return prim_is_float(t);
    case OC_BOOLS: return t == PT_BOOL;
    case OC_UBITS: return t == PT_U16 || t == PT_U32 || t == PT_U64;
    }
    return false;
}

PrimType op_result(Op op, PrimType operand) {
    if (!op_valid(op)) return operand;
    switch (op_info[op].result) {
    case RK_SAME: return operand;
    case RK_BOOLR: return PT_BOOL;
    case RK_I32R: return PT_I32;
    case RK_I64R: return PT_I64;
    case RK_UBITS: return prim_size(operand) == 2 ? PT_U16 : prim_size(operand) == 4 ? PT_U32 : PT_U64;
    case RK_FBITS: return prim_size(operand) == 2 ? PT_F16 : prim_size(operand) == 4 ? PT_F32 : PT_F64;
    }
    return operand;
}

/* ---- Constructors and conversions ---------------------------------------- */

static int prim_bits(PrimType t) { return 8 * prim_size(t); }

/* All ones in the low `bits` bits. */
static uint64_t low_mask(int bits) { return bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1; }

/* Reduces u modulo 2^width of integer type t and sign- or zero-extends. */
static int64_t wrap_bits(PrimType t, uint64_t u) {
    int bits = prim_bits(t);
    uint64_t m = low_mask(bits);
    u &= m;
    if (prim_class(t) == PC_SIGNED && bits < 64 && (u >> (bits - 1)) & 1) u |= ~m;
    int64_t r;
    memcpy(&r, &u, sizeof r);
    return r;
}

PrimValue prim_bool(bool b) {
    PrimValue v = {.type = PT_BOOL};
    v.v.b = b;
    return v;
}

PrimValue prim_int(PrimType t, int64_t v) {
    if (t == PT_BOOL) return prim_bool(v != 0);
    if (prim_is_float(t)) return prim_float(t, (double)v);
    PrimValue r = {.type = t};
    r.v.i = wrap_bits(t, (uint64_t)v);
    return r;
}

PrimValue prim_float(PrimType t, double v) {
    if (t == PT_BOOL) return prim_bool(v != 0);
    if (prim_is_int(t)) return prim_convert((PrimValue){.type = PT_F64, .v.f = v}, t);
    PrimValue r = {.type = t};
    r.v.f = t == PT_F32 ? (double)(float)v : t == PT_F16 ? (double)rt_conv_f16_f32(rt_conv_f64_f16(v)) : v;
    return r;
}

/* d truncated towards zero and saturated to integer type t, NaN and the
 * infinities 0, a negative d of an unsigned type through the signed type
 * of its width (runtime/scalar.h's rt_conv). */
static PrimValue float_to_int(PrimType t, double d) {
    int bits = prim_bits(t);
    if (isnan(d) || isinf(d)) return prim_int(t, 0);
    d = trunc(d);
    double lim = ldexp(1.0, bits - 1); /* 2^(bits-1), exact */
    if (prim_class(t) == PC_SIGNED || d < 0) {
        if (d >= lim) return prim_int(t, (int64_t)(low_mask(bits - 1)));
        if (d <= -lim) return prim_int(t, -(int64_t)low_mask(bits - 1) - 1);
        return prim_int(t, (int64_t)d);
    }
    if (d >= ldexp(1.0, bits)) return prim_int(t, (int64_t)low_mask(bits));
    return prim_int(t, (int64_t)(uint64_t)d);
}

/* Converts integer value v to float type t, rounding once. */
static PrimValue int_to_float(PrimValue v, PrimType t) {
    bool u = prim_class(v.type) == PC_UNSIGNED;
    uint64_t uv = (uint64_t)v.v.i;
    PrimValue r = {.type = t};
    if (t == PT_F32) r.v.f = u ? (double)(float)uv : (double)(float)v.v.i;
    else r.v.f = u ? (double)uv : (double)v.v.i;
    return t == PT_F16 ? prim_float(t, r.v.f) : r; /* past 2^53, inf either way */
}

PrimValue prim_convert(PrimValue v, PrimType to) {
    if (!prim_valid(v.type) || !prim_valid(to)) return v;
    switch (prim_class(v.type)) {
    case PC_BOOL:
        if (prim_is_float(to)) return prim_float(to, v.v.b ? 1.0 : 0.0);
        return prim_int(to, v.v.b ? 1 : 0);
    case PC_FLOAT:
        if (to == PT_BOOL) return prim_bool(v.v.f != 0);
        if (prim_is_float(to)) return prim_float(to, v.v.f);
        return float_to_int(to, v.v.f);
    case PC_SIGNED:
    case PC_UNSIGNED:
        if (to == PT_BOOL) return prim_bool(v.v.i != 0);
        if (prim_is_float(to)) return int_to_float(v, to);
        /* a signed source extends by sign only into a signed type */
        if (prim_class(v.type) == PC_SIGNED && prim_class(to) == PC_UNSIGNED)
            return prim_int(to, (int64_t)((uint64_t)v.v.i & low_mask(prim_bits(v.type))));
        return prim_int(to, v.v.i);
    }
    return v;
}

/* ---- Formatting ------------------------------------------------------------ */

/* Longest float text: sign, 17 digits, point, exponent, suffix. */
enum { PRIM_FLOAT_TEXT_MAX = 48 };

/* Rewrites a %g exponent "e+07" / "e-05" as "e7" / "e-5". */
static void tidy_exponent(char *s) {
    char *e = strchr(s, 'e');
    if (!e) return;
    char *p = e + 1, *w = e + 1;
    if (*p == '+') p++;
    else if (*p == '-') *w++ = *p++;
    while (*p == '0' && p[1]) p++;
    memmove(w, p, strlen(p) + 1);
}

/* The shortest %g text (up to 9 digits for f16 and f32, 17 for f64) that
 * reads back as exactly d, a value of type t. */
static void format_float(char *out, double d, PrimType t) {
    int maxp = t == PT_F64 ? 17 : 9;
    for (int p = 1; p <= maxp; p++) {
        snprintf(out, PRIM_FLOAT_TEXT_MAX, "%.*g", p, d);
        double back = t == PT_F32 ? (double)strtof(out, NULL) : prim_float(t, strtod(out, NULL)).v.f;
        if (back == d) break;
    }
    tidy_exponent(out);
}

char *prim_format(PrimValue v, char *buf, int size) {
    if (!buf || size <= 0) return buf;
    const char *suf = prim_name(v.type);
    char num[PRIM_FLOAT_TEXT_MAX];
    switch (prim_class(v.type)) {
    case PC_BOOL: snprintf(buf, (size_t)size, "%s", v.v.b ? "true" : "false"); break;
    case PC_SIGNED: snprintf(buf, (size_t)size, "%lld%s", (long long)v.v.i, suf); break;
    case PC_UNSIGNED:
        snprintf(buf, (size_t)size, "%llu%s", (unsigned long long)(uint64_t)v.v.i, suf);
        break;
    case PC_FLOAT:
        if (isnan(v.v.f)) snprintf(buf, (size_t)size, "%s.nan", suf);
        else if (isinf(v.v.f)) snprintf(buf, (size_t)size, "%s%s.inf", v.v.f < 0 ? "-" : "", suf);
        else {
            format_float(num, v.v.f, v.type);
            snprintf(buf, (size_t)size, "%s%s", num, suf);
        }
        break;
    }
    return buf;
}

/* ---- Constant evaluation: integers ---------------------------------------- */

/* One integer operation's operands, seen every way the rules need. */
typedef struct IntArgs {
    PrimType t;
    int bits;
    bool sgn;
    int64_t x, y;   /* sign- or zero-extended values */
    uint64_t ux, uy; /* the same bits as unsigned 64-bit values */
} IntArgs;

static PrimValue int_result(const IntArgs *a, uint64_t u) {
    PrimValue r = {.type = a->t};
    r.v.i = wrap_bits(a->t, u);
    return r;
}

/* x < y for the type's signedness. */
static bool int_less(const IntArgs *a) { return a->sgn ? a->x < a->y : a->ux < a->uy; }

/* Signed division rounding towards negative infinity (floor) or zero. */
static bool int_divide(const IntArgs *a, Op op, PrimValue *out) {
    if (a->y == 0) return false;
    if (!a->sgn) {
        uint64_t q = a->ux / a->uy, r = a->ux % a->uy;
        *out = int_result(a, op == OP_DIV || op == OP_QUOT ? q : r);
        return true;
    }
    if (a->x == INT64_MIN && a->y == -1) { /* only i64 gets here: wraps */
        *out = int_result(a, op == OP_DIV || op == OP_QUOT ? (uint64_t)INT64_MIN : 0);
        return true;
    }
    int64_t q = a->x / a->y, r = a->x % a->y;
    bool adjust = r != 0 && ((r < 0) != (a->y < 0));
    switch (op) {
    case OP_DIV: q -= adjust; *out = int_result(a, (uint64_t)q); break;
    case OP_MOD: *out = int_result(a, (uint64_t)(adjust ? r + a->y : r)); break;
    case OP_QUOT: *out = int_result(a, (uint64_t)q); break;
    default: *out = int_result(a, (uint64_t)r); break;
    }
    return true;
}

/* Exponentiation by squaring with wrapping; negative signed exponents are
 * not folded. */
static bool int_pow(const IntArgs *a, PrimValue *out) {
    if (a->sgn && a->y < 0) return false;
    uint64_t base = a->ux, e = a->uy & low_mask(a->bits), r = 1;
    while (e) {
        if (e & 1) r *= base;
        base *= base;
        e >>= 1;
    }
    *out = int_result(a, r);
    return true;
}

/* Shifts: the amount is the right operand's bits read as unsigned. */
static PrimValue int_shift(const IntArgs *a, Op op) {
    uint64_t amount = a->uy & low_mask(a->bits);
    uint64_t bits = a->ux & low_mask(a->bits);
    bool big = amount >= (uint64_t)a->bits;
    if (op == OP_SHL) return int_result(a, big ? 0 : a->ux << amount);
    if (op == OP_LSHR || !a->sgn) return int_result(a, big ? 0 : bits >> amount);
    /* arithmetic: shift the complement of negatives to stay defined */
    bool neg = a->x < 0;
    if (big) return int_result(a, neg ? ~(uint64_t)0 : 0);
    uint64_t s = neg ? ~(~a->ux >> amount) : a->ux >> amount;
    return int_result(a, s);
}

/* popc, clz, ctz within the width; results are i32. */
static PrimValue int_count(const IntArgs *a, Op op) {
    uint64_t bits = a->ux & low_mask(a->bits);
    int n;
    if (op == OP_POPC) n = __builtin_popcountll(bits);
    else if (bits == 0) n = a->bits;
    else if (op == OP_CLZ) n = __builtin_clzll(bits) - (64 - a->bits);
    else n = __builtin_ctzll(bits);
    return prim_int(PT_I32, n);
}

static bool int_compare(const IntArgs *a, Op op, PrimValue *out) {
    bool lt = int_less(a), eq = a->x == a->y;
    switch (op) {
    case OP_EQ: *out = prim_bool(eq); return true;
    case OP_NE: *out = prim_bool(!eq); return true;
    case OP_LT: *out = prim_bool(lt); return true;
    case OP_LE: *out = prim_bool(lt || eq); return true;
    case OP_GT: *out = prim_bool(!lt && !eq); return true;
    case OP_GE: *out = prim_bool(!lt); return true;
    default: return false;
    }
}

/* Unary integer operations. */
static bool int_unary(const IntArgs *a, Op op, PrimValue *out) {
    switch (op) {
    case OP_NEG: *out = int_result(a, 0 - a->ux); return true;
    case OP_COMPL: *out = int_result(a, ~a->ux); return true;
    case OP_ABS: *out = int_result(a, a->sgn && a->x < 0 ? 0 - a->ux : a->ux); return true;
    case OP_SGN:
        *out = int_result(a, (uint64_t)(a->sgn ? (a->x > 0) - (a->x < 0) : a->ux != 0));
        return true;
    case OP_POPC:
    case OP_CLZ:
    case OP_CTZ: *out = int_count(a, op); return true;
    default: return false;
    }
}

/* The high half of the double-width product, signed or unsigned as the type. */
static PrimValue int_mul_hi(const IntArgs *a) {
    uint64_t hi;
    if (a->sgn) hi = (uint64_t)(int64_t)(((__int128)a->x * (__int128)a->y) >> a->bits);
    else {
        unsigned __int128 m = low_mask(a->bits);
        hi = (uint64_t)((((unsigned __int128)a->ux & m) * ((unsigned __int128)a->uy & m)) >> a->bits);
    }
    return int_result(a, hi);
}

/* from_bits: the float whose bits are a u32 or u64; NaNs are left to run
 * time, as a signalling NaN's payload could change on the way through double. */
static bool bits_to_float(const IntArgs *a, PrimValue *out) {
    double d;
    if (a->bits == 16) d = rt_conv_f16_f32((uint16_t)a->ux);
    else if (a->bits == 32) {
        uint32_t u = (uint32_t)a->ux;
        float f;
        memcpy(&f, &u, sizeof f);
        d = f;
    } else if (a->bits == 64) memcpy(&d, &a->ux, sizeof d);
    else return false;
    if (isnan(d)) return false;
    *out = prim_float(a->bits == 16 ? PT_F16 : a->bits == 32 ? PT_F32 : PT_F64, d);
    return true;
}

int64_t prim_size_mul(int64_t x, int64_t y) {
    if (x < 0 || y < 0) return -1;
    if (x != 0 && y > INT64_MAX / x) return INT64_MAX;
    return x * y;
}

static bool eval_int(Op op, const PrimValue *args, PrimValue *out) {
    IntArgs a = {.t = args[0].type, .bits = prim_bits(args[0].type),
                 .sgn = prim_class(args[0].type) == PC_SIGNED, .x = args[0].v.i};
    a.ux = (uint64_t)a.x;
    if (op_arity(op) == 2) {
        a.y = args[1].v.i;
        a.uy = (uint64_t)a.y;
    }
    switch (op) {
    case OP_ADD: *out = int_result(&a, a.ux + a.uy); return true;
    case OP_SUB: *out = int_result(&a, a.ux - a.uy); return true;
    case OP_MUL: *out = int_result(&a, a.ux * a.uy); return true;
    case OP_DIV:
    case OP_MOD:
    case OP_QUOT:
    case OP_REM: return int_divide(&a, op, out);
    case OP_POW: return int_pow(&a, out);
    case OP_SIZE_MUL: *out = prim_int(a.t, prim_size_mul(a.x, a.y)); return true;
    case OP_MUL_HI: *out = int_mul_hi(&a); return true;
    case OP_FROM_BITS: return bits_to_float(&a, out);
    case OP_MIN: *out = int_result(&a, int_less(&a) ? a.ux : a.uy); return true;
    case OP_MAX: *out = int_result(&a, int_less(&a) ? a.uy : a.ux); return true;
    case OP_AND: *out = int_result(&a, a.ux & a.uy); return true;
    case OP_OR: *out = int_result(&a, a.ux | a.uy); return true;
    case OP_XOR: *out = int_result(&a, a.ux ^ a.uy); return true;
    case OP_SHL:
    case OP_SHR:
    case OP_LSHR: *out = int_shift(&a, op); return true;
    default: return int_compare(&a, op, out) || int_unary(&a, op, out);
    }
}

/* ---- Constant evaluation: floats ------------------------------------------- */

/* Applies the single- or double-precision version of a <math.h> function. */
#define FMATH1(f32, name, x) ((f32) ? (double)name##f((float)(x)) : name(x))
#define FMATH2(f32, name, x, y) ((f32) ? (double)name##f((float)(x), (float)(y)) : name((x), (y)))

static double float_sgn(double x) { return isnan(x) ? x : (double)((x > 0) - (x < 0)); }

/* ldexp's exponent, an integral float, clamped to a range where every
 * result has already overflowed to infinity or underflowed to zero (as
 * runtime/scalar.h's rt_ldexp). */
static int float_exponent(double y) { return y > 100000 ? 100000 : y < -100000 ? -100000 : (int)y; }

/* Binary float arithmetic; false for operations that are not arithmetic. */
static bool float_binary(Op op, bool f32, double x, double y, double *r) {
    float fx = (float)x, fy = (float)y;
    switch (op) {
    case OP_ADD: *r = f32 ? (double)(fx + fy) : x + y; return true;
    case OP_SUB: *r = f32 ? (double)(fx - fy) : x - y; return true;
    case OP_MUL: *r = f32 ? (double)(fx * fy) : x * y; return true;
    case OP_DIV: *r = f32 ? (double)(fx / fy) : x / y; return true;
    case OP_MOD: *r = FMATH2(f32, fmod, x, y); return true;
    case OP_POW: *r = FMATH2(f32, pow, x, y); return true;
    case OP_MIN: *r = FMATH2(f32, fmin, x, y); return true;
    case OP_MAX: *r = FMATH2(f32, fmax, x, y); return true;
    case OP_ATAN2: *r = FMATH2(f32, atan2, x, y); return true;
    case OP_HYPOT: *r = FMATH2(f32, hypot, x, y); return true;
    case OP_NEXTAFTER: *r = FMATH2(f32, nextafter, x, y); return true;
    case OP_COPYSIGN: *r = FMATH2(f32, copysign, x, y); return true;
    case OP_LDEXP: *r = f32 ? (double)ldexpf(fx, float_exponent(y)) : ldexp(x, float_exponent(y)); return true;
    default: return false;
    }
}

/* Unary float functions. */
static bool float_unary(Op op, bool f32, double x, double *r) {
    switch (op) {
    case OP_NEG: *r = -x; return true;
    case OP_ABS: *r = fabs(x); return true;
    case OP_SGN: *r = float_sgn(x); return true;
    case OP_SQRT: *r = FMATH1(f32, sqrt, x); return true;
    case OP_RSQRT: *r = f32 ? (double)(1.0f / sqrtf((float)x)) : 1.0 / sqrt(x); return true;
    case OP_CBRT: *r = FMATH1(f32, cbrt, x); return true;
    case OP_EXP: *r = FMATH1(f32, exp, x); return true;
    case OP_LOG: *r = FMATH1(f32, log, x); return true;
    case OP_LOG2: *r = FMATH1(f32, log2, x); return true;
    case OP_LOG10: *r = FMATH1(f32, log10, x); return true;
    case OP_SIN: *r = FMATH1(f32, sin, x); return true;
    case OP_COS: *r = FMATH1(f32, cos, x); return true;
    case OP_TAN: *r = FMATH1(f32, tan, x); return true;
    case OP_ASIN: *r = FMATH1(f32, asin, x); return true;
    case OP_ACOS: *r = FMATH1(f32, acos, x); return true;
    case OP_ATAN: *r = FMATH1(f32, atan, x); return true;
    case OP_SINH: *r = FMATH1(f32, sinh, x); return true;
    case OP_COSH: *r = FMATH1(f32, cosh, x); return true;
    case OP_TANH: *r = FMATH1(f32, tanh, x); return true;
    case OP_FLOOR: *r = FMATH1(f32, floor, x); return true;
    case OP_CEIL: *r = FMATH1(f32, ceil, x); return true;
    case OP_ROUND: *r = FMATH1(f32, rint, x); return true;
    case OP_TRUNC: *r = FMATH1(f32, trunc, x); return true;
    case OP_ASINH: *r = FMATH1(f32, asinh, x); return true;
    case OP_ACOSH: *r = FMATH1(f32, acosh, x); return true;
    case OP_ATANH: *r = FMATH1(f32, atanh, x); return true;
    case OP_LOG1P: *r = FMATH1(f32, log1p, x); return true;
    case OP_GAMMA: *r = FMATH1(f32, tgamma, x); return true;
    case OP_LGAMMA: *r = FMATH1(f32, lgamma, x); return true;
    case OP_ERF: *r = FMATH1(f32, erf, x); return true;
    case OP_ERFC: *r = FMATH1(f32, erfc, x); return true;
    default: return false;
    }
}

/* Float comparisons and classification, which give bools. */
static bool float_predicate(Op op, double x, double y, PrimValue *out) {
    switch (op) {
    case OP_EQ: *out = prim_bool(x == y); return true;
    case OP_NE: *out = prim_bool(x != y); return true;
    case OP_LT: *out = prim_bool(x < y); return true;
    case OP_LE: *out = prim_bool(x <= y); return true;
    case OP_GT: *out = prim_bool(x > y); return true;
    case OP_GE: *out = prim_bool(x >= y); return true;
    case OP_ISNAN: *out = prim_bool(isnan(x)); return true;
    case OP_ISINF: *out = prim_bool(isinf(x)); return true;
    default: return false;
    }
}

static bool eval_float(Op op, const PrimValue *args, PrimValue *out) {
    PrimType t = args[0].type;
    bool f32 = t != PT_F64; /* f16 is computed as f32, then rounded */
    double x = args[0].v.f, y = op_arity(op) >= 2 ? args[1].v.f : 0, r;
    if (float_predicate(op, x, y, out)) return true;
    if (op == OP_TO_BITS) {
        uint64_t u = 0;
        if (isnan(x)) return false; /* its payload is the run time's */
        if (t == PT_F16) u = rt_conv_f64_f16(x);
        else if (f32) {
            float f = (float)x;
            uint32_t w;
            memcpy(&w, &f, sizeof w);
            u = w;
        } else memcpy(&u, &x, sizeof u);
        *out = prim_int(op_result(op, t), (int64_t)u);
        return true;
    }
    bool ok;
    if (op == OP_FMA) {
        double z = args[2].v.f;
        ok = true;
        r = f32 ? (double)fmaf((float)x, (float)y, (float)z) : fma(x, y, z);
    } else ok = op_arity(op) == 2 ? float_binary(op, f32, x, y, &r) : float_unary(op, f32, x, &r);
    if (ok) *out = prim_float(t, r);
    return ok;
}

/* ---- Constant evaluation: booleans and entry point ------------------------ */

static bool eval_bool(Op op, const PrimValue *args, PrimValue *out) {
    bool x = args[0].v.b, y = op_arity(op) == 2 ? args[1].v.b : false;
    switch (op) {
    case OP_LAND: *out = prim_bool(x && y); return true;
    case OP_LOR: *out = prim_bool(x || y); return true;
    case OP_NOT: *out = prim_bool(!x); return true;
    case OP_EQ: *out = prim_bool(x == y); return true;
    case OP_NE: *out = prim_bool(x != y); return true;
    case OP_LT: *out = prim_bool(!x && y); return true;
    case OP_LE: *out = prim_bool(!x || y); return true;
    case OP_GT: *out = prim_bool(x && !y); return true;
    case OP_GE: *out = prim_bool(x || !y); return true;
    default: return false;
    }
}

bool prim_eval(Op op, const PrimValue *args, PrimValue *out) {
    if (!op_valid(op) || !args || !out) return false;
    PrimType t = args[0].type;
    if (!op_accepts(op, t)) return false;
    for (int i = 1; i < op_arity(op); i++)
        if (args[i].type != t) return false;
    switch (prim_class(t)) {
    case PC_BOOL: return eval_bool(op, args, out);
    case PC_FLOAT: return eval_float(op, args, out);
    case PC_SIGNED:
    case PC_UNSIGNED: return eval_int(op, args, out);
    }
    return false;
}
