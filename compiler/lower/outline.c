/* Outlining: the functions internalisation does not inline.
 *
 * Internalisation inlines every application (internalise.c), which copies
 * a large function into each of its call sites: code size, compile time
 * and kernel size grow with the number of sites. A top-level function
 * whose parameters and result are primitives (or tuples and records of
 * them; no type or size parameters) is instead lowered once, on its first
 * application, into a function of Prog.defs; when its body is scalar code
 * that cannot fail (ops, conversions, ifs and loops over scalars, calls of
 * other such functions: no arrays, SOACs or assertions) of at least
 * OUTLINE_MIN_STMS statements, each application becomes an IE_APPLY of it.
 * Once the whole program is lowered, a function called from fewer than two
 * places is spliced into its one caller (or dropped): outlining only pays
 * for code that would otherwise be duplicated.
 *
 * Futhark's declaration attributes decide too: #[inline] inlines every
 * application; #[noinline] keeps the calls of a function that qualifies,
 * whatever its size and number of callers (a function with array
 * parameters or a body that can fail is inlined regardless). */
#include "lower.h"

#include <string.h>

/* Statements (nested ones included) a function's lowered body needs for
 * its calls to stay calls: a call costs about as much code as a few
 * statements (arguments, results, the jump), and inlining a small body
 * lets the simplifier fold it into each caller, which outlining prevents. */
enum { OUTLINE_MIN_STMS = 40 };

/* A function considered for outlining, by its declaration. */
struct Outline {
    Decl *decl;
    Fun *fn;      /* the outlined function, or NULL: inline it */
    SVal *result; /* fn's result structure (its leaves are fn's results) */
    bool busy;    /* its body is being lowered (a recursive call inlines) */
    bool keep;    /* #[noinline]: calls stay calls */
};

typedef VEC(Var *) ParamVec;

static bool has_attr(const Decl *d, const char *name) {
    for (int i = 0; i < d->nattrs; i++)
        if (!strcmp(d->attrs[i].text, name)) return true;
    return false;
}

/* Whether t is a primitive or a tuple or record of them. */
static bool ty_scalar(const Ty *t) {
    if (t->kind == TY_PRIM) return true;
    if (t->kind != TY_TUPLE && t->kind != TY_RECORD) return false;
    for (int i = 0; i < t->n; i++)
        if (!ty_scalar(t->kind == TY_TUPLE ? t->elems[i] : t->fields[i].ty)) return false;
    return true;
}

/* Whether d's type allows outlining: scalars in and out, monomorphic. */
static bool outline_candidate(const Decl *d) {
    if (d->nparams == 0 || d->ntparams > 0 || !d->param_tys || !d->ret_ty || has_attr(d, "inline")) return false;
    for (int i = 0; i < d->nparams; i++)
        if (!ty_scalar(d->param_tys[i])) return false;
    return ty_scalar(d->ret_ty);
}

/* A value of scalar type t whose leaves are fresh parameters (appended to
 * params). */
static SVal *scalar_param(Lower *l, const Ty *t, const char *name, ParamVec *params) {
    if (t->kind == TY_PRIM) {
        Var *v = ir_var(l->prog, name, type_prim(t->prim));
        vec_push_in(l->a, params, v);
        return sv_dyn(l, se_var(v));
    }
    SVal **elems = NEW_ARRAY(l->a, SVal *, t->n + 1);
    for (int i = 0; i < t->n; i++)
        elems[i] = scalar_param(l, t->kind == TY_TUPLE ? t->elems[i] : t->fields[i].ty, name, params);
    SVal *v = sv_tuple(l, elems, t->n);
    if (t->kind == TY_RECORD) {
        v->kind = SV_RECORD;
        v->names = NEW_ARRAY(l->a, const char *, t->n + 1);
        for (int i = 0; i < t->n; i++) v->names[i] = t->fields[i].name;
    }
    return v;
}

/* The statements of b, nested ones included, or -1 when b has anything
 * but scalar code that cannot fail. */
static int scalar_size(const Body *b) {
    int n = 0;
    for (int i = 0; i < b->nstms; i++) {
        const Stm *s = b->stms[i];
        const IrExp *e = s->e;
        for (int j = 0; j < s->npat; j++)
            if (s->pat[j]->type.kind != TK_PRIM) return -1;
        int inner = 0;
        switch (e->kind) {
        case IE_SUBEXP:
        case IE_OP:
        case IE_CONV:
        case IE_APPLY: break;
        case IE_IF: {
            int t = scalar_size(e->tbody), f = scalar_size(e->fbody);
            inner = t < 0 || f < 0 ? -1 : t + f;
            break;
        }
        case IE_LOOP: inner = scalar_size(e->loop.body); break;
        default: return -1;
        }
        if (inner < 0) return -1;
        n += 1 + inner;
    }
    return n;
}

/* Lowers d's body once as a function; NULL (and nothing kept) when it is
 * not scalar code that cannot fail, or too small to outline. */
static Fun *outline_lower(Lower *l, Decl *d, Outline *o) {
    ParamVec params = {0};
    SVal **args = NEW_ARRAY(l->a, SVal *, d->nparams);
    for (int i = 0; i < d->nparams; i++)
        args[i] = scalar_param(l, d->param_tys[i], lower_pat_name(d->params[i]), &params);
    Builder *saved = l->b, nb = {0};
    l->b = &nb;
    SVal *res = lower_definition(l, d, args);
    l->b = saved;
    Body *body = lower_finish_body(l, &nb, res);
    int size = scalar_size(body);
    if (size < (o->keep ? 0 : OUTLINE_MIN_STMS) || body->nres == 0 || sv_has_fun(res)) {
        return NULL;
    }
    Fun *f = NEW(l->a, Fun);
    f->name = d->name;
    f->loc = d->loc;
    f->nparams = params.len;
    f->params = vec_to_arena(l->a, &params);
    f->body = body;
    f->nret = body->nres;
    f->ret = NEW_ARRAY(l->a, Type, f->nret);
    for (int i = 0; i < f->nret; i++) f->ret[i] = subexp_type(body->res[i]);
    o->result = res;
    vec_push_in(l->a, &l->defs, f);
    return f;
}

/* d's outlining record, made (and d's body lowered) on first use; NULL
 * for a function that is not a candidate or is being lowered. */
static Outline *outline_of(Lower *l, Decl *d) {
    for (int i = 0; i < l->outlines.len; i++) {
        Outline *o = l->outlines.items[i];
        if (o->decl == d) return o->busy ? NULL : o;
    }
    if (!outline_candidate(d)) return NULL;
    Outline *o = NEW(l->a, Outline);
    o->decl = d;
    o->keep = has_attr(d, "noinline");
    o->busy = true;
    vec_push_in(l->a, &l->outlines, o);
    o->fn = outline_lower(l, d, o);
    o->busy = false;
    return o;
}

SVal *lower_call_outlined(Lower *l, Decl *d, SVal **args, SrcLoc loc) {
    Outline *o = outline_of(l, d);
    if (!o || !o->fn) return NULL;
    Fun *f = o->fn;
    for (int i = 0; i < d->nparams; i++)
        if (sv_irregular(args[i])) return NULL; /* not a scalar: inlined */
    SubExpVec leaves = {0};
    for (int i = 0; i < d->nparams; i++) sv_leaves(l, args[i], &leaves);
    bool fits = leaves.len == f->nparams;
    for (int i = 0; fits && i < f->nparams; i++) {
        Type t = subexp_type(leaves.items[i]);
        fits = t.kind == TK_PRIM && t.elem == f->params[i]->type.elem;
    }
    if (!fits) {
        return NULL;
    }
    IrExp *e = lower_new_exp(l, IE_APPLY);
    e->fn = f;
    e->nargs = leaves.len;
    e->args = vec_to_arena(l->a, &leaves);
    Var **pat = NEW_ARRAY(l->a, Var *, f->nret);
    SubExp *res = NEW_ARRAY(l->a, SubExp, f->nret);
    for (int i = 0; i < f->nret; i++) {
        pat[i] = ir_var(l->prog, "r", f->ret[i]);
        res[i] = se_var(pat[i]);
    }
    lower_emit(l, e, pat, f->nret, loc);
    int pos = 0;
    return sv_rebuild(l, o->result, res, &pos);
}

/* ---- Splicing calls of functions called once ------------------------------------- */

typedef struct Splicer {
    Lower *l;
    const bool *splice; /* by def index: inline its (one) call */
} Splicer;

static void splice_body(Body *b, void *ctx);

/* Binds v to se (a copy the simplifier propagates). */
static void splice_bind(Lower *l, Var *v, SubExp se, SrcLoc loc) {
    IrExp *e = lower_new_exp(l, IE_SUBEXP);
    e->se = se;
    Var **pat = NEW_ARRAY(l->a, Var *, 1);
    pat[0] = v;
    lower_emit(l, e, pat, 1, loc);
}

/* Replaces call s by the callee's body: its parameters bound to the
 * arguments, its statements, s's pattern bound to its results. The body
 * moves (its only call is this one), so every Var stays bound once. */
static void splice_call(Splicer *sp, const Stm *s) {
    Lower *l = sp->l;
    Fun *f = s->e->fn;
    for (int i = 0; i < f->nparams; i++) splice_bind(l, f->params[i], s->e->args[i], s->loc);
    splice_body(f->body, sp);
    for (int i = 0; i < f->body->nstms; i++) vec_push_in(l->a, &l->b->stms, f->body->stms[i]);
    for (int i = 0; i < s->npat; i++) splice_bind(l, s->pat[i], f->body->res[i], s->loc);
}

static void splice_body(Body *b, void *ctx) {
    Splicer *sp = ctx;
    Lower *l = sp->l;
    Builder *saved = l->b, nb = {0};
    l->b = &nb;
    for (int i = 0; i < b->nstms; i++) {
        Stm *s = b->stms[i];
        if (s->e->kind == IE_APPLY && sp->splice[ir_def_index(l->prog, s->e->fn)]) {
            splice_call(sp, s);
            continue;
        }
        ir_exp_bodies(s->e, splice_body, sp);
        vec_push_in(l->a, &nb.stms, s);
    }
    l->b = saved;
    b->stms = vec_to_arena(l->a, &nb.stms);
    b->nstms = nb.stms.len;
}

void lower_finish_outlining(Lower *l) {
    Prog *p = l->prog;
    p->ndefs = l->defs.len;
    p->defs = vec_to_arena(l->a, &l->defs);
    int *calls = NEW_ARRAY(l->a, int, p->ndefs + 1);
    bool *splice = NEW_ARRAY(l->a, bool, p->ndefs + 1);
    bool *keep = NEW_ARRAY(l->a, bool, p->ndefs + 1);
    for (int i = 0; i < l->outlines.len; i++) {
        const Outline *o = l->outlines.items[i];
        if (o->fn) keep[ir_def_index(p, o->fn)] = o->keep;
    }
    ir_count_calls(p, calls);
    for (int i = 0; i < p->ndefs; i++) splice[i] = calls[i] == 1 && !keep[i];
    Splicer sp = {l, splice};
    for (int i = 0; i < p->nfuns; i++) splice_body(p->funs[i]->body, &sp);
    for (int i = 0; i < p->ndefs; i++)
        if (calls[i] > 0 && !splice[i]) splice_body(p->defs[i]->body, &sp);
    int n = 0;
    for (int i = 0; i < p->ndefs; i++)
        if (calls[i] > 0 && !splice[i]) p->defs[n++] = p->defs[i];
    p->ndefs = n;
}
