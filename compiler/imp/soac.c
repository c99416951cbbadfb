/* The lowering of SOACs to sequential loops over their iter Var (ir.h):
 * Screma (maps, scans and reductions), Scatter (out-of-bounds indices
 * ignored) and Hist (out-of-bounds buckets ignored). A lambda's scalar
 * parameters are loaded from row iter of its inputs; its array parameters
 * are views whose LMADs mention iter (memory.c). Scans and reductions of
 * scalars keep their accumulators in scalar variables; an array
 * accumulator lives in the place memory.c gave the operator's parameter,
 * and a histogram's accumulators are its buckets. */
#include "lower.h"

static bool acc_scalar(const Acc *a) { return a->var || a->mem; }

static ImpExp *acc_read(ImpLower *L, const Acc *a, PrimType t) {
    return a->var ? imp_read(L->a, a->var) : imp_load(L->a, a->mem, t, a->index);
}

static void acc_write(ImpLower *L, const Acc *a, PrimType t, ImpExp *value) {
    if (a->var) imp_assign(L->b, a->var, value);
    else imp_store(L->b, a->mem, t, a->index, value);
}

void lw_bind_rows(ImpLower *L, const Lambda *lam, Var **arrs, const Var *iter) {
    Sym *i = sym_var(L->a, iter->id);
    for (int k = 0; k < lam->nparams; k++) {
        Var *p = lam->params[k];
        if (p->type.kind != TK_ARRAY) lw_declare(L, p, lw_elem(L, arrs[k], &i));
    }
}

/* Opens the loop `for iter < w` and binds the lambda's rows. */
static ImpStm *soac_loop(ImpLower *L, LwNest *n, SubExp w, const Lambda *lam, Var **arrs, const Var *iter) {
    ImpStm *f = lw_for(L, n, lw_var(L, iter), lw_se(L, w));
    lw_bind_rows(L, lam, arrs, iter);
    return f;
}

/* ---- Operators --------------------------------------------------------------- */

typedef struct OpCtx {
    const SegOp *op;
    const Acc *accs;
} OpCtx;

/* The operator's results become the accumulators: assigned, or copied
 * into the place of an array accumulator unless they were built there. */
static void res_to_accs(ImpLower *L, const Body *b, void *ctx) {
    const OpCtx *o = ctx;
    for (int i = 0; i < b->nres; i++) {
        const Var *pa = o->op->op->params[i];
        if (acc_scalar(&o->accs[i])) {
            acc_write(L, &o->accs[i], pa->type.elem, lw_se(L, b->res[i]));
            continue;
        }
        lw_store(L, pa->mem->mem, pa->mem->ixfun, b->res[i], pa->type.elem);
    }
}

void lw_segop(ImpLower *L, const SegOp *op, const Acc *accs, const SubExp *vals, ImpExp *const *xvals) {
    for (int i = 0; i < op->k; i++) {
        const Var *pa = op->op->params[i], *pe = op->op->params[op->k + i];
        if (acc_scalar(&accs[i])) {
            lw_declare(L, pa, acc_read(L, &accs[i], pa->type.elem));
            lw_declare(L, pe, xvals ? xvals[i] : lw_se(L, vals[i]));
            continue;
        }
        lw_store(L, pe->mem->mem, pe->mem->ixfun, vals[i], pe->type.elem);
    }
    OpCtx o = {op, accs};
    lw_body(L, op->op->body, res_to_accs, &o, NULL, 0);
}

/* ---- Elementwise operators ---- */

typedef struct RowsCtx {
    const Screma *m;
    const LwRows *r;
    Sym *j;
} RowsCtx;

/* The scalar operator's results stored into the accumulators' elements j. */
static void res_rows(ImpLower *L, const Body *b, void *ctx) {
    const RowsCtx *x = ctx;
    for (int q = 0; q < b->nres; q++)
        imp_store(L->b, x->r->mems[q], x->m->map->ret[q].elem, x->r->acc(L, q, x->j, x->r->ctx), lw_se(L, b->res[q]));
}

void lw_segop_rows(ImpLower *L, const SegOp *op, const Screma *m, const LwRows *r, ImpExp *len) {
    LwNest n;
    ImpStm *f = lw_for(L, &n, lw_var(L, m->iter), len);
    f->vector = L->parallel;
    Sym *j = sym_var(L->a, m->iter->id);
    for (int i = 0; i < m->narrs; i++) {
        const Var *p = m->map->params[i];
        int q = ir_param_index(op->op, m->arrs[i]);
        ImpExp *x = q < op->k ? imp_load(L->a, r->mems[q], p->type.elem, r->acc(L, q, j, r->ctx))
                    : r->vals   ? lw_elem(L, r->vals[q - op->k].v, &j)
                                : r->val(L, q - op->k, j, r->ctx);
        lw_declare(L, p, x);
    }
    RowsCtx x = {m, r, j};
    lw_body(L, m->map->body, res_rows, &x, NULL, 0);
    f->body = lw_leave(L, &n);
}

Acc *lw_declare_accs(ImpLower *L, const SegOp *ops, int nops, Var **pat, bool temps) {
    int n = 0;
    for (int j = 0; j < nops; j++) n += ops[j].k;
    Acc *accs = NEW_ARRAY(L->a, Acc, n + 1);
    n = 0;
    for (int j = 0; j < nops; j++)
        for (int k = 0; k < ops[j].k; k++, n++) {
            const SubExp ne = ops[j].neutral[k];
            PrimType t = subexp_type(ne).elem;
            const Var *pa = ops[j].op->params[k];
            if (pa->type.kind == TK_ARRAY) {
                lw_store(L, pa->mem->mem, pa->mem->ixfun, ne, t);
            } else if (temps) {
                accs[n].var = lw_fresh(L, "acc", IMP_SCALAR, t);
                imp_decl(L->b, accs[n].var, lw_se(L, ne));
            } else {
                accs[n].var = lw_var(L, pat[n]);
                lw_declare(L, pat[n], lw_se(L, ne));
            }
        }
    return accs;
}

/* ---- Screma ---------------------------------------------------------------------- */

bool *lw_dead_results(ImpLower *L, const Stm *s, int n) {
    bool *dead = NEW_ARRAY(L->a, bool, n + 1);
    for (int k = 0; k < n && k < s->npat; k++) dead[k] = s->pat[k]->mem && lw_dies(L, s->pat[k]->mem->mem);
    return dead;
}

void lw_res_screma(ImpLower *L, const Body *b, void *ctx) {
    const ScremaCtx *x = ctx;
    const Screma *sc = &x->s->e->screma;
    Sym *i = sym_var(L->a, sc->iter->id);
    int pos = 0, acc = 0;
    for (int j = 0; j < sc->nscans; j++) {
        lw_segop(L, &sc->scans[j], x->scan_accs + acc, b->res + pos, NULL);
        for (int k = 0; k < sc->scans[j].k; k++, pos++, acc++) {
            const Var *out = x->s->pat[pos];
            const Lmad *ol = out->mem->ixfun;
            if (x->dead && x->dead[pos]) continue;
            if (acc_scalar(&x->scan_accs[acc])) {
                imp_store(L->b, lw_var(L, out->mem->mem), out->type.elem, lw_offset(L, ol, &i),
                          acc_read(L, &x->scan_accs[acc], out->type.elem));
                continue;
            }
            const MemInfo *am = sc->scans[j].op->params[k]->mem;
            lw_copy(L, out->mem->mem, lw_row(L, ol, i), am->mem, am->ixfun, out->type.elem);
        }
    }
    acc = 0;
    for (int j = 0; j < sc->nreds; j++) {
        L->reassoc++;
        lw_segop(L, &sc->reds[j], x->red_accs + acc, b->res + pos, NULL);
        L->reassoc--;
        pos += sc->reds[j].k;
        acc += sc->reds[j].k;
    }
    lw_map_outputs(L, x->s, b, pos);
}

void lw_map_outputs(ImpLower *L, const Stm *s, const Body *b, int first) {
    Sym *i = sym_var(L->a, s->e->screma.iter->id);
    for (int pos = first; pos < b->nres; pos++) {
        const Var *out = s->pat[pos];
        lw_store(L, out->mem->mem, lw_row(L, out->mem->ixfun, i), b->res[pos], out->type.elem);
    }
}

void lw_screma(ImpLower *L, const Stm *s) {
    const Screma *sc = &s->e->screma;
    int nscan = 0;
    for (int j = 0; j < sc->nscans; j++) nscan += sc->scans[j].k;
    ScremaCtx x = {s, NULL, NULL, lw_dead_results(L, s, nscan)};
    x.red_accs = lw_declare_accs(L, sc->reds, sc->nreds, s->pat + nscan, false);
    x.scan_accs = lw_declare_accs(L, sc->scans, sc->nscans, NULL, true);
    LwNest n;
    ImpStm *f = soac_loop(L, &n, sc->w, sc->map, sc->arrs, sc->iter);
    f->vector = L->parallel && !sc->nscans && !sc->nreds && !lw_uses_private(L, s);
    lw_body(L, sc->map->body, lw_res_screma, &x, NULL, 0);
    f->body = lw_leave(L, &n);
}

/* ---- Scatter and Hist ---------------------------------------------------------------- */

ImpStm *lw_in_bounds(ImpLower *L, LwNest *n, SubExp ix, ImpExp *len) {
    Arena *a = L->a;
    ImpStm *st = imp_add(L->b, IMP_IF);
    /* 0 <= ix < len as one unsigned comparison (len, a size, is not
     * negative; a negative ix is a large unsigned one). */
    st->cond = imp_op2(a, OP_LT, PT_U64, imp_conv(a, PT_I64, PT_U64, lw_se(L, ix)), imp_conv(a, PT_I64, PT_U64, len));
    lw_enter(L, n);
    return st;
}

void lw_res_scatter(ImpLower *L, const Body *b, void *ctx) {
    const Scatter *sc = ctx;
    for (int j = 0; j < sc->ndests; j++) {
        const Var *d = sc->dests[j];
        const Lmad *l = d->mem->ixfun;
        LwNest n;
        ImpStm *st = lw_in_bounds(L, &n, b->res[j], imp_sym(L->a, l->dims[0].shape));
        lw_store(L, d->mem->mem, lw_row(L, l, ir_se_sym(L->a, b->res[j])), b->res[sc->ndests + j], d->type.elem);
        st->body = lw_leave(L, &n);
    }
}

void lw_scatter(ImpLower *L, const Stm *s) {
    const Scatter *sc = &s->e->scatter;
    LwNest n;
    ImpStm *f = lw_for(L, &n, lw_var(L, sc->iter), lw_se(L, sc->w));
    lw_map_iteration(L, s);
    f->body = lw_leave(L, &n);
}

static ImpExp *bucket_acc(ImpLower *L, int q, Sym *j, void *ctx) { return lw_offset(L, ((Lmad **)ctx)[q], &j); }

/* Combines the rows vals into the rows ix of h's destinations through
 * its elementwise operator m. */
static void hist_rows(ImpLower *L, const Hist *h, const Screma *m, Sym *ix, const SubExp *vals) {
    int k = h->op.k;
    Lmad **rows = NEW_ARRAY(L->a, Lmad *, k + 1);
    ImpVar **mems = NEW_ARRAY(L->a, ImpVar *, k + 1);
    for (int q = 0; q < k; q++) {
        mems[q] = lw_var(L, h->dests[q]->mem->mem);
        rows[q] = lw_row(L, h->dests[q]->mem->ixfun, ix);
    }
    LwRows r = {mems, bucket_acc, vals, NULL, rows};
    lw_segop_rows(L, &h->op, m, &r, lw_se(L, h->op.op->params[0]->type.shape[0]));
}

/* Hist: combines the values with the bucket's current contents. An array
 * bucket is copied into the operator's accumulator place, combined, and
 * copied back, unless the operator is elementwise (hist_rows). */
static void res_hist(ImpLower *L, const Body *b, void *ctx) {
    const Hist *h = ctx;
    Sym *ix = ir_se_sym(L->a, b->res[0]);
    LwNest n;
    ImpStm *st = lw_in_bounds(L, &n, b->res[0], lw_se(L, h->dest_w));
    const Screma *m = ir_elementwise(&h->op);
    if (m) {
        hist_rows(L, h, m, ix, b->res + 1);
        st->body = lw_leave(L, &n);
        return;
    }
    Acc *accs = NEW_ARRAY(L->a, Acc, h->op.k + 1);
    for (int j = 0; j < h->op.k; j++) {
        const Var *d = h->dests[j], *pa = h->op.op->params[j];
        if (pa->type.kind != TK_ARRAY) {
            accs[j].mem = lw_var(L, d->mem->mem);
            accs[j].index = lw_offset(L, d->mem->ixfun, &ix);
            continue;
        }
        lw_copy(L, pa->mem->mem, pa->mem->ixfun, d->mem->mem, lw_row(L, d->mem->ixfun, ix), d->type.elem);
    }
    lw_segop(L, &h->op, accs, b->res + 1, NULL);
    for (int j = 0; j < h->op.k; j++) {
        const Var *d = h->dests[j], *pa = h->op.op->params[j];
        if (pa->type.kind == TK_ARRAY)
            lw_copy(L, d->mem->mem, lw_row(L, d->mem->ixfun, ix), pa->mem->mem, pa->mem->ixfun, d->type.elem);
    }
    st->body = lw_leave(L, &n);
}

void lw_map_iteration(ImpLower *L, const Stm *s) {
    if (s->e->kind == IE_SCATTER) {
        const Scatter *sc = &s->e->scatter;
        lw_bind_rows(L, sc->lam, sc->arrs, sc->iter);
        lw_body(L, sc->lam->body, lw_res_scatter, (void *)sc, NULL, 0);
        return;
    }
    const Screma *sc = &s->e->screma;
    if (sc->nscans || sc->nreds) ICE("imp_lower: a map iteration of a Screma that scans or reduces");
    lw_bind_rows(L, sc->map, sc->arrs, sc->iter);
    lw_body(L, sc->map->body, lw_map_results, (void *)s, NULL, 0);
}

void lw_map_results(ImpLower *L, const Body *b, void *ctx) { lw_map_outputs(L, ctx, b, 0); }

void lw_soac(ImpLower *L, const Stm *s) {
    switch (s->e->kind) {
    case IE_SCREMA: lw_screma(L, s); break;
    case IE_SCATTER: lw_scatter(L, s); break;
    case IE_HIST: lw_hist(L, s); break;
    default: ICE("imp_lower: not a SOAC");
    }
}

void lw_hist(ImpLower *L, const Stm *s) {
    const Hist *h = &s->e->hist;
    LwNest n;
    ImpStm *f = soac_loop(L, &n, h->w, h->lam, h->arrs, h->iter);
    lw_body(L, h->lam->body, res_hist, (void *)h, NULL, 0);
    f->body = lw_leave(L, &n);
}
