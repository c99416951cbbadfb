/* The module system: module expressions, parametric modules (functors)
 * and their application, open and module declarations. Module types and
 * the matching and sealing of modules by them are in sigs.c.
 *
 * How modules work in futhorc:
 *
 * - A module is a list of bindings (values, types, modules, module types),
 *   the names a structure { decls } leaves in scope that are not local; or
 *   a parametric module. Module names live in their own namespace, as do
 *   module types. Qualified names (M.N.x) go through the modules' bindings
 *   (env.c, infer.c); M.(e) checks e with M's bindings in scope and then
 *   replaces itself by e (infer.c).
 *
 * - A module type (Sig) is kept as its specifications and the scope they
 *   were written in, with the "with" refinements made to it. Checking the
 *   specifications in order against a module, each binding its name for
 *   the ones after it, either matches the module (every specification is
 *   there, with a compatible type) or seals it: its abstract types become
 *   new types (TY_ABSTRACT) that unify only with themselves, and its values
 *   get the types the module type gives them. Ascription (e : S, and
 *   module m : S = e) seals, as in Futhark. An abstract type remembers what
 *   it stands for: the types the checker writes into the AST have them
 *   replaced (tc_zonk), so internalisation sees only ordinary types.
 *
 * - A parametric module is a closure: its parameter's module type, a copy
 *   of its body that was never checked, and the scope it was defined in.
 *   Where it is defined, its body is checked once with the parameter
 *   sealed for nothing (abstract types that stand for no type), which
 *   reports the body's errors whether or not it is applied. Each
 *   application matches the argument against the parameter's module type
 *   and checks a fresh copy of the body in the defining scope with the
 *   parameter bound to the argument's view: its own bindings, its own
 *   types. So every application is an instance of the body with the
 *   argument substituted, as Futhark's defunctorisation makes it, and the
 *   declarations of the instance are ordinary checked declarations that
 *   internalisation reaches through the references to them; modules cost
 *   nothing at run time and leave nothing for the later phases. Abstract
 *   types sealed inside the body are new in each application (generative).
 *
 * - A parametric module seen through a parametric module type (FN_SEALED)
 *   applies the inner one and seals the result by the type's result; a
 *   parameter of parametric module type (FN_ABSTRACT) gives, applied, its
 *   result type sealed for nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "check_internal.h"

/* ---- Environments ------------------------------------------------------------ */

Env *tc_env_snapshot(void) {
    if (tc.last_snapshot && tc.snapshot_version == tc.scope_version) return tc.last_snapshot;
    Env *e = NEW(tc.a, Env);
    e->n = tc.scope.len;
    e->binds = NEW_ARRAY(tc.a, Binding, e->n + 1);
    COPY_ARRAY(e->binds, tc.scope.items, e->n);
    tc.last_snapshot = e;
    tc.snapshot_version = tc.scope_version;
    return e;
}

int tc_env_depth(void) { return tc.saved_scopes.len; }

static void install(const Binding *binds, int n) {
    tc_pop_to(0);
    for (int i = 0; i < n; i++) tc_push(binds[i]);
}

int tc_env_enter(Env *env) {
    int depth = tc.saved_scopes.len;
    Binding *saved = malloc(sizeof(Binding) * (size_t)(tc.scope.len + 1));
    if (!saved) ICE("out of memory");
    COPY_ARRAY(saved, tc.scope.items, tc.scope.len);
    vec_push(&tc.saved_scopes, saved);
    vec_push(&tc.saved_lens, tc.scope.len);
    install(env->binds, env->n);
    return depth;
}

void tc_env_leave(int depth) {
    if (tc.saved_scopes.len <= depth) return;
    install(tc.saved_scopes.items[depth], tc.saved_lens.items[depth]);
    for (int i = depth; i < tc.saved_scopes.len; i++) free(tc.saved_scopes.items[i]);
    tc.saved_scopes.len = depth;
    tc.saved_lens.len = depth;
}

/* ---- Module expressions ------------------------------------------------------ */

static Module *poisoned_module(const char *name) { return tc_poison_binding(name ? name : "?", NS_MODULE)->mod; }

static const char *sub_path(const char *name) {
    if (!name) return NULL;
    return tc.mod_path ? intern(arena_printf(tc.a, "%s.%s", tc.mod_path, name)) : name;
}

/* { decls }: the names its declarations leave in scope, but local ones. */
static Module *struct_module(ModExp *me, const char *name) {
    int mark = tc_mark();
    const char *outer = tc.mod_path;
    tc.mod_path = name;
    tc.module_depth++;
    tc_check_decls(me->decls, me->ndecls);
    tc.module_depth--;
    tc.mod_path = outer;
    Module *m = tc_collect_module(name ? name : "?", mark);
    tc_pop_to(mark);
    return m;
}

/* The module of an imported file: its top-level names but local ones. */
static Module *import_module(Decl *d) {
    int j = 0;
    while (d && j < tc.cur_file && tc.files[j] != d->imported) j++;
    if (!d || !d->imported || j >= tc.cur_file || !tc.exports[j])
        tc_fail(d ? d->loc : (SrcLoc){0}, "Imported file \"%s\" was not loaded before this one.",
                d && d->path ? d->path : "");
    return tc.exports[j];
}

static Binding module_binding(const char *name, Module *m, SrcLoc loc) {
    return (Binding){.name = name, .ns = NS_MODULE, .loc = loc, .mod = m};
}

/* \(p: S) [: R] -> body: a closure over the current scope. Outside an
 * application, the body is checked with p sealed for nothing, which
 * reports its errors; a parametric module with errors is poisoned, so that
 * its applications report nothing more. */
static Module *lambda_module(ModExp *me, const char *name) {
    if (!me->pname || !me->mtype || !me->e1) tc_fail(me->loc, "malformed parametric module");
    Sig *ps = tc_sig(me->mtype);
    Functor *f = NEW(tc.a, Functor);
    f->kind = FN_CLOSURE;
    f->pname = me->pname;
    f->param = ps;
    f->body = ast_clone_mod_exp(tc.a, me->e1);
    if (!f->body) tc_fail(me->loc, "This parametric module's body is nested too deeply.");
    if (me->result) {
        ModExp *a = NEW(tc.a, ModExp);
        a->kind = ME_ASCRIBE;
        a->loc = me->loc;
        a->e1 = f->body;
        a->mtype = ast_clone_mod_type(tc.a, me->result);
        if (!a->mtype) tc_fail(me->loc, "This parametric module's result type is nested too deeply.");
        f->body = a;
    }
    f->env = tc_env_snapshot();
    Module *m = NEW(tc.a, Module);
    m->name = name ? name : "?";
    m->fun = f;
    if (tc.instantiating) return m;
    int errors = diag_error_count();
    int mark = tc_mark();
    tc_push(module_binding(me->pname, tc_seal(NULL, ps, me->ploc, me->pname), me->ploc));
    Module *body = tc_mod_exp(me->e1, name);
    if (me->result) tc_seal(body, tc_sig(me->result), me->loc, name);
    tc_pop_to(mark);
    if (diag_error_count() > errors) m->poisoned = true;
    return m;
}

Module *tc_apply_functor(Functor *f, Module *arg, SrcLoc loc, const char *name) {
    if (arg->poisoned) return poisoned_module(name);
    switch (f->kind) {
    case FN_CLOSURE: {
        Module *view = tc_match(arg, f->param, loc, f->pname);
        if (++tc.ninstances > TC_MAX_INSTANCES) {
            /* reported once, at the top-level declaration, however deep the
             * application: every later one fails too */
            if (tc.ninstances == TC_MAX_INSTANCES + 1)
                diag_error(tc.top_loc, "Parametric modules are applied more than %d times (each application of one "
                                       "inside another's body counts for every application of the outer one).",
                           (int)TC_MAX_INSTANCES);
            longjmp(*tc.bail, 1);
        }
        int depth = tc_env_enter(f->env);
        tc.instantiating++;
        tc_push(module_binding(f->pname, view, loc));
        const char *outer = tc.mod_path;
        tc.mod_path = NULL;
        ModExp *body = ast_clone_mod_exp(tc.a, f->body);
        if (!body) tc_fail(loc, "This parametric module's body is nested too deeply.");
        Module *r = tc_mod_exp(body, name);
        tc.mod_path = outer;
        tc.instantiating--;
        tc_env_leave(depth);
        return r;
    }
    case FN_SEALED: {
        Module *view = tc_match(arg, f->spec->param, loc, f->spec->pname);
        Module *r = tc_apply_functor(f->inner, arg, loc, name);
        return tc_seal(r, tc_sig_result(f->spec, view, loc), loc, name);
    }
    case FN_ABSTRACT: {
        Module *view = tc_match(arg, f->spec->param, loc, f->spec->pname);
        return tc_seal(NULL, tc_sig_result(f->spec, view, loc), loc, name);
    }
    }
    ICE("bad parametric module");
}

static Module *apply_module(ModExp *me, const char *name) {
    Module *f = tc_mod_exp(me->e1, name);
    Module *arg = tc_mod_exp(me->e2, NULL);
    if (f->poisoned) return poisoned_module(name);
    if (!f->fun) tc_fail(me->loc, "Cannot apply non-parametric module.");
    return tc_apply_functor(f->fun, arg, me->loc, name);
}

static Module *mod_exp(ModExp *me, const char *name);

Module *tc_mod_exp(ModExp *me, const char *name) {
    if (!me) tc_fail((SrcLoc){0}, "malformed module expression");
    if (++tc.mod_nesting > TC_MAX_MODULE_DEPTH) tc_fail(me->loc, "Modules are nested too deeply.");
    Module *m = mod_exp(me, name);
    tc.mod_nesting--;
    return m;
}

static Module *mod_exp(ModExp *me, const char *name) {
    switch (me->kind) {
    case ME_NAME:
        return tc_lookup_module(me->loc, &me->name);
    case ME_STRUCT:
        return struct_module(me, name);
    case ME_ASCRIBE: {
        if (!me->e1 || !me->mtype) tc_fail(me->loc, "malformed module ascription");
        Module *m = tc_mod_exp(me->e1, name);
        return tc_seal(m, tc_sig(me->mtype), me->loc, name);
    }
    case ME_LAMBDA:
        return lambda_module(me, name);
    case ME_APPLY:
        if (!me->e1 || !me->e2) tc_fail(me->loc, "malformed module application");
        return apply_module(me, name);
    case ME_IMPORT:
        return import_module(me->import);
    }
    tc_fail(me->loc, "malformed module expression");
}

/* ---- Declarations ------------------------------------------------------------ */

void tc_check_module_decl(Decl *d) {
    if (!d->name || !d->mexp) tc_fail(d->loc, "malformed module declaration");
    Module *m = tc_mod_exp(d->mexp, sub_path(d->name));
    Binding b = module_binding(d->name, m, d->loc);
    b.local = d->is_local;
    tc_push(b);
}

void tc_check_open(Decl *d) {
    if (!d->mexp) tc_fail(d->loc, "malformed open");
    Module *m = tc_mod_exp(d->mexp, NULL);
    if (m->fun) tc_fail(d->loc, "Cannot have parametric module here.");
    for (int i = 0; i < m->n; i++) {
        Binding b = m->binds[i];
        b.local = d->is_local;
        tc_push(b);
    }
}

void tc_check_modtype_decl(Decl *d) {
    if (!d->name || !d->mtype) tc_fail(d->loc, "malformed module type declaration");
    Sig *s = tc_sig(d->mtype);
    tc_push((Binding){.name = d->name, .ns = NS_MODTYPE, .loc = d->loc, .sig = s, .local = d->is_local});
}
