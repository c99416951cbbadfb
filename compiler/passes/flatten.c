/* Flattening of irregular nested parallelism, STAGE_SOACS -> STAGE_SOACS,
 * GPU pipeline only (regularity-identifying flattening, seed 003 §1.8;
 * reference/seeds-003-004-flattening-velociraptor.md).
 *
 * A host-level map whose elements build arrays of a length that differs
 * from element to element (a size bound in the map's body, such as
 * `iota n` for each n of ns) cannot become a kernel: its per-element
 * memory has no fixed size (kernels.c would run it on the host). This
 * pass rewrites such a map into operations over all elements' arrays at
 * once, each stored packed in one flat array, with a descriptor of the
 * segments: for a size s of the body, the [w] array of its values (one
 * per element), their exclusive prefix sums (offsets), the total, and
 * for each flat position its segment and its index in the segment:
 *
 *   map (\n -> let xs = scan (+) 0 (iota n) in xs[n-1]) ns
 *   => offsets, total, seg, pos of ns;
 *      let xs_flat = segmented scan (+) of pos (flags where pos == 0)
 *      in map (\n off -> let xs = xs_flat[off:n] in xs[n-1]) ns offsets
 *
 * The body's top-level statements are of two kinds:
 * - inner: an iota, replicate or scratch of a body-bound length; a Screma
 *   over inner arrays (or of a body-bound width) whose map returns
 *   scalars; a scatter into inner arrays; an update of one element or of a
 *   slice of an inner array; a slice, copy or concatenation of inner
 *   arrays; a for or while loop carrying inner arrays. They are lifted
 *   (flatten_build.c): an iota or replicate becomes a map over the flat
 *   positions; a Screma's map runs over the flat arrays (a value of the
 *   body it reads is read from its expanded array at the position's
 *   segment, an inner array as the segment of its flat array); its scans
 *   and reductions become segmented scans of (flag, value) pairs whose
 *   operator restarts at a flagged element, and a reduction's result is
 *   the last element of each segment's scan (the neutral element for an
 *   empty segment); a scatter or update becomes a scatter into the
 *   element's segment of the flat array (an index outside it writes
 *   nothing); a slice or concatenation a map over its result's positions;
 *   a loop a host loop over the flat arrays whose body is the loop's body
 *   lifted in turn (lift_loop below);
 * - outer: everything else. Consecutive outer statements run as a map
 *   over the elements (a stage), as the original body did; where one uses
 *   an inner array, it reads the array's segment, a slice of the flat
 *   array. A value a stage binds and later code uses is expanded into an
 *   array of one row per element; a slice of an array bound outside the
 *   map (a view) is not expanded but made again where it is used.
 *
 * A Screma whose map runs parallel code of its own (nested SOACs) and
 * that scans or reduces is first split into its map and a Screma of the
 * scans and reductions; the lifted map (over all positions) is looked at
 * again by the pass, which thus flattens nested levels one after another.
 * A host-level map that builds such arrays and scans or reduces (fused
 * with the scan of an irregular array's offsets) is split so too.
 * An if choosing between inner arrays of one length bound before it is
 * first replaced by both branches and a map selecting element by element,
 * when both branches may run for every element (split_ifs): the sizes a
 * branch computes are 0 for the elements that do not take it, and its
 * assertions hold for them. A Screma of a body-bound width with no input
 * (a replicated one the simplifier dropped) gets an iota of that width as
 * its input (give_inputs), so that it is lifted like the others.
 *
 * Work is then proportional to the total number of elements, whatever the
 * lengths: one long segment among short ones no longer runs in one
 * work-item. Fusion runs again afterwards (the lifted maps fuse with each
 * other and with the segmented scans).
 *
 * Not flattened (the map stays as it was): a body whose inner arrays are
 * results of the map (irregular results), an inner Screma whose operators
 * or results are not scalars or read values of the body, a neutral element
 * bound in the body, an outer statement that binds an array of a
 * body-bound size other than these (an if choosing between inner arrays
 * whose branches may not run for every element: a read by index, a loop,
 * an array of a length bound outside the branch other than the if's; a
 * replicate of rows), or
 * that consumes a value of another stage, a loop
 * whose count differs between elements whose body is unsafe to run past
 * an element's count (unsafe_stm); a map with scans or reductions of its
 * own whose map returns arrays. A negative length (an iota's is checked by the body's own
 * assertion, a replicate's is not) or a total past 2^63-1 fails with an
 * error instead of wrapping. */
#include <stdlib.h>
#include <string.h>

#include "flatten.h"

/* ---- Classification ---------------------------------------------------------------- */

typedef struct Check {
    Flat *F;
    bool bad;
} Check;

/* An inner statement's lambdas may read inner arrays (each element's
 * segment), but bind no arrays and run no SOACs or loops. */
static void scalar_stm(IrWalk *w, Stm *s) {
    Check *c = w->ctx;
    IrExpKind k = s->e->kind;
    if (k == IE_SCREMA || k == IE_SCATTER || k == IE_HIST || k == IE_LOOP) c->bad = true;
    for (int j = 0; j < s->npat; j++)
        if (s->pat[j]->type.kind != TK_PRIM) c->bad = true;
}

/* An operator may not read values of the body (it is not lifted). */
static void no_top_use(void *ctx, SubExp *se, Var **vp, IrUseKind k) {
    (void)k;
    Check *c = ctx;
    Var *x = se ? se->v : *vp;
    if (top_var(c->F, x)) c->bad = true;
}

/* Whether l's parameters and results are scalars (its body may run nested
 * parallel code: lifted, it becomes a flat map that flattening takes again). */
static bool prim_lambda(const Lambda *l) {
    for (int i = 0; i < l->nparams; i++)
        if (l->params[i]->type.kind != TK_PRIM) return false;
    for (int i = 0; i < l->nret; i++)
        if (l->ret[i].kind != TK_PRIM) return false;
    return true;
}

static bool scalar_lambda(Check *c, Lambda *l) {
    if (!prim_lambda(l)) return false;
    IrWalk w = {NULL, NULL, scalar_stm, c};
    ir_walk_lambda(&w, l);
    return !c->bad;
}

/* Whether SubExp se is a scalar of the body or outside the map (not inner). */
static bool outer_se(const Flat *F, SubExp se) {
    return !se.is_var || !body_var(F, se.v) || F->level[se.v->id] == L_OUTER;
}

/* The inner kind of top-level statement s: 1 when it is one (and is
 * supported: *ok), 0 when it is outer. */
static bool loop_ok(Flat *F, Stm *s);

/* A copy of view statement s whose operands and type later rewriting in
 * place (a stage's substitution of its statements) leaves as they are:
 * the view is made again from it where it is used. */
static Stm *view_copy(Flat *F, const Stm *s) {
    Stm *c = NEW(F->a, Stm);
    *c = *s;
    c->e = fl_exp_new(F, IE_INDEX);
    *c->e = *s->e;
    c->e->slice = NEW_ARRAY(F->a, DimSlice, s->e->nslice);
    COPY_ARRAY(c->e->slice, s->e->slice, s->e->nslice);
    Var *x = NEW(F->a, Var);
    *x = *s->pat[0];
    x->type.shape = NEW_ARRAY(F->a, SubExp, x->type.rank);
    COPY_ARRAY(x->type.shape, s->pat[0]->type.shape, x->type.rank);
    c->pat = NEW(F->a, Var *);
    c->pat[0] = x;
    return c;
}

static int inner_kind(Flat *F, Stm *s, bool *ok) {
    IrExp *e = s->e;
    bool irr = false;
    for (int j = 0; j < s->npat; j++) irr |= irregular_type(F, s->pat[j]->type);
    *ok = true;
    Check c = {F, false};
    switch (e->kind) {
    case IE_IOTA:
        if (!irr) return 0;
        *ok = e->n.is_var && body_var(F, e->n.v) && outer_se(F, e->start) && outer_se(F, e->step);
        return 1;
    case IE_REPLICATE:
        if (!irr) return 0;
        *ok = e->nshape == 1 && e->shape[0].is_var && body_var(F, e->shape[0].v) &&
              subexp_type(e->se).kind == TK_PRIM && outer_se(F, e->se);
        return 1;
    case IE_UPDATE: {
        if (!inner_arr(F, e->arr)) break;
        const DimSlice *sl = &e->slice[0];
        Type vt = subexp_type(e->se);
        if (e->nslice != 1 || e->arr->type.rank != 1) *ok = false;
        else if (!sl->is_slice) *ok = vt.kind == TK_PRIM && outer_se(F, sl->index) && outer_se(F, e->se);
        else /* a slice: of an inner array, or of one of a length the same for all elements */
            *ok = outer_se(F, sl->start) && outer_se(F, sl->stride) && e->se.is_var && vt.rank == 1 &&
                  (inner_arr(F, e->se.v) || (!irregular_type(F, vt) && F->level[e->se.v->id] != L_VIEW));
        return 1;
    }
    case IE_SCRATCH:
        if (!irr) return 0;
        *ok = e->type.rank == 1 && e->type.shape[0].is_var && top_var(F, e->type.shape[0].v);
        return 1;
    case IE_SCATTER: {
        Scatter *sc = &e->scatter;
        bool inner = irr || (sc->w.is_var && body_var(F, sc->w.v));
        for (int j = 0; j < sc->ndests; j++) inner |= body_var(F, sc->dests[j]) && F->level[sc->dests[j]->id] == L_INNER;
        if (!inner) return 0;
        *ok = sc->w.is_var && top_var(F, sc->w.v) && scalar_lambda(&c, sc->lam);
        for (int i = 0; i < sc->narrs; i++)
            if (!body_var(F, sc->arrs[i]) || F->level[sc->arrs[i]->id] != L_INNER || F->len[sc->arrs[i]->id] != sc->w.v)
                *ok = false;
        for (int j = 0; j < sc->ndests; j++)
            if (!body_var(F, sc->dests[j]) || F->level[sc->dests[j]->id] != L_INNER) *ok = false;
        return 1;
    }
    case IE_SCREMA: {
        Screma *sc = &e->screma;
        bool inner_in = false;
        for (int i = 0; i < sc->narrs; i++)
            inner_in |= body_var(F, sc->arrs[i]) && F->level[sc->arrs[i]->id] == L_INNER;
        if (!irr && !inner_in && !(sc->w.is_var && body_var(F, sc->w.v))) return 0;
        if (!sc->narrs || !sc->w.is_var || !body_var(F, sc->w.v)) {
            *ok = false;
            return 1;
        }
        for (int i = 0; i < sc->narrs; i++)
            if (!body_var(F, sc->arrs[i]) || F->level[sc->arrs[i]->id] != L_INNER || F->len[sc->arrs[i]->id] != sc->w.v)
                *ok = false;
        *ok = *ok && (sc->nscans + sc->nreds ? scalar_lambda(&c, sc->map) : prim_lambda(sc->map));
        for (int i = 0; *ok && i < sc->nscans + sc->nreds; i++) {
            SegOp *o = i < sc->nscans ? &sc->scans[i] : &sc->reds[i - sc->nscans];
            *ok = scalar_lambda(&c, o->op);
            ir_uses_lambda(o->op, no_top_use, &c);
            *ok = *ok && !c.bad;
            for (int j = 0; j < o->k; j++)
                if (o->neutral[j].is_var && body_var(F, o->neutral[j].v)) *ok = false;
        }
        return 1;
    }
    case IE_INDEX:
        if (irr && !body_var(F, e->arr)) {
            bool view = s->npat == 1;
            for (int i = 0; i < e->nslice; i++) {
                const DimSlice *sl = &e->slice[i];
                view &= outer_se(F, sl->index) && outer_se(F, sl->start) && outer_se(F, sl->len) &&
                        outer_se(F, sl->stride);
            }
            if (view) {
                F->level[s->pat[0]->id] = L_VIEW;
                F->def[s->pat[0]->id] = view_copy(F, s);
                return 0;
            }
        }
        /* fall through */
    case IE_COPY:
        if (!irr) return 0;
        *ok = inner_arr(F, e->arr) && e->arr->type.rank == 1 && s->pat[0]->type.rank == 1 &&
              (e->kind == IE_COPY ||
               (e->nslice == 1 && e->slice[0].is_slice && outer_se(F, e->slice[0].start) &&
                outer_se(F, e->slice[0].stride)));
        break;
    case IE_CONCAT:
        if (!irr) return 0;
        *ok = s->pat[0]->type.rank == 1;
        for (int i = 0; i < e->narrs; i++) *ok = *ok && e->arrs[i]->type.rank == 1;
        break;
    case IE_LOOP: {
        bool carries = irr;
        for (int i = 0; i < e->loop.nparams; i++)
            carries |= e->loop.inits[i].is_var && inner_arr(F, e->loop.inits[i].v);
        if (!carries) return 0; /* it may read inner arrays: their segments */
        *ok = loop_ok(F, s);
        return 1;
    }
    default:
        if (irr) *ok = false; /* another array of a body-bound size */
        break;
    }
    return irr ? 1 : 0;
}

/* The Desc key of an inner statement's result: its length Var. */
static Var *inner_len(Stm *s) {
    IrExp *e = s->e;
    if (e->kind == IE_IOTA) return e->n.v;
    if (e->kind == IE_REPLICATE) return e->shape[0].v;
    if (e->kind == IE_SCREMA) return e->screma.w.v;
    if (e->kind == IE_SCRATCH) return e->type.shape[0].v;
    Type t = s->npat ? s->pat[0]->type : type_prim(PT_BOOL); /* a slice, copy or concatenation */
    return t.kind == TK_ARRAY && t.shape[0].is_var ? t.shape[0].v : NULL;
}

typedef struct Uses {
    Flat *F;
    int cur;
} Uses;

static void note_use(void *ctx, SubExp *se, Var **vp, IrUseKind k) {
    (void)k;
    Uses *u = ctx;
    Var *x = se ? se->v : *vp;
    if (body_var(u->F, x) && u->F->last_use[x->id] < u->cur) u->F->last_use[x->id] = u->cur;
    /* A view is made again where it is used, from its operands. */
    if (body_var(u->F, x) && u->F->level[x->id] == L_VIEW) ir_uses_stm(u->F->def[x->id], note_use, u);
}

static void bind_var(IrWalk *w, Var *v) {
    Flat *F = w->ctx;
    if (v->id < F->nvars && !F->level[v->id]) F->level[v->id] = L_OUTER;
}

/* Consumptions by outer statements of values bound by another stage. */
typedef struct Consume {
    Flat *F;
    const int *stage_of_stm;
    int st;
    bool bad;
} Consume;

static void consumed(void *ctx, const Var *v) {
    Consume *c = ctx;
    if (v->type.kind == TK_PRIM) return; /* a unique scalar loop parameter: a copy */
    if (top_var(c->F, v) && (c->F->stage[v->id] < 0 || c->stage_of_stm[c->F->stage[v->id]] != c->st)) c->bad = true;
}

static void consume_stm(IrWalk *w, Stm *s) { ir_each_consumed(s, consumed, w->ctx); }

/* How many times s takes v as an input array of its SOAC. */
static int input_uses(const Stm *s, const Var *v) {
    const IrExp *e = s->e;
    int n = 0;
    for (int i = 0; e->kind == IE_SCREMA && i < e->screma.narrs; i++) n += e->screma.arrs[i] == v;
    for (int i = 0; e->kind == IE_SCATTER && i < e->scatter.narrs; i++) n += e->scatter.arrs[i] == v;
    return n;
}

static bool is_result(const Body *b, const Var *v) {
    for (int r = 0; r < b->nres; r++)
        if (b->res[r].is_var && b->res[r].v == v) return true;
    return false;
}

/* ---- Helpers of the classification ------------------------------------------------------ */

static void finds_soac(IrWalk *w, Stm *s) {
    IrExpKind k = s->e->kind;
    if (k == IE_SCREMA || k == IE_SCATTER || k == IE_HIST || k == IE_LOOP) *(bool *)w->ctx = true;
}

/* Appends to out t, a Screma that scans or reduces and whose map returns
 * scalars, split into its map and a Screma of the scans and reductions
 * over the map's results (an identity map). */
static void split_screma(Flat *F, Stm *t, StmVec *out) {
    Screma *sc = &t->e->screma;
    Lambda *m = sc->map;
    int nin = 0;
    for (int i = 0; i < sc->nscans; i++) nin += sc->scans[i].k;
    for (int i = 0; i < sc->nreds; i++) nin += sc->reds[i].k;
    Var **res = NEW_ARRAY(F->a, Var *, m->nret + 1);
    for (int i = 0; i < m->nret; i++) res[i] = NULL;
    vec_push(out, fl_map_stm(F, sc->w, sc->arrs, sc->narrs, m, res));
    Var **ps = NEW_ARRAY(F->a, Var *, nin + 1);
    SubExp *rs = NEW_ARRAY(F->a, SubExp, nin + 1);
    for (int i = 0; i < nin; i++) {
        ps[i] = ir_var(F->p, "x", m->ret[i]);
        rs[i] = se_var(ps[i]);
    }
    IrExp *e = fl_exp_new(F, IE_SCREMA);
    e->screma = *sc;
    e->screma.arrs = res;
    e->screma.narrs = nin;
    e->screma.map = ir_lambda_new(F->a, ps, nin, ir_body_new(F->a, NULL, rs, nin));
    vec_push(out, ir_stm(F->a, t->pat, nin, e, t->loc));
    for (int i = nin; i < m->nret; i++) vec_push(out, ir_copy_stm(F->a, t->pat[i], se_var(res[i]), t->loc));
}

/* Whether lam binds v: a parameter, or a result of a top-level statement. */
static bool lambda_top_binds(const Lambda *lam, const Var *v) {
    for (int i = 0; i < lam->nparams; i++)
        if (lam->params[i] == v) return true;
    for (int k = 0; k < lam->body->nstms; k++)
        for (int j = 0; j < lam->body->stms[k]->npat; j++)
            if (lam->body->stms[k]->pat[j] == v) return true;
    return false;
}

/* A Screma of the body with no input (the simplifier dropped a replicated
 * one, scan (+) 0 (replicate n x)) whose width the body binds gets an
 * iota of that width as its input, which its map ignores: flattening then
 * lifts it over that iota's flat positions like any other. Returns
 * whether it gave any (new statements: the old ones are left as they
 * were). */
static bool give_inputs(Flat *F, Lambda *lam) {
    Body *b = lam->body;
    StmVec out = {0};
    bool any = false;
    for (int k = 0; k < b->nstms; k++) {
        Stm *t = b->stms[k];
        IrExp *e = t->e;
        if (e->kind != IE_SCREMA || e->screma.narrs || !e->screma.w.is_var || !lambda_top_binds(lam, e->screma.w.v)) {
            vec_push(&out, t);
            continue;
        }
        any = true;
        Stm *is = ir_iota_stm(F->p, "positions", e->screma.w, t->loc);
        vec_push(&out, is);
        IrExp *c = fl_exp_new(F, IE_SCREMA);
        *c = *e;
        c->screma.arrs = NEW(F->a, Var *);
        c->screma.arrs[0] = is->pat[0];
        c->screma.narrs = 1;
        Var **ps = NEW(F->a, Var *);
        ps[0] = ir_var(F->p, "unused", type_prim(PT_I64));
        Lambda *m = ir_lambda_new(F->a, ps, 1, e->screma.map->body);
        m->ret = e->screma.map->ret;
        m->nret = e->screma.map->nret;
        c->screma.map = m;
        vec_push(&out, ir_stm(F->a, t->pat, t->npat, c, t->loc));
    }
    if (any) {
        b->nstms = out.len;
        b->stms = vec_to_arena(F->a, &out);
    }
    vec_free(&out);
    return any;
}

/* A Screma of the body of a body-bound width that scans or reduces and
 * whose map runs nested parallel code is split (split_screma), so that
 * the map is lifted on its own. Returns whether it split any. */
static bool split_nested(Flat *F, Body *b) {
    StmVec out = {0};
    bool any = false;
    for (int k = 0; k < b->nstms; k++) {
        Stm *t = b->stms[k];
        Screma *sc = &t->e->screma;
        bool nested = false;
        if (t->e->kind == IE_SCREMA && (sc->nscans || sc->nreds) && sc->w.is_var && prim_lambda(sc->map)) {
            IrWalk w = {NULL, NULL, finds_soac, &nested};
            ir_walk_lambda(&w, sc->map);
        }
        if (!nested) {
            vec_push(&out, t);
            continue;
        }
        any = true;
        split_screma(F, t, &out);
    }
    if (any) {
        b->nstms = out.len;
        b->stms = vec_to_arena(F->a, &out);
    }
    vec_free(&out);
    return any;
}

/* A branch's scalar statement that computes a size (an i64 by an op, a
 * conversion or a copy): split_ifs makes it 0 for the elements that do
 * not take the branch (clamp_sizes). */
static bool size_stm(const Stm *t) {
    return t->npat == 1 && t->pat[0]->type.kind == TK_PRIM && t->pat[0]->type.elem == PT_I64 &&
           (t->e->kind == IE_OP || t->e->kind == IE_CONV || t->e->kind == IE_SUBEXP);
}

/* Whether v is bound by a size statement somewhere in a branch. */
typedef struct SizeIn {
    const Var *v;
    bool found;
} SizeIn;

static void size_in_stm(IrWalk *w, Stm *t) {
    SizeIn *f = w->ctx;
    if (size_stm(t) && t->pat[0] == f->v) f->found = true;
}

static bool branch_size(const Body *branch, const Var *v) {
    SizeIn f = {v, false};
    IrWalk w = {NULL, NULL, size_in_stm, &f};
    ir_walk_body(&w, (Body *)branch);
    return f.found;
}

/* Whether the statements of b (in branch) may all run where the program
 * would not run them (both branches of an if, for every element): no
 * operation that may fail, no read by index (its bounds check may have
 * been proved from the branch's condition), nothing consumed, no loop;
 * SOACs and ifs whose bodies are such too. Assertions (split_ifs guards
 * them by the branch's condition: guarded_branch). Every array
 * bound, in nested bodies too, has length len, the if's, or dimensions
 * that are constants or sizes the branch computes (which split_ifs makes
 * 0 where the branch is not taken), so that one built for an element that
 * takes the other branch is no longer than the result: a length that is
 * negative there fails in either branch, and a long one cannot make the
 * untaken branch cost more than the taken. */
static bool speculable_body(const Body *b, const Body *branch, SubExp len);

static bool speculable_lambda(const Lambda *l, const Body *branch, SubExp len) {
    return speculable_body(l->body, branch, len);
}

/* Whether array type ty has length len or dimensions that are constants
 * or sizes that branch computes. */
static bool bounded_array(Type ty, const Body *branch, SubExp len) {
    if (ty.kind != TK_ARRAY) return true;
    if (ty.rank == 1 && se_same(ty.shape[0], len)) return true;
    for (int d = 0; d < ty.rank; d++)
        if (ty.shape[d].is_var && !branch_size(branch, ty.shape[d].v)) return false;
    return true;
}

static bool speculable_body(const Body *b, const Body *branch, SubExp len) {
    for (int k = 0; k < b->nstms; k++) {
        const Stm *t = b->stms[k];
        const IrExp *e = t->e;
        for (int j = 0; j < t->npat; j++)
            if (!bounded_array(t->pat[j]->type, branch, len)) return false;
        if (ir_exp_speculable_leaf(e)) continue;
        switch (e->kind) {
        case IE_ASSERT: break;
        case IE_IF:
            if (!speculable_body(e->tbody, branch, len) || !speculable_body(e->fbody, branch, len)) return false;
            break;
        case IE_SCREMA:
            if (!speculable_lambda(e->screma.map, branch, len)) return false;
            for (int i = 0; i < e->screma.nscans; i++)
                if (!speculable_lambda(e->screma.scans[i].op, branch, len)) return false;
            for (int i = 0; i < e->screma.nreds; i++)
                if (!speculable_lambda(e->screma.reds[i].op, branch, len)) return false;
            break;
        default: return false;
        }
    }
    return true;
}

/* The sizes of arrays a branch binds (marked by Var id in dims). */
typedef struct Dims {
    char *dims;
    int n;
} Dims;

static void dims_bind(IrWalk *w, Var *v) {
    Dims *d = w->ctx;
    for (int i = 0; v->type.kind == TK_ARRAY && i < v->type.rank; i++)
        if (v->type.shape[i].is_var && v->type.shape[i].v->id < d->n) d->dims[v->type.shape[i].v->id] = 1;
}

/* Each size statement of b (and of the bodies in it) that binds an array
 * size of the branch binds it as raw * taken (taken the branch's
 * condition as 0 or 1): the size itself where the branch is taken, 0
 * elsewhere, so that an element that does not take the branch builds
 * empty arrays (speculable_body). */
static void clamp_body(Flat *F, Body *b, const Dims *d, SubExp taken);

static void clamp_lambda(Flat *F, Lambda *l, const Dims *d, SubExp taken) { clamp_body(F, l->body, d, taken); }

static void clamp_body(Flat *F, Body *b, const Dims *d, SubExp taken) {
    StmVec out = {0};
    for (int k = 0; k < b->nstms; k++) {
        Stm *t = b->stms[k];
        IrExp *e = t->e;
        if (e->kind == IE_IF) {
            clamp_body(F, e->tbody, d, taken);
            clamp_body(F, e->fbody, d, taken);
        } else if (e->kind == IE_SCREMA) {
            clamp_lambda(F, e->screma.map, d, taken);
            for (int i = 0; i < e->screma.nscans; i++) clamp_lambda(F, e->screma.scans[i].op, d, taken);
            for (int i = 0; i < e->screma.nreds; i++) clamp_lambda(F, e->screma.reds[i].op, d, taken);
        }
        if (!size_stm(t) || t->pat[0]->id >= d->n || !d->dims[t->pat[0]->id]) {
            vec_push(&out, t);
            continue;
        }
        Var *size = t->pat[0], *raw = ir_var(F->p, size->name, size->type);
        Var **pat = NEW(F->a, Var *);
        pat[0] = raw;
        vec_push(&out, ir_stm(F->a, pat, 1, e, t->loc));
        vec_push(&out, ir_op2_stm(F->a, size, OP_MUL, PT_I64, se_var(raw), taken, t->loc));
    }
    b->stms = vec_to_arena(F->a, &out);
    b->nstms = out.len;
    vec_free(&out);
}

/* clamp_body on branch b, taken where cond holds. */
static void clamp_sizes(Flat *F, StmVec *out, Body *b, SubExp cond, SrcLoc loc) {
    Dims d = {calloc((size_t)F->p->next_var_id + 1, 1), F->p->next_var_id};
    IrWalk w = {dims_bind, NULL, NULL, &d};
    ir_walk_body(&w, b);
    IrExp *c = fl_exp_new(F, IE_CONV);
    c->args = NEW(F->a, SubExp);
    c->args[0] = cond;
    c->nargs = 1;
    c->t = PT_BOOL;
    c->to = PT_I64;
    Var *taken = ir_var(F->p, "taken", type_prim(PT_I64));
    vec_push(out, ir_stm1(F->a, taken, c, loc));
    clamp_body(F, b, &d, se_var(taken));
    free(d.dims);
}

/* The statements of branch b into out, each assertion holding too where
 * skip does (skip: the branch is not taken), so that it fails only for
 * elements that take the branch; those of the bodies in b are guarded in
 * place (b is split_ifs' copy of the branch). */
static void guarded_branch(Flat *F, StmVec *out, Body *b, SubExp skip);

static void guarded_lambda(Flat *F, Lambda *l, SubExp skip) {
    StmVec in = {0};
    guarded_branch(F, &in, l->body, skip);
    l->body->stms = vec_to_arena(F->a, &in);
    l->body->nstms = in.len;
    vec_free(&in);
}

static void guarded_branch(Flat *F, StmVec *out, Body *b, SubExp skip) {
    for (int k = 0; k < b->nstms; k++) {
        Stm *t = b->stms[k];
        IrExp *x = t->e;
        if (x->kind == IE_IF) {
            Lambda arms[2] = {{.body = x->tbody}, {.body = x->fbody}};
            guarded_lambda(F, &arms[0], skip);
            guarded_lambda(F, &arms[1], skip);
        } else if (x->kind == IE_SCREMA) {
            guarded_lambda(F, x->screma.map, skip);
            for (int i = 0; i < x->screma.nscans; i++) guarded_lambda(F, x->screma.scans[i].op, skip);
            for (int i = 0; i < x->screma.nreds; i++) guarded_lambda(F, x->screma.reds[i].op, skip);
        }
        if (x->kind != IE_ASSERT) {
            vec_push(out, t);
            continue;
        }
        IrExp *e = fl_exp_new(F, IE_ASSERT);
        *e = *x;
        e->cond = ir_emit_op2(F->p, out, OP_LOR, PT_BOOL, skip, x->cond, "ok", t->loc);
        vec_push(out, ir_stm(F->a, t->pat, t->npat, e, t->loc));
    }
}

/* Whether SubExp se is bound by one of s's results (an existential size). */
static bool bound_by(const Stm *s, SubExp se) {
    for (int j = 0; se.is_var && j < s->npat; j++)
        if (s->pat[j] == se.v) return true;
    return false;
}

/* An if of the body that chooses between arrays of a length the body binds
 * (`if n > 5 then iota n else replicate n 7`) is replaced by both
 * branches' statements and, for each array result, a map selecting
 * element by element (`map2 (\a b -> if c then a else b) xs ys`), which
 * flattening lifts like any other; scalar results keep an if of their
 * own. Only when both branches may run for every element (speculable_body;
 * their assertions guarded by the branch's condition) and the array
 * results are one-dimensional, of one length bound before the if.
 * Returns whether it replaced any. */
static bool split_ifs(Flat *F, Body *b) {
    StmVec out = {0};
    bool any = false;
    for (int k = 0; k < b->nstms; k++) {
        Stm *t = b->stms[k];
        IrExp *e = t->e;
        bool ok = e->kind == IE_IF;
        SubExp len = se_i64(0);
        int arrays = 0;
        for (int j = 0; ok && j < t->npat; j++) {
            Type ty = t->pat[j]->type;
            if (ty.kind != TK_ARRAY) continue;
            ok = ty.rank == 1 && !bound_by(t, ty.shape[0]) && (!arrays || se_same(ty.shape[0], len));
            len = ty.shape[0];
            arrays++;
        }
        if (!ok || !arrays || !speculable_body(e->tbody, e->tbody, len) || !speculable_body(e->fbody, e->fbody, len)) {
            vec_push(&out, t);
            continue;
        }
        any = true;
        /* a copy of the if is changed: flatten_map keeps t where it gives up */
        IrExp *ce = ir_clone_stm(F->p, t)->e;
        SubExp nc = ir_emit_op2(F->p, &out, OP_EQ, PT_BOOL, e->cond, se_bool(false), "other", t->loc);
        clamp_sizes(F, &out, ce->tbody, e->cond, t->loc);
        clamp_sizes(F, &out, ce->fbody, nc, t->loc);
        guarded_branch(F, &out, ce->tbody, nc);
        guarded_branch(F, &out, ce->fbody, e->cond);
        for (int j = 0; j < t->npat; j++) {
            Var *x = t->pat[j];
            SubExp a = ce->tbody->res[j], o = ce->fbody->res[j];
            if (x->type.kind != TK_ARRAY) {
                SubExp r = fl_if(F, &out, e->cond, NULL, a, NULL, o, x->type);
                vec_push(&out, ir_copy_stm(F->a, x, r, t->loc));
                continue;
            }
            Type et = type_prim(x->type.elem);
            Var *ps[2] = {ir_var(F->p, "a", et), ir_var(F->p, "b", et)};
            StmVec s = {0};
            SubExp r = fl_if(F, &s, e->cond, NULL, se_var(ps[0]), NULL, se_var(ps[1]), et);
            Var *arrs[2] = {a.v, o.v}, *pat[1] = {x};
            Lambda *select = ir_lambda_new(F->a, ps, 2, ir_body_new(F->a, &s, &r, 1));
            vec_push(&out, fl_map_stm(F, x->type.shape[0], arrs, 2, select, pat));
            vec_free(&s);
        }
    }
    if (any) {
        b->nstms = out.len;
        b->stms = vec_to_arena(F->a, &out);
    }
    vec_free(&out);
    return any;
}

/* The per-body state, its arrays by Var id sized for the Vars that exist now. */
static void flat_begin(Flat *F, SubExp w, const Body *b) {
    int n = F->p->next_var_id;
    F->nvars = n;
    F->level = calloc((size_t)n, 1);
    F->stage = malloc(sizeof(int) * (size_t)n);
    F->last_use = malloc(sizeof(int) * (size_t)n);
    F->lifted = calloc((size_t)n, sizeof(Var *));
    F->flat = calloc((size_t)n, sizeof(Var *));
    F->desc = calloc((size_t)n, sizeof(Desc *));
    F->repl = calloc((size_t)n, sizeof(Var *));
    F->len = calloc((size_t)n, sizeof(Var *));
    F->def = calloc((size_t)n, sizeof(Stm *));
    F->kind = calloc((size_t)b->nstms + 1, sizeof(int));
    F->stage_of = calloc((size_t)b->nstms + 1, sizeof(int));
    F->descs = NULL;
    F->w = w;
    for (int i = 0; i < n; i++) F->stage[i] = NESTED, F->last_use[i] = -1;
}

static void flat_end(Flat *F) {
    free(F->level);
    free(F->stage);
    free(F->last_use);
    free(F->lifted);
    free(F->flat);
    free(F->desc);
    free(F->repl);
    free(F->len);
    free(F->def);
    free(F->kind);
    free(F->stage_of);
}

/* Classifies body b's top-level statements (F->kind, F->stage_of) and
 * notes the last use of each value; whether every statement can be lifted
 * (and no result is inner, unless inner_results). *any: some statement is
 * inner; *builds: some inner array is built, not only read by reductions. */
static bool classify(Flat *F, Body *b, bool inner_results, bool *any, bool *builds) {
    IrWalk bw = {bind_var, NULL, NULL, F};
    ir_walk_body(&bw, b);
    bool ok = true;
    *any = *builds = false;
    int st = 0;
    for (int k = 0; k < b->nstms && ok; k++) {
        Stm *t = b->stms[k];
        bool sup;
        F->kind[k] = inner_kind(F, t, &sup);
        ok &= sup;
        for (int j = 0; j < t->npat; j++) F->stage[t->pat[j]->id] = k;
        if (F->kind[k]) {
            *any = true;
            *builds |= t->e->kind == IE_UPDATE || t->e->kind == IE_SCATTER || t->e->kind == IE_LOOP ||
                       (t->e->kind == IE_SCREMA && t->npat > t->e->screma.nreds);
            st++;
            Var *len = sup ? inner_len(t) : NULL;
            for (int j = 0; j < t->npat; j++) {
                Var *x = t->pat[j];
                if (x->type.kind != TK_ARRAY) continue;
                F->level[x->id] = L_INNER;
                F->len[x->id] = t->e->kind == IE_UPDATE    ? F->len[t->e->arr->id]
                                : t->e->kind == IE_SCATTER ? F->len[t->e->scatter.dests[j]->id]
                                : t->e->kind == IE_LOOP    ? x->type.shape[0].v
                                                           : len;
            }
            F->stage_of[k] = -2;
            st++;
        } else {
            F->stage_of[k] = st;
        }
    }
    for (int k = 0; k < b->nstms; k++) {
        Uses u = {F, k};
        ir_uses_stm(b->stms[k], note_use, &u);
    }
    Uses u = {F, b->nstms};
    ir_uses_ses(b->res, b->nres, note_use, &u);
    for (int r = 0; r < b->nres && ok && !inner_results; r++)
        if (b->res[r].is_var && inner_arr(F, b->res[r].v)) ok = false;
    for (int k = 0; k < b->nstms && ok; k++) {
        if (F->kind[k]) continue;
        Consume c = {F, F->stage_of, F->stage_of[k], false};
        IrWalk cw = {NULL, NULL, consume_stm, &c};
        ir_walk_stm(&cw, b->stms[k]);
        ok = !c.bad;
    }
    /* An iota or replicate read by anything but an inner Screma is built too. */
    for (int k = 0; k < b->nstms && ok && *any && !*builds; k++) {
        Stm *t = b->stms[k];
        if (F->kind[k] && (t->e->kind == IE_IOTA || t->e->kind == IE_REPLICATE))
            for (int j = k + 1; j <= b->nstms && !*builds; j++)
                *builds = j < b->nstms ? ir_stm_uses(b->stms[j], t->pat[0]) > input_uses(b->stms[j], t->pat[0])
                                       : is_result(b, t->pat[0]);
    }
    return ok;
}

static void lift_loop(Flat *F, Stm *st);

/* The lifted statements of classified body b, into F->out. */
static void emit_body(Flat *F, Body *b) {
    int lo = 0;
    for (int k = 0; k < b->nstms; k++) {
        if (!F->kind[k]) continue;
        fl_emit_stage(F, b, lo, k);
        lo = k + 1;
        Stm *t = b->stms[k];
        if (t->e->kind == IE_UPDATE || t->e->kind == IE_SCATTER || t->e->kind == IE_LOOP) {
            if (t->e->kind == IE_UPDATE) fl_lift_update(F, t);
            else if (t->e->kind == IE_SCATTER) fl_lift_scatter(F, t);
            else lift_loop(F, t);
            continue;
        }
        Desc *d = fl_desc_of(F, inner_len(t));
        for (int j = 0; j < t->npat; j++)
            if (t->pat[j]->type.kind == TK_ARRAY) F->desc[t->pat[j]->id] = d;
        switch (t->e->kind) {
        case IE_SCREMA: fl_lift_screma(F, t, d); break;
        case IE_SCRATCH: fl_lift_scratch(F, t, d); break;
        case IE_INDEX: fl_lift_slice(F, t, d); break;
        case IE_CONCAT: fl_lift_concat(F, t, d); break;
        case IE_COPY: fl_lift_copy(F, t); break;
        default: fl_lift_fill(F, t, d); break;
        }
    }
    fl_emit_stage(F, b, lo, b->nstms);
}

/* ---- Loops that carry inner arrays ------------------------------------------------ */

/* A loop of the body whose parameters include inner arrays (of a length
 * fixed before the loop) runs on the host, carrying their flat arrays and
 * the other parameters' expanded arrays; its body is lifted like the map's
 * (each iteration a lifted body over all elements). A count that differs
 * between elements runs as many iterations as the largest, an element's
 * parameters keeping their values once its count is reached. */

typedef struct Reg {
    const Flat *F; /* the enclosing body's */
    Flat *G;       /* the loop body's */
} Reg;

/* A value of the enclosing body that the loop body reads is a value of
 * one element there too (its expanded array, flat array or view). */
static void reg_use(void *ctx, SubExp *se, Var **vp, IrUseKind k) {
    (void)k;
    Reg *r = ctx;
    Var *x = se ? se->v : *vp;
    if (!top_var(r->F, x) || r->G->level[x->id]) return;
    int id = x->id;
    r->G->level[id] = r->F->level[id];
    r->G->stage[id] = -1;
    r->G->lifted[id] = r->F->lifted[id];
    r->G->flat[id] = r->F->flat[id];
    r->G->desc[id] = r->F->desc[id];
    r->G->len[id] = r->F->len[id];
    r->G->def[id] = r->F->def[id];
    if (r->F->level[id] == L_VIEW) ir_uses_stm(r->F->def[id], reg_use, r);
    if (r->F->level[id] == L_INNER) {
        SubExp len = se_var(r->F->len[id]);
        reg_use(r, &len, NULL, k);
    }
}

/* Sets up G for the body of loop st of F's body: its parameters (outer:
 * expanded arrays hp[j]; inner: flat arrays hp[j]; NULL when only
 * classifying) and the values of F's body it reads. */
static void loop_setup(const Flat *F, Flat *G, Stm *st, Var **hp) {
    const Loop *L = &st->e->loop;
    for (int j = 0; j < L->nparams; j++) {
        Var *x = L->params[j];
        G->stage[x->id] = -1;
        if (x->type.kind == TK_PRIM) {
            G->level[x->id] = L_OUTER;
            G->lifted[x->id] = hp ? hp[j] : NULL;
        } else {
            Var *init = L->inits[j].v;
            G->level[x->id] = L_INNER;
            G->len[x->id] = x->type.shape[0].v;
            G->flat[x->id] = hp ? hp[j] : NULL;
            G->desc[x->id] = F->desc[init->id];
        }
    }
    Reg r = {F, G};
    ir_uses_body(L->body, reg_use, &r);
    for (int j = 0; j < L->nparams; j++) {
        SubExp len = L->params[j]->type.kind == TK_ARRAY ? L->params[j]->type.shape[0] : se_i64(0);
        if (len.is_var) reg_use(&r, &len, NULL, IR_USE_OTHER);
    }
}

static Flat flat_nested(const Flat *F, SrcLoc loc) {
    Flat G = {0};
    G.p = F->p;
    G.a = F->a;
    G.loc = loc;
    return G;
}

static void flat_nested_end(Flat *G) {
    flat_end(G);
    vec_free(&G->out);
    vec_free(&G->params);
    vec_free(&G->arrs);
    vec_free(&G->prologue);
}

/* Code that an element past its own count may not run: the lifted body
 * runs for every element in each iteration, and its results are only
 * kept for the elements still iterating; an assertion, a division that can
 * fail, an index or slice at a position that is not a constant (which a
 * bounds check the simplifier proved from the count no longer guards), or
 * an in-place update would fail, read outside an array or overwrite
 * values the other elements keep; a loop may not end. */
static void unsafe_stm(IrWalk *w, Stm *s) {
    const IrExp *e = s->e;
    bool *bad = w->ctx;
    if (e->kind == IE_ASSERT || (e->kind == IE_OP && ir_op_may_fail(e))) *bad = true;
    if (ir_is_index(e) || ir_is_update(e)) {
        if (e->kind == IE_FLAT_INDEX || e->kind == IE_FLAT_UPDATE) *bad = true;
        for (int i = 0; i < e->nslice; i++) {
            const DimSlice *sl = &e->slice[i];
            if (sl->index.is_var || sl->start.is_var || sl->len.is_var || sl->stride.is_var) *bad = true;
        }
    }
    /* a loop: its count (or condition) may never end for such an element */
    if (e->kind == IE_SCATTER || e->kind == IE_HIST || e->kind == IE_LOOP || ir_is_update(e)) *bad = true;
}

/* Whether loop st can be lifted: a for loop whose count is a value of the
 * element (or the same for all), whose array parameters are inner arrays
 * of a length bound before it, and whose body can be lifted, returning
 * inner arrays of those lengths. When the count differs between elements,
 * the body must also be safe to run past an element's count (unsafe_stm)
 * and build its arrays of lengths bound before the loop (an element past
 * its count could compute a negative length). */
static bool loop_ok(Flat *F, Stm *st) {
    const Loop *L = &st->e->loop;
    if (L->kind == IR_LOOP_FOR ? !outer_se(F, L->bound) : !L->cond) return false;
    for (int j = 0; j < L->nparams; j++) {
        Type t = L->params[j]->type;
        SubExp init = L->inits[j];
        if (t.kind == TK_PRIM) {
            if (!outer_se(F, init)) return false;
        } else if (t.rank != 1 || t.kind != TK_ARRAY || !t.shape[0].is_var || !top_var(F, t.shape[0].v) ||
                   !init.is_var || !inner_arr(F, init.v) || F->len[init.v->id] != t.shape[0].v) {
            return false;
        }
    }
    Flat G = flat_nested(F, st->loc);
    flat_begin(&G, F->w, L->body);
    loop_setup(F, &G, (Stm *)st, NULL);
    bool any, builds;
    bool ok = classify(&G, L->body, true, &any, &builds);
    for (int j = 0; ok && j < L->nparams; j++) {
        SubExp r = L->body->res[j];
        Type t = L->params[j]->type;
        if (t.kind == TK_ARRAY)
            ok = r.is_var && inner_arr(&G, r.v) && G.len[r.v->id] == t.shape[0].v;
        else
            ok = outer_se(&G, r);
    }
    if (ok && (L->kind == IR_LOOP_WHILE || (L->bound.is_var && top_var(F, L->bound.v)))) {
        bool bad = false;
        IrWalk w = {NULL, NULL, unsafe_stm, &bad};
        ir_walk_body(&w, L->body);
        for (int k = 0; k < L->body->nstms && !bad; k++)
            for (int j = 0; j < L->body->stms[k]->npat; j++) {
                Var *x = L->body->stms[k]->pat[j];
                if (inner_arr(&G, x) && G.stage[G.len[x->id]->id] != -1) bad = true;
            }
        ok = !bad;
    }
    flat_nested_end(&G);
    return ok;
}

/* The value of outer SubExp x of G's body for each element: its expanded
 * array, or a constant's replicate (into out). */
static Var *expanded(Flat *G, StmVec *out, SubExp x) {
    if (x.is_var && body_var(G, x.v)) return fl_lifted_of(G, x.v);
    IrExp *e = fl_exp_new(G, IE_REPLICATE);
    e->nshape = 1;
    e->shape = NEW(G->a, SubExp);
    e->shape[0] = G->w;
    e->se = x;
    return fl_emit1(G, out, "x", fl_arr_type(G, subexp_type(x).elem, G->w), e);
}

/* The reduction by op (commutative, of neutral ne) of the [w] array arr
 * of type t, into out. */
static SubExp reduce_all(Flat *F, StmVec *out, Var *arr, Op op, PrimType t, SubExp ne, const char *name) {
    return se_var(fl_emit_soac1(F, out, F->w, arr, fl_binop(F, op, t, ne), false, t, name));
}

static void lift_loop(Flat *F, Stm *st) {
    Loop *L = &st->e->loop;
    int np = L->nparams;
    bool is_while = L->kind == IR_LOOP_WHILE;
    /* A for loop's count: the largest of the elements' counts. A while
     * loop goes on while some element's condition holds. */
    SubExp bound = L->bound;
    bool varies = is_while || (bound.is_var && top_var(F, bound.v));
    if (varies && !is_while) bound = reduce_all(F, &F->out, fl_lifted_of(F, bound.v), OP_MAX, PT_I64, se_i64(0), "count");
    /* The host loop's parameters and their initial values (and a while
     * loop's: whether some element goes on). */
    Var **hp = NEW_ARRAY(F->a, Var *, np + 2), **pat = NEW_ARRAY(F->a, Var *, np + 2);
    SubExp *inits = NEW_ARRAY(F->a, SubExp, np + 2);
    int cond = -1;
    for (int j = 0; j < np; j++) {
        Var *x = L->params[j];
        if (x->type.kind == TK_PRIM) {
            inits[j] = se_var(expanded(F, &F->out, L->inits[j]));
            hp[j] = ir_var(F->p, x->name, fl_arr_type(F, x->type.elem, F->w));
        } else {
            Var *init = L->inits[j].v;
            fl_desc_positions(F, F->desc[init->id]);
            inits[j] = se_var(x->type.unique ? fl_owned(F, F->flat[init->id]) : F->flat[init->id]);
            hp[j] = ir_var(F->p, x->name, F->flat[init->id]->type);
        }
        hp[j]->type.unique = x->type.unique && x->type.kind == TK_ARRAY; /* a scalar's is a copy */
        pat[j] = ir_var(F->p, st->pat[j]->name, hp[j]->type);
        if (is_while && x == L->cond) cond = j;
    }
    if (is_while) {
        hp[np] = ir_var(F->p, "go", type_prim(PT_BOOL));
        pat[np] = ir_var(F->p, "go", type_prim(PT_BOOL));
        inits[np] = reduce_all(F, &F->out, inits[cond].v, OP_LOR, PT_BOOL, se_bool(false), "go");
    }
    /* The body, lifted over the elements. */
    Flat G = flat_nested(F, st->loc);
    flat_begin(&G, F->w, L->body);
    loop_setup(F, &G, st, hp);
    /* The loop body's descriptors are copies: what it adds to them (the
     * positions, made in the body) stays in the body. */
    for (Desc *d = F->descs; d; d = d->next) {
        Desc *c = NEW(F->a, Desc);
        *c = *d;
        c->next = G.descs;
        G.descs = c;
        for (int i = 0; i < G.nvars; i++)
            if (G.desc[i] == d) G.desc[i] = c;
    }
    bool any, builds;
    if (!classify(&G, L->body, true, &any, &builds)) ICE("flatten: a loop checked before cannot be lifted");
    emit_body(&G, L->body);
    Var *act = is_while ? hp[cond] : NULL;
    if (varies && !is_while) { /* act: whether the element still iterates */
        Var *b = ir_var(F->p, "count", type_prim(PT_I64));
        StmVec s = {0};
        SubExp a = ir_emit_op2(F->p, &s, OP_LT, PT_I64, se_var(L->i), se_var(b), "active", F->loc);
        Var *ins[1] = {fl_lifted_of(F, L->bound.v)}, *ap[1] = {NULL};
        vec_push(&G.out, fl_map_stm(F, F->w, ins, 1, ir_lambda_new(F->a, &b, 1, ir_body_new(F->a, &s, &a, 1)), ap));
        vec_free(&s);
        act = ap[0];
    }
    SubExp *res = NEW_ARRAY(F->a, SubExp, np + 2);
    for (int j = 0; j < np; j++) {
        SubExp r = L->body->res[j];
        Type t = L->params[j]->type;
        Var *nv = t.kind == TK_PRIM ? expanded(&G, &G.out, r) : G.flat[r.v->id];
        if (act) {
            Var *a = ir_var(F->p, "active", type_prim(PT_BOOL)), *n = ir_var(F->p, "new", type_prim(t.elem)),
                *o = ir_var(F->p, "old", type_prim(t.elem)), *sg = NULL;
            StmVec s = {0};
            SubExp av = se_var(a);
            SubExp w = F->w;
            if (t.kind == TK_ARRAY) { /* per flat position: its element's flag */
                Desc *d = F->desc[L->inits[j].v->id];
                a = ir_var(F->p, "seg", type_prim(PT_I64));
                av = se_var(fl_emit_index(F, &s, act, se_var(a)));
                w = se_var(d->total);
                sg = d->seg;
            }
            SubExp x = fl_if(F, &s, av, NULL, se_var(n), NULL, se_var(o), type_prim(t.elem));
            Var *ps[3] = {a, n, o}, *ins[3] = {t.kind == TK_ARRAY ? sg : act, nv, hp[j]}, *mp[1] = {NULL};
            vec_push(&G.out, fl_map_stm(F, w, ins, 3, ir_lambda_new(F->a, ps, 3, ir_body_new(F->a, &s, &x, 1)), mp));
            vec_free(&s);
            nv = mp[0];
        }
        res[j] = se_var(nv);
    }
    if (is_while) res[np] = reduce_all(F, &G.out, res[cond].v, OP_LOR, PT_BOOL, se_bool(false), "go");
    int nh = np + is_while;
    IrExp *e = fl_exp_new(F, IE_LOOP);
    e->loop.params = hp;
    e->loop.inits = inits;
    e->loop.nparams = nh;
    e->loop.kind = L->kind;
    e->loop.i = L->i;
    e->loop.bound = bound;
    e->loop.cond = is_while ? hp[np] : NULL;
    e->loop.body = ir_body_new(F->a, &G.out, res, nh);
    vec_push(&F->out, ir_stm(F->a, pat, nh, e, st->loc));
    for (int j = 0; j < np; j++) {
        Var *x = st->pat[j];
        if (x->type.kind == TK_PRIM) {
            F->lifted[x->id] = pat[j];
        } else {
            F->desc[x->id] = F->desc[L->inits[j].v->id];
            fl_set_flat(F, x, pat[j]);
        }
    }
    flat_nested_end(&G);
}

/* ---- Flattening one map -------------------------------------------------------------- */

/* Whether a top-level statement of lam's body binds an array whose shape
 * mentions a parameter or a value the body binds before it: a cheap test
 * that leaves regular maps alone before any per-map state is made. */
static bool builds_irregular(const Lambda *lam) {
    const Body *b = lam->body;
    for (int k = 0; k < b->nstms; k++)
        for (int j = 0; j < b->stms[k]->npat; j++) {
            Type t = b->stms[k]->pat[j]->type;
            for (int d = 0; t.kind == TK_ARRAY && d < t.rank; d++) {
                if (!t.shape[d].is_var) continue;
                const Var *v = t.shape[d].v;
                for (int i = 0; i < lam->nparams; i++)
                    if (lam->params[i] == v) return true;
                for (int i = 0; i < k; i++)
                    for (int q = 0; q < b->stms[i]->npat; q++)
                        if (b->stms[i]->pat[q] == v) return true;
            }
        }
    return false;
}

static bool flatten_map(Flat *F, Body *host, int at);

/* A host-level Screma that scans or reduces, whose map builds arrays of
 * sizes that differ between elements (such as the row sizes of an
 * irregular array of filters, fused with the scan of their offsets): its
 * map is flattened on its own (split_screma), unless it cannot be. */
static bool flatten_split(Flat *F, Body *host, int at) {
    Stm *s = host->stms[at];
    if (!prim_lambda(s->e->screma.map)) return false;
    F->loc = s->loc;
    StmVec two = {0};
    split_screma(F, s, &two);
    Stm **saved = host->stms;
    int nsaved = host->nstms;
    Stm **stms = NEW_ARRAY(F->a, Stm *, nsaved + two.len);
    COPY_ARRAY(stms, saved, at);
    COPY_ARRAY(stms + at, two.items, two.len);
    COPY_ARRAY(stms + at + two.len, saved + at + 1, nsaved - at - 1);
    host->stms = stms;
    host->nstms = nsaved + two.len - 1;
    vec_free(&two);
    if (flatten_map(F, host, at)) return true;
    host->stms = saved;
    host->nstms = nsaved;
    return false;
}

static bool flatten_map(Flat *F, Body *host, int at) {
    Stm *s = host->stms[at];
    Screma *sc = &s->e->screma;
    if (!builds_irregular(sc->map)) return false;
    if (sc->nscans || sc->nreds) return flatten_split(F, host, at);
    Lambda *lam = sc->map;
    Body *b = lam->body;
    F->loc = s->loc;
    Stm **saved = b->stms;
    int nsaved = b->nstms;
    bool split = split_nested(F, b);
    split |= split_ifs(F, b);
    split |= give_inputs(F, lam);
    flat_begin(F, sc->w, b);
    for (int i = 0; i < lam->nparams; i++) {
        F->level[lam->params[i]->id] = L_OUTER;
        F->stage[lam->params[i]->id] = -1;
        F->lifted[lam->params[i]->id] = sc->arrs[i];
    }
    bool any, builds;
    bool ok = classify(F, b, false, &any, &builds) && any && builds;
    if (ok) {
        F->out.len = 0;
        emit_body(F, b);
        for (int r = 0; r < b->nres; r++)
            vec_push(&F->out, ir_copy_stm(F->a, s->pat[r], se_var(expanded(F, &F->out, b->res[r])), s->loc));
        /* Splice the statements in place of the map. */
        int m = F->out.len;
        Stm **stms = NEW_ARRAY(F->a, Stm *, host->nstms + m);
        COPY_ARRAY(stms, host->stms, at);
        COPY_ARRAY(stms + at, F->out.items, m);
        COPY_ARRAY(stms + at + m, host->stms + at + 1, host->nstms - at - 1);
        host->stms = stms;
        host->nstms += m - 1;
        F->changed = true;
    } else if (split) {
        b->stms = saved;
        b->nstms = nsaved;
    }
    flat_end(F);
    return ok;
}

static void flatten_body(Flat *F, Body *b) {
    for (int k = 0; k < b->nstms; k++) {
        IrExp *e = b->stms[k]->e;
        if (e->kind == IE_IF) {
            flatten_body(F, e->tbody);
            flatten_body(F, e->fbody);
        } else if (e->kind == IE_LOOP) {
            flatten_body(F, e->loop.body);
        } else if (e->kind == IE_HIST && flatten_hist_rows(F->p, b, k)) {
            F->changed = true;
        } else if (e->kind == IE_SCREMA && F->nflat < MAX_FLATTENED && flatten_map(F, b, k)) {
            /* The new statements are looked at too: a lifted map whose
             * function ran nested parallel code may be flattened again. */
            F->nflat++;
            k--;
        }
    }
}

void pass_flatten(Prog *p) {
    if (p->stage != STAGE_SOACS) ICE("pass_flatten: expected a program at STAGE_SOACS");
    Flat F = {0};
    F.p = p;
    F.a = p->arena;
    for (int i = 0; i < p->nfuns; i++) flatten_body(&F, p->funs[i]->body);
    vec_free(&F.out);
    vec_free(&F.params);
    vec_free(&F.arrs);
    vec_free(&F.prologue);
    if (F.changed) {
        pass_simplify(p);
        pass_fuse(p);
    }
}
