/* Variables of vector code that have one value for all lanes that run
 * (llvm_simd.h, find_uniform), besides the counters of inner for loops:
 *
 * - a variable declared once and never assigned, whose value is made of
 *   uniform variables and constants (no loads: a load under a mask is a
 *   masked one), such as a loop's limit minus one;
 *
 * - a lockstep variable of a while loop: declared before the loop in the
 *   same code with a uniform value, not assigned between, and set in the
 *   loop only by statements of its body's top level (so by every lane
 *   that runs an iteration) to a uniform value, such as the iteration
 *   count of Mandelbrot's escape loop. Every lane that runs the loop's
 *   condition or body has the same value in it, which lives in a scalar
 *   shadow there (V.locked); its vector keeps each lane's value for the
 *   code after the loop, where lanes that left early have older ones.
 *
 * Reads of uniform values are scalar operations, and a condition made of
 * them is a branch instead of a mask: the escape loop's `count < limit`
 * is one comparison per iteration instead of one per lane. Found by an
 * optimistic fixed point: every candidate is assumed uniform, and those
 * whose values read something else are dropped until none is. */
#include "llvm_simd.h"

typedef struct Uni {
    V *v;
    char *cand;             /* by id: still assumed uniform */
    const ImpStm **lock_of; /* by id: the while loop of a lockstep candidate */
    char *open;             /* by id: a lockstep candidate of a loop being walked */
    bool changed;
} Uni;

static bool uni_exp(Uni *u, const ImpExp *e);

static bool uni_var(const Uni *u, int id) {
    const V *v = u->v;
    if (!v->inside[id] || v->uniform[id]) return true;
    return u->cand[id] && (!u->lock_of[id] || u->open[id]);
}

typedef struct UniSym {
    const Uni *u;
    bool ok;
} UniSym;
static void uni_sym_var(int id, void *ctx) {
    UniSym *s = ctx;
    s->ok &= uni_var(s->u, id);
}

static bool uni_exp(Uni *u, const ImpExp *e) {
    switch (e->kind) {
    case IX_VAR: return uni_var(u, e->var->id);
    case IX_SYM: {
        UniSym s = {u, true};
        sym_vars(e->sym, uni_sym_var, &s);
        return s.ok;
    }
    case IX_LOAD: return false;
    default:
        for (int i = 0; i < imp_exp_nargs(e); i++)
            if (!uni_exp(u, e->args[i])) return false;
        return true;
    }
}

/* How many statements of c (at any depth) assign variable id. */
static int assigns(const ImpCode *c, int id) {
    int n = 0;
    for (int i = 0; i < c->n; i++) {
        const ImpStm *s = c->stms[i];
        n += (s->kind == IMP_ASSIGN && s->var->id == id) + assigns(&s->body, id) + assigns(&s->orelse, id);
    }
    return n;
}

/* Whether variable id, assigned at the top level of while loop c->stms[w],
 * is declared before it in c and not assigned between, nor deeper in the
 * loop's body. */
static bool lockstep(const ImpCode *c, int w, int id) {
    const ImpCode *body = &c->stms[w]->body;
    int top = 0;
    for (int i = 0; i < body->n; i++) top += body->stms[i]->kind == IMP_ASSIGN && body->stms[i]->var->id == id;
    if (assigns(body, id) != top) return false;
    for (int k = w - 1; k >= 0; k--) {
        const ImpStm *s = c->stms[k];
        if (s->kind == IMP_DECL && s->var->id == id) return s->init != NULL;
        if (assigns(&(ImpCode){c->stms + k, 1}, id)) return false;
    }
    return false;
}

/* The candidates of code c. */
static void uni_find(Uni *u, const ImpCode *c) {
    for (int i = 0; i < c->n; i++) {
        const ImpStm *s = c->stms[i];
        if (s->kind == IMP_DECL && s->var->kind == IMP_SCALAR && s->init && !u->v->assigned[s->var->id])
            u->cand[s->var->id] = 1;
        for (int k = 0; s->kind == IMP_WHILE && k < s->body.n; k++) {
            const ImpStm *a = s->body.stms[k];
            if (a->kind == IMP_ASSIGN && !u->lock_of[a->var->id] && lockstep(c, i, a->var->id))
                u->cand[a->var->id] = 1, u->lock_of[a->var->id] = s;
        }
        uni_find(u, &s->body);
        uni_find(u, &s->orelse);
    }
}

static void uni_drop(Uni *u, int id) {
    if (u->cand[id]) u->cand[id] = 0, u->changed = true;
}

void mark_lockstep(const ImpStm *w, const ImpStm *const *lock_of, char *flags, char on) {
    for (int i = 0; i < w->body.n; i++)
        if (w->body.stms[i]->kind == IMP_ASSIGN && lock_of[w->body.stms[i]->var->id] == w)
            flags[w->body.stms[i]->var->id] = on;
}

/* Drops the candidates whose values in c are not uniform. */
static void uni_check(Uni *u, const ImpCode *c) {
    for (int i = 0; i < c->n; i++) {
        const ImpStm *s = c->stms[i];
        int id = s->kind == IMP_DECL || s->kind == IMP_ASSIGN ? s->var->id : -1;
        if (s->kind == IMP_DECL && u->cand[id] && !uni_exp(u, s->init)) uni_drop(u, id);
        /* A lockstep variable's assignments after its loop need not be
         * uniform: it is read from its vector there. */
        if (s->kind == IMP_ASSIGN && u->cand[id] && u->open[id] && !uni_exp(u, s->value)) uni_drop(u, id);
        if (s->kind == IMP_WHILE) mark_lockstep(s, u->lock_of, u->open, 1);
        uni_check(u, &s->body);
        if (s->kind == IMP_WHILE) mark_lockstep(s, u->lock_of, u->open, 0);
        uni_check(u, &s->orelse);
    }
}

void find_uniform(V *v, const ImpCode *body) {
    size_t n = (size_t)v->l->next_id + 1;
    Uni u = {v, arena_alloc(v->l->a, n), NEW_ARRAY(v->l->a, const ImpStm *, n), arena_alloc(v->l->a, n), true};
    uni_find(&u, body);
    while (u.changed) {
        u.changed = false;
        uni_check(&u, body);
    }
    for (size_t id = 0; id < n; id++)
        if (u.cand[id] && u.lock_of[id]) v->lock_of[id] = u.lock_of[id];
        else if (u.cand[id]) v->uniform[id] = 1;
}
