/* Pass flatten (GPU pipeline): a histogram whose buckets are rows of d
 * elements combined by an elementwise operator (Futhark's vectorised
 * operators: hist (map2 (+)) (replicate d 0) k is vs) becomes a
 * histogram of the operator's scalar function over the k * d flat
 * buckets, one element per flat position t < n * d of the rows:
 *
 *   hist (map2 f) (replicate d ne) k is vs
 *   => reshape [k][d] (hist f ne (k * d) over t < n * d:
 *        i = t / d, j = t - i * d, c = is[i];
 *        slot c * d + j when 0 <= c < k, else -1 (ignored), value vs[i][j])
 *
 * The GPU then updates the buckets from n * d work-items, as for any
 * scalar histogram (local-memory sub-histograms, atomics), instead of
 * running the whole histogram in one work-item. The histogram's lambda
 * runs again for each element of its rows, so only a cheap one (scalar
 * code, indexing and views) is rewritten, and only a neutral element
 * that replicates one scalar. */
#include "flatten.h"

/* The scalar that array v of b (bound before statement at) replicates. */
static bool replicated_scalar(const Body *b, int at, const Var *v, SubExp *x) {
    for (int i = 0; i < at; i++) {
        const Stm *s = b->stms[i];
        if (s->npat != 1 || s->pat[0] != v) continue;
        if (s->e->kind != IE_REPLICATE || s->e->nshape != 1 || (s->e->se.is_var && s->e->se.v->type.kind != TK_PRIM))
            return false;
        *x = s->e->se;
        return true;
    }
    return false;
}

static bool cheap_lambda(const Lambda *l) {
    if (ir_lambda_has_assert(l)) return false;
    for (int i = 0; i < l->body->nstms; i++) {
        const Stm *s = l->body->stms[i];
        if (!ir_stm_cheap(s)) return false;
        if (s->e->kind == IE_APPLY && ir_body_has_assert(s->e->fn->body)) return false;
        for (int j = 0; j < s->npat; j++)
            if (s->pat[j]->type.kind != TK_PRIM && s->e->kind != IE_INDEX) return false;
    }
    return true;
}

static Stm *reshape_stm(Prog *p, Var *dst, Var *src, const SubExp *shape, int rank, SrcLoc loc) {
    IrExp *e = NEW(p->arena, IrExp);
    e->kind = IE_RESHAPE;
    e->arr = src;
    e->nshape = rank;
    e->shape = NEW_ARRAY(p->arena, SubExp, rank);
    COPY_ARRAY(e->shape, shape, rank);
    return ir_stm1(p->arena, dst, e, loc);
}

/* The scalar operator of elementwise op (its map m): m's function with
 * its parameters in the operator's order (accumulators, then values). */
static Lambda *scalar_op(Arena *a, const SegOp *op, const Screma *m) {
    Lambda *l = NEW(a, Lambda);
    *l = *m->map;
    l->params = NEW_ARRAY(a, Var *, m->narrs);
    for (int i = 0; i < m->narrs; i++) l->params[ir_param_index(op->op, m->arrs[i])] = m->map->params[i];
    return l;
}

/* The flat histogram's lambda over position t: statements into out, and
 * the bucket and values as its results. */
static Lambda *flat_lambda(Prog *p, const Hist *h, SubExp d, SrcLoc loc) {
    Arena *a = p->arena;
    int k = h->op.k;
    StmVec out = {0};
    Var *t = ir_var(p, "t", type_prim(PT_I64));
    SubExp i, j;
    ir_emit_unflatten(p, &out, se_var(t), d, &i, &j, loc);
    for (int q = 0; q < h->lam->nparams; q++) vec_push(&out, ir_index_stm(a, h->lam->params[q], h->arrs[q], i, loc));
    const Body *lb = h->lam->body;
    for (int q = 0; q < lb->nstms; q++) vec_push(&out, lb->stms[q]);
    /* c * d + j when 0 <= c < k, else -1: (c' * d + j + 1) * ok - 1 with
     * c' = c * ok, which neither overflows nor branches. */
    SubExp c = lb->res[0];
    SubExp lo = ir_emit_op2(p, &out, OP_LE, PT_I64, se_i64(0), c, "ok", loc);
    SubExp hi = ir_emit_op2(p, &out, OP_LT, PT_I64, c, h->dest_w, "ok", loc);
    SubExp inb = ir_emit_op2(p, &out, OP_LAND, PT_BOOL, lo, hi, "ok", loc);
    Var *ok = ir_var(p, "ok", type_prim(PT_I64));
    IrExp *cv = NEW(a, IrExp);
    cv->kind = IE_CONV;
    cv->t = PT_BOOL;
    cv->to = PT_I64;
    cv->nargs = 1;
    cv->args = NEW(a, SubExp);
    cv->args[0] = inb;
    vec_push(&out, ir_stm1(a, ok, cv, loc));
    SubExp cc = ir_emit_op2(p, &out, OP_MUL, PT_I64, c, se_var(ok), "c", loc);
    SubExp slot = ir_emit_op2(p, &out, OP_MUL, PT_I64, cc, d, "slot", loc);
    slot = ir_emit_op2(p, &out, OP_ADD, PT_I64, slot, j, "slot", loc);
    slot = ir_emit_op2(p, &out, OP_ADD, PT_I64, slot, se_i64(1), "slot", loc);
    slot = ir_emit_op2(p, &out, OP_MUL, PT_I64, slot, se_var(ok), "slot", loc);
    slot = ir_emit_op2(p, &out, OP_SUB, PT_I64, slot, se_i64(1), "slot", loc);
    Lambda *l = NEW(a, Lambda);
    l->nparams = 1;
    l->params = NEW(a, Var *);
    l->params[0] = t;
    l->nret = k + 1;
    l->ret = NEW_ARRAY(a, Type, k + 1);
    l->ret[0] = type_prim(PT_I64);
    l->body = NEW(a, Body);
    l->body->nres = k + 1;
    l->body->res = NEW_ARRAY(a, SubExp, k + 1);
    l->body->res[0] = slot;
    for (int q = 0; q < k; q++) {
        PrimType et = h->dests[q]->type.elem;
        Var *v = ir_var(p, "v", type_prim(et));
        vec_push(&out, ir_index_stm(a, v, lb->res[1 + q].v, j, loc));
        l->ret[1 + q] = type_prim(et);
        l->body->res[1 + q] = se_var(v);
    }
    l->body->nstms = out.len;
    l->body->stms = vec_to_arena(a, &out);
    vec_free(&out);
    return l;
}

bool flatten_hist_rows(Prog *p, Body *b, int at) {
    Arena *a = p->arena;
    Stm *s = b->stms[at];
    Hist *h = &s->e->hist;
    const Screma *m = ir_elementwise(&h->op);
    if (!m || !cheap_lambda(h->lam)) return false;
    int k = h->op.k;
    SubExp *ne = NEW_ARRAY(a, SubExp, k + 1);
    for (int q = 0; q < k; q++)
        if (!h->op.neutral[q].is_var || !replicated_scalar(b, at, h->op.neutral[q].v, &ne[q])) return false;
    for (int q = 0; q < k; q++)
        if (!h->lam->body->res[1 + q].is_var || h->dests[q]->type.rank != 2) return false;
    SrcLoc loc = s->loc;
    SubExp d = h->op.op->params[0]->type.shape[0];
    StmVec out = {0};
    SubExp n = ir_emit_op2(p, &out, OP_SIZE_MUL, PT_I64, h->w, d, "n", loc);
    SubExp buckets = ir_emit_op2(p, &out, OP_SIZE_MUL, PT_I64, h->dest_w, d, "buckets", loc);
    Var **dests = NEW_ARRAY(a, Var *, k + 1);
    for (int q = 0; q < k; q++) {
        Type ft = type_array(a, h->dests[q]->type.elem, 1, &buckets);
        ft.unique = true;
        dests[q] = ir_var(p, "flat_dest", ft);
        vec_push(&out, reshape_stm(p, dests[q], h->dests[q], &buckets, 1, loc));
    }
    Stm *iota = ir_iota_stm(p, "flat", n, loc);
    Var *pos = iota->pat[0];
    vec_push(&out, iota);
    IrExp *he = NEW(a, IrExp);
    he->kind = IE_HIST;
    Var **arrs = NEW(a, Var *);
    arrs[0] = pos;
    he->hist = (Hist){.w = n, .arrs = arrs, .narrs = 1, .lam = flat_lambda(p, h, d, loc), .dest_w = buckets,
                      .dests = dests};
    he->hist.op = (SegOp){scalar_op(a, &h->op, m), ne, k, h->op.commutative, false};
    Var **flat = NEW_ARRAY(a, Var *, k + 1);
    for (int q = 0; q < k; q++) flat[q] = ir_var(p, "flat_hist", dests[q]->type);
    vec_push(&out, ir_stm(a, flat, k, he, loc));
    for (int q = 0; q < k; q++)
        vec_push(&out, reshape_stm(p, s->pat[q], flat[q], s->pat[q]->type.shape, 2, loc));
    int nn = out.len;
    Stm **stms = NEW_ARRAY(a, Stm *, b->nstms + nn);
    COPY_ARRAY(stms, b->stms, at);
    COPY_ARRAY(stms + at, out.items, nn);
    COPY_ARRAY(stms + at + nn, b->stms + at + 1, b->nstms - at - 1);
    b->stms = stms;
    b->nstms += nn - 1;
    vec_free(&out);
    return true;
}
