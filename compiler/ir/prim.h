/* Primitive types, primitive values and the table of scalar operations
 * (ops.def); shared by the AST, the IR, the backends and the tools. */
#ifndef FUTHORC_PRIM_H
#define FUTHORC_PRIM_H

#include <stdbool.h>
#include <stdint.h>

typedef enum PrimType {
#define X(e, name, ctype, size, cls) e,
#include "prim.def"
#undef X
    PT_COUNT
} PrimType;

typedef enum PrimClass { PC_SIGNED, PC_UNSIGNED, PC_FLOAT, PC_BOOL } PrimClass;

typedef enum Op {
#define X(e, name, arity, operands, result, cspell) e,
#include "ops.def"
#undef X
    OP_COUNT
} Op;

/* A constant. Integers are kept sign- or zero-extended to 64 bits per their
 * type, f32 values are kept as doubles that are exactly representable as
 * floats. */
typedef struct PrimValue {
    PrimType type;
    union {
        int64_t i; /* signed and unsigned integers (unsigned reinterpreted) */
        double f;
        bool b;
    } v;
} PrimValue;

const char *prim_name(PrimType t);      /* "i32" */
const char *prim_ctype(PrimType t);     /* "int32_t" */
int prim_size(PrimType t);              /* bytes */
PrimClass prim_class(PrimType t);
bool prim_is_int(PrimType t);           /* signed or unsigned integer */
bool prim_is_float(PrimType t);
bool prim_from_name(const char *name, PrimType *out);

const char *op_name(Op op);
int op_arity(Op op);
const char *op_cspelling(Op op);
/* Whether op accepts operands of type t, and its result type for them. */
bool op_accepts(Op op, PrimType t);
PrimType op_result(Op op, PrimType operand);

PrimValue prim_int(PrimType t, int64_t v);  /* wraps v to t's width */
PrimValue prim_float(PrimType t, double v); /* rounds to f32 when t is f32 */
PrimValue prim_bool(bool b);
/* Converts with Futhark's semantics (float to int truncates, int to bool is
 * != 0, bool to number is 0/1). */
PrimValue prim_convert(PrimValue v, PrimType to);
/* Formats a value in Futhark's textual syntax with its suffix ("3i32",
 * "1.5f32", "f64.nan", "true"). Returns buf. */
char *prim_format(PrimValue v, char *buf, int size);

/* Evaluates op on constant operands (op_arity(op) of them, all of one
 * type that op accepts) with the exact semantics the generated C uses; the
 * rules are written at the top of prim.c. Returns false, leaving *out
 * alone, when it does not fold: integer division or modulo by zero, a
 * negative exponent of a signed integer pow, or ill-typed operands. */
bool prim_eval(Op op, const PrimValue *args, PrimValue *out);
/* OP_SIZE_MUL on i64 values: x * y, -1 when either is negative, INT64_MAX
 * when the product does not fit (runtime/scalar.h's rt_size_mul_i64). */
int64_t prim_size_mul(int64_t x, int64_t y);

#endif
