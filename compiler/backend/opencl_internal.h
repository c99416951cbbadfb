/* The OpenCL backend's internal interface, included only by its files:
 *   opencl.c         the program, the tables of kernels, tuning parameters
 *                    and failures, and the printer of host code (Imp);
 *   opencl_kernel.c  Imp kernels and functions as OpenCL C;
 * and, for the segmented operations that Imp does not lower yet
 * (IMP_LEGACY; issue 13, step 2b lowers them and deletes these with
 * emit.c and emit.h), the kernels written by the memory-IR kernel emitter
 * (emit.h) with their host code:
 *   opencl_legacy.c  the dispatch, kernel signatures and arguments, operators;
 *   opencl_seg.c     SegRed (with a SegMap for short segments) and SegHist;
 *   opencl_scan.c    SegScan;
 *   opencl_tiled.c   the block-tiled SegMap. */
#ifndef FUTHORC_BACKEND_OPENCL_INTERNAL_H
#define FUTHORC_BACKEND_OPENCL_INTERNAL_H

#include "cprint.h"
#include "emit.h"

/* The program's OpenCL: its kernels' source and the tables the runtime
 * reads (rt_cl_program_info). */
struct ClEmit {
    Buf src;                    /* OpenCL C of the generated kernels */
    VEC(const char *) kernels;  /* kernel names by index */
    VEC(const char *) fails;    /* failure formats by id */
    VEC(const char *) params;   /* tuning parameter names */
    char *kernel_fns;           /* by function index: kernel code calls it */
};

/* ---- Tables (opencl.c) ---- */

/* Each returns the new entry's index. */
int cl_new_kernel(ClEmit *cl, const char *name);
int cl_new_param(ClEmit *cl, const char *name);
/* fmt: a failure's printf format (RT_CL_FAIL_ARGS long long arguments at most). */
int cl_new_failure(ClEmit *cl, const char *fmt);
/* The most arguments a failure in a kernel records (runtime/opencl.h's
 * RT_CL_FAIL_ARGS). */
#define CL_FAIL_ARGS 8

/* ---- Imp kernels (opencl_kernel.c) ---- */

/* Appends kernel k of p, whose name in the kernel table is name, to cl's
 * source as OpenCL C. */
void cl_print_kernel(ClEmit *cl, Arena *a, const ImpProg *p, const ImpKernel *k, const char *name);
/* Whether local array l is declared in its kernel (a constant size)
 * rather than sized by the launch. */
bool cl_local_static(const ImpLocal *l);
/* Appends the OpenCL C of the functions that kernel code calls
 * (cl->kernel_fns and their callees), callees first. */
void cl_kernel_functions(ClEmit *cl, Arena *a, const ImpProg *p, Buf *src);

/* ---- IMP_LEGACY (opencl_legacy.c) ---- */

/* Writes s, a segmented operation of p that Imp does not lower, as
 * kernels and the host code that launches them (into out at indent). */
void cl_legacy(ClEmit *cl, const Prog *p, Arena *a, Buf *out, int indent, const Stm *s);

/* The C (and OpenCL C) name of scalar type t. */
static inline const char *ctype(PrimType t) { return prim_ctype(t); }

/* ---- Kernels: signatures and arguments (opencl_legacy.c) ---- */

/* One kernel being written: its emitter (into the kernel source), its
 * index, the statement, and the host argument count so far. */
typedef struct Kern {
    Emit K;
    int id;
    const Stm *s;
    const SegInfo *seg;
    Buf params;   /* the kernel's parameter list after rt_fail */
    const char *attrs; /* attributes before the kernel's name, or NULL */
    int nargs;    /* arguments set so far (0 is rt_fail) */
} Kern;

/* Registers tuning parameter name; returns its index. */
int new_param(Emit *E, const char *name);
/* Starts kernel kind_<id> for s, whose body kern_end wraps in its signature. */
void kern_begin(Emit *E, Kern *k, const Stm *s, const char *kind);
/* The free variables as kernel parameters and the host code that sets them (nthreads copies of private blocks). */
void kern_free_args(Emit *E, Kern *k, const char *nthreads);
/* Host: the byte sizes of private blocks (before the arguments are set). */
void host_private_sizes(Emit *E, Kern *k);
/* Host: releases the per-work-item copies of private blocks. */
void host_release_private(Emit *E, Kern *k);
/* Kernel prologue: bools from their uchar arguments, sliced private blocks at work-item tid's copy. */
void kern_prologue(Kern *k, const char *tid);
/* Adds a host-set extra argument: kernel parameter decl, host value code. */
void kern_extra(Emit *E, Kern *k, const char *decl, const char *host_type, const char *host_value);
/* Adds device block block as the kernel's __global parameter decl. */
void kern_extra_mem(Emit *E, Kern *k, const char *decl, const char *block);
/* Adds a __local parameter decl of bytes (a host C expression) bytes. */
void kern_extra_local(Emit *E, Kern *k, const char *decl, const char *bytes);
/* Writes the finished kernel into the program's kernel source. */
void kern_end(Emit *E, Kern *k);

/* ---- Kernels: operators (opencl_legacy.c) ---- */

/* The work-items whose values one tree reduction combines, in order:
 * those whose position pos (a C expression) runs over 0 .. size - 1,
 * each with its value at index ix of the local arrays. */
typedef struct Tree {
    const char *ix, *pos, *size;
} Tree;

/* The whole work-group. */
extern const Tree GROUP_TREE;

/* dst = op(xs, ys) for C expressions (scalar operands). */
void apply_op(Emit *K, const SegOp *op, const char **xs, const char **ys, const char **dst);
/* The n C places "<base><first + i>[index]" (such as rt_loc0[i], rt_loc1[i]). */
const char **names_at(Emit *E, const char *base, int first, int n, const char *index);
/* The n names fmt (a format of one int) of 0 .. n - 1. */
const char **names_of(Emit *E, const char *fmt, int n);
/* Declares variables fmt of 0 .. n - 1 of types ts, set to init[] when init is not NULL. */
void declare_vals(Emit *K, const char *fmt, const PrimType *ts, const char **init, int n);
/* The element types of the k values of ops; *total gets their number. */
PrimType *op_types(Emit *E, const SegOp *ops, int nops, int *total);
/* Step rt_s of an in-order tree reduction of the values in <base><j>[] of tree t. */
void tree_step(Emit *K, const SegOp *ops, int nops, const char *base, Tree t);
/* In-order tree reduction of tree t's values in rt_loc<j>[], leaving the result at position 0. */
void group_tree(Emit *K, const SegOp *ops, int nops, Tree t);

/* ---- SegMap (for SegRed), SegRed and SegHist (opencl_seg.c) ---- */

/* A lambda body's results: the first nv into the C places dst; the next
 * nr (the reduction values of a Screma with scans and reductions) into
 * the places red_dst, or combined into the accumulators red_accs with
 * the Screma's reduction operators; the rest (a Screma's map outputs) at
 * row iter of s's pattern. */
typedef struct StoreCtx {
    const Stm *s;
    int nv;
    const char **dst;
    int nr;
    const char **red_dst, **red_accs;
} StoreCtx;

/* Host: opens a kernel's launch block, with the sizes of its private blocks. */
void host_launch_begin(Emit *E, Kern *k);
/* Host: releases the private blocks and closes the launch block. */
void host_launch_end(Emit *E, Kern *k);
/* The width of a level of a SegInfo's nest (a Screma or a Scatter). */
SubExp level_width(const Stm *s);
/* The number of points of the first depth levels of g (a C expression). */
const char *space_size(Emit *E, const SegInfo *g, int depth);
/* Declares the iters of the first depth levels of g from the flat index, innermost fastest. */
void level_iters(Emit *K, const SegInfo *g, int depth, const char *index);
/* The outer levels [0, n) of g's nest: each binds its rows and runs its cheap code. */
void outer_levels(Emit *K, const SegInfo *g, int n);
/* A SegMap over the first depth levels of s's SegInfo (a segmented
 * reduction of short segments: one work-item per segment). */
void seg_map(Emit *E, const Stm *s, int depth);
/* ResFn of a lambda body: its results as the StoreCtx ctx says. */
void res_store(Emit *K, const Body *b, void *ctx);
/* Combines the values vals into the accumulators ctx with the Screma s's reduction operators. */
void combine_reds(Emit *K, const Stm *s, const char **vals, void *ctx);
/* Whether the operators may combine elements in any order. */
bool all_commutative(const SegOp *ops, int n);
/* Declares rt_loc<j> local parameters and their host sizes for values ts. */
void local_arrays(Emit *E, Kern *k, const PrimType *ts, int n, const char *count);
/* Host: declares s's scalar pattern Vars, which a kernel returns through rt_res. */
void declare_results(Emit *E, const Stm *s);
/* Host: the rt_res block (inside the launch block). */
void host_result_block(Emit *E, const Stm *s);
/* Host: reads the scalar results back from rt_res and releases it. */
void host_read_results(Emit *E, const Stm *s);
/* Host: the blocks rt_part<j> of rt_groups partial results of values ts. */
void host_partials(Emit *E, const PrimType *ts, int nv);
/* The rt_part<j> blocks as arguments of kernel k. */
void kern_partials(Emit *E, Kern *k, const PrimType *ts, int nv);
/* The second kernel of a reduction: combines the groups' partials into s's pattern from first. */
void red_final(Emit *E, const Stm *s, const PrimType *ts, int nv, int first);
/* A SegRed that is one reduction (SegInfo depth 1). */
void seg_red(Emit *E, const Stm *s);
/* The fewest lanes per segment of an irregular segmented reduction
 * (more when there are too few segments to fill the device; tuning
 * parameter segred_lanes_K.lanes): on an H100, CSR rows of 0-32 elements
 * took 0.35 ms with 1 lane, 0.29 with 2, 0.26 with 4, 0.27 with 8, 0.30
 * with 16 and 0.45 with 32 (fewer lanes leave rows' reads uncoalesced,
 * more leave lanes idle and add tree steps). */
#define SEGRED_LANES_MIN 4
/* A segmented reduction whose segments take at least lanes_min work-items of a group each. */
void seg_segred_lanes(Emit *E, const Stm *s, const char *lanes_min);
/* A regular segmented reduction: a SegMap, lanes or work-groups per segment by its width. */
void seg_segred(Emit *E, const Stm *s);
/* A SegHist: atomic updates, in a local sub-histogram when the buckets fit. */
void seg_hist(Emit *E, const Stm *s);

/* ---- SegScan (opencl_scan.c) ---- */

/* A SegScan: one single-pass scan kernel, and red_final when the Screma also reduces. */
void seg_scan(Emit *E, const Stm *s);

/* ---- Block-tiled SegMap (opencl_tiled.c) ---- */

/* A block-tiled SegMap (SegInfo.tile): the map-reduce's accumulators in registers. */
void seg_map_tiled(Emit *E, const Stm *s);

#endif
