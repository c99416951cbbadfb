/* The lowering from the memory IR to Imp (imp_lower), shared by its files:
 *   lower.c  bodies and the release of blocks after their last use,
 *            scalar statements, if, loops, allocation, assertions, calls;
 *   array.c  array statements through LMADs: indexing, in-place updates,
 *            iota, replicate, concat, copies, array literals;
 *   soac.c   Screma (maps, scans and reductions with accumulators),
 *            Scatter and Hist as sequential loops;
 *   entry.c  functions (Prog.defs) and entry points, and imp_lower;
 *   mc.c     multicore: host-level SOACs as parallel loops (IMP_PARFOR);
 *   gpu*.c   a program at STAGE_GPU: its host-level SOACs as their SegInfo
 *            says (kernels, sequential host code over mapped blocks;
 *            gpu.h lists those files).
 * The lowering follows what the sequential C emitter did, statement by
 * statement: a scalar Var becomes an Imp scalar with its id and name, a
 * memory block Var an Imp block; an array has no variable (it is its block
 * read and written at the element offsets its LMAD gives). At STAGE_GPU
 * the blocks of host code are device blocks, which host code reads and
 * writes element by element only by transfers; a kernel's body is
 * lowered with a table of variables of its own. */
#ifndef FUTHORC_IMP_LOWER_H
#define FUTHORC_IMP_LOWER_H

#include "imp.h"

typedef struct ImpLower {
    const Prog *p;
    ImpProg *ip;
    Arena *a;         /* ip->arena */
    ImpBuilder *b;    /* the code block being built */
    ImpVar **vars;    /* by IR Var id: its Imp variable, made on first use */
    int *mark;        /* by IR Var id: 1 + index in the body being scanned, or 0 */
    ImpFun **funs;    /* by index in p->defs */
    bool gpu;         /* p is at STAGE_GPU: host-level SOACs are segmented operations */
    bool kernel;      /* lowering a kernel's body: blocks are not reference-counted */
    int seq;          /* > 0 inside a segmented operation (or a parallel
                         loop): SOACs are loops */
    bool parallel;    /* multicore: host-level SOACs are parallel loops */
    int reassoc;      /* > 0 while a reduction's operator is lowered: its
                         float additions and multiplications may be
                         reassociated (ImpExp.reassoc) */
    const Stm **alloc_of; /* by IR Var id: the allocation that bound the block */
    ImpSpace space;   /* the space of the blocks made for IR Vars */
    struct GlGroup *group; /* while the group level of an intra-group kernel
                              is lowered: its state (gpu_group.c), else NULL */
    /* Thresholds (GPU host code): the entry point being lowered (their
     * names' prefix), the threshold each bool Var compares (by IR Var
     * id), the threshold whose branch is being lowered (parent, branch),
     * and how many the lowering made (gl_threshold numbers them). */
    const Fun *entry;
    const Threshold **thr_of;
    const Threshold *thr_parent;
    bool thr_branch;
    int nthresholds;
    /* While a statement of a body is lowered: the body's blocks, the
     * index of each one's last use in it, and the statement's index
     * (lw_dies). */
    Var *const *body_mems;
    const int *body_last;
    int body_nmems, body_stm;
} ImpLower;

/* What to do with a body's results, lowered before its last releases. */
typedef void (*LwResFn)(ImpLower *L, const Body *b, void *ctx);

/* ---- lower.c ---- */
/* Lowers b's statements, then fn for its results; releases each block bound
 * in b (or in extra, bound before it) after its last use. */
void lw_body(ImpLower *L, const Body *b, LwResFn fn, void *ctx, Var **extra, int nextra);
/* Whether block m, bound in the body being lowered, dies with the
 * statement being lowered: its last use, released after it, so that
 * nothing reads it after the statement. */
bool lw_dies(const ImpLower *L, const Var *m);
/* Lowers b into a new code block (lw_body without extra blocks). */
ImpCode lw_code(ImpLower *L, const Body *b, LwResFn fn, void *ctx);
void lw_stm(ImpLower *L, const Stm *s);
/* The Imp variable of scalar or block v (a new one, a block in L->space,
 * on first use). */
ImpVar *lw_var(ImpLower *L, const Var *v);
/* A new Imp variable for IR Var v (its id and name), a block in space. */
ImpVar *lw_new_var(ImpLower *L, const Var *v, ImpSpace space);
/* Whether block v is a device block of host code (read and written only
 * by transfers, copies, fills and kernels). */
bool lw_on_device(ImpLower *L, const Var *v);
/* A fresh variable. */
ImpVar *lw_fresh(ImpLower *L, const char *name, ImpVarKind kind, PrimType t);
/* se (a scalar) as an expression. */
ImpExp *lw_se(ImpLower *L, SubExp se);
/* Declares scalar or block v (nothing for an array), to init or none. */
void lw_declare(ImpLower *L, const Var *v, ImpExp *init);
/* Nested code: lw_enter makes a new code block the current one,
 * lw_leave returns to the enclosing one and gives the block's code. */
typedef struct LwNest {
    ImpBuilder b;
    ImpBuilder *outer;
} LwNest;
void lw_enter(ImpLower *L, LwNest *n);
ImpCode lw_leave(ImpLower *L, LwNest *n);
/* Appends `for i < bound` and enters its body (leave with lw_leave into
 * the returned statement's body). */
ImpStm *lw_for(ImpLower *L, LwNest *n, ImpVar *i, ImpExp *bound);

/* ---- array.c ---- */
/* Element idx (one index per dimension of its LMAD) of array arr. */
ImpExp *lw_elem(ImpLower *L, const Var *arr, Sym *const *idx);
/* The element offset of index idx through l, as an expression. */
ImpExp *lw_offset(ImpLower *L, const Lmad *l, Sym *const *idx);
/* l with its leading dimension fixed at i (row i). */
Lmad *lw_row(ImpLower *L, const Lmad *l, Sym *i);
/* Stores se (a scalar, filling every element, or an array, copied) at
 * layout dl of block dmem. */
void lw_store(ImpLower *L, const Var *dmem, const Lmad *dl, SubExp se, PrimType t);
/* Copies the elements at (smem, sl) to (dmem, dl), unless they are there. */
void lw_copy(ImpLower *L, const Var *dmem, const Lmad *dl, const Var *smem, const Lmad *sl, PrimType t);
/* Array statements: IE_INDEX, IE_UPDATE, IE_FLAT_UPDATE, IE_IOTA,
 * IE_REPLICATE, IE_COPY, IE_CONCAT, IE_ARRAYLIT. */
void lw_array_stm(ImpLower *L, const Stm *s);

/* ---- soac.c ---- */
/* An operator's accumulator: a scalar variable (var), a block element (mem
 * at index), or for an array operand neither: the place of the operator's
 * accumulator parameter. */
typedef struct Acc {
    ImpVar *var;
    ImpVar *mem;
    ImpExp *index;
} Acc;
/* The accumulators of ops set to their neutral elements: fresh variables
 * when temps, else the pattern Vars pat; an array accumulator is the
 * place of its operator parameter, filled with the neutral element. */
Acc *lw_declare_accs(ImpLower *L, const SegOp *ops, int nops, Var **pat, bool temps);
/* Combines the accumulators accs with the values vals through op (or
 * with xvals, expressions, when not NULL: scalar accumulators only). */
void lw_segop(ImpLower *L, const SegOp *op, const Acc *accs, const SubExp *vals, ImpExp *const *xvals);
/* Where lw_segop_rows finds element j of accumulator q (an index into
 * block mems[q]) and of value q: element j of array vals[q] or, when
 * vals is NULL, the expression val gives. */
typedef struct LwRows {
    ImpVar **mems;
    ImpExp *(*acc)(ImpLower *L, int q, Sym *j, void *ctx);
    const SubExp *vals;
    ImpExp *(*val)(ImpLower *L, int q, Sym *j, void *ctx);
    void *ctx;
} LwRows;
/* Combines len elements of rows of values into rows of accumulators
 * through an elementwise op (m its map, from ir_elementwise): a loop over
 * the elements with the scalar operator in its body. */
void lw_segop_rows(ImpLower *L, const SegOp *op, const Screma *m, const LwRows *r, ImpExp *len);
/* A Screma's loop body's results (an LwResFn, ctx a ScremaCtx): the
 * scans (writing their outputs), the reductions and the map outputs, all
 * at row iter. */
typedef struct ScremaCtx {
    const Stm *s;
    const Acc *scan_accs, *red_accs;
    const bool *dead; /* by scan result, or NULL: lw_dead_results */
} ScremaCtx;
/* Which of the first n results of s are read nowhere after it (their
 * blocks die with it, lw_dies): a scan's stores of them can be left out.
 * Asked while s is the statement being lowered. */
bool *lw_dead_results(ImpLower *L, const Stm *s, int n);
void lw_res_screma(ImpLower *L, const Body *b, void *ctx);
/* A Scatter's lambda's results (an LwResFn, ctx the Scatter): value j (an
 * element or a whole row) written to dests[j] at index j when in bounds. */
void lw_res_scatter(ImpLower *L, const Body *b, void *ctx);
/* Appends `if (0 <= ix && ix < len)` and enters its body (leave with
 * lw_leave into the returned statement's body). */
ImpStm *lw_in_bounds(ImpLower *L, LwNest *n, SubExp ix, ImpExp *len);
void lw_screma(ImpLower *L, const Stm *s);
void lw_scatter(ImpLower *L, const Stm *s);
void lw_hist(ImpLower *L, const Stm *s);
/* Stores results first, first + 1, ... of b (the body of Screma s) into
 * s's map outputs (the pattern at the same positions), at row iter. */
void lw_map_outputs(ImpLower *L, const Stm *s, const Body *b, int first);
/* A SOAC as a loop (whatever its SegInfo says). */
void lw_soac(ImpLower *L, const Stm *s);
/* Binds the scalar parameters of a SOAC lambda to row iter of arrs. */
void lw_bind_rows(ImpLower *L, const Lambda *lam, Var **arrs, const Var *iter);
/* One iteration of s, a map (a Screma without scans or reductions) or a
 * Scatter, at its iter (which the caller binds): binds the lambda's rows,
 * runs its body and writes its results. */
void lw_map_iteration(ImpLower *L, const Stm *s);
/* The results of a map's body b (ctx: the map, a Screma without scans or
 * reductions): written at row iter of its outputs (an LwResFn). */
void lw_map_results(ImpLower *L, const Body *b, void *ctx);

/* ---- mc.c ---- */
/* A host-level SOAC of a multicore program: a parallel loop where it can
 * be, else as lw_soac. */
void lw_par_soac(ImpLower *L, const Stm *s);
/* Whether s uses blocks of per-element allocations made outside it (that
 * its iterations would share if they ran at once). */
bool lw_uses_private(ImpLower *L, const Stm *s);

/* ---- gpu.c, gpu_group.c ---- */
/* A host-level SOAC of a program at STAGE_GPU, as its SegInfo says. */
void lw_seg(ImpLower *L, const Stm *s);
/* At the group level of an intra-group kernel (L->group): lowers s, a
 * statement the work-group runs together (a SOAC, an array statement
 * that writes memory), and returns true; false for the others, which
 * every work-item runs alike. */
bool lw_group_stm(ImpLower *L, const Stm *s);

#endif
