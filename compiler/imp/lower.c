/* The lowering to Imp: bodies and the release of each block after its last
 * use, scalar statements, if, loops, allocations, assertions and calls
 * (lower.h says which file lowers what).
 *
 * Blocks are reference counted: each block variable owns one reference,
 * released after the block's last use in the body that binds it (a use
 * is any mention of the block, or of an array that lives in it, in a
 * statement or in the body's results). A branch of an if or a loop body
 * hands its result blocks out by taking a reference for the variable that
 * receives them; loop parameters own a reference each, dropped when the
 * next iteration's value replaces them. */
#include "lower.h"

/* ---- Variables and expressions ------------------------------------------------ */

ImpVar *lw_new_var(ImpLower *L, const Var *v, ImpSpace space) {
    if (v->id <= 0 || v->id >= L->p->next_var_id) ICE("imp_lower: variable %s_%d out of range", v->name, v->id);
    if (v->type.kind == TK_ARRAY) ICE("imp_lower: array %s_%d has no Imp variable", v->name, v->id);
    ImpVar *iv = NEW(L->a, ImpVar);
    iv->id = v->id;
    iv->name = v->name;
    iv->kind = v->type.kind == TK_MEM ? IMP_MEM : IMP_SCALAR;
    iv->t = v->type.elem;
    iv->space = iv->kind == IMP_MEM ? space : IMP_SPACE_HOST;
    return iv;
}

ImpVar *lw_var(ImpLower *L, const Var *v) {
    if (v->id > 0 && v->id < L->p->next_var_id && L->vars[v->id]) return L->vars[v->id];
    ImpVar *iv = lw_new_var(L, v, L->space);
    L->vars[v->id] = iv;
    return iv;
}

bool lw_on_device(ImpLower *L, const Var *v) { return !L->kernel && lw_var(L, v)->space == IMP_SPACE_DEVICE; }

ImpVar *lw_fresh(ImpLower *L, const char *name, ImpVarKind kind, PrimType t) { return imp_var(L->ip, name, kind, t); }

ImpExp *lw_se(ImpLower *L, SubExp se) { return se.is_var ? imp_read(L->a, lw_var(L, se.v)) : imp_const(L->a, se.c); }

void lw_declare(ImpLower *L, const Var *v, ImpExp *init) {
    if (v->type.kind != TK_ARRAY) imp_decl(L->b, lw_var(L, v), init);
}

void lw_enter(ImpLower *L, LwNest *n) {
    n->outer = L->b;
    n->b = (ImpBuilder){.a = L->a};
    L->b = &n->b;
}

ImpCode lw_leave(ImpLower *L, LwNest *n) {
    L->b = n->outer;
    return imp_finish(&n->b);
}

ImpStm *lw_for(ImpLower *L, LwNest *n, ImpVar *i, ImpExp *bound) {
    ImpStm *f = imp_add(L->b, IMP_FOR);
    f->var = i;
    f->bound = bound;
    lw_enter(L, n);
    return f;
}

/* Retains or releases mem (blocks are not counted in kernels). */
static void lw_ref(ImpLower *L, ImpStmKind k, ImpVar *mem) {
    if (!L->kernel) imp_add(L->b, k)->mem = mem;
}

/* ---- Control flow ------------------------------------------------------------- */

/* Result handler of if branches: assigns the pattern (taking a reference
 * to each block). */
static void res_assign(ImpLower *L, const Body *b, void *ctx) {
    const Stm *s = ctx;
    for (int i = 0; i < b->nres && i < s->npat; i++) {
        Var *v = s->pat[i];
        if (v->type.kind == TK_ARRAY) continue;
        imp_assign(L->b, lw_var(L, v), lw_se(L, b->res[i]));
        if (v->type.kind == TK_MEM) lw_ref(L, IMP_RETAIN, lw_var(L, v));
    }
}

/* An if; on a threshold's comparison, the thresholds its branches make
 * (gl_threshold) are under that threshold. */
static void lw_if(ImpLower *L, const Stm *s) {
    for (int i = 0; i < s->npat; i++) lw_declare(L, s->pat[i], NULL);
    ImpStm *st = imp_add(L->b, IMP_IF);
    SubExp c = s->e->cond;
    st->cond = lw_se(L, c);
    const Threshold *parent = L->thr_parent, *t = c.is_var ? L->thr_of[c.v->id] : NULL;
    bool branch = L->thr_branch;
    if (t) L->thr_parent = t, L->thr_branch = true;
    st->body = lw_code(L, s->e->tbody, res_assign, (void *)s);
    L->thr_branch = false;
    st->orelse = lw_code(L, s->e->fbody, res_assign, (void *)s);
    L->thr_parent = parent, L->thr_branch = branch;
}

/* Result handler of loop bodies: the new parameter values go through
 * temporaries (results may mention parameters); the old blocks are
 * released. */
static void res_loop(ImpLower *L, const Body *b, void *ctx) {
    const Loop *l = ctx;
    ImpVar **next = NEW_ARRAY(L->a, ImpVar *, l->nparams + 1);
    for (int i = 0; i < l->nparams; i++) {
        Var *p = l->params[i];
        if (p->type.kind == TK_ARRAY) continue;
        ImpVar *pv = lw_var(L, p);
        next[i] = lw_fresh(L, "next", pv->kind, pv->t);
        next[i]->space = pv->space;
        imp_decl(L->b, next[i], lw_se(L, b->res[i]));
        if (pv->kind == IMP_MEM) lw_ref(L, IMP_RETAIN, next[i]);
    }
    for (int i = 0; i < l->nparams; i++) {
        Var *p = l->params[i];
        if (p->type.kind == TK_ARRAY) continue;
        if (p->type.kind == TK_MEM) lw_ref(L, IMP_RELEASE, lw_var(L, p));
        imp_assign(L->b, lw_var(L, p), imp_read(L->a, next[i]));
    }
}

static void lw_loop(ImpLower *L, const Stm *s) {
    const Loop *l = &s->e->loop;
    for (int i = 0; i < s->npat; i++) lw_declare(L, s->pat[i], NULL);
    for (int i = 0; i < l->nparams; i++) {
        Var *p = l->params[i];
        if (p->type.kind == TK_ARRAY) continue;
        lw_declare(L, p, lw_se(L, l->inits[i]));
        if (p->type.kind == TK_MEM) lw_ref(L, IMP_RETAIN, lw_var(L, p));
    }
    ImpStm *st = imp_add(L->b, l->kind == IR_LOOP_FOR ? IMP_FOR : IMP_WHILE);
    if (l->kind == IR_LOOP_FOR) {
        st->var = lw_var(L, l->i);
        st->bound = lw_se(L, l->bound);
    } else {
        st->cond = imp_read(L->a, lw_var(L, l->cond));
    }
    st->body = lw_code(L, l->body, res_loop, (void *)l);
    for (int i = 0; i < s->npat; i++)
        if (s->pat[i]->type.kind != TK_ARRAY)
            imp_assign(L->b, lw_var(L, s->pat[i]), imp_read(L->a, lw_var(L, l->params[i])));
}

/* ---- Other statements ---------------------------------------------------------- */

static void lw_assert(ImpLower *L, const Stm *s) {
    const IrExp *e = s->e;
    ImpStm *st = imp_add(L->b, IMP_ASSERT);
    st->cond = lw_se(L, e->cond);
    st->msg = e->msg ? e->msg : "assertion failed";
    st->nargs = e->nargs;
    st->args = NEW_ARRAY(L->a, ImpExp *, e->nargs + 1);
    for (int i = 0; i < e->nargs; i++) st->args[i] = lw_se(L, e->args[i]);
    st->loc = s->loc;
}

static void lw_alloc(ImpLower *L, const Stm *s) {
    if (L->kernel) ICE("imp_lower: an allocation inside a kernel");
    ImpVar *m = lw_var(L, s->pat[0]);
    L->alloc_of[s->pat[0]->id] = s;
    imp_decl(L->b, m, NULL);
    ImpStm *st = imp_add(L->b, IMP_ALLOC);
    st->mem = m;
    st->size = lw_se(L, s->e->size);
    st->loc = s->loc;
}

/* A threshold's comparison; an intra-group version's is made (and logged)
 * only when the work-group fits the device. */
static void lw_threshold(ImpLower *L, const Stm *s) {
    const IrExp *e = s->e;
    ImpExp *x = imp_threshold(L->a, e->thr, lw_se(L, e->args[0]));
    L->thr_of[s->pat[0]->id] = e->thr;
    if (!e->thr->fits_group) {
        lw_declare(L, s->pat[0], x);
        return;
    }
    lw_declare(L, s->pat[0], imp_const(L->a, prim_bool(false)));
    ImpStm *st = imp_add(L->b, IMP_IF);
    st->cond = imp_op2(L->a, OP_LE, PT_I64, lw_se(L, e->args[0]), imp_max_group(L->a));
    LwNest n;
    lw_enter(L, &n);
    imp_assign(L->b, lw_var(L, s->pat[0]), x);
    st->body = lw_leave(L, &n);
}

static void lw_apply(ImpLower *L, const Stm *s) {
    const IrExp *e = s->e;
    ImpStm *st = imp_add(L->b, IMP_CALL);
    int idx = ir_def_index(L->p, e->fn);
    if (idx < 0 || !L->funs[idx]) ICE("imp_lower: a call of %s before its definition", e->fn->name);
    st->fn = L->funs[idx];
    st->nargs = e->nargs;
    st->args = NEW_ARRAY(L->a, ImpExp *, e->nargs + 1);
    for (int i = 0; i < e->nargs; i++) st->args[i] = lw_se(L, e->args[i]);
    st->nresults = s->npat;
    st->results = NEW_ARRAY(L->a, ImpVar *, s->npat + 1);
    for (int i = 0; i < s->npat; i++) st->results[i] = lw_var(L, s->pat[i]);
}

/* Whether integer operation e is x + 0, 0 + x, x - 0, x * 1 or 1 * x
 * (index arithmetic of fused iotas): the operand x's position, else -1. */
static int identity_operand(const IrExp *e) {
    if (!prim_is_int(e->t) || e->nargs != 2) return -1;
    int64_t unit = e->op == OP_MUL ? 1 : 0;
    if (e->op != OP_ADD && e->op != OP_SUB && e->op != OP_MUL) return -1;
    for (int k = 1; k >= 0; k--) {
        const SubExp *c = &e->args[k];
        if (!c->is_var && c->c.v.i == unit && (k == 1 || e->op != OP_SUB)) return 1 - k;
    }
    return -1;
}

void lw_stm(ImpLower *L, const Stm *s) {
    const IrExp *e = s->e;
    if (L->group && lw_group_stm(L, s)) return;
    switch (e->kind) {
    case IE_SUBEXP: lw_declare(L, s->pat[0], s->pat[0]->type.kind == TK_ARRAY ? NULL : lw_se(L, e->se)); break;
    case IE_OP: {
        int same = identity_operand(e);
        if (same >= 0) {
            lw_declare(L, s->pat[0], lw_se(L, e->args[same]));
            break;
        }
        ImpExp **args = NEW_ARRAY(L->a, ImpExp *, e->nargs + 1);
        for (int i = 0; i < e->nargs; i++) args[i] = lw_se(L, e->args[i]);
        ImpExp *x = imp_op(L->a, e->op, e->t, args);
        x->reassoc = L->reassoc && prim_is_float(e->t) && (e->op == OP_ADD || e->op == OP_MUL);
        lw_declare(L, s->pat[0], x);
        break;
    }
    case IE_CONV: lw_declare(L, s->pat[0], imp_conv(L->a, e->t, e->to, lw_se(L, e->args[0]))); break;
    case IE_IF: lw_if(L, s); break;
    case IE_LOOP: lw_loop(L, s); break;
    case IE_ASSERT: lw_assert(L, s); break;
    case IE_ALLOC: lw_alloc(L, s); break;
    case IE_APPLY: lw_apply(L, s); break;
    case IE_THRESHOLD: lw_threshold(L, s); break;
    case IE_INDEX:
    case IE_UPDATE:
    case IE_FLAT_UPDATE:
    case IE_IOTA:
    case IE_REPLICATE:
    case IE_COPY:
    case IE_CONCAT:
    case IE_ARRAYLIT: lw_array_stm(L, s); break;
    case IE_SCREMA:
    case IE_SCATTER:
    case IE_HIST:
        if (L->gpu && !L->seq) lw_seg(L, s);
        else if (L->parallel && !L->seq) lw_par_soac(L, s);
        else lw_soac(L, s);
        break;
    case IE_SCRATCH:
    case IE_FLAT_INDEX:
    case IE_RESHAPE:
    case IE_REARRANGE: break; /* views and uninitialised arrays: no code */
    }
}

/* ---- Last uses of blocks ------------------------------------------------------------ */

/* Records in last[] the statement index j for every block marked in
 * L->mark that statement j mentions (directly or through an array's
 * MemInfo). */
typedef struct Uses {
    ImpLower *L;
    int *last;
    int j;
} Uses;

static void use_var(IrWalk *w, Var *v) {
    Uses *u = w->ctx;
    if (v->mem) use_var(w, v->mem->mem);
    if (v->id > 0 && v->id < u->L->p->next_var_id && u->L->mark[v->id]) u->last[u->L->mark[v->id] - 1] = u->j;
}

static void release_at(ImpLower *L, Var **mems, const int *last, int n, int j) {
    for (int k = 0; k < n; k++)
        if (last[k] == j) lw_ref(L, IMP_RELEASE, lw_var(L, mems[k]));
}

void lw_body(ImpLower *L, const Body *b, LwResFn fn, void *ctx, Var **extra, int nextra) {
    VEC(Var *) mems = {0};
    VEC(int) last = {0};
    for (int k = 0; k < nextra; k++) {
        vec_push(&mems, extra[k]);
        vec_push(&last, -1);
    }
    for (int j = 0; j < b->nstms; j++)
        for (int k = 0; k < b->stms[j]->npat; k++)
            if (b->stms[j]->pat[k]->type.kind == TK_MEM) {
                vec_push(&mems, b->stms[j]->pat[k]);
                vec_push(&last, j);
            }
    for (int k = 0; k < mems.len; k++) L->mark[mems.items[k]->id] = k + 1;
    Uses u = {L, last.items, 0};
    IrWalk w = {use_var, use_var, NULL, &u};
    for (int j = 0; j < b->nstms; j++) {
        u.j = j;
        ir_walk_stm(&w, b->stms[j]);
    }
    u.j = b->nstms;
    for (int i = 0; i < b->nres; i++)
        if (b->res[i].is_var) use_var(&w, b->res[i].v);
    for (int k = 0; k < mems.len; k++) L->mark[mems.items[k]->id] = 0;
    release_at(L, mems.items, last.items, mems.len, -1);
    Var *const *outer_mems = L->body_mems;
    const int *outer_last = L->body_last;
    int outer_nmems = L->body_nmems, outer_stm = L->body_stm;
    for (int j = 0; j < b->nstms; j++) {
        L->body_mems = mems.items;
        L->body_last = last.items;
        L->body_nmems = mems.len;
        L->body_stm = j;
        lw_stm(L, b->stms[j]);
        release_at(L, mems.items, last.items, mems.len, j);
    }
    L->body_mems = outer_mems;
    L->body_last = outer_last;
    L->body_nmems = outer_nmems;
    L->body_stm = outer_stm;
    if (fn) fn(L, b, ctx);
    release_at(L, mems.items, last.items, mems.len, b->nstms);
    vec_free(&mems);
    vec_free(&last);
}

bool lw_dies(const ImpLower *L, const Var *m) {
    for (int k = 0; k < L->body_nmems; k++)
        if (L->body_mems[k] == m) return L->body_last[k] == L->body_stm;
    return false;
}

ImpCode lw_code(ImpLower *L, const Body *b, LwResFn fn, void *ctx) {
    LwNest n;
    lw_enter(L, &n);
    lw_body(L, b, fn, ctx, NULL, 0);
    return lw_leave(L, &n);
}
