/* Symbolic index arithmetic (Sym) and linear memory access descriptors
 * (LMADs, ../shared/reference/seed-002-funmem.md §1).
 *
 * A pure module: no IR dependencies. Sym variables are integer ids; the IR
 * uses Var ids. All results are allocated in the given arena and are
 * immutable; inputs are never modified.
 *
 * An LMAD maps an index (i_0, ..., i_{r-1}) with 0 <= i_k < shape_k to the
 * element offset  offset + sum_k i_k * stride_k . */
#ifndef FUTHORC_LMAD_H
#define FUTHORC_LMAD_H

#include "../util/util.h"

/* ---- Sym: symbolic i64 expressions ---------------------------------------- */

/* A Sym is kept in a normal form: a sum of monomials (an integer coefficient
 * times a product of variables, sorted), so that equal polynomials are
 * structurally equal (n*m + 1 equals 1 + m*n). Operations that leave
 * polynomials (division) produce opaque terms that are compared
 * structurally. */
typedef struct Sym Sym;

Sym *sym_const(Arena *a, int64_t c);
Sym *sym_var(Arena *a, int id);
Sym *sym_add(Arena *a, const Sym *x, const Sym *y);
Sym *sym_sub(Arena *a, const Sym *x, const Sym *y);
Sym *sym_mul(Arena *a, const Sym *x, const Sym *y);
Sym *sym_neg(Arena *a, const Sym *x);
/* Exact division: the quotient when y divides x as polynomials (including
 * constant division that leaves no remainder), else an opaque x / y term
 * (integer division rounding towards zero, for non-negative operands). */
Sym *sym_div(Arena *a, const Sym *x, const Sym *y);
bool sym_is_const(const Sym *x, int64_t *value);
bool sym_equal(const Sym *x, const Sym *y);
/* Replaces variable id by the expression e. */
Sym *sym_subst(Arena *a, const Sym *x, int id, const Sym *e);
/* Prints x as a C expression of int64_t values; varname(id, ctx) gives the
 * C name of a variable. Parenthesised so it can be embedded anywhere. */
void sym_print_c(Buf *out, const Sym *x, const char *(*varname)(int id, void *ctx), void *ctx);
/* The same with constants cast to ctype (e.g. "int" for 32-bit index
 * arithmetic, where varname casts the variables likewise). */
void sym_print_c_as(Buf *out, const Sym *x, const char *(*varname)(int id, void *ctx), void *ctx, const char *ctype);
/* Calls fn(id, ctx) once for each occurrence of a variable in x (opaque
 * subterms included), in x's term order. */
void sym_vars(const Sym *x, void (*fn)(int id, void *ctx), void *ctx);
/* Whether x has a variable id with set[id] nonzero. */
bool sym_reads_any(const Sym *x, const char *set);
/* Facts for sign queries, by variable id below n: nonneg[id] when the
 * variable is >= 0, pos[id] when it is >= 1 (either array may be NULL). */
typedef struct SymFacts {
    const char *nonneg, *pos;
    int n;
} SymFacts;
/* Whether x >= 0 follows from the facts (false when unknown). */
bool sym_nonneg(const Sym *x, const SymFacts *k);
/* The monomials of x's normal form: how many, and monomial i alone. */
int sym_nterms(const Sym *x);
Sym *sym_term_at(Arena *a, const Sym *x, int i);
/* Rebuilds x bottom-up through callbacks (e.g. into statements that compute
 * it): konst and var make leaves; add, mul and quot (integer division
 * rounding towards zero, from opaque divisions) combine two results. */
typedef struct SymFold {
    void *(*konst)(int64_t c, void *ctx);
    void *(*var)(int id, void *ctx);
    void *(*add)(void *x, void *y, void *ctx);
    void *(*mul)(void *x, void *y, void *ctx);
    void *(*quot)(void *x, void *y, void *ctx);
} SymFold;
void *sym_fold(const Sym *x, const SymFold *f, void *ctx);
/* Prints x readably ("2*v3*v7 + 1"), variables as v<id>, or as
 * varname(id, ctx) gives them. */
void sym_print(Buf *out, const Sym *x);
void sym_print_named(Buf *out, const Sym *x, const char *(*varname)(int id, void *ctx), void *ctx);

/* ---- LMADs ---------------------------------------------------------------- */

typedef struct LmadDim {
    Sym *stride;
    Sym *shape;
} LmadDim;

typedef struct Lmad {
    int rank;
    Sym *offset;
    LmadDim *dims;
} Lmad;

/* One dimension of a slice: a fixed index (drops the dimension) or the len
 * elements start, start+stride, ... (stride may be negative). */
typedef struct LmadSlice {
    bool is_index;
    Sym *index;
    Sym *start, *len, *stride;
} LmadSlice;

/* The row-major layout of an array of the given shape at offset 0. */
Lmad *lmad_row_major(Arena *a, int rank, Sym *const *shape);
/* Slices the leading nslice dimensions (nslice <= rank); the rest are kept. */
Lmad *lmad_slice(Arena *a, const Lmad *l, const LmadSlice *slice, int nslice);
/* The outer dimension of l (rank >= 1) seen as k dimensions: index
 * (i_1..i_k) is row offset + sum i_d * dims[d].stride of l (Futhark's
 * flat slices); l's other dimensions follow. */
Lmad *lmad_flat_slice(Arena *a, const Lmad *l, Sym *offset, const LmadDim *dims, int k);
/* Result dimension d is dimension perm[d] of l. */
Lmad *lmad_permute(Arena *a, const Lmad *l, const int *perm);
/* The same elements seen with a new shape in row-major order, or NULL when
 * that is not expressible as one LMAD (then the caller must copy). Always
 * succeeds for row-major-contiguous l, and for splitting or merging
 * dimensions whose strides compose. */
Lmad *lmad_reshape(Arena *a, const Lmad *l, int rank, Sym *const *shape);
/* The element offset of index idx[rank]. */
Sym *lmad_index(Arena *a, const Lmad *l, Sym *const *idx);
/* Whether l is exactly the row-major layout of its shape at offset 0, or at
 * any offset. */
bool lmad_is_row_major(const Lmad *l);
bool lmad_is_contiguous(const Lmad *l);
/* Layouts x and y of one shape, between which a copy moves elements one
 * by one, with fewer dimensions (in *x_out and *y_out): dimensions of
 * extent 1 are dropped, and each is merged into the next (inner) one where
 * both layouts step over the inner one contiguously. The pair visits the
 * same element pairs in the same order, in fewer loops (a row-major copy
 * of any rank becomes one loop). Unchanged when the shapes differ. */
void lmad_merge_pair(Arena *a, const Lmad *x, const Lmad *y, const Lmad **x_out, const Lmad **y_out);
/* Number of elements (product of the shape). */
Sym *lmad_num_elems(Arena *a, const Lmad *l);
bool lmad_equal(const Lmad *x, const Lmad *y);
/* l in a block expanded n times whose copies are interleaved element by
 * element (FunMem's coalesced memory expansion, seed-002-funmem.md §4.1,
 * with the offset scaled too): offset x of copy t is at x * n + t, so the
 * offset becomes offset * n + t and every stride stride * n. */
Lmad *lmad_interleave(Arena *a, const Lmad *l, const Sym *n, const Sym *t);
/* Substitutes a variable throughout (offset, strides and shape). */
Lmad *lmad_subst(Arena *a, const Lmad *l, int id, const Sym *e);
/* Whether x and y (layouts in one block) provably share no element,
 * given the facts about their variables (lmad_overlap.c). False means
 * "may overlap". */
bool lmad_disjoint(Arena *a, const Lmad *x, const Lmad *y, const SymFacts *k);
/* Whether no two indices of l (every shape taken as >= 1: an empty LMAD
 * has no two) are at the same offset, proven from the facts: some order of
 * the dimensions has each |stride| above the largest distance the earlier
 * ones span (a mixed radix). false when unknown. */
bool lmad_injective(Arena *a, const Lmad *l, const SymFacts *k);
void lmad_print(Buf *out, const Lmad *l);
void lmad_print_named(Buf *out, const Lmad *l, const char *(*varname)(int id, void *ctx), void *ctx);

#endif
