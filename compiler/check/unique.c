/* Uniqueness checking (Futhark's in-place update rules, "In-place Updates"
 * and "Alias Analysis" in the language reference) over one checked
 * definition: every binding instance may be consumed (by `with`, `let a[i]`,
 * a unique parameter of a called function, or an in-place updated loop
 * parameter) only if it and everything it aliases is unique, never from
 * inside a lambda or local function, or inside a loop body, when bound
 * outside it, and must not be used after it was consumed (also not by
 * another argument of the call that consumes it); a declared unique result
 * must not alias a non-unique parameter. Aliases are tracked per
 * tuple/record element; a function value (lambda, local function, partial
 * application) aliases the arrays it refers to. */
#include <string.h>

#include "check_internal.h"

/* An alias value: the binding instances a value may share memory with, as
 * a tree following the tuple/record structure of its type (n > 0). */
typedef struct AV {
    int *roots;
    int nroots;
    struct AV **elems;
    int n;
} AV;

/* A binding instance. Instance 0 stands for top-level constants. */
typedef struct Inst {
    const char *name;
    bool consumable; /* a unique parameter or a local binding */
    bool is_param;
    int lambda_depth;
    int loop_depth;
    bool consumed;
    SrcLoc loc, consumed_at;
} Inst;

/* A name in scope: the newest instance of a uid and what it aliases. */
typedef struct UVar {
    int uid;
    int inst;
    AV *av;
    Ty *ty;
} UVar;

static VEC(Inst) insts;
static VEC(UVar) uenv;
static int lambda_depth;
static int loop_depth;

static AV *empty_av(void) { return NEW(tc.a, AV); }

static AV *leaf_av(const int *roots, int n) {
    AV *a = NEW(tc.a, AV);
    a->roots = NEW_ARRAY(tc.a, int, n + 1);
    if (n) memcpy(a->roots, roots, sizeof(int) * (size_t)n);
    a->nroots = n;
    return a;
}

typedef VEC(int) IntVec;

/* Instances referred to from inside lambdas and local functions (for the
 * aliases of function values), innermost last. */
static IntVec captured;

static void add_root(IntVec *v, int r) {
    for (int i = 0; i < v->len; i++)
        if (v->items[i] == r) return;
    vec_push(v, r);
}

static void flatten_into(AV *a, IntVec *v) {
    if (!a) return;
    for (int i = 0; i < a->nroots; i++) add_root(v, a->roots[i]);
    for (int i = 0; i < a->n; i++) flatten_into(a->elems[i], v);
}

/* The union of a and b as one set (structure dropped). */
static AV *av_union(AV *a, AV *b) {
    IntVec v = {0};
    flatten_into(a, &v);
    flatten_into(b, &v);
    AV *r = leaf_av(v.items, v.len);
    vec_free(&v);
    return r;
}

static AV *av_elem(AV *a, int i) {
    if (!a) return empty_av();
    if (a->n > i) {
        if (!a->nroots) return a->elems[i];
        return av_union(a->elems[i], leaf_av(a->roots, a->nroots));
    }
    return a->n ? av_union(a, NULL) : a;
}

/* Element union where both have the same structure, else a flat union. */
static AV *av_merge(AV *a, AV *b) {
    if (a && b && a->n && a->n == b->n && !a->nroots && !b->nroots) {
        AV *r = NEW(tc.a, AV);
        r->n = a->n;
        r->elems = NEW_ARRAY(tc.a, AV *, a->n);
        for (int i = 0; i < a->n; i++) r->elems[i] = av_merge(a->elems[i], b->elems[i]);
        return r;
    }
    return av_union(a, b);
}

/* Whether a value of type t can alias an array: arrays, type variables and
 * function values (closures), or tuples and records of them. */
static bool has_array(Ty *t) {
    if (!t) return false;
    switch (t->kind) {
    case TY_ARRAY:
    case TY_VAR:
    case TY_ARROW:
        return true;
    case TY_TUPLE:
        for (int i = 0; i < t->n; i++)
            if (has_array(t->elems[i])) return true;
        return false;
    case TY_RECORD:
        for (int i = 0; i < t->n; i++)
            if (has_array(t->fields[i].ty)) return true;
        return false;
    default:
        return false;
    }
}

/* The index of field name in record or tuple type t, or -1. */
static int field_index(Ty *t, const char *name) {
    if (!t) return -1;
    if (t->kind == TY_RECORD) {
        for (int i = 0; i < t->n; i++)
            if (strcmp(t->fields[i].name, name) == 0) return i;
    } else if (t->kind == TY_TUPLE) {
        for (int i = 0; i < t->n; i++)
            if (strcmp(arena_printf(tc.a, "%d", i), name) == 0) return i;
    }
    return -1;
}

static Ty *field_ty(Ty *t, int i) {
    if (!t || i < 0) return NULL;
    return t->kind == TY_RECORD ? t->fields[i].ty : t->kind == TY_TUPLE ? t->elems[i] : NULL;
}

/* ---- Instances and the scope -------------------------------------------------------- */

static int new_inst(const char *name, bool consumable, bool is_param, SrcLoc loc) {
    Inst in = {0};
    in.name = name;
    in.consumable = consumable;
    in.is_param = is_param;
    in.lambda_depth = lambda_depth;
    in.loop_depth = loop_depth;
    in.loc = loc;
    vec_push(&insts, in);
    return insts.len - 1;
}

static UVar *find_uid(int uid) {
    for (int i = uenv.len - 1; i >= 0; i--)
        if (uenv.items[i].uid == uid) return &uenv.items[i];
    return NULL;
}

/* Adds instance inst to every leaf of av (a variable aliases itself). */
static AV *with_root(AV *av, int inst) {
    if (av && av->n) {
        AV *r = NEW(tc.a, AV);
        *r = *av;
        r->elems = NEW_ARRAY(tc.a, AV *, av->n);
        for (int i = 0; i < av->n; i++) r->elems[i] = with_root(av->elems[i], inst);
        return r;
    }
    IntVec v = {0};
    add_root(&v, inst);
    flatten_into(av, &v);
    AV *r = leaf_av(v.items, v.len);
    vec_free(&v);
    return r;
}

static void bind_uid(int uid, int inst, AV *av, Ty *ty) {
    UVar u = {uid, inst, av, ty};
    vec_push(&uenv, u);
}

/* Drops roots that are no longer in scope (bound inside a construct). */
static AV *av_in_scope(AV *a) {
    if (!a) return empty_av();
    AV *r = NEW(tc.a, AV);
    r->n = a->n;
    if (a->n) {
        r->elems = NEW_ARRAY(tc.a, AV *, a->n);
        for (int i = 0; i < a->n; i++) r->elems[i] = av_in_scope(a->elems[i]);
    }
    r->roots = NEW_ARRAY(tc.a, int, a->nroots + 1);
    for (int i = 0; i < a->nroots; i++) {
        bool live = a->roots[i] == 0;
        for (int k = 0; k < uenv.len && !live; k++) live = uenv.items[k].inst == a->roots[i];
        if (live) r->roots[r->nroots++] = a->roots[i];
    }
    return r;
}

/* ---- Errors ------------------------------------------------------------------------ */

static void fail_with_note(SrcLoc loc, SrcLoc note_loc, const char *note, const char *msg) {
    diag_error(loc, "%s", msg);
    if (note) diag_note(note_loc, "%s", note);
    if (tc.bail) longjmp(*tc.bail, 1);
}

static void observe(AV *a, SrcLoc loc, const char *name) {
    IntVec v = {0};
    flatten_into(a, &v);
    for (int i = 0; i < v.len; i++) {
        Inst *in = &insts.items[v.items[i]];
        if (!in->consumed) continue;
        const char *msg =
            strcmp(in->name, name) == 0
                ? arena_printf(tc.a, "'%s' is used after being consumed", name)
                : arena_printf(tc.a, "'%s' is used after '%s', which it aliases, was consumed", name,
                               in->name);
        const char *note = arena_printf(tc.a, "'%s' was consumed here", in->name);
        SrcLoc at = in->consumed_at;
        vec_free(&v);
        fail_with_note(loc, at, note, msg);
    }
    vec_free(&v);
}

/* Consumes everything a aliases; what names the consumed value. */
static void consume(AV *a, SrcLoc loc, const char *what) {
    IntVec v = {0};
    flatten_into(a, &v);
    for (int i = 0; i < v.len; i++) {
        Inst *in = &insts.items[v.items[i]];
        const char *msg = NULL, *note = NULL;
        SrcLoc nl = in->loc;
        if (in->consumed) {
            msg = arena_printf(tc.a, "'%s' is used after being consumed", in->name);
            note = arena_printf(tc.a, "'%s' was consumed here", in->name);
            nl = in->consumed_at;
        } else if (!in->consumable) {
            msg = strcmp(in->name, what) == 0
                      ? arena_printf(tc.a, "consuming '%s', which is not unique", what)
                      : arena_printf(tc.a, "consuming '%s', which aliases '%s', which is not unique",
                                     what, in->name);
            if (in->is_param) note = arena_printf(tc.a, "declare '%s' with a unique type (*) to consume it", in->name);
        } else if (in->lambda_depth < lambda_depth) {
            msg = arena_printf(tc.a,
                               "consuming '%s', which is bound outside the enclosing lambda or local function",
                               in->name);
        } else if (in->loop_depth < loop_depth) {
            msg = arena_printf(tc.a,
                               "consuming '%s', which is bound outside the loop, in the loop body (a later iteration would use it after it was consumed)",
                               in->name);
        }
        if (msg) {
            vec_free(&v);
            fail_with_note(loc, nl, note, msg);
        }
        in->consumed = true;
        in->consumed_at = loc;
    }
    vec_free(&v);
}

/* ---- Patterns ---------------------------------------------------------------------- */

typedef struct Leaf {
    int inst;
    AV *init;
} Leaf;
typedef VEC(Leaf) LeafVec;

/* Binds the names of p to parts of av. Parameters are consumable when
 * their type is unique; other bindings always are (their aliases decide). */
static void bind_pat(Pat *p, AV *av, bool is_param, LeafVec *leaves) {
    if (!p) return;
    switch (p->kind) {
    case P_ID: {
        bool consumable = !is_param || (p->ty && p->ty->unique);
        int inst = new_inst(p->name, consumable, is_param, p->loc);
        AV *own = is_param ? with_root(NULL, inst) : with_root(av, inst);
        bind_uid(p->uid, inst, own, p->ty);
        if (leaves) {
            Leaf l = {inst, av};
            vec_push(leaves, l);
        }
        break;
    }
    case P_TUPLE:
        if (p->nelems == 1) {
            bind_pat(p->elems[0], av, is_param, leaves);
            break;
        }
        for (int i = 0; i < p->nelems; i++) bind_pat(p->elems[i], av_elem(av, i), is_param, leaves);
        break;
    case P_RECORD:
        for (int i = 0; i < p->nfields; i++)
            bind_pat(p->fields[i].pat, av_elem(av, field_index(p->ty, p->fields[i].name)), is_param,
                     leaves);
        break;
    case P_ASCRIBE:
        bind_pat(p->inner, av, is_param, leaves);
        break;
    default:
        break;
    }
}

/* ---- Expressions ------------------------------------------------------------------- */

static AV *u_exp(Exp *e);

/* The aliases of a result of type t computed from src: unique parts and
 * parts without arrays alias nothing. */
static AV *av_for_type(Ty *t, AV *src) {
    if (!t || t->unique || !has_array(t)) return empty_av();
    if ((t->kind == TY_TUPLE || t->kind == TY_RECORD) && t->n > 0) {
        AV *r = NEW(tc.a, AV);
        r->n = t->n;
        r->elems = NEW_ARRAY(tc.a, AV *, t->n);
        for (int i = 0; i < t->n; i++)
            r->elems[i] = av_for_type(field_ty(t, i), src && src->n == t->n ? src->elems[i] : src);
        return r;
    }
    return av_union(src, NULL);
}

static AV *var_av(Exp *e) {
    const char *name = e->name.nparts > 0 ? e->name.parts[e->name.nparts - 1] : "?";
    if (e->ref.kind == REF_GLOBAL) {
        int zero = 0;
        return has_array(e->ty) ? leaf_av(&zero, 1) : empty_av();
    }
    if (e->ref.kind != REF_LOCAL) return empty_av();
    UVar *u = find_uid(e->ref.uid);
    if (!u) return empty_av();
    name = e->name.parts[0];
    observe(u->av, e->loc, name);
    if (lambda_depth > 0 && has_array(u->ty ? u->ty : e->ty)) flatten_into(u->av, &captured);
    AV *a = u->av;
    Ty *t = u->ty;
    int first = e->ref.nvar_parts ? e->ref.nvar_parts : e->name.nparts;
    for (int i = first; i < e->name.nparts; i++) {
        int k = field_index(t, e->name.parts[i]);
        a = av_elem(a, k);
        t = field_ty(t, k);
    }
    return has_array(e->ty) ? a : empty_av();
}

/* The name of what an expression consumes, for messages. */
static const char *exp_name(Exp *e) {
    while (e && (e->kind == EX_INDEX || e->kind == EX_PROJECT || e->kind == EX_ASCRIBE)) e = e->e1;
    if (e && e->kind == EX_VAR && e->name.nparts > 0) return e->name.parts[0];
    return "the expression";
}

/* Reports an instance among observed that was consumed (by an argument
 * of the same call: earlier consumption is reported where it is used). */
static void check_args_live(IntVec *observed, SrcLoc loc) {
    for (int i = 0; i < observed->len; i++) {
        Inst *in = &insts.items[observed->items[i]];
        if (!in->consumed) continue;
        const char *msg = arena_printf(
            tc.a, "'%s' is consumed by this call or one of its arguments, but another argument uses it", in->name);
        const char *note = arena_printf(tc.a, "'%s' was consumed here", in->name);
        SrcLoc at = in->consumed_at;
        vec_free(observed);
        fail_with_note(loc, at, note, msg);
    }
}

/* Applies a function of type fty to args: consumes the arguments given for
 * unique parameters; what the other arguments (and the function value)
 * alias must not be consumed. Returns the aliases of the result. */
static AV *apply_av(AV *fav, Ty *fty, Exp **args, AV **avs, int n, Ty *result, SrcLoc loc) {
    IntVec observed = {0};
    flatten_into(fav, &observed);
    Ty *t = fty;
    for (int i = 0; i < n; i++) {
        if (t && t->kind == TY_ARROW) {
            if (t->param && t->param->unique) consume(avs[i], args[i]->loc, exp_name(args[i]));
            else flatten_into(avs[i], &observed);
            t = t->result;
        } else {
            flatten_into(avs[i], &observed);
        }
    }
    check_args_live(&observed, loc);
    AV *src = leaf_av(observed.items, observed.len);
    vec_free(&observed);
    return av_for_type(result, src);
}

static AV *apply_exp(Exp *e) {
    AV *fav = u_exp(e->e1);
    AV **avs = NEW_ARRAY(tc.a, AV *, e->nelems + 1);
    for (int i = 0; i < e->nelems; i++) avs[i] = u_exp(e->elems[i]);
    return apply_av(fav, e->e1->ty, e->elems, avs, e->nelems, e->ty, e->loc);
}

static Ty *arrow_result(Ty *f, Ty *otherwise) {
    return f && f->kind == TY_ARROW && f->result ? f->result : otherwise;
}

static AV *binop_exp(Exp *e) {
    AV *a = u_exp(e->e1), *b = u_exp(e->e2);
    Exp *args[2] = {e->e1, e->e2};
    AV *avs[2] = {a, b};
    if (e->ref.kind != REF_NONE) {
        UVar *u = e->ref.kind == REF_LOCAL ? find_uid(e->ref.uid) : NULL;
        Ty *fty = u ? u->ty : (e->ref.decl ? e->ref.decl->ty : NULL);
        return apply_av(NULL, fty, args, avs, 2, e->ty, e->loc);
    }
    /* x |> f is f x: the result is as unique as f's result */
    if (strcmp(e->op, "|>") == 0)
        return apply_av(b, e->e2->ty, args, avs, 1, arrow_result(e->e2->ty, e->ty), e->loc);
    if (strcmp(e->op, "<|") == 0)
        return apply_av(a, e->e1->ty, args + 1, avs + 1, 1, arrow_result(e->e1->ty, e->ty), e->loc);
    return empty_av();
}

static void slice_uses(DimIndex *s, int n) {
    for (int i = 0; i < n && s; i++) {
        u_exp(s[i].index);
        u_exp(s[i].start);
        u_exp(s[i].end);
        u_exp(s[i].stride);
    }
}

/* A function body (lambda or local function): consuming anything bound
 * outside is an error. Returns the aliases of the function value: the
 * instances bound outside that the body refers to. */
static AV *function_body(Pat **params, int nparams, Exp *body) {
    int mark = uenv.len, first_inst = insts.len, cmark = captured.len;
    lambda_depth++;
    for (int i = 0; i < nparams; i++) bind_pat(params[i], NULL, true, NULL);
    u_exp(body);
    lambda_depth--;
    uenv.len = mark;
    IntVec outer = {0};
    for (int i = cmark; i < captured.len; i++)
        if (captured.items[i] < first_inst) add_root(&outer, captured.items[i]);
    captured.len = cmark;
    if (lambda_depth > 0)
        for (int i = 0; i < outer.len; i++) vec_push(&captured, outer.items[i]);
    AV *r = leaf_av(outer.items, outer.len);
    vec_free(&outer);
    return r;
}

static AV *let_exp(Exp *e) {
    AV *a = u_exp(e->e1);
    int mark = uenv.len;
    bind_pat(e->pat, a, false, NULL);
    AV *r = u_exp(e->e2);
    uenv.len = mark;
    return av_in_scope(r);
}

static AV *let_update_exp(Exp *e) {
    UVar *u = find_uid(e->fname_uid);
    slice_uses(e->slice, e->nslice);
    u_exp(e->e1);
    int mark = uenv.len;
    if (u) {
        UVar old = *u;
        observe(old.av, e->loc, e->fname);
        consume(old.av, e->loc, e->fname);
        int inst = new_inst(e->fname, true, false, e->loc);
        bind_uid(e->fname_uid, inst, with_root(NULL, inst), old.ty);
    }
    AV *r = u_exp(e->e2);
    uenv.len = mark;
    return av_in_scope(r);
}

static AV *update_exp(Exp *e) {
    slice_uses(e->slice, e->nslice);
    u_exp(e->e2);
    AV *a = u_exp(e->e1);
    consume(a, e->e1->loc, exp_name(e->e1));
    return empty_av();
}

/* Consumption state of all instances, for alternative paths. */
typedef struct Snapshot {
    bool *consumed;
    SrcLoc *at;
    int n;
} Snapshot;

static Snapshot snapshot(void) {
    Snapshot s = {NEW_ARRAY(tc.a, bool, insts.len + 1), NEW_ARRAY(tc.a, SrcLoc, insts.len + 1), insts.len};
    for (int i = 0; i < insts.len; i++) {
        s.consumed[i] = insts.items[i].consumed;
        s.at[i] = insts.items[i].consumed_at;
    }
    return s;
}

static void restore(Snapshot s) {
    for (int i = 0; i < s.n; i++) {
        insts.items[i].consumed = s.consumed[i];
        insts.items[i].consumed_at = s.at[i];
    }
}

static AV *if_exp(Exp *e) {
    u_exp(e->e1);
    Snapshot before = snapshot();
    AV *a = u_exp(e->e2);
    Snapshot after_then = snapshot();
    restore(before);
    AV *b = u_exp(e->e3);
    for (int i = 0; i < after_then.n; i++)
        if (after_then.consumed[i] && !insts.items[i].consumed) {
            insts.items[i].consumed = true;
            insts.items[i].consumed_at = after_then.at[i];
        }
    return av_merge(a, b);
}

/* A loop: the initial value and a for loop's bound or array are evaluated
 * outside it; the body must not consume what is bound outside it except
 * through the loop parameters. */
static AV *loop_exp(Exp *e) {
    AV *init = u_exp(e->e1);
    AV *xs = e->form == LOOP_WHILE ? NULL : u_exp(e->e3);
    loop_depth++;
    int mark = uenv.len;
    LeafVec params = {0};
    bind_pat(e->pat, init, false, &params);
    /* inside the body, loop parameters alias only themselves */
    for (int i = uenv.len - 1; i >= mark; i--)
        uenv.items[i].av = with_root(NULL, uenv.items[i].inst);
    if (e->form == LOOP_FOR_IN) {
        bind_pat(e->pat2, xs, false, NULL);
    } else if (e->form == LOOP_FOR_UPTO) {
        bind_uid(e->loop_var_uid, new_inst(e->loop_var, true, false, e->loc), empty_av(), NULL);
    } else {
        u_exp(e->e3);
    }
    AV *body = u_exp(e->e2);
    loop_depth--;
    bool any_consumed = false;
    for (int i = 0; i < params.len; i++) {
        Inst *in = &insts.items[params.items[i].inst];
        if (!in->consumed) continue;
        any_consumed = true;
        in->consumed = false;
        consume(params.items[i].init, e->e1->loc, exp_name(e->e1));
    }
    vec_free(&params);
    uenv.len = mark;
    AV *r = av_in_scope(body);
    return any_consumed ? r : av_merge(init, r);
}

static AV *record_exp(Exp *e) {
    Ty *t = e->ty;
    AV **avs = NEW_ARRAY(tc.a, AV *, e->nfields + 1);
    for (int i = 0; i < e->nfields; i++) avs[i] = u_exp(e->fields[i].exp);
    if (!t || t->kind != TY_RECORD || t->n != e->nfields) return empty_av();
    AV *r = NEW(tc.a, AV);
    r->n = t->n;
    r->elems = NEW_ARRAY(tc.a, AV *, t->n);
    for (int i = 0; i < e->nfields; i++) {
        int k = field_index(t, e->fields[i].name);
        if (k >= 0) r->elems[k] = avs[i];
    }
    for (int i = 0; i < t->n; i++)
        if (!r->elems[i]) r->elems[i] = empty_av();
    return r;
}

static AV *tuple_exp(Exp *e) {
    if (e->nelems == 1) return u_exp(e->elems[0]);
    AV *r = NEW(tc.a, AV);
    r->n = e->nelems;
    r->elems = NEW_ARRAY(tc.a, AV *, e->nelems + 1);
    for (int i = 0; i < e->nelems; i++) r->elems[i] = u_exp(e->elems[i]);
    return r;
}

static AV *u_exp(Exp *e) {
    if (!e) return empty_av();
    switch (e->kind) {
    case EX_VAR:
        return var_av(e);
    case EX_TUPLE:
        return tuple_exp(e);
    case EX_RECORD:
        return record_exp(e);
    case EX_ARRAY:
        for (int i = 0; i < e->nelems; i++) u_exp(e->elems[i]);
        return empty_av();
    case EX_RANGE:
        u_exp(e->start);
        u_exp(e->second);
        u_exp(e->end);
        return empty_av();
    case EX_PROJECT: {
        AV *a = u_exp(e->e1);
        return has_array(e->ty) ? av_elem(a, field_index(e->e1->ty, e->field)) : empty_av();
    }
    case EX_INDEX: {
        AV *a = u_exp(e->e1);
        slice_uses(e->slice, e->nslice);
        return has_array(e->ty) ? a : empty_av();
    }
    case EX_BINOP:
        return binop_exp(e);
    case EX_NEG:
    case EX_NOT:
        u_exp(e->e1);
        return empty_av();
    case EX_APPLY:
        return apply_exp(e);
    case EX_LAMBDA:
        return function_body(e->params, e->nparams, e->e1);
    case EX_LETFUN: {
        AV *fav = function_body(e->params, e->nparams, e->e1);
        int mark = uenv.len;
        int inst = new_inst(e->fname, true, false, e->loc);
        bind_uid(e->fname_uid, inst, with_root(fav, inst), e->e1 ? e->ty : NULL);
        AV *r = u_exp(e->e2);
        uenv.len = mark;
        return av_in_scope(r);
    }
    case EX_SECTION:
        u_exp(e->e1);
        u_exp(e->e2);
        return empty_av();
    case EX_IF:
        return if_exp(e);
    case EX_LET:
        return let_exp(e);
    case EX_LET_UPDATE:
        return let_update_exp(e);
    case EX_LOOP:
        return loop_exp(e);
    case EX_UPDATE:
        return update_exp(e);
    case EX_RECORD_UPDATE: {
        AV *a = u_exp(e->e1);
        return av_union(a, u_exp(e->e2));
    }
    case EX_ASCRIBE:
    case EX_COERCE:
        return u_exp(e->e1);
    case EX_ASSERT:
        u_exp(e->e1);
        return u_exp(e->e2);
    default:
        return empty_av();
    }
}

/* A declared unique result must not alias a parameter that is not unique
 * (or a top-level constant). */
static void check_result(Ty *t, AV *a, SrcLoc loc) {
    if (!t || !a) return;
    if ((t->kind == TY_TUPLE || t->kind == TY_RECORD) && !t->unique) {
        for (int i = 0; i < t->n; i++) check_result(field_ty(t, i), av_elem(a, i), loc);
        return;
    }
    if (!t->unique) return;
    IntVec v = {0};
    flatten_into(a, &v);
    for (int i = 0; i < v.len; i++) {
        Inst *in = &insts.items[v.items[i]];
        if (in->consumable) continue;
        const char *msg = arena_printf(
            tc.a, "the result is declared unique, but it aliases '%s', which is not unique", in->name);
        SrcLoc nl = in->loc;
        vec_free(&v);
        fail_with_note(loc, nl, "returning an alias of a non-unique parameter", msg);
    }
    vec_free(&v);
}

void tc_check_uniqueness(Decl *d) {
    insts.len = 0;
    uenv.len = 0;
    lambda_depth = 0;
    loop_depth = 0;
    captured.len = 0;
    new_inst("a top-level constant", false, false, d->loc);
    for (int i = 0; i < d->ntparams; i++)
        if (d->tparams[i].kind == TP_SIZE)
            bind_uid(d->tparams[i].uid, new_inst(d->tparams[i].name, true, true, d->tparams[i].loc),
                     empty_av(), NULL);
    for (int i = 0; i < d->nparams; i++) bind_pat(d->params[i], NULL, true, NULL);
    AV *r = u_exp(d->body);
    if (d->body) check_result(d->ret_ty, r, d->body->loc);
}

void tc_unique_free(void) {
    vec_free(&insts);
    vec_free(&uenv);
    vec_free(&captured);
}
