/* Internalisation: turns the checked AST into the first-order, monomorphic
 * SOACS IR in A-normal form.
 *
 * The method is static evaluation (as in Futhark's defunctionaliser, but
 * with inlining): every expression evaluates to a static value (SVal)
 * whose leaves are IR values. Tuples and records are split, arrays of
 * tuples become tuples of arrays, and function values are closures that
 * are inlined where they are applied. This monomorphises polymorphic code
 * and removes higher-order functions in one step; the price is code size.
 * The exception are large scalar functions applied in several places,
 * which become functions of their own that IE_APPLY calls (outline.c).
 *
 * Arrays whose sizes are only known at run time (results of ifs and loops)
 * get their dimensions as explicit extra results, so every IR array type
 * refers to sizes in scope. Run-time checks (bounds, division by zero, size
 * coercions) become explicit assertions unless --unsafe. */
#include "lower.h"

#include <string.h>

/* ---- Errors ------------------------------------------------------------------ */

/* Where to report loc: a location in the prelude's code becomes that of
 * the user's expression that inlined it (the call of map2, not the zip
 * inside map2), so that errors point into the user's program, as
 * Futhark's do. */
static SrcLoc user_loc(const Lower *l, SrcLoc loc) {
    return loc.file && loc.file == l->prelude && l->user_loc.file ? l->user_loc : loc;
}

void lower_error(Lower *l, SrcLoc loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_verror(user_loc(l, loc), fmt, ap);
    va_end(ap);
    longjmp(*l->bail, 1);
}

/* ---- Static values -------------------------------------------------------------- */

SVal *sv_dyn(Lower *l, SubExp se) {
    SVal *v = NEW(l->a, SVal);
    v->kind = SV_DYN;
    v->se = se;
    return v;
}

SVal *sv_tuple(Lower *l, SVal **elems, int n) {
    SVal *v = NEW(l->a, SVal);
    v->kind = SV_TUPLE;
    v->elems = NEW_ARRAY(l->a, SVal *, n);
    COPY_ARRAY(v->elems, elems, n);
    v->n = n;
    return v;
}

static SVal *sv_fun(Lower *l, FunKind fk) {
    SVal *v = NEW(l->a, SVal);
    v->kind = SV_FUN;
    v->fk = fk;
    return v;
}

/* Appends the IR values of v, in order; an irregular array's is the
 * regular array it must then be (checked). */
void sv_leaves(Lower *l, SVal *v, SubExpVec *out) {
    if (v->kind == SV_DYN || v->kind == SV_IRREG) {
        vec_push_in(l->a, out, v->kind == SV_IRREG ? lower_regular(l, v, l->user_loc) : v->se);
    } else if (v->kind == SV_TUPLE || v->kind == SV_RECORD) {
        for (int i = 0; i < v->n; i++) sv_leaves(l, v->elems[i], out);
    }
}

int sv_count_leaves(const SVal *v) {
    if (v->kind == SV_DYN || v->kind == SV_IRREG) return 1;
    if (v->kind == SV_FUN) return 0;
    int n = 0;
    for (int i = 0; i < v->n; i++) n += sv_count_leaves(v->elems[i]);
    return n;
}

/* A value of the same structure as shape with the given leaves. */
SVal *sv_rebuild(Lower *l, const SVal *shape, const SubExp *leaves, int *pos) {
    if (shape->kind == SV_DYN || shape->kind == SV_IRREG) return sv_dyn(l, leaves[(*pos)++]);
    if (shape->kind == SV_FUN) return (SVal *)shape;
    SVal *v = NEW(l->a, SVal);
    *v = *shape;
    v->elems = NEW_ARRAY(l->a, SVal *, shape->n);
    for (int i = 0; i < shape->n; i++) v->elems[i] = sv_rebuild(l, shape->elems[i], leaves, pos);
    return v;
}

bool sv_has_fun(const SVal *v) {
    if (v->kind == SV_FUN) return true;
    if (v->kind == SV_DYN || v->kind == SV_IRREG) return false;
    for (int i = 0; i < v->n; i++)
        if (sv_has_fun(v->elems[i])) return true;
    return false;
}

/* ---- Emitting statements -------------------------------------------------------- */

IrExp *lower_new_exp(Lower *l, IrExpKind k) {
    IrExp *e = NEW(l->a, IrExp);
    e->kind = k;
    return e;
}

/* Appends a statement to the current body, located for its run-time
 * errors by user_loc. */
void lower_emit(Lower *l, IrExp *e, Var **pat, int npat, SrcLoc loc) {
    Stm *s = NEW(l->a, Stm);
    s->pat = pat;
    s->npat = npat;
    s->e = e;
    s->loc = user_loc(l, loc);
    vec_push_in(l->a, &l->b->stms, s);
}

SubExp lower_emit1(Lower *l, IrExp *e, Type t, SrcLoc loc) {
    Var **pat = NEW_ARRAY(l->a, Var *, 1);
    pat[0] = ir_var(l->prog, t.kind == TK_ARRAY ? "arr" : "x", t);
    lower_emit(l, e, pat, 1, loc);
    return se_var(pat[0]);
}

SubExp lower_binop(Lower *l, Op op, SubExp x, SubExp y, SrcLoc loc) {
    PrimType t = subexp_type(x).elem;
    if (!x.is_var && !y.is_var) {
        PrimValue args[2] = {x.c, y.c}, out;
        if (prim_eval(op, args, &out)) return se_const(out);
    }
    /* an integer compared with itself (typically a size checked against
     * itself): decided now, so no assertion is emitted for it */
    if (x.is_var && y.is_var && x.v == y.v && prim_is_int(t)) {
        if (op == OP_EQ || op == OP_LE || op == OP_GE) return se_bool(true);
        if (op == OP_NE || op == OP_LT || op == OP_GT) return se_bool(false);
    }
    IrExp *e = lower_new_exp(l, IE_OP);
    e->op = op;
    e->t = t;
    e->args = NEW_ARRAY(l->a, SubExp, 2);
    e->args[0] = x;
    e->args[1] = y;
    e->nargs = 2;
    return lower_emit1(l, e, type_prim(op_result(op, t)), loc);
}

SubExp lower_checked_binop(Lower *l, Op op, SubExp x, SubExp y, SrcLoc loc) {
    PrimType t = subexp_type(x).elem;
    bool divides = op == OP_DIV || op == OP_MOD || op == OP_QUOT || op == OP_REM;
    SubExp zero = se_const(prim_int(t, 0));
    if (prim_is_int(t) && divides && !l->opts->unsafe)
        lower_assert(l, lower_binop(l, OP_NE, y, zero, loc), "division by zero", NULL, 0, loc);
    if (prim_class(t) == PC_SIGNED && op == OP_POW && !l->opts->unsafe)
        lower_assert(l, lower_binop(l, OP_GE, y, zero, loc), "negative exponent", NULL, 0, loc);
    return lower_binop(l, op, x, y, loc);
}

SubExp lower_unop(Lower *l, Op op, SubExp x, SrcLoc loc) {
    PrimType t = subexp_type(x).elem;
    if (!x.is_var) {
        PrimValue out;
        if (prim_eval(op, &x.c, &out)) return se_const(out);
    }
    IrExp *e = lower_new_exp(l, IE_OP);
    e->op = op;
    e->t = t;
    e->args = NEW_ARRAY(l->a, SubExp, 1);
    e->args[0] = x;
    e->nargs = 1;
    return lower_emit1(l, e, type_prim(op_result(op, t)), loc);
}

SubExp lower_conv(Lower *l, SubExp x, PrimType to, SrcLoc loc) {
    PrimType from = subexp_type(x).elem;
    if (from == to) return x;
    if (!x.is_var) return se_const(prim_convert(x.c, to));
    IrExp *e = lower_new_exp(l, IE_CONV);
    e->t = from;
    e->to = to;
    e->args = NEW_ARRAY(l->a, SubExp, 1);
    e->args[0] = x;
    e->nargs = 1;
    return lower_emit1(l, e, type_prim(to), loc);
}

void lower_assert(Lower *l, SubExp cond, const char *msg, SubExp *args, int nargs, SrcLoc loc) {
    if (!cond.is_var && cond.c.v.b) return;
    IrExp *e = lower_new_exp(l, IE_ASSERT);
    e->cond = cond;
    e->msg = msg;
    e->args = NEW_ARRAY(l->a, SubExp, nargs);
    COPY_ARRAY(e->args, args, nargs);
    e->nargs = nargs;
    lower_emit(l, e, NULL, 0, loc);
}

/* Dimension d of an array value. */
SubExp lower_dim(Lower *l, SubExp arr, int d) {
    Type t = subexp_type(arr);
    if (t.kind != TK_ARRAY || d >= t.rank) ICE("lower_dim of a non-array");
    return t.shape[d];
}

Body *lower_finish_body(Lower *l, Builder *b, SVal *res) {
    SubExpVec leaves = {0};
    Builder *saved = l->b;
    l->b = b; /* where an irregular result is made regular */
    sv_leaves(l, res, &leaves);
    l->b = saved;
    Body *body = NEW(l->a, Body);
    body->stms = vec_to_arena(l->a, &b->stms);
    body->nstms = b->stms.len;
    body->res = vec_to_arena(l->a, &leaves);
    body->nres = leaves.len;
    return body;
}

/* ---- Patterns --------------------------------------------------------------------- */

SVal *sv_field(SVal *v, const char *name) {
    if (v->kind == SV_RECORD) {
        for (int i = 0; i < v->n; i++)
            if (v->names[i] == name) return v->elems[i];
    } else if (v->kind == SV_TUPLE) {
        char *end;
        long k = strtol(name, &end, 10);
        if (*end == 0 && k >= 0 && k < v->n) return v->elems[k];
    }
    return NULL;
}

Env *lower_bind_pat(Lower *l, Env *env, Pat *p, SVal *v) {
    switch (p->kind) {
    case P_ID: return lower_env_bind(l, env, p->uid, p->name, v);
    case P_WILD: return env;
    case P_ASCRIBE:
        env = lower_match_shape(l, env, p->ty, v, SHAPE_PATTERN, p->loc);
        return lower_bind_pat(l, env, p->inner, v);
    case P_TUPLE:
        if (p->nelems == 0) return env;
        if (v->kind != SV_TUPLE || v->n != p->nelems) {
            if (p->nelems == 1) return lower_bind_pat(l, env, p->elems[0], v);
            lower_error(l, p->loc, "tuple pattern does not match its value");
        }
        for (int i = 0; i < p->nelems; i++) env = lower_bind_pat(l, env, p->elems[i], v->elems[i]);
        return env;
    case P_RECORD:
        for (int i = 0; i < p->nfields; i++) {
            SVal *f = sv_field(v, p->fields[i].name);
            if (!f) lower_error(l, p->loc, "record pattern field '%s' not found", p->fields[i].name);
            env = lower_bind_pat(l, env, p->fields[i].pat, f);
        }
        return env;
    case P_CONSTR: {
        SVal *payload = lower_sum_payload(l, p, v);
        for (int i = 0; i < p->nelems; i++) env = lower_bind_pat(l, env, p->elems[i], payload->elems[i]);
        return env;
    }
    case P_LIT: return env;
    }
    return env;
}

/* ---- Literals and constructors ---------------------------------------------------- */

static PrimType exp_prim(const Exp *e, PrimType dflt) {
    if (e->ty && e->ty->kind == TY_PRIM) return e->ty->prim;
    if (e->has_suffix) return e->suffix;
    return dflt;
}

static SVal *lower_literal(Lower *l, Exp *e) {
    switch (e->kind) {
    case EX_INT: {
        PrimType t = exp_prim(e, PT_I32);
        if (prim_is_float(t)) return sv_dyn(l, se_const(prim_float(t, (double)e->ivalue)));
        if (t == PT_BOOL) return sv_dyn(l, se_bool(e->ivalue != 0));
        return sv_dyn(l, se_const(prim_int(t, (int64_t)e->ivalue)));
    }
    case EX_FLOAT: return sv_dyn(l, se_const(prim_float(exp_prim(e, PT_F64), e->fvalue)));
    case EX_BOOL: return sv_dyn(l, se_bool(e->bvalue));
    default: ICE("not a literal");
    }
}

/* Checks at run time that the rows of an array literal have the shape of
 * the first (the checker lets sizes it does not know differ). */
static void check_rows(Lower *l, const SubExp *rows, int n, Type row, SrcLoc loc) {
    for (int i = 1; i < n && row.kind == TK_ARRAY && !l->opts->unsafe; i++) {
        Type t = subexp_type(rows[i]);
        SubExp ok = se_bool(true), *args = NEW_ARRAY(l->a, SubExp, 2 * row.rank);
        Buf msg = {0};
        buf_puts(&msg, "Element of shape ");
        for (int d = 0; d < row.rank; d++) {
            ok = lower_binop(l, OP_LAND, ok, lower_binop(l, OP_EQ, t.shape[d], row.shape[d], loc), loc);
            args[d] = t.shape[d];
            args[row.rank + d] = row.shape[d];
            buf_puts(&msg, "[{}]");
        }
        buf_puts(&msg, " differs from shape ");
        for (int d = 0; d < row.rank; d++) buf_puts(&msg, "[{}]");
        buf_puts(&msg, " of the first element of an array literal.");
        lower_assert(l, ok, arena_strdup(l->a, msg.data), args, 2 * row.rank, loc);
        buf_free(&msg);
    }
}

/* An array literal of the given leaf rows (all of the same IR type). */
static SubExp array_lit(Lower *l, SubExp *rows, int n, Type row, SrcLoc loc) {
    check_rows(l, rows, n, row, loc);
    IrExp *e = lower_new_exp(l, IE_ARRAYLIT);
    e->args = NEW_ARRAY(l->a, SubExp, n);
    COPY_ARRAY(e->args, rows, n);
    e->nargs = n;
    e->type = row;
    SubExp *shape = NEW_ARRAY(l->a, SubExp, row.kind == TK_ARRAY ? row.rank + 1 : 1);
    shape[0] = se_i64(n);
    for (int i = 0; row.kind == TK_ARRAY && i < row.rank; i++) shape[i + 1] = row.shape[i];
    Type t = type_array(l->a, row.elem, row.kind == TK_ARRAY ? row.rank + 1 : 1, shape);
    return lower_emit1(l, e, t, loc);
}

/* Type variables of inlined polymorphic functions are bound in the
 * environment under this key, apart from the uids of values (> 0). */
static int tyvar_key(int var) { return -var - 1; }

const Ty *lower_resolve_ty(Lower *l, Env *env, const Ty *ty) {
    if (ty->kind == TY_VAR) {
        SVal *v = lower_env_lookup(env, tyvar_key(ty->var));
        return v && v->kind == SV_TYPE ? v->tyval : ty;
    }
    if (ty->kind == TY_ARRAY) {
        const Ty *elem = lower_resolve_ty(l, env, ty->elem);
        if (elem == ty->elem) return ty;
        Ty *t = NEW(l->a, Ty);
        *t = *ty;
        if (elem->kind == TY_ARRAY) { /* [n]([m]t) is [n][m]t */
            t->rank = ty->rank + elem->rank;
            t->dims = NEW_ARRAY(l->a, Size, t->rank);
            COPY_ARRAY(t->dims, ty->dims, ty->rank);
            COPY_ARRAY(t->dims + ty->rank, elem->dims, elem->rank);
            elem = elem->elem;
        }
        t->elem = (Ty *)elem;
        return t;
    }
    if (ty->kind == TY_TUPLE || ty->kind == TY_RECORD || ty->kind == TY_SUM) {
        Ty *t = NEW(l->a, Ty);
        *t = *ty;
        if (ty->kind == TY_TUPLE) {
            t->elems = NEW_ARRAY(l->a, Ty *, ty->n);
            for (int i = 0; i < ty->n; i++) t->elems[i] = (Ty *)lower_resolve_ty(l, env, ty->elems[i]);
        } else {
            t->fields = NEW_ARRAY(l->a, TyField, ty->n);
            for (int i = 0; i < ty->n; i++)
                t->fields[i] = (TyField){ty->fields[i].name, (Ty *)lower_resolve_ty(l, env, ty->fields[i].ty)};
        }
        return t;
    }
    return ty;
}

/* Binds the type variables of a callee's declared type decl to the
 * corresponding parts of the call site's checked type inst (resolved in
 * the caller's environment). */
static Env *bind_tyvars(Lower *l, Env *fenv, Env *callenv, const Ty *decl, const Ty *inst) {
    if (!decl || !inst) return fenv;
    if (decl->kind == TY_VAR) {
        if (lower_env_lookup(fenv, tyvar_key(decl->var))) return fenv;
        SVal *v = NEW(l->a, SVal);
        v->kind = SV_TYPE;
        v->tyval = lower_resolve_ty(l, callenv, inst);
        return lower_env_bind(l, fenv, tyvar_key(decl->var), NULL, v); /* unnamed: not a value */
    }
    if (decl->kind == TY_ARRAY && inst->kind == TY_ARRAY) {
        if (decl->elem->kind == TY_VAR && inst->rank > decl->rank) {
            /* [n]a against [n][m]t: a is [m]t */
            Ty *rest = NEW(l->a, Ty);
            *rest = *inst;
            rest->rank = inst->rank - decl->rank;
            rest->dims = inst->dims + decl->rank;
            return bind_tyvars(l, fenv, callenv, decl->elem, rest);
        }
        return bind_tyvars(l, fenv, callenv, decl->elem, inst->elem);
    }
    if (decl->kind == inst->kind && (decl->kind == TY_TUPLE || decl->kind == TY_RECORD || decl->kind == TY_SUM))
        for (int i = 0; i < decl->n && i < inst->n; i++)
            fenv = bind_tyvars(l, fenv, callenv, decl->kind == TY_TUPLE ? decl->elems[i] : decl->fields[i].ty,
                               inst->kind == TY_TUPLE ? inst->elems[i] : inst->fields[i].ty);
    if (decl->kind == TY_ARROW && inst->kind == TY_ARROW) {
        fenv = bind_tyvars(l, fenv, callenv, decl->param, inst->param);
        fenv = bind_tyvars(l, fenv, callenv, decl->result, inst->result);
    }
    return fenv;
}

/* An empty array value of checked type ty (rank >= 1). */
static SVal *empty_of_ty(Lower *l, Env *env, const Ty *ty, SrcLoc loc, int outer_rank) {
    ty = lower_resolve_ty(l, env, ty);
    if (ty->kind == TY_SUM) ty = lower_sum_repr(l, ty);
    if (ty->kind == TY_ARRAY) {
        int rank = ty->rank;
        if (ty->elem->kind != TY_PRIM) {
            /* array of tuples: empty arrays of each component */
            Ty sub = *ty->elem;
            return empty_of_ty(l, env, &sub, loc, outer_rank + rank);
        }
        int total = outer_rank + rank;
        SubExp *shape = NEW_ARRAY(l->a, SubExp, total);
        for (int i = 0; i < total; i++)
            shape[i] = i == 0 ? se_i64(0)
                              : (i < outer_rank ? se_i64(0) : lower_size(l, env, &ty->dims[i - outer_rank], loc));
        IrExp *e = lower_new_exp(l, IE_SCRATCH);
        e->type = type_array(l->a, ty->elem->prim, total, shape);
        return sv_dyn(l, lower_emit1(l, e, e->type, loc));
    }
    if (ty->kind == TY_PRIM) {
        SubExp *shape = NEW_ARRAY(l->a, SubExp, outer_rank);
        for (int i = 0; i < outer_rank; i++) shape[i] = se_i64(0);
        IrExp *e = lower_new_exp(l, IE_SCRATCH);
        e->type = type_array(l->a, ty->prim, outer_rank, shape);
        return sv_dyn(l, lower_emit1(l, e, e->type, loc));
    }
    if (ty->kind == TY_TUPLE || ty->kind == TY_RECORD) {
        SVal *v = NEW(l->a, SVal);
        v->kind = ty->kind == TY_TUPLE ? SV_TUPLE : SV_RECORD;
        v->n = ty->n;
        v->elems = NEW_ARRAY(l->a, SVal *, ty->n);
        v->names = NEW_ARRAY(l->a, const char *, ty->n);
        for (int i = 0; i < ty->n; i++) {
            const Ty *et = ty->kind == TY_TUPLE ? ty->elems[i] : ty->fields[i].ty;
            if (ty->kind == TY_RECORD) v->names[i] = ty->fields[i].name;
            v->elems[i] = empty_of_ty(l, env, et, loc, outer_rank);
        }
        return v;
    }
    lower_error(l, loc, "cannot create an empty array of this type");
}

static SVal *lower_array(Lower *l, Env *env, Exp *e) {
    if (e->nelems == 0) {
        if (!e->ty || e->ty->kind != TY_ARRAY) lower_error(l, e->loc, "cannot determine the type of this empty array");
        Ty outer = *e->ty;
        if (outer.rank > 1 || outer.elem->kind == TY_PRIM) return empty_of_ty(l, env, &outer, e->loc, 0);
        return empty_of_ty(l, env, outer.elem, e->loc, 1);
    }
    SVal **elems = NEW_ARRAY(l->a, SVal *, e->nelems);
    for (int i = 0; i < e->nelems; i++) elems[i] = lower_exp(l, env, e->elems[i]);
    int nleaves = sv_count_leaves(elems[0]);
    SubExp *res = NEW_ARRAY(l->a, SubExp, nleaves);
    for (int k = 0; k < nleaves; k++) {
        SubExp *rows = NEW_ARRAY(l->a, SubExp, e->nelems);
        for (int i = 0; i < e->nelems; i++) {
            SubExpVec leaves = {0};
            sv_leaves(l, elems[i], &leaves);
            if (leaves.len != nleaves) ICE("array literal elements differ in structure");
            rows[i] = leaves.items[k];
        }
        res[k] = array_lit(l, rows, e->nelems, subexp_type(rows[0]), e->loc);
    }
    int pos = 0;
    return sv_rebuild(l, elems[0], res, &pos);
}

static SVal *lower_string(Lower *l, Exp *e) {
    SubExp *bytes = NEW_ARRAY(l->a, SubExp, e->strlen);
    for (int i = 0; i < e->strlen; i++) bytes[i] = se_const(prim_int(PT_U8, (unsigned char)e->str[i]));
    if (e->strlen == 0) {
        IrExp *x = lower_new_exp(l, IE_SCRATCH);
        SubExp *shape = NEW_ARRAY(l->a, SubExp, 1);
        shape[0] = se_i64(0);
        x->type = type_array(l->a, PT_U8, 1, shape);
        return sv_dyn(l, lower_emit1(l, x, x->type, e->loc));
    }
    return sv_dyn(l, array_lit(l, bytes, e->strlen, type_prim(PT_U8), e->loc));
}

static SVal *lower_record(Lower *l, Env *env, Exp *e) {
    /* fields sorted by name so that records compare structurally */
    SVal *v = NEW(l->a, SVal);
    v->kind = SV_RECORD;
    v->n = e->nfields;
    v->elems = NEW_ARRAY(l->a, SVal *, e->nfields);
    v->names = NEW_ARRAY(l->a, const char *, e->nfields);
    for (int i = 0; i < e->nfields; i++) {
        SVal *fv = lower_exp(l, env, e->fields[i].exp);
        int j = i;
        while (j > 0 && strcmp(v->names[j - 1], e->fields[i].name) > 0) {
            v->names[j] = v->names[j - 1];
            v->elems[j] = v->elems[j - 1];
            j--;
        }
        v->names[j] = e->fields[i].name;
        v->elems[j] = fv;
    }
    return v;
}

/* ---- Variables -------------------------------------------------------------------- */

static SVal *project_path(Lower *l, SVal *v, const char **parts, int n, SrcLoc loc) {
    for (int i = 0; i < n && v; i++) {
        SVal *f = sv_field(v, parts[i]);
        if (!f) lower_error(l, loc, "no field '%s' here", parts[i]);
        v = f;
    }
    return v;
}

/* A definition to inline: a top-level or local function, a lambda, or a
 * top-level constant (no parameters). */
typedef struct Callee {
    const char *name;
    Env *env; /* where it was defined (the closure of local functions and lambdas) */
    Pat **params;
    int nparams;
    Ty **param_tys; /* NULL: the types of the patterns */
    Exp *body;
    Ty *ret_ty;       /* NULL where not known */
    bool check_ret;   /* ret_ty was declared: the result is checked against it */
    bool check_args;  /* the arguments are checked against the parameter types */
    const Ref *inst;  /* the use that instantiated its size parameters, */
    Env *inst_env;    /* in this environment */
} Callee;

static Callee decl_callee(Decl *d) {
    return (Callee){.name = d->name, .params = d->params, .nparams = d->nparams, .param_tys = d->param_tys,
                    .body = d->body, .ret_ty = d->ret_ty, .check_ret = d->ret != NULL, .check_args = true};
}

static SVal *apply_definition(Lower *l, const Callee *c, SVal **args, Exp *call, Env *callenv);
static SVal *apply_at(Lower *l, SVal *f, SVal **args, int nargs, Exp *call, Env *env);

/* What a resolved reference r to a definition or local binding stands for
 * where it is used (in env): a constant is evaluated there; a function
 * carries the use, which instantiated its size parameters. NULL for an
 * unbound local name. */
static SVal *lower_ref(Lower *l, Env *env, const Ref *r) {
    SVal *f;
    if (r->kind == REF_GLOBAL && r->decl->nparams == 0) {
        Callee c = decl_callee(r->decl);
        c.inst = r;
        c.inst_env = env;
        return apply_definition(l, &c, NULL, NULL, NULL);
    }
    if (r->kind == REF_GLOBAL) {
        f = sv_fun(l, FK_GLOBAL);
        f->decl = r->decl;
    } else {
        SVal *local = lower_env_lookup(env, r->uid);
        if (!local || local->kind != SV_FUN || local->fk != FK_LOCAL || !r->ninst) return local;
        f = NEW(l->a, SVal);
        *f = *local;
    }
    f->inst = r;
    f->inst_env = env;
    return f;
}

static SVal *lower_var(Lower *l, Env *env, Exp *e) {
    Ref *r = &e->ref;
    int nparts = r->nvar_parts ? r->nvar_parts : e->name.nparts;
    SVal *v = NULL;
    switch (r->kind) {
    case REF_LOCAL:
        v = lower_ref(l, env, r);
        if (!v) v = lower_env_lookup_name(env, e->name.parts[nparts - 1]);
        break;
    case REF_GLOBAL: v = lower_ref(l, env, r); break;
    case REF_NUMERIC:
        if (lower_numeric_arity(r->numeric) == 0) {
            v = lower_numeric(l, r->numeric, r->numeric_type, NULL, 0, e->loc);
        } else {
            v = sv_fun(l, FK_NUMERIC);
            v->row = r->numeric;
            v->ptype = r->numeric_type;
        }
        break;
    case REF_NONE: break;
    }
    /* only a size can be unbound: one that nothing in this use of its function determines */
    if (!v) lower_error(l, e->loc, "cannot determine the size \"%s\" here", e->name.parts[0]);
    if (r->nvar_parts) v = project_path(l, v, e->name.parts + nparts, e->name.nparts - nparts, e->loc);
    return v;
}

/* ---- Operators -------------------------------------------------------------------- */

typedef struct OpName {
    const char *text;
    Op op;
} OpName;

static const OpName binops[] = {
    {"+", OP_ADD}, {"-", OP_SUB}, {"*", OP_MUL}, {"/", OP_DIV}, {"%", OP_MOD}, {"//", OP_QUOT},
    {"%%", OP_REM}, {"**", OP_POW}, {"&", OP_AND}, {"|", OP_OR}, {"^", OP_XOR}, {"<<", OP_SHL},
    {">>", OP_SHR}, {">>>", OP_LSHR}, {"==", OP_EQ}, {"!=", OP_NE}, {"<", OP_LT}, {"<=", OP_LE},
    {">", OP_GT}, {">=", OP_GE},
};

static bool find_binop(const char *text, Op *op) {
    for (size_t i = 0; i < sizeof binops / sizeof binops[0]; i++)
        if (strcmp(binops[i].text, text) == 0) {
            *op = binops[i].op;
            return true;
        }
    return false;
}

static SubExp lower_equal_leaves(Lower *l, SVal *x, SVal *y, bool ne, SrcLoc loc);

/* A built-in binary operator on two evaluated operands. */
static SVal *prim_binop(Lower *l, const char *text, SVal *x, SVal *y, SrcLoc loc) {
    if (text == intern("==") || text == intern("!=")) return sv_dyn(l, lower_equal_leaves(l, x, y, text[0] == '!', loc));
    if (text == intern("&&")) return sv_dyn(l, lower_binop(l, OP_LAND, x->se, y->se, loc));
    if (text == intern("||")) return sv_dyn(l, lower_binop(l, OP_LOR, x->se, y->se, loc));
    Op op;
    if (!find_binop(text, &op) || x->kind != SV_DYN || y->kind != SV_DYN)
        lower_error(l, loc, "operator '%s' is not supported on these operands", text);
    PrimType t = subexp_type(x->se).elem;
    if (op == OP_AND && t == PT_BOOL) op = OP_LAND;
    if (op == OP_OR && t == PT_BOOL) op = OP_LOR;
    return sv_dyn(l, lower_checked_binop(l, op, x->se, y->se, loc));
}

/* Structural equality of two values with the same structure. */
static SubExp lower_equal_leaves(Lower *l, SVal *x, SVal *y, bool ne, SrcLoc loc) {
    SubExpVec xs = {0}, ys = {0};
    sv_leaves(l, x, &xs);
    sv_leaves(l, y, &ys);
    SubExp acc = se_bool(true);
    for (int i = 0; i < xs.len && i < ys.len; i++) {
        SubExp eq = subexp_type(xs.items[i]).kind == TK_ARRAY ? lower_equal_arrays(l, xs.items[i], ys.items[i], loc)
                                                               : lower_binop(l, OP_EQ, xs.items[i], ys.items[i], loc);
        acc = i == 0 ? eq : lower_binop(l, OP_LAND, acc, eq, loc);
    }
    return ne ? lower_unop(l, OP_NOT, acc, loc) : acc;
}

/* e1 && e2 / e1 || e2 with short-circuiting: the right side is evaluated in
 * a branch unless it is trivial. */
static SVal *lower_logic(Lower *l, Env *env, Exp *e, bool is_and) {
    SVal *x = lower_exp(l, env, e->e1);
    if (!x->se.is_var) {
        if (x->se.c.v.b == is_and) return lower_exp(l, env, e->e2);
        return x;
    }
    Builder *saved = l->b, nb = {0};
    l->b = &nb;
    SVal *y = lower_exp(l, env, e->e2);
    l->b = saved;
    if (nb.stms.len == 0) {
        return sv_dyn(l, lower_binop(l, is_and ? OP_LAND : OP_LOR, x->se, y->se, e->loc));
    }
    Body *rhs = lower_finish_body(l, &nb, y);
    Body *other = NEW(l->a, Body);
    other->res = NEW_ARRAY(l->a, SubExp, 1);
    other->res[0] = se_bool(!is_and);
    other->nres = 1;
    return sv_dyn(l, lower_if_one(l, x->se, is_and ? rhs : other, is_and ? other : rhs, type_prim(PT_BOOL), e->loc));
}

static SVal *lower_binop_exp(Lower *l, Env *env, Exp *e) {
    const char *op = e->op;
    if (e->ref.kind == REF_GLOBAL || e->ref.kind == REF_LOCAL) {
        SVal *f = lower_ref(l, env, &e->ref);
        if (!f) lower_error(l, e->loc, "internal: unresolved operator '%s'", op);
        SVal *args[2] = {lower_exp(l, env, e->e1), lower_exp(l, env, e->e2)};
        return apply_at(l, f, args, 2, e, env);
    }
    if (op == intern("&&")) return lower_logic(l, env, e, true);
    if (op == intern("||")) return lower_logic(l, env, e, false);
    if (op == intern("|>")) {
        SVal *x = lower_exp(l, env, e->e1);
        return apply_at(l, lower_exp(l, env, e->e2), &x, 1, e, env);
    }
    if (op == intern("<|")) {
        SVal *f = lower_exp(l, env, e->e1);
        SVal *x = lower_exp(l, env, e->e2);
        return apply_at(l, f, &x, 1, e, env);
    }
    if (op == intern(">->") || op == intern("<-<")) {
        SVal *f = sv_fun(l, FK_COMPOSE);
        f->n = 2;
        f->elems = NEW_ARRAY(l->a, SVal *, 2);
        SVal *a = lower_exp(l, env, e->e1), *b = lower_exp(l, env, e->e2);
        f->elems[0] = op[0] == '>' ? a : b;
        f->elems[1] = op[0] == '>' ? b : a;
        return f;
    }
    SVal *x = lower_exp(l, env, e->e1);
    SVal *y = lower_exp(l, env, e->e2);
    return prim_binop(l, op, x, y, e->loc);
}

/* ---- Application ------------------------------------------------------------------ */

/* The value of a hole of non-function type t: a run-time failure ("hole at
 * FILE:LINE:COL"), and a blank value for the code after it. */
static SVal *hole_value(Lower *l, Env *env, const Ty *t, SrcLoc loc) {
    lower_assert(l, se_bool(false), arena_printf(l->a, "hole at %s:%d:%d", loc.file, loc.line, loc.col), NULL, 0, loc);
    return lower_blank(l, env, t, loc);
}

/* ??? : a failure where it is evaluated, or for a function where it is
 * applied. */
static SVal *lower_hole(Lower *l, Env *env, Exp *e) {
    const Ty *t = lower_resolve_ty(l, env, e->ty);
    if (t->kind != TY_ARROW) return hole_value(l, env, t, e->loc);
    SVal *f = sv_fun(l, FK_HOLE);
    f->exp = e;
    f->env = env;
    return f;
}

static int fun_arity(Lower *l, SVal *f) {
    switch (f->fk) {
    case FK_LAMBDA: return f->exp->nparams;
    case FK_LOCAL: return f->exp->nparams;
    case FK_GLOBAL: return f->decl->nparams;
    case FK_NUMERIC: return lower_numeric_arity(f->row);
    case FK_SECTION: return (f->left ? 0 : 1) + (f->right ? 0 : 1);
    case FK_PROJECT: return 1;
    case FK_COMPOSE: return 1;
    case FK_HOLE: {
        int n = 0;
        for (const Ty *t = lower_resolve_ty(l, f->env, f->exp->ty); t->kind == TY_ARROW; t = t->result) n++;
        return n;
    }
    }
    return 1;
}

static bool is_intrinsic_body(const Exp *body, const char **name) {
    if (body && body->kind == EX_APPLY && body->nelems == 1 && body->e1->kind == EX_VAR &&
        body->e1->name.nparts == 1 && strcmp(body->e1->name.parts[0], "__intrinsic") == 0 &&
        body->elems[0]->kind == EX_STRING) {
        *name = body->elems[0]->str;
        return true;
    }
    return false;
}

/* Inlines definition c applied to all its parameters (args), at call
 * (NULL when it is not applied as written, with all arguments at once). */
static SVal *apply_definition(Lower *l, const Callee *c, SVal **args, Exp *call, Env *callenv) {
    SrcLoc loc = call ? call->loc : c->body->loc;
    if (++l->depth > LOWER_MAX_INLINE_DEPTH) lower_error(l, loc, "recursive function '%s' is not supported", c->name);
    /* the sizes of the arguments first; then what the use instantiated the
     * other size parameters to (the checker's sizes of loop parameters are
     * those of their initial values, which the arguments may not have) */
    Env *fenv = c->env;
    const Ty **tys = NEW_ARRAY(l->a, const Ty *, c->nparams + 1);
    for (int i = 0; i < c->nparams; i++) {
        tys[i] = c->param_tys ? c->param_tys[i] : c->params[i]->ty;
        fenv = lower_match_shape(l, fenv, tys[i], args[i], SHAPE_PATTERN, loc);
    }
    fenv = lower_bind_inst(l, fenv, c->inst, c->inst_env);
    for (int i = 0; i < c->nparams; i++) {
        if (c->check_args) fenv = lower_match_shape(l, fenv, tys[i], args[i], SHAPE_ARGUMENT, loc);
        fenv = lower_bind_pat(l, fenv, c->params[i], args[i]);
    }
    if (call && call->ty) fenv = bind_tyvars(l, fenv, callenv, c->ret_ty, call->ty);
    if (call && call->kind == EX_APPLY && c->param_tys)
        for (int i = 0; i < c->nparams && i < call->nelems; i++)
            fenv = bind_tyvars(l, fenv, callenv, c->param_tys[i], call->elems[i]->ty);
    SVal *v = lower_exp(l, fenv, c->body);
    if (c->check_ret) {
        lower_match_shape(l, fenv, c->ret_ty, v, SHAPE_RESULT, loc);
        v = lower_adopt_shape(l, fenv, c->ret_ty, v, loc);
    }
    l->depth--;
    return v;
}

static SVal *apply_full(Lower *l, SVal *f, SVal **args, Exp *call, Env *callenv) {
    SrcLoc loc = call ? call->loc : (SrcLoc){0};
    switch (f->fk) {
    case FK_LAMBDA: {
        Callee c = {.name = "lambda", .env = f->env, .params = f->exp->params, .nparams = f->exp->nparams,
                    .body = f->exp->e1};
        return apply_definition(l, &c, args, NULL, NULL);
    }
    case FK_LOCAL: {
        Callee c = {.name = f->exp->fname, .env = f->env, .params = f->exp->params, .nparams = f->exp->nparams,
                    .body = f->exp->e1, .check_args = true, .inst = f->inst, .inst_env = f->inst_env};
        return apply_definition(l, &c, args, NULL, NULL);
    }
    case FK_GLOBAL: {
        Decl *d = f->decl;
        const char *iname;
        if (is_intrinsic_body(d->body, &iname)) {
            Intrinsic in = {d, f->inst, f->inst_env};
            return lower_intrinsic(l, iname, args, d->nparams, call, callenv, &in);
        }
        SVal *r = lower_call_outlined(l, d, args, loc);
        if (r) return r;
        Callee c = decl_callee(d);
        c.inst = f->inst;
        c.inst_env = f->inst_env;
        return apply_definition(l, &c, args, call, callenv);
    }
    case FK_NUMERIC: return lower_numeric(l, f->row, f->ptype, args, fun_arity(l, f), loc);
    case FK_SECTION: {
        SVal *x = f->left ? f->left : args[0];
        SVal *y = f->right ? f->right : args[f->left ? 0 : 1];
        Exp *e = f->exp;
        if (e->ref.kind == REF_GLOBAL || e->ref.kind == REF_LOCAL) {
            SVal *g = lower_ref(l, f->env, &e->ref);
            SVal *xy[2] = {x, y};
            return lower_apply(l, g, xy, 2, NULL);
        }
        if (e->ref.kind == REF_NUMERIC) {
            SVal *xy[2] = {x, y};
            return lower_numeric(l, e->ref.numeric, e->ref.numeric_type, xy, 2, e->loc);
        }
        if (e->op == intern("|>")) return lower_apply(l, y, &x, 1, NULL);
        if (e->op == intern("<|")) return lower_apply(l, x, &y, 1, NULL);
        return prim_binop(l, e->op, x, y, e->loc);
    }
    case FK_PROJECT: return project_path(l, args[0], f->exp->path, f->exp->npath, f->exp->loc);
    case FK_HOLE: {
        const Ty *t = lower_resolve_ty(l, f->env, f->exp->ty);
        while (t->kind == TY_ARROW) t = t->result;
        return hole_value(l, f->env, t, f->exp->loc);
    }
    case FK_COMPOSE: {
        SVal *mid = lower_apply(l, f->elems[0], args, 1, NULL);
        return lower_apply(l, f->elems[1], &mid, 1, NULL);
    }
    }
    ICE("bad function kind");
}

/* Applies f to args: inlines when saturated, else builds a partial
 * application; surplus arguments go to the result. */
static SVal *apply_in(Lower *l, SVal *f, SVal **args, int nargs, Exp *call, Env *callenv) {
    if (nargs == 0) return f;
    if (f->kind != SV_FUN) lower_error(l, call ? call->loc : (SrcLoc){0}, "applying a value that is not a function");
    int arity = fun_arity(l, f) - f->napplied;
    if (nargs < arity) {
        SVal *g = NEW(l->a, SVal);
        *g = *f;
        g->applied = NEW_ARRAY(l->a, SVal *, f->napplied + nargs);
        COPY_ARRAY(g->applied, f->applied, f->napplied);
        COPY_ARRAY(g->applied + f->napplied, args, nargs);
        g->napplied = f->napplied + nargs;
        return g;
    }
    SVal **all = NEW_ARRAY(l->a, SVal *, f->napplied + arity);
    COPY_ARRAY(all, f->applied, f->napplied);
    COPY_ARRAY(all + f->napplied, args, arity);
    /* the call's instantiated type describes the saturated result only when
     * all arguments are given at once */
    Exp *c = nargs == arity ? call : NULL;
    SVal *r = apply_full(l, f, all, c, callenv);
    return apply_in(l, r, args + arity, nargs - arity, call, callenv);
}

SVal *lower_definition(Lower *l, Decl *d, SVal **args) {
    Callee c = decl_callee(d);
    return apply_definition(l, &c, args, NULL, NULL);
}

static Env *current_call_env;

SVal *lower_apply(Lower *l, SVal *f, SVal **args, int nargs, Exp *call) {
    return apply_in(l, f, args, nargs, call, current_call_env);
}

/* Applies f at call, written in env (an application, or an operator:
 * x |> f is f x), whose sizes the call's checked types name. */
static SVal *apply_at(Lower *l, SVal *f, SVal **args, int nargs, Exp *call, Env *env) {
    Env *saved = current_call_env;
    current_call_env = env;
    SVal *r = apply_in(l, f, args, nargs, call, env);
    current_call_env = saved;
    return r;
}

/* Builds a lambda whose parameters have the given types and whose body
 * applies f to a value of structure param_shape rebuilt from the
 * parameters (nshape values: several for an operator). Sets *result_shape
 * to the structure of the result. */
Lambda *lower_lambda(Lower *l, SVal *f, Type *param_types, int nparams, const SVal *param_shape, int nshape,
                     SVal **result_shape, SrcLoc loc) {
    Lambda *lam = NEW(l->a, Lambda);
    lam->params = NEW_ARRAY(l->a, Var *, nparams);
    lam->nparams = nparams;
    SubExp *ps = NEW_ARRAY(l->a, SubExp, nparams);
    for (int i = 0; i < nparams; i++) {
        lam->params[i] = ir_var(l->prog, "p", param_types[i]);
        ps[i] = se_var(lam->params[i]);
    }
    SVal **args = NEW_ARRAY(l->a, SVal *, nshape);
    int pos = 0;
    for (int i = 0; i < nshape; i++) args[i] = sv_rebuild(l, &param_shape[i], ps, &pos);
    Builder *saved = l->b, nb = {0};
    l->b = &nb;
    SVal *res = lower_apply(l, f, args, nshape, NULL);
    l->b = saved;
    if (sv_has_fun(res)) lower_error(l, loc, "a function cannot be an array element");
    *result_shape = res;
    lam->body = lower_finish_body(l, &nb, res);
    lam->nret = lam->body->nres;
    lam->ret = NEW_ARRAY(l->a, Type, lam->nret);
    for (int i = 0; i < lam->nret; i++) lam->ret[i] = subexp_type(lam->body->res[i]);
    return lam;
}

/* ---- Expressions --------------------------------------------------------------------- */

static SVal *lower_section(Lower *l, Env *env, Exp *e) {
    SVal *f = sv_fun(l, FK_SECTION);
    f->exp = e;
    f->env = env;
    if (e->e1) f->left = lower_exp(l, env, e->e1);
    if (e->e2) f->right = lower_exp(l, env, e->e2);
    return f;
}

static SVal *lower_record_update(Lower *l, SVal *r, const char **path, int npath, SVal *v, SrcLoc loc) {
    if (npath == 0) return v;
    SVal *c = NEW(l->a, SVal);
    *c = *r;
    c->elems = NEW_ARRAY(l->a, SVal *, r->n);
    COPY_ARRAY(c->elems, r->elems, r->n);
    for (int i = 0; i < r->n; i++) {
        bool hit = r->kind == SV_RECORD ? r->names[i] == path[0] : (sv_field(r, path[0]) == r->elems[i]);
        if (hit) {
            c->elems[i] = lower_record_update(l, r->elems[i], path + 1, npath - 1, v, loc);
            return c;
        }
    }
    lower_error(l, loc, "no field '%s' to update", path[0]);
}

/* r with <steps> = v: an array of records is a record of arrays, so the
 * fields of the path select the arrays that change and its brackets
 * (indices but for the last, checked) index all of them alike: the
 * update of the selected part at the brackets' indices, put back. */
static SVal *lower_path_update(Lower *l, Env *env, SVal *r, const UpdStep *steps, int n, SVal *v, SrcLoc loc) {
    const char **fields = NEW_ARRAY(l->a, const char *, n);
    int nfields = 0, nidx = 0;
    for (int i = 0; i < n; i++) {
        if (steps[i].field) fields[nfields++] = steps[i].field;
        else nidx += steps[i].nslice;
    }
    DimIndex *idx = NEW_ARRAY(l->a, DimIndex, nidx + 1);
    nidx = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; !steps[i].field && j < steps[i].nslice; j++) idx[nidx++] = steps[i].slice[j];
    SVal *part = project_path(l, r, fields, nfields, loc);
    return lower_record_update(l, r, fields, nfields, lower_update(l, env, part, idx, nidx, v, loc), loc);
}

static SVal *lower_exp_inner(Lower *l, Env *env, Exp *e) {
    switch (e->kind) {
    case EX_HOLE: return lower_hole(l, env, e);
    case EX_INT:
    case EX_FLOAT:
    case EX_BOOL: return lower_literal(l, e);
    case EX_STRING: return lower_string(l, e);
    case EX_VAR: return lower_var(l, env, e);
    case EX_TUPLE: {
        if (e->nelems == 1) return lower_exp(l, env, e->elems[0]);
        SVal **el = NEW_ARRAY(l->a, SVal *, e->nelems);
        for (int i = 0; i < e->nelems; i++) el[i] = lower_exp(l, env, e->elems[i]);
        return sv_tuple(l, el, e->nelems);
    }
    case EX_RECORD: return lower_record(l, env, e);
    case EX_ARRAY: return lower_array(l, env, e);
    case EX_RANGE: return lower_range(l, env, e);
    case EX_PROJECT: return project_path(l, lower_exp(l, env, e->e1), &e->field, 1, e->loc);
    case EX_INDEX: return lower_index(l, env, e);
    case EX_BINOP: return lower_binop_exp(l, env, e);
    case EX_NEG: {
        SVal *x = lower_exp(l, env, e->e1);
        return sv_dyn(l, lower_unop(l, OP_NEG, x->se, e->loc));
    }
    case EX_NOT: {
        SVal *x = lower_exp(l, env, e->e1);
        PrimType t = subexp_type(x->se).elem;
        return sv_dyn(l, lower_unop(l, t == PT_BOOL ? OP_NOT : OP_COMPL, x->se, e->loc));
    }
    case EX_APPLY: {
        SVal *f = lower_exp(l, env, e->e1);
        SVal **args = NEW_ARRAY(l->a, SVal *, e->nelems);
        for (int i = 0; i < e->nelems; i++) args[i] = lower_exp(l, env, e->elems[i]);
        return apply_at(l, f, args, e->nelems, e, env);
    }
    case EX_LAMBDA: {
        SVal *f = sv_fun(l, FK_LAMBDA);
        f->exp = e;
        f->env = env;
        return f;
    }
    case EX_SECTION: return lower_section(l, env, e);
    case EX_PROJ_SECTION: {
        SVal *f = sv_fun(l, FK_PROJECT);
        f->exp = e;
        return f;
    }
    case EX_IF: return lower_if(l, env, e);
    case EX_LET:
    case EX_LETFUN:
    case EX_LET_UPDATE: break; /* lower_exp's loop */
    case EX_LOOP: return lower_loop(l, env, e);
    case EX_UPDATE: {
        SVal *arr = lower_exp(l, env, e->e1);
        SVal *v = lower_exp(l, env, e->e2);
        if (e->nsteps) return lower_path_update(l, env, arr, e->steps, e->nsteps, v, e->loc);
        return lower_update(l, env, arr, e->slice, e->nslice, v, e->loc);
    }
    case EX_RECORD_UPDATE: {
        SVal *r = lower_exp(l, env, e->e1);
        SVal *v = lower_exp(l, env, e->e2);
        return lower_record_update(l, r, e->path, e->npath, v, e->loc);
    }
    case EX_CONSTR: return lower_constr(l, env, e);
    case EX_MATCH: return lower_match(l, env, e);
    case EX_ASCRIBE:
    case EX_OPEN: return lower_exp(l, env, e->e1); /* the checker replaces an EX_OPEN by its body */
    case EX_COERCE: {
        SVal *v = lower_exp(l, env, e->e1);
        lower_match_shape(l, env, e->ty, v, SHAPE_COERCION, e->loc);
        return v;
    }
    case EX_ASSERT: {
        SVal *c = lower_exp(l, env, e->e1);
        if (!l->opts->unsafe) { /* the condition as written, as Futhark reports it */
            Buf text = {0};
            char *src = diag_source_span(e->e1->loc);
            if (!src) ast_print_exp(&text, e->e1);
            lower_assert(l, c->se, arena_printf(l->a, "Assertion is false: %s", src ? src : text.data ? text.data : ""),
                         NULL, 0, e->loc);
            free(src);
            buf_free(&text);
        }
        return lower_exp(l, env, e->e2);
    }
    }
    ICE("unknown expression kind %d", e->kind);
}

/* Whether pattern p binds no name: wildcards, and tuples and records of
 * them (no ascription, which would check a size). */
static bool pat_binds_nothing(const Pat *p) {
    switch (p->kind) {
    case P_WILD: return true;
    case P_TUPLE:
        for (int i = 0; i < p->nelems; i++)
            if (!pat_binds_nothing(p->elems[i])) return false;
        return true;
    case P_RECORD:
        for (int i = 0; i < p->nfields; i++)
            if (!pat_binds_nothing(p->fields[i].pat)) return false;
        return true;
    default: return false;
    }
}

/* Lowers the bound part of one link of a chain of lets; returns the
 * environment of its body. A let whose pattern binds nothing is dead and
 * is left out, with the assertions and checks inside it: Futhark's dead
 * code elimination removes an assertion whose result is unused
 * (`let _ = assert c ()`), and programs rely on it (futhark-benchmarks'
 * poseidon asserts on its inputs so). */
static Env *lower_let_link(Lower *l, Env *env, Exp *e) {
    if (e->kind == EX_LET && !e->ntparams && pat_binds_nothing(e->pat)) return env;
    if (e->kind == EX_LET) return lower_bind_pat(l, env, e->pat, lower_exp(l, env, e->e1));
    if (e->kind == EX_LETFUN) {
        SVal *f = sv_fun(l, FK_LOCAL);
        f->exp = e;
        f->env = lower_env_bind(l, env, e->fname_uid, e->fname, f);
        return f->env;
    }
    SVal *arr = lower_env_lookup_name(env, e->fname);
    if (!arr) lower_error(l, e->loc, "internal: unknown array '%s'", e->fname);
    SVal *v = lower_exp(l, env, e->e1);
    return lower_env_bind(l, env, e->fname_uid, e->fname, lower_update(l, env, arr, e->slice, e->nslice, v, e->loc));
}

/* Lowers e, with l->user_loc at the innermost expression of the user's
 * program being lowered (for user_loc). A chain of lets (let ... in let
 * ... in body) is lowered link by link in a loop, each body being the
 * link's tail, so that a long chain needs no deep stack. */
/* Whether e carries the attribute #[unsafe]. */
static bool attr_unsafe(const Exp *e) {
    for (int i = 0; i < e->nattrs; i++)
        if (strcmp(e->attrs[i].text, "unsafe") == 0) return true;
    return false;
}

/* The versions e's attributes #[incremental_flattening(...)] (or, as
 * Futhark now spells them, #[flattening(...)]) rule out (PinFlags) that
 * l->pin does not already. */
static unsigned attr_pin(const Lower *l, const Exp *e) {
    static const struct {
        const char *arg;
        unsigned pin;
    } args[] = {{"no_outer", PIN_NO_OUTER},
                {"no_intra", PIN_NO_INTRA},
                {"only_inner", PIN_NO_OUTER | PIN_NO_INTRA},
                {"only_intra", PIN_ONLY_INTRA},
                {"sequential_inner", PIN_NO_INTRA | PIN_NO_DIST}};
    static const char *const spellings[] = {"incremental_flattening(%s)", "flattening(%s)"};
    unsigned pin = 0;
    for (int i = 0; i < e->nattrs; i++)
        for (size_t j = 0; j < sizeof args / sizeof args[0]; j++)
            for (int k = 0; k < 2; k++)
                if (!strcmp(e->attrs[i].text, arena_printf(l->a, spellings[k], args[j].arg))) pin |= args[j].pin;
    return pin & ~l->pin;
}

SVal *lower_exp(Lower *l, Env *env, Exp *e) {
    /* #[unsafe] e: e (and what is inlined into it) without the checks
     * --unsafe omits (bounds, division, coercions, assertions) */
    if (!l->opts->unsafe && attr_unsafe(e)) {
        const InternaliseOpts *safe = l->opts;
        InternaliseOpts unsafe = *safe;
        unsafe.unsafe = true;
        l->opts = &unsafe;
        SVal *v = lower_exp(l, env, e);
        l->opts = safe;
        return v;
    }
    unsigned pin = attr_pin(l, e);
    if (pin) {
        l->pin |= pin;
        SVal *v = lower_exp(l, env, e);
        l->pin &= ~pin;
        return v;
    }
    SrcLoc outer = l->user_loc;
    for (; ast_is_let(e); e = e->e2) {
        if (e->loc.file && e->loc.file != l->prelude) l->user_loc = e->loc;
        env = lower_let_link(l, env, e);
    }
    if (e->loc.file && e->loc.file != l->prelude) l->user_loc = e->loc;
    SVal *v = lower_exp_inner(l, env, e);
    l->user_loc = outer;
    return v ? v : sv_dyn(l, se_i64(0));
}

/* ---- Entry points -------------------------------------------------------------------- */

const char *lower_pat_name(const Pat *p) {
    while (p->kind == P_ASCRIBE) p = p->inner;
    return p->kind == P_ID ? p->name : "arg";
}

static Fun *lower_entry(Lower *l, Decl *d) {
    Fun *f = NEW(l->a, Fun);
    f->name = d->name;
    f->loc = d->loc;
    Builder b = {0};
    l->b = &b;
    SVal **extra;
    int nextra;
    Env *env = lower_entry_params(l, d, f, &extra, &nextra);
    current_call_env = env;
    SVal *res = lower_exp(l, env, d->body);
    if (nextra > 0) res = lower_apply(l, res, extra, nextra, NULL);
    const TypeExp *ret;
    const Ty *ret_ty = lower_entry_result(d, &ret);
    if (ret) lower_match_shape(l, env, ret_ty, res, SHAPE_RESULT, d->loc);
    l->b = NULL;
    if (sv_has_fun(res)) lower_error(l, d->loc, "entry point '%s' cannot return a function", d->name);
    SrcLoc outer = l->user_loc;
    l->user_loc = d->body->loc; /* where an irregular result is made regular */
    f->body = lower_finish_body(l, &b, res);
    l->user_loc = outer;
    lower_entry_results(l, d, f);
    return f;
}

typedef VEC(Fun *) FunVec;

/* Lowers the entry points of main into p: every `entry`, then `def main`,
 * which is an entry point too, as in Futhark. */
static void lower_entries(Lower *l, Program *main, Prog *p) {
    FunVec funs = {0};
    for (int i = 0; i < main->ndecls; i++)
        if (main->decls[i]->kind == D_VAL && main->decls[i]->is_entry) vec_push_in(l->a, &funs, lower_entry(l, main->decls[i]));
    for (int i = 0; i < main->ndecls; i++) {
        Decl *d = main->decls[i];
        if (d->kind == D_VAL && !d->is_entry && d->name == intern("main")) vec_push_in(l->a, &funs, lower_entry(l, d));
    }
    p->funs = vec_to_arena(l->a, &funs);
    p->nfuns = funs.len;
    lower_finish_outlining(l);
}

Prog *internalise(Arena *a, Program **files, int n, const InternaliseOpts *opts) {
    Prog *p = NEW(a, Prog);
    p->arena = a;
    p->stage = STAGE_SOACS;
    p->next_var_id = 1;
    jmp_buf bail;
    Lower l = {.a = a, .prog = p, .opts = opts, .bail = &bail, .prelude = n > 1 ? files[0]->file : NULL};
    if (setjmp(bail)) return NULL; /* lower_error reported an error */
    lower_entries(&l, files[n - 1], p);
    return p;
}
