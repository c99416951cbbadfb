/* Pass flatten's builders (flatten.h): the descriptors of inner lengths,
 * the maps over the elements that run the code between inner statements
 * (stages), and the lifted inner statements. */
#include <stdlib.h>
#include <string.h>

#include "flatten.h"

/* ---- Small builders ------------------------------------------------------------- */

IrExp *fl_exp_new(Flat *F, IrExpKind k) {
    IrExp *e = NEW(F->a, IrExp);
    e->kind = k;
    return e;
}

Type fl_arr_type(Flat *F, PrimType t, SubExp n) { return type_array(F->a, t, 1, &n); }

Var *fl_emit1(Flat *F, StmVec *out, const char *name, Type t, IrExp *e) {
    Var *v = ir_var(F->p, name, t);
    vec_push(out, ir_stm1(F->a, v, e, F->loc));
    return v;
}

/* let v = arr[i] (a scalar). */
Var *fl_emit_index(Flat *F, StmVec *out, Var *arr, SubExp i) {
    Var *v = ir_var(F->p, arr->name, type_row(arr->type));
    vec_push(out, ir_index_stm(F->a, v, arr, i, F->loc));
    return v;
}

/* screma(n, arrs) map lam, binding pat[i] (a fresh array where NULL; pat
 * is copied). */
Stm *fl_map_stm(Flat *F, SubExp n, Var **arrs, int narrs, Lambda *lam, Var **pat) {
    IrExp *e = fl_exp_new(F, IE_SCREMA);
    e->screma.w = n;
    e->screma.narrs = narrs;
    e->screma.arrs = NEW_ARRAY(F->a, Var *, narrs + 1);
    COPY_ARRAY(e->screma.arrs, arrs, narrs);
    e->screma.map = lam;
    Var **vs = NEW_ARRAY(F->a, Var *, lam->nret + 1);
    for (int i = 0; i < lam->nret; i++) {
        if (!pat[i]) pat[i] = ir_var(F->p, "flat", fl_arr_type(F, lam->ret[i].elem, n));
        vs[i] = pat[i];
    }
    return ir_stm(F->a, vs, lam->nret, e, F->loc);
}

/* An identity lambda of one t (its parameter, returned). */
static Lambda *identity(Flat *F, PrimType t) {
    Var *x = ir_var(F->p, "x", type_prim(t));
    SubExp r = se_var(x);
    return ir_lambda_new(F->a, &x, 1, ir_body_new(F->a, NULL, &r, 1));
}

/* `let x = if a then {ts; n} else {fs; o}` (a value of type t) appended
 * to out; ts and fs (NULL: none) are the branches' statements. */
SubExp fl_if(Flat *F, StmVec *out, SubExp a, StmVec *ts, SubExp n, StmVec *fs, SubExp o, Type t) {
    IrExp *e = fl_exp_new(F, IE_IF);
    e->cond = a;
    e->tbody = ir_body_new(F->a, ts, &n, 1);
    e->fbody = ir_body_new(F->a, fs, &o, 1);
    e->nret = 1;
    e->ret = NEW(F->a, Type);
    e->ret[0] = t;
    return se_var(fl_emit1(F, out, "x", t, e));
}

/* The binary operator op of type t with neutral ne, commutative. */
SegOp fl_binop(Flat *F, Op op, PrimType t, SubExp ne) {
    Var *x = ir_var(F->p, "x", type_prim(t)), *y = ir_var(F->p, "y", type_prim(t));
    StmVec s = {0};
    SubExp r = ir_emit_op2(F->p, &s, op, t, se_var(x), se_var(y), "x", F->loc);
    Var *ps[2] = {x, y};
    SegOp o = {ir_lambda_new(F->a, ps, 2, ir_body_new(F->a, &s, &r, 1)), NEW(F->a, SubExp), 1, true, false};
    o.neutral[0] = ne;
    vec_free(&s);
    return o;
}

/* An inclusive scan (scan) or a reduction of the n elements of arr (of t)
 * by op, into out: the scan's array or the reduction's value. */
Var *fl_emit_soac1(Flat *F, StmVec *out, SubExp n, Var *arr, SegOp op, bool scan, PrimType t, const char *name) {
    IrExp *e = fl_exp_new(F, IE_SCREMA);
    e->screma.w = n;
    e->screma.narrs = 1;
    e->screma.arrs = NEW(F->a, Var *);
    e->screma.arrs[0] = arr;
    SegOp *o = NEW(F->a, SegOp);
    *o = op;
    if (scan) {
        e->screma.scans = o;
        e->screma.nscans = 1;
    } else {
        e->screma.reds = o;
        e->screma.nreds = 1;
    }
    e->screma.map = identity(F, t);
    return fl_emit1(F, out, name, scan ? fl_arr_type(F, t, n) : type_prim(t), e);
}

/* iota n (i64) into out. */
static Var *emit_iota(Flat *F, StmVec *out, SubExp n, const char *name) {
    IrExp *e = fl_exp_new(F, IE_IOTA);
    e->n = n;
    e->start = se_i64(0);
    e->step = se_i64(1);
    e->t = PT_I64;
    return fl_emit1(F, out, name, fl_arr_type(F, PT_I64, n), e);
}

/* Whether 0 <= i < len, into out. */
static SubExp in_range(Flat *F, StmVec *out, SubExp i, SubExp len) {
    SubExp lo = ir_emit_op2(F->p, out, OP_LE, PT_I64, se_i64(0), i, "in", F->loc);
    SubExp hi = ir_emit_op2(F->p, out, OP_LT, PT_I64, i, len, "in", F->loc);
    return ir_emit_op2(F->p, out, OP_LAND, PT_BOOL, lo, hi, "in", F->loc);
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
    SubExp rs = fl_if(F, &s, bad, NULL, se_i64(-1), NULL, sum, type_prim(PT_I64));
    Var *ps[2] = {x, y};
    SegOp op = {ir_lambda_new(F->a, ps, 2, ir_body_new(F->a, &s, &rs, 1)), NEW(F->a, SubExp), 1, true, false};
    op.neutral[0] = se_i64(0);
    vec_free(&s);
    return op;
}

/* ---- Descriptors -------------------------------------------------------------- */

/* The segments of length len: offsets by a scan of the sizes, the total
 * (checked not to have overflowed). */
Desc *fl_desc_of(Flat *F, Var *len) {
    for (Desc *d = F->descs; d; d = d->next)
        if (d->size == len) return d;
    Desc *d = NEW(F->a, Desc);
    d->size = len;
    d->sizes = fl_lifted_of(F, len);
    Var *incl = fl_emit_soac1(F, &F->out, F->w, d->sizes, sum_op(F), true, PT_I64, "incl");
    /* total = w == 0 ? 0 : incl[w-1] */
    SubExp empty = ir_emit_op2(F->p, &F->out, OP_EQ, PT_I64, F->w, se_i64(0), "empty", F->loc);
    StmVec last = {0};
    SubExp wm1 = ir_emit_op2(F->p, &last, OP_SUB, PT_I64, F->w, se_i64(1), "last", F->loc);
    SubExp t = se_var(fl_emit_index(F, &last, incl, wm1));
    d->total = fl_if(F, &F->out, empty, NULL, se_i64(0), &last, t, type_prim(PT_I64)).v;
    d->total->name = "total";
    vec_free(&last);
    SubExp ok = ir_emit_op2(F->p, &F->out, OP_LE, PT_I64, se_i64(0), se_var(d->total), "ok", F->loc);
    IrExp *as = fl_exp_new(F, IE_ASSERT);
    as->cond = ok;
    as->msg = "The lengths of the arrays built by a map are negative or add up to more than 2^63-1 elements.";
    vec_push(&F->out, ir_stm(F->a, NULL, 0, as, F->loc));
    /* offsets = incl - sizes */
    Var *a = ir_var(F->p, "incl", type_prim(PT_I64)), *b = ir_var(F->p, "size", type_prim(PT_I64));
    StmVec s = {0};
    SubExp o = ir_emit_op2(F->p, &s, OP_SUB, PT_I64, se_var(a), se_var(b), "offset", F->loc);
    Var *ps[2] = {a, b}, *ins[2] = {incl, d->sizes}, *pat[1] = {NULL};
    vec_push(&F->out, fl_map_stm(F, F->w, ins, 2, ir_lambda_new(F->a, ps, 2, ir_body_new(F->a, &s, &o, 1)), pat));
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
void fl_desc_positions(Flat *F, Desc *d) {
    if (d->seg) return;
    SubExp total = se_var(d->total);
    IrExp *r = fl_exp_new(F, IE_REPLICATE);
    r->nshape = 1;
    r->shape = NEW(F->a, SubExp);
    r->shape[0] = total;
    r->se = se_i64(0);
    Var *zeros = fl_emit1(F, &F->out, "starts", fl_arr_type(F, PT_I64, total), r);
    Var *o = ir_var(F->p, "offset", type_prim(PT_I64));
    SubExp hres[2] = {se_var(o), se_i64(1)};
    IrExp *h = fl_exp_new(F, IE_HIST);
    h->hist.w = F->w;
    h->hist.narrs = 1;
    h->hist.arrs = NEW(F->a, Var *);
    h->hist.arrs[0] = d->offsets;
    h->hist.lam = ir_lambda_new(F->a, &o, 1, ir_body_new(F->a, NULL, hres, 2));
    h->hist.dest_w = total;
    h->hist.dests = NEW(F->a, Var *);
    h->hist.dests[0] = zeros;
    h->hist.op = fl_binop(F, OP_ADD, PT_I64, se_i64(0));
    Var *starts = fl_emit1(F, &F->out, "starts", fl_arr_type(F, PT_I64, total), h);
    Var *incl = fl_emit_soac1(F, &F->out, total, starts, fl_binop(F, OP_ADD, PT_I64, se_i64(0)), true, PT_I64, "segs");
    /* seg = incl - 1; pos = i - offsets[seg] */
    Var *iota = emit_iota(F, &F->out, total, "flat_index");
    Var *c = ir_var(F->p, "segs", type_prim(PT_I64)), *i = ir_var(F->p, "i", type_prim(PT_I64));
    StmVec s = {0};
    SubExp sg = ir_emit_op2(F->p, &s, OP_SUB, PT_I64, se_var(c), se_i64(1), "seg", F->loc);
    SubExp off = se_var(fl_emit_index(F, &s, d->offsets, sg));
    SubExp res[2] = {sg, ir_emit_op2(F->p, &s, OP_SUB, PT_I64, se_var(i), off, "pos", F->loc)};
    Var *ps[2] = {c, i}, *ins[2] = {incl, iota}, *pat[2] = {NULL, NULL};
    vec_push(&F->out, fl_map_stm(F, total, ins, 2, ir_lambda_new(F->a, ps, 2, ir_body_new(F->a, &s, res, 2)), pat));
    vec_free(&s);
    d->seg = pat[0];
    d->seg->name = "seg";
    d->pos = pat[1];
    d->pos->name = "pos";
}

/* flat[off : len]: one element's segment of a flat array. */
static IrExp *segment(Flat *F, Var *flat, SubExp off, SubExp len) {
    IrExp *e = fl_exp_new(F, IE_INDEX);
    e->arr = flat;
    e->nslice = 1;
    e->slice = NEW(F->a, DimSlice);
    *e->slice = (DimSlice){true, {0}, off, len, se_i64(1)};
    return e;
}

/* ---- Expanded values ------------------------------------------------------------ */

/* The expanded [w] array of an outer value v (bound by now). */
Var *fl_lifted_of(Flat *F, Var *v) {
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
            vec_push(&F->arrs, fl_lifted_of(F, x));
        } else {
            Desc *d = F->desc[x->id];
            SubExp len = se_var(d->size);
            stage_use(F, &len, NULL, k);
            Var *off = ir_var(F->p, "offset", type_prim(PT_I64));
            vec_push(&F->params, off);
            vec_push(&F->arrs, d->offsets);
            F->repl[x->id] = fl_emit1(F, &F->prologue, x->name, fl_arr_type(F, x->type.elem, len),
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
    IrExp *e = fl_exp_new(F, IE_INDEX);
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
    Type t = F->def[x->id]->pat[0]->type;
    t.shape = NEW_ARRAY(F->a, SubExp, t.rank);
    COPY_ARRAY(t.shape, F->def[x->id]->pat[0]->type.shape, t.rank);
    ir_uses_type(&t, use, F);
    return fl_emit1(F, &F->prologue, x->name, t, e);
}

static void reset_build(Flat *F) {
    memset(F->repl, 0, sizeof(Var *) * (size_t)F->nvars);
    F->params.len = F->arrs.len = F->prologue.len = 0;
    F->seg_param = NULL;
}

/* Statements [lo, hi) of body b as a map over the elements, returning the
 * values bound there that later statements or the results use (each
 * expanded into its [w] array). */
void fl_emit_stage(Flat *F, Body *b, int lo, int hi) {
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
    Lambda *lam = ir_lambda_new(F->a, F->params.items, F->params.len, ir_body_new(F->a, &stms, res.items, res.len));
    Var **pv = NEW_ARRAY(F->a, Var *, pat.len + 1);
    COPY_ARRAY(pv, pat.items, pat.len);
    vec_push(&F->out, fl_map_stm(F, F->w, F->arrs.items, F->arrs.len, lam, pv));
    vec_free(&stms);
    vec_free(&res);
    vec_free(&pat);
}

/* ---- Lifting inner statements ------------------------------------------------------ */

/* The segment parameter of the lambda being lifted (an input of seg). */
static Var *seg_param(Flat *F, Desc *d) {
    if (!F->seg_param) {
        fl_desc_positions(F, d);
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
            F->repl[x->id] = fl_emit_index(F, &F->prologue, fl_lifted_of(F, x), se_var(sg));
        } else {
            Desc *d = F->desc[x->id];
            SubExp off = se_var(fl_emit_index(F, &F->prologue, d->offsets, se_var(sg)));
            SubExp len = se_var(fl_emit_index(F, &F->prologue, d->sizes, se_var(sg)));
            F->repl[x->id] = fl_emit1(F, &F->prologue, x->name, fl_arr_type(F, x->type.elem, len),
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
    fl_desc_positions(F, d);
    Var *p = ir_var(F->p, "pos", type_prim(PT_I64));
    vec_push(&F->params, p);
    vec_push(&F->arrs, d->pos);
    return p;
}

/* The flat array of an inner Var x, bound to v. */
void fl_set_flat(Flat *F, Var *x, Var *v) {
    v->name = x->name;
    F->flat[x->id] = v;
}

/* An inner Screma over the flat arrays (see the top of the file). */
void fl_lift_screma(Flat *F, Stm *st, Desc *d) {
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
        ops[i] = ir_segmented_op(F->p, *o, F->loc);
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
    Lambda *lam = ir_lambda_new(F->a, F->params.items, F->params.len, ir_body_new(F->a, &stms, res.items, res.len));
    vec_free(&stms);
    vec_free(&res);
    /* The new Screma binds each op's flags and values, then the map's results. */
    IrExp *e = fl_exp_new(F, IE_SCREMA);
    e->screma.w = total;
    e->screma.narrs = F->arrs.len;
    e->screma.arrs = vec_to_arena(F->a, &F->arrs);
    e->screma.map = lam;
    e->screma.scans = ops;
    e->screma.nscans = nops;
    int npat = lam->nret;
    Var **pat = NEW_ARRAY(F->a, Var *, npat + 1);
    for (int i = 0; i < npat; i++) pat[i] = ir_var(F->p, "flat", fl_arr_type(F, lam->ret[i].elem, total));
    vec_push(&F->out, ir_stm(F->a, pat, npat, e, F->loc));
    /* Scans' values are flat arrays, reductions' the last of each segment. */
    int at = 0, v = 0;
    for (int i = 0; i < nops; i++) {
        at++;
        for (int j = 0; j < ops[i].k - 1; j++, at++, v++) {
            Var *x = st->pat[v];
            if (i < sc->nscans) {
                fl_set_flat(F, x, pat[at]);
                continue;
            }
            /* x = size == 0 ? neutral : scanned[offset + size - 1] */
            Var *off = ir_var(F->p, "offset", type_prim(PT_I64)), *sz = ir_var(F->p, "size", type_prim(PT_I64));
            StmVec s = {0}, last = {0};
            SubExp empty = ir_emit_op2(F->p, &s, OP_EQ, PT_I64, se_var(sz), se_i64(0), "empty", F->loc);
            SubExp end = ir_emit_op2(F->p, &last, OP_ADD, PT_I64, se_var(off), se_var(sz), "end", F->loc);
            end = ir_emit_op2(F->p, &last, OP_SUB, PT_I64, end, se_i64(1), "last", F->loc);
            SubExp r = se_var(fl_emit_index(F, &last, pat[at], end));
            SubExp xr = fl_if(F, &s, empty, NULL, ops[i].neutral[j + 1], &last, r, x->type);
            Var *ps[2] = {off, sz}, *ins[2] = {d->offsets, d->sizes}, *lp[1] = {NULL};
            vec_push(&F->out, fl_map_stm(F, F->w, ins, 2, ir_lambda_new(F->a, ps, 2, ir_body_new(F->a, &s, &xr, 1)), lp));
            lp[0]->name = x->name;
            F->lifted[x->id] = lp[0];
            vec_free(&s);
            vec_free(&last);
        }
    }
    for (; at < npat; at++, v++) fl_set_flat(F, st->pat[v], pat[at]);
}

/* An element of inner array x at index i of its segment, in the
 * prologue of the lambda being lifted (which has a segment parameter). */
static SubExp inner_elem(Flat *F, Var *x, SubExp i) {
    Var *sg = seg_param(F, F->cur);
    Desc *d = F->desc[x->id];
    StmVec *out = &F->prologue;
    SubExp off = se_var(fl_emit_index(F, out, d->offsets, se_var(sg)));
    SubExp len = se_var(fl_emit_index(F, out, d->sizes, se_var(sg)));
    /* The bounds check of i ran in another kernel: if it failed there (the
     * run fails), i may lie outside the segment, and is not read. */
    SubExp in = in_range(F, out, i, len);
    StmVec t = {0};
    SubExp at = ir_emit_op2(F->p, &t, OP_ADD, PT_I64, off, i, "at", F->loc);
    SubExp v = se_var(fl_emit_index(F, &t, F->flat[x->id], at));
    PrimType et = x->type.elem;
    SubExp r = fl_if(F, out, in, &t, v, NULL, se_const(prim_convert(prim_int(PT_I64, 0), et)), type_prim(et));
    vec_free(&t);
    return r;
}

/* The lambda of the lifted statement (the prologue, returning r) as a map
 * over the positions of d, binding st's inner result. */
static void emit_positions_map(Flat *F, Stm *st, Desc *d, SubExp r) {
    Lambda *lam = ir_lambda_new(F->a, F->params.items, F->params.len, ir_body_new(F->a, &F->prologue, &r, 1));
    Var *pat[1] = {NULL};
    vec_push(&F->out, fl_map_stm(F, se_var(d->total), F->arrs.items, F->arrs.len, lam, pat));
    fl_set_flat(F, st->pat[0], pat[0]);
}

/* A slice x[start:+len*stride] of an inner array: each position reads its
 * element of x's segment. */
void fl_lift_slice(Flat *F, Stm *st, Desc *d) {
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
        SubExp off = se_var(fl_emit_index(F, out, F->desc[x->id]->offsets, seg));
        SubExp at = ir_emit_op2(F->p, out, OP_ADD, PT_I64, off, pos, "at", F->loc);
        return se_var(fl_emit_index(F, out, F->flat[x->id], at));
    }
    if (!top_var(F, x)) return se_var(fl_emit_index(F, out, x, pos));
    if (F->level[x->id] == L_VIEW) { /* the element's slice of an array bound outside */
        SubExp v = se_var(x);
        inner_use(F, &v, NULL, IR_USE_READ);
        return se_var(fl_emit_index(F, out, v.v, pos));
    }
    IrExp *e = fl_exp_new(F, IE_INDEX);
    e->arr = fl_lifted_of(F, x);
    e->nslice = 2;
    e->slice = NEW_ARRAY(F->a, DimSlice, 2);
    e->slice[0].index = seg;
    e->slice[1].index = pos;
    return se_var(fl_emit1(F, out, x->name, type_prim(x->type.elem), e));
}

/* Inner arrays (or arrays of one length, of the element or bound outside
 * the map) concatenated: a position reads the piece it falls in. */
static SubExp concat_elem(Flat *F, StmVec *out, Var **arrs, int n, SubExp seg, SubExp pos) {
    Var *x = arrs[0];
    if (n == 1) return piece_elem(F, out, x, seg, pos);
    SubExp len = inner_arr(F, x) ? se_var(fl_emit_index(F, out, F->desc[x->id]->sizes, seg))
                                 : inner_se(F, x->type.shape[0]);
    SubExp here = ir_emit_op2(F->p, out, OP_LT, PT_I64, pos, len, "here", F->loc);
    StmVec t = {0}, f = {0};
    SubExp v = piece_elem(F, &t, x, seg, pos);
    SubExp rest = ir_emit_op2(F->p, &f, OP_SUB, PT_I64, pos, len, "pos", F->loc);
    SubExp w = concat_elem(F, &f, arrs + 1, n - 1, seg, rest);
    SubExp r = fl_if(F, out, here, &t, v, &f, w, type_prim(x->type.elem));
    vec_free(&t);
    vec_free(&f);
    return r;
}

void fl_lift_concat(Flat *F, Stm *st, Desc *d) {
    reset_build(F);
    F->cur = d;
    Var *pos = pos_param(F, d);
    Var *sg = seg_param(F, d);
    emit_positions_map(F, st, d, concat_elem(F, &F->prologue, st->e->arrs, st->e->narrs, se_var(sg), se_var(pos)));
}

/* A copy of an inner array: a copy of its flat array. */
void fl_lift_copy(Flat *F, Stm *st) {
    IrExp *e = fl_exp_new(F, IE_COPY);
    Var *flat = F->flat[st->e->arr->id];
    e->arr = flat;
    F->desc[st->pat[0]->id] = F->desc[st->e->arr->id];
    fl_set_flat(F, st->pat[0], fl_emit1(F, &F->out, st->pat[0]->name, flat->type, e));
}

/* An iota or replicate of an inner length: a map over the positions. */
void fl_lift_fill(Flat *F, Stm *st, Desc *d) {
    IrExp *e = st->e;
    reset_build(F);
    F->cur = d;
    Var *x = st->pat[0];
    PrimType t = x->type.elem;
    if (e->kind == IE_IOTA && t == PT_I64 && !e->start.is_var && e->start.c.v.i == 0 && !e->step.is_var &&
        e->step.c.v.i == 1) {
        fl_desc_positions(F, d);
        fl_set_flat(F, x, d->pos);
        return;
    }
    SubExp r;
    if (e->kind == IE_IOTA) {
        Var *pos = pos_param(F, d);
        SubExp start = inner_se(F, e->start), step = inner_se(F, e->step);
        IrExp *c = fl_exp_new(F, IE_CONV);
        c->t = PT_I64;
        c->to = t;
        c->nargs = 1;
        c->args = NEW(F->a, SubExp);
        c->args[0] = se_var(pos);
        SubExp i = t == PT_I64 ? se_var(pos) : se_var(fl_emit1(F, &F->prologue, "i", type_prim(t), c));
        SubExp m = ir_emit_op2(F->p, &F->prologue, OP_MUL, t, i, step, "x", F->loc);
        r = ir_emit_op2(F->p, &F->prologue, OP_ADD, t, start, m, "x", F->loc);
    } else {
        r = inner_se(F, e->se);
    }
    emit_positions_map(F, st, d, r);
}

/* Flat array v, or a copy of it when it is a descriptor's array (an
 * iota of the positions is that array itself), for code that consumes
 * it (a scatter into it, a loop that updates it). */
Var *fl_owned(Flat *F, Var *v) {
    for (Desc *d = F->descs; d; d = d->next)
        if (v == d->pos || v == d->seg) {
            IrExp *e = fl_exp_new(F, IE_COPY);
            e->arr = v;
            return fl_emit1(F, &F->out, v->name, v->type, e);
        }
    return v;
}

/* off + idx if 0 <= idx < len, else -1 (a scatter ignores it). */
static SubExp checked_index(Flat *F, StmVec *out, SubExp idx, SubExp len, SubExp off) {
    SubExp in = in_range(F, out, idx, len);
    SubExp at = ir_emit_op2(F->p, out, OP_ADD, PT_I64, off, idx, "at", F->loc);
    return fl_if(F, out, in, NULL, at, NULL, se_i64(-1), type_prim(PT_I64));
}

/* Value x (a constant, a value of the body or bound outside the map) of
 * element seg, read into out. */
static SubExp at_seg(Flat *F, StmVec *out, SubExp x, SubExp seg) {
    return x.is_var && top_var(F, x.v) ? se_var(fl_emit_index(F, out, fl_lifted_of(F, x.v), seg)) : x;
}

/* The scatter into x's flat array of the lambda being built (its
 * prologue then res), over n, binding st's result. */
static void emit_update(Flat *F, Stm *st, SubExp n, SubExp at, SubExp v) {
    IrExp *e = st->e;
    SubExp res[2] = {at, v};
    IrExp *sc = fl_exp_new(F, IE_SCATTER);
    sc->scatter.w = n;
    sc->scatter.narrs = F->arrs.len;
    sc->scatter.arrs = vec_to_arena(F->a, &F->arrs);
    sc->scatter.lam = ir_lambda_new(F->a, F->params.items, F->params.len, ir_body_new(F->a, &F->prologue, res, 2));
    sc->scatter.ndests = 1;
    sc->scatter.dests = NEW(F->a, Var *);
    sc->scatter.dests[0] = fl_owned(F, F->flat[e->arr->id]);
    Var *x = st->pat[0];
    Var *r = fl_emit1(F, &F->out, x->name, F->flat[e->arr->id]->type, sc);
    F->desc[x->id] = F->desc[e->arr->id];
    fl_set_flat(F, x, r);
}

/* x with [i] = v or x with [start:len:stride] = vs, x inner: a scatter
 * into x's flat array, of one element per segment, of each flat position
 * of inner vs, or of each element of an array vs of one length L (every
 * element's, or bound outside the map); an index outside the element's
 * segment writes nothing (a failed bounds check ran in another kernel). */
void fl_lift_update(Flat *F, Stm *st) {
    IrExp *e = st->e;
    Desc *dx = F->desc[e->arr->id];
    const DimSlice *sl = &e->slice[0];
    StmVec *out = &F->prologue;
    reset_build(F);
    if (!sl->is_slice) {
        Var *ps[2] = {ir_var(F->p, "offset", type_prim(PT_I64)), ir_var(F->p, "size", type_prim(PT_I64))};
        Var *ins[2] = {dx->offsets, dx->sizes};
        for (int i = 0; i < 2; i++) {
            vec_push(&F->params, ps[i]);
            vec_push(&F->arrs, ins[i]);
        }
        /* the element's index and value, from their expanded arrays */
        SubExp ses[2] = {sl->index, e->se};
        for (int i = 0; i < 2; i++)
            if (ses[i].is_var && top_var(F, ses[i].v)) {
                Var *p = ir_var(F->p, ses[i].v->name, ses[i].v->type);
                vec_push(&F->params, p);
                vec_push(&F->arrs, fl_lifted_of(F, ses[i].v));
                ses[i] = se_var(p);
            }
        emit_update(F, st, F->w, checked_index(F, out, ses[0], se_var(ps[1]), se_var(ps[0])), ses[1]);
        return;
    }
    Var *vs = e->se.v;
    SubExp seg, pos, v;
    SubExp n;
    if (inner_arr(F, vs)) {
        Desc *dv = F->desc[vs->id];
        F->cur = dv;
        Var *val = ir_var(F->p, "v", type_prim(vs->type.elem));
        vec_push(&F->params, val);
        vec_push(&F->arrs, F->flat[vs->id]);
        seg = se_var(seg_param(F, dv));
        pos = se_var(pos_param(F, dv));
        v = se_var(val);
        n = se_var(dv->total);
    } else {
        /* every element's vs has length L: positions t < w * L */
        SubExp L = vs->type.shape[0];
        n = ir_emit_op2(F->p, &F->out, OP_SIZE_MUL, PT_I64, F->w, L, "n", F->loc);
        Var *t = ir_var(F->p, "t", type_prim(PT_I64));
        vec_push(&F->params, t);
        vec_push(&F->arrs, emit_iota(F, &F->out, n, "t"));
        seg = ir_emit_op2(F->p, out, OP_QUOT, PT_I64, se_var(t), L, "seg", F->loc);
        pos = ir_emit_op2(F->p, out, OP_REM, PT_I64, se_var(t), L, "pos", F->loc);
        if (top_var(F, vs)) {
            IrExp *r = fl_exp_new(F, IE_RESHAPE);
            r->arr = fl_lifted_of(F, vs);
            r->nshape = 1;
            r->shape = NEW(F->a, SubExp);
            r->shape[0] = n;
            Var *val = ir_var(F->p, "v", type_prim(vs->type.elem));
            vec_push(&F->params, val);
            vec_push(&F->arrs, fl_emit1(F, &F->out, vs->name, fl_arr_type(F, vs->type.elem, n), r));
            v = se_var(val);
        } else {
            v = se_var(fl_emit_index(F, out, vs, pos));
        }
    }
    SubExp start = at_seg(F, out, sl->start, seg), stride = at_seg(F, out, sl->stride, seg);
    SubExp i = ir_emit_op2(F->p, out, OP_MUL, PT_I64, pos, stride, "i", F->loc);
    i = ir_emit_op2(F->p, out, OP_ADD, PT_I64, start, i, "i", F->loc);
    SubExp off = se_var(fl_emit_index(F, out, dx->offsets, seg));
    SubExp len = se_var(fl_emit_index(F, out, dx->sizes, seg));
    emit_update(F, st, n, checked_index(F, out, i, len, off), v);
}

/* A scatter of inner arrays into inner destinations (a filter's last
 * step): over the flat positions of its inputs, each index moved into the
 * destination's segment of the same element, or dropped when outside it. */
void fl_lift_scatter(Flat *F, Stm *st) {
    Scatter *sc = &st->e->scatter;
    Lambda *l = sc->lam;
    Desc *d = fl_desc_of(F, sc->w.v);
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
        SubExp len = se_var(fl_emit_index(F, &stms, dd->sizes, se_var(sg)));
        SubExp off = se_var(fl_emit_index(F, &stms, dd->offsets, se_var(sg)));
        res[j] = checked_index(F, &stms, l->body->res[j], len, off);
        res[nd + j] = l->body->res[nd + j];
        dests[j] = fl_owned(F, F->flat[sc->dests[j]->id]);
        pat[j] = ir_var(F->p, st->pat[j]->name, dests[j]->type);
    }
    IrExp *e = fl_exp_new(F, IE_SCATTER);
    e->scatter.w = se_var(d->total);
    e->scatter.narrs = F->arrs.len;
    e->scatter.arrs = vec_to_arena(F->a, &F->arrs);
    e->scatter.lam = ir_lambda_new(F->a, F->params.items, F->params.len, ir_body_new(F->a, &stms, res, 2 * nd));
    e->scatter.ndests = nd;
    e->scatter.dests = dests;
    vec_free(&stms);
    vec_push(&F->out, ir_stm(F->a, pat, nd, e, F->loc));
    for (int j = 0; j < nd; j++) {
        F->desc[st->pat[j]->id] = F->desc[sc->dests[j]->id];
        fl_set_flat(F, st->pat[j], pat[j]);
    }
}

/* An uninitialised inner array: one of the total length. */
void fl_lift_scratch(Flat *F, Stm *st, Desc *d) {
    IrExp *e = fl_exp_new(F, IE_SCRATCH);
    e->type = fl_arr_type(F, st->pat[0]->type.elem, se_var(d->total));
    fl_set_flat(F, st->pat[0], fl_emit1(F, &F->out, st->pat[0]->name, e->type, e));
}
