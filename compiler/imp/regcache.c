/* Register caching of the elements a kernel loop reads again in every
 * iteration (imp_regcache, imp.h).
 *
 * In kernel code, a for loop L whose body runs an inner for loop J
 * (counter j, a bound D that L does not change) reading a device block
 * that L does not change (or bind) at an index that depends on j and on
 * nothing else L changes reads the same
 * D elements in each of its iterations: k-means' assignment reads the
 * point's coordinates again for each centre, an all-pairs kernel its own
 * element's row for each partner. When D is at most a cap (8, 16 or 32,
 * the smallest that holds it), those elements are loaded once, before L,
 * into cap scalar variables, and J becomes cap copies of its body, the
 * copy for j = c reading the variable of element c; copies past cap / 2 (all
 * for the smallest cap) run only when c < D. Registers hold the variables
 * (every index is a constant), so each iteration of L loads only what
 * changes (the centre). L runs as before when D is larger.
 *
 * Loading early must not read what L would not: L's body has no
 * assertion (one may be the bounds check of the index) and stores nothing
 * (a store might change the elements, through any block), each cached load
 * is in a statement of J's body itself (not under a branch), so that L's
 * first iteration loads every element for j < D, and the elements are
 * loaded only when L runs at least once. */
#include <stdlib.h>
#include <string.h>

#include "imp.h"

/* The caps, smallest first, and the most statements the copies of J's
 * body may add for one loop. */
static const int caps[] = {8, 16, 32};
#define NCAPS 3
#define REGCACHE_MAX_STMS 2048
/* Loads of one loop cached at most. */
#define REGCACHE_MAX_LOADS 4

typedef struct Cache {
    ImpProg *p;
    Arena *a;
    int nids;
    char *inside;          /* by id: declared or assigned in L's body (not j) */
    ImpExp *loads[REGCACHE_MAX_LOADS];
    int nloads;
    ImpVar *vars[REGCACHE_MAX_LOADS]; /* the current copy's variables */
} Cache;

/* Whether e reads a variable L changes (or memory). */
static bool variant(const Cache *C, const ImpExp *e) { return imp_exp_varies(e, C->inside); }

/* Whether code c may store, fail, synchronise or call (anything that
 * may change memory or stop before a load). */
static bool has_effects(const ImpCode *c) {
    for (int i = 0; i < c->n; i++) {
        const ImpStm *s = c->stms[i];
        switch (s->kind) {
        case IMP_DECL:
        case IMP_ASSIGN:
        case IMP_FOR:
        case IMP_WHILE:
        case IMP_IF:
        case IMP_SCOPE:
            if (has_effects(&s->body) || has_effects(&s->orelse)) return true;
            break;
        default: return true;
        }
    }
    return false;
}

/* Collects the device loads of e whose block and index L does not change
 * but for j (a loop may swap the blocks it reads, or bind them inside). */
static void find_loads(Cache *C, ImpExp *e) {
    if (e->kind == IX_LOAD && e->var->space == IMP_SPACE_DEVICE && !C->inside[e->var->id] && !variant(C, e->index)) {
        for (int i = 0; i < C->nloads; i++)
            if (C->loads[i] == e) return;
        if (C->nloads < REGCACHE_MAX_LOADS) C->loads[C->nloads++] = e;
        return;
    }
    if (e->kind == IX_OP || e->kind == IX_CONV)
        for (int i = 0; i < imp_exp_nargs(e); i++) find_loads(C, e->args[i]);
}

/* e with each cached load replaced by its variable of the current copy. */
static ImpExp *subst(Cache *C, ImpExp *e) {
    if (!e) return NULL;
    for (int i = 0; i < C->nloads; i++)
        if (e == C->loads[i]) return imp_read(C->a, C->vars[i]);
    if (e->kind != IX_OP && e->kind != IX_CONV && e->kind != IX_LOAD) return e;
    ImpExp *r = NEW(C->a, ImpExp);
    *r = *e;
    if (e->kind == IX_LOAD) {
        r->index = subst(C, e->index);
        return r;
    }
    r->args = NEW_ARRAY(C->a, ImpExp *, imp_exp_nargs(e));
    for (int i = 0; i < imp_exp_nargs(e); i++) r->args[i] = subst(C, e->args[i]);
    return r;
}

/* J's body with the cached loads replaced (its top-level statements hold
 * them; nested code has none, since a load there is not cached). */
static ImpCode subst_code(Cache *C, const ImpCode *c) {
    ImpCode r = {NEW_ARRAY(C->a, ImpStm *, c->n + 1), c->n};
    for (int i = 0; i < c->n; i++) {
        ImpStm *s = NEW(C->a, ImpStm);
        *s = *c->stms[i];
        s->init = subst(C, s->init);
        s->value = subst(C, s->value);
        s->index = subst(C, s->index);
        s->bound = subst(C, s->bound);
        s->cond = subst(C, s->cond);
        r.stms[i] = s;
    }
    return r;
}

static ImpStm *mk_if(ImpBuilder *b, ImpExp *cond) {
    ImpStm *s = imp_add(b, IMP_IF);
    s->cond = cond;
    return s;
}

/* The copies of J for j = 0 .. cap - 1 (guarded from guard_from on) into b:
 * with load, each copy assigns the variables (the loads before L), else
 * it runs J's body on them. */
static void copies(Cache *C, ImpBuilder *b, const ImpStm *J, ImpVar **vars, int cap, int guard_from, bool load) {
    PrimType jt = J->var->t;
    for (int c = 0; c < cap; c++) {
        for (int k = 0; k < C->nloads; k++) C->vars[k] = vars[k * cap + c];
        ImpBuilder in = {C->a, {0}};
        PrimValue v = {.type = jt};
        v.v.i = c;
        imp_decl(&in, J->var, imp_const(C->a, v));
        if (load) {
            for (int k = 0; k < C->nloads; k++) imp_assign(&in, C->vars[k], C->loads[k]);
        } else {
            ImpCode body = subst_code(C, &J->body);
            for (int i = 0; i < body.n; i++) vec_push(&in.stms, body.stms[i]);
        }
        if (c < guard_from) {
            ImpStm *s = imp_add(b, IMP_SCOPE);
            s->body = imp_finish(&in);
        } else {
            mk_if(b, imp_op2(C->a, OP_LT, jt, imp_const(C->a, v), J->bound))->body = imp_finish(&in);
        }
    }
}

/* The cached version of L (whose body's statement ji is J) for cap. */
static ImpCode cached(Cache *C, const ImpStm *L, int ji, int cap, int guard_from) {
    const ImpStm *J = L->body.stms[ji];
    ImpBuilder b = {C->a, {0}};
    ImpVar **vars = NEW_ARRAY(C->a, ImpVar *, C->nloads * cap);
    for (int k = 0; k < C->nloads; k++)
        for (int c = 0; c < cap; c++) {
            vars[k * cap + c] = imp_var(C->p, "reg", IMP_SCALAR, C->loads[k]->t);
            imp_decl(&b, vars[k * cap + c], NULL);
        }
    copies(C, &b, J, vars, cap, guard_from, true);
    ImpBuilder body = {C->a, {0}};
    for (int i = 0; i < L->body.n; i++) {
        if (i != ji) {
            vec_push(&body.stms, L->body.stms[i]);
            continue;
        }
        ImpStm *s = imp_add(&body, IMP_SCOPE);
        ImpBuilder un = {C->a, {0}};
        copies(C, &un, J, vars, cap, guard_from, false);
        s->body = imp_finish(&un);
    }
    ImpStm *l = imp_add(&b, IMP_FOR);
    *l = *L;
    l->body = imp_finish(&body);
    return imp_finish(&b);
}

/* L rewritten when it qualifies: the cached versions chained by D's size,
 * L itself last; NULL otherwise. */
static ImpStm *cache_loop(Cache *C, ImpStm *L) {
    memset(C->inside, 0, (size_t)C->nids);
    imp_mark_vars(&L->body, true, true, C->inside);
    C->inside[L->var->id] = 1;
    if (has_effects(&L->body)) return NULL;
    for (int ji = 0; ji < L->body.n; ji++) {
        ImpStm *J = L->body.stms[ji];
        if (J->kind != IMP_FOR || variant(C, J->bound)) continue;
        C->inside[J->var->id] = 0;
        C->nloads = 0;
        for (int i = 0; i < J->body.n; i++) {
            ImpStm *s = J->body.stms[i];
            if ((s->kind == IMP_DECL || s->kind == IMP_ASSIGN) && s->var->kind == IMP_SCALAR && (s->init || s->value))
                find_loads(C, s->kind == IMP_DECL ? s->init : s->value);
        }
        C->inside[J->var->id] = 1;
        if (C->nloads == 0 || (int64_t)J->body.n * caps[NCAPS - 1] > REGCACHE_MAX_STMS) continue;
        /* if D <= 8 {V8} else if D <= 16 {V16} else if D <= 32 {V32} else {L},
         * all under L's bound > 0. */
        PrimType jt = J->var->t;
        ImpCode rest = {NEW_ARRAY(C->a, ImpStm *, 1), 1};
        rest.stms[0] = L;
        for (int k = NCAPS - 1; k >= 0; k--) {
            ImpBuilder b = {C->a, {0}};
            PrimValue v = {.type = jt};
            v.v.i = caps[k];
            ImpStm *s = mk_if(&b, imp_op2(C->a, OP_LE, jt, J->bound, imp_const(C->a, v)));
            s->body = cached(C, L, ji, caps[k], k == 0 ? 0 : caps[k] / 2);
            s->orelse = rest;
            rest = imp_finish(&b);
        }
        PrimValue zero = {.type = L->var->t};
        ImpBuilder b = {C->a, {0}};
        ImpStm *s = mk_if(&b, imp_op2(C->a, OP_LT, L->var->t, imp_const(C->a, zero), L->bound));
        s->body = rest;
        ImpStm *r = NEW(C->a, ImpStm);
        *r = (ImpStm){.kind = IMP_SCOPE, .body = imp_finish(&b)};
        return r;
    }
    return NULL;
}

static void cache_code(Cache *C, ImpCode *c) {
    for (int i = 0; i < c->n; i++) {
        ImpStm *s = c->stms[i];
        if (s->kind == IMP_FOR) {
            ImpStm *r = cache_loop(C, s);
            if (r) {
                c->stms[i] = r;
                continue;
            }
        }
        cache_code(C, &s->body);
        cache_code(C, &s->orelse);
    }
}

/* One table for every kernel: the variables a rewrite makes are never
 * looked at again (the rewritten loop is not, nor are they in other code). */
void imp_regcache(ImpProg *p) {
    Cache C = {p, p->arena, p->next_id + 1, NULL, {0}, 0, {0}};
    C.inside = malloc((size_t)C.nids);
    if (!C.inside) ICE("imp_regcache: out of memory");
    for (int i = 0; i < p->nkernels; i++) cache_code(&C, &p->kernels[i]->body);
    free(C.inside);
}
