/* Module types (signatures): evaluating module type expressions, and
 * checking a module type's specifications against a module, which either
 * matches the module (the view of it a parametric module's body sees) or
 * seals it (ascription: abstract types become new types). modules.c's
 * first comment describes the design.
 *
 * A structure's module type is checked specification by specification in
 * the scope it was written in (Sig.env), each binding its name for those
 * after it: an abstract type to the module's type (matching) or to a new
 * abstract type (sealing), a value to the module's value, a module to its
 * view or sealing. A module type thus means what its names meant where it
 * was written, and later specifications (val xs: [n]t) refer to the
 * earlier ones as the module defines them. */
#include <string.h>

#include "check_internal.h"

typedef enum RMode { R_MATCH, R_SEAL } RMode;

/* What a module type's specifications are checked against. */
typedef struct Realise {
    RMode mode;
    Module *m;          /* the module; NULL: sealing for nothing (a parameter) */
    const char *path;   /* the module's path, for the names of abstract types */
    const char *rel;    /* the path below the module type's top, for messages */
    SrcLoc loc;         /* the ascription or application */
    Refine *refs;       /* refinements, paths relative to this level */
    int nrefs;
} Realise;

static Module *realise(Sig *s, const Realise *r);

static const char *qualify(const char *path, const char *name) {
    return path ? intern(arena_printf(tc.a, "%s.%s", path, name)) : name;
}

/* ---- Abstract types ------------------------------------------------------------ */

Ty *tc_abs_expand(Ty *t) {
    if (t->kind != TY_ABSTRACT || t->var < 0 || t->var >= tc.abstracts.len) return NULL;
    TypeAbbr *def = tc.abstracts.items[t->var].def;
    if (!def) return NULL;
    Subst s = {NEW_ARRAY(tc.a, int, def->nparams + 1), NEW_ARRAY(tc.a, Ty *, def->nparams + 1), 0,
               NEW_ARRAY(tc.a, int, def->nparams + 1), NEW_ARRAY(tc.a, Size, def->nparams + 1), 0};
    for (int i = 0; i < def->nparams; i++) {
        if (def->params[i].kind == TP_SIZE) {
            if (s.ns >= t->rank) return NULL;
            s.skeys[s.ns] = def->keys[i];
            s.svals[s.ns] = t->dims[s.ns];
            s.ns++;
        } else {
            if (s.nt >= t->n) return NULL;
            s.tkeys[s.nt] = def->keys[i];
            s.tvals[s.nt] = t->elems[s.nt];
            s.nt++;
        }
    }
    return tc_subst(def->body, &s);
}

bool tc_size_lifted(Ty *t) {
    t = tc_head(t);
    switch (t->kind) {
    case TY_ABSTRACT:
        if (tc.abstracts.items[t->var].lifted == LIFT_SIZES) return true;
        /* fall through */
    case TY_TUPLE:
        for (int i = 0; i < t->n; i++)
            if (tc_size_lifted(t->elems[i])) return true;
        return false;
    case TY_RECORD:
    case TY_SUM:
        for (int i = 0; i < t->n; i++)
            if (tc_size_lifted(t->fields[i].ty)) return true;
        return false;
    case TY_ARRAY:
        return tc_size_lifted(t->elem);
    default:
        return false;
    }
}

/* Brings type parameters into scope (reporting duplicates), with their
 * keys in keys (type variable ids, size uids). */
static void bind_params(TypeParam *tps, int n, int *keys) {
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++)
            if (strcmp(tps[j].name, tps[i].name) == 0)
                tc_fail(tps[i].loc, "Type parameter \"%s\" previously defined at %d:%d.", tps[i].name,
                        tps[j].loc.line, tps[j].loc.col);
        keys[i] = tc_bind_tparam(&tps[i]);
    }
}

/* The type that parameter i (of key key) of a type stands for. */
static Ty *param_type(const TypeParam *tp, int key) {
    Ty *v = NEW(tc.a, Ty);
    v->kind = TY_VAR;
    v->var = key;
    v->var_name = tp->name;
    return v;
}

/* A new abstract type for specification sp at qname, standing for def
 * (NULL: for nothing), as an abbreviation applying it to its parameters. */
static TypeAbbr *new_abstract(Spec *sp, const char *qname, TypeAbbr *def) {
    AbsType a = {.name = qname, .lifted = sp->lifted, .params = sp->tparams, .nparams = sp->ntparams, .def = def};
    vec_push(&tc.abstracts, a);
    TypeAbbr *ab = NEW(tc.a, TypeAbbr);
    ab->name = sp->name;
    ab->nparams = sp->ntparams;
    ab->params = NEW_ARRAY(tc.a, TypeParam, sp->ntparams + 1);
    COPY_ARRAY(ab->params, sp->tparams, sp->ntparams);
    ab->keys = NEW_ARRAY(tc.a, int, sp->ntparams + 1);
    ab->lifted = sp->lifted;
    int mark = tc_mark();
    bind_params(ab->params, ab->nparams, ab->keys);
    tc_pop_to(mark);
    Ty *t = NEW(tc.a, Ty);
    t->kind = TY_ABSTRACT;
    t->var = tc.abstracts.len - 1;
    t->var_name = qname;
    t->elems = NEW_ARRAY(tc.a, Ty *, sp->ntparams + 1);
    t->dims = NEW_ARRAY(tc.a, Size, sp->ntparams + 1);
    for (int i = 0; i < ab->nparams; i++) {
        if (ab->params[i].kind == TP_SIZE) t->dims[t->rank++] = tc_size_var(ab->keys[i], ab->params[i].name);
        else t->elems[t->n++] = param_type(&ab->params[i], ab->keys[i]);
    }
    ab->body = t;
    return ab;
}

/* ---- Showing specifications ------------------------------------------------------ */

static const char *const lift_kw[] = {"type", "type~", "type^"};

static void show_params(Buf *b, const TypeParam *tps, int n) {
    static const char *const prefix[] = {"'", "'~", "'^"};
    for (int i = 0; i < n; i++) {
        if (tps[i].kind == TP_SIZE) buf_printf(b, " [%s]", tps[i].name);
        else buf_printf(b, " %s%s", prefix[tps[i].kind], tps[i].name);
    }
}

/* "type t 'a = body" (or without "= body" for an abstract type). */
static const char *show_abbr(const TypeAbbr *ab, const char *qname, bool abstract) {
    Buf b = {0};
    buf_printf(&b, "%s %s", lift_kw[ab->lifted], qname);
    show_params(&b, ab->params, ab->nparams);
    if (!abstract) buf_printf(&b, " = %s", tc_show(ab->body));
    const char *s = arena_strndup(tc.a, b.data ? b.data : "", b.len);
    buf_free(&b);
    return s;
}

/* "val name 'a [n] : type": tps are the value's type parameters. */
static const char *show_val(const char *qname, const TypeParam *tps, int ntps, const Scheme *sch) {
    Buf b = {0};
    buf_printf(&b, "val %s", qname);
    show_params(&b, tps, ntps);
    buf_printf(&b, " : %s", tc_show(sch->ty));
    const char *s = arena_strndup(tc.a, b.data, b.len);
    buf_free(&b);
    return s;
}

/* ---- Types -------------------------------------------------------------------- */

/* Whether two parameter lists have the same kinds (sizes, types). */
static bool same_param_kinds(const TypeParam *a, int na, const TypeParam *b, int nb) {
    if (na != nb) return false;
    for (int i = 0; i < na; i++)
        if ((a[i].kind == TP_SIZE) != (b[i].kind == TP_SIZE)) return false;
    return true;
}

static bool any_anonymous(Ty *t);

/* Checks that the module's type mab may stand for abstract specification
 * sp: the same parameters, no more lifted, and every size parameter the
 * size of an array in it (so that a value of the type holds the size). */
static void check_abstract_def(Spec *sp, TypeAbbr *mab, const char *qname, SrcLoc loc) {
    TypeAbbr spec_ab = {.name = sp->name, .params = sp->tparams, .nparams = sp->ntparams, .lifted = sp->lifted};
    if (!same_param_kinds(sp->tparams, sp->ntparams, mab->params, mab->nparams))
        tc_fail(loc, "Module defines %s, but module type requires %s.", show_abbr(mab, qname, false),
                show_abbr(&spec_ab, qname, true));
    if (mab->lifted > sp->lifted)
        tc_fail(loc, "Module defines %s, but module type requires %s.", show_abbr(mab, qname, false),
                sp->lifted == LIFT_NONE ? "a non-lifted type" : "a size-lifted type");
    if (sp->lifted == LIFT_NONE && any_anonymous(mab->body))
        tc_fail(loc, "Module defines %s, which contains anonymous sizes, but module type requires a non-lifted type.",
                show_abbr(mab, qname, false));
    for (int i = 0; i < mab->nparams; i++)
        if (mab->params[i].kind == TP_SIZE && !tc_size_in_data(mab->body, mab->keys[i], true))
            tc_fail(loc, "Type %s cannot be made abstract because size parameter \"%s\" is not used constructively "
                         "as an array size in the definition.",
                    show_abbr(mab, qname, false), mab->params[i].name);
}

/* The abbreviation of a type specification "type t params = type", or of
 * a refinement's type; lifted is what it is declared as. */
static TypeAbbr *eval_abbr(const char *name, TypeParam *tps, int ntps, TypeExp *te, Liftedness lifted, SrcLoc loc,
                           bool check_lifted) {
    TypeAbbr *ab = NEW(tc.a, TypeAbbr);
    ab->name = name;
    ab->nparams = ntps;
    ab->params = NEW_ARRAY(tc.a, TypeParam, ntps + 1);
    COPY_ARRAY(ab->params, tps, ntps);
    ab->keys = NEW_ARRAY(tc.a, int, ntps + 1);
    ab->lifted = lifted;
    int mark = tc_mark();
    bind_params(ab->params, ntps, ab->keys);
    ab->body = tc_type_exp(te, false);
    tc_pop_to(mark);
    if (check_lifted && lifted != LIFT_FULL && tc_contains_arrow(ab->body))
        tc_fail(loc, "Non-lifted type abbreviations may not contain functions.");
    return ab;
}

/* Both abbreviations' bodies with their parameters replaced by the same
 * new rigid types and sizes (same_param_kinds holds). */
static void common_bodies(TypeAbbr *a, TypeAbbr *b, Ty **ta, Ty **tb) {
    int n = a->nparams;
    Subst sa = {a->keys, NEW_ARRAY(tc.a, Ty *, n + 1), 0, a->keys, NEW_ARRAY(tc.a, Size, n + 1), 0};
    Subst sb = {b->keys, NEW_ARRAY(tc.a, Ty *, n + 1), 0, b->keys, NEW_ARRAY(tc.a, Size, n + 1), 0};
    int *tka = NEW_ARRAY(tc.a, int, n + 1), *ska = NEW_ARRAY(tc.a, int, n + 1);
    int *tkb = NEW_ARRAY(tc.a, int, n + 1), *skb = NEW_ARRAY(tc.a, int, n + 1);
    for (int i = 0; i < n; i++) {
        if (a->params[i].kind == TP_SIZE) {
            int uid = tc_new_uid();
            tc_set_strict(uid);
            ska[sa.ns] = a->keys[i];
            skb[sb.ns] = b->keys[i];
            sa.svals[sa.ns++] = sb.svals[sb.ns++] = tc_size_var(uid, a->params[i].name);
        } else {
            Ty *v = tc_fresh_rigid(a->params[i].name, a->params[i].kind == TP_TYPE_LIFTED);
            tka[sa.nt] = a->keys[i];
            tkb[sb.nt] = b->keys[i];
            sa.tvals[sa.nt++] = sb.tvals[sb.nt++] = v;
        }
    }
    sa.tkeys = tka, sa.skeys = ska, sb.tkeys = tkb, sb.skeys = skb;
    *ta = tc_subst(a->body, &sa);
    *tb = tc_subst(b->body, &sb);
}

/* Checks that the module's type mab is the one specification sab defines. */
static void check_manifest(TypeAbbr *sab, TypeAbbr *mab, const char *qname, SrcLoc loc) {
    const char *why = "";
    if (same_param_kinds(sab->params, sab->nparams, mab->params, mab->nparams)) {
        Ty *st, *mt;
        common_bodies(sab, mab, &st, &mt);
        why = tc_try_unify(st, mt, U_STRICT, NULL);
        if (!why) return;
    }
    tc_fail(loc, "Module defines %s, but module type requires %s. %s", show_abbr(mab, qname, false),
            show_abbr(sab, qname, false), why);
}

/* The refinement of type name at this level, or NULL. */
static Refine *find_refine(const Realise *r, const char *name) {
    for (int i = r->nrefs - 1; i >= 0; i--)
        if (r->refs[i].npath == 1 && strcmp(r->refs[i].path[0], name) == 0) return &r->refs[i];
    return NULL;
}

static void type_spec(Spec *sp, const Realise *r) {
    Refine *rf = find_refine(r, sp->name);
    const char *qname = qualify(r->rel, sp->name);
    Binding *mb = NULL;
    if (r->m) {
        mb = tc_lookup_in(r->m, sp->name, NS_TYPE);
        if (!mb) tc_fail(r->loc, "Module does not define a type named \"%s\".", sp->name);
    }
    TypeAbbr *ab;
    bool check = r->mode == R_MATCH && mb->abbr;
    if (!sp->type && !rf) {
        if (check) check_abstract_def(sp, mb->abbr, qname, r->loc);
        if (r->mode == R_MATCH) {
            tc_push(*mb);
            return;
        }
        ab = new_abstract(sp, qualify(r->path, sp->name), mb ? mb->abbr : NULL);
    } else {
        ab = rf ? rf->abbr : eval_abbr(sp->name, sp->tparams, sp->ntparams, sp->type, sp->lifted, sp->loc, true);
        if (check) check_manifest(ab, mb->abbr, qname, r->loc);
    }
    tc_push((Binding){.name = sp->name, .ns = NS_TYPE, .loc = sp->loc, .abbr = ab});
}

/* ---- Values -------------------------------------------------------------------- */

static bool any_anonymous(Ty *t) {
    t = tc_head(t);
    switch (t->kind) {
    case TY_ARRAY:
        for (int i = 0; i < t->rank; i++)
            if (tc_size_resolve(t->dims[i]).kind == SZ_ANY) return true;
        return any_anonymous(t->elem);
    case TY_TUPLE:
    case TY_ABSTRACT:
        for (int i = 0; i < t->n; i++)
            if (any_anonymous(t->elems[i])) return true;
        return false;
    case TY_RECORD:
    case TY_SUM:
        for (int i = 0; i < t->n; i++)
            if (any_anonymous(t->fields[i].ty)) return true;
        return false;
    default:
        return false;
    }
}

/* Whether type expression te writes an anonymous size ([]). */
static bool writes_anonymous(TypeExp *te) {
    if (!te) return false;
    if (te->kind == TE_ARRAY && !te->dim) return true;
    for (int i = 0; i < te->nargs; i++)
        if (te->args[i].is_size ? !te->args[i].size : writes_anonymous(te->args[i].type)) return true;
    for (int i = 0; i < te->nelems; i++)
        if (writes_anonymous(te->elems[i])) return true;
    for (int i = 0; i < te->nfields; i++)
        if (writes_anonymous(te->fields[i].type)) return true;
    return writes_anonymous(te->elem) || writes_anonymous(te->param) || writes_anonymous(te->result);
}

/* Reports an anonymous size ([]) in the parameter of a function type: a
 * value specification must name the sizes its arguments have. */
static void check_param_sizes(TypeExp *te, const char *name, SrcLoc loc) {
    for (; te && te->kind == TE_ARROW; te = te->result)
        if (writes_anonymous(te->param))
            tc_fail(loc, "All function parameters must have non-anonymous sizes. Hint: add size parameters to \"%s\".",
                    name);
}

/* Reports a parameter name bound twice along a chain of arrows. */
static void check_param_names(Ty *t, SrcLoc loc) {
    for (t = tc_head(t); t->kind == TY_ARROW; t = tc_head(t->result)) {
        if (!t->pname) continue;
        for (Ty *u = tc_head(t->result); u->kind == TY_ARROW; u = tc_head(u->result))
            if (u->pname && strcmp(u->pname, t->pname) == 0)
                tc_fail(loc, "Parameter \"%s\" is bound twice in this type.", t->pname);
    }
}

/* Reports a value specification whose type, outside functions, names a
 * size-lifted type the module defines with an unknown size: the value's
 * type would have a size nothing determines (Futhark's rule). */
static void check_top_sizes(TypeExp *te, const char *name, SrcLoc loc) {
    if (!te) return;
    switch (te->kind) {
    case TE_NAME: {
        Binding *b = te->name.nparts == 1 ? tc_lookup(te->name.parts[0], NS_TYPE) : NULL;
        if (b && b->abbr && b->abbr->lifted == LIFT_SIZES && any_anonymous(b->abbr->body))
            tc_fail(loc, "Type substitution in \"%s\" results in a top-level size.", name);
        break;
    }
    case TE_TUPLE:
        for (int i = 0; i < te->nelems; i++) check_top_sizes(te->elems[i], name, loc);
        break;
    case TE_RECORD:
        for (int i = 0; i < te->nfields; i++) check_top_sizes(te->fields[i].type, name, loc);
        break;
    case TE_UNIQUE:
        check_top_sizes(te->elem, name, loc);
        break;
    default:
        break;
    }
}

/* The number of parameters of a function type. */
static int arity(Ty *t) {
    int n = 0;
    for (t = tc_head(t); t->kind == TY_ARROW; t = tc_head(t->result)) n++;
    return n;
}

/* The scheme of value specification sp; validate: report what is wrong
 * in the specification itself. */
static Scheme *spec_scheme(Spec *sp, bool validate) {
    Scheme *sch = NEW(tc.a, Scheme);
    int n = sp->ntparams;
    int *keys = NEW_ARRAY(tc.a, int, n + 1);
    sch->tvars = NEW_ARRAY(tc.a, int, n + 1);
    sch->svars = NEW_ARRAY(tc.a, int, n + 1);
    sch->svar_names = NEW_ARRAY(tc.a, const char *, n + 1);
    int mark = tc_mark();
    bind_params(sp->tparams, n, keys);
    for (int i = 0; i < n; i++) {
        if (sp->tparams[i].kind == TP_SIZE) {
            sch->svar_names[sch->nsvars] = sp->tparams[i].name;
            sch->svars[sch->nsvars++] = keys[i];
        } else {
            sch->tvars[sch->ntvars++] = keys[i];
        }
    }
    sch->ty = tc_type_exp(sp->type, false);
    tc_pop_to(mark);
    if (validate) {
        check_param_sizes(sp->type, sp->name, sp->loc);
        check_param_names(sch->ty, sp->loc);
    }
    sch->nparams = arity(sch->ty);
    return sch;
}

/* A fresh instance of sch; tvals and sizes get what its type variables and
 * sizes became. */
static Ty *instance(Scheme *sch, Ty ***tvals, Size **sizes) {
    Subst s = {sch->tvars, NEW_ARRAY(tc.a, Ty *, sch->ntvars + 1), sch->ntvars,
               sch->svars, NEW_ARRAY(tc.a, Size, sch->nsvars + 1), sch->nsvars};
    for (int i = 0; i < sch->ntvars; i++) {
        TVar *old = &tc.vars.items[sch->tvars[i]];
        bool eq = old->eq;
        unsigned prims = old->prims;
        Ty *v = tc_fresh(old->loc);
        tc.vars.items[v->var].eq = eq;
        tc.vars.items[v->var].prims = prims;
        s.tvals[i] = v;
    }
    for (int i = 0; i < sch->nsvars; i++) s.svals[i] = tc_fresh_size();
    *tvals = s.tvals;
    *sizes = s.svals;
    return tc_subst(sch->ty, &s);
}

/* Why the module's type m (an instance unified with the specification's s)
 * is not what s requires in uniqueness or sizes: a unique result that is
 * not, or an unknown size where s has one; NULL if none. positive: a result
 * rather than a parameter. declared: m's results are as declared (an
 * inferred result is never unique here, where Futhark infers uniqueness,
 * so only a declared one is held to the specification's). */
static const char *finer_mismatch(Ty *s, Ty *m, bool positive, bool declared) {
    bool su = s->unique, mu = m->unique;
    s = tc_head(s);
    m = tc_head(m);
    su |= s->unique;
    mu |= m->unique;
    if (declared && positive && su && !mu && (s->kind == TY_ARRAY || s->kind == TY_ABSTRACT))
        return arena_printf(tc.a, "The module's %s is not unique.", tc_show(m));
    if (s->kind != m->kind) return NULL;
    const char *r = NULL;
    switch (s->kind) {
    case TY_ARRAY:
        for (int i = 0; positive && i < s->rank && i < m->rank; i++) {
            Size a = tc_size_resolve(s->dims[i]), b = tc_size_resolve(m->dims[i]);
            if (b.kind == SZ_ANY && a.kind != SZ_ANY)
                return arena_printf(tc.a, "Sizes of %s and %s do not match.", tc_show(s), tc_show(m));
        }
        return s->rank == m->rank ? finer_mismatch(s->elem, m->elem, positive, declared) : NULL;
    case TY_TUPLE:
        for (int i = 0; i < s->n && i < m->n && !r; i++)
            r = finer_mismatch(s->elems[i], m->elems[i], positive, declared);
        return r;
    case TY_RECORD:
    case TY_SUM:
        for (int i = 0; i < s->n && i < m->n && !r; i++)
            r = finer_mismatch(s->fields[i].ty, m->fields[i].ty, positive, declared);
        return r;
    case TY_ARROW:
        r = finer_mismatch(s->param, m->param, !positive, declared);
        return r ? r : finer_mismatch(s->result, m->result, positive, declared);
    default:
        return NULL;
    }
}

/* Why module value mb does not have specification scheme ss's type, or
 * NULL. The module's value may be more polymorphic, more unique in its
 * results and less demanding of its arguments. */
static const char *value_mismatch(Scheme *ss, Binding *mb, Size **msizes) {
    for (int i = 0; i < ss->nsvars; i++) tc_set_strict(ss->svars[i]);
    Ty **tvals;
    Ty *mt = instance(mb->sch, &tvals, msizes);
    const char *why = tc_try_unify(ss->ty, mt, U_DIET, NULL);
    if (why) return why;
    for (int i = 0; i < mb->sch->ntvars; i++)
        if (!tc.vars.items[mb->sch->tvars[i]].lifted && tc_contains_arrow(tvals[i]))
            return arena_printf(tc.a, "The module's type parameter \"%s\" may not stand for the lifted type %s.",
                                tc.vars.items[mb->sch->tvars[i]].name ? tc.vars.items[mb->sch->tvars[i]].name : "?",
                                tc_show(tvals[i]));
    return finer_mismatch(ss->ty, mt, true, mb->ref != REF_GLOBAL || !mb->decl || mb->decl->ret);
}

/* The specification's scheme ss for module value mb, with the sizes it
 * quantifies that the module's value quantifies too keyed as the value
 * does: a use then tells internalisation what the value's own size
 * parameters stand for. */
static Scheme *keyed_scheme(Scheme *ss, Binding *mb) {
    if (mb->ref != REF_GLOBAL || !mb->sch || !mb->sch->nsvars || !ss->nsvars) return ss;
    Size *msizes;
    if (value_mismatch(ss, mb, &msizes)) return ss;
    Scheme *k = NEW(tc.a, Scheme);
    *k = *ss;
    k->svars = NEW_ARRAY(tc.a, int, ss->nsvars + 1);
    Subst sub = {NULL, NULL, 0, NEW_ARRAY(tc.a, int, ss->nsvars + 1), NEW_ARRAY(tc.a, Size, ss->nsvars + 1), 0};
    for (int i = 0; i < ss->nsvars; i++) {
        k->svars[i] = ss->svars[i];
        for (int j = 0; j < mb->sch->nsvars; j++) {
            Size s = tc_size_resolve(msizes[j]);
            if (s.kind == SZ_VAR && s.uid == ss->svars[i]) {
                k->svars[i] = mb->sch->svars[j];
                sub.skeys[sub.ns] = ss->svars[i];
                sub.svals[sub.ns++] = tc_size_var(k->svars[i], ss->svar_names[i]);
                break;
            }
        }
    }
    k->ty = tc_subst(ss->ty, &sub);
    return k;
}

/* The binding of a value that a module sealed for nothing specifies: a
 * top-level definition without a body, never internalised. */
static Binding abstract_value(Spec *sp, Scheme *sch) {
    Decl *d = NEW(tc.a, Decl);
    d->kind = D_VAL;
    d->name = sp->name;
    d->loc = sp->loc;
    d->ty = sch->ty;
    d->nparams = arity(sch->ty);
    return (Binding){.name = sp->name, .ns = NS_VALUE, .loc = sp->loc, .ref = REF_GLOBAL, .decl = d, .sch = sch};
}

static void val_spec(Spec *sp, const Realise *r) {
    if (r->mode == R_MATCH) check_top_sizes(sp->type, sp->name, r->loc);
    Scheme *ss = spec_scheme(sp, !r->m);
    const char *qname = qualify(r->rel, sp->name);
    if (!r->m) {
        tc_push(abstract_value(sp, ss));
        return;
    }
    Binding *mb = tc_lookup_in(r->m, sp->name, NS_VALUE);
    if (!mb) tc_fail(r->loc, "Module does not define a value named \"%s\".", sp->name);
    Binding b = *mb;
    if (mb->sch && r->mode == R_MATCH) {
        Size *msizes;
        const char *why = value_mismatch(ss, mb, &msizes);
        if (why)
            tc_fail(r->loc, "Module type specifies %s, but module provides %s. %s",
                    show_val(qname, sp->tparams, sp->ntparams, ss),
                    show_val(qname, mb->decl ? mb->decl->tparams : NULL, mb->decl ? mb->decl->ntparams : 0, mb->sch),
                    why);
    } else if (mb->sch) {
        b.sch = keyed_scheme(ss, mb);
    }
    b.name = sp->name;
    tc_push(b);
}

/* ---- Modules -------------------------------------------------------------------- */

/* The refinements of module name's types, relative to it. */
static void sub_refines(const Realise *r, const char *name, Realise *sub) {
    sub->refs = NEW_ARRAY(tc.a, Refine, r->nrefs + 1);
    sub->nrefs = 0;
    for (int i = 0; i < r->nrefs; i++) {
        Refine *f = &r->refs[i];
        if (f->npath < 2 || strcmp(f->path[0], name) != 0) continue;
        Refine g = *f;
        g.path++;
        g.npath--;
        sub->refs[sub->nrefs++] = g;
    }
}

static void module_spec(Spec *sp, const Realise *r) {
    Sig *s = tc_sig(sp->mtype);
    Realise sub = *r;
    sub.path = qualify(r->path, sp->name);
    sub.rel = qualify(r->rel, sp->name);
    sub_refines(r, sp->name, &sub);
    sub.m = NULL;
    if (r->m) {
        Binding *mb = tc_lookup_in(r->m, sp->name, NS_MODULE);
        if (!mb) tc_fail(r->loc, "Module does not define a module named \"%s\".", sp->name);
        sub.m = mb->mod;
        if (sub.m->poisoned) longjmp(*tc.bail, 1);
    }
    Module *m = realise(s, &sub);
    tc_push((Binding){.name = sp->name, .ns = NS_MODULE, .loc = sp->loc, .mod = m});
}

static void include_spec(Spec *sp, const Realise *r) {
    Sig *s = tc_sig(sp->mtype);
    if (s->is_functor) tc_fail(sp->loc, "Cannot include a parametric module type.");
    Module *m = realise(s, r);
    for (int i = 0; i < m->n; i++) tc_push(m->binds[i]);
}

/* Checks that parametric module f has parametric module type s: applied
 * to s's parameter sealed for nothing, its result has s's result type. */
static void check_functor(Functor *f, Sig *s, const Realise *r) {
    Module *p = tc_seal(NULL, s->param, r->loc, s->pname ? s->pname : "_");
    Module *res = tc_apply_functor(f, p, r->loc, r->path);
    if (!res->poisoned) tc_match(res, tc_sig_result(s, p, r->loc), r->loc, r->path);
}

static Module *realise_functor(Sig *s, const Realise *r) {
    Module *m = r->m;
    if (m && !m->fun) tc_fail(r->loc, "Cannot match non-parametric module with parametric module type.");
    if (m && !m->poisoned) check_functor(m->fun, s, r);
    if (r->mode == R_MATCH) return m;
    Functor *f = NEW(tc.a, Functor);
    f->kind = m ? FN_SEALED : FN_ABSTRACT;
    f->inner = m ? m->fun : NULL;
    f->spec = s;
    Module *res = NEW(tc.a, Module);
    res->name = r->path ? r->path : "?";
    res->fun = f;
    res->poisoned = m && m->poisoned;
    return res;
}

static void realise_spec(Spec *sp, const Realise *r) {
    switch (sp->kind) {
    case SP_TYPE: type_spec(sp, r); break;
    case SP_VAL: val_spec(sp, r); break;
    case SP_MODULE: module_spec(sp, r); break;
    case SP_INCLUDE: include_spec(sp, r); break;
    }
}

/* Checks module type s's specifications against r (see Realise) and
 * returns the module they describe. */
static Module *realise(Sig *s, const Realise *r) {
    if (s->is_functor) return realise_functor(s, r);
    if (r->m && r->m->fun) tc_fail(r->loc, "Cannot match parametric module with non-parametric module type.");
    Realise here = *r;
    here.refs = NEW_ARRAY(tc.a, Refine, r->nrefs + s->nrefines + 1);
    COPY_ARRAY(here.refs, r->refs, r->nrefs);
    COPY_ARRAY(here.refs + r->nrefs, s->refines, s->nrefines);
    here.nrefs = r->nrefs + s->nrefines;
    int depth = tc_env_enter(s->env);
    int mark = tc_mark();
    for (int i = 0; i < s->nspecs; i++) realise_spec(s->specs[i], &here);
    Module *m = tc_collect_module(r->path ? r->path : "?", mark);
    tc_env_leave(depth);
    return m;
}

Module *tc_match(Module *m, Sig *s, SrcLoc loc, const char *name) {
    if (m->poisoned) return m;
    Realise r = {R_MATCH, m, name, NULL, loc, NULL, 0};
    return realise(s, &r);
}

Module *tc_seal(Module *m, Sig *s, SrcLoc loc, const char *name) {
    if (m && m->poisoned) return m;
    if (m) tc_match(m, s, loc, name);
    Realise r = {R_SEAL, m, name, NULL, loc, NULL, 0};
    return realise(s, &r);
}

Sig *tc_sig_result(Sig *ft, Module *arg, SrcLoc loc) {
    int depth = tc_env_enter(ft->env);
    if (ft->pname) tc_push((Binding){.name = ft->pname, .ns = NS_MODULE, .loc = loc, .mod = arg});
    Sig *s = tc_sig(ft->res);
    tc_env_leave(depth);
    return s;
}

/* ---- Module type expressions ------------------------------------------------------ */

/* Reports a name specified twice in one list of specifications. */
static void check_duplicate_specs(Spec **specs, int n) {
    for (int i = 0; i < n; i++) {
        Spec *a = specs[i];
        if (a->kind == SP_INCLUDE || !a->name) continue;
        for (int j = 0; j < i; j++) {
            Spec *b = specs[j];
            if (b->kind == a->kind && b->name && strcmp(a->name, b->name) == 0)
                tc_fail(a->loc, "Duplicate specification of %s \"%s\", previously specified at %d:%d.",
                        a->kind == SP_VAL ? "value" : a->kind == SP_TYPE ? "type" : "module", a->name,
                        b->loc.line, b->loc.col);
        }
    }
}

/* Whether type path of module m (sealed for nothing, its abstract types
 * from index first on) is one of those abstract types: *out is it. */
static bool abstract_at(Module *m, const QualName *q, int first, AbsType **out) {
    for (int i = 0; i < q->nparts - 1; i++) {
        Binding *b = tc_lookup_in(m, q->parts[i], NS_MODULE);
        if (!b || b->mod->fun) return false;
        m = b->mod;
    }
    Binding *b = tc_lookup_in(m, q->parts[q->nparts - 1], NS_TYPE);
    if (!b || !b->abbr) return false;
    Ty *t = b->abbr->body;
    if (t->kind != TY_ABSTRACT || t->var < first) return false;
    *out = &tc.abstracts.items[t->var];
    return true;
}

static const char *params_text(const TypeParam *tps, int n) {
    if (n == 0) return "no type parameters";
    Buf b = {0};
    buf_puts(&b, "type parameters");
    show_params(&b, tps, n);
    const char *s = arena_strndup(tc.a, b.data, b.len);
    buf_free(&b);
    return s;
}

/* Whether a refinement's parameters may replace an abstract type's: the
 * same kinds, each type parameter at least as lifted. */
static bool params_refine(const TypeParam *spec, int ns, const TypeParam *ref, int nr) {
    if (!same_param_kinds(spec, ns, ref, nr)) return false;
    for (int i = 0; i < ns; i++)
        if (spec[i].kind != TP_SIZE && ref[i].kind < spec[i].kind) return false;
    return true;
}

/* mt with path params = type: the abstract type at path is defined. */
static Sig *refine(ModTypeExp *mt) {
    Sig *base = tc_sig(mt->mt);
    if (base->is_functor || mt->name.nparts < 1) tc_fail(mt->loc, "Cannot refine a parametric module type.");
    int first = tc.abstracts.len;
    Realise r = {R_SEAL, NULL, NULL, NULL, mt->loc, NULL, 0};
    Module *m = realise(base, &r);
    AbsType *a = NULL;
    if (!abstract_at(m, &mt->name, first, &a)) {
        Buf b = {0};
        for (int i = 0; i < mt->name.nparts; i++) buf_printf(&b, "%s%s", i ? "." : "", mt->name.parts[i]);
        const char *s = arena_strndup(tc.a, b.data, b.len);
        buf_free(&b);
        tc_fail(mt->loc, "\"%s\" is not an abstract type in the module type.", s);
    }
    if (!params_refine(a->params, a->nparams, mt->tparams, mt->ntparams))
        tc_fail(mt->loc, "Cannot refine a type having %s with a type having %s.",
                params_text(mt->tparams, mt->ntparams), params_text(a->params, a->nparams));
    Refine f = {mt->name.parts, mt->name.nparts, NULL, mt->loc};
    /* as in Futhark, a refinement may make an abstract type lifted */
    f.abbr = eval_abbr(mt->name.parts[mt->name.nparts - 1], mt->tparams, mt->ntparams, mt->type, a->lifted, mt->loc,
                       false);
    Sig *s = NEW(tc.a, Sig);
    *s = *base;
    s->refines = NEW_ARRAY(tc.a, Refine, base->nrefines + 1);
    COPY_ARRAY(s->refines, base->refines, base->nrefines);
    s->refines[s->nrefines++] = f;
    return s;
}

/* { specs }: its specifications are checked once, sealed for nothing, for
 * the errors in them (but not again in an application of a parametric
 * module, whose body was checked where it was defined). */
static Sig *specs_sig(ModTypeExp *mt) {
    Sig *s = NEW(tc.a, Sig);
    s->loc = mt->loc;
    s->env = tc_env_snapshot();
    s->specs = mt->specs;
    s->nspecs = mt->nspecs;
    if (tc.instantiating) return s;
    check_duplicate_specs(mt->specs, mt->nspecs);
    Realise r = {R_SEAL, NULL, NULL, NULL, mt->loc, NULL, 0};
    realise(s, &r);
    return s;
}

/* (p: param) -> res: res is checked once with p sealed for nothing. */
static Sig *arrow_sig(ModTypeExp *mt) {
    Sig *s = NEW(tc.a, Sig);
    s->loc = mt->loc;
    s->is_functor = true;
    s->pname = mt->pname;
    s->param = tc_sig(mt->param);
    s->res = mt->res;
    s->env = tc_env_snapshot();
    if (!tc.instantiating) tc_sig_result(s, tc_seal(NULL, s->param, mt->loc, s->pname ? s->pname : "_"), mt->loc);
    return s;
}

static Sig *sig(ModTypeExp *mt);

Sig *tc_sig(ModTypeExp *mt) {
    if (!mt) tc_fail((SrcLoc){0}, "malformed module type");
    if (++tc.mod_nesting > TC_MAX_MODULE_DEPTH) tc_fail(mt->loc, "Module types are nested too deeply.");
    Sig *s = sig(mt);
    tc.mod_nesting--;
    return s;
}

static Sig *sig(ModTypeExp *mt) {
    switch (mt->kind) {
    case MT_NAME: return tc_lookup_sig(mt->loc, &mt->name);
    case MT_SPECS: return specs_sig(mt);
    case MT_WITH:
        if (!mt->mt || !mt->type) tc_fail(mt->loc, "malformed module type");
        return refine(mt);
    case MT_ARROW:
        if (!mt->param || !mt->res) tc_fail(mt->loc, "malformed module type");
        return arrow_sig(mt);
    }
    tc_fail(mt->loc, "malformed module type");
}
