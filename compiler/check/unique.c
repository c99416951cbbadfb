/* Uniqueness checking (Futhark's in-place update rules, "In-place Updates"
 * and "Alias Analysis" in the language reference) over one checked
 * definition: every binding instance may be consumed (by `with`, `let a[i]`,
 * a unique parameter of a called function, or an in-place updated loop
 * parameter) only if it and everything it aliases is unique, never from
 * inside a lambda or local function, or inside a loop body, when bound
 * outside it, and must not be used after it was consumed (also not by
 * another argument of the call that consumes it); a declared unique result
 * must not alias a non-unique parameter, nor another component of the
 * result. A parameter of tuple type with unique components consumes those
 * components of its argument, whose components must then not alias one
 * another ("self-aliased"). A loop whose body consumes a loop parameter
 * must not return, for it, a value that aliases something bound outside
 * the loop or another returned value. An argument or let-bound value of
 * function type must not consume anything when it is evaluated (a
 * function value that has consumed could be applied many times). Aliases
 * are tracked per tuple/record element; a function value (lambda, local
 * function, partial application) aliases the arrays it refers to. A name
 * going out of scope stays in the aliases of the values it reached, as a
 * "free" instance: it cannot be consumed or used any more, but two values
 * that both alias it alias each other. Messages follow Futhark's. */
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
    bool free; /* gone out of scope */
    SrcLoc loc, consumed_at;
} Inst;

/* A name in scope: the newest instance of a uid and what it aliases. */
typedef struct UVar {
    int uid;
    int inst;
    AV *av;
    Ty *ty;
    int hides; /* the UVar of the same uid it hides, or -1 */
} UVar;

static VEC(Inst) insts;
static VEC(UVar) uenv;
static int lambda_depth;
static int loop_depth;
static int nconsumptions; /* consume() calls outside function bodies */

static AV *empty_av(void) { return NEW(tc.a, AV); }

static AV *leaf_av(const int *roots, int n) {
    AV *a = NEW(tc.a, AV);
    a->roots = NEW_ARRAY(tc.a, int, n + 1);
    COPY_ARRAY(a->roots, roots, n);
    a->nroots = n;
    return a;
}

typedef VEC(int) IntVec;

/* Instances referred to from inside lambdas and local functions (for the
 * aliases of function values), innermost last. */
static IntVec captured;

/* By uid: the index in uenv of its newest UVar, or -1, so that finding a
 * name takes one step however long the scope (scanning uenv made a long
 * chain of lets quadratic). */
static IntVec uid_top;

/* What the function value and the arguments of the call being checked
 * alias (apply_av). Like every vector that lives across a call that may
 * report an error (which leaves the checker with longjmp), it is part of
 * the checker's state, reset per definition and freed by tc_unique_free. */
static IntVec call_roots;

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
    case TY_SUM:
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
    int i = uid >= 0 && uid < uid_top.len ? uid_top.items[uid] : -1;
    return i >= 0 ? &uenv.items[i] : NULL;
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
    if (uid < 0) ICE("binding uid %d", uid);
    while (uid_top.len <= uid) vec_push(&uid_top, -1);
    UVar u = {uid, inst, av, ty, uid_top.items[uid]};
    uid_top.items[uid] = uenv.len;
    vec_push(&uenv, u);
}

/* Ends the scope of the names bound since mark: their instances become
 * free. */
static void leave_scope(int mark) {
    for (; uenv.len > mark; uenv.len--) {
        UVar *u = &uenv.items[uenv.len - 1];
        insts.items[u->inst].free = true;
        uid_top.items[u->uid] = u->hides;
    }
}

/* Whether a value of type t is (or contains) a function. */
static bool has_function(Ty *t) {
    if (!t) return false;
    if (t->kind == TY_ARROW) return true;
    if (t->kind == TY_TUPLE || t->kind == TY_RECORD)
        for (int i = 0; i < t->n; i++)
            if (has_function(t->kind == TY_TUPLE ? t->elems[i] : t->fields[i].ty)) return true;
    return false;
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
        if (!in->consumed || in->free) continue;
        const char *msg =
            strcmp(in->name, name) == 0
                ? arena_printf(tc.a, "Using variable \"%s\", but this was consumed.", name)
                : arena_printf(tc.a, "Using variable \"%s\", but \"%s\", which it aliases, was consumed.", name,
                               in->name);
        const char *note = arena_printf(tc.a, "\"%s\" was consumed here", in->name);
        SrcLoc at = in->consumed_at;
        vec_free(&v);
        fail_with_note(loc, at, note, msg);
    }
    vec_free(&v);
}

/* Why instance in may not be consumed at this point (what names the
 * consumed value), or NULL; *note and *note_loc may give a note. */
static const char *consume_error(Inst *in, const char *what, const char **note, SrcLoc *note_loc) {
    *note_loc = in->loc;
    if (in->consumed) {
        *note = arena_printf(tc.a, "\"%s\" was consumed here", in->name);
        *note_loc = in->consumed_at;
        return arena_printf(tc.a, "Using variable \"%s\", but this was consumed.", in->name);
    }
    if (!in->consumable) {
        if (in->is_param) *note = arena_printf(tc.a, "declare \"%s\" with a unique type (*) to consume it", in->name);
        if (strcmp(in->name, what) == 0)
            return arena_printf(tc.a, "Consuming variable \"%s\", which is not consumable.", what);
        return arena_printf(tc.a, "Consuming variable \"%s\", which aliases \"%s\", which is not consumable.", what,
                            in->name);
    }
    if (in->lambda_depth < lambda_depth)
        return arena_printf(tc.a,
                            "Consuming variable \"%s\", which is bound outside the enclosing lambda or local "
                            "function (not consumable there).",
                            in->name);
    if (in->loop_depth < loop_depth)
        return arena_printf(tc.a,
                            "Consuming variable \"%s\", which is bound outside the loop: it is not consumable in "
                            "the loop body (a later iteration would use it after it was consumed).",
                            in->name);
    return NULL;
}

/* Consumes everything a aliases; what names the consumed value. */
static void consume(AV *a, SrcLoc loc, const char *what) {
    IntVec v = {0};
    flatten_into(a, &v);
    nconsumptions++;
    for (int i = 0; i < v.len; i++) {
        Inst *in = &insts.items[v.items[i]];
        if (in->free) continue;
        const char *note = NULL;
        SrcLoc nl;
        const char *msg = consume_error(in, what, &note, &nl);
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

/* The parameters of the loops being checked, innermost last (loop_exp):
 * part of the checker's state like call_roots. */
static LeafVec loop_params;

/* Whether a parameter of type t may be consumed: it is unique, or a tuple
 * or record whose array components all are. */
static bool param_consumable(Ty *t) {
    if (!t) return false;
    if (t->unique) return true;
    if ((t->kind != TY_TUPLE && t->kind != TY_RECORD) || t->n == 0) return false;
    for (int i = 0; i < t->n; i++) {
        Ty *f = field_ty(t, i);
        if (f && f->kind != TY_PRIM && !param_consumable(f)) return false;
    }
    return true;
}

/* Binds the names of p to parts of av. Parameters are consumable when
 * their type is unique; other bindings always are (their aliases decide). */
static void bind_pat(Pat *p, AV *av, bool is_param, LeafVec *leaves) {
    if (!p) return;
    switch (p->kind) {
    case P_ID: {
        bool consumable = !is_param || param_consumable(p->ty);
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
    case P_CONSTR: /* a sum value's aliases are one set: each payload has them all */
        for (int i = 0; i < p->nelems; i++) bind_pat(p->elems[i], av_union(av, NULL), is_param, leaves);
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
        /* a top-level function captures nothing; a constant is shared */
        if (e->ref.decl && e->ref.decl->nparams > 0) return empty_av();
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
        if (!in->consumed || in->free) continue;
        const char *msg = arena_printf(
            tc.a, "Variable \"%s\" is consumed by this call or one of its arguments, but another argument uses it.",
            in->name);
        const char *note = arena_printf(tc.a, "\"%s\" was consumed here", in->name);
        fail_with_note(loc, in->consumed_at, note, msg);
    }
}

/* Applies a function of type fty to args: consumes the arguments given for
 * unique parameters; what the other arguments (and the function value)
 * alias must not be consumed. Returns the aliases of the result. */
/* Passes an argument with aliases av for a parameter of type pt: the
 * unique parts (also components of a tuple or record) are consumed, the
 * others observed (added to observed) unless they hold no arrays. */
static void pass_arg(Ty *pt, AV *av, Exp *arg, IntVec *observed) {
    if (pt && pt->unique) {
        consume(av, arg->loc, exp_name(arg));
    } else if (pt && (pt->kind == TY_TUPLE || pt->kind == TY_RECORD) && pt->n > 0) {
        for (int i = 0; i < pt->n; i++) pass_arg(field_ty(pt, i), av_elem(av, i), arg, observed);
    } else if (!pt || has_array(pt)) {
        flatten_into(av, observed);
    }
}

/* Whether a and b share an instance. */
static bool shares_root(IntVec *a, IntVec *b) {
    for (int i = 0; i < a->len; i++)
        for (int j = 0; j < b->len; j++)
            if (a->items[i] == b->items[j]) return true;
    return false;
}

/* Whether type t has a unique part (itself, or a component). */
static bool has_unique(Ty *t) {
    if (!t) return false;
    if (t->unique) return true;
    for (int i = 0; (t->kind == TY_TUPLE || t->kind == TY_RECORD) && i < t->n; i++)
        if (has_unique(field_ty(t, i))) return true;
    return false;
}

/* Whether an argument with aliases av, passed for parameter type pt,
 * has two components that alias one another where pt consumes one of
 * them (f (x, x) for f : *([n]i32, [n]i32) -> ...): the callee could
 * consume the one and use the other. Top-level constants are not
 * counted (consuming them is an error of its own). */
static bool self_aliased(Ty *pt, AV *av, bool consumed) {
    if (!pt || !(pt->kind == TY_TUPLE || pt->kind == TY_RECORD)) return false;
    consumed = consumed || pt->unique;
    IntVec *roots = NEW_ARRAY(tc.a, IntVec, pt->n + 1);
    bool found = false;
    for (int i = 0; i < pt->n && !found; i++) {
        Ty *ft = field_ty(pt, i);
        AV *fa = av_elem(av, i);
        found = self_aliased(ft, fa, consumed);
        if (has_array(ft)) flatten_into(fa, &roots[i]);
        int kept = 0; /* instance 0, the top-level constants, left out */
        for (int x = 0; x < roots[i].len; x++)
            if (roots[i].items[x] != 0) roots[i].items[kept++] = roots[i].items[x];
        roots[i].len = kept;
        for (int j = 0; j < i && !found; j++)
            found = (consumed || has_unique(ft) || has_unique(field_ty(pt, j))) && shares_root(&roots[i], &roots[j]);
    }
    for (int i = 0; i < pt->n; i++) vec_free(&roots[i]);
    return found;
}

static AV *apply_av(AV *fav, Ty *fty, Exp **args, AV **avs, int n, Ty *result, SrcLoc loc) {
    call_roots.len = 0;
    flatten_into(fav, &call_roots);
    Ty *t = fty;
    for (int i = 0; i < n; i++) {
        if (t && t->kind == TY_ARROW) {
            if (self_aliased(t->param, avs[i], false))
                fail_with_note(args[i]->loc, args[i]->loc, NULL,
                               "Argument is self-aliased: two of its components alias one another, and the "
                               "function consumes one of them.");
            pass_arg(t->param, avs[i], args[i], &call_roots);
            t = t->result;
        } else {
            flatten_into(avs[i], &call_roots);
        }
    }
    check_args_live(&call_roots, loc);
    return av_for_type(result, leaf_av(call_roots.items, call_roots.len));
}

/* Checks an argument (or let-bound value): a value of function type must
 * not consume anything while it is evaluated. */
static AV *functional_arg(Exp *arg, const char *what) {
    int before = nconsumptions;
    AV *a = u_exp(arg);
    if (arg && nconsumptions != before && has_function(arg->ty))
        fail_with_note(arg->loc, arg->loc, NULL,
                       arena_printf(tc.a, "%s %s contains consumption, which is not allowed: it could consume again "
                                    "each time it is applied (Futhark's error index: contains-consumption).",
                                    what, tc_show(arg->ty)));
    return a;
}

static AV *apply_exp(Exp *e) {
    AV *fav = u_exp(e->e1);
    AV **avs = NEW_ARRAY(tc.a, AV *, e->nelems + 1);
    for (int i = 0; i < e->nelems; i++) avs[i] = functional_arg(e->elems[i], "Argument of functional type");
    return apply_av(fav, e->e1->ty, e->elems, avs, e->nelems, e->ty, e->loc);
}

static Ty *arrow_result(Ty *f, Ty *otherwise) {
    return f && f->kind == TY_ARROW && f->result ? f->result : otherwise;
}

static AV *binop_exp(Exp *e) {
    AV *a = functional_arg(e->e1, "Argument of functional type");
    AV *b = functional_arg(e->e2, "Argument of functional type");
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
    int consumptions = nconsumptions; /* what the body consumes is its own */
    lambda_depth++;
    for (int i = 0; i < nparams; i++) bind_pat(params[i], NULL, true, NULL);
    u_exp(body);
    lambda_depth--;
    nconsumptions = consumptions;
    leave_scope(mark);
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

/* let a[i] = v: consumes a and binds the updated array under its name. */
static void let_update_link(Exp *e) {
    UVar *u = find_uid(e->fname_uid);
    slice_uses(e->slice, e->nslice);
    u_exp(e->e1);
    if (u) {
        UVar old = *u;
        observe(old.av, e->loc, e->fname);
        consume(old.av, e->loc, e->fname);
        int inst = new_inst(e->fname, true, false, e->loc);
        bind_uid(e->fname_uid, inst, with_root(NULL, inst), old.ty);
    }
}

/* A chain of lets (let ... in let ... in body), checked link by link in a
 * loop rather than by recursion, so that a long chain needs no deep stack;
 * the names of every link go out of scope after the body. */
static AV *let_chain(Exp *e) {
    int mark = uenv.len;
    for (; ast_is_let(e); e = e->e2) {
        if (e->kind == EX_LET) {
            bind_pat(e->pat, functional_arg(e->e1, "Let-bound expression of higher-order type"), false, NULL);
        } else if (e->kind == EX_LETFUN) {
            AV *fav = function_body(e->params, e->nparams, e->e1);
            int inst = new_inst(e->fname, true, false, e->loc);
            bind_uid(e->fname_uid, inst, with_root(fav, inst), e->e1 ? e->ty : NULL);
        } else {
            let_update_link(e);
        }
    }
    AV *r = u_exp(e);
    leave_scope(mark);
    return r;
}

/* An in-place update: the value written must not alias the array it is
 * written into (a with [i] = a[0]: the row would be read while it is
 * overwritten). */
static AV *update_exp(Exp *e) {
    slice_uses(e->slice, e->nslice);
    for (int i = 0; i < e->nsteps; i++) slice_uses(e->steps[i].slice, e->steps[i].nslice);
    AV *v = u_exp(e->e2);
    AV *a = u_exp(e->e1);
    if (has_array(e->e2->ty)) {
        IntVec vr = {0}, ar = {0};
        flatten_into(v, &vr);
        flatten_into(a, &ar);
        bool shared = shares_root(&vr, &ar);
        vec_free(&vr);
        vec_free(&ar);
        if (shared)
            fail_with_note(e->e2->loc, e->e2->loc, NULL,
                           arena_printf(tc.a, "The value of an in-place update aliases the array \"%s\" that it "
                                        "is written into.", exp_name(e->e1)));
    }
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

/* av without the instances that a branch consumed (consumed now but not
 * in before): the value of an if or match does not alias what one of its
 * branches consumed, as in Futhark (`let xs = if c then (let xs[0] = 1
 * in xs) else xs` leaves a usable xs). */
static AV *without_consumed(AV *av, Snapshot before) {
    if (!av) return av;
    AV *r = NEW(tc.a, AV);
    *r = *av;
    r->roots = NEW_ARRAY(tc.a, int, av->nroots + 1);
    r->nroots = 0;
    for (int i = 0; i < av->nroots; i++) {
        int k = av->roots[i];
        if (k < before.n && !before.consumed[k] && insts.items[k].consumed) continue;
        r->roots[r->nroots++] = k;
    }
    if (av->n) r->elems = NEW_ARRAY(tc.a, AV *, av->n);
    for (int i = 0; i < av->n; i++) r->elems[i] = without_consumed(av->elems[i], before);
    return r;
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
    return without_consumed(av_merge(a, b), before);
}

/* match e1 case p -> body ...: each case is an alternative path, as the
 * branches of an if, whose pattern's names alias the scrutinee. */
static AV *match_exp(Exp *e) {
    AV *scrut = u_exp(e->e1), *r = NULL;
    Snapshot before = snapshot();
    bool *consumed = NEW_ARRAY(tc.a, bool, insts.len + 1);
    SrcLoc *at = NEW_ARRAY(tc.a, SrcLoc, insts.len + 1);
    for (int c = 0; c < e->nparams; c++) {
        restore(before);
        int mark = uenv.len;
        bind_pat(e->params[c], scrut, false, NULL);
        AV *a = u_exp(e->elems[c]);
        leave_scope(mark);
        r = r ? av_merge(r, a) : a;
        for (int i = 0; i < before.n; i++)
            if (insts.items[i].consumed && !consumed[i]) {
                consumed[i] = true;
                at[i] = insts.items[i].consumed_at;
            }
    }
    restore((Snapshot){consumed, at, before.n});
    return r ? without_consumed(r, before) : empty_av();
}

/* The parts of av that the names of p (in bind_pat's order) receive. */
static void match_leaves(Pat *p, AV *av, LeafVec *out) {
    if (!p) return;
    switch (p->kind) {
    case P_ID: {
        Leaf l = {0, av};
        vec_push(out, l);
        break;
    }
    case P_TUPLE:
        if (p->nelems == 1) {
            match_leaves(p->elems[0], av, out);
            break;
        }
        for (int i = 0; i < p->nelems; i++) match_leaves(p->elems[i], av_elem(av, i), out);
        break;
    case P_RECORD:
        for (int i = 0; i < p->nfields; i++)
            match_leaves(p->fields[i].pat, av_elem(av, field_index(p->ty, p->fields[i].name)), out);
        break;
    case P_ASCRIBE:
        match_leaves(p->inner, av, out);
        break;
    case P_CONSTR:
        for (int i = 0; i < p->nelems; i++) match_leaves(p->elems[i], av_union(av, NULL), out);
        break;
    default:
        break;
    }
}


/* The values a loop body returns for its parameters (Futhark's rules):
 * for a parameter the body consumes, the value must not alias anything
 * bound outside the loop (instances before first_inst) nor a value
 * returned for an earlier parameter; no value may alias one returned for
 * an earlier consumed parameter. */
static void check_loop_results(Exp *e, const Leaf *params, int nparams, AV *body, int first_inst) {
    LeafVec rets = {0};
    match_leaves(e->pat, body, &rets);
    IntVec cons = {0}, obs = {0};
    const char *msg = NULL;
    for (int k = 0; k < rets.len && k < nparams && !msg; k++) {
        Inst *p = &insts.items[params[k].inst];
        IntVec r = {0};
        flatten_into(rets.items[k].init, &r);
        for (int i = 0; i < r.len && p->consumed && !msg; i++)
            if (r.items[i] < first_inst) {
                msg = arena_printf(tc.a, "Return value for consuming loop parameter \"%s\" aliases \"%s\", which the next "
                                   "iteration would consume (Futhark's error index: consuming-loop-param-aliases).",
                                   p->name, insts.items[r.items[i]].name);
            }
        if (!msg && shares_root(&r, &cons))
            msg = arena_printf(tc.a, "Return value for loop parameter \"%s\" aliases other consumed loop parameter.",
                               p->name);
        if (!msg && p->consumed && shares_root(&r, &obs))
            msg = arena_printf(tc.a, "Return value for consuming loop parameter \"%s\" aliases previously returned value.",
                               p->name);
        for (int i = 0; i < r.len; i++) add_root(p->consumed ? &cons : &obs, r.items[i]);
        vec_free(&r);
    }
    vec_free(&rets);
    vec_free(&cons);
    vec_free(&obs);
    if (msg) fail_with_note(e->loc, e->loc, NULL, msg);
}

/* A loop: the initial value and a for loop's bound or array are evaluated
 * outside it; the body must not consume what is bound outside it except
 * through the loop parameters. */
static AV *loop_exp(Exp *e) {
    AV *init = u_exp(e->e1);
    AV *xs = e->form == LOOP_WHILE ? NULL : u_exp(e->e3);
    loop_depth++;
    int mark = uenv.len, first_inst = insts.len, first_param = loop_params.len;
    bind_pat(e->pat, init, false, &loop_params);
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
    /* the loops of the body have popped their parameters */
    Leaf *params = loop_params.items + first_param;
    int nparams = loop_params.len - first_param;
    check_loop_results(e, params, nparams, body, first_inst);
    bool any_consumed = false;
    for (int i = 0; i < nparams; i++) {
        Inst *in = &insts.items[params[i].inst];
        if (!in->consumed) continue;
        any_consumed = true;
        in->consumed = false;
        consume(params[i].init, e->e1->loc, exp_name(e->e1));
    }
    loop_params.len = first_param;
    leave_scope(mark);
    return any_consumed ? body : av_merge(init, body);
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
    case EX_SECTION:
        u_exp(e->e1);
        u_exp(e->e2);
        return empty_av();
    case EX_IF:
        return if_exp(e);
    case EX_LET:
    case EX_LETFUN:
    case EX_LET_UPDATE:
        return let_chain(e);
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
    case EX_CONSTR: {
        AV *r = empty_av();
        for (int i = 0; i < e->nelems; i++) r = av_union(r, u_exp(e->elems[i]));
        return has_array(e->ty) ? r : empty_av();
    }
    case EX_MATCH:
        return match_exp(e);
    default:
        return empty_av();
    }
}

/* A unique result must not alias a parameter that is not unique (or a
 * top-level constant). */
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
        if (in->consumable || in->free) continue;
        const char *msg = arena_printf(
            tc.a, "Unique-typed return value is aliased to \"%s\", which is not consumable.", in->name);
        SrcLoc nl = in->loc;
        vec_free(&v);
        fail_with_note(loc, nl, "returning an alias of a non-unique parameter", msg);
    }
    vec_free(&v);
}

/* One component of a result: its type and aliases. */
typedef struct Part {
    Ty *ty;
    AV *av;
} Part;
typedef VEC(Part) PartVec;

static void result_parts(Ty *t, AV *a, PartVec *out) {
    if (t && (t->kind == TY_TUPLE || t->kind == TY_RECORD) && !t->unique && t->n > 0) {
        for (int i = 0; i < t->n; i++) result_parts(field_ty(t, i), av_elem(a, i), out);
        return;
    }
    Part p = {t, a};
    vec_push(out, p);
}

/* A unique component of a declared result must not alias another
 * component (the caller could then update one through the other). */
static void check_result_parts(Ty *t, AV *a, SrcLoc loc) {
    PartVec parts = {0};
    result_parts(t, a, &parts);
    bool bad = false;
    for (int i = 0; i < parts.len && !bad; i++)
        for (int j = 0; j < i && !bad; j++) {
            if (!(parts.items[i].ty && parts.items[i].ty->unique) && !(parts.items[j].ty && parts.items[j].ty->unique))
                continue;
            IntVec x = {0}, y = {0};
            flatten_into(parts.items[i].av, &x);
            flatten_into(parts.items[j].av, &y);
            bad = shares_root(&x, &y);
            vec_free(&x);
            vec_free(&y);
        }
    vec_free(&parts);
    if (bad)
        fail_with_note(loc, loc, NULL,
                       "A unique-typed component of the return value is aliased to some other component.");
}

/* Counts in *seen the result parts (leaves of av along t) that alias each
 * instance. */
static void count_part_roots(Ty *t, AV *a, IntVec *seen) {
    if (t && (t->kind == TY_TUPLE || t->kind == TY_RECORD) && t->n > 0) {
        for (int i = 0; i < t->n; i++) count_part_roots(field_ty(t, i), av_elem(a, i), seen);
        return;
    }
    IntVec v = {0};
    flatten_into(a, &v);
    for (int i = 0; i < v.len; i++)
        if (v.items[i] < seen->len) seen->items[v.items[i]]++;
    vec_free(&v);
}

/* Result type t (aliasing av) with the uniqueness Futhark infers for an
 * undeclared return type: a part is unique when everything bound outside
 * the function that it aliases is a consuming parameter, and no other
 * part aliases the same (seen counts the parts per instance). */
static Ty *infer_part(Ty *t, AV *a, const IntVec *seen) {
    if (!t || !has_array(t) || t->kind == TY_ARROW) return t;
    if ((t->kind == TY_TUPLE || t->kind == TY_RECORD) && t->n > 0) {
        Ty *c = NULL;
        for (int i = 0; i < t->n; i++) {
            Ty *f = field_ty(t, i), *g = infer_part(f, av_elem(a, i), seen);
            if (g == f) continue;
            if (!c) c = ty_copy_parts(tc.a, t);
            if (t->kind == TY_TUPLE) c->elems[i] = g;
            else c->fields[i].ty = g;
        }
        return c ? c : t;
    }
    IntVec v = {0};
    flatten_into(a, &v);
    bool unique = true;
    for (int i = 0; i < v.len && unique; i++) {
        const Inst *in = &insts.items[v.items[i]];
        bool bound = v.items[i] == 0 || in->is_param;
        unique = !(bound && !in->consumable) && seen->items[v.items[i]] <= 1;
    }
    vec_free(&v);
    return tc_copy_unique(t, unique);
}

Ty *tc_check_uniqueness(Decl *d) {
    insts.len = 0;
    uenv.len = 0;
    uid_top.len = 0;
    lambda_depth = 0;
    loop_depth = 0;
    captured.len = 0;
    call_roots.len = 0;
    loop_params.len = 0;
    nconsumptions = 0;
    new_inst("a top-level constant", false, false, d->loc);
    for (int i = 0; i < d->ntparams; i++)
        if (d->tparams[i].kind == TP_SIZE)
            bind_uid(d->tparams[i].uid, new_inst(d->tparams[i].name, true, true, d->tparams[i].loc),
                     empty_av(), NULL);
    for (int i = 0; i < d->nparams; i++) bind_pat(d->params[i], NULL, true, NULL);
    AV *r = u_exp(d->body);
    if (!d->body) return d->ret_ty;
    if (d->ret) {
        check_result(d->ret_ty, r, d->body->loc);
        check_result_parts(d->ret_ty, r, d->body->loc);
        return d->ret_ty;
    }
    if (d->nparams == 0) return has_array(d->ret_ty) ? tc_copy_unique(d->ret_ty, false) : d->ret_ty;
    IntVec seen = {0};
    for (int i = 0; i < insts.len; i++) vec_push(&seen, 0);
    count_part_roots(d->ret_ty, r, &seen);
    Ty *t = infer_part(d->ret_ty, r, &seen);
    vec_free(&seen);
    return t;
}

void tc_unique_free(void) {
    vec_free(&insts);
    vec_free(&uenv);
    vec_free(&uid_top);
    vec_free(&captured);
    vec_free(&call_roots);
    vec_free(&loop_params);
}
