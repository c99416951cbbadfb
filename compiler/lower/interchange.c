/* Map-loop interchange in the lowering: a map whose function runs a
 * for-loop (of a bound that is the same for every element, to begin with),
 *   map (\x -> let y = f x in let a = loop p = g y for i < k do h y p i in r y a) xs
 * becomes a loop of maps over all elements,
 *   let ps = map (\x -> let y = f x in g y) xs
 *   let as = loop ps for i < k do map2 (\x p -> let y = f x in h y p i) xs ps
 *   in map2 (\x a -> let y = f x in r y a) xs as
 * where the loop would otherwise run inside each element: a loop whose
 * arrays differ in size between the elements (irregular rows, which the
 * map would build one element after another on the host) or between
 * iterations (which no kernel can allocate). Each map is lowered by
 * lower_map_elems, so that the loop carries irregular arrays as such
 * (control.c) and each iteration's map is flattened like any other.
 *
 * The function is not taken apart: it is lowered once per map with a hook
 * on its loop (lower.h, LoopHook) that gives the loop's initial value, its
 * body's value for a row of the carried arrays, or a row of the loop's
 * result in place of the loop; what the function computes after the loop
 * is dropped where the hook's value is not the loop's. The code before the
 * loop is lowered in each map again (the simplifier removes what a map
 * does not use).
 *
 * A loop whose count (k in `for i < k`, the length of xs in `for x in
 * xs`) differs between the elements runs as many times as the largest
 * count, each element's body masked past its own (`if i < k then h y p i
 * else p`, which the maps read position by position through the if):
 * its arrays are then carried irregular from the start (as_irregular).
 * Only where each iteration's map is parallel: one that would run its
 * elements one after another (build_loop) as many times as the largest
 * count could cost far more than the loops of the elements did.
 *
 * The interchange is given up, with what it made dropped, where the loop
 * is not run by the function at its top (in its chain of lets or its
 * result, outside any branch or inner function) or is a while loop. */
#include "irregular.h"

/* The for-loop e (under ascriptions and coercions), or NULL. */
static Exp *as_loop(Exp *e) {
    while (e && (e->kind == EX_ASCRIBE || e->kind == EX_COERCE)) e = e->e1;
    return e && e->kind == EX_LOOP && e->form != LOOP_WHILE ? e : NULL;
}

/* The for-loop that body runs at its top, or NULL. */
static Exp *top_loop(Exp *body) {
    for (; body && ast_is_let(body); body = body->e2)
        if (body->kind == EX_LET && as_loop(body->e1)) return as_loop(body->e1);
    return as_loop(body);
}

/* The body of the function f of one more argument, or NULL. */
static Exp *fun_body(const SVal *f) {
    if (f->kind != SV_FUN) return NULL;
    switch (f->fk) {
    case FK_LAMBDA:
    case FK_LOCAL: return f->exp->nparams - f->napplied == 1 ? f->exp->e1 : NULL;
    case FK_GLOBAL: return f->decl->nparams - f->napplied == 1 ? f->decl->body : NULL;
    default: return NULL;
    }
}

typedef struct Interchange {
    SVal *f, *xs;
    Exp *loop;
    SrcLoc loc;
    SVal *carried; /* the loop's parameters (each map's rows), then its result */
    SubExp iter;
    SubExp bound;  /* HOOK_INIT's */
    SubExp counts; /* masked: each element's count of iterations, an [n]i64 array */
    bool failed;   /* the hook did not fire */
} Interchange;

/* f applied to row i of xs with a hook of mode mode on the loop. */
static SVal *hooked(Lower *l, Interchange *x, SubExp i, HookMode mode) {
    SVal *row = lower_row(l, x->xs, i, x->loc);
    LoopHook h = {.loop = x->loop, .mode = mode, .iter = x->iter, .masked = x->counts.is_var};
    if (mode != HOOK_INIT) h.carried = lower_row(l, x->carried, i, x->loc);
    if (mode == HOOK_BODY && h.masked) h.count = irr_element(l, x->counts, i, x->loc);
    LoopHook *saved = l->hook;
    l->hook = &h;
    SVal *v = lower_apply(l, x->f, &row, 1, NULL);
    l->hook = saved;
    if (!h.fired) {
        x->failed = true;
        return v;
    }
    if (mode == HOOK_VALUE) return v;
    h.b->stms.len = h.mark; /* what the function does with the loop's value */
    if (mode == HOOK_INIT) x->bound = h.bound;
    return h.out;
}

/* The loop's initial value and its count of iterations (an i64, 0 for
 * one of another type that is negative). */
static SVal *init_elem(Lower *l, void *ctx, SubExp i) {
    Interchange *x = ctx;
    SVal *v[2] = {hooked(l, x, i, HOOK_INIT), sv_dyn(l, se_i64(0))};
    if (!x->failed && prim_is_int(subexp_type(x->bound).elem)) v[1] = sv_dyn(l, lower_conv(l, x->bound, PT_I64, x->loc));
    return sv_tuple(l, v, 2);
}
static SVal *body_elem(Lower *l, void *ctx, SubExp i) { return hooked(l, ctx, i, HOOK_BODY); }
static SVal *value_elem(Lower *l, void *ctx, SubExp i) { return hooked(l, ctx, i, HOOK_VALUE); }

/* One iteration: the map of the loop's body over every element. */
static SVal *body_map(Lower *l, void *ctx, SVal *params, SubExp i) {
    Interchange *x = ctx;
    x->carried = params;
    x->iter = i;
    SubExp n = lower_width(l, x->xs, x->loc);
    if (x->counts.is_var) {
        /* masked: only where the map runs its elements in parallel, as it
         * runs as many times as the largest count */
        Builder *b = l->b;
        int mark = b->stms.len;
        SVal *v = lower_map_elems(l, n, body_elem, x, NULL, false, x->loc);
        if (v) return v;
        b->stms.len = mark;
        x->failed = true;
    }
    return lower_map_elems(l, n, body_elem, x, NULL, true, x->loc);
}

/* v with each leaf that is a regular array of rows as an irregular one
 * whose sizes all vary, as those of a masked loop's result may: a loop
 * carries an irregular initial value as such only where its body's
 * result is irregular in the same sizes (control.c). */
static SVal *as_irregular(Lower *l, SVal *v, SrcLoc loc) {
    if (v->kind == SV_TUPLE || v->kind == SV_RECORD) {
        SVal *c = NEW(l->a, SVal);
        *c = *v;
        c->elems = NEW_ARRAY(l->a, SVal *, v->n + 1);
        for (int k = 0; k < v->n; k++) c->elems[k] = as_irregular(l, v->elems[k], loc);
        return c;
    }
    Type t = v->kind == SV_DYN ? subexp_type(v->se) : type_prim(PT_BOOL);
    if (t.kind != TK_ARRAY || t.rank < 2) return v;
    Irreg *r = NEW(l->a, Irreg);
    r->n = t.shape[0];
    r->rank = t.rank - 1;
    r->dims = NEW_ARRAY(l->a, SubExp, r->rank);
    r->vary = NEW_ARRAY(l->a, bool, r->rank);
    SubExp count = se_i64(1);
    for (int d = 0; d < r->rank; d++) {
        r->vary[d] = true;
        r->dims[d] = irr_replicate(l, r->n, t.shape[d + 1], loc);
        count = lower_binop(l, OP_SIZE_MUL, count, t.shape[d + 1], loc);
    }
    r->counts = irr_replicate(l, r->n, count, loc);
    SubExp *total = NEW(l->a, SubExp);
    *total = irr_offsets(l, r, irr_iota(l, r->n, loc), loc);
    IrExp *e = lower_new_exp(l, IE_RESHAPE);
    e->arr = v->se.v;
    e->shape = total;
    e->nshape = 1;
    SVal *w = sv_dyn(l, lower_emit1(l, e, type_array(l->a, t.elem, 1, total), loc));
    w->kind = SV_IRREG;
    w->irr = r;
    return w;
}

/* The largest of the [n]i64 array a's values, or 0. */
static SubExp largest(Lower *l, SubExp a, SubExp n, SrcLoc loc) {
    Type ti = type_prim(PT_I64);
    SegOp *max = NEW(l->a, SegOp);
    *max = (SegOp){lower_prim_op_lambda(l, OP_MAX, PT_I64), NEW(l->a, SubExp), 1, true, false};
    max->neutral[0] = se_i64(0);
    Var **in = NEW(l->a, Var *);
    in[0] = a.v;
    Screma sc = {.w = n, .arrs = in, .narrs = 1, .map = irr_identity_i64(l), .reds = max, .nreds = 1};
    return se_var(lower_emit_screma(l, &sc, &ti, 1, loc)[0]);
}

SVal *lower_map_interchanged(Lower *l, SVal *f, SVal *xs, SrcLoc loc) {
    Exp *body = fun_body(f), *loop = body ? top_loop(body) : NULL;
    if (!loop) return NULL;
    Builder *b = l->b;
    int mark = b->stms.len, vars = l->prog->next_var_id;
    Interchange x = {.f = f, .xs = xs, .loop = loop, .loc = loc};
    SubExp n = lower_width(l, xs, loc);
    SVal *ib = lower_map_elems(l, n, init_elem, &x, NULL, true, loc);
    if (x.failed || !prim_is_int(subexp_type(x.bound).elem)) {
        b->stms.len = mark;
        return NULL;
    }
    /* the bound: a constant, or a variable bound before the map; else the
     * largest count, each element's body masked past its own */
    SubExp bound;
    SVal *init = ib->elems[0];
    if (x.bound.is_var && x.bound.v->id >= vars) {
        x.counts = ib->elems[1]->se;
        bound = largest(l, x.counts, n, loc);
        init = as_irregular(l, init, loc);
    } else {
        bound = lower_conv(l, x.bound, PT_I64, loc);
    }
    SVal *res = lower_loop_over(l, loop, init, bound, body_map, &x);
    x.carried = res;
    SVal *v = lower_map_elems(l, n, value_elem, &x, NULL, true, loc);
    if (x.failed) {
        b->stms.len = mark;
        return NULL;
    }
    return v;
}

bool lower_loop_resizes(const Lambda *lam) {
    for (int i = 0; i < lam->body->nstms; i++) {
        const Stm *st = lam->body->stms[i];
        if (st->e->kind != IE_LOOP) continue;
        const Loop *lp = &st->e->loop;
        for (int j = 0; j < lp->nparams; j++) {
            Type t = lp->params[j]->type;
            for (int d = 0; t.kind == TK_ARRAY && d < t.rank; d++)
                for (int k = 0; t.shape[d].is_var && k < lp->nparams; k++)
                    if (lp->params[k] == t.shape[d].v) return true;
        }
    }
    return false;
}
