/* SOAC fusion: STAGE_SOACS -> STAGE_SOACS. Implements the producer/consumer
 * rules of Futhark's fusion (Henriksen & Oancea, "A T2 graph-reduction
 * approach to fusion", FHPC 2013; Futhark's Optimise.Fusion with the
 * "screma" composite): every rule is the rewrite of two SOAC statements of
 * one body into one Screma, Scatter or Hist.
 *
 *  - Vertical: a producer Screma P whose map outputs a consumer C (Screma,
 *    Scatter or Hist of the same width) reads through its input arrays is
 *    composed into C: the fused lambda takes P's inputs, runs P's body, binds
 *    C's parameters to P's map results and runs C's body. P's scans and
 *    reductions (Futhark's "screma into screma") come along as operators of
 *    the fused Screma; outputs of P used elsewhere stay outputs of the fused
 *    node ("diagonal" fusion), so nothing is computed twice. A Scatter or
 *    Hist cannot return extra arrays, so only a plain map whose outputs C
 *    alone reads fuses into one.
 *  - Horizontal: two independent Scremas of the same width become one, with
 *    the operators and map results of both (one pass over memory); shared
 *    input arrays become one lambda parameter.
 *  - Through reshapes: a map (no scans or reductions) over reshapes of
 *    arrays whose lambda takes and returns scalars (element-wise, such as
 *    `map f (flatten img)`), whose outputs are used only by reshapes to one
 *    shape S (`unflatten`), becomes a nest of rank(S) maps of the same lambda
 *    over the arrays reshaped to S (the arrays themselves when they have
 *    shape S), at the first of those reshapes; the reshapes become copies
 *    of the nest's results. A reshape keeps the row-major order of the
 *    elements, so the results are the same and nothing is computed twice;
 *    the nest then fuses vertically with the SOACs that read the S-shaped
 *    arrays (the row sums of an unflattened image). It is done only when
 *    such a SOAC exists (else the flat map may still fuse horizontally) and
 *    the map may move down to the reshape as P does below (the reshape's
 *    size check comes first). The simplifier has folded chains of reshapes
 *    (flatten of a flatten) into one, so any rank works.
 *  - Flattened map nests: a nest of two maps whose result only a reshape
 *    to one dimension reads (`flatten (map (\x -> map (g x) as) xs)`),
 *    that reshape an input of a SOAC, becomes one map over the flat
 *    positions t, element (t / d, t mod d), when the outer lambda's other
 *    statements are cheap scalar code (they run again for each inner
 *    element) and neither lambda asserts. The nest's result is then never
 *    stored: the flat map fuses into the SOAC, and reads the outer arrays
 *    by index instead of joining their producer (k-means: the slots
 *    c * d + j of each point's centre c, 8 bytes per coordinate, are
 *    computed inside the reduce_by_index of the sums, not written by the
 *    assignment map and read back).
 *  - Width equality: the same variable or constant, or sizes an enclosing
 *    assertion `assert(eq.i64(a, b))` before the fused statement proves equal.
 *  - Legality: the fused statement replaces P and C at C's position (P moves
 *    down) or at P's (C moves up). P moves down only if no statement between
 *    uses its outputs, none between nor C consumes (in-place update, Scatter,
 *    Hist, unique loop parameter) an array P reads or an alias of one, and,
 *    if P contains an assertion, none between does (errors keep their order).
 *    C moves up only if it uses nothing bound between, no statement between
 *    contains an assertion (it may guard C) and none reads what C consumes.
 *    C may use P's outputs only through its input arrays (an output read by
 *    index in C's lambda, or a reduction result, is not ready while C runs).
 * Flattening nests is tried first (before the nest's map joins its
 * producer vertically), then vertical fusion, the rewrite through reshapes
 * and horizontal fusion, to a fixed point per body, innermost bodies
 * first (the bodies of loops, branches, SOAC lambdas and operators);
 * every fusion and flattening removes one SOAC, every rewrite through reshapes
 * removes the reshapes of a SOAC's results (the nest's results are read
 * directly), so it terminates.
 * The fused lambda binds C's parameters with `let p = r` statements instead
 * of substituting, so the consumer's statements are reused untouched; the
 * simplifier, run between rounds of fusion, removes those copies, and the
 * next round fuses what they hid (SOACs inside the fused lambda). */
#include "passes.h"

#include <string.h>

/* Rounds of fusion and simplification at most: each round fuses the SOACs
 * that the previous one exposed inside the lambdas it built; nests in real
 * programs are a few levels deep. */
#define FUSE_ROUNDS 4

typedef enum UseKind { FU_READ, FU_CONSUME } UseKind;

/* An equality of two i64 sizes proved by an assertion at stm index pos of a
 * body (pos -1: an enclosing body, before the statement being fused). */
typedef struct SizeEq {
    SubExp a, b;
    int pos;
} SizeEq;

/* Pass state for one function; per-variable arrays are indexed by Var id. */
typedef struct Fuse {
    Prog *p;
    int nvars;
    Stm **def;   /* the statement binding a variable (NULL: a parameter) */
    int *mark;   /* generation marks: a set of variables */
    int *rmark;  /* generation marks: a set of alias roots */
    int *cnt;    /* per-variable use counts of the current query */
    int gen;
    VEC(SizeEq) eqs;
    bool changed; /* a fusion happened in this round */
} Fuse;

/* ---- Walking the uses of statements ------------------------------------------- */

typedef struct Walk Walk;
struct Walk {
    void (*fn)(Walk *w, Var *v, UseKind k);
    Fuse *F;
    bool hit;
    int n;
};

static void walk_body(Walk *w, const Body *b);

static void walk_se(Walk *w, SubExp se) {
    if (se.is_var) w->fn(w, se.v, FU_READ);
}

static void walk_ses(Walk *w, const SubExp *ses, int n) {
    for (int i = 0; i < n; i++) walk_se(w, ses[i]);
}

static void walk_type(Walk *w, Type t) {
    if (t.kind == TK_ARRAY) walk_ses(w, t.shape, t.rank);
}

static void walk_vars(Walk *w, Var *const *vs, int n, UseKind k) {
    for (int i = 0; i < n; i++) w->fn(w, vs[i], k);
}

static void walk_lambda(Walk *w, const Lambda *l) {
    for (int i = 0; i < l->nparams; i++) walk_type(w, l->params[i]->type);
    for (int i = 0; i < l->nret; i++) walk_type(w, l->ret[i]);
    walk_body(w, l->body);
}

static void walk_segops(Walk *w, const SegOp *ops, int n) {
    for (int i = 0; i < n; i++) {
        walk_ses(w, ops[i].neutral, ops[i].k);
        walk_lambda(w, ops[i].op);
    }
}

static void walk_slice(Walk *w, const DimSlice *sl, int n) {
    for (int i = 0; i < n; i++) {
        if (!sl[i].is_slice) walk_se(w, sl[i].index);
        else walk_se(w, sl[i].start), walk_se(w, sl[i].len), walk_se(w, sl[i].stride);
    }
}

static void walk_loop(Walk *w, const Loop *l) {
    for (int i = 0; i < l->nparams; i++) {
        bool consumed = l->params[i]->type.kind == TK_ARRAY && l->params[i]->type.unique;
        if (l->inits[i].is_var) w->fn(w, l->inits[i].v, consumed ? FU_CONSUME : FU_READ);
        walk_type(w, l->params[i]->type);
    }
    if (l->kind == IR_LOOP_FOR) walk_se(w, l->bound);
    else w->fn(w, l->cond, FU_READ);
    walk_body(w, l->body);
}

/* The SOACs' uses: widths, inputs, consumed destinations, lambdas. */
static void walk_soac(Walk *w, const IrExp *e) {
    if (e->kind == IE_SCREMA) {
        const Screma *s = &e->screma;
        walk_se(w, s->w);
        walk_vars(w, s->arrs, s->narrs, FU_READ);
        walk_segops(w, s->scans, s->nscans);
        walk_segops(w, s->reds, s->nreds);
        walk_lambda(w, s->map);
    } else if (e->kind == IE_SCATTER) {
        const Scatter *s = &e->scatter;
        walk_se(w, s->w);
        walk_vars(w, s->arrs, s->narrs, FU_READ);
        walk_vars(w, s->dests, s->ndests, FU_CONSUME);
        walk_lambda(w, s->lam);
    } else {
        const Hist *h = &e->hist;
        walk_se(w, h->w);
        walk_se(w, h->dest_w);
        walk_vars(w, h->arrs, h->narrs, FU_READ);
        walk_vars(w, h->dests, h->op.k, FU_CONSUME);
        walk_segops(w, &h->op, 1);
        walk_lambda(w, h->lam);
    }
}

static void walk_exp(Walk *w, const IrExp *e) {
    switch (e->kind) {
    case IE_SUBEXP: walk_se(w, e->se); break;
    case IE_OP:
    case IE_CONV:
    case IE_ARRAYLIT:
    case IE_APPLY:
    case IE_THRESHOLD: walk_ses(w, e->args, e->nargs); break;
    case IE_ASSERT: walk_se(w, e->cond), walk_ses(w, e->args, e->nargs); break;
    case IE_IF:
        walk_se(w, e->cond);
        for (int i = 0; i < e->nret; i++) walk_type(w, e->ret[i]);
        walk_body(w, e->tbody);
        walk_body(w, e->fbody);
        break;
    case IE_LOOP: walk_loop(w, &e->loop); break;
    case IE_INDEX: w->fn(w, e->arr, FU_READ), walk_slice(w, e->slice, e->nslice); break;
    case IE_UPDATE:
    case IE_FLAT_UPDATE:
        w->fn(w, e->arr, FU_CONSUME);
        walk_slice(w, e->slice, e->nslice);
        walk_se(w, e->se);
        if (e->kind == IE_FLAT_UPDATE) walk_se(w, e->start);
        break;
    case IE_FLAT_INDEX: w->fn(w, e->arr, FU_READ), walk_se(w, e->start), walk_slice(w, e->slice, e->nslice); break;
    case IE_IOTA: walk_se(w, e->n), walk_se(w, e->start), walk_se(w, e->step); break;
    case IE_REPLICATE: walk_ses(w, e->shape, e->nshape), walk_se(w, e->se); break;
    case IE_SCRATCH: walk_type(w, e->type); break;
    case IE_RESHAPE: w->fn(w, e->arr, FU_READ), walk_ses(w, e->shape, e->nshape); break;
    case IE_REARRANGE:
    case IE_COPY: w->fn(w, e->arr, FU_READ); break;
    case IE_CONCAT: walk_vars(w, e->arrs, e->narrs, FU_READ), walk_se(w, e->len); break;
    case IE_SCREMA:
    case IE_SCATTER:
    case IE_HIST: walk_soac(w, e); break;
    case IE_ALLOC: walk_se(w, e->size); break;
    }
}

static void walk_stm(Walk *w, const Stm *s) {
    for (int i = 0; i < s->npat; i++) walk_type(w, s->pat[i]->type);
    walk_exp(w, s->e);
}

static void walk_body(Walk *w, const Body *b) {
    for (int i = 0; i < b->nstms; i++) walk_stm(w, b->stms[i]);
    walk_ses(w, b->res, b->nres);
}

/* ---- Queries ------------------------------------------------------------------ */

static bool is_soac(const Stm *s) {
    return s->e->kind == IE_SCREMA || s->e->kind == IE_SCATTER || s->e->kind == IE_HIST;
}

/* A fresh, empty set for mark (or rmark). */
static int fuse_new_set(Fuse *F) { return ++F->gen; }

static void mark_pats(Fuse *F, const Stm *s) {
    for (int i = 0; i < s->npat; i++) F->mark[s->pat[i]->id] = F->gen;
}

/* The array an alias (slice, reshape, transposition, copy of a name, the
 * result of an in-place update or a Scatter/Hist) shares memory with, down
 * to an array that owns its memory. */
static Var *fuse_root(Fuse *F, Var *v) {
    for (;;) {
        Stm *d = v->type.kind == TK_ARRAY && v->id < F->nvars ? F->def[v->id] : NULL;
        if (!d) return v;
        const IrExp *e = d->e;
        if (e->kind == IE_SUBEXP && e->se.is_var) v = e->se.v;
        else if (e->kind == IE_INDEX || e->kind == IE_RESHAPE || e->kind == IE_REARRANGE ||
                 e->kind == IE_UPDATE || e->kind == IE_FLAT_INDEX || e->kind == IE_FLAT_UPDATE)
            v = e->arr;
        else if (e->kind == IE_SCATTER && d->npat > 0 && d->pat[0] == v) v = e->scatter.dests[0];
        else if (e->kind == IE_HIST) {
            int j = 0;
            while (j < d->npat && d->pat[j] != v) j++;
            if (j == d->npat) return v;
            v = e->hist.dests[j];
        } else return v;
    }
}

static void on_mentions_marked(Walk *w, Var *v, UseKind k) {
    if (w->F->mark[v->id] == w->F->gen) w->hit = true, w->n++;
}

/* True if s mentions a variable of the current mark set (deeply). */
static bool stm_mentions_marked(Fuse *F, const Stm *s) {
    Walk w = {on_mentions_marked, F, false, 0};
    walk_stm(&w, s);
    return w.hit;
}

/* Uses of marked variables in s (deeply), counting duplicates. */
static int stm_count_marked(Fuse *F, const Stm *s) {
    Walk w = {on_mentions_marked, F, false, 0};
    walk_stm(&w, s);
    return w.n;
}

/* Marks (in rmark, set gen) the alias roots of the arrays s reads or consumes. */
static void on_root_mark(Walk *w, Var *v, UseKind k) {
    if (v->type.kind == TK_ARRAY) w->F->rmark[fuse_root(w->F, v)->id] = w->F->gen;
}

static void on_root_consumed(Walk *w, Var *v, UseKind k) {
    if (k == FU_CONSUME && w->F->rmark[fuse_root(w->F, v)->id] == w->F->gen) w->hit = true;
}

static void on_root_used(Walk *w, Var *v, UseKind k) {
    if (v->type.kind == TK_ARRAY && w->F->rmark[fuse_root(w->F, v)->id] == w->F->gen) w->hit = true;
}

static void on_consumed_mark(Walk *w, Var *v, UseKind k) {
    if (k == FU_CONSUME) w->F->rmark[fuse_root(w->F, v)->id] = w->F->gen;
}

/* True if stms[from..to) consume (deeply) an alias of an array that p reads. */
static bool consumes_reads_of(Fuse *F, Body *b, int from, int to, const Stm *p) {
    fuse_new_set(F);
    Walk m = {on_root_mark, F, false, 0};
    walk_stm(&m, p);
    Walk w = {on_root_consumed, F, false, 0};
    for (int i = from; i < to && !w.hit; i++) walk_stm(&w, b->stms[i]);
    return w.hit;
}

/* True if stms[from..to) use (deeply) an alias of an array that c consumes. */
static bool uses_consumed_by(Fuse *F, Body *b, int from, int to, const Stm *c) {
    fuse_new_set(F);
    Walk m = {on_consumed_mark, F, false, 0};
    walk_stm(&m, c);
    Walk w = {on_root_used, F, false, 0};
    for (int i = from; i < to && !w.hit; i++) walk_stm(&w, b->stms[i]);
    return w.hit;
}

static bool any_assert(Body *b, int from, int to) {
    for (int i = from; i < to; i++)
        if (ir_exp_has_assert(b->stms[i]->e)) return true;
    return false;
}

/* ---- Widths --------------------------------------------------------------------- */

/* Bound on the closure of size equalities (its reason: each step adds one
 * size; a body rarely asserts more than a few zips, and the bound keeps the
 * query linear). */
enum { FUSE_MAX_EQ_CLASS = 64 };

/* True if widths a and b are equal at statement index pos of the current
 * body: the same atom, or linked by asserted equalities before pos. */
static bool same_width(Fuse *F, SubExp a, SubExp b, int pos) {
    if (se_same(a, b)) return true;
    SubExp cls[FUSE_MAX_EQ_CLASS];
    int n = 1;
    cls[0] = a;
    for (bool grew = true; grew;) {
        grew = false;
        for (int i = 0; i < F->eqs.len; i++) {
            SizeEq *q = &F->eqs.items[i];
            if (q->pos >= pos) continue;
            bool ha = false, hb = false;
            for (int j = 0; j < n; j++) ha |= se_same(cls[j], q->a), hb |= se_same(cls[j], q->b);
            if (ha == hb || n == FUSE_MAX_EQ_CLASS) continue;
            cls[n++] = ha ? q->b : q->a;
            grew = true;
        }
    }
    for (int j = 0; j < n; j++)
        if (se_same(cls[j], b)) return true;
    return false;
}

/* The size equality that statement s (at index pos) asserts, if any. */
static bool stm_size_eq(Fuse *F, const Stm *s, int pos, SizeEq *q) {
    const IrExp *e = s->e;
    if (e->kind != IE_ASSERT || !e->cond.is_var) return false;
    Stm *d = e->cond.v->id < F->nvars ? F->def[e->cond.v->id] : NULL;
    if (!d || d->e->kind != IE_OP || d->e->op != OP_EQ || d->e->t != PT_I64) return false;
    q->a = d->e->args[0], q->b = d->e->args[1], q->pos = pos;
    return true;
}

/* Pushes the size equalities asserted by the statements of b, at their
 * index (-1: in scope everywhere, for the bodies nested in b). */
static void push_body_eqs(Fuse *F, Body *b, int from, int to, bool everywhere) {
    for (int i = from; i < to; i++) {
        SizeEq q;
        if (stm_size_eq(F, b->stms[i], everywhere ? -1 : i, &q)) vec_push(&F->eqs, q);
    }
}

/* ---- Building the fused statement ------------------------------------------------ */

/* The pieces of a Screma's map results and pattern: [0, nscan) scan inputs,
 * [nscan, nscan + nred) reduction inputs, the rest map outputs. */
static int segops_width(const SegOp *ops, int n) {
    int k = 0;
    for (int i = 0; i < n; i++) k += ops[i].k;
    return k;
}

typedef struct Parts {
    int nscan, nred;
} Parts;

static Parts screma_parts(const Stm *s) {
    Parts q = {segops_width(s->e->screma.scans, s->e->screma.nscans),
               segops_width(s->e->screma.reds, s->e->screma.nreds)};
    return q;
}

typedef VEC(Var *) VarVec;
typedef VEC(SubExp) SeVec;
typedef VEC(Type) TypeVec;

/* The lambda being assembled: parameters with their input arrays, body. */
typedef struct Build {
    VarVec params, arrs, pat;
    StmVec stms;
    SeVec res;
    TypeVec ret;
} Build;

/* Adds P's map lambda: its parameters and inputs, then its statements. */
static void build_producer(Build *B, const Stm *p) {
    const Screma *s = &p->e->screma;
    for (int i = 0; i < s->narrs; i++) {
        vec_push(&B->params, s->map->params[i]);
        vec_push(&B->arrs, s->arrs[i]);
    }
    for (int i = 0; i < s->map->body->nstms; i++) vec_push(&B->stms, s->map->body->stms[i]);
}

/* Adds C's lambda: each parameter is bound to P's map result when its input
 * is an output of P, to an existing parameter when the input array is
 * already one, else it becomes a new parameter; then C's statements. */
static void build_consumer(Fuse *F, Build *B, const Stm *p, const Stm *c, Var **arrs, int narrs, Lambda *l) {
    const Lambda *pm = p->e->screma.map;
    for (int i = 0; i < narrs; i++) {
        Var *prm = l->params[i];
        int j = 0;
        while (j < p->npat && p->pat[j] != arrs[i]) j++;
        if (j < p->npat) {
            vec_push(&B->stms, ir_copy_stm(F->p->arena, prm, pm->body->res[j], c->loc));
            continue;
        }
        j = 0;
        while (j < B->arrs.len && B->arrs.items[j] != arrs[i]) j++;
        if (j < B->arrs.len) {
            vec_push(&B->stms, ir_copy_stm(F->p->arena, prm, se_var(B->params.items[j]), c->loc));
            continue;
        }
        vec_push(&B->params, prm);
        vec_push(&B->arrs, arrs[i]);
    }
    for (int i = 0; i < l->body->nstms; i++) vec_push(&B->stms, l->body->stms[i]);
}

/* Appends results [from, to) of lambda l with their pattern variables. */
static void add_results(Build *B, const Lambda *l, Var **pat, int from, int to, const bool *keep) {
    for (int i = from; i < to; i++) {
        if (keep && !keep[i]) continue;
        vec_push(&B->res, l->body->res[i]);
        vec_push(&B->ret, l->ret[i]);
        vec_push(&B->pat, pat[i]);
    }
}

static SegOp *concat_segops(Arena *a, const SegOp *x, int nx, const SegOp *y, int ny) {
    SegOp *r = NEW_ARRAY(a, SegOp, nx + ny + 1);
    COPY_ARRAY(r, x, nx);
    COPY_ARRAY(r + nx, y, ny);
    return r;
}

static Lambda *build_lambda(Fuse *F, Build *B) {
    Arena *a = F->p->arena;
    Lambda *l = NEW(a, Lambda);
    l->nparams = B->params.len;
    l->params = B->params.len ? vec_to_arena(a, &B->params) : NEW_ARRAY(a, Var *, 1);
    l->nret = B->ret.len;
    l->ret = B->ret.len ? vec_to_arena(a, &B->ret) : NEW_ARRAY(a, Type, 1);
    l->body = NEW(a, Body);
    l->body->nstms = B->stms.len;
    l->body->stms = B->stms.len ? vec_to_arena(a, &B->stms) : NEW_ARRAY(a, Stm *, 1);
    l->body->nres = B->res.len;
    l->body->res = B->res.len ? vec_to_arena(a, &B->res) : NEW_ARRAY(a, SubExp, 1);
    return l;
}

static void build_free(Build *B) {
    vec_free(&B->params);
    vec_free(&B->arrs);
    vec_free(&B->pat);
    vec_free(&B->stms);
    vec_free(&B->res);
    vec_free(&B->ret);
}

/* P and C (both Scremas) as one Screma of width w: scans of P then C,
 * reductions of P then C, the map outputs of P that keep marks, then C's. */
static Stm *fuse_into_screma(Fuse *F, const Stm *p, const Stm *c, const bool *keep, SubExp w) {
    Arena *a = F->p->arena;
    const Screma *ps = &p->e->screma, *cs = &c->e->screma;
    Parts pp = screma_parts(p), cp = screma_parts(c);
    Build B = {0};
    build_producer(&B, p);
    build_consumer(F, &B, p, c, cs->arrs, cs->narrs, cs->map);
    add_results(&B, ps->map, p->pat, 0, pp.nscan, NULL);
    add_results(&B, cs->map, c->pat, 0, cp.nscan, NULL);
    add_results(&B, ps->map, p->pat, pp.nscan, pp.nscan + pp.nred, NULL);
    add_results(&B, cs->map, c->pat, cp.nscan, cp.nscan + cp.nred, NULL);
    add_results(&B, ps->map, p->pat, pp.nscan + pp.nred, p->npat, keep);
    add_results(&B, cs->map, c->pat, cp.nscan + cp.nred, c->npat, NULL);
    IrExp *e = NEW(a, IrExp);
    e->kind = IE_SCREMA;
    e->pin = p->e->pin | c->e->pin;
    Screma *s = &e->screma;
    s->w = w;
    s->narrs = B.arrs.len;
    s->arrs = B.arrs.len ? vec_to_arena(a, &B.arrs) : NEW_ARRAY(a, Var *, 1);
    s->nscans = ps->nscans + cs->nscans;
    s->scans = concat_segops(a, ps->scans, ps->nscans, cs->scans, cs->nscans);
    s->nreds = ps->nreds + cs->nreds;
    s->reds = concat_segops(a, ps->reds, ps->nreds, cs->reds, cs->nreds);
    s->map = build_lambda(F, &B);
    Stm *r = NEW(a, Stm);
    r->npat = B.pat.len;
    r->pat = vec_to_arena(a, &B.pat);
    r->e = e;
    r->loc = c->loc;
    build_free(&B);
    return r;
}

/* A plain map P composed into the Scatter or Hist C, which keeps its
 * destinations, operator and pattern. */
static Stm *fuse_into_dest_soac(Fuse *F, const Stm *p, const Stm *c, SubExp w) {
    Arena *a = F->p->arena;
    IrExp *e = NEW(a, IrExp);
    *e = *c->e;
    bool sc = c->e->kind == IE_SCATTER;
    Lambda *cl = sc ? c->e->scatter.lam : c->e->hist.lam;
    Build B = {0};
    build_producer(&B, p);
    if (sc) build_consumer(F, &B, p, c, c->e->scatter.arrs, c->e->scatter.narrs, cl);
    else build_consumer(F, &B, p, c, c->e->hist.arrs, c->e->hist.narrs, cl);
    add_results(&B, cl, c->pat, 0, cl->nret, NULL);
    Lambda *l = build_lambda(F, &B);
    Var **arrs = B.arrs.len ? vec_to_arena(a, &B.arrs) : NEW_ARRAY(a, Var *, 1);
    if (sc) e->scatter.lam = l, e->scatter.arrs = arrs, e->scatter.narrs = B.arrs.len, e->scatter.w = w;
    else e->hist.lam = l, e->hist.arrs = arrs, e->hist.narrs = B.arrs.len, e->hist.w = w;
    Stm *r = NEW(a, Stm);
    *r = *c;
    r->e = e;
    build_free(&B);
    return r;
}

/* Replaces stms[pi] and stms[ci] (pi < ci) by fused at index at (pi or ci). */
static void replace_pair(Fuse *F, Body *b, int pi, int ci, int at, Stm *fused) {
    int n = 0;
    for (int i = 0; i < b->nstms; i++) {
        if (i == at) b->stms[n++] = fused;
        else if (i != pi && i != ci) b->stms[n++] = b->stms[i];
    }
    b->nstms = n;
    for (int i = 0; i < fused->npat; i++) F->def[fused->pat[i]->id] = fused;
}

/* ---- Legality ---------------------------------------------------------------------- */

/* Whether P (stms[pi]) may move down to index ci, past the statements
 * between, which do not use its outputs: none of them nor stms[ci]
 * consumes an array P reads, and errors keep their order. */
static bool may_move_down(Fuse *F, Body *b, int pi, int ci) {
    Stm *p = b->stms[pi];
    return !consumes_reads_of(F, b, pi + 1, ci + 1, p) && !(ir_exp_has_assert(p->e) && any_assert(b, pi + 1, ci));
}

/* Where the fused statement of stms[pi] and stms[ci] may go: ci when P can
 * move down, pi when C can move up, -1 when neither. between_use: some
 * statement between uses P's outputs. */
static int placement(Fuse *F, Body *b, int pi, int ci, bool between_use) {
    Stm *c = b->stms[ci];
    if (!between_use && may_move_down(F, b, pi, ci)) return ci;
    fuse_new_set(F);
    for (int i = pi + 1; i < ci; i++) mark_pats(F, b->stms[i]);
    if (stm_mentions_marked(F, c) || any_assert(b, pi + 1, ci)) return -1;
    if (uses_consumed_by(F, b, pi + 1, ci, c) || consumes_reads_of(F, b, pi + 1, ci, c)) return -1;
    return pi;
}

/* True if some statement of b after pi other than skip, or b's result,
 * uses P's outputs; counts the uses per output in F->cnt. */
static void on_count(Walk *w, Var *v, UseKind k) {
    if (w->F->mark[v->id] == w->F->gen) w->F->cnt[v->id]++, w->hit = true;
}

static bool count_outside_uses(Fuse *F, Body *b, int pi, int skip) {
    Stm *p = b->stms[pi];
    fuse_new_set(F);
    mark_pats(F, p);
    for (int i = 0; i < p->npat; i++) F->cnt[p->pat[i]->id] = 0;
    Walk w = {on_count, F, false, 0};
    for (int i = pi + 1; i < b->nstms; i++)
        if (i != skip) walk_stm(&w, b->stms[i]);
    walk_ses(&w, b->res, b->nres);
    return w.hit;
}

/* The input arrays of a SOAC statement. */
static Var **soac_arrs(const Stm *s, int *n) {
    const IrExp *e = s->e;
    if (e->kind == IE_SCREMA) return *n = e->screma.narrs, e->screma.arrs;
    if (e->kind == IE_SCATTER) return *n = e->scatter.narrs, e->scatter.arrs;
    return *n = e->hist.narrs, e->hist.arrs;
}

static SubExp soac_width(const Stm *s) {
    const IrExp *e = s->e;
    return e->kind == IE_SCREMA ? e->screma.w : e->kind == IE_SCATTER ? e->scatter.w : e->hist.w;
}

/* True if C reads P's outputs only as input arrays, and only map outputs. */
static bool reads_only_map_outputs(Fuse *F, const Stm *p, const Stm *c) {
    int narrs, direct = 0, nmap0 = screma_parts(p).nscan + screma_parts(p).nred;
    Var **arrs = soac_arrs(c, &narrs);
    for (int i = 0; i < narrs; i++)
        for (int j = 0; j < p->npat; j++)
            if (arrs[i] == p->pat[j]) {
                if (j < nmap0) return false;
                direct++;
            }
    fuse_new_set(F);
    mark_pats(F, p);
    return stm_count_marked(F, c) == direct;
}

/* Fuses producer stms[pi] into consumer stms[ci] if legal; true if done. */
static bool try_vertical_pair(Fuse *F, Body *b, int pi, int ci) {
    Stm *p = b->stms[pi], *c = b->stms[ci];
    bool dest = c->e->kind != IE_SCREMA;
    Parts pp = screma_parts(p);
    if (dest && (pp.nscan || pp.nred)) return false;
    if (!reads_only_map_outputs(F, p, c)) return false;
    /* C's destinations must not alias what P reads: P would see C's writes. */
    fuse_new_set(F);
    Walk m = {on_consumed_mark, F, false, 0};
    walk_stm(&m, c);
    Walk r = {on_root_used, F, false, 0};
    walk_stm(&r, p);
    if (r.hit) return false;
    count_outside_uses(F, b, pi, ci);
    bool *keep = NEW_ARRAY(F->p->arena, bool, p->npat + 1);
    bool kept_map = false;
    for (int j = 0; j < p->npat; j++) keep[j] = F->cnt[p->pat[j]->id] > 0, kept_map |= keep[j];
    if (dest && kept_map) return false;
    fuse_new_set(F);
    mark_pats(F, p);
    bool between = false;
    for (int i = pi + 1; i < ci && !between; i++) between = stm_mentions_marked(F, b->stms[i]);
    int at = placement(F, b, pi, ci, between);
    if (at < 0 || !same_width(F, soac_width(p), soac_width(c), at)) return false;
    SubExp w = at == ci ? soac_width(c) : soac_width(p);
    Stm *fused = dest ? fuse_into_dest_soac(F, p, c, w) : fuse_into_screma(F, p, c, keep, w);
    replace_pair(F, b, pi, ci, at, fused);
    return true;
}

static int stm_index(Body *b, const Stm *s, int before) {
    for (int i = before - 1; i >= 0; i--)
        if (b->stms[i] == s) return i;
    return -1;
}

/* One vertical fusion in b, if any is possible. */
static bool try_vertical(Fuse *F, Body *b) {
    for (int ci = 0; ci < b->nstms; ci++) {
        Stm *c = b->stms[ci];
        if (!is_soac(c)) continue;
        int narrs;
        Var **arrs = soac_arrs(c, &narrs);
        for (int k = 0; k < narrs; k++) {
            Stm *p = arrs[k]->id < F->nvars ? F->def[arrs[k]->id] : NULL;
            if (!p || p->e->kind != IE_SCREMA) continue;
            int pi = stm_index(b, p, ci);
            if (pi >= 0 && try_vertical_pair(F, b, pi, ci)) return true;
        }
    }
    return false;
}

/* ---- Element-wise maps through reshapes ------------------------------------------ */

/* The array that v is a reshape of, or NULL. */
static Var *reshape_source(Fuse *F, const Var *v) {
    Stm *d = v->id < F->nvars ? F->def[v->id] : NULL;
    return d && d->e->kind == IE_RESHAPE ? d->e->arr : NULL;
}

/* True if P is a map over reshapes of arrays whose lambda takes and returns
 * scalars: it maps over the elements of those arrays in row-major order,
 * whatever their shape. */
static bool elementwise_over_reshapes(Fuse *F, const Stm *p) {
    const Screma *s = &p->e->screma;
    if (s->nscans || s->nreds || s->narrs == 0 || s->map->nret == 0) return false;
    for (int i = 0; i < s->narrs; i++)
        if (s->map->params[i]->type.kind != TK_PRIM || !reshape_source(F, s->arrs[i])) return false;
    for (int i = 0; i < s->map->nret; i++)
        if (s->map->ret[i].kind != TK_PRIM) return false;
    return true;
}

static bool same_shape(const SubExp *a, int na, const SubExp *b, int nb) {
    if (na != nb) return false;
    for (int i = 0; i < na; i++)
        if (!se_same(a[i], b[i])) return false;
    return true;
}

/* The output of P that statement s reshapes, or -1. */
static int reshaped_output(const Stm *p, const Stm *s) {
    if (s->e->kind != IE_RESHAPE) return -1;
    for (int j = 0; j < p->npat; j++)
        if (p->pat[j] == s->e->arr) return j;
    return -1;
}

/* The index of the first statement after P (stms[pi]) that reshapes an
 * output of P, when every use of P's outputs (nested ones and b's result
 * included) is a statement of b that reshapes one to that same shape;
 * else -1. */
static int reshape_consumers(Fuse *F, Body *b, int pi) {
    Stm *p = b->stms[pi];
    count_outside_uses(F, b, pi, -1);
    int uses = 0, first = -1;
    for (int j = 0; j < p->npat; j++) uses += F->cnt[p->pat[j]->id];
    for (int i = pi + 1; i < b->nstms; i++) {
        const IrExp *e = b->stms[i]->e;
        if (reshaped_output(p, b->stms[i]) < 0) continue;
        if (first < 0) first = i;
        const IrExp *f = b->stms[first]->e;
        if (!same_shape(e->shape, e->nshape, f->shape, f->nshape)) return -1;
        uses--;
    }
    return uses == 0 ? first : -1;
}

/* True if a SOAC of b after ci reads a reshape of an output of P as an
 * input array: the nest can fuse with it. Otherwise P stays as it is (it
 * may still join a sibling of its width horizontally). */
static bool reshape_feeds_soac(Fuse *F, Body *b, const Stm *p, int ci) {
    fuse_new_set(F);
    for (int i = ci; i < b->nstms; i++)
        if (reshaped_output(p, b->stms[i]) >= 0) mark_pats(F, b->stms[i]);
    for (int i = ci + 1; i < b->nstms; i++) {
        if (!is_soac(b->stms[i])) continue;
        int narrs;
        Var **arrs = soac_arrs(b->stms[i], &narrs);
        for (int k = 0; k < narrs; k++)
            if (F->mark[arrs[k]->id] == F->gen) return true;
    }
    return false;
}

/* The statement binding pat (arrays of shape[0..rank)) to a nest of rank
 * maps over arrs (of that shape) whose innermost lambda is inner. */
static Stm *map_nest(Fuse *F, const SubExp *shape, int rank, Var **arrs, Lambda *inner, Var **pat, SrcLoc loc) {
    Arena *a = F->p->arena;
    Lambda *l = inner;
    if (rank > 1) {
        l = NEW(a, Lambda);
        l->nparams = inner->nparams;
        l->params = NEW_ARRAY(a, Var *, l->nparams);
        for (int i = 0; i < l->nparams; i++) l->params[i] = ir_var(F->p, "row", type_row(arrs[i]->type));
        l->nret = inner->nret;
        l->ret = NEW_ARRAY(a, Type, l->nret);
        Var **rows = NEW_ARRAY(a, Var *, l->nret);
        l->body = NEW(a, Body);
        l->body->res = NEW_ARRAY(a, SubExp, l->nret);
        l->body->nres = l->nret;
        for (int j = 0; j < l->nret; j++) {
            l->ret[j] = type_row(pat[j]->type);
            rows[j] = ir_var(F->p, "row", l->ret[j]);
            l->body->res[j] = se_var(rows[j]);
        }
        l->body->stms = NEW(a, Stm *);
        l->body->stms[0] = map_nest(F, shape + 1, rank - 1, l->params, inner, rows, loc);
        l->body->nstms = 1;
    }
    IrExp *e = NEW(a, IrExp);
    e->kind = IE_SCREMA;
    e->screma = (Screma){.w = shape[0], .arrs = arrs, .narrs = inner->nparams, .map = l};
    return ir_stm(F->p->arena, pat, inner->nret, e, loc);
}

/* Clears the new part of a per-variable array grown from old to n entries. */
static void *grow_zeroed(void *arr, size_t elem, int old, int n) {
    char *r = realloc(arr, elem * (size_t)n);
    if (!r) ICE("pass_fuse: out of memory");
    memset(r + elem * (size_t)old, 0, elem * (size_t)(n - old));
    return r;
}

/* Extends the per-variable arrays to the variables created since. */
static void fuse_grow(Fuse *F) {
    int n = F->p->next_var_id + 1;
    if (n <= F->nvars) return;
    F->def = grow_zeroed(F->def, sizeof *F->def, F->nvars, n);
    F->mark = grow_zeroed(F->mark, sizeof *F->mark, F->nvars, n);
    F->rmark = grow_zeroed(F->rmark, sizeof *F->rmark, F->nvars, n);
    F->cnt = grow_zeroed(F->cnt, sizeof *F->cnt, F->nvars, n);
    F->nvars = n;
}

/* The variables the nest replacing P binds: per output of P, the result of
 * its first reshape at or after ci, or a fresh array of shape S. */
static Var **nest_pattern(Fuse *F, Body *b, const Stm *p, int ci, const IrExp *S) {
    Var **pat = NEW_ARRAY(F->p->arena, Var *, p->npat);
    for (int j = 0; j < p->npat; j++) {
        pat[j] = NULL;
        for (int i = ci; i < b->nstms && !pat[j]; i++)
            if (reshaped_output(p, b->stms[i]) == j) pat[j] = b->stms[i]->pat[0];
        if (!pat[j]) pat[j] = ir_var(F->p, "arr", type_array(F->p->arena, p->pat[j]->type.elem, S->nshape, S->shape));
    }
    return pat;
}

/* Rewrites P = map f (reshape [k] X1) ... (stms[pi]), whose outputs are
 * only reshaped to one shape S, as the nest of maps of f over
 * reshape S X1, ... (X itself when it has shape S) placed at P's first
 * reshape (ci): reshaping a row-major array keeps the order of its
 * elements, so each output is the reshaped result. The reshapes of P's
 * outputs become copies of the nest's, which then fuses with their
 * consumers like any map nest. */
static void reshape_into_nest(Fuse *F, Body *b, int pi, int ci) {
    Arena *a = F->p->arena;
    Stm *p = b->stms[pi];
    const Screma *ps = &p->e->screma;
    const IrExp *S = b->stms[ci]->e;
    Stm **stms = NEW_ARRAY(a, Stm *, b->nstms + ps->narrs + 1);
    int n = 0;
    for (int i = 0; i < ci; i++)
        if (i != pi) stms[n++] = b->stms[i];
    Var **arrs = NEW_ARRAY(a, Var *, ps->narrs);
    for (int i = 0; i < ps->narrs; i++) {
        Var *x = reshape_source(F, ps->arrs[i]);
        arrs[i] = x;
        if (same_shape(x->type.shape, x->type.rank, S->shape, S->nshape)) continue;
        arrs[i] = ir_var(F->p, x->name, type_array(a, x->type.elem, S->nshape, S->shape));
        IrExp *e = NEW(a, IrExp);
        *e = (IrExp){.kind = IE_RESHAPE, .arr = x, .shape = S->shape, .nshape = S->nshape};
        Var **pat = NEW(a, Var *);
        *pat = arrs[i];
        stms[n++] = ir_stm(F->p->arena, pat, 1, e, b->stms[ci]->loc);
    }
    Var **pat = nest_pattern(F, b, p, ci, S);
    stms[n++] = map_nest(F, S->shape, S->nshape, arrs, ps->map, pat, p->loc);
    fuse_grow(F);
    for (int i = ci; i < b->nstms; i++) {
        Stm *s = b->stms[i];
        int j = reshaped_output(p, s);
        if (j < 0) stms[n++] = s;
        else if (s->pat[0] != pat[j]) stms[n++] = ir_copy_stm(F->p->arena, s->pat[0], se_var(pat[j]), s->loc);
    }
    b->stms = stms;
    b->nstms = n;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < stms[i]->npat; j++) F->def[stms[i]->pat[j]->id] = stms[i];
}

/* One element-wise map over reshapes in b rewritten as a map nest, if any
 * qualifies, a SOAC reads it, and it may move down to its first reshape. */
static bool try_reshape_nest(Fuse *F, Body *b) {
    for (int pi = 0; pi < b->nstms; pi++) {
        if (b->stms[pi]->e->kind != IE_SCREMA || !elementwise_over_reshapes(F, b->stms[pi])) continue;
        int ci = reshape_consumers(F, b, pi);
        if (ci >= 0 && reshape_feeds_soac(F, b, b->stms[pi], ci) && may_move_down(F, b, pi, ci)) {
            reshape_into_nest(F, b, pi, ci);
            return true;
        }
    }
    return false;
}

/* ---- Flattened map nests ------------------------------------------------------------ */

/* The inner map of P when P is a two-level nest whose flattened result is
 * worth computing element by element: P = map (\ps -> stms; map g as) xs
 * returns the inner map's one scalar-element result, the other statements
 * of its lambda are cheap and bind scalars (recomputed for each inner
 * element), the inner width and arrays are not bound inside the lambda,
 * and neither lambda asserts, nor a function those statements call.
 * Else NULL. */
static Stm *flat_nest_inner(const Stm *p) {
    const Screma *s = &p->e->screma;
    if (s->nscans || s->nreds || p->npat != 1 || s->map->nret != 1 || ir_lambda_has_assert(s->map)) return NULL;
    Body *ob = s->map->body;
    if (ob->nstms == 0) return NULL;
    Stm *in = ob->stms[ob->nstms - 1];
    if (in->e->kind != IE_SCREMA || in->npat != 1 || !ob->res[0].is_var || ob->res[0].v != in->pat[0]) return NULL;
    const Screma *is = &in->e->screma;
    if (is->nscans || is->nreds || is->map->nret != 1 || is->map->ret[0].kind != TK_PRIM) return NULL;
    for (int i = 0; i < ob->nstms - 1; i++) {
        const Stm *t = ob->stms[i];
        if (!ir_stm_cheap(t) || (t->e->kind == IE_APPLY && ir_body_has_assert(t->e->fn->body))) return NULL;
        for (int j = 0; j < t->npat; j++)
            if (t->pat[j]->type.kind != TK_PRIM) return NULL;
    }
    if (is->w.is_var && ir_lambda_binds(s->map, is->w.v)) return NULL;
    return in;
}

/* The index of the one statement of b that uses P's output (stms[pi]), when
 * it is a reshape of it to one dimension whose result a SOAC reads and P
 * may move down to it; else -1. */
static int flat_nest_reshape(Fuse *F, Body *b, int pi) {
    Stm *p = b->stms[pi];
    count_outside_uses(F, b, pi, -1);
    if (F->cnt[p->pat[0]->id] != 1) return -1;
    for (int ci = pi + 1; ci < b->nstms; ci++) {
        if (reshaped_output(p, b->stms[ci]) != 0) continue;
        if (b->stms[ci]->e->nshape != 1 || !reshape_feeds_soac(F, b, p, ci) || !may_move_down(F, b, pi, ci)) return -1;
        return ci;
    }
    return -1;
}

/* Rewrites the nest P (stms[pi]), whose inner map is in and whose result
 * only reshape R (stms[ci]) flattens, into one map over the flat positions
 * t < N of R's shape, at R: element (t / d, t mod d) of the nest is the
 * inner lambda's result for the outer element i = t / d (its parameters
 * bound to xs[i], the outer statements run again for each t) and the
 * inner element j = t mod d (its parameters bound to as[j], or to
 * start + j * step for an i64 iota). The flat map then fuses with R's
 * consumer like any map, and the nest's result is never stored. */
static void flatten_nest(Fuse *F, Body *b, int pi, int ci, Stm *in) {
    Arena *a = F->p->arena;
    Stm *p = b->stms[pi], *r = b->stms[ci];
    const Screma *os = &p->e->screma, *is = &in->e->screma;
    Lambda *ol = os->map, *il = is->map;
    SubExp N = r->e->shape[0];
    Stm *iota = ir_iota_stm(F->p, "flat", N, r->loc);
    Var *flat = iota->pat[0];
    StmVec out = {0};
    Var *t = ir_var(F->p, "t", type_prim(PT_I64));
    SubExp i, j;
    ir_emit_unflatten(F->p, &out, se_var(t), is->w, &i, &j, p->loc);
    for (int k = 0; k < ol->nparams; k++) vec_push(&out, ir_index_stm(a, ol->params[k], os->arrs[k], i, p->loc));
    for (int k = 0; k < ol->body->nstms - 1; k++) vec_push(&out, ol->body->stms[k]);
    for (int k = 0; k < il->nparams; k++) {
        Stm *d = is->arrs[k]->id < F->nvars ? F->def[is->arrs[k]->id] : NULL;
        if (d && d->e->kind == IE_IOTA && d->e->t == PT_I64) {
            SubExp x = ir_emit_op2(F->p, &out, OP_MUL, PT_I64, j, d->e->step, "x", in->loc);
            x = ir_emit_op2(F->p, &out, OP_ADD, PT_I64, d->e->start, x, "x", in->loc);
            vec_push(&out, ir_copy_stm(a, il->params[k], x, in->loc));
        } else {
            vec_push(&out, ir_index_stm(a, il->params[k], is->arrs[k], j, in->loc));
        }
    }
    for (int k = 0; k < il->body->nstms; k++) vec_push(&out, il->body->stms[k]);
    Lambda *l = NEW(a, Lambda);
    l->nparams = 1;
    l->params = NEW(a, Var *);
    l->params[0] = t;
    l->nret = 1;
    l->ret = NEW(a, Type);
    l->ret[0] = il->ret[0];
    l->body = NEW(a, Body);
    l->body->nstms = out.len;
    l->body->stms = vec_to_arena(a, &out);
    l->body->nres = 1;
    l->body->res = NEW(a, SubExp);
    l->body->res[0] = il->body->res[0];
    vec_free(&out);
    IrExp *e = NEW(a, IrExp);
    e->kind = IE_SCREMA;
    Var **arrs = NEW(a, Var *);
    arrs[0] = flat;
    e->screma = (Screma){.w = N, .arrs = arrs, .narrs = 1, .map = l};
    Stm *m = ir_stm1(a, r->pat[0], e, p->loc);
    Stm **stms = NEW_ARRAY(a, Stm *, b->nstms + 1);
    int n = 0;
    for (int k = 0; k < b->nstms; k++) {
        if (k == ci) stms[n++] = iota, stms[n++] = m;
        else if (k != pi) stms[n++] = b->stms[k];
    }
    b->stms = stms;
    b->nstms = n;
    fuse_grow(F);
    F->def[flat->id] = iota;
    F->def[r->pat[0]->id] = m;
}

/* One two-level map nest in b flattened into the SOAC that reads its
 * flattened result, if any qualifies. */
static bool try_flatten_nest(Fuse *F, Body *b) {
    for (int pi = 0; pi < b->nstms; pi++) {
        Stm *in = b->stms[pi]->e->kind == IE_SCREMA ? flat_nest_inner(b->stms[pi]) : NULL;
        if (!in) continue;
        int ci = flat_nest_reshape(F, b, pi);
        if (ci >= 0) {
            flatten_nest(F, b, pi, ci, in);
            return true;
        }
    }
    return false;
}

/* Fuses the independent Scremas stms[ai] and stms[bi] if legal. */
static bool try_horizontal_pair(Fuse *F, Body *b, int ai, int bi) {
    Stm *x = b->stms[ai], *y = b->stms[bi];
    fuse_new_set(F);
    mark_pats(F, x);
    if (stm_mentions_marked(F, y)) return false;
    bool between = false;
    for (int i = ai + 1; i < bi && !between; i++) between = stm_mentions_marked(F, b->stms[i]);
    int at = placement(F, b, ai, bi, between);
    if (at < 0 || !same_width(F, x->e->screma.w, y->e->screma.w, at)) return false;
    SubExp w = at == bi ? y->e->screma.w : x->e->screma.w;
    replace_pair(F, b, ai, bi, at, fuse_into_screma(F, x, y, NULL, w));
    return true;
}

/* One horizontal fusion in b, if any is possible. */
static bool try_horizontal(Fuse *F, Body *b) {
    for (int bi = 1; bi < b->nstms; bi++) {
        if (b->stms[bi]->e->kind != IE_SCREMA) continue;
        for (int ai = bi - 1; ai >= 0; ai--)
            if (b->stms[ai]->e->kind == IE_SCREMA && try_horizontal_pair(F, b, ai, bi)) return true;
    }
    return false;
}

/* ---- Traversal ------------------------------------------------------------------------ */

static void fuse_body(Fuse *F, Body *b);

static void fuse_lambda(Fuse *F, Lambda *l) { fuse_body(F, l->body); }

static void fuse_ops(Fuse *F, SegOp *ops, int n) {
    for (int i = 0; i < n; i++) fuse_lambda(F, ops[i].op);
}

/* Fuses inside the bodies nested in statement s, operators included (an
 * operator may map and reduce small arrays: poseidon's field arithmetic). */
static void fuse_nested(Fuse *F, Stm *s) {
    IrExp *e = s->e;
    switch (e->kind) {
    case IE_IF: fuse_body(F, e->tbody), fuse_body(F, e->fbody); break;
    case IE_LOOP: fuse_body(F, e->loop.body); break;
    case IE_SCREMA:
        fuse_lambda(F, e->screma.map);
        fuse_ops(F, e->screma.scans, e->screma.nscans);
        fuse_ops(F, e->screma.reds, e->screma.nreds);
        break;
    case IE_SCATTER: fuse_lambda(F, e->scatter.lam); break;
    case IE_HIST: fuse_lambda(F, e->hist.lam), fuse_ops(F, &e->hist.op, 1); break;
    default: break;
    }
}

/* Fuses the nested bodies of b (with the equalities asserted before each
 * statement in scope), then b itself to a fixed point. */
static void fuse_body(Fuse *F, Body *b) {
    int base = F->eqs.len;
    for (int i = 0; i < b->nstms; i++) {
        if (i > 0) push_body_eqs(F, b, i - 1, i, true);
        fuse_nested(F, b->stms[i]);
    }
    F->eqs.len = base;
    for (bool changed = true; changed;) {
        push_body_eqs(F, b, 0, b->nstms, false);
        changed = try_flatten_nest(F, b) || try_vertical(F, b) || try_reshape_nest(F, b) || try_horizontal(F, b);
        F->changed |= changed;
        F->eqs.len = base;
    }
}

/* Records the defining statement of every variable bound in b (deeply). */
static void collect_defs(Fuse *F, Body *b);

static void collect_lambda_defs(Fuse *F, Lambda *l) { collect_defs(F, l->body); }

static void collect_defs(Fuse *F, Body *b) {
    for (int i = 0; i < b->nstms; i++) {
        Stm *s = b->stms[i];
        for (int j = 0; j < s->npat; j++)
            if (s->pat[j]->id < F->nvars) F->def[s->pat[j]->id] = s;
        IrExp *e = s->e;
        switch (e->kind) {
        case IE_IF: collect_defs(F, e->tbody), collect_defs(F, e->fbody); break;
        case IE_LOOP: collect_defs(F, e->loop.body); break;
        case IE_SCREMA:
            collect_lambda_defs(F, e->screma.map);
            for (int j = 0; j < e->screma.nscans; j++) collect_lambda_defs(F, e->screma.scans[j].op);
            for (int j = 0; j < e->screma.nreds; j++) collect_lambda_defs(F, e->screma.reds[j].op);
            break;
        case IE_SCATTER: collect_lambda_defs(F, e->scatter.lam); break;
        case IE_HIST: collect_lambda_defs(F, e->hist.lam), collect_lambda_defs(F, e->hist.op.op); break;
        default: break;
        }
    }
}

/* One round of fusion over every function; whether anything fused. */
static bool fuse_round(Prog *p) {
    Fuse F = {0};
    F.p = p;
    F.nvars = p->next_var_id + 1;
    F.def = calloc((size_t)F.nvars, sizeof *F.def);
    F.mark = calloc((size_t)F.nvars, sizeof *F.mark);
    F.rmark = calloc((size_t)F.nvars, sizeof *F.rmark);
    F.cnt = calloc((size_t)F.nvars, sizeof *F.cnt);
    if (!F.def || !F.mark || !F.rmark || !F.cnt) ICE("pass_fuse: out of memory");
    for (int i = 0; i < p->nfuns; i++) {
        memset(F.def, 0, sizeof *F.def * (size_t)F.nvars);
        collect_defs(&F, p->funs[i]->body);
        fuse_body(&F, p->funs[i]->body);
    }
    free(F.def), free(F.mark), free(F.rmark), free(F.cnt);
    vec_free(&F.eqs);
    return F.changed;
}

/* Fusion and simplification in turn while fusion changes something: a
 * fused lambda binds the consumer's parameters to the producer's results
 * (`let p = r`), and only once simplification has removed those copies
 * can the SOACs inside it fuse (a map inside a fused map into the
 * reduction that reads it). */
void pass_fuse(Prog *p) {
    for (int round = 0; round < FUSE_ROUNDS && fuse_round(p); round++) pass_simplify(p);
}
