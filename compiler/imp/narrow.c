/* Narrowing of guarded loops (imp_narrow, imp.h).
 *
 * A for loop whose body does something only while its counter is below a
 * value the loop does not change, and otherwise leaves every variable it
 * carries as it was, stops there:
 *
 *     for j < n { ...; bool g = j <= i; if g { ...; v = e } else { v = 0 };
 *                 acc = acc + v }
 *
 * runs for j < min(n, i + 1). That is a triangular matrix-vector product
 * written with a mask (`if j <= i then a * x else 0`), which then reads
 * only the triangle. An iteration past the point must have no effect
 * other than on the variables it declares: no store, assertion, call or
 * loop, and each carried variable's new value its old one (plus zero,
 * times one). A float addition of +0 counts only where its order is
 * unspecified (a reduction's, ImpExp.reassoc): -0 + 0 is +0. */
#include <math.h>

#include "imp.h"

/* What an expression is known to be in an iteration past the point. */
typedef enum { K_UNKNOWN, K_ENTRY, K_CONST } Kind;
typedef struct Val {
    Kind kind;
    int id;       /* K_ENTRY: the value carried variable id had before */
    PrimValue c;  /* K_CONST */
} Val;

typedef struct Narrow {
    Arena *a;
    char *inside;   /* by id: declared or assigned in the loop's body */
    char *declared; /* by id: declared there */
    char *counter;  /* by id: the counter, or a copy of it */
    Val *env;       /* by id: in an iteration past the point */
    int guard;      /* the guard's id */
} Narrow;

/* Whether e reads a variable of the loop's body (or an element of memory,
 * which the body may change). */
static bool variant(const Narrow *N, const ImpExp *e) { return imp_exp_varies(e, N->inside); }

static bool is_counter(const Narrow *N, const ImpExp *e) { return e->kind == IX_VAR && N->counter[e->var->id]; }

/* The loop's new bound if s (a statement of its body, at its top) is its
 * guard, a comparison of the counter with a value the loop does not
 * change: j <= x (or x >= j) gives min(bound - 1, x) + 1, j < x (x > j)
 * min(bound, x). NULL otherwise. */
static ImpExp *guard_bound(Narrow *N, const ImpStm *s, ImpExp *bound) {
    const ImpExp *e = s->init;
    if (s->kind != IMP_DECL || !e || e->kind != IX_OP || e->t != PT_I64) return NULL;
    bool le = e->op == OP_LE || e->op == OP_GE, lt = e->op == OP_LT || e->op == OP_GT;
    if (!le && !lt) return NULL;
    bool flipped = e->op == OP_GE || e->op == OP_GT;
    const ImpExp *j = e->args[flipped], *x = e->args[!flipped];
    if (!is_counter(N, j) || variant(N, x)) return NULL;
    Arena *a = N->a;
    ImpExp *xe = (ImpExp *)x;
    if (lt) return imp_op2(a, OP_MIN, PT_I64, bound, xe);
    ImpExp *last = imp_op2(a, OP_SUB, PT_I64, bound, imp_i64(a, 1));
    return imp_op2(a, OP_ADD, PT_I64, imp_op2(a, OP_MIN, PT_I64, last, xe), imp_i64(a, 1));
}

static bool is_const(Val v, double f, int64_t i) {
    if (v.kind != K_CONST) return false;
    return prim_is_float(v.c.type) ? v.c.v.f == f : v.c.v.i == i;
}

static Val eval(const Narrow *N, const ImpExp *e) {
    Val u = {K_UNKNOWN, 0, {0}};
    switch (e->kind) {
    case IX_CONST: return (Val){K_CONST, 0, e->c};
    case IX_VAR: return N->env[e->var->id];
    case IX_OP: {
        if (e->op != OP_ADD && e->op != OP_MUL) return u;
        Val x = eval(N, e->args[0]), y = eval(N, e->args[1]);
        bool f = prim_is_float(e->t);
        for (int k = 0; k < 2; k++) {
            Val c = k ? x : y, other = k ? y : x;
            if (other.kind != K_ENTRY) continue;
            if (e->op == OP_MUL && is_const(c, 1, 1)) return other;
            if (e->op == OP_ADD && is_const(c, 0, 0) && (!f || e->reassoc || signbit(c.c.v.f))) return other;
        }
        return u;
    }
    default: return u;
    }
}

/* Runs code c as an iteration past the point would (the guard false):
 * false where it would do something other than set variables. */
static bool skip(Narrow *N, const ImpCode *c) {
    for (int i = 0; i < c->n; i++) {
        const ImpStm *s = c->stms[i];
        switch (s->kind) {
        case IMP_DECL:
            if (s->var->kind != IMP_SCALAR) return false;
            N->env[s->var->id] = s->init ? eval(N, s->init) : (Val){K_UNKNOWN, 0, {0}};
            break;
        case IMP_ASSIGN:
            if (s->var->kind != IMP_SCALAR) return false;
            N->env[s->var->id] = eval(N, s->value);
            break;
        case IMP_IF:
            if (s->cond->kind != IX_VAR || s->cond->var->id != N->guard || !skip(N, &s->orelse)) return false;
            break;
        case IMP_SCOPE:
            if (!skip(N, &s->body)) return false;
            break;
        default: return false;
        }
    }
    return true;
}

/* Narrows loop s where it can. */
static void narrow_loop(Arena *a, int nids, ImpStm *s) {
    Narrow N = {a, arena_alloc(a, (size_t)nids), arena_alloc(a, (size_t)nids), arena_alloc(a, (size_t)nids), NULL, -1};
    imp_mark_vars(&s->body, true, true, N.inside);
    imp_mark_vars(&s->body, true, false, N.declared);
    N.counter[s->var->id] = 1;
    ImpExp *bound = NULL;
    for (int i = 0; i < s->body.n && !bound; i++) {
        const ImpStm *d = s->body.stms[i];
        if (d->kind == IMP_DECL && d->init && is_counter(&N, d->init)) N.counter[d->var->id] = 1;
        if ((bound = guard_bound(&N, d, s->bound))) N.guard = d->var->id;
    }
    if (!bound) return;
    /* The guard itself is never assigned again. */
    for (int i = 0; i < s->body.n; i++)
        if (s->body.stms[i]->kind == IMP_ASSIGN && s->body.stms[i]->var->id == N.guard) return;
    N.env = NEW_ARRAY(a, Val, nids);
    for (int id = 0; id < nids; id++) N.env[id] = (Val){K_ENTRY, id, {0}};
    if (!skip(&N, &s->body)) return;
    /* Every variable from outside the loop that it assigns keeps its value. */
    for (int id = 0; id < nids; id++)
        if (N.inside[id] && !N.declared[id] && !(N.env[id].kind == K_ENTRY && N.env[id].id == id)) return;
    s->bound = bound;
}

static void narrow_code(Arena *a, int nids, const ImpCode *c) {
    for (int i = 0; i < c->n; i++) {
        ImpStm *s = c->stms[i];
        narrow_code(a, nids, &s->body);
        narrow_code(a, nids, &s->orelse);
        if (s->kind == IMP_FOR && s->var->t == PT_I64) narrow_loop(a, nids, s);
    }
}

void imp_narrow(ImpProg *p) {
    int nids = p->next_id + 1;
    for (int i = 0; i < p->nfuns; i++) narrow_code(p->arena, nids, &p->funs[i]->body);
    for (int i = 0; i < p->nkernels; i++) narrow_code(p->arena, nids, &p->kernels[i]->body);
    for (int i = 0; i < p->nentries; i++) narrow_code(p->arena, nids, &p->entries[i]->body);
}
