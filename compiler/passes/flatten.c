/* Flattening of irregular nested parallelism, STAGE_SOACS -> STAGE_SOACS,
 * GPU pipeline only (regularity-identifying flattening, seed 003 §1.8;
 * reference/seeds-003-004-flattening-velociraptor.md).
 *
 * A host-level map whose elements build arrays of a length that differs
 * from element to element (a size bound in the map's body, such as
 * `iota n` for each n of ns) cannot become a kernel: its per-element
 * memory has no fixed size (kernels.c would run it on the host). This
 * pass rewrites such a map into operations over all elements' arrays at
 * once, each stored packed in one flat array, with a descriptor of the
 * segments: for a size s of the body, the [w] array of its values (one
 * per element), their exclusive prefix sums (offsets), the total, and
 * for each flat position its segment and its index in the segment:
 *
 *   map (\n -> let xs = scan (+) 0 (iota n) in xs[n-1]) ns
 *   => offsets, total, seg, pos of ns;
 *      let xs_flat = segmented scan (+) of pos (flags where pos == 0)
 *      in map (\n off -> let xs = xs_flat[off:n] in xs[n-1]) ns offsets
 *
 * The body's top-level statements are of two kinds:
 * - inner: an iota or replicate of a body-bound length, a Screma over
 *   inner arrays (or of a body-bound width) whose lambdas are scalar code,
 *   an in-place update of one element of an inner array. They are lifted:
 *   an iota or replicate becomes a map over the flat positions; a Screma's
 *   map runs over the flat arrays (a value of the body it reads is read
 *   from its expanded array at the position's segment); its scans and
 *   reductions become segmented scans of (flag, value) pairs whose
 *   operator restarts at a flagged element, and a reduction's result is
 *   the last element of each segment's scan (the neutral element for an
 *   empty segment); an update becomes a scatter of one element per
 *   segment;
 * - outer: everything else. Consecutive outer statements run as a map
 *   over the elements (a stage), as the original body did; where one uses
 *   an inner array, it reads the array's segment, a slice of the flat
 *   array. A value a stage binds and later code uses is expanded into an
 *   array of one row per element.
 *
 * Work is then proportional to the total number of elements, whatever the
 * lengths: one long segment among short ones no longer runs in one
 * work-item. Fusion runs again afterwards (the lifted maps fuse with each
 * other and with the segmented scans).
 *
 * Not flattened (the map stays as it was): a body whose inner arrays are
 * results of the map (irregular results), an inner Screma whose lambdas
 * hold arrays, loops or SOACs, a neutral element bound in the body, an
 * outer statement that binds an array of a body-bound size other than
 * these, or that consumes a value of another stage; a map with scans or
 * reductions of its own. Sizes are checked to be non-negative by the
 * body's own assertions before they are summed; a total past 2^63-1 fails
 * with an error instead of wrapping. */
#include "passes.h"

#include <stdlib.h>
#include <string.h>

/* The most maps one run of the pass flattens (each level of nesting one
 * more): a bound on the work, whatever the program. */
#define MAX_FLATTENED 64

/* What a Var of the map's body is. */
enum {
    L_NONE,
    L_OUTER, /* a value of one element */
    L_INNER, /* an array of a length bound in the body: flat, with a descriptor */
    L_VIEW,  /* a slice of an array bound outside the map whose length is bound
                in the body (a segment a lifted map reads): made again where
                it is used, never expanded */
};

/* The segments of the arrays of one body-bound length. */
typedef struct Desc {
    Var *size;             /* the length (a Var of the body) */
    Var *sizes;            /* [w]i64: its value for each element */
    Var *offsets;          /* [w]i64: exclusive prefix sums of sizes */
    Var *total;            /* i64: their sum */
    Var *seg, *pos;        /* [total]i64: segment and index of each flat position (or NULL) */
    struct Desc *next;
} Desc;

typedef struct Flat {
    Prog *p;
    Arena *a;
    SrcLoc loc;
    SubExp w;            /* the map's width */
    int nvars;           /* entries of the arrays below (Var ids of the body) */
    char *level;         /* by Var id: L_OUTER (body-bound or parameter) or L_INNER */
    int *stage;          /* by Var id: the index of the top-level statement binding it (-1: a parameter) */
    int *last_use;       /* by Var id: the last top-level statement using it (nstms: a result) */
    Var **lifted;        /* by Var id, outer: its expanded [w] array once bound */
    Var **len;           /* by Var id, inner: its length (a Var of the body) */
    Stm **def;           /* by Var id, view: the statement binding it */
    Var **flat;          /* by Var id, inner: its flat array */
    Desc **desc;         /* by Var id, inner: the segments of its length */
    Desc *descs;
    StmVec out;          /* the statements replacing the map */
    bool changed;
    int nflat;           /* maps flattened so far */
    /* Building one stage or lifted lambda: */
    Var **repl;          /* by Var id: its Var there */
    VEC(Var *) params;
    VEC(Var *) arrs;
    StmVec prologue;
    int lo, hi;          /* the stage's top-level statements */
    Var *seg_param;      /* a lifted lambda's segment parameter */
    Desc *cur;           /* the segments of the statement being lifted */
} Flat;

/* F->stage of a Var bound inside a statement of the body, not at its top level. */
#define NESTED 0x7fffffff

static bool body_var(const Flat *F, const Var *v) { return v->id < F->nvars && F->level[v->id]; }

/* A parameter of the map's lambda or a Var its body binds at the top level:
 * a value of one element. */
static bool top_var(const Flat *F, const Var *v) { return body_var(F, v) && F->stage[v->id] != NESTED; }

static bool inner_arr(const Flat *F, const Var *v) { return body_var(F, v) && F->level[v->id] == L_INNER; }

static bool irregular_type(const Flat *F, Type t) {
    for (int d = 0; t.kind == TK_ARRAY && d < t.rank; d++)
        if (t.shape[d].is_var && body_var(F, t.shape[d].v)) return true;
    return false;
}

/* ---- Small builders ------------------------------------------------------------- */

static IrExp *exp_new(Flat *F, IrExpKind k) {
    IrExp *e = NEW(F->a, IrExp);
    e->kind = k;
    return e;
}

static Type arr_type(Flat *F, PrimType t, SubExp n) { return type_array(F->a, t, 1, &n); }

static Var *emit1(Flat *F, StmVec *out, const char *name, Type t, IrExp *e) {
    Var *v = ir_var(F->p, name, t);
    vec_push(out, ir_stm1(F->a, v, e, F->loc));
    return v;
}

/* let v = arr[i] (a scalar). */
static Var *emit_index(Flat *F, StmVec *out, Var *arr, SubExp i) {
    IrExp *e = exp_new(F, IE_INDEX);
    e->arr = arr;
    e->nslice = 1;
    e->slice = NEW(F->a, DimSlice);
    e->slice->index = i;
    return emit1(F, out, arr->name, type_row(arr->type), e);
}

static Body *body_new(Flat *F, StmVec *stms, SubExp *res, int nres) {
    Body *b = NEW(F->a, Body);
    b->nstms = stms ? stms->len : 0;
    b->stms = b->nstms ? vec_to_arena(F->a, stms) : NEW_ARRAY(F->a, Stm *, 1);
    b->nres = nres;
    b->res = NEW_ARRAY(F->a, SubExp, nres + 1);
    COPY_ARRAY(b->res, res, nres);
    return b;
}

static Lambda *lambda_new(Flat *F, Var **params, int nparams, Body *body) {
    Lambda *l = NEW(F->a, Lambda);
    l->nparams = nparams;
    l->params = NEW_ARRAY(F->a, Var *, nparams + 1);
    COPY_ARRAY(l->params, params, nparams);
    l->body = body;
    l->nret = body->nres;
    l->ret = NEW_ARRAY(F->a, Type, body->nres + 1);
    for (int i = 0; i < body->nres; i++) l->ret[i] = subexp_type(body->res[i]);
    return l;
}

/* screma(n, arrs) map lam, binding pat[i] (a fresh array where NULL; pat
 * is copied). */
static Stm *map_stm(Flat *F, SubExp n, Var **arrs, int narrs, Lambda *lam, Var **pat) {
    IrExp *e = exp_new(F, IE_SCREMA);
    e->screma.w = n;
    e->screma.narrs = narrs;
    e->screma.arrs = NEW_ARRAY(F->a, Var *, narrs + 1);
    COPY_ARRAY(e->screma.arrs, arrs, narrs);
    e->screma.map = lam;
    Var **vs = NEW_ARRAY(F->a, Var *, lam->nret + 1);
    for (int i = 0; i < lam->nret; i++) {
        if (!pat[i]) pat[i] = ir_var(F->p, "flat", arr_type(F, lam->ret[i].elem, n));
        vs[i] = pat[i];
    }
    return ir_stm(F->a, vs, lam->nret, e, F->loc);
}

/* An i64 identity lambda (one parameter, returned). */
static Lambda *identity(Flat *F, PrimType t) {
    Var *x = ir_var(F->p, "x", type_prim(t));
    SubExp r = se_var(x);
    return lambda_new(F, &x, 1, body_new(F, NULL, &r, 1));
}

/* The operator of the offsets' scan: a + b of non-negative sizes, or -1
 * once the sum passes 2^63-1 (or an operand is -1), so that an overflow
 * cannot wrap to a valid total. Associative on non-negative values. */
static SegOp sum_op(Flat *F) {
    Var *x = ir_var(F->p, "x", type_prim(PT_I64)), *y = ir_var(F->p, "y", type_prim(PT_I64));
    StmVec s = {0};
    SubExp sum = ir_emit_op2(F->p, &s, OP_ADD, PT_I64, se_var(x), se_var(y), "sum", F->loc);
    SubExp xn = ir_emit_op2(F->p, &s, OP_LT, PT_I64, se_var(x), se_i64(0), "neg", F->loc);
    SubExp yn = ir_emit_op2(F->p, &s, OP_LT, PT_I64, se_var(y), se_i64(0), "neg", F->loc);
    SubExp sn = ir_emit_op2(F->p, &s, OP_LT, PT_I64, sum, se_i64(0), "neg", F->loc);
    SubExp bad = ir_emit_op2(F->p, &s, OP_LOR, PT_BOOL, xn, yn, "bad", F->loc);
    bad = ir_emit_op2(F->p, &s, OP_LOR, PT_BOOL, bad, sn, "bad", F->loc);
    SubExp m1 = se_i64(-1);
    IrExp *e = exp_new(F, IE_IF);
    e->cond = bad;
    e->tbody = body_new(F, NULL, &m1, 1);
    e->fbody = body_new(F, NULL, &sum, 1);
    e->nret = 1;
    e->ret = NEW(F->a, Type);
    e->ret[0] = type_prim(PT_I64);
    Var *r = emit1(F, &s, "sum", type_prim(PT_I64), e);
    SubExp rs = se_var(r);
    Var *ps[2] = {x, y};
    SegOp op = {lambda_new(F, ps, 2, body_new(F, &s, &rs, 1)), NEW(F->a, SubExp), 1, true};
    op.neutral[0] = se_i64(0);
    vec_free(&s);
    return op;
}

/* The i64 add operator with neutral 0. */
static SegOp add_op(Flat *F) {
    Var *x = ir_var(F->p, "x", type_prim(PT_I64)), *y = ir_var(F->p, "y", type_prim(PT_I64));
    StmVec s = {0};
    SubExp r = ir_emit_op2(F->p, &s, OP_ADD, PT_I64, se_var(x), se_var(y), "sum", F->loc);
    Var *ps[2] = {x, y};
    SegOp op = {lambda_new(F, ps, 2, body_new(F, &s, &r, 1)), NEW(F->a, SubExp), 1, true};
    op.neutral[0] = se_i64(0);
    vec_free(&s);
    return op;
}

/* An inclusive scan of arr (i64) with op. */
static Var *emit_scan(Flat *F, SubExp n, Var *arr, SegOp op, const char *name) {
    IrExp *e = exp_new(F, IE_SCREMA);
    e->screma.w = n;
    e->screma.narrs = 1;
    e->screma.arrs = NEW(F->a, Var *);
    e->screma.arrs[0] = arr;
    e->screma.nscans = 1;
    e->screma.scans = NEW(F->a, SegOp);
    e->screma.scans[0] = op;
    e->screma.map = identity(F, PT_I64);
    return emit1(F, &F->out, name, arr_type(F, PT_I64, n), e);
}

/* ---- Descriptors -------------------------------------------------------------- */

static Var *lifted_of(Flat *F, Var *v);

/* The segments of length len: offsets by a scan of the sizes, the total
 * (checked not to have overflowed). */
static Desc *desc_of(Flat *F, Var *len) {
    for (Desc *d = F->descs; d; d = d->next)
        if (d->size == len) return d;
    Desc *d = NEW(F->a, Desc);
    d->size = len;
    d->sizes = lifted_of(F, len);
    Var *incl = emit_scan(F, F->w, d->sizes, sum_op(F), "incl");
    /* total = w == 0 ? 0 : incl[w-1] */
    SubExp empty = ir_emit_op2(F->p, &F->out, OP_EQ, PT_I64, F->w, se_i64(0), "empty", F->loc);
    StmVec last = {0};
    SubExp wm1 = ir_emit_op2(F->p, &last, OP_SUB, PT_I64, F->w, se_i64(1), "last", F->loc);
    SubExp t = se_var(emit_index(F, &last, incl, wm1));
    SubExp zero = se_i64(0);
    IrExp *e = exp_new(F, IE_IF);
    e->cond = empty;
    e->tbody = body_new(F, NULL, &zero, 1);
    e->fbody = body_new(F, &last, &t, 1);
    e->nret = 1;
    e->ret = NEW(F->a, Type);
    e->ret[0] = type_prim(PT_I64);
    vec_free(&last);
    d->total = emit1(F, &F->out, "total", type_prim(PT_I64), e);
    SubExp ok = ir_emit_op2(F->p, &F->out, OP_LE, PT_I64, se_i64(0), se_var(d->total), "ok", F->loc);
    IrExp *as = exp_new(F, IE_ASSERT);
    as->cond = ok;
    as->msg = "The lengths of the arrays built by a map add up to more than 2^63-1 elements.";
    vec_push(&F->out, ir_stm(F->a, NULL, 0, as, F->loc));
    /* offsets = incl - sizes */
    Var *a = ir_var(F->p, "incl", type_prim(PT_I64)), *b = ir_var(F->p, "size", type_prim(PT_I64));
    StmVec s = {0};
    SubExp o = ir_emit_op2(F->p, &s, OP_SUB, PT_I64, se_var(a), se_var(b), "offset", F->loc);
    Var *ps[2] = {a, b}, *ins[2] = {incl, d->sizes}, *pat[1] = {NULL};
    vec_push(&F->out, map_stm(F, F->w, ins, 2, lambda_new(F, ps, 2, body_new(F, &s, &o, 1)), pat));
    vec_free(&s);
    d->offsets = pat[0];
    d->offsets->name = "offsets";
    d->next = F->descs;
    F->descs = d;
    return d;
}

/* The segment and the index in it of each flat position: a histogram of
 * the segments' starts (an empty segment starts where the next one does,
 * and one at the end, at total, is left out), whose inclusive prefix sums
 * minus one are the segments. */
static void desc_positions(Flat *F, Desc *d) {
    if (d->seg) return;
    SubExp total = se_var(d->total);
    IrExp *r = exp_new(F, IE_REPLICATE);
    r->nshape = 1;
    r->shape = NEW(F->a, SubExp);
    r->shape[0] = total;
    r->se = se_i64(0);
    Var *zeros = emit1(F, &F->out, "starts", arr_type(F, PT_I64, total), r);
    Var *o = ir_var(F->p, "offset", type_prim(PT_I64));
    SubExp hres[2] = {se_var(o), se_i64(1)};
    IrExp *h = exp_new(F, IE_HIST);
    h->hist.w = F->w;
    h->hist.narrs = 1;
    h->hist.arrs = NEW(F->a, Var *);
    h->hist.arrs[0] = d->offsets;
    h->hist.lam = lambda_new(F, &o, 1, body_new(F, NULL, hres, 2));
    h->hist.dest_w = total;
    h->hist.dests = NEW(F->a, Var *);
    h->hist.dests[0] = zeros;
    h->hist.op = add_op(F);
    Var *starts = emit1(F, &F->out, "starts", arr_type(F, PT_I64, total), h);
    Var *incl = emit_scan(F, total, starts, add_op(F), "segs");
    /* seg = incl - 1; pos = i - offsets[seg] */
    IrExp *io = exp_new(F, IE_IOTA);
    io->n = total;
    io->start = se_i64(0);
    io->step = se_i64(1);
    io->t = PT_I64;
    Var *iota = emit1(F, &F->out, "flat_index", arr_type(F, PT_I64, total), io);
    Var *c = ir_var(F->p, "segs", type_prim(PT_I64)), *i = ir_var(F->p, "i", type_prim(PT_I64));
    StmVec s = {0};
    SubExp sg = ir_emit_op2(F->p, &s, OP_SUB, PT_I64, se_var(c), se_i64(1), "seg", F->loc);
    SubExp off = se_var(emit_index(F, &s, d->offsets, sg));
    SubExp res[2] = {sg, ir_emit_op2(F->p, &s, OP_SUB, PT_I64, se_var(i), off, "pos", F->loc)};
    Var *ps[2] = {c, i}, *ins[2] = {incl, iota}, *pat[2] = {NULL, NULL};
    vec_push(&F->out, map_stm(F, total, ins, 2, lambda_new(F, ps, 2, body_new(F, &s, res, 2)), pat));
    vec_free(&s);
    d->seg = pat[0];
    d->seg->name = "seg";
    d->pos = pat[1];
    d->pos->name = "pos";
}

/* flat[off : len]: one element's segment of a flat array. */
static IrExp *segment(Flat *F, Var *flat, SubExp off, SubExp len) {
    IrExp *e = exp_new(F, IE_INDEX);
    e->arr = flat;
    e->nslice = 1;
    e->slice = NEW(F->a, DimSlice);
    *e->slice = (DimSlice){true, {0}, off, len, se_i64(1)};
    return e;
}

/* ---- Expanded values ------------------------------------------------------------ */

/* The expanded [w] array of an outer value v (bound by now). */
static Var *lifted_of(Flat *F, Var *v) {
    if (!F->lifted[v->id]) ICE("flatten: %s has no expanded array", v->name);
    return F->lifted[v->id];
}

static Var *remat_view(Flat *F, Var *x, IrUseFn use);

/* A use in a stage (F->lo..hi): a value of the body bound outside the
 * stage becomes a parameter of the stage's map (its expanded array the
 * input), an inner array the segment of its flat array. */
static void stage_use(void *ctx, SubExp *se, Var **vp, IrUseKind k) {
    (void)k;
    Flat *F = ctx;
    Var *x = se ? se->v : *vp;
    if (!top_var(F, x) || (F->stage[x->id] >= F->lo && F->stage[x->id] < F->hi)) return;
    if (!F->repl[x->id]) {
        if (F->level[x->id] == L_VIEW) {
            F->repl[x->id] = remat_view(F, x, stage_use);
        } else if (F->level[x->id] == L_OUTER) {
            Var *p = ir_var(F->p, x->name, x->type);
            F->repl[x->id] = p;
            vec_push(&F->params, p);
            vec_push(&F->arrs, lifted_of(F, x));
        } else {
            Desc *d = F->desc[x->id];
            SubExp len = se_var(d->size);
            stage_use(F, &len, NULL, k);
            Var *off = ir_var(F->p, "offset", type_prim(PT_I64));
            vec_push(&F->params, off);
            vec_push(&F->arrs, d->offsets);
            F->repl[x->id] = emit1(F, &F->prologue, x->name, arr_type(F, x->type.elem, len),
                                   segment(F, F->flat[x->id], se_var(off), len));
        }
    }
    if (se) se->v = F->repl[x->id];
    else *vp = F->repl[x->id];
}

/* View x made again in the prologue of the code being built, its operands
 * substituted by use (stage_use or inner_use). */
static Var *remat_view(Flat *F, Var *x, IrUseFn use) {
    const IrExp *d = F->def[x->id]->e;
    IrExp *e = exp_new(F, IE_INDEX);
    e->arr = d->arr;
    e->nslice = d->nslice;
    e->slice = NEW_ARRAY(F->a, DimSlice, d->nslice);
    COPY_ARRAY(e->slice, d->slice, d->nslice);
    for (int i = 0; i < e->nslice; i++) {
        DimSlice *sl = &e->slice[i];
        ir_uses_se(&sl->index, use, F);
        ir_uses_se(&sl->start, use, F);
        ir_uses_se(&sl->len, use, F);
        ir_uses_se(&sl->stride, use, F);
    }
    Type t = x->type;
    t.shape = NEW_ARRAY(F->a, SubExp, t.rank);
    COPY_ARRAY(t.shape, x->type.shape, t.rank);
    ir_uses_type(&t, use, F);
    return emit1(F, &F->prologue, x->name, t, e);
}

static void reset_build(Flat *F) {
    memset(F->repl, 0, sizeof(Var *) * (size_t)F->nvars);
    F->params.len = F->arrs.len = F->prologue.len = 0;
    F->seg_param = NULL;
}

/* Statements [lo, hi) of body b as a map over the elements, returning the
 * values bound there that later statements or the results use (each
 * expanded into its [w] array). */
static void emit_stage(Flat *F, Body *b, int lo, int hi) {
    if (lo == hi) return;
    reset_build(F);
    F->lo = lo;
    F->hi = hi;
    for (int k = lo; k < hi; k++) ir_uses_stm(b->stms[k], stage_use, F);
    StmVec stms = {0};
    for (int i = 0; i < F->prologue.len; i++) vec_push(&stms, F->prologue.items[i]);
    for (int k = lo; k < hi; k++) vec_push(&stms, b->stms[k]);
    VEC(SubExp) res = {0};
    VEC(Var *) pat = {0};
    for (int k = lo; k < hi; k++)
        for (int j = 0; j < b->stms[k]->npat; j++) {
            Var *x = b->stms[k]->pat[j];
            if (F->last_use[x->id] < hi || F->level[x->id] == L_VIEW) continue;
            vec_push(&res, se_var(x));
            Type t = x->type;
            int r = t.kind == TK_ARRAY ? t.rank : 0;
            SubExp *shape = NEW_ARRAY(F->a, SubExp, r + 1);
            shape[0] = F->w;
            for (int d = 0; d < r; d++) shape[d + 1] = t.shape[d];
            Var *l = ir_var(F->p, x->name, type_array(F->a, t.elem, r + 1, shape));
            F->lifted[x->id] = l;
            vec_push(&pat, l);
        }
    Lambda *lam = lambda_new(F, F->params.items, F->params.len, body_new(F, &stms, res.items, res.len));
    Var **pv = NEW_ARRAY(F->a, Var *, pat.len + 1);
    COPY_ARRAY(pv, pat.items, pat.len);
    vec_push(&F->out, map_stm(F, F->w, F->arrs.items, F->arrs.len, lam, pv));
    vec_free(&stms);
    vec_free(&res);
    vec_free(&pat);
}

/* ---- Lifting inner statements ------------------------------------------------------ */

/* The segment parameter of the lambda being lifted (an input of seg). */
static Var *seg_param(Flat *F, Desc *d) {
    if (!F->seg_param) {
        desc_positions(F, d);
        F->seg_param = ir_var(F->p, "seg", type_prim(PT_I64));
        vec_push(&F->params, F->seg_param);
        vec_push(&F->arrs, d->seg);
    }
    return F->seg_param;
}

/* In a lifted lambda: an outer value is read from its expanded array at
 * the element's segment, an inner array is the segment of its flat array
 * (the segments of all lengths are numbered by element). */
static void inner_use(void *ctx, SubExp *se, Var **vp, IrUseKind k) {
    (void)k;
    Flat *F = ctx;
    Var *x = se ? se->v : *vp;
    if (!top_var(F, x)) return;
    if (!F->repl[x->id]) {
        Var *sg = seg_param(F, F->cur);
        if (F->level[x->id] == L_VIEW) {
            F->repl[x->id] = remat_view(F, x, inner_use);
        } else if (F->level[x->id] == L_OUTER) {
            F->repl[x->id] = emit_index(F, &F->prologue, lifted_of(F, x), se_var(sg));
        } else {
            Desc *d = F->desc[x->id];
            SubExp off = se_var(emit_index(F, &F->prologue, d->offsets, se_var(sg)));
            SubExp len = se_var(emit_index(F, &F->prologue, d->sizes, se_var(sg)));
            F->repl[x->id] = emit1(F, &F->prologue, x->name, arr_type(F, x->type.elem, len),
                                   segment(F, F->flat[x->id], off, len));
        }
    }
    if (se) se->v = F->repl[x->id];
    else *vp = F->repl[x->id];
}

/* An outer SubExp (a constant or an outer scalar) inside a lifted lambda. */
static SubExp inner_se(Flat *F, SubExp se) {
    if (se.is_var) inner_use(F, &se, NULL, IR_USE_OTHER);
    return se;
}

/* The positions' parameter of the lambda being lifted. */
static Var *pos_param(Flat *F, Desc *d) {
    desc_positions(F, d);
    Var *p = ir_var(F->p, "pos", type_prim(PT_I64));
    vec_push(&F->params, p);
    vec_push(&F->arrs, d->pos);
    return p;
}

/* The segmented version of op: (flag, values) pairs; a flagged element
 * starts over. */
static SegOp seg_op(Flat *F, SegOp op) {
    Lambda *l = op.op;
    Var *f1 = ir_var(F->p, "flag", type_prim(PT_BOOL)), *f2 = ir_var(F->p, "flag", type_prim(PT_BOOL));
    int k = op.k;
    Var **ps = NEW_ARRAY(F->a, Var *, 2 * k + 2);
    ps[0] = f1;
    COPY_ARRAY(ps + 1, l->params, k);
    ps[k + 1] = f2;
    COPY_ARRAY(ps + k + 2, l->params + k, k);
    StmVec s = {0};
    SubExp f = ir_emit_op2(F->p, &s, OP_LOR, PT_BOOL, se_var(f1), se_var(f2), "flag", F->loc);
    SubExp *bs = NEW_ARRAY(F->a, SubExp, k);
    for (int i = 0; i < k; i++) bs[i] = se_var(l->params[k + i]);
    IrExp *e = exp_new(F, IE_IF);
    e->cond = se_var(f2);
    e->tbody = body_new(F, NULL, bs, k);
    e->fbody = l->body;
    e->nret = k;
    e->ret = l->ret;
    Var **rs = NEW_ARRAY(F->a, Var *, k);
    SubExp *res = NEW_ARRAY(F->a, SubExp, k + 1);
    res[0] = f;
    for (int i = 0; i < k; i++) {
        rs[i] = ir_var(F->p, "x", l->ret[i]);
        res[i + 1] = se_var(rs[i]);
    }
    vec_push(&s, ir_stm(F->a, rs, k, e, F->loc));
    SegOp r = {lambda_new(F, ps, 2 * k + 2, body_new(F, &s, res, k + 1)), NEW_ARRAY(F->a, SubExp, k + 1), k + 1,
               false};
    r.neutral[0] = se_bool(false);
    COPY_ARRAY(r.neutral + 1, op.neutral, k);
    vec_free(&s);
    return r;
}

/* The flat array of an inner Var x, bound to v. */
static void set_flat(Flat *F, Var *x, Var *v) {
    v->name = x->name;
    F->flat[x->id] = v;
}

/* An inner Screma over the flat arrays (see the top of the file). */
static void lift_screma(Flat *F, Stm *st, Desc *d) {
    Screma *sc = &st->e->screma;
    reset_build(F);
    F->cur = d;
    SubExp total = se_var(d->total);
    for (int i = 0; i < sc->narrs; i++) {
        vec_push(&F->params, sc->map->params[i]);
        vec_push(&F->arrs, F->flat[sc->arrs[i]->id]);
    }
    ir_uses_lambda(sc->map, inner_use, F);
    int nops = sc->nscans + sc->nreds;
    SegOp *ops = NEW_ARRAY(F->a, SegOp, nops + 1);
    for (int i = 0; i < nops; i++) {
        SegOp *o = i < sc->nscans ? &sc->scans[i] : &sc->reds[i - sc->nscans];
        ops[i] = seg_op(F, *o);
    }
    StmVec stms = {0};
    VEC(SubExp) res = {0};
    if (nops) {
        Var *pos = pos_param(F, d);
        SubExp flag = ir_emit_op2(F->p, &F->prologue, OP_EQ, PT_I64, se_var(pos), se_i64(0), "flag", F->loc);
        Body *mb = sc->map->body;
        int at = 0;
        for (int i = 0; i < nops; i++) {
            vec_push(&res, flag);
            for (int j = 0; j < ops[i].k - 1; j++) vec_push(&res, mb->res[at++]);
        }
        for (; at < mb->nres; at++) vec_push(&res, mb->res[at]);
    } else {
        for (int i = 0; i < sc->map->body->nres; i++) vec_push(&res, sc->map->body->res[i]);
    }
    for (int i = 0; i < F->prologue.len; i++) vec_push(&stms, F->prologue.items[i]);
    for (int i = 0; i < sc->map->body->nstms; i++) vec_push(&stms, sc->map->body->stms[i]);
    Lambda *lam = lambda_new(F, F->params.items, F->params.len, body_new(F, &stms, res.items, res.len));
    vec_free(&stms);
    vec_free(&res);
    /* The new Screma binds each op's flags and values, then the map's results. */
    IrExp *e = exp_new(F, IE_SCREMA);
    e->screma.w = total;
    e->screma.narrs = F->arrs.len;
    e->screma.arrs = vec_to_arena(F->a, &F->arrs);
    e->screma.map = lam;
    e->screma.scans = ops;
    e->screma.nscans = nops;
    int npat = lam->nret;
    Var **pat = NEW_ARRAY(F->a, Var *, npat + 1);
    for (int i = 0; i < npat; i++) pat[i] = ir_var(F->p, "flat", arr_type(F, lam->ret[i].elem, total));
    vec_push(&F->out, ir_stm(F->a, pat, npat, e, F->loc));
    /* Scans' values are flat arrays, reductions' the last of each segment. */
    int at = 0, v = 0;
    for (int i = 0; i < nops; i++) {
        at++;
        for (int j = 0; j < ops[i].k - 1; j++, at++, v++) {
            Var *x = st->pat[v];
            if (i < sc->nscans) {
                set_flat(F, x, pat[at]);
                continue;
            }
            /* x = size == 0 ? neutral : scanned[offset + size - 1] */
            Var *off = ir_var(F->p, "offset", type_prim(PT_I64)), *sz = ir_var(F->p, "size", type_prim(PT_I64));
            StmVec s = {0}, last = {0};
            SubExp empty = ir_emit_op2(F->p, &s, OP_EQ, PT_I64, se_var(sz), se_i64(0), "empty", F->loc);
            SubExp end = ir_emit_op2(F->p, &last, OP_ADD, PT_I64, se_var(off), se_var(sz), "end", F->loc);
            end = ir_emit_op2(F->p, &last, OP_SUB, PT_I64, end, se_i64(1), "last", F->loc);
            SubExp r = se_var(emit_index(F, &last, pat[at], end));
            IrExp *ie = exp_new(F, IE_IF);
            ie->cond = empty;
            ie->tbody = body_new(F, NULL, &ops[i].neutral[j + 1], 1);
            ie->fbody = body_new(F, &last, &r, 1);
            ie->nret = 1;
            ie->ret = NEW(F->a, Type);
            ie->ret[0] = x->type;
            SubExp xr = se_var(emit1(F, &s, x->name, x->type, ie));
            Var *ps[2] = {off, sz}, *ins[2] = {d->offsets, d->sizes}, *lp[1] = {NULL};
            vec_push(&F->out, map_stm(F, F->w, ins, 2, lambda_new(F, ps, 2, body_new(F, &s, &xr, 1)), lp));
            lp[0]->name = x->name;
            F->lifted[x->id] = lp[0];
            vec_free(&s);
            vec_free(&last);
        }
    }
    for (; at < npat; at++, v++) set_flat(F, st->pat[v], pat[at]);
}

/* An element of inner array x at index i of its segment, in the
 * prologue of the lambda being lifted (which has a segment parameter). */
static SubExp inner_elem(Flat *F, Var *x, SubExp i) {
    Var *sg = seg_param(F, F->cur);
    SubExp off = se_var(emit_index(F, &F->prologue, F->desc[x->id]->offsets, se_var(sg)));
    SubExp at = ir_emit_op2(F->p, &F->prologue, OP_ADD, PT_I64, off, i, "at", F->loc);
    return se_var(emit_index(F, &F->prologue, F->flat[x->id], at));
}

/* The lambda of the lifted statement (the prologue, returning r) as a map
 * over the positions of d, binding st's inner result. */
static void emit_positions_map(Flat *F, Stm *st, Desc *d, SubExp r) {
    Lambda *lam = lambda_new(F, F->params.items, F->params.len, body_new(F, &F->prologue, &r, 1));
    Var *pat[1] = {NULL};
    vec_push(&F->out, map_stm(F, se_var(d->total), F->arrs.items, F->arrs.len, lam, pat));
    set_flat(F, st->pat[0], pat[0]);
}

/* A slice x[start:+len*stride] of an inner array: each position reads its
 * element of x's segment. */
static void lift_slice(Flat *F, Stm *st, Desc *d) {
    DimSlice *sl = &st->e->slice[0];
    reset_build(F);
    F->cur = d;
    Var *pos = pos_param(F, d);
    SubExp start = inner_se(F, sl->start), stride = inner_se(F, sl->stride);
    SubExp i = ir_emit_op2(F->p, &F->prologue, OP_MUL, PT_I64, se_var(pos), stride, "i", F->loc);
    i = ir_emit_op2(F->p, &F->prologue, OP_ADD, PT_I64, start, i, "i", F->loc);
    emit_positions_map(F, st, d, inner_elem(F, st->e->arr, i));
}

/* Element pos of piece x of a concatenation in segment seg: of an inner
 * array's segment, of the element's row of an expanded array, or of an
 * array bound outside the map. */
static SubExp piece_elem(Flat *F, StmVec *out, Var *x, SubExp seg, SubExp pos) {
    if (inner_arr(F, x)) {
        SubExp off = se_var(emit_index(F, out, F->desc[x->id]->offsets, seg));
        SubExp at = ir_emit_op2(F->p, out, OP_ADD, PT_I64, off, pos, "at", F->loc);
        return se_var(emit_index(F, out, F->flat[x->id], at));
    }
    if (!top_var(F, x)) return se_var(emit_index(F, out, x, pos));
    IrExp *e = exp_new(F, IE_INDEX);
    e->arr = lifted_of(F, x);
    e->nslice = 2;
    e->slice = NEW_ARRAY(F->a, DimSlice, 2);
    e->slice[0].index = seg;
    e->slice[1].index = pos;
    return se_var(emit1(F, out, x->name, type_prim(x->type.elem), e));
}

/* Inner arrays (or arrays of one length, of the element or bound outside
 * the map) concatenated: a position reads the piece it falls in. */
static SubExp concat_elem(Flat *F, StmVec *out, Var **arrs, int n, SubExp seg, SubExp pos) {
    Var *x = arrs[0];
    if (n == 1) return piece_elem(F, out, x, seg, pos);
    SubExp len = inner_arr(F, x) ? se_var(emit_index(F, out, F->desc[x->id]->sizes, seg))
                                 : inner_se(F, x->type.shape[0]);
    SubExp here = ir_emit_op2(F->p, out, OP_LT, PT_I64, pos, len, "here", F->loc);
    StmVec t = {0}, f = {0};
    SubExp v = piece_elem(F, &t, x, seg, pos);
    SubExp rest = ir_emit_op2(F->p, &f, OP_SUB, PT_I64, pos, len, "pos", F->loc);
    SubExp w = concat_elem(F, &f, arrs + 1, n - 1, seg, rest);
    IrExp *e = exp_new(F, IE_IF);
    e->cond = here;
    e->tbody = body_new(F, &t, &v, 1);
    e->fbody = body_new(F, &f, &w, 1);
    e->nret = 1;
    e->ret = NEW(F->a, Type);
    e->ret[0] = type_prim(x->type.elem);
    vec_free(&t);
    vec_free(&f);
    return se_var(emit1(F, out, "x", type_prim(x->type.elem), e));
}

static void lift_concat(Flat *F, Stm *st, Desc *d) {
    reset_build(F);
    F->cur = d;
    Var *pos = pos_param(F, d);
    Var *sg = seg_param(F, d);
    emit_positions_map(F, st, d, concat_elem(F, &F->prologue, st->e->arrs, st->e->narrs, se_var(sg), se_var(pos)));
}

/* A copy of an inner array: a copy of its flat array. */
static void lift_copy(Flat *F, Stm *st) {
    IrExp *e = exp_new(F, IE_COPY);
    Var *flat = F->flat[st->e->arr->id];
    e->arr = flat;
    F->desc[st->pat[0]->id] = F->desc[st->e->arr->id];
    set_flat(F, st->pat[0], emit1(F, &F->out, st->pat[0]->name, flat->type, e));
}

/* An iota or replicate of an inner length: a map over the positions. */
static void lift_fill(Flat *F, Stm *st, Desc *d) {
    IrExp *e = st->e;
    reset_build(F);
    F->cur = d;
    Var *x = st->pat[0];
    PrimType t = x->type.elem;
    if (e->kind == IE_IOTA && t == PT_I64 && !e->start.is_var && e->start.c.v.i == 0 && !e->step.is_var &&
        e->step.c.v.i == 1) {
        desc_positions(F, d);
        set_flat(F, x, d->pos);
        return;
    }
    SubExp r;
    if (e->kind == IE_IOTA) {
        Var *pos = pos_param(F, d);
        SubExp start = inner_se(F, e->start), step = inner_se(F, e->step);
        IrExp *c = exp_new(F, IE_CONV);
        c->t = PT_I64;
        c->to = t;
        c->nargs = 1;
        c->args = NEW(F->a, SubExp);
        c->args[0] = se_var(pos);
        SubExp i = t == PT_I64 ? se_var(pos) : se_var(emit1(F, &F->prologue, "i", type_prim(t), c));
        SubExp m = ir_emit_op2(F->p, &F->prologue, OP_MUL, t, i, step, "x", F->loc);
        r = ir_emit_op2(F->p, &F->prologue, OP_ADD, t, start, m, "x", F->loc);
    } else {
        r = inner_se(F, e->se);
    }
    emit_positions_map(F, st, d, r);
}

/* x with [i] = v, x inner: one element per segment scattered into the
 * flat array. */
static void lift_update(Flat *F, Stm *st) {
    IrExp *e = st->e;
    Desc *d = F->desc[e->arr->id];
    reset_build(F);
    Var *off = ir_var(F->p, "offset", type_prim(PT_I64));
    vec_push(&F->params, off);
    vec_push(&F->arrs, d->offsets);
    SubExp ses[2] = {e->slice[0].index, e->se};
    for (int i = 0; i < 2; i++)
        if (ses[i].is_var && body_var(F, ses[i].v)) {
            Var *p = ir_var(F->p, ses[i].v->name, ses[i].v->type);
            vec_push(&F->params, p);
            vec_push(&F->arrs, lifted_of(F, ses[i].v));
            ses[i] = se_var(p);
        }
    StmVec s = {0};
    SubExp res[2] = {ir_emit_op2(F->p, &s, OP_ADD, PT_I64, se_var(off), ses[0], "at", F->loc), ses[1]};
    IrExp *sc = exp_new(F, IE_SCATTER);
    sc->scatter.w = F->w;
    sc->scatter.narrs = F->arrs.len;
    sc->scatter.arrs = vec_to_arena(F->a, &F->arrs);
    sc->scatter.lam = lambda_new(F, F->params.items, F->params.len, body_new(F, &s, res, 2));
    sc->scatter.ndests = 1;
    sc->scatter.dests = NEW(F->a, Var *);
    sc->scatter.dests[0] = F->flat[e->arr->id];
    vec_free(&s);
    Var *x = st->pat[0];
    Var *v = emit1(F, &F->out, x->name, F->flat[e->arr->id]->type, sc);
    F->desc[x->id] = d;
    set_flat(F, x, v);
}

/* idx if 0 <= idx < len, else -1 (a scatter ignores it). */
static SubExp checked_index(Flat *F, StmVec *out, SubExp idx, SubExp len, SubExp off) {
    SubExp lo = ir_emit_op2(F->p, out, OP_LE, PT_I64, se_i64(0), idx, "in", F->loc);
    SubExp hi = ir_emit_op2(F->p, out, OP_LT, PT_I64, idx, len, "in", F->loc);
    SubExp in = ir_emit_op2(F->p, out, OP_LAND, PT_BOOL, lo, hi, "in", F->loc);
    StmVec t = {0};
    SubExp at = ir_emit_op2(F->p, &t, OP_ADD, PT_I64, off, idx, "at", F->loc);
    SubExp none = se_i64(-1);
    IrExp *e = exp_new(F, IE_IF);
    e->cond = in;
    e->tbody = body_new(F, &t, &at, 1);
    e->fbody = body_new(F, NULL, &none, 1);
    e->nret = 1;
    e->ret = NEW(F->a, Type);
    e->ret[0] = type_prim(PT_I64);
    vec_free(&t);
    return se_var(emit1(F, out, "at", type_prim(PT_I64), e));
}

/* A scatter of inner arrays into inner destinations (a filter's last
 * step): over the flat positions of its inputs, each index moved into the
 * destination's segment of the same element, or dropped when outside it. */
static void lift_scatter(Flat *F, Stm *st) {
    Scatter *sc = &st->e->scatter;
    Lambda *l = sc->lam;
    Desc *d = desc_of(F, sc->w.v);
    reset_build(F);
    F->cur = d;
    for (int i = 0; i < sc->narrs; i++) {
        vec_push(&F->params, l->params[i]);
        vec_push(&F->arrs, F->flat[sc->arrs[i]->id]);
    }
    ir_uses_lambda(l, inner_use, F);
    Var *sg = seg_param(F, d);
    StmVec stms = {0};
    for (int i = 0; i < F->prologue.len; i++) vec_push(&stms, F->prologue.items[i]);
    for (int i = 0; i < l->body->nstms; i++) vec_push(&stms, l->body->stms[i]);
    int nd = sc->ndests;
    SubExp *res = NEW_ARRAY(F->a, SubExp, 2 * nd);
    Var **dests = NEW_ARRAY(F->a, Var *, nd), **pat = NEW_ARRAY(F->a, Var *, nd);
    for (int j = 0; j < nd; j++) {
        Desc *dd = F->desc[sc->dests[j]->id];
        SubExp len = se_var(emit_index(F, &stms, dd->sizes, se_var(sg)));
        SubExp off = se_var(emit_index(F, &stms, dd->offsets, se_var(sg)));
        res[j] = checked_index(F, &stms, l->body->res[j], len, off);
        res[nd + j] = l->body->res[nd + j];
        dests[j] = F->flat[sc->dests[j]->id];
        pat[j] = ir_var(F->p, st->pat[j]->name, dests[j]->type);
    }
    IrExp *e = exp_new(F, IE_SCATTER);
    e->scatter.w = se_var(d->total);
    e->scatter.narrs = F->arrs.len;
    e->scatter.arrs = vec_to_arena(F->a, &F->arrs);
    e->scatter.lam = lambda_new(F, F->params.items, F->params.len, body_new(F, &stms, res, 2 * nd));
    e->scatter.ndests = nd;
    e->scatter.dests = dests;
    vec_free(&stms);
    vec_push(&F->out, ir_stm(F->a, pat, nd, e, F->loc));
    for (int j = 0; j < nd; j++) {
        F->desc[st->pat[j]->id] = F->desc[sc->dests[j]->id];
        set_flat(F, st->pat[j], pat[j]);
    }
}

/* An uninitialised inner array: one of the total length. */
static void lift_scratch(Flat *F, Stm *st, Desc *d) {
    IrExp *e = exp_new(F, IE_SCRATCH);
    e->type = arr_type(F, st->pat[0]->type.elem, se_var(d->total));
    set_flat(F, st->pat[0], emit1(F, &F->out, st->pat[0]->name, e->type, e));
}

/* ---- Classification ---------------------------------------------------------------- */

typedef struct Check {
    Flat *F;
    bool bad;
    int cur; /* the top-level statement being checked */
} Check;

/* An inner statement's lambdas may read inner arrays (each element's
 * segment), but bind no arrays and run no SOACs or loops. */
static void scalar_stm(IrWalk *w, Stm *s) {
    Check *c = w->ctx;
    IrExpKind k = s->e->kind;
    if (k == IE_SCREMA || k == IE_SCATTER || k == IE_HIST || k == IE_LOOP) c->bad = true;
    for (int j = 0; j < s->npat; j++)
        if (s->pat[j]->type.kind != TK_PRIM) c->bad = true;
}

/* An operator may not read values of the body (it is not lifted). */
static void no_top_use(void *ctx, SubExp *se, Var **vp, IrUseKind k) {
    (void)k;
    Check *c = ctx;
    Var *x = se ? se->v : *vp;
    if (top_var(c->F, x)) c->bad = true;
}

/* Whether l's parameters and results are scalars (its body may run nested
 * parallel code: lifted, it becomes a flat map that flattening takes again). */
static bool prim_lambda(const Lambda *l) {
    for (int i = 0; i < l->nparams; i++)
        if (l->params[i]->type.kind != TK_PRIM) return false;
    for (int i = 0; i < l->nret; i++)
        if (l->ret[i].kind != TK_PRIM) return false;
    return true;
}

static bool scalar_lambda(Check *c, Lambda *l) {
    if (!prim_lambda(l)) return false;
    IrWalk w = {NULL, NULL, scalar_stm, c};
    ir_walk_lambda(&w, l);
    return !c->bad;
}

/* Whether SubExp se is a scalar of the body or outside the map (not inner). */
static bool outer_se(const Flat *F, SubExp se) {
    return !se.is_var || !body_var(F, se.v) || F->level[se.v->id] == L_OUTER;
}

/* The inner kind of top-level statement s: 1 when it is one (and is
 * supported: *ok), 0 when it is outer. */
static int inner_kind(Flat *F, Stm *s, bool *ok) {
    IrExp *e = s->e;
    bool irr = false;
    for (int j = 0; j < s->npat; j++) irr |= irregular_type(F, s->pat[j]->type);
    *ok = true;
    Check c = {F, false, 0};
    switch (e->kind) {
    case IE_IOTA:
        if (!irr) return 0;
        *ok = e->n.is_var && body_var(F, e->n.v) && outer_se(F, e->start) && outer_se(F, e->step);
        return 1;
    case IE_REPLICATE:
        if (!irr) return 0;
        *ok = e->nshape == 1 && e->shape[0].is_var && body_var(F, e->shape[0].v) &&
              subexp_type(e->se).kind == TK_PRIM && outer_se(F, e->se);
        return 1;
    case IE_UPDATE:
        if (!body_var(F, e->arr) || F->level[e->arr->id] != L_INNER) break;
        *ok = e->nslice == 1 && !e->slice[0].is_slice && outer_se(F, e->slice[0].index) &&
              subexp_type(e->se).kind == TK_PRIM && outer_se(F, e->se);
        return 1;
    case IE_SCRATCH:
        if (!irr) return 0;
        *ok = e->type.rank == 1 && e->type.shape[0].is_var && top_var(F, e->type.shape[0].v);
        return 1;
    case IE_SCATTER: {
        Scatter *sc = &e->scatter;
        bool inner = irr || (sc->w.is_var && body_var(F, sc->w.v));
        for (int j = 0; j < sc->ndests; j++) inner |= body_var(F, sc->dests[j]) && F->level[sc->dests[j]->id] == L_INNER;
        if (!inner) return 0;
        *ok = sc->w.is_var && top_var(F, sc->w.v) && scalar_lambda(&c, sc->lam);
        for (int i = 0; i < sc->narrs; i++)
            if (!body_var(F, sc->arrs[i]) || F->level[sc->arrs[i]->id] != L_INNER || F->len[sc->arrs[i]->id] != sc->w.v)
                *ok = false;
        for (int j = 0; j < sc->ndests; j++)
            if (!body_var(F, sc->dests[j]) || F->level[sc->dests[j]->id] != L_INNER) *ok = false;
        return 1;
    }
    case IE_SCREMA: {
        Screma *sc = &e->screma;
        bool inner_in = false;
        for (int i = 0; i < sc->narrs; i++)
            inner_in |= body_var(F, sc->arrs[i]) && F->level[sc->arrs[i]->id] == L_INNER;
        if (!irr && !inner_in && !(sc->w.is_var && body_var(F, sc->w.v))) return 0;
        if (!sc->narrs || !sc->w.is_var || !body_var(F, sc->w.v)) {
            *ok = false;
            return 1;
        }
        for (int i = 0; i < sc->narrs; i++)
            if (!body_var(F, sc->arrs[i]) || F->level[sc->arrs[i]->id] != L_INNER || F->len[sc->arrs[i]->id] != sc->w.v)
                *ok = false;
        *ok = *ok && (sc->nscans + sc->nreds ? scalar_lambda(&c, sc->map) : prim_lambda(sc->map));
        for (int i = 0; *ok && i < sc->nscans + sc->nreds; i++) {
            SegOp *o = i < sc->nscans ? &sc->scans[i] : &sc->reds[i - sc->nscans];
            *ok = scalar_lambda(&c, o->op);
            ir_uses_lambda(o->op, no_top_use, &c);
            *ok = *ok && !c.bad;
            for (int j = 0; j < o->k; j++)
                if (o->neutral[j].is_var && body_var(F, o->neutral[j].v)) *ok = false;
        }
        return 1;
    }
    case IE_INDEX:
        if (irr && !body_var(F, e->arr)) {
            bool view = s->npat == 1;
            for (int i = 0; i < e->nslice; i++) {
                const DimSlice *sl = &e->slice[i];
                view &= outer_se(F, sl->index) && outer_se(F, sl->start) && outer_se(F, sl->len) &&
                        outer_se(F, sl->stride);
            }
            if (view) {
                F->level[s->pat[0]->id] = L_VIEW;
                F->def[s->pat[0]->id] = s;
                return 0;
            }
        }
        /* fall through */
    case IE_COPY:
        if (!irr) return 0;
        *ok = inner_arr(F, e->arr) && e->arr->type.rank == 1 && s->pat[0]->type.rank == 1 &&
              (e->kind == IE_COPY ||
               (e->nslice == 1 && e->slice[0].is_slice && outer_se(F, e->slice[0].start) &&
                outer_se(F, e->slice[0].stride)));
        break;
    case IE_CONCAT:
        if (!irr) return 0;
        *ok = s->pat[0]->type.rank == 1;
        for (int i = 0; i < e->narrs; i++) *ok = *ok && e->arrs[i]->type.rank == 1;
        break;
    default:
        if (irr) *ok = false; /* another array of a body-bound size */
        break;
    }
    return irr ? 1 : 0;
}

/* The Desc key of an inner statement's result: its length Var. */
static Var *inner_len(Stm *s) {
    IrExp *e = s->e;
    if (e->kind == IE_IOTA) return e->n.v;
    if (e->kind == IE_REPLICATE) return e->shape[0].v;
    if (e->kind == IE_SCREMA) return e->screma.w.v;
    if (e->kind == IE_SCRATCH) return e->type.shape[0].v;
    Type t = s->npat ? s->pat[0]->type : type_prim(PT_BOOL); /* a slice, copy or concatenation */
    return t.kind == TK_ARRAY && t.shape[0].is_var ? t.shape[0].v : NULL;
}

typedef struct Uses {
    Flat *F;
    int cur;
} Uses;

static void note_use(void *ctx, SubExp *se, Var **vp, IrUseKind k) {
    (void)k;
    Uses *u = ctx;
    Var *x = se ? se->v : *vp;
    if (body_var(u->F, x) && u->F->last_use[x->id] < u->cur) u->F->last_use[x->id] = u->cur;
    /* A view is made again where it is used, from its operands. */
    if (body_var(u->F, x) && u->F->level[x->id] == L_VIEW) ir_uses_stm(u->F->def[x->id], note_use, u);
}

static void bind_var(IrWalk *w, Var *v) {
    Flat *F = w->ctx;
    if (v->id < F->nvars && !F->level[v->id]) F->level[v->id] = L_OUTER;
}

/* Consumptions by outer statements of values bound by another stage. */
typedef struct Consume {
    Flat *F;
    const int *stage_of_stm;
    int st;
    bool bad;
} Consume;

static void consumed(void *ctx, const Var *v) {
    Consume *c = ctx;
    if (top_var(c->F, v) && (c->F->stage[v->id] < 0 || c->stage_of_stm[c->F->stage[v->id]] != c->st)) c->bad = true;
}

static void consume_stm(IrWalk *w, Stm *s) { ir_each_consumed(s, consumed, w->ctx); }

/* How many times s takes v as an input array of its SOAC. */
static int input_uses(const Stm *s, const Var *v) {
    const IrExp *e = s->e;
    int n = 0;
    for (int i = 0; e->kind == IE_SCREMA && i < e->screma.narrs; i++) n += e->screma.arrs[i] == v;
    for (int i = 0; e->kind == IE_SCATTER && i < e->scatter.narrs; i++) n += e->scatter.arrs[i] == v;
    return n;
}

static bool is_result(const Body *b, const Var *v) {
    for (int r = 0; r < b->nres; r++)
        if (b->res[r].is_var && b->res[r].v == v) return true;
    return false;
}

/* ---- Flattening one map -------------------------------------------------------------- */

static void finds_soac(IrWalk *w, Stm *s) {
    IrExpKind k = s->e->kind;
    if (k == IE_SCREMA || k == IE_SCATTER || k == IE_HIST || k == IE_LOOP) *(bool *)w->ctx = true;
}

/* A Screma of the body of a body-bound width that scans or reduces and
 * whose map runs nested parallel code is split into its map and a Screma
 * of the scans and reductions over the map's results (an identity map),
 * so that the map is lifted on its own. Returns whether it split any. */
static bool split_nested(Flat *F, Body *b) {
    StmVec out = {0};
    bool any = false;
    for (int k = 0; k < b->nstms; k++) {
        Stm *t = b->stms[k];
        Screma *sc = &t->e->screma;
        bool nested = false;
        if (t->e->kind == IE_SCREMA && (sc->nscans || sc->nreds) && sc->w.is_var && prim_lambda(sc->map)) {
            IrWalk w = {NULL, NULL, finds_soac, &nested};
            ir_walk_lambda(&w, sc->map);
        }
        if (!nested) {
            vec_push(&out, t);
            continue;
        }
        any = true;
        Lambda *m = sc->map;
        int nin = 0;
        for (int i = 0; i < sc->nscans; i++) nin += sc->scans[i].k;
        for (int i = 0; i < sc->nreds; i++) nin += sc->reds[i].k;
        Var **res = NEW_ARRAY(F->a, Var *, m->nret + 1);
        for (int i = 0; i < m->nret; i++) res[i] = NULL;
        vec_push(&out, map_stm(F, sc->w, sc->arrs, sc->narrs, m, res));
        Var **ps = NEW_ARRAY(F->a, Var *, nin + 1);
        SubExp *rs = NEW_ARRAY(F->a, SubExp, nin + 1);
        for (int i = 0; i < nin; i++) {
            ps[i] = ir_var(F->p, "x", m->ret[i]);
            rs[i] = se_var(ps[i]);
        }
        IrExp *e = exp_new(F, IE_SCREMA);
        e->screma = *sc;
        e->screma.arrs = res;
        e->screma.narrs = nin;
        e->screma.map = lambda_new(F, ps, nin, body_new(F, NULL, rs, nin));
        vec_push(&out, ir_stm(F->a, t->pat, nin, e, t->loc));
        for (int i = nin; i < m->nret; i++) vec_push(&out, ir_copy_stm(F->a, t->pat[i], se_var(res[i]), t->loc));
    }
    if (any) {
        b->nstms = out.len;
        b->stms = vec_to_arena(F->a, &out);
    }
    vec_free(&out);
    return any;
}

static bool flatten_map(Flat *F, Body *host, int at) {
    Stm *s = host->stms[at];
    Screma *sc = &s->e->screma;
    if (sc->nscans || sc->nreds) return false;
    Lambda *lam = sc->map;
    Body *b = lam->body;
    F->loc = s->loc;
    Stm **saved = b->stms;
    int nsaved = b->nstms;
    bool split = split_nested(F, b);
    int n = F->p->next_var_id;
    F->nvars = n;
    F->level = calloc((size_t)n, 1);
    F->stage = malloc(sizeof(int) * (size_t)n);
    F->last_use = malloc(sizeof(int) * (size_t)n);
    F->lifted = calloc((size_t)n, sizeof(Var *));
    F->flat = calloc((size_t)n, sizeof(Var *));
    F->desc = calloc((size_t)n, sizeof(Desc *));
    F->repl = calloc((size_t)n, sizeof(Var *));
    F->len = calloc((size_t)n, sizeof(Var *));
    F->def = calloc((size_t)n, sizeof(Stm *));
    int *kind = calloc((size_t)b->nstms + 1, sizeof(int));
    int *stage_of = calloc((size_t)b->nstms + 1, sizeof(int));
    F->descs = NULL;
    F->w = sc->w;
    for (int i = 0; i < n; i++) F->stage[i] = NESTED, F->last_use[i] = -1;
    for (int i = 0; i < lam->nparams; i++) {
        F->level[lam->params[i]->id] = L_OUTER;
        F->stage[lam->params[i]->id] = -1;
        F->lifted[lam->params[i]->id] = sc->arrs[i];
    }
    IrWalk bw = {bind_var, NULL, NULL, F};
    ir_walk_body(&bw, b);
    bool ok = true, any = false, builds = false;
    int st = 0;
    for (int k = 0; k < b->nstms && ok; k++) {
        Stm *t = b->stms[k];
        bool sup;
        kind[k] = inner_kind(F, t, &sup);
        ok &= sup;
        for (int j = 0; j < t->npat; j++) F->stage[t->pat[j]->id] = k;
        if (kind[k]) {
            any = true;
            builds |= t->e->kind == IE_UPDATE || t->e->kind == IE_SCATTER ||
                      (t->e->kind == IE_SCREMA && t->npat > t->e->screma.nreds);
            st++;
            Var *len = sup ? inner_len(t) : NULL;
            for (int j = 0; j < t->npat; j++) {
                Var *x = t->pat[j];
                if (x->type.kind != TK_ARRAY) continue;
                F->level[x->id] = L_INNER;
                F->len[x->id] = t->e->kind == IE_UPDATE    ? F->len[t->e->arr->id]
                                : t->e->kind == IE_SCATTER ? F->len[t->e->scatter.dests[j]->id]
                                                           : len;
            }
            stage_of[k] = -2;
            st++;
        } else {
            stage_of[k] = st;
        }
    }
    for (int k = 0; k < b->nstms; k++) {
        Uses u = {F, k};
        ir_uses_stm(b->stms[k], note_use, &u);
    }
    Uses u = {F, b->nstms};
    ir_uses_ses(b->res, b->nres, note_use, &u);
    for (int r = 0; r < b->nres && ok; r++)
        if (b->res[r].is_var && body_var(F, b->res[r].v) && F->level[b->res[r].v->id] == L_INNER) ok = false;
    for (int k = 0; k < b->nstms && ok; k++) {
        if (kind[k]) continue;
        Consume c = {F, stage_of, stage_of[k], false};
        IrWalk cw = {NULL, NULL, consume_stm, &c};
        ir_walk_stm(&cw, b->stms[k]);
        ok = !c.bad;
    }
    /* An iota or replicate read by anything but an inner Screma is built too. */
    for (int k = 0; k < b->nstms && ok && any && !builds; k++) {
        Stm *t = b->stms[k];
        if (kind[k] && (t->e->kind == IE_IOTA || t->e->kind == IE_REPLICATE))
            for (int j = k + 1; j <= b->nstms && !builds; j++)
                builds = j < b->nstms ? ir_stm_uses(b->stms[j], t->pat[0]) > input_uses(b->stms[j], t->pat[0])
                                      : is_result(b, t->pat[0]);
    }
    ok &= builds;
    if (ok && any) {
        F->out.len = 0;
        int lo = 0;
        for (int k = 0; k < b->nstms; k++) {
            if (!kind[k]) continue;
            emit_stage(F, b, lo, k);
            lo = k + 1;
            Stm *t = b->stms[k];
            if (t->e->kind == IE_UPDATE || t->e->kind == IE_SCATTER) {
                if (t->e->kind == IE_UPDATE) lift_update(F, t);
                else lift_scatter(F, t);
                continue;
            }
            Desc *d = desc_of(F, inner_len(t));
            for (int j = 0; j < t->npat; j++)
                if (t->pat[j]->type.kind == TK_ARRAY) F->desc[t->pat[j]->id] = d;
            switch (t->e->kind) {
            case IE_SCREMA: lift_screma(F, t, d); break;
            case IE_SCRATCH: lift_scratch(F, t, d); break;
            case IE_INDEX: lift_slice(F, t, d); break;
            case IE_CONCAT: lift_concat(F, t, d); break;
            case IE_COPY: lift_copy(F, t); break;
            default: lift_fill(F, t, d); break;
            }
        }
        emit_stage(F, b, lo, b->nstms);
        for (int r = 0; r < b->nres; r++) {
            SubExp x = b->res[r];
            if (x.is_var && body_var(F, x.v)) {
                vec_push(&F->out, ir_copy_stm(F->a, s->pat[r], se_var(lifted_of(F, x.v)), s->loc));
            } else {
                IrExp *e = exp_new(F, IE_REPLICATE);
                e->nshape = 1;
                e->shape = NEW(F->a, SubExp);
                e->shape[0] = F->w;
                e->se = x;
                vec_push(&F->out, ir_stm1(F->a, s->pat[r], e, s->loc));
            }
        }
        /* Splice the statements in place of the map. */
        int m = F->out.len;
        Stm **stms = NEW_ARRAY(F->a, Stm *, host->nstms + m);
        COPY_ARRAY(stms, host->stms, at);
        COPY_ARRAY(stms + at, F->out.items, m);
        COPY_ARRAY(stms + at + m, host->stms + at + 1, host->nstms - at - 1);
        host->stms = stms;
        host->nstms += m - 1;
        F->changed = true;
    } else if (split) {
        b->stms = saved;
        b->nstms = nsaved;
    }
    free(F->level);
    free(F->stage);
    free(F->last_use);
    free(F->lifted);
    free(F->flat);
    free(F->desc);
    free(F->repl);
    free(F->len);
    free(F->def);
    free(kind);
    free(stage_of);
    return ok && any;
}

static void flatten_body(Flat *F, Body *b) {
    for (int k = 0; k < b->nstms; k++) {
        IrExp *e = b->stms[k]->e;
        if (e->kind == IE_IF) {
            flatten_body(F, e->tbody);
            flatten_body(F, e->fbody);
        } else if (e->kind == IE_LOOP) {
            flatten_body(F, e->loop.body);
        } else if (e->kind == IE_SCREMA && F->nflat < MAX_FLATTENED && flatten_map(F, b, k)) {
            /* The new statements are looked at too: a lifted map whose
             * function ran nested parallel code may be flattened again. */
            F->nflat++;
            k--;
        }
    }
}

void pass_flatten(Prog *p) {
    if (p->stage != STAGE_SOACS) ICE("pass_flatten: expected a program at STAGE_SOACS");
    Flat F = {0};
    F.p = p;
    F.a = p->arena;
    for (int i = 0; i < p->nfuns; i++) flatten_body(&F, p->funs[i]->body);
    vec_free(&F.out);
    vec_free(&F.params);
    vec_free(&F.arrs);
    vec_free(&F.prologue);
    if (F.changed) {
        pass_simplify(p);
        pass_fuse(p);
    }
}
