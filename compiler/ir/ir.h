/* The core IR: first-order, monomorphic, A-normal form, with SOACs.
 *
 * One IR serves several stages, told apart by Prog.stage:
 *   STAGE_SOACS  - output of internalisation: SOACs (Screma, Scatter, Hist),
 *                  no memory information.
 *   STAGE_MEM    - after the memory pass: every array-typed Var has a MemInfo
 *                  (a memory block Var and an LMAD index function), memory
 *                  blocks are created by E_ALLOC statements.
 *   STAGE_GPU    - STAGE_MEM plus a SegInfo on every host-level SOAC (one not
 *                  inside another SOAC's lambda) saying how it runs on a GPU:
 *                  which segmented operation, over which space (pass_kernels).
 *
 * Variables are SSA: each Var is bound exactly once (by a statement pattern,
 * a lambda/function/loop parameter or a loop index) and referenced by
 * pointer. Everything lives in the compilation arena.
 */
#ifndef FUTHORC_IR_H
#define FUTHORC_IR_H

#include "../util/util.h"
#include "lmad.h"
#include "prim.h"

typedef struct Var Var;
typedef struct IrExp IrExp;
typedef struct Body Body;
typedef struct Lambda Lambda;
typedef struct Fun Fun;

/* An atom: a constant or a variable. Passed by value. */
typedef struct SubExp {
    bool is_var;
    PrimValue c;
    Var *v;
} SubExp;

typedef enum TypeKind {
    TK_PRIM,  /* a scalar */
    TK_ARRAY, /* elem[shape[0]]...[shape[rank-1]] */
    TK_MEM,   /* a memory block (STAGE_MEM only) */
} TypeKind;

/* Shapes are SubExps of type i64. In the types of function results, a shape
 * may mention variables bound inside the function (existential sizes): the
 * sizes of a returned array are read from its value, not from the type. */
typedef struct Type {
    TypeKind kind;
    PrimType elem;
    int rank;
    SubExp *shape;
    bool unique;
} Type;

/* Where an array lives (STAGE_MEM): element (i_0, ..., i_{r-1}) of the array
 * is at element offset lmad_index(ixfun, i) of block mem. LMAD variables
 * (Sym vars) are Var ids of i64 variables in scope (ir_verify checks it);
 * inside a SOAC's lambdas that includes the SOAC's iter. */
typedef struct MemInfo {
    Var *mem;
    Lmad *ixfun;
} MemInfo;

struct Var {
    int id;           /* unique in the program, > 0 */
    const char *name; /* base name for printing and generated code */
    Type type;
    MemInfo *mem;     /* STAGE_MEM, arrays only */
};

/* One dimension of an index expression: an index, or a slice of len elements
 * from start with stride (stride may be negative). */
typedef struct DimSlice {
    bool is_slice;
    SubExp index;
    SubExp start, len, stride;
} DimSlice;

/* A binary operator of a reduction or scan: op takes 2k parameters (k
 * accumulators then k elements) and returns k values; neutral has k entries.
 * lifted: op is an operator lifted onto segment flags by
 * ir_segmented_op (its first value the flag), which a GPU scan may run as
 * a segmented scan of the other values (a hint: false is always right). */
typedef struct SegOp {
    Lambda *op;
    SubExp *neutral;
    int k;
    bool commutative;
    bool lifted;
} SegOp;

/* Screma: the map/scan/reduce composite over w elements of arrs.
 * map's parameters take one element (row) of each of arrs; it returns
 *   sum(scans[i].k) scan inputs, then sum(reds[i].k) reduce inputs, then
 *   the map outputs.
 * The statement binds, in this order: the scan results (arrays [w]), the
 * reduction results (one value per operand), the map results (arrays [w]).
 * A plain map has no scans or reds; a plain reduce has a map that returns
 * its parameters.
 * iter (STAGE_MEM only, NULL before; created by pass_memory) is the i64
 * index of the element being processed, 0 <= iter < w. It is in scope in
 * the lambdas (and operators) of this SOAC only, where index functions use
 * it, e.g. an array lambda parameter is row iter of its input array. */
typedef struct Screma {
    SubExp w;
    Var **arrs;
    int narrs;
    SegOp *scans;
    int nscans;
    SegOp *reds;
    int nreds;
    Lambda *map;
    Var *iter;
} Screma;

/* Scatter over w elements of arrs into ndests one-dimensional destination
 * arrays (consumed). lam returns ndests i64 indices and then ndests values;
 * out-of-bounds indices are ignored. Binds the updated destinations.
 * iter: as in Screma. */
typedef struct Scatter {
    SubExp w;
    Var **arrs;
    int narrs;
    Lambda *lam;
    Var **dests;
    int ndests;
    Var *iter;
} Scatter;

/* Generalised histogram over w elements of arrs into the destinations of
 * op (op.k arrays, consumed; all of length dest_w). lam returns one i64
 * bucket index and then op.k values; out-of-bounds buckets are ignored.
 * Binds the updated destinations. iter: as in Screma. */
typedef struct Hist {
    SubExp w;
    Var **arrs;
    int narrs;
    Lambda *lam;
    SubExp dest_w;
    Var **dests;
    SegOp op;
    Var *iter;
} Hist;

typedef enum LoopKind { IR_LOOP_FOR, IR_LOOP_WHILE } LoopKind;

/* loop (params = inits) for i < bound do body, or while cond do body.
 * body returns the new values of params. For IR_LOOP_WHILE, cond is one of
 * params (a bool) and the loop runs while it is true. Binds the final values
 * of params. */
typedef struct Loop {
    Var **params;
    SubExp *inits;
    int nparams;
    LoopKind kind;
    Var *i;        /* IR_LOOP_FOR: i64 index, 0 <= i < bound */
    SubExp bound;  /* IR_LOOP_FOR */
    Var *cond;     /* IR_LOOP_WHILE */
    Body *body;
} Loop;

/* STAGE_GPU: how a host-level SOAC runs (compiler/passes/kernels.c). */
typedef enum SegKind {
    SEG_MAP,  /* one work-item per point of the segment space: a perfect nest
                 of maps (levels), or the elements of a scatter */
    SEG_RED,  /* a reduction of the whole input (fused map outputs written too) */
    SEG_SCAN, /* a single-pass scan of the whole input */
    SEG_HIST, /* a histogram with atomic updates of its buckets */
    SEG_SEQ,  /* one work-item runs the SOAC sequentially (array operators) */
    SEG_HOST, /* not a kernel: runs on the host over mapped device memory
                 (the SOAC allocates memory of varying size per element) */
    SEG_GROUP, /* intra-group: a work-group per element of a map, which runs
                  the parallel operations of the element's body with its
                  work-items, the element's arrays in local memory */
} SegKind;

/* How the work-items of a kernel share a block they each need a copy of
 * (SegInfo.private_mem): the block is allocated once for all of them. */
typedef enum PrivMem {
    PRIV_NONE,        /* not such a block: shared by the work-items */
    PRIV_SLICED,      /* work-item t's copy is the contiguous slice t */
    PRIV_INTERLEAVED, /* the copies are interleaved element by element (the
                         coalesced layout): the index functions of the arrays
                         in the block say where (lmad_interleave by
                         SegInfo.nthreads and tid) */
} PrivMem;

/* Versions of a map that the program rules out (IrExp.pin), by Futhark's
 * attribute #[incremental_flattening(...)] (or #[flattening(...)]):
 * no_outer, no_intra, only_inner (both), only_intra (the intra-group
 * version alone where one can be made, else only_inner) and
 * sequential_inner (the map as written alone): pass distribute then makes
 * no such version. */
typedef enum PinFlags {
    PIN_NO_OUTER = 1,   /* the map as written, one work-item per element */
    PIN_NO_INTRA = 2,   /* the intra-group version */
    PIN_ONLY_INTRA = 4, /* every version but the intra-group one */
    PIN_NO_DIST = 8,    /* the distributed version */
} PinFlags;

typedef struct SegInfo {
    SegKind kind;
    int depth;        /* SEG_MAP over a Screma: levels of the nest, >= 1;
                         SEG_RED and SEG_SCAN: > 1 for a segmented reduction
                         or scan (the maps, then the reduction or scan) */
    struct Stm **levels; /* those Screma statements, outermost (this one) first
                            (a segmented reduction: the map nest, its reduction;
                            a segmented scan: the map nest, its scan) */
    Var **free;       /* the variables the statement reads or writes that are
                         bound outside it: scalars, blocks, LMAD variables */
    int nfree;
    PrivMem *private_mem; /* per free variable: whether it is a block each
                             work-item needs a copy of (allocated once per
                             element of a SOAC), and its layout */
    Var *tid, *nthreads; /* with PRIV_INTERLEAVED blocks: i64 Vars that every
                            kernel of the statement binds (they are bound
                            nowhere in the IR) to the work-item's number and
                            the number of copies of its private blocks, which
                            index functions inside the statement mention;
                            else NULL */
    struct Stm *tile; /* SEG_MAP of depth 2 whose inner body is one reduction
                         over a row of each level's input (matrix product):
                         that reduction, which block tiling shares between
                         work-items; SEG_MAP of depth 1 whose body reduces
                         whole arrays that every element traverses
                         (all-pairs, n-body): that reduction, whose arrays
                         the work-group stages through local memory (1-D
                         tiling); else NULL */
    int *tile_level;  /* with tile: per input of that reduction, the level whose
                         lambda gives it (0: the outer map's rows, 1: the inner's) */
    bool irregular;   /* SEG_RED of depth 2 whose segments' width is computed in
                         the map's body (a CSR row): a few lanes of a work-group
                         reduce each segment */
} SegInfo;

typedef enum IrExpKind {
    IE_SUBEXP,    /* se */
    IE_OP,        /* op on args[arity], operand type t */
    IE_CONV,      /* convert args[0] from t to to */
    IE_IF,        /* if cond then tbody else fbody; binds their results */
    IE_LOOP,
    IE_INDEX,     /* arr[slice]; a full index of every dimension gives a scalar */
    IE_UPDATE,    /* arr with [slice] = value (arr consumed); value is a scalar or an array (Var) */
    IE_FLAT_INDEX,  /* a flat slice of arr's outer dimension (Futhark's flat_index_Nd): start is
                       the offset, slice[d] (all slices, start 0) gives dimension d's len and
                       stride; element (i_1..i_k) is row start + sum i_d * stride_d of arr */
    IE_FLAT_UPDATE, /* arr with that flat slice = se (an array of shape [len_1]..[len_k] ++ arr's
                       row shape; arr consumed): Futhark's flat_update_Nd */
    IE_IOTA,      /* [start, start+step, ...] of n elements of integer type t */
    IE_REPLICATE, /* an array of shape (nshape dims) filled with se (scalar or array) */
    IE_SCRATCH,   /* an uninitialised array of type t */
    IE_RESHAPE,   /* arr seen with a new shape (same element count) */
    IE_REARRANGE, /* arr with dimensions permuted: result dim d is arr dim perm[d] */
    IE_CONCAT,    /* arrs joined along dimension 0; result length len */
    IE_COPY,      /* a fresh copy of arr */
    IE_ARRAYLIT,  /* [args...] of row type row (scalars or arrays) */
    IE_ASSERT,    /* fails with msg (see below) unless cond; binds nothing */
    IE_SCREMA,
    IE_SCATTER,
    IE_HIST,
    IE_ALLOC,     /* STAGE_MEM: a memory block of size bytes */
    IE_APPLY,     /* fn(args): a call of a function of Prog.defs (scalars in,
                     scalars out); binds its results */
    IE_THRESHOLD, /* STAGE_SOACS on: the bool args[0] >= the run-time value of
                     tuning threshold thr (host code of the GPU pipeline): an
                     if on it chooses between versions of a nest */
} IrExpKind;

/* A threshold of multi-versioned code (pass distribute): a tuning
 * parameter named name ("main.suff_outer_par_0"), dflt when the user set
 * none. The thresholds of a program form trees: parent is the threshold
 * whose if-branch (true or false: branch) holds this one's if, or NULL. */
typedef struct Threshold {
    const char *name;
    int64_t dflt;
    const struct Threshold *parent;
    bool branch;
    bool fits_group; /* an intra-group version's: also requires args[0] (its
                        work-group size) to be at most the device's largest */
} Threshold;

/* A new threshold named "<fun>.<name>_<k>" of default dflt, in branch
 * branch of parent (NULL: a root). */
Threshold *ir_threshold(Arena *a, const char *fun, const char *name, int k, int64_t dflt, const Threshold *parent,
                        bool branch);

struct IrExp {
    IrExpKind kind;
    SubExp se;        /* IE_SUBEXP, IE_REPLICATE element, IE_UPDATE and IE_FLAT_UPDATE value */
    Op op;            /* IE_OP */
    PrimType t, to;   /* IE_OP operand type, IE_CONV from/to, IE_IOTA type */
    SubExp *args;     /* IE_OP operands, IE_CONV (1), IE_ARRAYLIT elements, IE_ASSERT message arguments,
                         IE_APPLY arguments */
    int nargs;
    SubExp cond;      /* IE_IF, IE_ASSERT */
    Body *tbody, *fbody; /* IE_IF */
    Type *ret;        /* IE_IF: result types */
    int nret;
    Loop loop;        /* IE_LOOP */
    Var *arr;         /* IE_INDEX, IE_UPDATE, IE_FLAT_*, IE_RESHAPE, IE_REARRANGE, IE_COPY */
    DimSlice *slice;  /* IE_INDEX, IE_UPDATE: one per leading dimension indexed; IE_FLAT_*: one
                         per dimension of the flat slice */
    int nslice;
    SubExp n, start, step; /* IE_IOTA; start: IE_FLAT_* offset */
    SubExp *shape;    /* IE_REPLICATE, IE_RESHAPE: new shape */
    int nshape;
    Type type;        /* IE_SCRATCH: array type; IE_ARRAYLIT: row type */
    int *perm;        /* IE_REARRANGE, length arr's rank */
    Var **arrs;       /* IE_CONCAT */
    int narrs;
    SubExp len;       /* IE_CONCAT: result length */
    /* IE_ASSERT: msg is a message with "{}" placeholders that are replaced
     * by args (i64 values) in order, e.g.
     * "Index [{}] out of bounds for array of shape [{}]." */
    const char *msg;
    Screma screma;
    Scatter scatter;
    Hist hist;
    SubExp size;      /* IE_ALLOC: bytes (i64) */
    bool per_iter;    /* IE_ALLOC: hoisted out of a SOAC lambda; each element
                         (work-item) uses the block for itself */
    SegInfo *seg;     /* STAGE_GPU, host-level SOACs: how it runs */
    bool intra;       /* IE_SCREMA, host level: the intra-group version of a
                         map (pass distribute), a SEG_GROUP where it can be */
    unsigned pin;     /* IE_SCREMA: the versions the program rules out (PinFlags) */
    Fun *fn;          /* IE_APPLY: the called function, one of Prog.defs */
    const Threshold *thr; /* IE_THRESHOLD */
};

/* A statement binds npat variables to the results of e. loc is the source
 * location that run-time errors of this statement report. */
typedef struct Stm {
    Var **pat;
    int npat;
    IrExp *e;
    SrcLoc loc;
} Stm;

struct Body {
    Stm **stms;
    int nstms;
    SubExp *res;
    int nres;
};

struct Lambda {
    Var **params;
    int nparams;
    Type *ret;
    int nret;
    Body *body;
};

/* How an entry point's parameter or result looks from outside: a primitive
 * or an array of primitives of some rank. */
typedef struct ExtType {
    PrimType elem;
    int rank;
    bool unique;
} ExtType;

/* A value of an entry point as the generated C API sees it: components
 * [first, first + n) of the flattened parameters or results. A primitive
 * or an array of primitives is one component (opaque NULL); a tuple, a
 * record or an array of them is an opaque type of the API, named opaque,
 * whose components are its leaves in order. A tuple or record lists its
 * fields (tuples' named "0", "1", ...), each a value of its own; an array
 * of tuples or records has none. */
typedef struct EntryVal {
    int first, n;
    const char *opaque;
    struct EntryVal *fields;
    const char **field_names;
    int nfields;
} EntryVal;

/* An entry point, or a function that IE_APPLY calls (Prog.defs; those
 * have no external types or entry values: param_ext, ret_ext, in_vals
 * and out_vals are NULL). */
struct Fun {
    const char *name;   /* the entry point's (or function's) source name */
    Var **params;       /* one per external parameter, in order */
    int nparams;
    ExtType *param_ext;
    Type *ret;
    int nret;
    ExtType *ret_ext;
    Body *body;
    SrcLoc loc;
    /* The source-level parameters and results (a top-level tuple result
     * is one value per component); NULL: one value per component. */
    EntryVal *in_vals, *out_vals;
    int nin_vals, nout_vals;
};

typedef enum Stage { STAGE_SOACS, STAGE_MEM, STAGE_GPU } Stage;

/* A whole program: its entry points, and the functions they call that
 * internalisation did not inline (compiler/lower/outline.c): large scalar
 * functions, whose parameters and results are primitives and whose bodies
 * are scalar code that cannot fail (no SOACs, arrays or assertions). Each
 * of defs comes after the defs it calls (there is no recursion). Array
 * parameters of entry points have shapes made of fresh i64 Vars that are
 * bound to the dimensions of the arguments on entry (a Var appearing in
 * several shapes means those dimensions must be equal: a mismatch is a
 * run-time error). */
typedef struct Prog {
    Stage stage;
    Fun **funs;
    int nfuns;
    Fun **defs;
    int ndefs;
    int next_var_id;  /* for creating fresh Vars */
    Arena *arena;
    /* STAGE_SOACS after pass shortcircuit (passes.h), by Var id below
     * nshortcircuit: where the memory pass builds the array; else NULL. */
    struct ScTarget **shortcircuit;
    char *owned; /* the same: loop parameters whose initial block the loop may overwrite */
    int nshortcircuit;
    bool gpu; /* the pipeline ends with kernel extraction (set by pipeline_run) */
} Prog;

/* ---- Construction --------------------------------------------------------- */

Var *ir_var(Prog *p, const char *name, Type t);
SubExp se_var(Var *v);
SubExp se_const(PrimValue c);
SubExp se_i64(int64_t v);
SubExp se_bool(bool b);
/* Whether a and b are the same atom: one variable, or equal constants. */
bool se_same(SubExp a, SubExp b);
/* A statement binding the npat Vars pat to e. */
Stm *ir_stm(Arena *a, Var **pat, int npat, IrExp *e, SrcLoc loc);
/* A statement binding the one Var v to e (nothing, when v is NULL). */
Stm *ir_stm1(Arena *a, Var *v, IrExp *e, SrcLoc loc);
/* let dst = src. */
Stm *ir_copy_stm(Arena *a, Var *dst, SubExp src, SrcLoc loc);
/* `let dst = arr[i]`: row i of arr (its element when arr has rank 1), no
 * bounds check. */
Stm *ir_index_stm(Arena *a, Var *dst, Var *arr, SubExp i, SrcLoc loc);
/* A deep copy of s (STAGE_SOACS) in which every Var that s binds, its
 * pattern included, is a fresh one (compiler/ir/clone.c). */
Stm *ir_clone_stm(Prog *p, const Stm *s);
/* A copy of body b with fresh variables in which the uses of from[i]
 * (n of them, bound outside b or by b's lambda) are uses of to[i]
 * (compiler/ir/clone.c): a lambda's body inlined at its arguments. */
Body *ir_clone_body_with(Prog *p, const Body *b, Var *const *from, Var *const *to, int n);
/* A copy of lambda l with fresh variables (STAGE_SOACS). */
Lambda *ir_clone_lambda(Prog *p, const Lambda *l);
/* A growing list of statements, as passes build bodies. */
typedef VEC(Stm *) StmVec;
/* A body of the statements stms (NULL: none) returning res[nres]. */
Body *ir_body_new(Arena *a, StmVec *stms, SubExp *res, int nres);
/* A lambda of the parameters params[nparams] and body, its result types
 * the body's results'. */
Lambda *ir_lambda_new(Arena *a, Var **params, int nparams, Body *body);
/* The segmented version of op (a scan's or reduction's operator): on
 * (flag, values) pairs, where a flagged right operand starts over, with
 * neutral (false, op's neutral). op's lambda becomes part of it (clone it
 * first to keep it). */
SegOp ir_segmented_op(Prog *p, SegOp op, SrcLoc loc);
/* let pat = op.t(x, y). */
Stm *ir_op2_stm(Arena *a, Var *pat, Op op, PrimType t, SubExp x, SubExp y, SrcLoc loc);
/* Appends `let name = op.t(x, y)` to out; returns the new Var. */
SubExp ir_emit_op2(Prog *p, StmVec *out, Op op, PrimType t, SubExp x, SubExp y, const char *name, SrcLoc loc);
/* `let name = iota n` of i64 (0, 1, ..., n - 1): the statement, binding a
 * new Var. */
Stm *ir_iota_stm(Prog *p, const char *name, SubExp n, SrcLoc loc);
/* Appends the row i = t / d and column j of flat position t of rows of
 * d elements to out, j as t - i * d rather than t rem d: one division (a
 * GPU divides 64-bit integers in software; k-means' sums histogram 105 ->
 * 90 us on an H100). */
void ir_emit_unflatten(Prog *p, StmVec *out, SubExp t, SubExp d, SubExp *i, SubExp *j, SrcLoc loc);
/* The byte size of an array of type t (its element size times its dims,
 * multiplied with OP_SIZE_MUL so that an overflow cannot wrap to a small
 * size): a constant, or an i64 Var bound by statements appended to out. */
SubExp ir_size_bytes(Prog *p, StmVec *out, Type t, SrcLoc loc);
Type type_prim(PrimType t);
Type type_array(Arena *a, PrimType elem, int rank, const SubExp *shape);
Type subexp_type(SubExp se);
/* The type of one row (element) of an array type: rank - 1 dims, or a prim. */
Type type_row(Type t);

/* ---- Index functions of IR values ------------------------------------------ */

/* se (an integer constant or an i64 Var) as a Sym of LMAD arithmetic. */
Sym *ir_se_sym(Arena *a, SubExp se);
/* Whether array v (STAGE_MEM) is exactly at dest: in its block, with its
 * index function (a copy of v there would copy nothing). */
bool ir_at(const Var *v, const MemInfo *dest);
/* The LMAD slices of the n leading dimensions of an index expression. */
LmadSlice *ir_lmad_slices(Arena *a, const DimSlice *sl, int n);
/* The part of layout l (of e->arr's index space) that e takes: the slice
 * of an IE_INDEX or IE_UPDATE, the flat slice of an IE_FLAT_INDEX or
 * IE_FLAT_UPDATE. */
Lmad *ir_region(Arena *a, const Lmad *l, const IrExp *e);

/* ---- Queries ---------------------------------------------------------------- */

/* Whether e (or b) contains an assertion, in nested bodies and lambdas too:
 * such code cannot be removed or moved past other failures freely. */
bool ir_exp_has_assert(const IrExp *e);
bool ir_body_has_assert(const Body *b);
bool ir_lambda_has_assert(const Lambda *l);

/* A walk over the variables of IR code: bind is called for each Var a
 * statement, lambda or loop binds (patterns, parameters, loop indices,
 * SOAC iters), use for each Var it reads (operands, arrays, destinations,
 * results, sizes), stm before each statement, nested bodies and lambdas
 * included; any of the three may be NULL. */
typedef struct IrWalk IrWalk;
struct IrWalk {
    void (*bind)(IrWalk *w, Var *v);
    void (*use)(IrWalk *w, Var *v);
    void (*stm)(IrWalk *w, Stm *s);
    void *ctx;
};
void ir_walk_stm(IrWalk *w, Stm *s);
void ir_walk_body(IrWalk *w, Body *b);
void ir_walk_lambda(IrWalk *w, Lambda *l);
/* How many times s (or b, its results included) reads v, nested bodies
 * and lambdas included. */
int ir_stm_uses(Stm *s, const Var *v);
int ir_body_uses(Body *b, const Var *v);
/* Calls f on each Var statement s consumes: an in-place update's array,
 * Scatter or Hist destinations, unique loop parameters' initial values. */
void ir_each_consumed(const Stm *s, void (*f)(void *ctx, const Var *v), void *ctx);
/* Whether IE_OP e is an integer op that can fail or whose run-time
 * meaning depends on a check: division by a non-constant or zero, pow. */
bool ir_op_may_fail(const IrExp *e);
/* Whether e may run where the program would not run it, by its kind
 * alone: a copy, conversion, iota, replicate, reshape, rearrangement,
 * concatenation, array copy or literal, or an operation that cannot fail
 * (SOACs, branches, loops and reads by index need a look inside). */
bool ir_exp_speculable_leaf(const IrExp *e);
/* Whether l binds v (its parameters or its body, nested bodies and
 * lambdas included). */
bool ir_lambda_binds(Lambda *l, const Var *v);

/* A walk over the uses of IR code by reference, so that the callback may
 * replace them: f gets each use as a SubExp (se) or a Var slot (v, the
 * other NULL), with how it is used. Types' shapes count as uses (of
 * patterns, lambda parameters and results, loop parameters, if results);
 * bindings are not reported. */
typedef enum IrUseKind {
    IR_USE_READ,  /* a read-only array use that creates no alias (SOAC input,
                     scalar index, copy, concat) */
    IR_USE_OTHER, /* anything else */
} IrUseKind;
typedef void (*IrUseFn)(void *ctx, SubExp *se, Var **v, IrUseKind k);
void ir_uses_se(SubExp *se, IrUseFn f, void *ctx);
void ir_uses_ses(SubExp *ses, int n, IrUseFn f, void *ctx);
void ir_uses_type(Type *t, IrUseFn f, void *ctx);
void ir_uses_lambda(Lambda *l, IrUseFn f, void *ctx);
void ir_uses_stm(Stm *st, IrUseFn f, void *ctx);
void ir_uses_body(Body *b, IrUseFn f, void *ctx);
/* Whether e is an in-place update (IE_UPDATE or IE_FLAT_UPDATE), or a
 * slice (IE_INDEX or IE_FLAT_INDEX). */
bool ir_is_update(const IrExp *e);
bool ir_is_index(const IrExp *e);
/* Whether an IE_INDEX takes a scalar (every dimension indexed, no slices). */
bool ir_is_scalar_index(const IrExp *e);

/* Calls fn on each body nested directly in e: if branches, the loop
 * body, the bodies of SOAC lambdas and operators. */
void ir_exp_bodies(IrExp *e, void (*fn)(Body *b, void *ctx), void *ctx);

/* The index of f in p->defs, or -1. */
int ir_def_index(const Prog *p, const Fun *f);
/* counts[i] (p->ndefs entries): the IE_APPLY statements that call
 * p->defs[i] in the entry points and in the defs that are called
 * themselves (a def no one calls adds no calls), nested bodies included. */
void ir_count_calls(const Prog *p, int *counts);

/* The operator of result j of a binary operator lambda on k values when
 * that result is one primitive op of accumulator j and element j
 * (params[j] and params[k + j], in either order), else OP_COUNT. */
Op ir_lambda_binop(const Lambda *l, int j, int k);
/* The position of v among l's parameters, or -1. */
int ir_param_index(const Lambda *l, const Var *v);
/* The map of op when op applies one map of a scalar function to its
 * parameters, rows, element by element (Futhark's vectorised operators,
 * as in hist (map2 (+))), reading each parameter once: a function of
 * accumulator elements and value elements; else NULL. */
const Screma *ir_elementwise(const SegOp *op);
/* Whether s is cheap code that every work-item of a flattened nest may
 * repeat: scalar operations, conversions, indexing, views (reshape,
 * rearrange), assertions, and calls of functions made of such code. */
bool ir_stm_cheap(const Stm *s);
/* Whether every parameter of the operators ops[0..n) is a scalar. */
bool ir_segops_scalar(const SegOp *ops, int n);
/* Calls f on each SOAC at the group level of body b (the level that the
 * work-items of an intra-group version's work-group run together): b's
 * statements and those of the ifs and loops among them, not inside SOAC
 * lambdas. Stops when f returns false, and returns whether none did. */
bool ir_each_group_soac(const Body *b, bool (*f)(void *ctx, const Stm *s), void *ctx);
/* Whether every result of op is a commutative primitive op (+, *, min,
 * max, bit and logical and/or/xor, ==, !=) of its accumulator and element:
 * a known-commutative operator that reduce need not be told about. */
bool ir_segop_known_commutative(const SegOp *op);

/* ---- Printing and checking ------------------------------------------------ */

/* "SegMap", "SegRed", ...: the names structure counts and dumps use. */
const char *ir_seg_name(SegKind k);

/* Prints the program in a readable, stable text form. */
void ir_print(Buf *out, const Prog *p);
/* Prints a type as ir_print does ("[n][3i64]f32"). */
void ir_print_type(Buf *out, Type t);
/* Checks IR invariants (every Var bound once before use, types of operands
 * and results agree, lambdas' arities match; MemInfo present at STAGE_MEM).
 * Reports the first violation through ICE with the pass name. */
void ir_verify(const Prog *p, const char *after_pass);

#endif
