/* Internalisation of sum types (lower.h describes their representation):
 * constructors build the tag and payload tuple with blanks for the other
 * constructors, a match becomes a chain of ifs on its patterns' conditions
 * (tests of tags and literals), and a constructor pattern binds the
 * payload of its constructor. The IR after this pass has no sums. */
#include <string.h>

#include "lower.h"

/* The index of constructor name in sum type t (its tag), or -1. */
static int constr_index(const Ty *t, const char *name) {
    for (int i = 0; t->kind == TY_SUM && i < t->n; i++)
        if (strcmp(t->fields[i].name, name) == 0) return i;
    return -1;
}

const Ty *lower_sum_repr(Lower *l, const Ty *ty) {
    Ty *tag = NEW(l->a, Ty), *t = NEW(l->a, Ty);
    tag->kind = TY_PRIM;
    tag->prim = PT_U8;
    t->kind = TY_TUPLE;
    t->n = ty->n + 1;
    t->elems = NEW_ARRAY(l->a, Ty *, t->n);
    t->elems[0] = tag;
    for (int i = 0; i < ty->n; i++) t->elems[i + 1] = ty->fields[i].ty;
    return t;
}

static PrimValue zero(PrimType t) {
    if (t == PT_BOOL) return prim_bool(false);
    return prim_is_float(t) ? prim_float(t, 0) : prim_int(t, 0);
}

/* A blank value of type ty, in arrays of shape[rank] when rank > 0: zeros,
 * and arrays of unspecified content whose sizes are those of ty where env
 * knows them and else 0. */
static SVal *blank(Lower *l, Env *env, const Ty *ty, SubExp *shape, int rank, SrcLoc loc) {
    ty = lower_resolve_ty(l, env, ty);
    if (ty->kind == TY_SUM) ty = lower_sum_repr(l, ty);
    switch (ty->kind) {
    case TY_PRIM: {
        if (rank == 0) return sv_dyn(l, se_const(zero(ty->prim)));
        IrExp *e = lower_new_exp(l, IE_SCRATCH);
        e->type = type_array(l->a, ty->prim, rank, shape);
        return sv_dyn(l, lower_emit1(l, e, e->type, loc));
    }
    case TY_ARRAY: {
        SubExp *s = NEW_ARRAY(l->a, SubExp, rank + ty->rank);
        COPY_ARRAY(s, shape, rank);
        for (int i = 0; i < ty->rank; i++)
            if (!lower_try_size(l, env, &ty->dims[i], &s[rank + i])) s[rank + i] = se_i64(0);
        return blank(l, env, ty->elem, s, rank + ty->rank, loc);
    }
    case TY_TUPLE:
    case TY_RECORD: {
        SVal **el = NEW_ARRAY(l->a, SVal *, ty->n + 1);
        for (int i = 0; i < ty->n; i++)
            el[i] = blank(l, env, ty->kind == TY_TUPLE ? ty->elems[i] : ty->fields[i].ty, shape, rank, loc);
        SVal *v = sv_tuple(l, el, ty->n);
        if (ty->kind == TY_RECORD) {
            v->kind = SV_RECORD;
            v->names = NEW_ARRAY(l->a, const char *, ty->n + 1);
            for (int i = 0; i < ty->n; i++) v->names[i] = ty->fields[i].name;
        }
        return v;
    }
    default:
        lower_error(l, loc, "a sum type whose payloads hold functions or type parameters is not supported here");
    }
}

SVal *lower_blank(Lower *l, Env *env, const Ty *ty, SrcLoc loc) { return blank(l, env, ty, NULL, 0, loc); }

SVal *lower_constr(Lower *l, Env *env, Exp *e) {
    const Ty *t = lower_resolve_ty(l, env, e->ty);
    int k = constr_index(t, e->field);
    if (k < 0) lower_error(l, e->loc, "internal: constructor #%s of a type that is not a sum", e->field);
    SVal **el = NEW_ARRAY(l->a, SVal *, t->n + 1);
    el[0] = sv_dyn(l, se_const(prim_int(PT_U8, k)));
    for (int i = 0; i < t->n; i++) {
        if (i != k) {
            el[i + 1] = blank(l, env, t->fields[i].ty, NULL, 0, e->loc);
            continue;
        }
        SVal **args = NEW_ARRAY(l->a, SVal *, e->nelems + 1);
        for (int j = 0; j < e->nelems; j++) args[j] = lower_exp(l, env, e->elems[j]);
        el[i + 1] = sv_tuple(l, args, e->nelems);
    }
    return sv_tuple(l, el, t->n + 1);
}

/* The tag of constructor pattern p's constructor, checking that v is a sum
 * value of its type. */
static int pat_tag(Lower *l, Pat *p, SVal *v) {
    int k = p->ty ? constr_index(p->ty, p->name) : -1;
    if (k < 0 || v->kind != SV_TUPLE || v->n != p->ty->n + 1)
        lower_error(l, p->loc, "internal: constructor pattern #%s does not match its value", p->name);
    return k;
}

SVal *lower_sum_payload(Lower *l, Pat *p, SVal *v) {
    SVal *payload = v->elems[pat_tag(l, p, v) + 1];
    if (payload->kind != SV_TUPLE || payload->n != p->nelems)
        lower_error(l, p->loc, "internal: constructor pattern #%s does not match its payload", p->name);
    return payload;
}

static SubExp and(Lower *l, SubExp a, SubExp b, SrcLoc loc) {
    if (!a.is_var) return a.c.v.b ? b : a;
    if (!b.is_var) return b.c.v.b ? a : b;
    return lower_binop(l, OP_LAND, a, b, loc);
}

/* Whether value v matches pattern p (a bool). */
static SubExp pat_cond(Lower *l, Env *env, Pat *p, SVal *v) {
    SubExp c = se_bool(true);
    switch (p->kind) {
    case P_ASCRIBE:
        return pat_cond(l, env, p->inner, v);
    case P_TUPLE:
        if (p->nelems == 1 && (v->kind != SV_TUPLE || v->n != 1)) return pat_cond(l, env, p->elems[0], v);
        if (v->kind != SV_TUPLE || v->n != p->nelems) lower_error(l, p->loc, "tuple pattern does not match its value");
        for (int i = 0; i < p->nelems; i++) c = and(l, c, pat_cond(l, env, p->elems[i], v->elems[i]), p->loc);
        return c;
    case P_RECORD:
        for (int i = 0; i < p->nfields; i++) {
            SVal *f = sv_field(v, p->fields[i].name);
            if (!f) lower_error(l, p->loc, "record pattern field '%s' not found", p->fields[i].name);
            c = and(l, c, pat_cond(l, env, p->fields[i].pat, f), p->loc);
        }
        return c;
    case P_CONSTR: {
        int k = pat_tag(l, p, v);
        SVal *payload = lower_sum_payload(l, p, v);
        c = lower_binop(l, OP_EQ, v->elems[0]->se, se_const(prim_int(PT_U8, k)), p->loc);
        for (int i = 0; i < p->nelems; i++) c = and(l, c, pat_cond(l, env, p->elems[i], payload->elems[i]), p->loc);
        return c;
    }
    case P_LIT: {
        SVal *x = lower_exp(l, env, p->lit);
        if (v->kind != SV_DYN || x->kind != SV_DYN) lower_error(l, p->loc, "literal pattern does not match its value");
        return lower_binop(l, OP_EQ, v->se, x->se, p->loc);
    }
    default:
        return c;
    }
}

/* The arms of a match: arm 2k is the body of case k, arm 2k + 1 the cases
 * from k on (the body of the last case alone: the checker made sure the
 * cases are exhaustive). */
typedef struct MatchArms {
    Env *env;
    Exp *e;
    SVal *v;
} MatchArms;

static SVal *match_arm(Lower *l, void *ctx, int arm) {
    MatchArms *m = ctx;
    Exp *e = m->e;
    int k = arm / 2;
    if (arm % 2 == 0 || k == e->nparams - 1)
        return lower_exp(l, lower_bind_pat(l, m->env, e->params[k], m->v), e->elems[k]);
    SubExp c = pat_cond(l, m->env, e->params[k], m->v);
    return lower_branch(l, c, match_arm, m, 2 * k, 2 * (k + 1) + 1, e->loc);
}

SVal *lower_match(Lower *l, Env *env, Exp *e) {
    if (e->nparams < 1 || e->nparams != e->nelems) lower_error(l, e->loc, "malformed match expression");
    MatchArms m = {env, e, lower_exp(l, env, e->e1)};
    return match_arm(l, &m, 1);
}
