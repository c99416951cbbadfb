/* Control flow of the lowering: ifs and matches (lower_branch) and loops,
 * whose results bind values whose array sizes may differ between the
 * alternatives or iterations (internalise.c lowers the rest). */
#include "lower.h"

/* Merges (if results, loop parameters) bind values whose array sizes may
 * differ between the alternatives. A size that is the same in every
 * alternative is kept ("fixed"); every other size becomes a fresh size
 * variable bound by the merge itself, so results are the values followed
 * by those sizes. Dimension slots are numbered over the array leaves in
 * order; fixed == NULL means no size is fixed. */
static int dim_slots(const SubExp *leaves, int n) {
    int k = 0;
    for (int i = 0; i < n; i++) {
        Type t = subexp_type(leaves[i]);
        if (t.kind == TK_ARRAY) k += t.rank;
    }
    return k;
}

/* The slots whose sizes agree between leaves a and b. */
static bool *dims_agree(Lower *l, const SubExp *a, const SubExp *b, int n) {
    bool *same = NEW_ARRAY(l->a, bool, dim_slots(a, n) + 1);
    int k = 0;
    for (int i = 0; i < n; i++) {
        Type ta = subexp_type(a[i]), tb = subexp_type(b[i]);
        for (int d = 0; ta.kind == TK_ARRAY && d < ta.rank; d++, k++)
            same[k] = tb.kind == TK_ARRAY && d < tb.rank && se_same(ta.shape[d], tb.shape[d]);
    }
    return same;
}

static int sized_count(const SubExp *leaves, int n, const bool *fixed) {
    int k = n, slot = 0;
    for (int i = 0; i < n; i++) {
        Type t = subexp_type(leaves[i]);
        for (int d = 0; t.kind == TK_ARRAY && d < t.rank; d++, slot++)
            if (!fixed || !fixed[slot]) k++;
    }
    return k;
}

/* The leaves followed by their sizes that are not fixed. */
static SubExp *sized_leaves(Lower *l, const SubExp *leaves, int n, const bool *fixed) {
    SubExp *out = NEW_ARRAY(l->a, SubExp, sized_count(leaves, n, fixed));
    int k = 0, slot = 0;
    for (int i = 0; i < n; i++) out[k++] = leaves[i];
    for (int i = 0; i < n; i++) {
        Type t = subexp_type(leaves[i]);
        for (int d = 0; t.kind == TK_ARRAY && d < t.rank; d++, slot++)
            if (!fixed || !fixed[slot]) out[k++] = t.shape[d];
    }
    return out;
}

/* Fresh variables for sized leaves shaped like leaves: the values (whose
 * shapes keep the fixed sizes and refer to the new size variables
 * otherwise), then the size variables. */
static Var **sized_vars(Lower *l, const SubExp *leaves, int n, const bool *fixed) {
    Var **vs = NEW_ARRAY(l->a, Var *, sized_count(leaves, n, fixed));
    int k = n, slot = 0;
    for (int i = 0; i < n; i++) {
        Type t = subexp_type(leaves[i]);
        if (t.kind == TK_ARRAY) {
            SubExp *shape = NEW_ARRAY(l->a, SubExp, t.rank);
            for (int d = 0; d < t.rank; d++, slot++) {
                if (fixed && fixed[slot]) {
                    shape[d] = t.shape[d];
                    continue;
                }
                vs[k] = ir_var(l->prog, "d", type_prim(PT_I64));
                shape[d] = se_var(vs[k++]);
            }
            bool unique = t.unique;
            t = type_array(l->a, t.elem, t.rank, shape);
            t.unique = unique;
        }
        vs[i] = ir_var(l->prog, t.kind == TK_ARRAY ? "arr" : "x", t);
    }
    return vs;
}

static SubExp *var_ses(Lower *l, Var **vs, int n) {
    SubExp *s = NEW_ARRAY(l->a, SubExp, n);
    for (int i = 0; i < n; i++) s[i] = se_var(vs[i]);
    return s;
}

SVal *lower_branch(Lower *l, SubExp cond, LowerArm arm, void *ctx, int t, int f, SrcLoc loc) {
    if (!cond.is_var) return arm(l, ctx, cond.c.v.b ? t : f);
    Builder *saved = l->b, tb = {0}, fb = {0};
    SubExpVec tl = {0}, fl = {0}; /* each arm's leaves, made in the arm (lower_arm_leaves) */
    l->b = &tb;
    SVal *tv = arm(l, ctx, t);
    l->b = &fb;
    SVal *fv = arm(l, ctx, f);
    l->b = saved;
    if (sv_has_fun(tv)) lower_error(l, loc, "a conditional (if or match) cannot return a function");
    l->b = &tb;
    lower_arm_leaves(l, tv, fv, &tl);
    Body *tbody = lower_body_end(l, saved, &tb, tl.items, tl.len);
    l->b = &fb;
    lower_arm_leaves(l, fv, tv, &fl);
    Body *fbody = lower_body_end(l, saved, &fb, fl.items, fl.len);
    if (tl.len != fl.len) ICE("if branches differ in structure");
    bool *fixed = dims_agree(l, tl.items, fl.items, tl.len);
    tbody->res = sized_leaves(l, tl.items, tl.len, fixed);
    fbody->res = sized_leaves(l, fl.items, fl.len, fixed);
    tbody->nres = fbody->nres = sized_count(tl.items, tl.len, fixed);
    Var **pat = sized_vars(l, tl.items, tl.len, fixed);
    IrExp *ie = lower_new_exp(l, IE_IF);
    ie->cond = cond;
    ie->tbody = tbody;
    ie->fbody = fbody;
    ie->nret = tbody->nres;
    ie->ret = NEW_ARRAY(l->a, Type, ie->nret);
    for (int i = 0; i < ie->nret; i++) ie->ret[i] = pat[i]->type;
    lower_emit(l, ie, pat, ie->nret, loc);
    int pos = 0;
    return lower_arm_value(l, tv, fv, var_ses(l, pat, tl.len), &pos);
}

/* The arms of an if expression: 0 is its then branch, 1 its else branch. */
typedef struct IfArms {
    Env *env;
    Exp *e;
} IfArms;

static SVal *if_arm(Lower *l, void *ctx, int arm) {
    IfArms *a = ctx;
    return lower_exp(l, a->env, arm ? a->e->e3 : a->e->e2);
}

SVal *lower_if(Lower *l, Env *env, Exp *e) {
    SVal *c = lower_exp(l, env, e->e1);
    if (c->kind != SV_DYN) return sv_dyn(l, se_i64(0));
    IfArms arms = {env, e};
    return lower_branch(l, c->se, if_arm, &arms, 0, 1, e->loc);
}


/* What a loop needs before its body is lowered. */
typedef struct LoopSetup {
    SVal *init;
    SubExp *inits; /* leaves of init */
    int n;
    SubExp bound;  /* for loops */
    SVal *xs;      /* for-in loops: the array iterated over */
    SubExp c0;     /* while loops: the condition on the initial values */
    PrimType itype; /* for i < n loops: the type of i (that of n) */
    bool irregular; /* irregular arrays in init are carried as such (lower_arm_leaves) */
    LoopBodyFn body; /* a loop of lower_loop_over: its body, instead of the expression's */
    void *body_ctx;
} LoopSetup;

/* Sets su's leaves of its initial value: irregular arrays as their
 * descriptors' arrays where su->irregular, else made regular. */
static void loop_inits(Lower *l, LoopSetup *su) {
    SubExpVec il = {0};
    if (su->irregular) lower_arm_leaves(l, su->init, su->init, &il);
    else sv_leaves(l, su->init, &il);
    su->n = il.len;
    su->inits = vec_to_arena(l->a, &il);
}

/* The value of su's initial value's structure whose leaves are ses. */
static SVal *loop_value(Lower *l, const LoopSetup *su, const SubExp *ses) {
    int pos = 0;
    return su->irregular ? lower_arm_value(l, su->init, su->init, ses, &pos) : sv_rebuild(l, su->init, ses, &pos);
}

/* Lowers the loop with the sizes of the parameters in fixed kept from the
 * initial values. Sets agree[slot] to whether the body's result keeps each
 * size (always true for sizes that are not fixed). NULL, with nothing
 * emitted, when an irregular array of the initial value is not one of the
 * same rank and varying sizes in the body's result: the loop must then
 * carry it regular. */
static SVal *lower_loop_with(Lower *l, Env *env, Exp *e, const LoopSetup *su, const bool *fixed, bool *agree) {
    int n = su->n;
    int total = sized_count(su->inits, n, fixed);
    SubExp *inits = sized_leaves(l, su->inits, n, fixed);
    Var **params = sized_vars(l, su->inits, n, fixed);
    for (int i = 0; i < n; i++) params[i]->type.unique = true;
    SVal *pv = loop_value(l, su, var_ses(l, params, n));

    IrExp *ie = lower_new_exp(l, IE_LOOP);
    Loop *lp = &ie->loop;
    Builder *saved = l->b, nb = {0};
    Env *benv = su->body ? env : lower_bind_pat(l, env, e->pat, pv);
    Var *cond = NULL;
    if (e->form == LOOP_WHILE) {
        cond = ir_var(l->prog, "cond", type_prim(PT_BOOL));
        lp->kind = IR_LOOP_WHILE;
        lp->cond = cond;
        lp->nparams = total + 1;
        lp->params = NEW_ARRAY(l->a, Var *, total + 1);
        lp->inits = NEW_ARRAY(l->a, SubExp, total + 1);
        lp->params[0] = cond;
        lp->inits[0] = su->c0;
        COPY_ARRAY(lp->params + 1, params, total);
        COPY_ARRAY(lp->inits + 1, inits, total);
    } else {
        lp->kind = IR_LOOP_FOR;
        lp->i = ir_var(l->prog, "i", type_prim(PT_I64));
        lp->bound = su->bound;
        lp->nparams = total;
        lp->params = params;
        lp->inits = inits;
    }
    l->b = &nb;
    if (e->form == LOOP_FOR_UPTO && !su->body) {
        SubExp iv = lower_conv(l, se_var(lp->i), su->itype, e->loc);
        benv = lower_env_bind(l, benv, e->loop_var_uid, e->loop_var, sv_dyn(l, iv));
    }
    if (su->xs) benv = lower_bind_pat(l, benv, e->pat2, lower_index_value(l, su->xs, se_var(lp->i), e->loc));
    SVal *res = su->body ? su->body(l, su->body_ctx, pv, se_var(lp->i)) : lower_exp(l, benv, e->e2);
    SubExpVec rl = {0};
    if (su->irregular) lower_arm_leaves(l, res, su->init, &rl);
    else sv_leaves(l, res, &rl);
    if (rl.len != n && su->irregular) {
        l->b = saved;
        return NULL;
    }
    if (rl.len != n) ICE("loop body result differs in structure");
    bool *same = dims_agree(l, rl.items, su->inits, n);
    for (int k = 0; k < dim_slots(su->inits, n); k++) agree[k] = !(fixed && fixed[k]) || same[k];
    SubExp *bres = sized_leaves(l, rl.items, n, fixed);
    SubExp newcond = se_bool(false);
    if (cond) newcond = lower_exp(l, lower_bind_pat(l, env, e->pat, res), e->e3)->se;
    Body *body = lower_body_end(l, saved, &nb, rl.items, rl.len);
    body->nres = lp->nparams;
    body->res = NEW_ARRAY(l->a, SubExp, lp->nparams);
    if (cond) body->res[0] = newcond;
    COPY_ARRAY(body->res + (cond ? 1 : 0), bres, total);
    lp->body = body;
    /* results: fresh variables shaped like the parameters */
    int off = cond ? 1 : 0;
    Var **pat = NEW_ARRAY(l->a, Var *, lp->nparams);
    for (int i = 0; i < lp->nparams; i++) pat[i] = ir_var(l->prog, lp->params[i]->name, lp->params[i]->type);
    for (int i = 0; i < n; i++) {
        Type *t = &pat[off + i]->type;
        if (t->kind != TK_ARRAY) continue;
        SubExp *shape = NEW_ARRAY(l->a, SubExp, t->rank);
        for (int d = 0; d < t->rank; d++) {
            shape[d] = t->shape[d];
            for (int k = n; k < total; k++)
                if (t->shape[d].is_var && lp->params[off + k] == t->shape[d].v) shape[d] = se_var(pat[off + k]);
        }
        t->shape = shape;
    }
    lower_emit(l, ie, pat, lp->nparams, e->loc);
    return loop_value(l, su, var_ses(l, pat + off, n));
}

/* The value the loop e starts from, in env. */
static SVal *loop_init(Lower *l, Env *env, Exp *e) {
    SVal *init = e->e1 ? lower_exp(l, env, e->e1) : NULL;
    if (!init) {
        /* `loop x for ...` continues from the variable of the same name */
        init = e->pat->kind == P_ID ? lower_env_lookup_name(env, e->pat->name) : NULL;
        if (!init) lower_error(l, e->loc, "loop without an initial value needs a variable pattern");
    }
    if (sv_has_fun(init)) lower_error(l, e->loc, "a loop parameter cannot be a function");
    return init;
}

/* A loop keeps the sizes of its parameters from the initial values where
 * the body preserves them (the common case, which needs no size
 * variables); it is lowered again with fewer fixed sizes until that holds. */
static SVal *loop_fixpoint(Lower *l, Env *env, Exp *e, LoopSetup *su) {
    su->irregular = true;
    loop_inits(l, su);
    int slots = dim_slots(su->inits, su->n);
    bool *fixed = NEW_ARRAY(l->a, bool, slots + 1), *agree = NEW_ARRAY(l->a, bool, slots + 1);
    for (int k = 0; k < slots; k++) fixed[k] = true;
    for (;;) {
        Builder *outer = l->b;
        int mark = outer->stms.len;
        SVal *r = lower_loop_with(l, env, e, su, fixed, agree);
        if (!r) { /* carry the irregular arrays regular instead */
            outer->stms.len = mark;
            su->irregular = false;
            loop_inits(l, su);
            slots = dim_slots(su->inits, su->n);
            fixed = NEW_ARRAY(l->a, bool, slots + 1), agree = NEW_ARRAY(l->a, bool, slots + 1);
            for (int k = 0; k < slots; k++) fixed[k] = true;
            continue;
        }
        bool stable = true;
        for (int k = 0; k < slots; k++)
            if (fixed[k] && !agree[k]) fixed[k] = stable = false;
        if (stable) return r;
        outer->stms.len = mark; /* drop this attempt */
    }
}

/* A hooked loop's body, for parameters of value h->carried in iteration
 * h->iter (over: its bound's value, or the array a for-in loop goes over). */
typedef struct HookedBody {
    Env *env;
    Exp *e;
    LoopHook *h;
    SVal *over;
} HookedBody;

static SVal *hooked_body(Lower *l, void *ctx, int arm) {
    HookedBody *b = ctx;
    Exp *e = b->e;
    if (arm) return b->h->carried; /* a masked element past its count */
    Env *benv = lower_bind_pat(l, b->env, e->pat, b->h->carried);
    if (e->form == LOOP_FOR_IN) {
        benv = lower_bind_pat(l, benv, e->pat2, lower_index_value(l, b->over, b->h->iter, e->loc));
    } else {
        SubExp iv = lower_conv(l, b->h->iter, subexp_type(b->over->se).elem, e->loc);
        benv = lower_env_bind(l, benv, e->loop_var_uid, e->loop_var, sv_dyn(l, iv));
    }
    return lower_exp(l, benv, e->e2);
}

/* The loop e that a hook replaces (lower.h, LoopHook): its initial value
 * and its count (an i64), its body's value for the parameters' value
 * h->carried in iteration h->iter (h->carried itself from h->count
 * iterations on, where masked), or h->carried itself. */
static SVal *hooked_loop(Lower *l, Env *env, Exp *e, LoopHook *h) {
    l->hook = NULL;
    SVal *v = h->carried;
    SVal *over = h->mode != HOOK_VALUE ? lower_exp(l, env, e->e3) : NULL; /* the bound, or the array */
    if (h->mode == HOOK_INIT) {
        v = loop_init(l, env, e);
        h->bound = e->form == LOOP_FOR_IN ? lower_width(l, over, e->loc) : over->se;
    } else if (h->mode == HOOK_BODY) {
        HookedBody b = {env, e, h, over};
        v = h->masked ? lower_branch(l, lower_binop(l, OP_LT, h->iter, h->count, e->loc), hooked_body, &b, 0, 1, e->loc)
                      : hooked_body(l, &b, 0);
    }
    h->out = v;
    h->fired = true;
    h->b = l->b;
    h->mark = l->b->stms.len;
    l->hook = h;
    return v;
}

SVal *lower_loop(Lower *l, Env *env, Exp *e) {
    if (l->hook && l->hook->loop == e) return hooked_loop(l, env, e, l->hook);
    LoopSetup su = {0};
    su.init = loop_init(l, env, e);
    if (e->form == LOOP_WHILE) {
        su.c0 = lower_exp(l, lower_bind_pat(l, env, e->pat, su.init), e->e3)->se;
    } else if (e->form == LOOP_FOR_UPTO) {
        SubExp b = lower_exp(l, env, e->e3)->se;
        su.itype = subexp_type(b).elem;
        su.bound = lower_conv(l, b, PT_I64, e->loc);
    } else {
        su.xs = lower_exp(l, env, e->e3);
        int rank;
        const SubExp *dims = lower_value_dims(l, su.xs, &rank);
        su.bound = dims ? dims[0] : se_i64(0);
    }
    return loop_fixpoint(l, env, e, &su);
}

SVal *lower_loop_over(Lower *l, Exp *e, SVal *init, SubExp bound, LoopBodyFn body, void *ctx) {
    LoopSetup su = {.init = init, .bound = bound, .body = body, .body_ctx = ctx};
    return loop_fixpoint(l, NULL, e, &su);
}
