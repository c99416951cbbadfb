/* Entry points as the outside world sees them: each parameter of a
 * primitive type or an array of primitives is one external parameter, a
 * tuple or record is one per component (an array of tuples one per
 * component array); results likewise. Also the C API's view of the values
 * (EntryVal), which groups components back into opaque tuples and records. */
#include "lower.h"

#include <string.h>

/* ---- Parameters ------------------------------------------------------------------------ */

/* The external type of a checked entry parameter or result type. */
static bool ext_type(const Ty *t, ExtType *out) {
    if (t->kind == TY_PRIM) {
        *out = (ExtType){t->prim, 0, t->unique};
        return true;
    }
    if (t->kind == TY_ARRAY && t->elem->kind == TY_PRIM) {
        *out = (ExtType){t->elem->prim, t->rank, t->unique};
        return true;
    }
    return false;
}

/* Creates the parameter variable of an entry parameter of type t, sharing
 * size variables between parameters that name the same size; a constant
 * size is the dimension itself. The program checks that the arguments
 * have those sizes (runtime/main.c); lower_entry_params checks the other
 * sizes that types fix (expressions, names of other parameters). */
static Var *entry_param(Lower *l, Env **env, const Ty *t, ExtType ext, const char *name) {
    if (ext.rank == 0) return ir_var(l->prog, name, type_prim(ext.elem));
    SubExp *shape = NEW_ARRAY(l->a, SubExp, ext.rank);
    for (int d = 0; d < ext.rank; d++) {
        const Size *s = &t->dims[d];
        if (s->kind != SZ_EXP && lower_try_size(l, *env, s, &shape[d])) continue;
        bool named = s->kind == SZ_VAR && s->name;
        shape[d] = se_var(ir_var(l->prog, named ? s->name : "d", type_prim(PT_I64)));
        if (s->kind == SZ_VAR) *env = lower_env_bind(l, *env, s->uid, s->name, sv_dyn(l, shape[d]));
    }
    Type ty = type_array(l->a, ext.elem, ext.rank, shape);
    ty.unique = ext.unique;
    return ir_var(l->prog, name, ty);
}

typedef VEC(Var *) VarVec;
typedef VEC(ExtType) ExtVec;

/* t with each sum type as its representation (lower_sum_repr: the tuple
 * of its tag and every constructor's payload), which is how an entry
 * point takes and returns it: an opaque value of the C API whose
 * components are those of the tuple. */
static const Ty *sums_as_tuples(Lower *l, const Ty *t) {
    if (t->kind == TY_SUM) return sums_as_tuples(l, lower_sum_repr(l, t));
    if (t->kind == TY_ARRAY) {
        const Ty *e = sums_as_tuples(l, t->elem);
        if (e == t->elem) return t;
        Ty *c = NEW(l->a, Ty);
        *c = *t;
        c->elem = (Ty *)e;
        return c;
    }
    if (t->kind != TY_TUPLE && t->kind != TY_RECORD) return t;
    Ty *c = NULL;
    for (int i = 0; i < t->n; i++) {
        const Ty *f = t->kind == TY_TUPLE ? t->elems[i] : t->fields[i].ty, *g = sums_as_tuples(l, f);
        if (g == f) continue;
        if (!c) c = ty_copy_parts(l->a, t);
        if (t->kind == TY_TUPLE) c->elems[i] = (Ty *)g;
        else c->fields[i].ty = (Ty *)g;
    }
    return c ? c : t;
}

/* The value of an entry parameter of checked type t: a primitive or array
 * is one external parameter; a tuple or record of them is several, one
 * per component (a unit parameter is none). */
static SVal *entry_value(Lower *l, Env **env, const Ty *t, const char *name, VarVec *vars, ExtVec *exts, SrcLoc loc) {
    ExtType ext;
    t = sums_as_tuples(l, t);
    if (ext_type(t, &ext)) {
        Var *v = entry_param(l, env, t, ext, name);
        vec_push_in(l->a, vars, v);
        vec_push_in(l->a, exts, ext);
        return sv_dyn(l, se_var(v));
    }
    if (t->kind == TY_ARRAY && (t->elem->kind == TY_TUPLE || t->elem->kind == TY_RECORD)) {
        /* an array of tuples is a tuple of arrays: one parameter each */
        const Ty *e = t->elem;
        Ty *split = NEW(l->a, Ty);
        *split = *e;
        split->elems = NEW_ARRAY(l->a, Ty *, e->n);
        split->fields = NEW_ARRAY(l->a, TyField, e->n);
        for (int i = 0; i < e->n; i++) {
            const Ty *c = e->kind == TY_TUPLE ? e->elems[i] : e->fields[i].ty;
            Ty *arr = NEW(l->a, Ty);
            *arr = *t;
            if (c->kind == TY_ARRAY) { /* [n]([m]t) is [n][m]t */
                arr->rank = t->rank + c->rank;
                arr->dims = NEW_ARRAY(l->a, Size, arr->rank);
                COPY_ARRAY(arr->dims, t->dims, t->rank);
                COPY_ARRAY(arr->dims + t->rank, c->dims, c->rank);
                c = c->elem;
            }
            arr->elem = (Ty *)c;
            if (e->kind == TY_TUPLE) split->elems[i] = arr;
            else split->fields[i] = (TyField){e->fields[i].name, arr};
        }
        return entry_value(l, env, split, name, vars, exts, loc);
    }
    if (t->kind == TY_TUPLE || t->kind == TY_RECORD) {
        SVal *v = NEW(l->a, SVal);
        v->kind = t->kind == TY_TUPLE ? SV_TUPLE : SV_RECORD;
        v->n = t->n;
        v->elems = NEW_ARRAY(l->a, SVal *, t->n);
        v->names = NEW_ARRAY(l->a, const char *, t->n);
        for (int i = 0; i < t->n; i++) {
            const Ty *et = t->kind == TY_TUPLE ? t->elems[i] : t->fields[i].ty;
            if (t->kind == TY_RECORD) v->names[i] = t->fields[i].name;
            v->elems[i] = entry_value(l, env, et, name, vars, exts, loc);
        }
        return v;
    }
    lower_error(l, loc, "entry point parameters must be primitives, arrays of primitives, or tuples and records of those");
}

/* ---- The C API's view of entry values (EntryVal) ------------------------------------- */

static bool ty_is_compound(const Ty *t) { return t->kind == TY_TUPLE || t->kind == TY_RECORD; }

/* The number of components a value of type t flattens to (as entry_value
 * and sv_leaves flatten it: an array of tuples is a tuple of arrays). */
static int ev_leaves(const Ty *t) {
    if (t->kind == TY_ARRAY && ty_is_compound(t->elem)) return ev_leaves(t->elem);
    if (!ty_is_compound(t)) return 1;
    int n = 0;
    for (int i = 0; i < t->n; i++) n += ev_leaves(t->kind == TY_TUPLE ? t->elems[i] : t->fields[i].ty);
    return n;
}

/* A structural name of t for the C API: "tup2_f32_arr1d_i64", "rec_x_f32_y_f32". */
static void ev_struct_name(Buf *b, const Ty *t) {
    if (t->kind == TY_PRIM) buf_puts(b, prim_name(t->prim));
    else if (t->kind == TY_ARRAY) {
        buf_printf(b, "arr%dd_", t->rank);
        ev_struct_name(b, t->elem);
    } else if (t->kind == TY_TUPLE) {
        buf_printf(b, "tup%d", t->n);
        for (int i = 0; i < t->n; i++) buf_putc(b, '_'), ev_struct_name(b, t->elems[i]);
    } else if (t->kind == TY_RECORD) {
        buf_puts(b, "rec");
        for (int i = 0; i < t->n; i++) buf_printf(b, "_%s_", t->fields[i].name), ev_struct_name(b, t->fields[i].ty);
    } else buf_puts(b, "t");
}

/* Appends to b the name of the type abbreviation an annotation names,
 * with size arguments (`cloud [n]`: cloud) and type arguments that are
 * names themselves (`irregular [n] f32`: irregular_f32); false (nothing
 * appended) for any other annotation. */
static bool te_abbrev(Buf *b, const TypeExp *te) {
    while (te && te->kind == TE_UNIQUE) te = te->elem;
    if (!te || te->kind != TE_NAME) return false;
    for (int i = 0; i < te->nargs; i++)
        if (!te->args[i].is_size && (te->args[i].type->kind != TE_NAME || te->args[i].type->nargs)) return false;
    buf_puts(b, te->name.parts[te->name.nparts - 1]);
    for (int i = 0; i < te->nargs; i++)
        if (!te->args[i].is_size) buf_printf(b, "_%s", te->args[i].type->name.parts[te->args[i].type->name.nparts - 1]);
    return true;
}

/* The C API's name of an opaque type t annotated te (or NULL): the
 * abbreviation's name when there is one, else a structural name; only
 * letters, digits and '_'. */
static const char *ev_opaque_name(Lower *l, const Ty *t, const TypeExp *te) {
    Buf b = {0};
    if (!te_abbrev(&b, te)) ev_struct_name(&b, t);
    char *name = arena_strdup(l->a, b.data);
    buf_free(&b);
    for (char *c = name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9'))) *c = '_';
    return name;
}

/* The entry value of type t (annotated te, or NULL), whose components
 * start at *next; advances *next past them. */
static EntryVal ev_make(Lower *l, const Ty *t, const TypeExp *te, int *next) {
    t = sums_as_tuples(l, t);
    EntryVal v = {.first = *next, .n = ev_leaves(t)};
    bool compound = ty_is_compound(t);
    if (!compound && !(t->kind == TY_ARRAY && ty_is_compound(t->elem))) {
        *next += v.n;
        return v;
    }
    v.opaque = ev_opaque_name(l, t, te);
    if (!compound) {
        *next += v.n;
        return v;
    }
    v.nfields = t->n;
    v.fields = NEW_ARRAY(l->a, EntryVal, t->n + 1);
    v.field_names = NEW_ARRAY(l->a, const char *, t->n + 1);
    for (int i = 0; i < t->n; i++) {
        v.field_names[i] = t->kind == TY_TUPLE ? arena_printf(l->a, "%d", i) : t->fields[i].name;
        v.fields[i] = ev_make(l, t->kind == TY_TUPLE ? t->elems[i] : t->fields[i].ty, NULL, next);
    }
    return v;
}

/* The annotation of a parameter pattern, or NULL. */
static const TypeExp *pat_annotation(const Pat *p) { return p->kind == P_ASCRIBE ? p->type : NULL; }

/* The C API's values of d's results (f's nret components): a top-level
 * tuple is one value per component unless an abbreviation names it. Sets
 * nothing when the types do not account for the components. */
static void ev_results(Lower *l, const Decl *d, Fun *f) {
    if (!d->ret_ty) return;
    const TypeExp *ret;
    const Ty *t = lower_entry_result(d, &ret);
    Buf name = {0};
    bool split = t->kind == TY_TUPLE && !te_abbrev(&name, ret);
    buf_free(&name);
    int n = split ? t->n : 1, next = 0, k = 0;
    EntryVal *vals = NEW_ARRAY(l->a, EntryVal, n + 1);
    for (int i = 0; i < n; i++) {
        const TypeExp *te = split && ret && ret->kind == TE_TUPLE && i < ret->nelems ? ret->elems[i] : NULL;
        EntryVal v = ev_make(l, split ? t->elems[i] : t, split ? te : ret, &next);
        if (v.n > 0 || v.opaque) vals[k++] = v;
    }
    if (next != f->nret) return;
    f->out_vals = vals;
    f->nout_vals = k;
}

/* ---- Entry points ------------------------------------------------------------------------- */

const Ty *lower_entry_result(const Decl *d, const TypeExp **te) {
    const Ty *t = d->ret_ty;
    const TypeExp *r = d->ret;
    for (; t && t->kind == TY_ARROW; t = t->result) r = r && r->kind == TE_ARROW ? r->result : NULL;
    *te = r;
    return t;
}

/* The parameters of entry point d, those written and those its function
 * result adds (numbered from d->nparams on). */
static int entry_nparams(const Decl *d) {
    int n = d->nparams;
    for (const Ty *t = d->ret_ty; t && t->kind == TY_ARROW; t = t->result) n++;
    return n;
}

typedef struct EntryParam {
    const Ty *ty;
    const TypeExp *te; /* annotation or NULL */
    const char *name;
    int uid;           /* a named parameter of an arrow type, for its sizes; else 0 */
    SrcLoc loc;
} EntryParam;

static EntryParam entry_param_at(const Decl *d, int i) {
    if (i < d->nparams) {
        const Pat *p = d->params[i];
        const Ty *t = d->param_tys ? d->param_tys[i] : p->ty;
        if (!t) ICE("entry parameter without a type");
        return (EntryParam){t, pat_annotation(p), lower_pat_name(p), 0, p->loc};
    }
    const Ty *t = d->ret_ty;
    const TypeExp *te = d->ret;
    for (int k = d->nparams; k < i; k++) {
        t = t->result;
        te = te && te->kind == TE_ARROW ? te->result : NULL;
    }
    const TypeExp *pte = te && te->kind == TE_ARROW ? te->param : NULL;
    return (EntryParam){t->param, pte, t->pname ? t->pname : "x", t->pname ? t->var : 0, d->ret ? d->ret->loc : d->loc};
}

Env *lower_entry_params(Lower *l, const Decl *d, Fun *f, SVal ***extra, int *nextra) {
    Env *env = NULL;
    VarVec vars = {0};
    ExtVec exts = {0};
    int n = entry_nparams(d);
    SVal **vals = NEW_ARRAY(l->a, SVal *, n + 1);
    EntryVal *ins = NEW_ARRAY(l->a, EntryVal, n + 1);
    bool views = true;
    for (int i = 0; i < n; i++) {
        EntryParam p = entry_param_at(d, i);
        int next = vars.len;
        vals[i] = entry_value(l, &env, p.ty, p.name, &vars, &exts, p.loc);
        EntryVal v = ev_make(l, p.ty, p.te, &next);
        if (next != vars.len) views = false;
        if (v.n > 0 || v.opaque) ins[f->nin_vals++] = v;
    }
    if (views) f->in_vals = ins;
    else f->nin_vals = 0;
    f->nparams = vars.len;
    f->params = vec_to_arena(l->a, &vars);
    f->param_ext = vec_to_arena(l->a, &exts);
    for (int i = 0; i < d->nparams; i++) env = lower_bind_pat(l, env, d->params[i], vals[i]);
    for (int i = d->nparams; i < n; i++) {
        EntryParam p = entry_param_at(d, i);
        if (p.uid) env = lower_env_bind(l, env, p.uid, p.name, vals[i]);
    }
    for (int i = 0; i < n; i++) {
        EntryParam p = entry_param_at(d, i);
        env = lower_match_shape(l, env, p.ty, vals[i], SHAPE_ENTRY, p.loc);
    }
    *extra = vals + d->nparams;
    *nextra = n - d->nparams;
    return env;
}

void lower_entry_results(Lower *l, const Decl *d, Fun *f) {
    f->nret = f->body->nres;
    f->ret = NEW_ARRAY(l->a, Type, f->nret);
    f->ret_ext = NEW_ARRAY(l->a, ExtType, f->nret);
    for (int i = 0; i < f->nret; i++) {
        Type t = subexp_type(f->body->res[i]);
        f->ret[i] = t;
        f->ret_ext[i] = (ExtType){t.elem, t.kind == TK_ARRAY ? t.rank : 0, true};
    }
    ev_results(l, d, f);
}
