/* Deep copies of the AST as the parser builds it. The checker writes its
 * results into the tree (types, resolved names, binding ids) and rewrites
 * some nodes in place, so each application of a parametric module checks
 * a fresh copy of the module's body, taken from a copy made before the
 * body was ever checked. Interned strings and the parser's immutable
 * arrays of names are shared; every node and every array the checker may
 * write to is copied. Chains of lets are copied in a loop, as every phase
 * follows them. */
#include "ast.h"

#include <string.h>

/* Deeper nesting than this is not copied (the copy is abandoned and the
 * public functions return NULL): the copy recurses as deep as the tree,
 * and the checker rejects expressions nested deeper than some thousands
 * anyway. Chains through e2 (lets) do not count. */
enum { AST_CLONE_MAX_DEPTH = 20000 };

static int depth;
static bool too_deep;

/* Enters a node; false when that is too deep (the copy is abandoned). */
static bool enter(void) {
    if (too_deep || ++depth > AST_CLONE_MAX_DEPTH) {
        too_deep = true;
        depth--;
        return false;
    }
    return true;
}

static Exp *clone_exp(Arena *a, const Exp *e);
static TypeExp *clone_type(Arena *a, const TypeExp *t);
static ModExp *clone_mod_exp(Arena *a, const ModExp *m);
static Decl *clone_decl(Arena *a, const Decl *d);
static ModTypeExp *clone_mod_type(Arena *a, const ModTypeExp *m);

/* A copy of n elements of size sz at p, or NULL. */
static void *dup(Arena *a, const void *p, size_t sz, int n) {
    if (!p || n <= 0) return NULL;
    void *c = arena_alloc(a, sz * (size_t)n);
    memcpy(c, p, sz * (size_t)n);
    return c;
}

#define DUP(a, p, n) dup((a), (p), sizeof *(p), (n))

static TypeParam *clone_tparams(Arena *a, const TypeParam *tps, int n) {
    TypeParam *c = DUP(a, tps, n);
    for (int i = 0; i < n && c; i++) c[i].uid = 0;
    return c;
}

static Pat *clone_pat(Arena *a, const Pat *p) {
    if (!p || !enter()) return NULL;
    Pat *c = DUP(a, p, 1);
    c->uid = 0;
    c->ty = NULL;
    c->elems = DUP(a, p->elems, p->nelems);
    for (int i = 0; i < p->nelems; i++) c->elems[i] = clone_pat(a, p->elems[i]);
    c->fields = DUP(a, p->fields, p->nfields);
    for (int i = 0; i < p->nfields; i++) c->fields[i].pat = clone_pat(a, p->fields[i].pat);
    c->inner = clone_pat(a, p->inner);
    c->type = clone_type(a, p->type);
    c->lit = clone_exp(a, p->lit);
    depth--;
    return c;
}

static Pat **clone_pats(Arena *a, Pat *const *ps, int n) {
    Pat **c = DUP(a, ps, n);
    for (int i = 0; i < n; i++) c[i] = clone_pat(a, ps[i]);
    return c;
}

static TypeExp *clone_type(Arena *a, const TypeExp *t) {
    if (!t || !enter()) return NULL;
    TypeExp *c = DUP(a, t, 1);
    c->args = DUP(a, t->args, t->nargs);
    for (int i = 0; i < t->nargs; i++) {
        c->args[i].type = clone_type(a, t->args[i].type);
        c->args[i].size = clone_exp(a, t->args[i].size);
    }
    c->elems = DUP(a, t->elems, t->nelems);
    for (int i = 0; i < t->nelems; i++) c->elems[i] = clone_type(a, t->elems[i]);
    c->fields = DUP(a, t->fields, t->nfields);
    for (int i = 0; i < t->nfields; i++) c->fields[i].type = clone_type(a, t->fields[i].type);
    c->dim = clone_exp(a, t->dim);
    c->elem = clone_type(a, t->elem);
    c->param = clone_type(a, t->param);
    c->result = clone_type(a, t->result);
    depth--;
    return c;
}

static DimIndex *clone_slice(Arena *a, const DimIndex *d, int n) {
    DimIndex *c = DUP(a, d, n);
    for (int i = 0; i < n && c; i++) {
        c[i].index = clone_exp(a, d[i].index);
        c[i].start = clone_exp(a, d[i].start);
        c[i].end = clone_exp(a, d[i].end);
        c[i].stride = clone_exp(a, d[i].stride);
    }
    return c;
}

/* A copy of e alone, its children (but e2) copied. */
static Exp *clone_node(Arena *a, const Exp *e) {
    if (!enter()) return NULL;
    Exp *c = DUP(a, e, 1);
    c->ty = NULL;
    memset(&c->ref, 0, sizeof c->ref);
    c->loop_var_uid = 0;
    c->fname_uid = 0;
    c->elems = DUP(a, e->elems, e->nelems);
    for (int i = 0; i < e->nelems; i++) c->elems[i] = clone_exp(a, e->elems[i]);
    c->fields = DUP(a, e->fields, e->nfields);
    for (int i = 0; i < e->nfields; i++) c->fields[i].exp = clone_exp(a, e->fields[i].exp);
    c->start = clone_exp(a, e->start);
    c->second = clone_exp(a, e->second);
    c->end = clone_exp(a, e->end);
    c->e1 = clone_exp(a, e->e1);
    c->e3 = clone_exp(a, e->e3);
    c->slice = clone_slice(a, e->slice, e->nslice);
    c->steps = DUP(a, e->steps, e->nsteps);
    for (int i = 0; i < e->nsteps; i++) c->steps[i].slice = clone_slice(a, e->steps[i].slice, e->steps[i].nslice);
    c->pat = clone_pat(a, e->pat);
    c->pat2 = clone_pat(a, e->pat2);
    c->tparams = clone_tparams(a, e->tparams, e->ntparams);
    c->params = clone_pats(a, e->params, e->nparams);
    c->ret = clone_type(a, e->ret);
    c->e2 = NULL;
    depth--;
    return c;
}

/* Copies e; expressions nested through e2 (chains of lets and the like)
 * in a loop. */
static Exp *clone_exp(Arena *a, const Exp *e) {
    if (!e) return NULL;
    Exp *root = clone_node(a, e), *last = root;
    for (const Exp *x = e->e2; x && last; x = x->e2) {
        last->e2 = clone_node(a, x);
        last = last->e2;
    }
    return root;
}

static Spec *clone_spec(Arena *a, const Spec *s) {
    if (!s) return NULL;
    Spec *c = DUP(a, s, 1);
    c->tparams = clone_tparams(a, s->tparams, s->ntparams);
    c->type = clone_type(a, s->type);
    c->mtype = clone_mod_type(a, s->mtype);
    return c;
}

static ModTypeExp *clone_mod_type(Arena *a, const ModTypeExp *m) {
    if (!m || !enter()) return NULL;
    ModTypeExp *c = DUP(a, m, 1);
    c->specs = DUP(a, m->specs, m->nspecs);
    for (int i = 0; i < m->nspecs; i++) c->specs[i] = clone_spec(a, m->specs[i]);
    c->mt = clone_mod_type(a, m->mt);
    c->tparams = clone_tparams(a, m->tparams, m->ntparams);
    c->type = clone_type(a, m->type);
    c->param = clone_mod_type(a, m->param);
    c->res = clone_mod_type(a, m->res);
    depth--;
    return c;
}

static ModExp *clone_mod_exp(Arena *a, const ModExp *m) {
    if (!m || !enter()) return NULL;
    ModExp *c = DUP(a, m, 1);
    c->decls = DUP(a, m->decls, m->ndecls);
    for (int i = 0; i < m->ndecls; i++) c->decls[i] = clone_decl(a, m->decls[i]);
    c->e1 = clone_mod_exp(a, m->e1);
    c->e2 = clone_mod_exp(a, m->e2);
    c->mtype = clone_mod_type(a, m->mtype);
    c->result = clone_mod_type(a, m->result);
    c->import = clone_decl(a, m->import);
    depth--;
    return c;
}

static Decl *clone_decl(Arena *a, const Decl *d) {
    if (!d || !enter()) return NULL;
    Decl *c = DUP(a, d, 1);
    c->tparams = clone_tparams(a, d->tparams, d->ntparams);
    c->params = clone_pats(a, d->params, d->nparams);
    c->ret = clone_type(a, d->ret);
    c->body = clone_exp(a, d->body);
    c->mexp = clone_mod_exp(a, d->mexp);
    c->mtype = clone_mod_type(a, d->mtype);
    c->ty = NULL;
    c->param_tys = NULL;
    c->ret_ty = NULL;
    depth--;
    return c;
}

/* The public copies: NULL when the tree is nested too deeply. */
ModExp *ast_clone_mod_exp(Arena *a, const ModExp *m) {
    depth = 0;
    too_deep = false;
    ModExp *c = clone_mod_exp(a, m);
    return too_deep ? NULL : c;
}

Decl *ast_clone_decl(Arena *a, const Decl *d) {
    depth = 0;
    too_deep = false;
    Decl *c = clone_decl(a, d);
    return too_deep ? NULL : c;
}

ModTypeExp *ast_clone_mod_type(Arena *a, const ModTypeExp *m) {
    depth = 0;
    too_deep = false;
    ModTypeExp *c = clone_mod_type(a, m);
    return too_deep ? NULL : c;
}
