/* Map-loop interchange in the lowering: a map whose function runs a
 * for-loop of a bound that is the same for every element,
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
 * does not use). The interchange is given up, with what it made dropped,
 * where the loop is not run by the function at its top (in its chain of
 * lets or its result, outside any branch or inner function), is a while
 * loop, or its bound (`for i < k`, or the length of xs in `for x in xs`)
 * is computed from the element. */
#include "lower.h"

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
    bool failed;   /* the hook did not fire */
} Interchange;

/* f applied to row i of xs with a hook of mode mode on the loop. */
static SVal *hooked(Lower *l, Interchange *x, SubExp i, HookMode mode) {
    SVal *row = lower_row(l, x->xs, i, x->loc);
    LoopHook h = {.loop = x->loop, .mode = mode, .iter = x->iter};
    if (mode != HOOK_INIT) h.carried = lower_row(l, x->carried, i, x->loc);
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

static SVal *init_elem(Lower *l, void *ctx, SubExp i) { return hooked(l, ctx, i, HOOK_INIT); }
static SVal *body_elem(Lower *l, void *ctx, SubExp i) { return hooked(l, ctx, i, HOOK_BODY); }
static SVal *value_elem(Lower *l, void *ctx, SubExp i) { return hooked(l, ctx, i, HOOK_VALUE); }

/* One iteration: the map of the loop's body over every element. */
static SVal *body_map(Lower *l, void *ctx, SVal *params, SubExp i) {
    Interchange *x = ctx;
    x->carried = params;
    x->iter = i;
    return lower_map_elems(l, lower_width(l, x->xs, x->loc), body_elem, x, NULL, true, x->loc);
}

SVal *lower_map_interchanged(Lower *l, SVal *f, SVal *xs, SrcLoc loc) {
    Exp *body = fun_body(f), *loop = body ? top_loop(body) : NULL;
    if (!loop) return NULL;
    Builder *b = l->b;
    int mark = b->stms.len, vars = l->prog->next_var_id;
    Interchange x = {.f = f, .xs = xs, .loop = loop, .loc = loc};
    SubExp n = lower_width(l, xs, loc);
    SVal *init = lower_map_elems(l, n, init_elem, &x, NULL, true, loc);
    /* the bound: a constant, or a variable bound before the map */
    if (x.failed || (x.bound.is_var && x.bound.v->id >= vars) || !prim_is_int(subexp_type(x.bound).elem)) {
        b->stms.len = mark;
        return NULL;
    }
    SVal *res = lower_loop_over(l, loop, init, lower_conv(l, x.bound, PT_I64, loc), body_map, &x);
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
