/* Types during inference: construction, type and size variables (size
 * terms are in size_terms.c),
 * unification with constraints (overloaded primitives, equality, record
 * fields, sum constructors), substitution (instantiation of schemes and type abbreviations),
 * resolution of variables (zonking); show.c prints them for messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_internal.h"

Tc tc;

#define ALL_INT_BITS                                                                    \
    (TC_PRIM_BIT(PT_I8) | TC_PRIM_BIT(PT_I16) | TC_PRIM_BIT(PT_I32) | TC_PRIM_BIT(PT_I64) | \
     TC_PRIM_BIT(PT_U8) | TC_PRIM_BIT(PT_U16) | TC_PRIM_BIT(PT_U32) | TC_PRIM_BIT(PT_U64))
const unsigned TC_INTS = ALL_INT_BITS;
const unsigned TC_FLOATS = TC_PRIM_BIT(PT_F16) | TC_PRIM_BIT(PT_F32) | TC_PRIM_BIT(PT_F64);
const unsigned TC_NUMS = ALL_INT_BITS | TC_PRIM_BIT(PT_F16) | TC_PRIM_BIT(PT_F32) | TC_PRIM_BIT(PT_F64);
const unsigned TC_PRIMS = ALL_INT_BITS | TC_PRIM_BIT(PT_F16) | TC_PRIM_BIT(PT_F32) | TC_PRIM_BIT(PT_F64) |
                          TC_PRIM_BIT(PT_BOOL);

static const char *const prim_names[PT_COUNT] = {
#define X(e, name, ctype, size, cls) name,
#include "../ir/prim.def"
#undef X
};

const char *tc_prim_name(PrimType p) { return p < PT_COUNT ? prim_names[p] : "?"; }

bool tc_prim_from_name(const char *name, PrimType *out) {
    for (int i = 0; i < PT_COUNT; i++)
        if (strcmp(prim_names[i], name) == 0) {
            *out = (PrimType)i;
            return true;
        }
    return false;
}

/* ---- Errors --------------------------------------------------------------- */

void tc_fail(SrcLoc loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_verror(loc, fmt, ap);
    va_end(ap);
    if (tc.bail) longjmp(*tc.bail, 1);
    ICE("type error outside a definition");
}

/* s with its first letter in upper case (messages start with one). */
const char *tc_capital(const char *s) {
    if (!s || s[0] < 'a' || s[0] > 'z') return s;
    char *c = arena_strndup(tc.a, s, strlen(s));
    c[0] = (char)(c[0] - 'a' + 'A');
    return c;
}

/* The type an overloaded literal or operand takes when nothing decides it:
 * i64 for an index (of the types it may have), else by tc_default_prim. */
PrimType tc_default_var(const TVar *v) {
    return v->index && (v->prims & TC_PRIM_BIT(PT_I64)) ? PT_I64 : tc_default_prim(v->prims);
}

PrimType tc_default_prim(unsigned prims) {
    if (prims & TC_PRIM_BIT(PT_I32)) return PT_I32;
    if (prims & TC_PRIM_BIT(PT_F64)) return PT_F64;
    for (int p = 0; p < PT_COUNT; p++)
        if (prims & TC_PRIM_BIT(p)) return (PrimType)p;
    return PT_I32;
}

/* ---- Construction --------------------------------------------------------- */

static Ty *ty_new(TyKind k) {
    Ty *t = NEW(tc.a, Ty);
    t->kind = k;
    return t;
}

Ty *tc_prim(PrimType p) {
    Ty *t = ty_new(TY_PRIM);
    t->prim = p;
    return t;
}

Ty *tc_unit(void) { return ty_new(TY_TUPLE); }

Ty *tc_tuple(Ty **elems, int n) {
    Ty *t = ty_new(TY_TUPLE);
    t->elems = NEW_ARRAY(tc.a, Ty *, n);
    COPY_ARRAY(t->elems, elems, n);
    t->n = n;
    return t;
}

Ty *tc_arrow(Ty *param, Ty *result, const char *pname) {
    Ty *t = ty_new(TY_ARROW);
    t->param = param;
    t->result = result;
    t->pname = pname;
    return t;
}

/* A dependent arrow (pname: param) -> result whose parameter is the
 * binding puid: the checker keeps puid in the arrow's var field, so that
 * applying it replaces exactly the sizes that name that binding. */
Ty *tc_arrow_dep(Ty *param, Ty *result, const char *pname, int puid) {
    Ty *t = tc_arrow(param, result, pname);
    t->var = pname ? puid : 0;
    return t;
}

/* An array of elem; when elem is itself an array the dimensions are joined,
 * so an array's element is never an array. */
Ty *tc_array(Ty *elem, const Size *dims, int rank) {
    Ty *h = tc_head(elem);
    int inner = h->kind == TY_ARRAY ? h->rank : 0;
    Ty *t = ty_new(TY_ARRAY);
    t->rank = rank + inner;
    t->dims = NEW_ARRAY(tc.a, Size, t->rank);
    COPY_ARRAY(t->dims, dims, rank);
    if (inner) {
        COPY_ARRAY(t->dims + rank, h->dims, inner);
        t->elem = h->elem;
    } else {
        t->elem = elem;
    }
    tc_no_functions(t->elem);
    return t;
}

/* Whether field names names[0..n) are exactly "0" .. "n-1" (n != 1), the
 * fields of an n-tuple; pos[k] is then the index of field k. A record with
 * one field "0" stays a record, as there are no 1-tuples. */
bool tc_tuple_fields(const char **names, int n, int *pos) {
    if (n == 1) return false;
    for (int k = 0; k < n; k++) pos[k] = -1;
    for (int i = 0; i < n; i++) {
        const char *s = names[i];
        if (!s || !*s || (s[0] == '0' && s[1])) return false;
        long k = 0;
        for (; *s; s++) {
            if (*s < '0' || *s > '9' || k > n) return false;
            k = k * 10 + (*s - '0');
        }
        if (k >= n || pos[k] >= 0) return false;
        pos[k] = i;
    }
    return true;
}

static Ty *new_var(bool rigid, const char *name, SrcLoc loc) {
    TVar v = {0};
    v.level = tc.level;
    v.rigid = rigid;
    v.name = name;
    v.loc = loc;
    vec_push(&tc.vars, v);
    Ty *t = ty_new(TY_VAR);
    t->var = tc.vars.len - 1;
    t->var_name = name;
    return t;
}

Ty *tc_fresh(SrcLoc loc) { return new_var(false, NULL, loc); }

Ty *tc_fresh_rigid(const char *name, bool lifted) {
    SrcLoc none = {0};
    Ty *t = new_var(true, name, none);
    tc.vars.items[t->var].lifted = lifted;
    return t;
}

Ty *tc_fresh_lit(unsigned prims, SrcLoc loc) {
    Ty *t = new_var(false, NULL, loc);
    tc.vars.items[t->var].prims = prims;
    tc.vars.items[t->var].literal = true;
    return t;
}

Ty *tc_copy_unique(Ty *t, bool unique) {
    if (t->unique == unique) return t;
    Ty *c = ty_new(t->kind);
    *c = *t;
    c->unique = unique;
    return c;
}

Size tc_size_const(int64_t c) { return (Size){.kind = SZ_CONST, .c = c}; }
Size tc_size_any(void) { return (Size){.kind = SZ_ANY}; }
Size tc_size_var(int uid, const char *name) {
    return (Size){.kind = SZ_VAR, .uid = uid, .name = name};
}

Size tc_fresh_size(void) {
    SVar v = {0};
    v.level = tc.level;
    vec_push(&tc.svars, v);
    return tc_size_var(-(tc.svars.len - 1) - 1, NULL);
}

static SVar *svar_of(Size s) { return &tc.svars.items[-s.uid - 1]; }
/* (After checking, when the table is gone, no size is one: check_type_text.) */
static bool is_svar(Size s) { return s.kind == SZ_VAR && s.uid < 0 && -s.uid - 1 < tc.svars.len; }


/* ---- Resolution ------------------------------------------------------------ */

/* Follows bound size variables, shortening the chain as tc_head does. */
Size tc_size_head(Size s) {
    Size end = s;
    while (is_svar(end) && svar_of(end)->bound) end = svar_of(end)->val;
    while (is_svar(s) && svar_of(s)->bound) {
        SVar *v = svar_of(s);
        s = v->val;
        v->val = end;
    }
    return end;
}

/* Follows bound variables at the top of t and joins nested array types. */
Ty *tc_head(Ty *t) {
    if (!t) return tc_unit();
    Ty *end = t;
    while (end->kind == TY_VAR && end->var < tc.vars.len && tc.vars.items[end->var].bound)
        end = tc.vars.items[end->var].bound; /* (after checking the table is gone: check_type_text) */
    /* path compression: every variable on the chain is now bound to its
     * end, so that a chain is followed once however often it is asked
     * (an array literal binds each element's variable to the next) */
    while (t != end) {
        TVar *v = &tc.vars.items[t->var];
        t = v->bound;
        v->bound = end;
    }
    if (t->kind == TY_ARRAY) {
        Ty *h = tc_head(t->elem);
        if (h->kind == TY_ARRAY) {
            Ty *r = tc_array(h, t->dims, t->rank);
            r->unique = t->unique;
            return r;
        }
    }
    return t;
}

bool tc_is_prim(Ty *t, PrimType p) {
    t = tc_head(t);
    return t->kind == TY_PRIM && t->prim == p;
}

/* Set while tc_zonk rebuilds a type: abstract types whose definition is
 * known are replaced by it (the types written into the AST). */
static bool zonk_expands;

/* Rebuilds t with every bound variable replaced by its binding and each
 * size passed through fsize (with ctx). */
static Ty *map_ty(Ty *t, Size (*fsize)(Size, void *), void *ctx) {
    bool unique = t && t->unique;
    t = tc_head(t);
    Ty *r;
    switch (t->kind) {
    case TY_PRIM:
        r = t;
        break;
    case TY_VAR:
        r = t;
        if (!t->var_name && tc.vars.items[t->var].name) {
            r = ty_new(TY_VAR);
            *r = *t;
            r->var_name = tc.vars.items[t->var].name;
        }
        break;
    case TY_ARRAY: {
        Size *dims = NEW_ARRAY(tc.a, Size, t->rank);
        for (int i = 0; i < t->rank; i++) dims[i] = tc_map_size(t->dims[i], fsize, ctx);
        r = tc_array(map_ty(t->elem, fsize, ctx), dims, t->rank);
        break;
    }
    case TY_TUPLE:
    case TY_RECORD:
    case TY_SUM:
        r = ty_new(t->kind);
        *r = *t;
        if (t->kind == TY_TUPLE) {
            r->elems = NEW_ARRAY(tc.a, Ty *, t->n);
            for (int i = 0; i < t->n; i++) r->elems[i] = map_ty(t->elems[i], fsize, ctx);
        } else {
            r->fields = NEW_ARRAY(tc.a, TyField, t->n);
            for (int i = 0; i < t->n; i++) {
                r->fields[i].name = t->fields[i].name;
                r->fields[i].ty = map_ty(t->fields[i].ty, fsize, ctx);
            }
        }
        break;
    case TY_ARROW:
        r = tc_arrow_dep(map_ty(t->param, fsize, ctx), map_ty(t->result, fsize, ctx), t->pname, t->var);
        break;
    case TY_ABSTRACT: {
        Ty *def = zonk_expands ? tc_abs_expand(t) : NULL;
        if (def) return map_ty(unique || t->unique ? tc_copy_unique(def, true) : def, fsize, ctx);
        r = ty_new(TY_ABSTRACT);
        *r = *t;
        r->elems = NEW_ARRAY(tc.a, Ty *, t->n);
        for (int i = 0; i < t->n; i++) r->elems[i] = map_ty(t->elems[i], fsize, ctx);
        r->dims = NEW_ARRAY(tc.a, Size, t->rank);
        for (int i = 0; i < t->rank; i++) r->dims[i] = tc_map_size(t->dims[i], fsize, ctx);
        break;
    }
    default:
        r = t;
    }
    if (unique || t->unique) r = tc_copy_unique(r, true);
    return r;
}

static Size zonk_size(Size s, void *ctx) {
    (void)ctx;
    return is_svar(s) ? tc_size_any() : s;
}

Ty *tc_zonk(Ty *t) {
    zonk_expands = true;
    Ty *r = map_ty(t, zonk_size, NULL);
    zonk_expands = false;
    return r;
}

/* s with bound size variables resolved and unknown ones SZ_ANY. */
Size tc_zonk_size(Size s) { return tc_map_size(s, zonk_size, NULL); }

static Size forget_size(Size s, void *ctx) {
    int mark = *(int *)ctx;
    if (s.kind == SZ_VAR && s.uid > mark) return tc_size_any();
    return s;
}

/* t with sizes bound after uid_mark (names going out of scope) unknown. */
Ty *tc_forget_sizes(Ty *t, int uid_mark) { return map_ty(t, forget_size, &uid_mark); }

static Size any_size(Size s, void *ctx) {
    (void)s;
    (void)ctx;
    return tc_size_any();
}

Ty *tc_any_sizes(Ty *t) { return map_ty(t, any_size, NULL); }

bool tc_contains_arrow(Ty *t) {
    t = tc_head(t);
    switch (t->kind) {
    case TY_ARROW:
        return true;
    case TY_VAR:
        return tc.vars.items[t->var].rigid && tc.vars.items[t->var].lifted;
    case TY_ABSTRACT:
        if (tc.abstracts.items[t->var].lifted == LIFT_FULL) return true;
        for (int i = 0; i < t->n; i++)
            if (tc_contains_arrow(t->elems[i])) return true;
        return false;
    case TY_ARRAY:
        return tc_contains_arrow(t->elem);
    case TY_TUPLE:
        for (int i = 0; i < t->n; i++)
            if (tc_contains_arrow(t->elems[i])) return true;
        return false;
    case TY_RECORD:
    case TY_SUM:
        for (int i = 0; i < t->n; i++)
            if (tc_contains_arrow(t->fields[i].ty)) return true;
        return false;
    default:
        return false;
    }
}

/* ---- Unification -------------------------------------------------------------- */

typedef enum FailKind {
    F_NONE, F_MISMATCH, F_SIZE, F_PRIMS, F_FIELD, F_CONSTR, F_ARITY, F_OCCURS, F_EQ, F_DIET, F_BOUND, F_FUNC, F_SCOPE
} FailKind;

/* Why the innermost unification failed, for the message. */
static struct {
    FailKind kind;
    Ty *a, *b;
    Size sa, sb;
    unsigned prims;
    const char *field; /* F_FIELD, F_CONSTR, F_ARITY; F_BOUND: the parameter name; F_SCOPE: the type parameter's */
    FieldCon *constrs; /* F_CONSTR: the constraints that fail.a does not meet */
} fail;

/* Parameters of arrow types being unified with each other bind sizes in
 * their results (a dependent arrow (n: i64) -> [n]t): a type or size
 * variable bound outside may not take a size that mentions them. Arrows
 * nest no deeper in practice; deeper ones are not checked. */
enum { MAX_BOUND_PARAMS = 64 };
static struct {
    const char *name;
    int uid; /* 0: match by name */
} bound_params[MAX_BOUND_PARAMS];
static int nbound_params;

static bool unify_rec(Ty *a, Ty *b, int mode);

static bool set_fail(FailKind k, Ty *a, Ty *b) {
    fail.kind = k;
    fail.a = a;
    fail.b = b;
    return false;
}

static bool strict_uid(int uid) { return uid > 0 && uid < tc.strict.len && tc.strict.items[uid]; }

static bool size_mentions(Size s, int uid);

/* Matches size expressions a and b structurally, binding the unknown size
 * variables among their leaves when bind is set. */
static bool match_size_exp(Exp *a, Exp *b, bool bind) {
    Size sa = tc_size_resolve(tc_term_size(a)), sb = tc_size_resolve(tc_term_size(b));
    if (is_svar(sb) && !is_svar(sa)) {
        Size t = sa;
        sa = sb;
        sb = t;
    }
    if (is_svar(sa)) {
        if (is_svar(sb) && sa.uid == sb.uid) return true;
        if (size_mentions(sb, sa.uid)) return false;
        if (bind) {
            svar_of(sa)->bound = true;
            svar_of(sa)->val = sb;
        }
        return true;
    }
    if (sa.kind == SZ_CONST && sb.kind == SZ_CONST) return sa.c == sb.c;
    if (sa.kind == SZ_VAR && sb.kind == SZ_VAR) return sa.uid == sb.uid;
    /* the structure of expressions; a literal folded from an expression
     * (its exp) matches what that expression matches */
    Exp *x = sa.kind == SZ_EXP || sa.kind == SZ_CONST ? sa.exp : NULL;
    Exp *y = sb.kind == SZ_EXP || sb.kind == SZ_CONST ? sb.exp : NULL;
    if (!x || !y) return false;
    if (x->kind == EX_VAR || y->kind == EX_VAR) return tc_exp_same(x, y);
    if (tc_same_callee(x, y)) {
        for (int i = 0; i < x->nelems; i++)
            if (!match_size_exp(x->elems[i], y->elems[i], bind)) return false;
        return true;
    }
    if (x->kind != EX_BINOP || y->kind != EX_BINOP) return false;
    return strcmp(x->op, y->op) == 0 && match_size_exp(x->e1, y->e1, bind) && match_size_exp(x->e2, y->e2, bind);
}

static bool exp_mentions_param(Exp *e, const char **name);

/* The bound parameter name a size mentions, or NULL. */
static const char *size_mentions_param(Size s) {
    s = tc_size_resolve(s);
    const char *name = NULL;
    if (s.kind == SZ_VAR && s.uid > 0 && s.name) {
        for (int i = 0; i < nbound_params; i++)
            if (bound_params[i].uid > 0 ? bound_params[i].uid == s.uid : strcmp(bound_params[i].name, s.name) == 0)
                return s.name;
    } else if (s.kind == SZ_EXP && exp_mentions_param(s.exp, &name)) {
        return name;
    }
    return NULL;
}

static bool exp_mentions_param(Exp *e, const char **name) {
    if (e->kind == EX_VAR) return (*name = size_mentions_param(tc_size_var(e->ref.uid, e->name.parts[0]))) != NULL;
    if (e->kind == EX_BINOP) return exp_mentions_param(e->e1, name) || exp_mentions_param(e->e2, name);
    for (int i = 0; e->kind == EX_APPLY && i < e->nelems; i++)
        if (exp_mentions_param(e->elems[i], name)) return true;
    return false;
}

/* The bound parameter name some size in t mentions, or NULL. */
static const char *ty_mentions_param(Ty *t) {
    if (!nbound_params) return NULL;
    t = tc_head(t);
    const char *r = NULL;
    switch (t->kind) {
    case TY_ARRAY:
        for (int i = 0; i < t->rank && !r; i++) r = size_mentions_param(t->dims[i]);
        return r ? r : ty_mentions_param(t->elem);
    case TY_TUPLE:
        for (int i = 0; i < t->n && !r; i++) r = ty_mentions_param(t->elems[i]);
        return r;
    case TY_RECORD:
        for (int i = 0; i < t->n && !r; i++) r = ty_mentions_param(t->fields[i].ty);
        return r;
    case TY_ARROW:
        r = ty_mentions_param(t->param);
        return r ? r : ty_mentions_param(t->result);
    default:
        return NULL;
    }
}

/* A size expression as term + offset (term NULL for a constant). */
static Exp *size_offset(Size s, int64_t *off) {
    *off = 0;
    if (s.kind == SZ_CONST) {
        *off = s.c;
        return NULL;
    }
    Exp *e = tc_size_as_exp(s);
    if (e && e->kind == EX_BINOP && e->e2->kind == EX_INT && (strcmp(e->op, "+") == 0 || strcmp(e->op, "-") == 0)) {
        *off = strcmp(e->op, "+") == 0 ? (int64_t)e->e2->ivalue : -(int64_t)e->e2->ivalue;
        return e->e1;
    }
    if (e && e->kind == EX_BINOP && e->e1->kind == EX_INT && strcmp(e->op, "+") == 0) {
        *off = (int64_t)e->e1->ivalue;
        return e->e2;
    }
    return e;
}

/* Whether two (resolved) sizes certainly differ: n + 1 and n + 2, n and
 * n + 1 (the same term with different constant offsets). */
static bool sizes_differ(Size a, Size b) {
    int64_t oa, ob;
    Exp *ta = size_offset(a, &oa), *tb = size_offset(b, &ob);
    if (!ta || !tb) return false; /* constants against expressions: unknown */
    return oa != ob && tc_exp_same(ta, tb);
}

static bool unify_size(Size a, Size b, int mode) {
    a = tc_size_resolve(a);
    b = tc_size_resolve(b);
    if (is_svar(a) && is_svar(b) && a.uid == b.uid) return true;
    if ((mode & U_COERCE) && is_svar(b)) return true;
    if (is_svar(b) && !is_svar(a)) {
        Size t = a;
        a = b;
        b = t;
    }
    if (is_svar(a)) {
        if (b.kind == SZ_ANY || size_mentions(b, a.uid)) return true;
        const char *p = size_mentions_param(b);
        if (p) {
            fail.field = p;
            fail.kind = F_BOUND;
            return false;
        }
        if (is_svar(b) && svar_of(b)->level > svar_of(a)->level)
            svar_of(b)->level = svar_of(a)->level;
        svar_of(a)->bound = true;
        svar_of(a)->val = b;
        return true;
    }
    if (a.kind == SZ_ANY || b.kind == SZ_ANY) return true;
    if (a.kind == SZ_EXP || b.kind == SZ_EXP) {
        /* n + m against k + (n - k): the parts must match; size expressions
         * that do not match are not known to differ */
        Exp *x = tc_size_as_exp(a), *y = tc_size_as_exp(b);
        if (x && y && match_size_exp(x, y, false)) {
            match_size_exp(x, y, true);
            return true;
        }
        if (!(mode & U_LENIENT_SIZES) && sizes_differ(a, b)) {
            fail.kind = F_SIZE;
            fail.sa = a;
            fail.sb = b;
            return false;
        }
        return true;
    }
    if (mode & U_LENIENT_SIZES) return true;
    bool ok = true;
    if (a.kind == SZ_CONST && b.kind == SZ_CONST) ok = a.c == b.c;
    else if (a.kind == SZ_VAR && b.kind == SZ_VAR)
        ok = a.uid == b.uid || !strict_uid(a.uid) || !strict_uid(b.uid);
    else if (a.kind == SZ_VAR) ok = !strict_uid(a.uid);
    else ok = !strict_uid(b.uid);
    if (!ok) {
        fail.kind = F_SIZE;
        fail.sa = a;
        fail.sb = b;
    }
    return ok;
}

static bool exp_mentions(Exp *e, int uid) {
    if (e->kind == EX_VAR) return e->ref.uid == uid || size_mentions(tc_size_var(e->ref.uid, NULL), uid);
    if (e->kind == EX_BINOP) return exp_mentions(e->e1, uid) || exp_mentions(e->e2, uid);
    for (int i = 0; e->kind == EX_APPLY && i < e->nelems; i++)
        if (exp_mentions(e->elems[i], uid)) return true;
    return false;
}

/* Whether size s refers to size variable uid (after resolution). */
static bool size_mentions(Size s, int uid) {
    s = tc_size_head(s);
    if (s.kind == SZ_VAR) return s.uid == uid;
    return s.kind == SZ_EXP && exp_mentions(s.exp, uid);
}

bool tc_size_in_data(Ty *t, int uid, bool whole) {
    t = tc_head(t);
    switch (t->kind) {
    case TY_ARRAY:
        for (int i = 0; i < t->rank; i++) {
            Size s = tc_size_resolve(t->dims[i]);
            if (whole ? s.kind == SZ_VAR && s.uid == uid : size_mentions(s, uid)) return true;
        }
        return tc_size_in_data(t->elem, uid, whole);
    case TY_ABSTRACT:
        for (int i = 0; i < t->rank; i++) {
            Size s = tc_size_resolve(t->dims[i]);
            if (whole ? s.kind == SZ_VAR && s.uid == uid : size_mentions(s, uid)) return true;
        }
        /* fall through */
    case TY_TUPLE:
        for (int i = 0; i < t->n; i++)
            if (tc_size_in_data(t->elems[i], uid, whole)) return true;
        return false;
    case TY_RECORD:
        for (int i = 0; i < t->n; i++)
            if (tc_size_in_data(t->fields[i].ty, uid, whole)) return true;
        return false;
    default:
        return false;
    }
}

static bool occurs(int v, Ty *t) {
    t = tc_head(t);
    switch (t->kind) {
    case TY_VAR:
        return t->var == v;
    case TY_ARRAY:
        return occurs(v, t->elem);
    case TY_ABSTRACT:
    case TY_TUPLE:
        for (int i = 0; i < t->n; i++)
            if (occurs(v, t->elems[i])) return true;
        return false;
    case TY_RECORD:
    case TY_SUM:
        for (int i = 0; i < t->n; i++)
            if (occurs(v, t->fields[i].ty)) return true;
        return false;
    case TY_ARROW:
        return occurs(v, t->param) || occurs(v, t->result);
    default:
        return false;
    }
}

/* Lowers the level of every variable in t to at most level, so that a
 * variable reachable from an outer binding is not generalised. */
void tc_no_functions(Ty *t) {
    t = tc_head(t);
    switch (t->kind) {
    case TY_VAR:
        if (!tc.vars.items[t->var].rigid) tc.vars.items[t->var].nofun = true;
        break;
    case TY_ARRAY: tc_no_functions(t->elem); break;
    case TY_TUPLE:
        for (int i = 0; i < t->n; i++) tc_no_functions(t->elems[i]);
        break;
    case TY_RECORD:
    case TY_SUM:
        for (int i = 0; i < t->n; i++) tc_no_functions(t->fields[i].ty);
        break;
    default: break;
    }
}

static void adjust_levels(Ty *t, int level) {
    t = tc_head(t);
    switch (t->kind) {
    case TY_VAR:
        if (tc.vars.items[t->var].level > level) tc.vars.items[t->var].level = level;
        break;
    case TY_ARRAY:
        for (int i = 0; i < t->rank; i++) {
            Size s = tc_size_head(t->dims[i]);
            if (is_svar(s) && svar_of(s)->level > level) svar_of(s)->level = level;
        }
        adjust_levels(t->elem, level);
        break;
    case TY_ABSTRACT:
        for (int i = 0; i < t->rank; i++) {
            Size s = tc_size_head(t->dims[i]);
            if (is_svar(s) && svar_of(s)->level > level) svar_of(s)->level = level;
        }
        /* fall through */
    case TY_TUPLE:
        for (int i = 0; i < t->n; i++) adjust_levels(t->elems[i], level);
        break;
    case TY_RECORD:
    case TY_SUM:
        for (int i = 0; i < t->n; i++) adjust_levels(t->fields[i].ty, level);
        break;
    case TY_ARROW:
        adjust_levels(t->param, level);
        adjust_levels(t->result, level);
        break;
    default:
        break;
    }
}

/* The type of field name in a record or tuple type t (of constructor name
 * in a sum type t: its payload tuple), or NULL. */
static Ty *lookup_field(Ty *t, const char *name) {
    if (t->kind == TY_RECORD || t->kind == TY_SUM) {
        for (int i = 0; i < t->n; i++)
            if (t->fields[i].name == name || strcmp(t->fields[i].name, name) == 0)
                return t->fields[i].ty;
        return NULL;
    }
    if (t->kind == TY_TUPLE) {
        char *end;
        long i = strtol(name, &end, 10);
        if (*name && !*end && i >= 0 && i < t->n) return t->elems[i];
    }
    return NULL;
}

/* Adds the field or constructor constraints cs to the list *into, unifying
 * the types of those of the same name. */
static bool merge_cons(FieldCon *cs, FieldCon **into) {
    for (FieldCon *f = cs; f; f = f->next) {
        FieldCon *g = *into;
        while (g && g->name != f->name) g = g->next;
        if (g) {
            if (!unify_rec(g->ty, f->ty, 0)) return false;
        } else {
            FieldCon *n = NEW(tc.a, FieldCon);
            *n = *f;
            n->next = *into;
            *into = n;
        }
    }
    return true;
}

/* Checks the field (kind TY_RECORD) or constructor (TY_SUM) constraints cs
 * against t, the type their variable was bound to. */
static bool check_cons(FieldCon *cs, Ty *t, TyKind kind) {
    bool has = t->kind == kind || (kind == TY_RECORD && t->kind == TY_TUPLE);
    for (FieldCon *f = cs; f; f = f->next) {
        Ty *ft = has ? lookup_field(t, f->name) : NULL;
        fail.field = f->name;
        fail.constrs = cs;
        if (!ft) return set_fail(kind == TY_SUM ? F_CONSTR : F_FIELD, t, NULL);
        if (kind == TY_SUM && tc_head(ft)->n != tc_head(f->ty)->n) return set_fail(F_ARITY, t, NULL);
        if (!unify_rec(ft, f->ty, 0)) return false;
    }
    return true;
}

/* Moves the constraints of flexible variable v onto flexible variable w. */
static bool merge_into(TVar *v, TVar *w, Ty *wt) {
    if (v->prims) {
        unsigned m = w->prims ? (w->prims & v->prims) : v->prims;
        if (!m) {
            fail.prims = v->prims;
            return set_fail(F_PRIMS, wt, NULL);
        }
        w->prims = m;
    }
    w->eq |= v->eq;
    w->nofun |= v->nofun;
    w->literal |= v->literal;
    w->index |= v->index;
    if (w->level > v->level) w->level = v->level;
    if (!merge_cons(v->fields, &w->fields) || !merge_cons(v->constrs, &w->constrs)) return false;
    if (w->prims && w->constrs) { /* a number cannot be a sum */
        fail.field = w->constrs->name;
        fail.constrs = w->constrs;
        return set_fail(F_CONSTR, wt, NULL);
    }
    return true;
}

/* A type parameter in t bound more locally than level (a local
 * function's), or NULL. */
static const char *local_rigid(Ty *t, int level) {
    t = tc_head(t);
    switch (t->kind) {
    case TY_VAR: {
        TVar *w = &tc.vars.items[t->var];
        return w->rigid && w->level > level ? w->name : NULL;
    }
    case TY_ARRAY: return local_rigid(t->elem, level);
    case TY_ARROW: {
        const char *r = local_rigid(t->param, level);
        return r ? r : local_rigid(t->result, level);
    }
    case TY_TUPLE:
    case TY_RECORD:
    case TY_SUM:
        for (int i = 0; i < t->n; i++) {
            const char *r = local_rigid(t->kind == TY_TUPLE ? t->elems[i] : t->fields[i].ty, level);
            if (r) return r;
        }
        return NULL;
    default: return NULL;
    }
}

/* Binds flexible variable v to t (already resolved at its head), checking
 * v's constraints; a variable of an outer scope cannot take a type
 * parameter of a local function (Futhark's scope-violation). */
static bool bind_var(int v, Ty *t) {
    TVar *tv = &tc.vars.items[v];
    const char *local = local_rigid(t, tv->level);
    if (local) {
        fail.field = local;
        return set_fail(F_SCOPE, t, NULL);
    }
    if (t->kind == TY_VAR) {
        TVar *w = &tc.vars.items[t->var];
        if (w->rigid) {
            if (tv->nofun && w->lifted) return set_fail(F_FUNC, t, NULL);
            if (tv->prims) {
                fail.prims = tv->prims;
                return set_fail(F_PRIMS, t, NULL);
            }
            if (tv->fields || tv->constrs)
                return check_cons(tv->fields, t, TY_RECORD) && check_cons(tv->constrs, t, TY_SUM);
        } else if (!merge_into(tv, w, t)) {
            return false;
        }
        tc.vars.items[v].bound = tc_copy_unique(t, false);
        return true;
    }
    if (occurs(v, t)) return set_fail(F_OCCURS, NULL, t);
    const char *p = ty_mentions_param(t);
    if (p) {
        fail.field = p;
        return set_fail(F_BOUND, t, NULL);
    }
    if (tv->prims && (t->kind != TY_PRIM || !(tv->prims & TC_PRIM_BIT(t->prim)))) {
        fail.prims = tv->prims;
        return set_fail(F_PRIMS, t, NULL);
    }
    if (tv->eq && tc_contains_arrow(t)) return set_fail(F_EQ, t, NULL);
    if (tv->nofun && tc_contains_arrow(t)) return set_fail(F_FUNC, t, NULL);
    if (tv->nofun) tc_no_functions(t);
    adjust_levels(t, tv->level);
    tv->bound = tc_copy_unique(t, false); /* uniqueness belongs to the use, not the type */
    if (check_cons(tv->fields, t, TY_RECORD) && check_cons(tv->constrs, t, TY_SUM)) return true;
    tc.vars.items[v].bound = NULL; /* messages show the constraints that t does not meet */
    return false;
}

static bool unify_arrays(Ty *a, Ty *b, int mode) {
    if (a->rank > b->rank) {
        Ty *t = a;
        a = b;
        b = t;
    }
    for (int i = 0; i < a->rank; i++)
        if (!unify_size(a->dims[i], b->dims[i], mode)) {
            fail.a = a;
            fail.b = b;
            return false;
        }
    if (a->rank == b->rank) return unify_rec(a->elem, b->elem, mode);
    return unify_rec(a->elem, tc_array(b->elem, b->dims + a->rank, b->rank - a->rank), mode);
}

/* Whether a parameter of type t consumes (part of) its argument. */
static bool consumes(Ty *t) {
    if (!t) return false;
    if (t->unique) return true;
    t = tc_head(t);
    if (t->unique) return true;
    if (t->kind == TY_TUPLE || t->kind == TY_RECORD)
        for (int i = 0; i < t->n; i++)
            if (consumes(t->kind == TY_TUPLE ? t->elems[i] : t->fields[i].ty)) return true;
    return false;
}

/* Function types: with U_DIET, a function that consumes its argument
 * (actual b) cannot stand for one that does not (expected a). The
 * parameter names of dependent arrows are bound in the results. */
static bool unify_arrows(Ty *a, Ty *b, int mode) {
    if ((mode & U_DIET) && consumes(b->param) && !consumes(a->param))
        return set_fail(F_DIET, a->param, b->param);
    if (!unify_rec(a->param, b->param, mode)) return false;
    int mark = nbound_params;
    Ty *arrows[2] = {a, b};
    for (int i = 0; i < 2; i++)
        if (arrows[i]->pname && nbound_params < MAX_BOUND_PARAMS) {
            bound_params[nbound_params].name = arrows[i]->pname;
            bound_params[nbound_params++].uid = arrows[i]->var;
        }
    bool ok = unify_rec(a->result, b->result, mode);
    nbound_params = mark;
    return ok;
}

static bool unify_rec(Ty *a, Ty *b, int mode) {
    a = tc_head(a);
    b = tc_head(b);
    if (a == b) return true;
    if (a->kind == TY_VAR && b->kind == TY_VAR && a->var == b->var) return true;
    if (a->kind == TY_VAR && !tc.vars.items[a->var].rigid) return bind_var(a->var, b);
    if (b->kind == TY_VAR && !tc.vars.items[b->var].rigid) return bind_var(b->var, a);
    if (a->kind != b->kind) return set_fail(F_MISMATCH, a, b);
    switch (a->kind) {
    case TY_PRIM:
        return a->prim == b->prim || set_fail(F_MISMATCH, a, b);
    case TY_VAR:
        return set_fail(F_MISMATCH, a, b);
    case TY_ARRAY:
        return unify_arrays(a, b, mode);
    case TY_TUPLE:
        if (a->n != b->n) return set_fail(F_MISMATCH, a, b);
        for (int i = 0; i < a->n; i++)
            if (!unify_rec(a->elems[i], b->elems[i], mode)) return false;
        return true;
    case TY_RECORD:
    case TY_SUM:
        if (a->n != b->n) return set_fail(F_MISMATCH, a, b);
        for (int i = 0; i < a->n; i++)
            if (strcmp(a->fields[i].name, b->fields[i].name) != 0) return set_fail(F_MISMATCH, a, b);
        for (int i = 0; i < a->n; i++)
            if (!unify_rec(a->fields[i].ty, b->fields[i].ty, mode)) return false;
        return true;
    case TY_ARROW:
        return unify_arrows(a, b, mode);
    case TY_ABSTRACT:
        if (a->var != b->var || a->n != b->n || a->rank != b->rank) return set_fail(F_MISMATCH, a, b);
        for (int i = 0; i < a->rank; i++)
            if (!unify_size(a->dims[i], b->dims[i], mode)) {
                fail.a = a;
                fail.b = b;
                return false;
            }
        for (int i = 0; i < a->n; i++)
            if (!unify_rec(a->elems[i], b->elems[i], mode)) return false;
        return true;
    }
    return false;
}

/* Plain words for a constraint's set of primitive types. */
static const char *prims_desc(unsigned m) {
    if (m == TC_INTS) return "an integer type";
    if (m == TC_FLOATS) return "a floating-point type";
    if (m == TC_NUMS) return "a numeric type";
    if (m == TC_PRIMS) return "a primitive type";
    if (m == (TC_INTS | TC_PRIM_BIT(PT_BOOL))) return "bool or an integer type";
    if ((m & (m - 1)) == 0)
        for (int p = 0; p < PT_COUNT; p++)
            if (m == TC_PRIM_BIT(p)) return tc_prim_name((PrimType)p);
    return "one of the allowed primitive types";
}

/* The constructors that one of sum types a and b has and the other not,
 * in name order ("#c, #d"), or the fields of records a and b ("c, d"); a
 * NULL: the constraints cs that b does not meet (all of them when b is
 * NULL). */
static const char *unshared(Ty *a, FieldCon *cs, Ty *b) {
    Buf buf = {0};
    const char *mark = a && a->kind == TY_RECORD ? "" : "#"; /* fields, or constructors */
    for (FieldCon *f = cs; f; f = f->next)
        if (!b || !lookup_field(b, f->name)) buf_printf(&buf, "%s#%s", buf.len ? ", " : "", f->name);
    for (int i = 0, j = 0; a && (i < a->n || j < b->n);) {
        int c = i == a->n ? 1 : j == b->n ? -1 : strcmp(a->fields[i].name, b->fields[j].name);
        if (c == 0) {
            i++, j++;
            continue;
        }
        buf_printf(&buf, "%s%s%s", buf.len ? ", " : "", mark, c < 0 ? a->fields[i++].name : b->fields[j++].name);
    }
    const char *r = arena_strndup(tc.a, buf.data ? buf.data : "", buf.len);
    buf_free(&buf);
    return r;
}

/* Why unification failed, as a clause after "Couldn't match ...", or
 * NULL when the whole types are the mismatch. */
static const char *fail_detail(const char *e, const char *a) {
    switch (fail.kind) {
    case F_PRIMS:
        return arena_printf(tc.a, "%s is not %s", tc_show(fail.a), prims_desc(fail.prims));
    case F_FIELD:
        return arena_printf(tc.a, "Cannot unify record type with field \"%s\" with type %s", fail.field,
                            tc_show(fail.a));
    case F_ARITY:
        return arena_printf(tc.a, "the payloads of constructor #%s differ in arity", fail.field);
    case F_CONSTR:
        if (tc_head(fail.a)->kind == TY_SUM)
            return arena_printf(tc.a, "Unshared constructors: %s", unshared(NULL, fail.constrs, tc_head(fail.a)));
        return arena_printf(tc.a, "Cannot unify type with constructors %s with type %s",
                            unshared(NULL, fail.constrs, NULL), tc_show(fail.a));
    case F_OCCURS:
        return "Occurs check: the type would be infinite";
    case F_FUNC:
        return arena_printf(tc.a, "functional type %s is not allowed here: a function type may not be an array's "
                            "element, a loop parameter, a branch's result or an instance of a type parameter without ^",
                            tc_show(fail.a));
    case F_EQ:
        return arena_printf(tc.a, "%s does not support equality", tc_show(fail.a));
    case F_DIET:
        return arena_printf(tc.a, "parameters %s and %s are incompatible regarding consuming their arguments",
                            tc_show(fail.a), tc_show(fail.b));
    case F_SCOPE:
        return arena_printf(tc.a, "type parameter \"%s\" would escape its scope: a type bound outside its local "
                            "function cannot be it (Futhark's error index: scope-violation)", fail.field);
    case F_BOUND:
        return arena_printf(tc.a, "parameter \"%s\" used as a size would go out of scope, giving a type containing "
                            "anonymous sizes (the size of a result of a function argument cannot depend on its "
                            "parameter here)", fail.field);
    default: {
        if (fail.a && fail.b && tc_head(fail.a)->kind == TY_SUM && tc_head(fail.b)->kind == TY_SUM)
            return arena_printf(tc.a, "Unshared constructors: %s", unshared(tc_head(fail.a), NULL, tc_head(fail.b)));
        if (fail.a && fail.b && tc_head(fail.a)->kind == TY_RECORD && tc_head(fail.b)->kind == TY_RECORD)
            return arena_printf(tc.a, "unshared fields: %s", unshared(tc_head(fail.a), NULL, tc_head(fail.b)));
        const char *x = fail.a ? tc_show(fail.a) : e, *y = fail.b ? tc_show(fail.b) : a;
        if (strcmp(x, e) == 0 && strcmp(y, a) == 0) return NULL;
        return arena_printf(tc.a, "types %s and %s do not match", x, y);
    }
    }
}

void tc_unify(SrcLoc loc, Ty *expected, Ty *actual, int mode) { tc_unify_in(loc, expected, actual, mode, NULL); }

/* Unifies; on failure returns Futhark's "Couldn't match expected type ...
 * with actual type ..." (after the sentence context, if any). */
const char *tc_try_unify(Ty *expected, Ty *actual, int mode, const char *context) {
    fail.kind = F_NONE;
    nbound_params = 0;
    if (unify_rec(expected, actual, mode)) return NULL;
    const char *e = tc_show(expected), *a = tc_show(actual);
    const char *pre = context ? arena_printf(tc.a, "%s ", context) : "";
    if (fail.kind == F_SIZE)
        return arena_printf(tc.a, "%sSizes \"%s\" and \"%s\" do not match (expected type %s, actual type %s).", pre,
                            tc_size_text(fail.sa), tc_size_text(fail.sb), e, a);
    const char *d = fail_detail(e, a);
    if (d) return arena_printf(tc.a, "%sCouldn't match expected type %s with actual type %s: %s.", pre, e, a, d);
    return arena_printf(tc.a, "%sCouldn't match expected type %s with actual type %s.", pre, e, a);
}

/* Unifies and on failure reports tc_try_unify's message. */
void tc_unify_in(SrcLoc loc, Ty *expected, Ty *actual, int mode, const char *context) {
    const char *why = tc_try_unify(expected, actual, mode, context);
    if (why) tc_fail(loc, "%s", why);
}

/* Requires t to be one of the primitive types in prims (what names the
 * construct, for the message). */
void tc_constrain(SrcLoc loc, Ty *t, unsigned prims, const char *what) {
    Ty *h = tc_head(t);
    if (h->kind == TY_VAR && !tc.vars.items[h->var].rigid) {
        TVar *v = &tc.vars.items[h->var];
        unsigned m = v->prims ? (v->prims & prims) : prims;
        if (m && !v->fields && !v->constrs) {
            v->prims = m;
            return;
        }
        if (v->constrs) h = NULL;
    } else if (h->kind == TY_PRIM && (prims & TC_PRIM_BIT(h->prim))) {
        return;
    }
    tc_fail(loc, "%s requires %s, but the operand has %stype %s.", tc_capital(what), prims_desc(prims),
            !h || h->kind == TY_SUM ? "the sum " : "", tc_show(t));
}

void tc_constrain_eq(SrcLoc loc, Ty *t, const char *what) {
    Ty *h = tc_head(t);
    if (h->kind == TY_VAR && !tc.vars.items[h->var].rigid) {
        tc.vars.items[h->var].eq = true;
        return;
    }
    if (tc_contains_arrow(h))
        tc_fail(loc, "%s cannot compare values of type %s, which contains a function.", tc_capital(what),
                tc_show(t));
}

/* The type of t.field; a variable of unknown type gets a field constraint. */
Ty *tc_field_type(SrcLoc loc, Ty *t, const char *field) {
    Ty *h = tc_head(t);
    if (h->kind == TY_VAR && !tc.vars.items[h->var].rigid && !tc.vars.items[h->var].prims &&
        !tc.vars.items[h->var].constrs) {
        TVar *v = &tc.vars.items[h->var];
        for (FieldCon *f = v->fields; f; f = f->next)
            if (f->name == field) return f->ty;
        FieldCon *f = NEW(tc.a, FieldCon);
        f->name = field;
        f->ty = tc_fresh(loc);
        f->next = v->fields;
        tc.vars.items[h->var].fields = f;
        return f->ty;
    }
    Ty *ft = h->kind == TY_SUM ? NULL : lookup_field(h, field);
    if (!ft) {
        if (h->kind == TY_RECORD || h->kind == TY_TUPLE)
            tc_fail(loc, "Type %s has no field \"%s\".", tc_show(t), field);
        tc_fail(loc, "Cannot access field \"%s\" of a value of type %s, which is not a record.",
                field, tc_show(t));
    }
    return ft;
}

/* The type of `if` branches a and b (already unified with lenient sizes):
 * a, with the sizes in which the two differ unknown. */
Ty *tc_join(Ty *a, Ty *b) {
    bool unique = a->unique && b->unique;
    a = tc_head(a);
    b = tc_head(b);
    Ty *r = a;
    if (a->kind == TY_ARRAY && b->kind == TY_ARRAY && a->rank == b->rank) {
        Size *dims = NEW_ARRAY(tc.a, Size, a->rank);
        for (int i = 0; i < a->rank; i++) {
            Size x = tc_size_resolve(a->dims[i]);
            dims[i] = tc_size_same(x, b->dims[i]) ? x : tc_size_any();
        }
        r = tc_array(tc_join(a->elem, b->elem), dims, a->rank);
    } else if (a->kind == TY_TUPLE && b->kind == TY_TUPLE && a->n == b->n) {
        Ty **el = NEW_ARRAY(tc.a, Ty *, a->n);
        for (int i = 0; i < a->n; i++) el[i] = tc_join(a->elems[i], b->elems[i]);
        r = tc_tuple(el, a->n);
    } else if (a->kind == TY_RECORD && b->kind == TY_RECORD && a->n == b->n) {
        r = ty_new(TY_RECORD);
        r->n = a->n;
        r->fields = NEW_ARRAY(tc.a, TyField, a->n);
        for (int i = 0; i < a->n; i++) {
            r->fields[i].name = a->fields[i].name;
            r->fields[i].ty = tc_join(a->fields[i].ty, b->fields[i].ty);
        }
    }
    return tc_copy_unique(r, unique);
}

/* ---- Substitution -------------------------------------------------------------- */

static Size subst_size(Size s, void *ctx) {
    const Subst *sub = ctx;
    if (s.kind == SZ_VAR)
        for (int i = 0; i < sub->ns; i++)
            if (sub->skeys[i] == s.uid) return tc_size_head(sub->svals[i]);
    return s;
}

static Ty *subst_rec(Ty *t, const Subst *s) {
    bool unique = t && t->unique;
    Ty *h = tc_head(t);
    if (h->kind == TY_VAR) {
        for (int i = 0; i < s->nt; i++)
            if (s->tkeys[i] == h->var) {
                Ty *r = s->tvals[i];
                return (unique || h->unique) ? tc_copy_unique(r, true) : r;
            }
        return h;
    }
    Ty *r;
    switch (h->kind) {
    case TY_ARRAY: {
        Size *dims = NEW_ARRAY(tc.a, Size, h->rank);
        for (int i = 0; i < h->rank; i++) dims[i] = tc_map_size(h->dims[i], subst_size, (void *)s);
        r = tc_array(subst_rec(h->elem, s), dims, h->rank);
        break;
    }
    case TY_TUPLE: {
        Ty **el = NEW_ARRAY(tc.a, Ty *, h->n);
        for (int i = 0; i < h->n; i++) el[i] = subst_rec(h->elems[i], s);
        r = tc_tuple(el, h->n);
        break;
    }
    case TY_RECORD:
    case TY_SUM:
        r = ty_new(h->kind);
        r->n = h->n;
        r->fields = NEW_ARRAY(tc.a, TyField, h->n);
        for (int i = 0; i < h->n; i++) {
            r->fields[i].name = h->fields[i].name;
            r->fields[i].ty = subst_rec(h->fields[i].ty, s);
        }
        break;
    case TY_ARROW:
        r = tc_arrow_dep(subst_rec(h->param, s), subst_rec(h->result, s), h->pname, h->var);
        break;
    case TY_ABSTRACT:
        r = ty_new(TY_ABSTRACT);
        *r = *h;
        r->unique = false;
        r->elems = NEW_ARRAY(tc.a, Ty *, h->n);
        for (int i = 0; i < h->n; i++) r->elems[i] = subst_rec(h->elems[i], s);
        r->dims = NEW_ARRAY(tc.a, Size, h->rank);
        for (int i = 0; i < h->rank; i++) r->dims[i] = tc_map_size(h->dims[i], subst_size, (void *)s);
        break;
    default:
        r = h;
    }
    return (unique || h->unique) ? tc_copy_unique(r, true) : r;
}

Ty *tc_subst(Ty *t, const Subst *s) { return subst_rec(t, s); }

/* A fresh instance of sch: new flexible variables for its type variables
 * and new size variables for its sizes. */
Ty *tc_instantiate(Scheme *sch, Size **sizes) {
    *sizes = NULL;
    if (!sch->ntvars && !sch->nsvars) return sch->ty;
    Subst s = {sch->tvars, NEW_ARRAY(tc.a, Ty *, sch->ntvars), sch->ntvars,
               sch->svars, NEW_ARRAY(tc.a, Size, sch->nsvars), sch->nsvars};
    for (int i = 0; i < sch->ntvars; i++) {
        TVar *old = &tc.vars.items[sch->tvars[i]];
        bool eq = old->eq, lifted = old->lifted;
        unsigned prims = old->prims;
        const char *name = old->name;
        Ty *v = tc_fresh(old->loc);
        tc.vars.items[v->var].name = name;
        tc.vars.items[v->var].eq = eq;
        tc.vars.items[v->var].prims = prims;
        tc.vars.items[v->var].lifted = lifted;
        tc.vars.items[v->var].nofun = !lifted;
        s.tvals[i] = v;
    }
    for (int i = 0; i < sch->nsvars; i++) s.svals[i] = tc_fresh_size();
    *sizes = s.svals;
    return tc_subst(sch->ty, &s);
}

static Size pname_size(Size s, void *ctx) {
    Size *repl = ctx;
    if (s.kind != SZ_VAR || s.uid <= 0) return s;
    if (repl[0].uid > 0 ? s.uid == repl[0].uid : s.name == repl[0].name) return repl[1];
    return s;
}

/* t with the sizes that name the dependent parameter (binding puid, or
 * when 0 the name pname) replaced by s. */
Ty *tc_subst_pname(Ty *t, const char *pname, int puid, Size s) {
    Size repl[2] = {{.name = pname, .uid = puid}, s};
    return map_ty(t, pname_size, repl);
}
