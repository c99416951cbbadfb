/* Size expressions of the checker: terms of i64 arithmetic over literals,
 * local names, top-level constants and applications of top-level
 * functions, built from checked expressions, mapped over their leaves and
 * compared; types.c unifies them. */
#include <string.h>

#include "check_internal.h"

/* A size expression (SZ_EXP) is a checked i64 expression of integer
 * literals, local i64 names (EX_VAR, REF_LOCAL, uid > 0), top-level
 * constants (EX_VAR, REF_GLOBAL: a module's "def n = ...", a parameter's
 * "val n : i64") and the arithmetic operators below. During inference a leaf may also be an unknown size
 * variable: an EX_VAR whose ref.uid is the variable's (negative) uid;
 * zonking makes a size with such a leaf that is still unbound unknown. */
static const char *const size_ops[] = {"+", "-", "*", "/", "%", "//", "%%", "**"};

static bool is_size_op(const char *op) {
    for (size_t i = 0; i < sizeof size_ops / sizeof size_ops[0]; i++)
        if (op && strcmp(op, size_ops[i]) == 0) return true;
    return false;
}

static Exp *size_node(ExpKind k) {
    Exp *e = NEW(tc.a, Exp);
    e->kind = k;
    e->ty = tc_prim(PT_I64);
    return e;
}

static Exp *int_leaf(int64_t c) {
    Exp *e = size_node(EX_INT);
    e->ivalue = (uint64_t)c;
    e->has_suffix = true;
    e->suffix = PT_I64;
    return e;
}

static Exp *var_leaf(int uid, const char *name) {
    Exp *e = size_node(EX_VAR);
    e->name.parts = NEW_ARRAY(tc.a, const char *, 1);
    e->name.parts[0] = name ? name : "?";
    e->name.nparts = 1;
    e->ref.kind = REF_LOCAL;
    e->ref.uid = uid;
    return e;
}

/* The expression of a size (NULL for an unknown size). */
Exp *tc_size_as_exp(Size s) {
    switch (s.kind) {
    case SZ_CONST: {
        if (s.c < 0) return NULL;
        Exp *e = int_leaf(s.c);
        e->e1 = s.exp;
        return e;
    }
    case SZ_VAR:
        return var_leaf(s.uid, s.name);
    case SZ_EXP:
        return s.exp;
    case SZ_ANY:
        break;
    }
    return NULL;
}

/* The size an expression denotes: literals and names become SZ_CONST and
 * SZ_VAR, anything else SZ_EXP. A literal folded from an expression keeps
 * that expression (e1) as the constant's exp. */
Size tc_term_size(Exp *e) {
    if (e->kind == EX_INT) {
        Size c = tc_size_const((int64_t)e->ivalue);
        c.exp = e->e1;
        return c;
    }
    if (e->kind == EX_VAR && e->ref.kind != REF_GLOBAL) return tc_size_var(e->ref.uid, e->name.parts[0]);
    Size s = {.kind = SZ_EXP, .exp = e};
    return s;
}

/* l op r, with + - * of two literals folded into a literal that keeps
 * l op r as its e1: [8 * 6] is [48], yet n * m still matches it (n = 8,
 * m = 6) as in Futhark, where size expressions are not evaluated. */
static Exp *size_binop(Exp *orig, Exp *l, Exp *r) {
    Exp *e = orig;
    if (l != orig->e1 || r != orig->e2) {
        e = size_node(EX_BINOP);
        e->loc = orig->loc;
        e->op = orig->op;
        e->e1 = l;
        e->e2 = r;
    }
    if (l->kind != EX_INT || r->kind != EX_INT || !tc_is_prim(orig->ty, PT_I64)) return e;
    int64_t x = (int64_t)l->ivalue, y = (int64_t)r->ivalue;
    Exp *c = NULL;
    if (strcmp(orig->op, "+") == 0) c = int_leaf(x + y);
    if (strcmp(orig->op, "*") == 0) c = int_leaf(x * y);
    if (strcmp(orig->op, "-") == 0 && x >= y) c = int_leaf(x - y);
    if (!c) return e;
    c->e1 = e;
    return c;
}

/* Whether e names a top-level constant defined as an integer literal. */
static bool literal_constant(Exp *e, int64_t *value) {
    Decl *d = e->ref.kind == REF_GLOBAL && !e->ref.nvar_parts ? e->ref.decl : NULL;
    if (!d || d->nparams || d->ntparams || !d->body || d->body->kind != EX_INT) return false;
    *value = (int64_t)d->body->ivalue;
    return true;
}

static Exp *apply_term(Exp *e);

/* A leaf for e, a plain local name, or NULL. */
static Exp *local_leaf(Exp *e) {
    if (e->ref.kind != REF_LOCAL || e->ref.uid <= 0 || e->ref.nvar_parts || e->name.nparts != 1) return NULL;
    return var_leaf(e->ref.uid, e->name.parts[0]);
}

/* An argument of a size term's application: a size term, or a term of
 * another integer type: a literal, a name, a built-in operator or a
 * function applied to such terms (i64.u32 (1u32 << n)). */
static Exp *arg_term(Exp *a) {
    Exp *h = tc_size_term(a);
    Ty *t = a->ty ? tc_head(a->ty) : NULL;
    if (h || !t || t->kind != TY_PRIM || !prim_is_int(t->prim)) return h;
    switch (a->kind) {
    case EX_INT:
        h = size_node(EX_INT);
        h->ivalue = a->ivalue;
        h->has_suffix = true;
        h->suffix = t->prim;
        break;
    case EX_VAR:
        h = local_leaf(a);
        break;
    case EX_BINOP: {
        if (a->ref.kind != REF_NONE) return NULL;
        Exp *l = arg_term(a->e1), *r = l ? arg_term(a->e2) : NULL;
        if (!r) return NULL;
        h = size_node(EX_BINOP);
        h->loc = a->loc;
        h->op = a->op;
        h->e1 = l;
        h->e2 = r;
        break;
    }
    case EX_APPLY:
        h = apply_term(a);
        break;
    default:
        return NULL;
    }
    if (h) h->ty = a->ty;
    return h;
}

/* f a b as a size term: f a top-level function, the arguments arg_terms. */
static Exp *apply_term(Exp *e) {
    Ref *f = &e->e1->ref;
    if (e->e1->kind != EX_VAR || (f->kind != REF_GLOBAL && f->kind != REF_NUMERIC) || f->nvar_parts) return NULL;
    Exp *c = size_node(EX_APPLY);
    c->loc = e->loc;
    c->e1 = e->e1;
    c->nelems = e->nelems;
    c->elems = NEW_ARRAY(tc.a, Exp *, e->nelems);
    for (int i = 0; i < e->nelems; i++)
        if (!(c->elems[i] = arg_term(e->elems[i]))) return NULL;
    return c;
}

/* A copy of the checked expression e as a size expression, or NULL if e is
 * not one (it then denotes an unknown size). */
Exp *tc_size_term(Exp *e) {
    if (!e || !e->ty || !tc_is_prim(e->ty, PT_I64)) return NULL;
    int64_t c;
    switch (e->kind) {
    case EX_INT:
        return int_leaf((int64_t)e->ivalue);
    case EX_VAR:
        if (literal_constant(e, &c)) return int_leaf(c);
        if (e->ref.kind == REF_GLOBAL && !e->ref.nvar_parts && e->ref.decl && !e->ref.decl->nparams &&
            !e->ref.decl->ntparams) {
            Exp *g = size_node(EX_VAR);
            g->loc = e->loc;
            g->name = e->name;
            g->ref = e->ref;
            return g;
        }
        return local_leaf(e);
    case EX_APPLY:
        return apply_term(e);
    case EX_BINOP: {
        if (e->ref.kind != REF_NONE || !is_size_op(e->op)) return NULL;
        Exp *l = tc_size_term(e->e1), *r = l ? tc_size_term(e->e2) : NULL;
        if (!r) return NULL;
        Exp *c = size_node(EX_BINOP);
        c->loc = e->loc;
        c->op = e->op;
        c->e1 = l;
        c->e2 = r;
        return size_binop(c, l, r);
    }
    default:
        return NULL;
    }
}

/* The size of a checked expression used as a size: a literal, a name or a
 * size expression; unknown otherwise. */
Size tc_exp_size(Exp *e) {
    Exp *t = tc_size_term(e);
    return t ? tc_term_size(t) : tc_size_any();
}

Size tc_int_size(Exp *e) {
    Exp *t = arg_term(e);
    if (!t) return tc_size_any();
    if (t->kind == EX_VAR) return tc_term_size(t); /* a name */
    Size s = {.kind = SZ_EXP, .exp = t};      /* a literal keeps its type (no SZ_CONST) */
    return s;
}

/* e with each name leaf replaced through map_size; sets *any when a leaf
 * becomes unknown. */
static Exp *map_size_exp(Exp *e, Size (*f)(Size, void *), void *ctx, bool *any) {
    if (*any) return e;
    if (e->kind == EX_VAR) {
        Size v = tc_map_size(tc_size_var(e->ref.uid, e->name.parts[0]), f, ctx);
        if (v.kind == SZ_VAR && v.uid == e->ref.uid) return e;
        Exp *x = tc_size_as_exp(v);
        if (!x) *any = true;
        return x ? x : e;
    }
    if (e->kind == EX_BINOP) {
        Exp *l = map_size_exp(e->e1, f, ctx, any);
        Exp *r = map_size_exp(e->e2, f, ctx, any);
        return *any ? e : size_binop(e, l, r);
    }
    if (e->kind == EX_APPLY) {
        Exp **args = NEW_ARRAY(tc.a, Exp *, e->nelems);
        bool same = true;
        for (int i = 0; i < e->nelems; i++) {
            args[i] = map_size_exp(e->elems[i], f, ctx, any);
            same &= args[i] == e->elems[i];
        }
        if (*any || same) return e;
        Exp *c = size_node(EX_APPLY);
        *c = *e;
        c->elems = args;
        return c;
    }
    return e;
}

/* s with bound size variables resolved (also inside size expressions) and
 * every other name (or variable) leaf v replaced by f(v). */
Size tc_map_size(Size s, Size (*f)(Size, void *), void *ctx) {
    s = tc_size_head(s);
    if (s.kind != SZ_EXP) return f(s, ctx);
    bool any = false;
    Exp *e = map_size_exp(s.exp, f, ctx, &any);
    return any ? tc_size_any() : tc_term_size(e);
}

static Size keep_size(Size s, void *ctx) {
    (void)ctx;
    return s;
}

/* s with bound size variables resolved, also inside size expressions. */
Size tc_size_resolve(Size s) { return tc_map_size(s, keep_size, NULL); }

/* Whether size terms a and b apply the same function to as many arguments. */
bool tc_same_callee(Exp *a, Exp *b) {
    return a->kind == EX_APPLY && b->kind == EX_APPLY && a->e1->ref.decl == b->e1->ref.decl &&
           a->nelems == b->nelems;
}

bool tc_exp_same(Exp *a, Exp *b) {
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case EX_INT:
        return a->ivalue == b->ivalue;
    case EX_VAR:
        return a->ref.uid == b->ref.uid && a->ref.decl == b->ref.decl;
    case EX_BINOP:
        return strcmp(a->op, b->op) == 0 && tc_exp_same(a->e1, b->e1) && tc_exp_same(a->e2, b->e2);
    case EX_APPLY:
        if (!tc_same_callee(a, b)) return false;
        for (int i = 0; i < a->nelems; i++)
            if (!tc_exp_same(a->elems[i], b->elems[i])) return false;
        return true;
    default:
        return false;
    }
}

/* Whether two sizes are known to be the same. */
bool tc_size_same(Size a, Size b) {
    a = tc_size_resolve(a);
    b = tc_size_resolve(b);
    if (a.kind != b.kind) return false;
    switch (a.kind) {
    case SZ_CONST:
        return a.c == b.c;
    case SZ_VAR:
        return a.uid == b.uid;
    case SZ_EXP:
        return tc_exp_same(a.exp, b.exp);
    case SZ_ANY:
        break;
    }
    return false;
}
