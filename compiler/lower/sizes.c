/* Sizes during internalisation: the values of the sizes of checked types
 * (constants, size parameters and other names bound in the environment,
 * size expressions), the binding of a definition's size parameters where it
 * is used (from what the checker instantiated them to, and from the shapes
 * of the arguments), and the run-time checks that values have the shapes
 * their types claim: function arguments and results, and size coercions
 * (Futhark's dynamic size checks: ensureArgShapes, ensureResultShape and
 * the checks of Coerce in Futhark's Internalise). */
#include "lower.h"

#include <string.h>

/* ---- The values of sizes ------------------------------------------------------------ */

/* Whether size expression e can be evaluated in env: every name in it is
 * bound (top-level functions and constants always are). */
static bool exp_known(Env *env, const Exp *e) {
    switch (e->kind) {
    case EX_INT: return true;
    case EX_VAR:
        return e->ref.kind == REF_GLOBAL || e->ref.kind == REF_NUMERIC ||
               (e->ref.kind == REF_LOCAL && lower_env_lookup(env, e->ref.uid));
    case EX_BINOP: return exp_known(env, e->e1) && exp_known(env, e->e2);
    case EX_APPLY:
        for (int i = 0; i < e->nelems; i++)
            if (!exp_known(env, e->elems[i])) return false;
        return exp_known(env, e->e1);
    default: return false;
    }
}

bool lower_try_size(Lower *l, Env *env, const Size *s, SubExp *out) {
    SVal *v = NULL;
    switch (s->kind) {
    case SZ_CONST: *out = se_i64(s->c); return true;
    case SZ_VAR: v = lower_env_lookup(env, s->uid); break;
    case SZ_EXP: v = exp_known(env, s->exp) ? lower_exp(l, env, s->exp) : NULL; break;
    case SZ_ANY: break;
    }
    if (!v || v->kind != SV_DYN) return false;
    *out = v->se;
    return true;
}

SubExp lower_size(Lower *l, Env *env, const Size *s, SrcLoc loc) {
    SubExp v;
    if (!lower_try_size(l, env, s, &v)) lower_error(l, loc, "cannot determine an array size here (add a size annotation)");
    return v;
}

/* ---- Binding size parameters ------------------------------------------------------ */

Env *lower_bind_inst(Lower *l, Env *fenv, const Ref *inst, Env *env) {
    for (int i = 0; inst && i < inst->ninst; i++) {
        SubExp v;
        if (!lower_env_lookup(fenv, inst->inst_keys[i]) && lower_try_size(l, env, &inst->inst_sizes[i], &v))
            fenv = lower_env_bind(l, fenv, inst->inst_keys[i], NULL, sv_dyn(l, v));
    }
    return fenv;
}

/* An unbound size named by e, or 0. */
static int unbound_size(Env *env, const Exp *e) {
    if (e->kind == EX_VAR && e->ref.kind == REF_LOCAL && e->ref.nvar_parts == 0 && !lower_env_lookup(env, e->ref.uid))
        return e->ref.uid;
    return 0;
}

/* Binds the one unbound size of a linear size expression such as [k+1],
 * [k-1], [2*k] or [k*m] (m known) so that the expression is w; false when
 * e is not of that form. */
static bool solve_size(Lower *l, Env **env, Exp *e, SubExp w) {
    if (e->kind != EX_BINOP || e->ref.kind != REF_NONE) return false;
    const char *op = e->op;
    bool commutes = op == intern("+") || op == intern("*");
    Exp *var = e->e1, *other = e->e2;
    if (!unbound_size(*env, var) && commutes) {
        var = e->e2;
        other = e->e1;
    }
    int uid = unbound_size(*env, var);
    if (!uid || !exp_known(*env, other) || (!commutes && op != intern("-"))) return false;
    SubExp c = lower_conv(l, lower_exp(l, *env, other)->se, PT_I64, e->loc);
    SubExp k = op == intern("+") ? lower_binop(l, OP_SUB, w, c, e->loc)
               : op == intern("-") ? lower_binop(l, OP_ADD, w, c, e->loc)
                                   : lower_binop(l, OP_QUOT, w, c, e->loc);
    *env = lower_env_bind(l, *env, uid, var->name.parts[0], sv_dyn(l, k));
    return true;
}

/* Binds size s, not known in *env, to dimension w when s names a size or
 * is a linear expression of one; whether it did. */
static bool bind_size(Lower *l, Env **env, const Size *s, SubExp w) {
    if (s->kind == SZ_VAR && !lower_env_lookup(*env, s->uid)) {
        *env = lower_env_bind(l, *env, s->uid, s->name, sv_dyn(l, w));
        return true;
    }
    return s->kind == SZ_EXP && solve_size(l, env, s->exp, w);
}

/* ---- Matching values against types ------------------------------------------------- */

/* The message of a failed check of the dimensions of an array type ty:
 * "<what> of shape [..] cannot match shape of <type>", with a {} for each
 * dimension of the value, then for each known size of ty. */
static const char *shape_message(Lower *l, const Ty *ty, const bool *known, ShapeUse use) {
    static const char *const what[] = {[SHAPE_ARGUMENT] = "Function argument of",
                                       [SHAPE_RESULT] = "Function result of",
                                       [SHAPE_COERCION] = "Value of (desugared)",
                                       [SHAPE_ENTRY] = "Entry point arguments have invalid sizes: argument of"};
    static const char *const type[] = {[SHAPE_ARGUMENT] = "parameter type", [SHAPE_RESULT] = "return type",
                                       [SHAPE_COERCION] = "type", [SHAPE_ENTRY] = "parameter type"};
    Buf b = {0};
    buf_printf(&b, "%s shape ", what[use]);
    for (int d = 0; d < ty->rank; d++) buf_puts(&b, "[{}]");
    buf_printf(&b, " cannot match shape of %s \"", type[use]);
    for (int d = 0; d < ty->rank; d++) buf_puts(&b, known[d] ? "[{}]" : "[]");
    ty_print(&b, ty->elem);
    buf_puts(&b, "\".");
    const char *msg = arena_strdup(l->a, b.data);
    buf_free(&b);
    return msg;
}

/* The first leaf of v, or NULL (a value without leaves, such as an array of ()). */
static SVal *first_leaf(SVal *v) {
    while (v->kind == SV_TUPLE || v->kind == SV_RECORD) {
        if (v->n == 0) return NULL;
        v = v->elems[0];
    }
    return v->kind == SV_DYN || v->kind == SV_IRREG ? v : NULL;
}

/* The type of leaf as far as ty (of rank dimensions from outer) needs it:
 * an irregular array's length alone where only that is matched (length
 * xs), else the regular array it is then checked to be. */
static Type leaf_type(Lower *l, const SVal *leaf, const Ty *ty, int outer, SrcLoc loc) {
    if (!leaf) return type_prim(PT_I64);
    if (leaf->kind != SV_IRREG) return subexp_type(leaf->se);
    if (outer == 0 && ty->rank == 1) {
        SubExp *n = NEW(l->a, SubExp);
        *n = lower_width(l, (SVal *)leaf, loc);
        return type_array(l->a, PT_I64, 1, n);
    }
    return subexp_type(lower_regular(l, leaf, loc));
}

/* Matches the dimensions outer.. of v's leaves against array type ty (the
 * leaves of an array of tuples share them, so the first one stands for
 * all), binding unknown sizes and checking known ones as use says. */
static Env *match_array(Lower *l, Env *env, const Ty *ty, SVal *v, int outer, ShapeUse use, SrcLoc loc) {
    Type t = leaf_type(l, first_leaf(v), ty, outer, loc);
    if (t.kind != TK_ARRAY || t.rank < outer + ty->rank) return env;
    bool *known = NEW_ARRAY(l->a, bool, ty->rank);
    SubExp *args = NEW_ARRAY(l->a, SubExp, 2 * ty->rank);
    SubExp ok = se_bool(true);
    int nargs = ty->rank;
    bool binds = use == SHAPE_ARGUMENT || use == SHAPE_ENTRY || use == SHAPE_PATTERN;
    bool checks = use != SHAPE_PATTERN && !l->opts->unsafe;
    for (int d = 0; d < ty->rank; d++) {
        SubExp w = t.shape[outer + d], want;
        args[d] = w;
        if (binds && bind_size(l, &env, &ty->dims[d], w)) continue;
        if (!checks || !lower_try_size(l, env, &ty->dims[d], &want)) continue;
        known[d] = true;
        args[nargs++] = want;
        /* the operands in the order of the checks that the same sizes
         * meet later or earlier (an argument's against the size bound first,
         * as zip compares; others value first, as scatter and hist compare
         * the lengths of indices and values), so that the simplifier merges
         * them */
        SubExp eq = use == SHAPE_ARGUMENT ? lower_binop(l, OP_EQ, want, w, loc) : lower_binop(l, OP_EQ, w, want, loc);
        ok = lower_binop(l, OP_LAND, ok, eq, loc);
    }
    if (checks && (ok.is_var || !ok.c.v.b)) lower_assert(l, ok, shape_message(l, ty, known, use), args, nargs, loc);
    return env;
}

/* Whether the array type ty of arrays of primitives names none of its
 * sizes past the outer one: they are anonymous ([n][]t), so an irregular
 * array matches it as it is, by its number of rows alone. */
static bool rows_anonymous(const Ty *ty) {
    if (ty->rank < 2 && ty->elem->kind != TY_ARRAY) return false;
    for (const Ty *t = ty; t->kind == TY_ARRAY; t = t->elem)
        for (int d = t == ty ? 1 : 0; d < t->rank; d++)
            if (t->dims[d].kind != SZ_ANY && (t->dims[d].kind != SZ_VAR || t->dims[d].name)) return false;
    const Ty *e = ty;
    while (e->kind == TY_ARRAY) e = e->elem;
    return e->kind == TY_PRIM;
}

static Env *match_shape(Lower *l, Env *env, const Ty *ty, SVal *v, int outer, ShapeUse use, SrcLoc loc) {
    const SVal *leaf = first_leaf(v);
    if (ty->kind == TY_ARRAY && outer == 0 && leaf && leaf->kind == SV_IRREG && rows_anonymous(ty)) {
        Ty rows = *ty;
        rows.rank = 1;
        return match_array(l, env, &rows, v, 0, use, loc);
    }
    if (ty->kind == TY_ARRAY) {
        env = match_array(l, env, ty, v, outer, use, loc);
        return match_shape(l, env, ty->elem, v, outer + ty->rank, use, loc);
    }
    if ((ty->kind == TY_TUPLE || ty->kind == TY_RECORD) && (v->kind == SV_TUPLE || v->kind == SV_RECORD))
        for (int i = 0; i < ty->n && i < v->n; i++)
            env = match_shape(l, env, ty->kind == TY_TUPLE ? ty->elems[i] : ty->fields[i].ty, v->elems[i], outer, use,
                              loc);
    return env;
}

Env *lower_match_shape(Lower *l, Env *env, const Ty *ty, SVal *v, ShapeUse use, SrcLoc loc) {
    return ty && v ? match_shape(l, env, ty, v, 0, use, loc) : env;
}

/* The arrays of v with the dimensions outer..outer+rank-1 that are known
 * (want[d]) in place of theirs, by a reshape where they differ. */
static SVal *adopt_dims(Lower *l, SVal *v, int outer, int rank, const SubExp *want, const bool *known, SrcLoc loc) {
    if (v->kind == SV_TUPLE || v->kind == SV_RECORD) {
        SVal *c = NEW(l->a, SVal);
        *c = *v;
        c->elems = NEW_ARRAY(l->a, SVal *, v->n + 1);
        for (int i = 0; i < v->n; i++) c->elems[i] = adopt_dims(l, v->elems[i], outer, rank, want, known, loc);
        return c;
    }
    Type t = v->kind == SV_DYN ? subexp_type(v->se) : type_prim(PT_I64);
    if (t.kind != TK_ARRAY || !v->se.is_var || t.rank < outer + rank) return v;
    SubExp *shape = NEW_ARRAY(l->a, SubExp, t.rank);
    bool changed = false;
    for (int d = 0; d < t.rank; d++) {
        bool take = d >= outer && d < outer + rank && known[d - outer] && !se_same(t.shape[d], want[d - outer]);
        shape[d] = take ? want[d - outer] : t.shape[d];
        changed |= take;
    }
    if (!changed) return v;
    IrExp *e = lower_new_exp(l, IE_RESHAPE);
    e->arr = v->se.v;
    e->shape = shape;
    e->nshape = t.rank;
    Type nt = type_array(l->a, t.elem, t.rank, shape);
    nt.unique = t.unique;
    return sv_dyn(l, lower_emit1(l, e, nt, loc));
}

static SVal *adopt(Lower *l, Env *env, const Ty *ty, SVal *v, int outer, SrcLoc loc) {
    if (ty->kind == TY_ARRAY) {
        SubExp *want = NEW_ARRAY(l->a, SubExp, ty->rank);
        bool *known = NEW_ARRAY(l->a, bool, ty->rank);
        for (int d = 0; d < ty->rank; d++) known[d] = lower_try_size(l, env, &ty->dims[d], &want[d]);
        v = adopt_dims(l, v, outer, ty->rank, want, known, loc);
        return adopt(l, env, ty->elem, v, outer + ty->rank, loc);
    }
    if ((ty->kind == TY_TUPLE || ty->kind == TY_RECORD) && (v->kind == SV_TUPLE || v->kind == SV_RECORD) &&
        v->n >= ty->n) {
        SVal *c = NEW(l->a, SVal);
        *c = *v;
        c->elems = NEW_ARRAY(l->a, SVal *, v->n + 1);
        for (int i = 0; i < v->n; i++)
            c->elems[i] = i < ty->n ? adopt(l, env, ty->kind == TY_TUPLE ? ty->elems[i] : ty->fields[i].ty,
                                           v->elems[i], outer, loc)
                                    : v->elems[i];
        return c;
    }
    return v;
}

SVal *lower_adopt_shape(Lower *l, Env *env, const Ty *ty, SVal *v, SrcLoc loc) {
    return ty && v ? adopt(l, env, ty, v, 0, loc) : v;
}
