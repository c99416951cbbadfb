/* Copies of IR code with fresh variables (ir_clone_stm), for passes that
 * emit several versions of one statement: each copy binds Vars of its
 * own, so that the versions can sit side by side in SSA form. The copy
 * is deep (every array of SubExps, Vars, types and statements is new), so
 * that a pass rewriting one version in place leaves the others alone;
 * strings and permutations, which no pass changes, are shared. */
#include "ir.h"

#include <string.h>

typedef struct Clone {
    Prog *p;
    Arena *a;
    Var **map; /* by the id of a Var bound in the original: its copy */
    int nmap;
} Clone;

static Body *clone_body(Clone *c, const Body *b);

static SubExp *copy_ses(Arena *a, const SubExp *s, int n) {
    if (!s) return NULL;
    SubExp *r = NEW_ARRAY(a, SubExp, n + 1);
    if (n) COPY_ARRAY(r, s, n);
    return r;
}

static Var **copy_vars(Arena *a, Var *const *v, int n) {
    if (!v) return NULL;
    Var **r = NEW_ARRAY(a, Var *, n + 1);
    if (n) COPY_ARRAY(r, v, n);
    return r;
}

static Type copy_type(Arena *a, Type t) {
    if (t.kind == TK_ARRAY) t.shape = copy_ses(a, t.shape, t.rank);
    return t;
}

static Type *copy_types(Arena *a, const Type *t, int n) {
    Type *r = NEW_ARRAY(a, Type, n + 1);
    for (int i = 0; i < n; i++) r[i] = copy_type(a, t[i]);
    return r;
}

/* A fresh Var for v, bound where v was (its type's uses are renamed by
 * the walk over the whole copy). */
static Var *bind(Clone *c, Var *v) {
    if (!v) return NULL;
    if (v->mem) ICE("ir_clone_stm: a Var with memory (clones are made before the memory pass)");
    Var *n = ir_var(c->p, v->name, copy_type(c->a, v->type));
    if (v->id < c->nmap) c->map[v->id] = n;
    return n;
}

static Var **bind_all(Clone *c, Var *const *vs, int n) {
    Var **r = NEW_ARRAY(c->a, Var *, n + 1);
    for (int i = 0; i < n; i++) r[i] = bind(c, vs[i]);
    return r;
}

static Lambda *clone_lambda(Clone *c, const Lambda *l) {
    Lambda *r = NEW(c->a, Lambda);
    *r = *l;
    r->params = bind_all(c, l->params, l->nparams);
    r->ret = copy_types(c->a, l->ret, l->nret);
    r->body = clone_body(c, l->body);
    return r;
}

static SegOp *clone_segops(Clone *c, const SegOp *ops, int n) {
    SegOp *r = NEW_ARRAY(c->a, SegOp, n + 1);
    for (int i = 0; i < n; i++) {
        r[i] = ops[i];
        r[i].neutral = copy_ses(c->a, ops[i].neutral, ops[i].k);
        r[i].op = clone_lambda(c, ops[i].op);
    }
    return r;
}

static IrExp *clone_exp(Clone *c, const IrExp *e) {
    Arena *a = c->a;
    if (e->seg) ICE("ir_clone_stm: a statement with a SegInfo");
    IrExp *r = NEW(a, IrExp);
    *r = *e;
    r->args = copy_ses(a, e->args, e->nargs);
    r->shape = copy_ses(a, e->shape, e->nshape);
    r->arrs = copy_vars(a, e->arrs, e->narrs);
    r->type = copy_type(a, e->type);
    if (e->slice) {
        r->slice = NEW_ARRAY(a, DimSlice, e->nslice + 1);
        COPY_ARRAY(r->slice, e->slice, e->nslice);
    }
    switch (e->kind) {
    case IE_IF:
        r->ret = copy_types(a, e->ret, e->nret);
        r->tbody = clone_body(c, e->tbody);
        r->fbody = clone_body(c, e->fbody);
        break;
    case IE_LOOP: {
        Loop *l = &r->loop;
        l->inits = copy_ses(a, e->loop.inits, e->loop.nparams);
        l->params = bind_all(c, e->loop.params, e->loop.nparams);
        l->i = bind(c, e->loop.i);
        for (int i = 0; e->loop.cond && i < e->loop.nparams; i++)
            if (e->loop.params[i] == e->loop.cond) l->cond = l->params[i];
        l->body = clone_body(c, e->loop.body);
        break;
    }
    case IE_SCREMA: {
        Screma *s = &r->screma;
        s->arrs = copy_vars(a, e->screma.arrs, e->screma.narrs);
        s->iter = bind(c, e->screma.iter);
        s->scans = clone_segops(c, e->screma.scans, e->screma.nscans);
        s->reds = clone_segops(c, e->screma.reds, e->screma.nreds);
        s->map = clone_lambda(c, e->screma.map);
        break;
    }
    case IE_SCATTER: {
        Scatter *s = &r->scatter;
        s->arrs = copy_vars(a, e->scatter.arrs, e->scatter.narrs);
        s->dests = copy_vars(a, e->scatter.dests, e->scatter.ndests);
        s->iter = bind(c, e->scatter.iter);
        s->lam = clone_lambda(c, e->scatter.lam);
        break;
    }
    case IE_HIST: {
        Hist *h = &r->hist;
        h->arrs = copy_vars(a, e->hist.arrs, e->hist.narrs);
        h->dests = copy_vars(a, e->hist.dests, e->hist.op.k);
        h->iter = bind(c, e->hist.iter);
        h->op = *clone_segops(c, &e->hist.op, 1);
        h->lam = clone_lambda(c, e->hist.lam);
        break;
    }
    default: break;
    }
    return r;
}

static Stm *clone_stm(Clone *c, const Stm *s) {
    IrExp *e = clone_exp(c, s->e);
    return ir_stm(c->a, bind_all(c, s->pat, s->npat), s->npat, e, s->loc);
}

static Body *clone_body(Clone *c, const Body *b) {
    Body *r = NEW(c->a, Body);
    r->nstms = b->nstms;
    r->stms = NEW_ARRAY(c->a, Stm *, b->nstms + 1);
    for (int i = 0; i < b->nstms; i++) r->stms[i] = clone_stm(c, b->stms[i]);
    r->nres = b->nres;
    r->res = copy_ses(c->a, b->res, b->nres);
    return r;
}

/* Renames a use of a Var the original binds to the copy's. */
static void rename_use(void *ctx, SubExp *se, Var **v, IrUseKind k) {
    (void)k;
    Clone *c = ctx;
    Var **x = se ? &se->v : v;
    if ((*x)->id < c->nmap && c->map[(*x)->id]) *x = c->map[(*x)->id];
}

/* A clone of nothing yet for program p (STAGE_SOACS), whose map the
 * caller frees; who names the caller in internal errors. */
static Clone clone_new(Prog *p, const char *who) {
    if (p->stage != STAGE_SOACS) ICE("%s: expected a program at STAGE_SOACS", who);
    Clone c = {p, p->arena, calloc((size_t)p->next_var_id + 1, sizeof(Var *)), p->next_var_id + 1};
    if (!c.map) ICE("%s: out of memory", who);
    return c;
}

Stm *ir_clone_stm(Prog *p, const Stm *s) {
    Clone c = clone_new(p, "ir_clone_stm");
    Stm *r = clone_stm(&c, s);
    ir_uses_stm(r, rename_use, &c);
    free(c.map);
    return r;
}

Body *ir_clone_body_with(Prog *p, const Body *b, Var *const *from, Var *const *to, int n) {
    Clone c = clone_new(p, "ir_clone_body_with");
    for (int i = 0; i < n; i++) c.map[from[i]->id] = to[i];
    Body *r = clone_body(&c, b);
    ir_uses_body(r, rename_use, &c);
    free(c.map);
    return r;
}

Lambda *ir_clone_lambda(Prog *p, const Lambda *l) {
    Clone c = clone_new(p, "ir_clone_lambda");
    Lambda *r = clone_lambda(&c, l);
    ir_uses_lambda(r, rename_use, &c);
    free(c.map);
    return r;
}
