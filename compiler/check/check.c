/* The type checker's entry point: checks files in order, declaration by
 * declaration (values, type abbreviations, imports, modules, module types,
 * open), then defaults literal types, generalises, substitutes the final
 * types into the AST, checks entry-point types and uniqueness. An error
 * abandons the declaration it occurs in and checking goes on with the next. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_internal.h"

/* ---- Substituting final types into the AST ------------------------------------------- */

static void zonk_type_exp(TypeExp *t);

void tc_zonk_pat(Pat *p) {
    if (!p) return;
    if (p->ty) p->ty = tc_zonk(p->ty);
    for (int i = 0; i < p->nelems; i++) tc_zonk_pat(p->elems[i]);
    for (int i = 0; i < p->nfields; i++) tc_zonk_pat(p->fields[i].pat);
    tc_zonk_pat(p->inner);
    zonk_type_exp(p->type);
    tc_zonk_exp(p->lit);
}

static void zonk_type_exp(TypeExp *t) {
    if (!t) return;
    for (int i = 0; i < t->nargs; i++) {
        if (t->args[i].is_size) tc_zonk_exp(t->args[i].size);
        else zonk_type_exp(t->args[i].type);
    }
    for (int i = 0; i < t->nelems; i++) zonk_type_exp(t->elems[i]);
    for (int i = 0; i < t->nfields; i++) zonk_type_exp(t->fields[i].type);
    tc_zonk_exp(t->dim);
    zonk_type_exp(t->elem);
    zonk_type_exp(t->param);
    zonk_type_exp(t->result);
}

/* The literal that an EX_NEG being zonked negates: it is in bounds when its
 * negation is (-128 is an i8). */
static const Exp *negated_literal;

/* Reports a literal whose value its inferred type cannot hold, as Futhark
 * does ("Literal 300 out of bounds for inferred type u8."). */
static void check_literal_bounds(const Exp *e) {
    Ty *t = e->ty ? tc_head(e->ty) : NULL;
    if (!t || t->kind != TY_PRIM || (e->kind != EX_INT && e->kind != EX_FLOAT)) return;
    if (e->kind == EX_INT && e->has_suffix) return; /* read modulo 2^N by the lexer */
    bool neg = e == negated_literal;
    PrimType p = t->prim;
    bool ok = true;
    if (prim_is_float(p)) {
        double v = e->kind == EX_INT ? (double)e->ivalue : e->fvalue;
        ok = p == PT_F32 ? fabs(v) <= FLT_MAX : !isinf(prim_float(p, v).v.f);
    } else if (e->kind == EX_INT && p != PT_BOOL) {
        int bits = 8 * prim_size(p);
        uint64_t umax = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
        uint64_t limit = prim_class(p) == PC_SIGNED ? (umax >> 1) + neg : neg ? 0 : umax;
        ok = e->ivalue <= limit;
    }
    if (ok) return;
    if (e->kind == EX_INT)
        diag_error(e->loc, "Literal %s%llu out of bounds for inferred type %s.", neg ? "-" : "",
                   (unsigned long long)e->ivalue, prim_name(p));
    else
        diag_error(e->loc, "Literal %s%g out of bounds for inferred type %s.", neg ? "-" : "", e->fvalue, prim_name(p));
}

/* Substitutes the final types into e and everything below it. e2 comes
 * last and is followed in a loop, so that a chain of lets (or of other
 * expressions nested through e2) needs no deep stack. */
void tc_zonk_exp(Exp *e) {
    for (; e; e = e->e2) {
        if (e->ty) e->ty = tc_zonk(e->ty);
        if (e->kind == EX_NEG && e->e1 && (e->e1->kind == EX_INT || e->e1->kind == EX_FLOAT)) negated_literal = e->e1;
        check_literal_bounds(e);
        for (int i = 0; i < e->ref.ninst; i++) e->ref.inst_sizes[i] = tc_zonk_size(e->ref.inst_sizes[i]);
        tc_zonk_exp(e->e1);
        tc_zonk_exp(e->e3);
        for (int i = 0; i < e->nelems; i++) tc_zonk_exp(e->elems[i]);
        for (int i = 0; i < e->nfields; i++) tc_zonk_exp(e->fields[i].exp);
        tc_zonk_exp(e->start);
        tc_zonk_exp(e->second);
        tc_zonk_exp(e->end);
        for (int i = 0; i < e->nslice && e->slice; i++) {
            tc_zonk_exp(e->slice[i].index);
            tc_zonk_exp(e->slice[i].start);
            tc_zonk_exp(e->slice[i].end);
            tc_zonk_exp(e->slice[i].stride);
        }
        tc_zonk_pat(e->pat);
        tc_zonk_pat(e->pat2);
        for (int i = 0; i < e->nparams; i++) tc_zonk_pat(e->params[i]);
        zonk_type_exp(e->ret);
        tc_check_patterns(e);
    }
}

/* ---- Defaulting --------------------------------------------------------------------- */

/* Defaults the overloaded variables of the current definition and reports
 * field accesses whose record type was never found. */
static void default_vars(void) {
    for (int v = tc.def_first_var; v < tc.vars.len; v++) {
        TVar *tv = &tc.vars.items[v];
        if (tv->bound || tv->rigid) continue;
        if (tv->prims) tv->bound = tc_prim(tc_default_var(tv));
        else if (tc.saw_poisoned) /* a definition with errors may have left it open */
            continue;
        else if (tv->fields)
            tc_fail(tv->loc, "Type is ambiguous: cannot infer the type of the value whose field \"%s\" is accessed; add a type annotation.",
                    tv->fields->name);
        else if (tv->constrs)
            tc_fail(tv->loc, "Type is ambiguous: cannot infer the sum type with constructors %s; add a type annotation.",
                    tc_show(&(Ty){.kind = TY_VAR, .var = v}));
    }
}

/* Variables of the definition that nothing determined become (). */
static void close_vars(void) {
    for (int v = tc.def_first_var; v < tc.vars.len; v++) {
        TVar *tv = &tc.vars.items[v];
        if (!tv->bound && !tv->rigid) tv->bound = tc_unit();
    }
}

/* ---- Entry points ------------------------------------------------------------------- */

/* A type the outside world can provide or receive: a primitive, an array
 * of primitives, or tuples and records of those, where an array of tuples
 * counts as a tuple of arrays. Each primitive or array of primitives in it
 * becomes one external parameter or result (the unit type becomes none). */
static bool entry_type_ok(Ty *t) {
    switch (t->kind) {
    case TY_PRIM: return true;
    case TY_ARRAY: return t->elem && entry_type_ok(t->elem);
    case TY_TUPLE:
    case TY_RECORD:
    case TY_SUM: /* an opaque value, of the tag and every constructor's payload */
        for (int i = 0; i < t->n; i++)
            if (!entry_type_ok(t->kind == TY_TUPLE ? t->elems[i] : t->fields[i].ty)) return false;
        return true;
    default: return false;
    }
}

/* An entry point whose result is a function (entry main = map f64.ceil,
 * def main (xs: []i32) = \\ys -> ...) takes that function's parameters
 * too, as in Futhark, which eta-expands it: the arrows of its result type
 * are peeled off (lower_entry applies the body to the extra parameters).
 * Returns the number of extra parameters and sets *result to the type
 * after them. */
static int entry_arrows(Ty *t, Ty **result) {
    int n = 0;
    for (t = tc_head(t); t->kind == TY_ARROW; t = tc_head(t->result)) n++;
    *result = t;
    return n;
}

/* The type of the k-th parameter that the result type t adds. */
static Ty *entry_arrow_param(Ty *t, int k) {
    t = tc_head(t);
    for (; k > 0; k--) t = tc_head(t->result);
    return t->param;
}

/* The arguments of an entry point are all the outside world gives it: each
 * size parameter must be the size of an array among them (Futhark's
 * messages). */
static void check_entry_sizes(Decl *d) {
    Ty *res;
    int extra = entry_arrows(d->ret_ty, &res);
    for (int i = 0; i < d->ntparams; i++) {
        TypeParam *tp = &d->tparams[i];
        bool given = false;
        for (int k = 0; k < d->nparams && !given; k++) given = tc_size_in_data(d->param_tys[k], tp->uid, true);
        for (int k = 0; k < extra && !given; k++) given = tc_size_in_data(entry_arrow_param(d->ret_ty, k), tp->uid, true);
        if (given) continue;
        if (tc_size_in_data(res, tp->uid, false))
            tc_fail(d->ret ? d->ret->loc : d->loc, "Entry point functions must not be size-polymorphic in their return type.");
        tc_fail(tp->loc, "Entry point size parameter [%s] only used non-constructively.", tp->name);
    }
}

/* Whether t mentions a type variable: an entry parameter whose type the
 * definition left open (def main xs = ..., entry main = \\x -> x) makes the
 * entry point polymorphic. */
static bool has_type_var(Ty *t) {
    t = tc_head(t);
    switch (t->kind) {
    case TY_VAR: return true;
    case TY_ARRAY: return has_type_var(t->elem);
    case TY_ARROW: return has_type_var(t->param) || has_type_var(t->result);
    case TY_TUPLE:
    case TY_RECORD:
    case TY_SUM:
        for (int i = 0; i < t->n; i++)
            if (has_type_var(t->kind == TY_TUPLE ? t->elems[i] : t->fields[i].ty)) return true;
        return false;
    default: return false;
    }
}

/* One parameter of entry point d, written (at loc) or added by its result
 * type. */
static void check_entry_param(Decl *d, Ty *t, SrcLoc loc) {
    if (has_type_var(t))
        tc_fail(loc, "Entry point functions may not be polymorphic: \"%s\" has a parameter of type %s.", d->name,
                tc_show(t));
    if (tc_contains_arrow(t))
        tc_fail(loc, "Entry point functions may not be higher-order: \"%s\" has a parameter of type %s.", d->name,
                tc_show(t));
    if (!entry_type_ok(t))
        tc_fail(loc, "Entry point \"%s\": parameter type %s is not a primitive type, an array of primitives, or a tuple, record or sum of those.",
                d->name, tc_show(t));
}

static void check_entry(Decl *d) {
    for (int i = 0; i < d->ntparams; i++)
        if (d->tparams[i].kind != TP_SIZE)
            tc_fail(d->tparams[i].loc, "Entry point functions may not be polymorphic: \"%s\" has type parameter \"%s\".",
                    d->name, d->tparams[i].name);
    check_entry_sizes(d);
    for (int i = 0; i < d->nparams; i++) check_entry_param(d, d->param_tys[i], d->params[i]->loc);
    Ty *r;
    int extra = entry_arrows(d->ret_ty, &r);
    SrcLoc rl = d->ret ? d->ret->loc : d->loc;
    for (int k = 0; k < extra; k++) check_entry_param(d, entry_arrow_param(d->ret_ty, k), rl);
    if (tc_contains_arrow(r))
        tc_fail(rl, "Entry point functions may not be higher-order: \"%s\" returns a value of type %s.", d->name,
                tc_show(r));
    if (!entry_type_ok(r))
        tc_fail(rl, "Entry point \"%s\": result type %s is not a primitive type, an array of primitives, or a tuple, record or sum of those.",
                d->name, tc_show(r));
}

/* ---- Declarations -------------------------------------------------------------------- */

static void check_decl(Decl *d);

static const char *namespace_word(DeclKind k) {
    return k == D_VAL ? "value" : k == D_TYPE ? "type" : k == D_MODTYPE ? "module type" : "module";
}

/* A declaration with its position, sorted by namespace, name and position
 * so that the definitions of one name lie together. */
typedef struct DeclAt {
    Decl *d;
    int at;
} DeclAt;

static int cmp_decl_at(const void *x, const void *y) {
    const DeclAt *a = x, *b = y;
    if (a->d->kind != b->d->kind) return a->d->kind < b->d->kind ? -1 : 1;
    int c = strcmp(a->d->name, b->d->name);
    return c ? c : a->at - b->at;
}

/* Reports a name defined twice (in one namespace) among one file's or one
 * module's declarations, in order, each with a note on the first
 * definition; `local` declarations are not counted. Sorting finds them in
 * n log n steps (comparing each with every earlier one took n^2). */
static void check_duplicates(Decl **decls, int n) {
    DeclAt *named = NEW_ARRAY(tc.a, DeclAt, n + 1);
    int m = 0;
    for (int i = 0; i < n; i++) {
        Decl *d = decls[i];
        if (d && d->name && !d->is_local &&
            (d->kind == D_VAL || d->kind == D_TYPE || d->kind == D_MODULE || d->kind == D_MODTYPE))
            named[m++] = (DeclAt){d, i};
    }
    util_sort(named, (size_t)m, sizeof *named, cmp_decl_at);
    Decl **first = NEW_ARRAY(tc.a, Decl *, n + 1); /* by position: the first definition of a duplicate */
    for (int k = 1; k < m; k++) {
        Decl *prev = named[k - 1].d, *d = named[k].d;
        if (prev->kind != d->kind || strcmp(prev->name, d->name) != 0) continue;
        int p = named[k - 1].at;
        first[named[k].at] = first[p] ? first[p] : prev;
    }
    for (int i = 0; i < n; i++) {
        if (!first[i]) continue;
        diag_error(decls[i]->loc, "Duplicate definition of %s \"%s\".", namespace_word(decls[i]->kind), decls[i]->name);
        diag_note(first[i]->loc, "\"%s\" was previously defined here", decls[i]->name);
    }
}


static Binding value_binding(Decl *d, Scheme *sch) {
    Binding b = {0};
    b.name = d->name;
    b.ns = NS_VALUE;
    b.loc = d->loc;
    b.ref = REF_GLOBAL;
    b.decl = d;
    b.sch = sch;
    b.local = d->is_local;
    return b;
}

static void start_definition(void) {
    tc.size_uses.len = 0;
    tc.saw_poisoned = false;
    tc.def_first_var = tc.vars.len;
    tc.def_first_svar = tc.svars.len;
    tc.def_first_uid = tc.next_uid;
    tc.strict.len = 0;
    tc.level = 0;
    tc.depth = 0;
}

/* Reports an explicit size parameter that neither the arguments nor the
 * instantiation determine at a use (Futhark's ambiguous sizes). */
static void check_size_uses(void) {
    for (int i = 0; i < tc.size_uses.len; i++) {
        SizeUse *u = &tc.size_uses.items[i];
        if (u->sizes[u->i].kind == SZ_ANY)
            tc_fail(u->loc, "Ambiguous size \"%s\" arising from instantiated size parameter of \"%s\".", u->name,
                    u->fname);
    }
}

/* t with the uniqueness of u, part by part where their tuples and records
 * agree (u is t as the body's type, t maybe with abstract types). */
static Ty *with_uniqueness(Ty *t, Ty *u) {
    t = tc_head(t);
    u = tc_head(u);
    if (!t || !u) return t;
    if ((t->kind == TY_TUPLE || t->kind == TY_RECORD) && u->kind == t->kind && t->n == u->n && t->n > 0) {
        Ty *c = ty_copy_parts(tc.a, t);
        c->unique = u->unique;
        for (int i = 0; i < t->n; i++) {
            if (t->kind == TY_TUPLE) c->elems[i] = with_uniqueness(t->elems[i], u->elems[i]);
            else c->fields[i].ty = with_uniqueness(t->fields[i].ty, u->fields[i].ty);
        }
        return c;
    }
    return tc_copy_unique(t, u->unique);
}

/* Function type f of n parameters with the uniqueness of ret for its
 * result. */
static Ty *with_result(Ty *f, int n, Ty *ret) {
    if (n == 0) return with_uniqueness(f, ret);
    if (!f || f->kind != TY_ARROW) return f;
    Ty *c = NEW(tc.a, Ty);
    *c = *f;
    c->result = with_result(f->result, n - 1, ret);
    return c;
}

static void check_val(Decl *d) {
    if (!d->name) tc_fail(d->loc, "malformed definition");
    start_definition();
    Binding marker = value_binding(d, NULL);
    marker.recursive = true;
    int mark = tc_mark();
    tc_push(marker);
    bool intrinsic = tc_is_intrinsic_body(d->body);
    if (!d->body) tc_fail(d->loc, "malformed definition");
    tc.level = 1;
    Scheme *sch = tc_function(d->loc, d->tparams, d->ntparams, d->params, d->nparams, d->ret,
                              d->body, &d->ret_ty, intrinsic, &d->param_tys);
    tc.level = 0;
    default_vars();
    /* a constant is generalised when it holds functions (def id' = id),
     * which a module type may need to be polymorphic */
    if (d->nparams > 0 || tc_contains_arrow(sch->ty)) tc_generalise(sch, tc.def_first_var, tc.def_first_svar);
    close_vars();
    sch->decl = d;
    d->ty = tc_zonk(sch->ty);
    d->ret_ty = tc_zonk(d->ret_ty);
    for (int i = 0; i < d->nparams; i++) d->param_tys[i] = tc_zonk(d->param_tys[i]);
    tc_zonk_exp(d->body);
    for (int i = 0; i < d->nparams; i++) {
        tc_zonk_pat(d->params[i]);
        tc_check_irrefutable(d->params[i]);
    }
    zonk_type_exp(d->ret);
    check_size_uses();
    bool is_main = tc.cur_file == tc.nfiles - 1 && tc.module_depth == 0 && strcmp(d->name, "main") == 0;
    if ((d->is_entry || is_main) && !tc.saw_poisoned) check_entry(d);
    if (!intrinsic && !tc.saw_poisoned) {
        Ty *ret = tc_check_uniqueness(d);
        if (ret != d->ret_ty) {
            sch->ty = with_result(sch->ty, d->nparams, ret);
            d->ty = tc_zonk(sch->ty);
            d->ret_ty = ret;
        }
    }
    tc_pop_to(mark);
    tc_push(value_binding(d, sch));
}

static void check_type_decl(Decl *d) {
    if (!d->name || !d->ret) tc_fail(d->loc, "malformed type declaration");
    start_definition();
    int mark = tc_mark();
    TypeAbbr *ab = NEW(tc.a, TypeAbbr);
    ab->name = d->name;
    ab->params = d->tparams;
    ab->nparams = d->ntparams;
    ab->keys = NEW_ARRAY(tc.a, int, d->ntparams + 1);
    for (int i = 0; i < d->ntparams; i++) {
        ab->keys[i] = tc_bind_tparam(&d->tparams[i]);
    }
    ab->body = tc_type_exp(d->ret, false);
    if (d->lifted == LIFT_NONE && tc_size_lifted(ab->body))
        tc_fail(d->loc, "Non-size-lifted type abbreviations may not contain size-lifted types. Declare \"%s\" with type~.",
                d->name);
    if (d->lifted != LIFT_FULL && tc_contains_arrow(ab->body))
        tc_fail(d->loc, "Non-lifted type abbreviations may not contain functions. Declare \"%s\" with type^.", d->name);
    tc_pop_to(mark);
    ab->lifted = d->lifted;
    tc_push((Binding){.name = d->name, .ns = NS_TYPE, .loc = d->loc, .abbr = ab, .local = d->is_local});
}

/* Makes the exported names of an earlier file visible (not re-exported). */
static void check_import(Decl *d) {
    Module *m = tc_mod_exp(&(ModExp){.kind = ME_IMPORT, .loc = d->loc, .import = d}, NULL);
    for (int i = 0; i < m->n; i++) {
        Binding b = m->binds[i];
        b.local = true;
        tc_push(b);
    }
}

/* After an error in d: its name stays bound, with an unknown type, so that
 * uses of it do not cause more errors. */
static void poison(Decl *d) {
    Binding b = {0};
    b.name = d->name;
    b.loc = d->loc;
    b.local = d->is_local;
    if (d->kind == D_VAL && d->name) {
        b = value_binding(d, NULL);
    } else if (d->kind == D_TYPE && d->name) {
        b.ns = NS_TYPE;
    } else if (d->kind == D_MODULE && d->name) {
        b = *tc_poison_binding(d->name, NS_MODULE);
        b.local = d->is_local;
    } else if (d->kind == D_MODTYPE && d->name) {
        b.ns = NS_MODTYPE;
    } else {
        return;
    }
    tc_push(b);
}

static void check_decl(Decl *d) {
    if (!d) return;
    jmp_buf jb;
    jmp_buf *saved = tc.bail;
    int env_depth = tc_env_depth();
    int mark = tc_mark();
    int depth = tc.module_depth, instantiating = tc.instantiating, nesting = tc.mod_nesting;
    const char *path = tc.mod_path;
    if (setjmp(jb)) {
        tc.bail = saved;
        tc.level = 0;
        tc.module_depth = depth;
        tc.instantiating = instantiating;
        tc.mod_nesting = nesting;
        tc.mod_path = path;
        tc_env_leave(env_depth);
        tc_pop_to(mark);
        poison(d);
        return;
    }
    tc.bail = &jb;
    if (tc.module_depth == 0 && !tc.instantiating) tc.top_loc = d->loc;
    switch (d->kind) {
    case D_VAL:
        /* && and || short-circuit: they are syntax, not functions */
        if (d->name && (!strcmp(d->name, "&&") || !strcmp(d->name, "||")))
            tc_fail(d->loc, "The short-circuiting operator %s cannot be redefined.", d->name);
        check_val(d);
        break;
    case D_TYPE:
        check_type_decl(d);
        break;
    case D_IMPORT:
        check_import(d);
        break;
    case D_MODULE:
        tc_check_module_decl(d);
        break;
    case D_MODTYPE:
        tc_check_modtype_decl(d);
        break;
    case D_OPEN:
        tc_check_open(d);
        break;
    }
    tc.bail = saved;
}

void tc_check_decls(Decl **decls, int n) {
    check_duplicates(decls, n);
    for (int i = 0; i < n; i++) check_decl(decls[i]);
}

static void check_file(int i) {
    Program *p = tc.files[i];
    tc.cur_file = i;
    tc.module_depth = 0;
    tc_pop_to(0);
    tc.in_prelude = i == 0;
    if (i == 0) tc_push_numeric_modules();
    if (i > 0 && tc.exports[0]) {
        for (int k = 0; k < tc.exports[0]->n; k++) {
            Binding b = tc.exports[0]->binds[k];
            b.local = true;
            tc_push(b);
        }
    }
    int mark = i == 0 ? 0 : tc_mark();
    if (p) tc_check_decls(p->decls, p->ndecls);
    tc.exports[i] = tc_collect_module(p && p->file ? p->file : "", mark);
}

bool check_programs(Arena *a, Program **files, int n) {
    int errors = diag_error_count();
    memset(&tc, 0, sizeof tc);
    tc.a = a;
    tc.files = files;
    tc.nfiles = n;
    tc.exports = NEW_ARRAY(a, Module *, n + 1);
    for (int i = 0; i < n; i++) check_file(i);
    vec_free(&tc.vars);
    vec_free(&tc.svars);
    vec_free(&tc.scope);
    vec_free(&tc.strict);
    vec_free(&tc.size_uses);
    vec_free(&tc.abstracts);
    vec_free(&tc.saved_scopes);
    vec_free(&tc.saved_lens);
    tc_unique_free();
    return diag_error_count() == errors;
}
