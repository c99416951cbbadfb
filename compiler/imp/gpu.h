/* The GPU lowering's internal interface (lower.h lists the lowering's
 * files), shared by its files:
 *   gpu.c        kernels being built (their parameters, private blocks,
 *                the host code that launches them), the pieces of kernel
 *                code that the segmented operations share (operators
 *                applied to values, tree reductions in local memory,
 *                strided loops, partial results), SegMap, SegSeq, SegHost
 *                and the dispatch (lw_seg);
 *   gpu_red.c    SegRed: one reduction, and segmented reductions by the
 *                width of their segments;
 *   gpu_scan.c   SegScan: one pass with decoupled look-back;
 *   gpu_hist.c   SegHist: atomic updates, in local memory when they fit;
 *   gpu_tiled.c  the tiled SegMaps (matrix products; n-body);
 *   gpu_group.c  SegGroup: intra-group versions, a work-group per element
 *                of a map (its group-level code: lw_group_stm).
 * Kernel code is written with the variables of the kernel (kb_enter makes
 * L->vars the kernel's table); lw_* functions of lower.h lower IR code
 * into it as into host code. */
#ifndef FUTHORC_IMP_GPU_H
#define FUTHORC_IMP_GPU_H

#include "lower.h"

/* ---- Kernels being built ---------------------------------------------------------- */

/* A kernel being built: its parameters with the host expressions that set
 * them, its local arrays, the statement's private blocks (SegInfo), and
 * while its body is lowered, the host's state. */
typedef struct Kb {
    ImpKernel *k;
    const SegInfo *g;
    ImpVar **vars; /* the kernel's variables, by IR Var id */
    VEC(ImpVar *) params;
    VEC(ImpExp *) args;
    VEC(ImpLocal) locals;
    ImpVar **host_vars;
    ImpSpace host_space;
    LwNest body;
    /* by free variable of g, for its private blocks: the size of one copy
     * and the block of all copies (host), and a sliced block's base and
     * copy size (kernel parameters) */
    ImpVar **priv_bytes, **priv_copies, **priv_base, **priv_kbytes;
    ImpVar **priv_local; /* a private block's local array (one copy per group) */
} Kb;

/* Starts kernel name ("segred") for segmented operation g. */
void kb_begin(ImpLower *L, Kb *kb, const char *name, const SegInfo *g);
/* Adds parameter p, which the launch sets to arg (a host expression). */
void kb_param(Kb *kb, ImpVar *p, ImpExp *arg);
/* A new scalar parameter of type t set to arg (a host expression). */
ImpVar *kb_scalar(ImpLower *L, Kb *kb, const char *name, PrimType t, ImpExp *arg);
/* A new device-block parameter set to host device block mem. */
ImpVar *kb_block(ImpLower *L, Kb *kb, const char *name, ImpVar *mem);
/* A new local array of count (a host i64 expression) elements of type t. */
ImpVar *kb_local(ImpLower *L, Kb *kb, const char *name, PrimType t, ImpExp *count);
/* n local arrays name<j> of count elements of types ts. */
ImpVar **gl_locals(ImpLower *L, Kb *kb, const char *name, const PrimType *ts, int n, ImpExp *count);
/* Host: g's free variables as parameters: scalars and blocks as they
 * are, private blocks (SegInfo.private_mem) as nthreads copies, allocated
 * here (a failure reported at loc), or with nthreads NULL as local arrays
 * (a copy per work-group), and SegInfo.nthreads set to nthreads when g
 * has interleaved blocks. */
void kb_free_vars(ImpLower *L, Kb *kb, ImpExp *nthreads, SrcLoc loc);
/* Makes the kernel's body the code being lowered / returns to the host. */
void kb_enter(ImpLower *L, Kb *kb);
void kb_leave(ImpLower *L, Kb *kb);
/* Kernel: binds SegInfo.tid to the work-item's number tid, and each
 * sliced private block to the work-item's copy (or its local array). */
void kb_prologue(ImpLower *L, Kb *kb, Sym *tid);
/* Host: launches the kernel on groups work-groups of size work-items. */
void kb_launch(ImpLower *L, Kb *kb, ImpExp *groups, ImpExp *size);
/* Host: releases the private blocks' copies (after the kernels that use
 * them). */
void kb_release(ImpLower *L, Kb *kb);

/* ---- Small code ------------------------------------------------------------------- */

/* Host: the comparison p >= a new threshold <entry>.name_K of default
 * dflt (a choice between versions of a kernel), under the threshold whose
 * branch is being lowered; *made (unless NULL) gets it. */
ImpExp *gl_threshold(ImpLower *L, const char *name, int64_t dflt, ImpExp *p, const Threshold **made);

/* A new variable of type t declared to value (or undefined, NULL) in the
 * current code. */
ImpVar *gl_let(ImpLower *L, const char *name, PrimType t, ImpExp *value);
/* n new variables name<j> of types ts, declared to init[j] (or undefined). */
ImpVar **gl_lets(ImpLower *L, const char *name, const PrimType *ts, int n, ImpExp **init);
/* v as a Sym (an i64 variable). */
Sym *gl_sym(ImpLower *L, const ImpVar *v);
ImpExp *gl_i64(ImpLower *L, int64_t c);
/* x op y on i64, for the sizes, counts and positions of kernels and
 * launches, which are never negative: +, -, * and / of constants,
 * variables and Syms are Syms (printed as plain arithmetic, a division
 * as one machine division rounding towards zero); the rest are ops. */
ImpExp *gl_op(ImpLower *L, Op op, ImpExp *x, ImpExp *y);
/* x / y rounded up (x non-negative, y positive): how many groups of y
 * cover x. */
ImpExp *gl_div_up(ImpLower *L, ImpExp *x, ImpExp *y);
/* Reads of variables vs[0..n-1]; loads of element index of blocks
 * mems[0..n-1] of types ts. */
ImpExp **gl_reads(ImpLower *L, ImpVar **vs, int n);
ImpExp **gl_loads(ImpLower *L, ImpVar **mems, const PrimType *ts, int n, ImpExp *index);
/* Stores vals into element index of blocks mems of types ts. */
void gl_stores(ImpLower *L, ImpVar **mems, const PrimType *ts, int n, ImpExp *index, ImpExp **vals);
/* Opens `if cond` (close with lw_leave into the statement's body). */
ImpStm *gl_if(ImpLower *L, LwNest *n, ImpExp *cond);
/* Opens `while cond` (close with lw_leave into the statement's body). */
ImpStm *gl_while(ImpLower *L, LwNest *n, ImpExp *cond);
/* Opens a scope (IMP_SCOPE; close with lw_leave into its body); a region
 * is a scope that keeps its declarations (code whose failure skips the
 * rest of it, not what follows). */
ImpStm *gl_scope(ImpLower *L, LwNest *n);
ImpStm *gl_region(ImpLower *L, LwNest *n);
void gl_barrier(ImpLower *L);

/* ---- Operators ---------------------------------------------------------------------- */

/* The element types of the values of ops (*total gets their number). */
PrimType *gl_op_types(ImpLower *L, const SegOp *ops, int nops, int *total);
/* The neutral elements of ops, one per value. */
ImpExp **gl_neutrals(ImpLower *L, const SegOp *ops, int nops, int nv);
/* Whether the operators may combine elements in any order: declared so
 * (reduce_comm) or known to be. */
bool gl_commutative(const SegOp *ops, int n);
/* dst = ops(xs, ys), value by value (dst are variables in scope; each
 * operator's body in a scope of its own). */
void gl_apply(ImpLower *L, const SegOp *ops, int nops, ImpExp **xs, ImpExp **ys, ImpVar **dst);

/* ---- Group-wide pieces ---------------------------------------------------------------- */

/* The work-items whose values one tree reduction combines, in order: those
 * whose position pos runs over 0 .. size - 1, each with its values at
 * index ix of the local arrays (i64 expressions). */
typedef struct GlTree {
    ImpExp *ix, *pos, *size;
} GlTree;

/* In-order tree reduction of tree t's values in the local arrays locs
 * (types ts, nv of them) with ops, leaving the result at position 0.
 * Every work-item of the group takes part (barriers). */
void gl_tree(ImpLower *L, const SegOp *ops, int nops, ImpVar **locs, const PrimType *ts, int nv, GlTree t);
/* One step (the combination of positions s apart, s a variable) of such a
 * tree; the caller puts barriers between the steps. */
void gl_tree_step(ImpLower *L, const SegOp *ops, int nops, ImpVar **locs, const PrimType *ts, int nv, GlTree t,
                  ImpVar *s);

/* Host: the scalar results of a kernel travel through a device block of
 * 8 bytes per value. gl_results makes the block for n values,
 * gl_result_slot is where value k (of type t) goes, gl_read_results
 * declares s's scalar pattern Vars from res (their slots in order) and
 * releases it (nothing when res is NULL). */
ImpVar *gl_results(ImpLower *L, int n, SrcLoc loc);
ImpExp *gl_result_slot(ImpLower *L, int k, PrimType t);
void gl_read_results(ImpLower *L, const Stm *s, ImpVar *res);
/* Host: n device blocks of count values of types ts each (partial
 * results of work-groups), a failure reported at loc. */
ImpVar **gl_blocks(ImpLower *L, const char *name, const PrimType *ts, int n, ImpExp *count, SrcLoc loc);
void gl_release(ImpLower *L, ImpVar **mems, int n);

/* ---- Reductions (gpu_red.c) ---------------------------------------------------------- */

/* Where a work-item's strided loop runs: elements start, start + stride,
 * ... below n (i64 expressions, each evaluated more than once). */
typedef struct GlStride {
    ImpExp *start, *stride, *n;
} GlStride;

/* Combines one element's values vals into a work-item's state ctx. */
typedef void (*GlCombine)(ImpLower *L, ImpExp **vals, void *ctx);

/* Elements a work-item of a reduction or histogram handles per step of
 * its strided loop: independent loads in flight hide memory latency. */
#define GL_UNROLL 4

/* A work-item's loop over the elements of st of SOAC s (lambda lam over
 * arrs, iterator iter): GL_UNROLL elements per step, each computing lam's
 * first nv results (types ts) into variables before any is combined
 * (combine, per element in order), so that their loads overlap; then the
 * rest one by one. A Screma's map outputs (its results after the first
 * nv) are written at the element's row. A failed assertion skips its
 * element (its values are undefined; the run fails). */
void gl_strided(ImpLower *L, GlStride st, const Stm *s, const Lambda *lam, Var **arrs, const Var *iter,
                const PrimType *ts, int nv, GlCombine combine, void *ctx);
/* Element i of SOAC s (lambda lam over arrs, iterator iter) in a scope of
 * its own, which a failure ends: its first nv results (types ts) into new
 * variables, which it returns (a Screma's map outputs are written at its
 * row). */
ImpVar **gl_element(ImpLower *L, const Stm *s, const Lambda *lam, Var **arrs, const Var *iter, ImpExp *i,
                    const PrimType *ts, int nv);
/* Opens `for i < hi - lo` over the work-item's contiguous chunk [lo, hi)
 * of the elements of st (chunks of ceil(n / stride), the work-item's
 * start-th); *i gets the element of the iteration, lo + the counter
 * (close with lw_leave into the returned statement's body). */
ImpStm *gl_for_chunk(ImpLower *L, LwNest *n, GlStride st, ImpExp **i);
/* The reduction Screma rs over the elements of st: each work-item folds
 * its elements (strided and unrolled when the operators commute, else a
 * contiguous chunk in order) into accumulators, then tree t leaves the
 * result in the local arrays locs at its position 0. */
void gl_group_reduce(ImpLower *L, const Stm *rs, GlStride st, GlTree t, ImpVar **locs);

/* The second kernel of a reduction with ops (values of types gl_op_types)
 * whose first kernel left groups partial results of each value, in order,
 * in the device blocks parts: one work-group of size work-items combines
 * them in order into s's scalar pattern Vars (host variables it declares),
 * then releases parts. s's SegInfo gives the free variables the operators
 * use. */
void gl_red_final(ImpLower *L, const Stm *s, const SegOp *ops, int nops, ImpVar **parts, ImpExp *groups, ImpExp *size);

/* ---- The segmented operations ------------------------------------------------------- */

/* The width of a level of a SegInfo's nest (a Screma or a Scatter) and its iterator. */
SubExp gl_level_width(const Stm *s);
const Var *gl_level_iter(const Stm *s);
/* The number of points of the first depth levels of g (a Sym). */
Sym *gl_space(ImpLower *L, const SegInfo *g, int depth);
/* Kernel: the iterators of the first depth levels of g from the flat
 * index x, innermost fastest. */
void gl_level_iters(ImpLower *L, const SegInfo *g, int depth, Sym *x);
/* Kernel: the outer levels [0, n) of g's nest: each binds its rows and
 * runs its code before the next level (its last statement). */
void gl_outer_levels(ImpLower *L, const SegInfo *g, int n);
/* A SegMap over the first depth levels of s's SegInfo (also the short
 * segments of a segmented reduction: one work-item per segment). */
void gl_seg_map(ImpLower *L, const Stm *s, int depth);

void gl_seg_red(ImpLower *L, const Stm *s);
void gl_seg_group(ImpLower *L, const Stm *s);
void gl_seg_scan(ImpLower *L, const Stm *s);
void gl_seg_hist(ImpLower *L, const Stm *s);
void gl_seg_map_tiled(ImpLower *L, const Stm *s);
void gl_seg_map_tile1(ImpLower *L, const Stm *s);

#endif
