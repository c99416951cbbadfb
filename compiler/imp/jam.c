/* Unroll and jam of a loop around a reduction (imp_jam, imp.h).
 *
 * A for loop whose body computes a reduction in an inner loop and then
 * combines its result with what the loop carries (the nearest centre
 * of a point: a squared distance to each centre, then a comparison with
 * the best so far)
 *
 *     for c < k { decls; for j < m { ...; acc = acc + f(c, j) }; tail }
 *
 * waits in every iteration for the chain of its reduction. Unless the
 * head (decls and the inner loop) reads what the loop carries, JAM
 * iterations run together: their heads' declarations, one inner loop
 * with the bodies of the JAM inner loops one after another (independent
 * chains; loads that do not depend on c are the same expression in each,
 * made once), then their tails in order, each reading its own results:
 *
 *     for q < k / JAM { decls(4q) .. decls(4q+3);
 *                       for j < m { body(4q, j) .. body(4q+3, j) };
 *                       tail(4q) .. tail(4q+3) }
 *     for r < k - k / JAM * JAM { the body with c = k / JAM * JAM + r }
 *
 * The counter c is replaced by its expression of q (or r), so that vector
 * code keeps it one value for all lanes. The head may not store, call,
 * assert, allocate or loop besides its inner loop, and the inner loop's
 * bound must not depend on c or on the body; the tail may not store,
 * call, allocate or loop (what it computes depends on the tails before
 * it, which run in order). Every variable the copies declare is new. */
#include "imp.h"

#include <string.h>

/* Iterations run together. */
#define JAM 4
/* The most statements of an inner loop's body and of a tail copied. */
#define JAM_STMS 48

typedef struct Jam {
    ImpProg *p;
    Arena *a;
    int nids;
    char *decl;  /* by id: declared in the loop's body (or its counter) */
    ImpVar **to; /* by id: the copy's variable (NULL: not renamed) */
    int counter; /* the loop's counter */
    Sym *c;      /* the counter's value in the copy */
} Jam;

/* ---- Copies ---- */

static ImpVar *var_of(Jam *J, ImpVar *v) { return v->id < J->nids && J->to[v->id] ? J->to[v->id] : v; }

typedef struct SymSub {
    Jam *J;
    Sym *s;
} SymSub;

static void sub_var(int id, void *ctx) {
    SymSub *x = ctx;
    Jam *J = x->J;
    if (id == J->counter) x->s = sym_subst(J->a, x->s, id, J->c);
    else if (id < J->nids && J->to[id]) x->s = sym_subst(J->a, x->s, id, sym_var(J->a, J->to[id]->id));
}

static Sym *sym_of(Jam *J, Sym *s) {
    SymSub x = {J, s};
    sym_vars(s, sub_var, &x);
    return x.s;
}

static ImpExp *exp_of(Jam *J, const ImpExp *e) {
    if (!e) return NULL;
    if (e->kind == IX_VAR && e->var->id == J->counter) return imp_sym(J->a, J->c);
    ImpExp *r = NEW(J->a, ImpExp);
    *r = *e;
    if (e->kind == IX_VAR) r->var = var_of(J, e->var);
    if (e->kind == IX_SYM) r->sym = sym_of(J, e->sym);
    if (e->index) r->index = exp_of(J, e->index);
    int n = imp_exp_nargs(e);
    if (n) {
        r->args = NEW_ARRAY(J->a, ImpExp *, n);
        for (int i = 0; i < n; i++) r->args[i] = exp_of(J, e->args[i]);
    }
    return r;
}

static ImpCode code_of(Jam *J, const ImpCode *c);

/* A copy of s (a statement plain allows, or the loop's body), its
 * declarations new. */
static ImpStm *stm_of(Jam *J, const ImpStm *s) {
    ImpStm *r = NEW(J->a, ImpStm);
    *r = *s;
    r->init = exp_of(J, s->init);
    r->value = exp_of(J, s->value);
    r->cond = exp_of(J, s->cond);
    r->bound = exp_of(J, s->bound);
    if (s->nargs) {
        r->args = NEW_ARRAY(J->a, ImpExp *, s->nargs);
        for (int i = 0; i < s->nargs; i++) r->args[i] = exp_of(J, s->args[i]);
    }
    if (s->kind == IMP_DECL || s->kind == IMP_FOR) J->to[s->var->id] = imp_var(J->p, s->var->name, s->var->kind, s->var->t);
    if (s->var) r->var = var_of(J, s->var);
    r->body = code_of(J, &s->body);
    r->orelse = code_of(J, &s->orelse);
    return r;
}

static ImpCode code_of(Jam *J, const ImpCode *c) {
    ImpCode r = {NULL, c->n};
    if (c->n) r.stms = NEW_ARRAY(J->a, ImpStm *, c->n);
    for (int i = 0; i < c->n; i++) r.stms[i] = stm_of(J, c->stms[i]);
    return r;
}

/* ---- Which loops ---- */

/* Whether code c (a tail, or else the inner loop's body) does only what
 * a copy may: declarations, assignments, ifs (and, in a tail,
 * assertions), with *n, the statements counted so far, at most JAM_STMS. */
static bool plain(const ImpCode *c, bool tail, int *n) {
    for (int i = 0; i < c->n; i++) {
        const ImpStm *s = c->stms[i];
        if (++*n > JAM_STMS) return false;
        switch (s->kind) {
        case IMP_DECL:
        case IMP_ASSIGN:
            if (s->var->kind != IMP_SCALAR) return false;
            break;
        case IMP_IF:
            if (!plain(&s->body, tail, n) || !plain(&s->orelse, tail, n)) return false;
            break;
        case IMP_ASSERT:
            if (!tail) return false;
            break;
        default: return false;
        }
    }
    return true;
}

/* Whether e reads a variable of set (a load's block aside). */
static bool reads(const ImpExp *e, const char *set) {
    if (!e) return false;
    switch (e->kind) {
    case IX_VAR: return set[e->var->id];
    case IX_SYM: return sym_reads_any(e->sym, set);
    case IX_LOAD: return reads(e->index, set);
    default:
        for (int i = 0; i < imp_exp_nargs(e); i++)
            if (reads(e->args[i], set)) return true;
        return false;
    }
}

static bool code_reads(const ImpCode *c, const char *set) {
    for (int i = 0; i < c->n; i++) {
        const ImpStm *d = c->stms[i];
        const ImpExp *es[] = {d->init, d->value, d->cond, d->bound};
        for (int k = 0; k < 4; k++)
            if (reads(es[k], set)) return true;
        if (code_reads(&d->body, set) || code_reads(&d->orelse, set)) return true;
    }
    return false;
}

/* The i64 expression e (a loop's bound) as a Sym, or NULL. */
static Sym *bound_sym(Arena *a, const ImpExp *e) {
    switch (e->kind) {
    case IX_CONST: return sym_const(a, e->c.v.i);
    case IX_VAR: return e->var->kind == IMP_SCALAR && e->var->t == PT_I64 ? sym_var(a, e->var->id) : NULL;
    case IX_SYM: return e->t == PT_I64 ? e->sym : NULL;
    default: return NULL;
    }
}

/* The index of loop s's inner loop when s is such a loop, else -1. */
static int jam_inner(Jam *J, const ImpStm *s) {
    const ImpCode *b = &s->body;
    int at = -1;
    for (int i = 0; i < b->n && at < 0; i++) {
        const ImpStm *d = b->stms[i];
        if (d->kind == IMP_FOR) at = i;
        else if (d->kind != IMP_DECL || d->var->kind != IMP_SCALAR) return -1;
    }
    if (at < 0 || !bound_sym(J->a, s->bound)) return -1;
    const ImpStm *f = b->stms[at];
    int n = 0;
    if (f->var->t != PT_I64 || f->unroll || !plain(&f->body, false, &n)) return -1;
    n = 0;
    ImpCode tail = {b->stms + at + 1, b->n - at - 1};
    if (!plain(&tail, true, &n)) return -1;
    /* What the body declares (and the counter). */
    J->nids = J->p->next_id + 1;
    J->decl = arena_alloc(J->a, (size_t)J->nids);
    imp_mark_vars(b, true, false, J->decl);
    J->decl[s->var->id] = 1;
    /* What the loop carries: assigned in its body, declared outside. */
    char *carried = arena_alloc(J->a, (size_t)J->nids);
    imp_mark_vars(b, false, true, carried);
    for (int id = 0; id < J->nids; id++)
        if (J->decl[id]) carried[id] = 0;
    /* The inner bound is the loop's; the head neither reads nor sets
     * what the loop carries; the inner loop updates a variable of the
     * head (a chain). */
    if (reads(f->bound, J->decl) || reads(f->bound, carried)) return -1;
    ImpCode head = {b->stms, at + 1};
    if (code_reads(&head, carried)) return -1;
    char *set = arena_alloc(J->a, (size_t)J->nids);
    imp_mark_vars(&f->body, false, true, set);
    bool chain = false;
    for (int id = 0; id < J->nids; id++) {
        if (set[id] && carried[id]) return -1;
        if (set[id] && J->decl[id]) chain = true;
    }
    return chain ? at : -1;
}

static bool same_exp(const ImpExp *x, const ImpExp *y) {
    if (x->kind != y->kind || x->t != y->t) return false;
    switch (x->kind) {
    case IX_CONST: return x->c.v.i == y->c.v.i;
    case IX_VAR: return x->var == y->var;
    case IX_SYM: return sym_equal(x->sym, y->sym);
    case IX_LOAD: return x->var == y->var && same_exp(x->index, y->index);
    case IX_CONV:
    case IX_OP:
        if (x->op != y->op || x->to != y->to || x->reassoc != y->reassoc) return false;
        for (int i = 0; i < imp_exp_nargs(x); i++)
            if (!same_exp(x->args[i], y->args[i])) return false;
        return true;
    default: return false;
    }
}

/* Appends a copy of the inner loop's body to b; a load the body
 * declares that an earlier copy declared too (the same element: nothing
 * in the loop stores) is not made again, the copy reads the earlier
 * variable. */
static void inner_copy(Jam *J, ImpBuilder *b, const ImpCode *body) {
    int first = b->stms.len;
    char *assigned = arena_alloc(J->a, (size_t)J->nids);
    imp_mark_vars(body, false, true, assigned);
    /* What the earlier copies assign (their variables are new). */
    ImpCode earlier = {b->stms.items, first};
    char *reassigned = arena_alloc(J->a, (size_t)J->p->next_id + 1);
    imp_mark_vars(&earlier, false, true, reassigned);
    for (int i = 0; i < body->n; i++) {
        const ImpStm *s = body->stms[i];
        if (s->kind == IMP_DECL && s->init && s->init->kind == IX_LOAD && !assigned[s->var->id]) {
            ImpExp *e = exp_of(J, s->init);
            ImpVar *same = NULL;
            for (int k = 0; k < first && !same; k++) {
                const ImpStm *t = b->stms.items[k];
                if (t->kind == IMP_DECL && t->init && same_exp(t->init, e) && !reassigned[t->var->id])
                    same = t->var;
            }
            if (same) {
                J->to[s->var->id] = same;
                continue;
            }
        }
        vec_push(&b->stms, stm_of(J, s));
    }
}

/* The counter of copy u of the jammed loop q. */
static Sym *copy_counter(Arena *a, const ImpStm *q, int u) {
    return sym_add(a, sym_mul(a, sym_var(a, q->var->id), sym_const(a, JAM)), sym_const(a, u));
}

/* The statements of the loop that replace s (whose inner loop is body
 * statement at), into out. */
static void jam_loop(Jam *J, ImpBuilder *out, ImpStm *s, int at) {
    Arena *a = J->a;
    const ImpCode *b = &s->body;
    /* The bounds as expressions of the loop's (no variables of their own,
     * which vector code would give a value per lane). */
    Sym *k = bound_sym(a, s->bound);
    Sym *done = sym_mul(a, sym_div(a, k, sym_const(a, JAM)), sym_const(a, JAM));
    J->counter = s->var->id;
    /* The jammed loop. */
    ImpStm *q = imp_add(out, IMP_FOR);
    q->var = imp_var(J->p, "jam", IMP_SCALAR, PT_I64);
    q->bound = imp_sym(a, sym_div(a, k, sym_const(a, JAM)));
    ImpBuilder qb = {a, {0}};
    ImpStm *inner = NULL;
    ImpBuilder ib = {a, {0}};
    ImpVar ***maps = NEW_ARRAY(a, ImpVar **, JAM);
    for (int u = 0; u < JAM; u++) {
        J->to = maps[u] = NEW_ARRAY(a, ImpVar *, J->nids);
        J->c = copy_counter(a, q, u);
        for (int i = 0; i < at; i++) vec_push(&qb.stms, stm_of(J, b->stms[i]));
        const ImpStm *f = b->stms[at];
        if (!inner) {
            inner = NEW(a, ImpStm);
            *inner = *f;
            inner->var = imp_var(J->p, f->var->name, IMP_SCALAR, PT_I64);
            inner->body = (ImpCode){NULL, 0};
        }
        J->to[f->var->id] = inner->var;
        inner_copy(J, &ib, &f->body);
    }
    inner->body = imp_finish(&ib);
    vec_push(&qb.stms, inner);
    for (int u = 0; u < JAM; u++) {
        J->to = maps[u];
        J->c = copy_counter(a, q, u);
        for (int i = at + 1; i < b->n; i++) vec_push(&qb.stms, stm_of(J, b->stms[i]));
    }
    q->body = imp_finish(&qb);
    /* The rest, one iteration at a time. */
    ImpStm *r = imp_add(out, IMP_FOR);
    r->var = imp_var(J->p, "rest", IMP_SCALAR, PT_I64);
    r->bound = imp_sym(a, sym_sub(a, k, done));
    J->to = NEW_ARRAY(a, ImpVar *, J->nids);
    J->c = sym_add(a, done, sym_var(a, r->var->id));
    r->body = code_of(J, b);
}

static ImpCode jam_code(Jam *J, const ImpCode *c) {
    ImpBuilder out = {J->a, {0}};
    bool changed = false;
    for (int i = 0; i < c->n; i++) {
        ImpStm *s = c->stms[i];
        s->body = jam_code(J, &s->body);
        s->orelse = jam_code(J, &s->orelse);
        int at = -1;
        if (s->kind == IMP_FOR && s->var->t == PT_I64 && !s->unroll) at = jam_inner(J, s);
        if (at >= 0) {
            jam_loop(J, &out, s, at);
            changed = true;
        } else {
            vec_push(&out.stms, s);
        }
    }
    if (!changed) {
        vec_free(&out.stms);
        return *c;
    }
    return imp_finish(&out);
}

void imp_jam(ImpProg *p) {
    Jam J = {p, p->arena, 0, NULL, NULL, -1, NULL};
    for (int i = 0; i < p->nfuns; i++) p->funs[i]->body = jam_code(&J, &p->funs[i]->body);
    for (int i = 0; i < p->nentries; i++) p->entries[i]->body = jam_code(&J, &p->entries[i]->body);
}
