/* SegHist (gpu.h lists the GPU lowering's files): a histogram whose
 * operator combines one scalar of 4 or 8 bytes (compiler/passes/kernels.c
 * makes no other SegHist). Every work-item of the kernel folds its
 * elements of the input, strided and unrolled (gl_strided), into the
 * buckets atomically: by the target's atomic operation where the
 * operator is one (+, min, max, and, or, xor on integers; + on floats),
 * else by a compare-and-swap loop on the bucket's bits. Buckets of 4
 * bytes that fit in a work-group's local memory are first combined in a
 * sub-histogram of the group there, which the group then adds into the
 * destination (contention in local memory is cheaper, and each group
 * updates each global bucket once). Indices outside the buckets are
 * ignored. */
#include "gpu.h"

/* The kernel being written: the histogram, its bucket type t, the
 * number of buckets (bins), and for a local sub-histogram (lh, else
 * NULL) whether the host found that it fits (use_local) and the
 * work-item's place in its group (ltid, lsize). */
typedef struct HistK {
    const Hist *h;
    PrimType t;
    ImpVar *bins, *use_local, *lh, *ltid, *lsize;
} HistK;

/* The atomic operation that combines a value into a bucket of type t as
 * op does, or -1 when the target has none. */
static int native_atomic(const SegOp *op, PrimType t) {
    Op o = ir_lambda_binop(op->op, 0, 1);
    if (prim_class(t) == PC_FLOAT) return o == OP_ADD ? IMP_AT_ADD : -1;
    switch (o) {
    case OP_ADD: return IMP_AT_ADD;
    case OP_MIN: return IMP_AT_MIN;
    case OP_MAX: return IMP_AT_MAX;
    case OP_AND: return IMP_AT_AND;
    case OP_OR: return IMP_AT_OR;
    case OP_XOR: return IMP_AT_XOR;
    default: return -1;
    }
}

/* x of type t as the bits of unsigned type u of its width, and back. */
static ImpExp *to_bits(ImpLower *L, PrimType t, PrimType u, ImpExp *x) {
    if (prim_class(t) == PC_FLOAT) return imp_op(L->a, OP_TO_BITS, t, &x);
    return t == u ? x : imp_conv(L->a, t, u, x);
}

static ImpExp *from_bits(ImpLower *L, PrimType t, PrimType u, ImpExp *x) {
    if (prim_class(t) == PC_FLOAT) return imp_op(L->a, OP_FROM_BITS, u, &x);
    return t == u ? x : imp_conv(L->a, u, t, x);
}

/* Combines value val into element index of block mem (of type t) with
 * op, atomically: natively, or by swapping in op(old, val) when the
 * element's bits are still old's, until they are. */
static void atomic_update(ImpLower *L, const SegOp *op, PrimType t, ImpVar *mem, ImpExp *index, ImpExp *val) {
    Arena *a = L->a;
    int nat = native_atomic(op, t);
    if (nat >= 0) {
        ImpStm *at = imp_add(L->b, IMP_ATOMIC);
        at->atomic = (ImpAtomic)nat;
        at->mem = mem;
        at->t = t;
        at->index = index;
        at->value = val;
        return;
    }
    PrimType u = prim_size(t) == 8 ? PT_U64 : PT_U32;
    ImpVar *old = gl_let(L, "old", u, imp_load(a, mem, u, index));
    ImpVar *again = gl_let(L, "again", PT_BOOL, imp_const(a, prim_bool(true)));
    LwNest n;
    ImpStm *w = gl_while(L, &n, imp_read(a, again));
    ImpVar *seen = gl_let(L, "seen", u, imp_read(a, old));
    ImpVar *next = gl_let(L, "next", t, NULL);
    ImpExp *cur = from_bits(L, t, u, imp_read(a, seen));
    gl_apply(L, op, 1, &cur, &val, &next);
    ImpStm *at = imp_add(L->b, IMP_ATOMIC);
    at->atomic = IMP_AT_CMPXCHG;
    at->var = lw_fresh(L, "got", IMP_SCALAR, u);
    at->mem = mem;
    at->t = u;
    at->index = index;
    at->expected = imp_read(a, seen);
    at->value = to_bits(L, t, u, imp_read(a, next));
    imp_assign(L->b, old, imp_read(a, at->var));
    imp_assign(L->b, again, imp_op2(a, OP_NE, u, imp_read(a, at->var), imp_read(a, seen)));
    w->body = lw_leave(L, &n);
}

/* Combines value v into bucket b (an i64 variable in range) of the
 * destination. */
static void global_update(ImpLower *L, const HistK *H, ImpVar *b, ImpExp *v) {
    const Var *d = H->h->dests[0];
    Sym *bs = gl_sym(L, b);
    atomic_update(L, &H->h->op, H->t, lw_var(L, d->mem->mem), lw_offset(L, d->mem->ixfun, &bs), v);
}

/* Combines one element's bucket index and value vals into the
 * sub-histogram or the destination (a GlCombine); indices outside the
 * buckets are ignored. */
static void combine_hist(ImpLower *L, ImpExp **vals, void *ctx) {
    const HistK *H = ctx;
    Arena *a = L->a;
    ImpVar *b = gl_let(L, "bucket", PT_I64, vals[0]);
    ImpExp *lo = imp_op2(a, OP_GE, PT_I64, imp_read(a, b), gl_i64(L, 0));
    ImpExp *hi = imp_op2(a, OP_LT, PT_I64, imp_read(a, b), imp_read(a, H->bins));
    LwNest n;
    ImpStm *in = gl_if(L, &n, imp_op2(a, OP_LAND, PT_BOOL, lo, hi));
    if (!H->lh) {
        global_update(L, H, b, vals[1]);
        in->body = lw_leave(L, &n);
        return;
    }
    LwNest ln;
    ImpStm *local = gl_if(L, &ln, imp_read(a, H->use_local));
    atomic_update(L, &H->h->op, H->t, H->lh, imp_read(a, b), vals[1]);
    local->body = lw_leave(L, &ln);
    lw_enter(L, &ln);
    global_update(L, H, b, vals[1]);
    local->orelse = lw_leave(L, &ln);
    in->body = lw_leave(L, &n);
}

/* Opens the loop of a group's work-items over the buckets of the
 * sub-histogram (b = ltid, ltid + lsize, ... below bins); close_buckets
 * closes it. */
static ImpVar *open_buckets(ImpLower *L, const HistK *H, LwNest *n, ImpStm **w) {
    ImpVar *b = gl_let(L, "b", PT_I64, imp_read(L->a, H->ltid));
    *w = gl_while(L, n, imp_op2(L->a, OP_LT, PT_I64, imp_read(L->a, b), imp_read(L->a, H->bins)));
    return b;
}

static void close_buckets(ImpLower *L, const HistK *H, LwNest *n, ImpStm *w, ImpVar *b) {
    imp_assign(L->b, b, gl_op(L, OP_ADD, imp_read(L->a, b), imp_read(L->a, H->lsize)));
    w->body = lw_leave(L, n);
}

/* Kernel: when the sub-histogram is used, its buckets set to the
 * operator's neutral element before the strided loop (begin) or added
 * into the destination after it (!begin). The condition is uniform: the
 * whole group meets the barriers. */
static void sub_histogram(ImpLower *L, const HistK *H, bool begin) {
    Arena *a = L->a;
    LwNest n, bn;
    ImpStm *st = gl_if(L, &n, imp_read(a, H->use_local)), *w;
    if (!begin) gl_barrier(L);
    ImpVar *b = open_buckets(L, H, &bn, &w);
    if (begin) imp_store(L->b, H->lh, H->t, imp_read(a, b), lw_se(L, H->h->op.neutral[0]));
    else global_update(L, H, b, imp_load(a, H->lh, H->t, imp_read(a, b)));
    close_buckets(L, H, &bn, w, b);
    if (begin) gl_barrier(L);
    st->body = lw_leave(L, &n);
}

/* A SegHist: the tuned number of groups of the tuned size, each
 * work-item striding over the whole input. The sub-histogram is for
 * 4-byte buckets only, used when the host finds that there are some and
 * that they fit in the local memory a group may use (its local array
 * then holds them all, else one element). */
void gl_seg_hist(ImpLower *L, const Stm *s) {
    const SegInfo *g = s->e->seg;
    const Hist *h = &s->e->hist;
    Arena *a = L->a;
    HistK H = {.h = h, .t = h->op.op->params[0]->type.elem};
    Kb kb;
    kb_begin(L, &kb, "seghist", g);
    ImpVar *n = gl_let(L, "n", PT_I64, lw_se(L, h->w)), *bins = gl_let(L, "bins", PT_I64, lw_se(L, h->dest_w));
    ImpVar *size = gl_let(L, "group_size", PT_I64, imp_tuning(a, kb.k, IMP_TUNE_GROUP_SIZE, NULL));
    ImpExp *tune[2] = {imp_read(a, n), imp_read(a, size)};
    ImpVar *groups = gl_let(L, "groups", PT_I64, imp_tuning(a, kb.k, IMP_TUNE_NUM_GROUPS, tune));
    bool local = prim_size(H.t) == 4;
    ImpVar *use_local = NULL, *count = NULL;
    if (local) {
        ImpExp *some = imp_op2(a, OP_GT, PT_I64, imp_read(a, bins), gl_i64(L, 0));
        ImpExp *bytes = gl_op(L, OP_MUL, imp_read(a, bins), gl_i64(L, prim_size(H.t)));
        ImpExp *fit = imp_op2(a, OP_LE, PT_I64, bytes, imp_local_budget(a));
        use_local = gl_let(L, "use_local", PT_BOOL, imp_op2(a, OP_LAND, PT_BOOL, some, fit));
        count = gl_let(L, "local_count", PT_I64, gl_i64(L, 1));
        LwNest cn;
        ImpStm *all = gl_if(L, &cn, imp_read(a, use_local));
        imp_assign(L->b, count, imp_read(a, bins));
        all->body = lw_leave(L, &cn);
    }
    kb_free_vars(L, &kb, gl_op(L, OP_MUL, imp_read(a, groups), imp_read(a, size)), s->loc);
    ImpVar *kn = kb_scalar(L, &kb, "n", PT_I64, imp_read(a, n));
    H.bins = kb_scalar(L, &kb, "bins", PT_I64, imp_read(a, bins));
    if (local) {
        H.use_local = kb_scalar(L, &kb, "use_local", PT_BOOL, imp_read(a, use_local));
        H.lh = kb_local(L, &kb, "sub", H.t, imp_read(a, count));
    }

    kb_enter(L, &kb);
    ImpVar *gtid = gl_let(L, "gtid", PT_I64, imp_thread(a, IMP_GLOBAL_ID));
    ImpVar *nthreads = gl_let(L, "nthreads", PT_I64, imp_thread(a, IMP_GLOBAL_SIZE));
    kb_prologue(L, &kb, gl_sym(L, gtid));
    if (local) {
        H.ltid = gl_let(L, "ltid", PT_I64, imp_thread(a, IMP_LOCAL_ID));
        H.lsize = gl_let(L, "lsize", PT_I64, imp_thread(a, IMP_LOCAL_SIZE));
        sub_histogram(L, &H, true);
    }
    PrimType ts[2] = {PT_I64, H.t};
    GlStride all = {imp_read(a, gtid), imp_read(a, nthreads), imp_read(a, kn)};
    gl_strided(L, all, s, h->lam, h->arrs, h->iter, ts, 2, combine_hist, &H);
    if (local) sub_histogram(L, &H, false);
    kb_leave(L, &kb);

    kb_launch(L, &kb, imp_read(a, groups), imp_read(a, size));
    kb_release(L, &kb);
}
