/* Map distribution, STAGE_SOACS -> STAGE_SOACS, for the GPU pipeline only:
 * the loop distribution step of flattening (Blelloch's flattening as
 * Futhark's kernel extraction does it; see
 * reference/seeds-003-004-flattening-velociraptor.md). A host-level map
 * whose body runs several parallel stages one after another, such as a
 * row softmax (a max reduction, an exp map fused into a sum reduction, a
 * division map), would otherwise run each row's stages sequentially in
 * one work-item. It becomes one map per stage, each a perfect nest that
 * kernel extraction turns into a segmented operation (SegRed, SegScan or
 * a SegMap over the whole nest):
 *
 *   map (\x -> let a = soac1 x; let b = soac2 x a in soac3 b) xs
 *   => let as = map (\x -> soac1 x) xs
 *      let bs = map (\x a -> soac2 x a) xs as
 *      in map (\b -> soac3 b) bs
 *
 * A stage is a Screma of the body whose width is the same for every
 * element of the host-level nest (bound outside it), with the statements
 * before it since the previous stage (they run in each work-item of that
 * stage); statements after the last stage join the last. A value a stage binds and a later stage (or the
 * map's result) uses is expanded: the stage's map returns it, giving an
 * array with one row per element, and the later stage takes that array as
 * an input. The lambda's parameters are inputs of every stage that uses
 * them, so each stage reads the rows it needs itself.
 *
 * Nests: when a map's body is one map-only Screma (with scalar code or
 * other statements around it), that inner map is distributed first, in
 * place; its stages then are the outer map's stages, which is therefore
 * distributed too, so a map of maps of several stages becomes perfect
 * nests of the stages.
 *
 * When it is done: the body has at least two stages (one, when the map's
 * results are reduced: the stage would otherwise run a whole row in
 * each work-item of a flat reduction, as a matrix-vector product fused
 * into a sum of squares would), every stage is a
 * map, or scans or reductions (not both) of scalars, and the code between
 * them is cheap scalar code (no loops, ifs or other SOACs), so that a
 * segmented operation runs each stage in parallel over each row (a stage
 * that would still run a row in one work-item keeps the map's
 * parallelism where it was, and its arrays would stay private to a
 * work-item instead of going through memory),
 * and at least one stage reads a row that varies with the element (a
 * parameter of the lambda or an array the body computes; a map whose
 * stages all read the same arrays, as an n-body step does, gains no
 * parallelism from segmented operations); or an inner map was
 * distributed. It is not done when an expanded value's type, or the type
 * of anything in a stage, has a size bound in another stage or by the
 * lambda (irregular rows); when a stage consumes (updates in place) a
 * value it does not bind itself; when a result of the map is not bound
 * by its body; or when a stage would read no array. The price is memory:
 * expanded values are materialised (one row per element), and each stage
 * reads its inputs again; segmented operations still choose at run time
 * to run short segments in one work-item each.
 *
 * Versions (incremental flattening, seed 002 ch. 7): a host-level map
 * that is distributed keeps the map as written as a second version, and
 * an if on a threshold (IE_THRESHOLD) chooses at run time: the map as it
 * was when its parallelism reaches the threshold, else the distributed
 * stages. A host-level map whose body is a loop over parallel stages is
 * interchanged with the loop as its second version (dist_interchange),
 * whose map is then distributed in turn under the first threshold's false
 * branch: the thresholds form trees (Threshold.parent).
 *
 * The C backend runs no kernels and does not distribute (pipeline.c). */
#include "passes.h"

#include <string.h>

/* The default threshold of a distributed map's outer version: with at
 * least this many elements (work-items) it runs the map as it was, each
 * element's stages sequentially in one work-item, else the distributed
 * stages. About the work-items a large GPU keeps resident (an H100: 132
 * compute units of 2048), beyond which the stages' extra passes over
 * memory cost more than the parallelism inside each element gains: row
 * softmax (bench/RESULTS.md) is faster distributed at 65,536 rows of 256
 * and in one work-item per row at 2^20 rows of 16. */
#define DIST_OUTER_THRESHOLD (1 << 18)

/* The default threshold of an intra-group version's work-group size: a
 * group smaller than a warp (32 work-items on NVIDIA's devices) leaves
 * lanes idle, where the distributed version keeps them busy. */
#define DIST_INTRA_THRESHOLD 32

typedef struct Dist {
    Prog *p;
    Arena *a;
    char *nest;  /* by Var id: bound inside the host-level statement (malloc'd) */
    int nnest;   /* entries of nest; later Vars are new, bound inside */
    bool changed;
    const char *fun; /* the entry point being distributed */
    int nthresholds; /* thresholds made so far (they are numbered) */
    const Threshold *parent; /* the threshold whose branch is being distributed, or NULL */
    bool branch;             /* which branch of parent */
} Dist;

/* One map's body, split into stages (per-call scratch, by Var id). */
typedef struct Split {
    Dist *D;
    const Lambda *lam;
    int nvars;      /* entries of the arrays below */
    int *binder;    /* 1 + the stage of a top-level statement binding the Var; 0: none */
    char *param;    /* a parameter of lam */
    char *needed;   /* used by a later stage or a result of the map */
    char *has_input; /* by stage: it uses a parameter or another stage's value */
    Var **repl;     /* the current stage's parameter for a Var of another stage */
    int cur;        /* the stage being walked */
    bool bad;
} Split;

static bool in_nest(const Dist *D, const Var *v) { return v->id >= D->nnest || D->nest[v->id]; }

static bool invariant(const Dist *D, SubExp se) { return !se.is_var || !in_nest(D, se.v); }

static bool is_map(const IrExp *e) {
    return e->kind == IE_SCREMA && e->screma.nscans == 0 && e->screma.nreds == 0;
}

/* The values a Screma reduces (its first results). */
static int red_values(const Screma *sc) {
    int nv = 0;
    for (int j = 0; j < sc->nreds; j++) nv += sc->reds[j].k;
    return nv;
}

/* Whether statement s starts a stage: a Screma of a width that is the same
 * for every element of the host-level nest. */
static bool is_stage(const Dist *D, const Stm *s) {
    return s->e->kind == IE_SCREMA && invariant(D, s->e->screma.w);
}

/* Whether a stage's Screma is one that a segmented operation runs in
 * parallel over each row: a map, or scans or reductions (not both) of
 * scalars. A stage that must run sequentially per element anyway (a
 * scan fused with a reduction, array operators) would keep the map's
 * parallelism where it was and only add memory traffic. */
static bool segmentable(const Stm *s) {
    const Screma *sc = &s->e->screma;
    if (sc->nscans && sc->nreds) return false;
    return ir_segops_scalar(sc->scans, sc->nscans) && ir_segops_scalar(sc->reds, sc->nreds);
}

/* ---- Marking what the host-level statement binds --------------------------------- */

static void nest_bind(IrWalk *w, Var *v) {
    Dist *D = w->ctx;
    D->nest[v->id] = 1;
}


/* ---- Checks --------------------------------------------------------------------- */

/* Whether v is a parameter of the lambda, or bound at the body's top
 * level by a stage other than st. */
static bool of_other_stage(const Split *S, const Var *v, int st) {
    if (v->id >= S->nvars) return false;
    if (S->param[v->id]) return true;
    return S->binder[v->id] && S->binder[v->id] - 1 != st;
}

/* Every Var bound inside stage statements: its type may not have a size of
 * another stage or a parameter (rows of varying shape). */
static void check_bind(IrWalk *w, Var *v) {
    Split *S = w->ctx;
    for (int d = 0; v->type.kind == TK_ARRAY && d < v->type.rank; d++) {
        SubExp sz = v->type.shape[d];
        if (sz.is_var && of_other_stage(S, sz.v, S->cur)) S->bad = true;
    }
}

static void check_consumed(void *ctx, const Var *v) {
    Split *S = ctx;
    if (of_other_stage(S, v, S->cur)) S->bad = true;
}

static void check_stm(IrWalk *w, Stm *s) { ir_each_consumed(s, check_consumed, w->ctx); }

/* Marks the values a stage uses from another (earlier) stage as needed. */
static void need_use(void *ctx, SubExp *se, Var **v, IrUseKind k) {
    (void)k;
    Split *S = ctx;
    Var *x = se ? se->v : *v;
    if (!of_other_stage(S, x, S->cur)) return;
    S->has_input[S->cur] = 1;
    if (!S->param[x->id]) S->needed[x->id] = 1;
}

/* ---- Building the stages ---------------------------------------------------------- */

/* The per-stage inputs being built: parameters and their arrays. */
typedef struct Inputs {
    VEC(Var *) params;
    VEC(Var *) arrs;
    Var **out; /* by Var id: the expanded array of a needed Var (its stage's output) */
} Inputs;

typedef struct SubstCtx {
    Split *S;
    Inputs *in;
    const Screma *outer;
} SubstCtx;

/* Replaces a use of a parameter or of another stage's value by the
 * current stage's parameter for it, adding that parameter on first use. */
static void subst_use(void *ctx, SubExp *se, Var **v, IrUseKind k) {
    (void)k;
    SubstCtx *c = ctx;
    Split *S = c->S;
    Var *x = se ? se->v : *v;
    if (!of_other_stage(S, x, S->cur)) return;
    if (!S->repl[x->id]) {
        Var *p = ir_var(S->D->p, x->name, x->type);
        S->repl[x->id] = p;
        vec_push(&c->in->params, p);
        if (S->param[x->id]) {
            for (int i = 0; i < S->lam->nparams; i++)
                if (S->lam->params[i] == x) vec_push(&c->in->arrs, c->outer->arrs[i]);
        } else {
            vec_push(&c->in->arrs, c->in->out[x->id]);
        }
    }
    if (se) se->v = S->repl[x->id];
    else *v = S->repl[x->id];
}

/* x's type with a leading dimension of w: its expanded array's type. */
static Type expand_type(Arena *a, Type t, SubExp w) {
    int r = t.kind == TK_ARRAY ? t.rank : 0;
    SubExp *shape = NEW_ARRAY(a, SubExp, r + 1);
    shape[0] = w;
    for (int d = 0; d < r; d++) shape[d + 1] = t.shape[d];
    return type_array(a, t.elem, r + 1, shape);
}

/* The map of stage st: statements [lo, hi) of s's body, with the
 * parameters and expanded values they use as inputs, returning the
 * needed values they bind (whose expanded arrays it binds: s's own
 * results where the value is one, else fresh arrays). */
static Stm *build_stage(Split *S, Stm *s, int st, int lo, int hi, Inputs *in) {
    Arena *a = S->D->a;
    const Screma *outer = &s->e->screma;
    Body *b = outer->map->body;
    in->params.len = in->arrs.len = 0;
    memset(S->repl, 0, sizeof(Var *) * (size_t)S->nvars);
    S->cur = st;
    SubstCtx c = {S, in, outer};
    for (int k = lo; k < hi; k++) ir_uses_stm(b->stms[k], subst_use, &c);
    VEC(Var *) pat = {0};
    VEC(SubExp) res = {0};
    VEC(Type) ret = {0};
    for (int k = lo; k < hi; k++)
        for (int j = 0; j < b->stms[k]->npat; j++) {
            Var *x = b->stms[k]->pat[j];
            if (!S->needed[x->id]) continue;
            Var *out = NULL;
            for (int r = red_values(outer); r < b->nres && !out; r++)
                if (b->res[r].v == x) out = s->pat[r];
            if (!out) out = ir_var(S->D->p, x->name, expand_type(a, x->type, outer->w));
            in->out[x->id] = out;
            vec_push(&pat, out);
            vec_push(&res, se_var(x));
            vec_push(&ret, x->type);
        }
    Lambda *l = NEW(a, Lambda);
    l->nparams = in->params.len;
    l->params = vec_to_arena(a, &in->params);
    l->nret = ret.len;
    l->ret = ret.len ? vec_to_arena(a, &ret) : NEW_ARRAY(a, Type, 1);
    l->body = NEW(a, Body);
    l->body->nstms = hi - lo;
    l->body->stms = NEW_ARRAY(a, Stm *, hi - lo + 1);
    COPY_ARRAY(l->body->stms, b->stms + lo, hi - lo);
    l->body->nres = res.len;
    l->body->res = res.len ? vec_to_arena(a, &res) : NEW_ARRAY(a, SubExp, 1);
    IrExp *e = NEW(a, IrExp);
    e->kind = IE_SCREMA;
    e->screma.w = outer->w;
    e->screma.narrs = in->arrs.len;
    e->screma.arrs = vec_to_arena(a, &in->arrs);
    e->screma.map = l;
    Stm *r = ir_stm(a, pat.len ? vec_to_arena(a, &pat) : NEW_ARRAY(a, Var *, 1), pat.len, e, s->loc);
    vec_free(&pat);
    vec_free(&res);
    vec_free(&ret);
    return r;
}

/* ---- Distributing one map ----------------------------------------------------------- */

/* Whether a stage statement reads a row that varies with the element: a
 * parameter of lam, or an array the body binds. */
static bool reads_row(const Split *S, const Stm *st) {
    const Screma *sc = &st->e->screma;
    for (int i = 0; i < sc->narrs; i++) {
        const Var *v = sc->arrs[i];
        if (v->id < S->nvars && (S->param[v->id] || S->binder[v->id])) return true;
    }
    return false;
}

/* Checks the split of s's body into nst stages (stage_at[k]: the stage
 * of statement k) and marks the needed values. */
static bool split_ok(Split *S, const Stm *s, const int *stage_at, int nst) {
    Body *b = s->e->screma.map->body;
    int nv = red_values(&s->e->screma);
    for (int r = 0; r < b->nres; r++) {
        Var *x = b->res[r].is_var ? b->res[r].v : NULL;
        bool bound = x && x->id < S->nvars && S->binder[x->id];
        if (bound) S->needed[x->id] = 1;
        else if (r >= nv) return false;
    }
    IrWalk w = {check_bind, NULL, check_stm, S};
    for (int k = 0; k < b->nstms && !S->bad; k++) {
        S->cur = stage_at[k];
        ir_walk_stm(&w, b->stms[k]);
        ir_uses_stm(b->stms[k], need_use, S);
    }
    for (int k = 0; k < b->nstms && !S->bad; k++)
        for (int j = 0; j < b->stms[k]->npat; j++) {
            const Var *x = b->stms[k]->pat[j];
            if (!S->needed[x->id]) continue;
            for (int d = 0; x->type.kind == TK_ARRAY && d < x->type.rank; d++)
                if (!invariant(S->D, x->type.shape[d])) S->bad = true;
        }
    for (int st = 0; st < nst; st++)
        if (!S->has_input[st]) S->bad = true;
    return !S->bad;
}

static bool dist_map(Dist *D, Body *host, int at, bool version);

/* The index of the one map-only Screma among b's statements when every
 * other statement is not a Screma, else -1. */
static int sole_inner_map(const Body *b) {
    int found = -1;
    for (int k = 0; k < b->nstms; k++) {
        if (b->stms[k]->e->kind != IE_SCREMA) continue;
        if (found >= 0 || !is_map(b->stms[k]->e)) return -1;
        found = k;
    }
    return found;
}

/* The reduction of s after its stages: a Screma of s's operators over the
 * expanded values the stages' maps returned for them, binding s's
 * reduction results. A value the body does not bind is read from s's
 * input (a parameter) or is the same for every element (a constant, a
 * variable bound outside). */
static Stm *final_reduction(Dist *D, const Stm *s, const Split *S, const Inputs *in, int nv) {
    const Screma *sc = &s->e->screma;
    const Body *b = sc->map->body;
    Lambda *l = NEW(D->a, Lambda);
    l->nret = nv;
    l->params = NEW_ARRAY(D->a, Var *, nv + 1);
    l->ret = NEW_ARRAY(D->a, Type, nv);
    l->body = NEW(D->a, Body);
    l->body->nres = nv;
    l->body->res = NEW_ARRAY(D->a, SubExp, nv);
    IrExp *e = NEW(D->a, IrExp);
    e->kind = IE_SCREMA;
    e->screma = *sc;
    e->screma.narrs = 0;
    e->screma.arrs = NEW_ARRAY(D->a, Var *, nv + 1);
    e->screma.map = l;
    for (int r = 0; r < nv; r++) {
        SubExp x = b->res[r];
        l->ret[r] = subexp_type(x);
        l->body->res[r] = x;
        Var *arr = NULL;
        if (x.is_var && x.v->id < S->nvars && S->binder[x.v->id]) arr = in->out[x.v->id];
        for (int i = 0; x.is_var && i < sc->map->nparams; i++)
            if (sc->map->params[i] == x.v) arr = sc->arrs[i];
        if (!arr) continue;
        Var *p = ir_var(D->p, x.v->name, x.v->type);
        l->params[l->nparams++] = p;
        l->body->res[r] = se_var(p);
        e->screma.arrs[e->screma.narrs++] = arr;
    }
    if (!e->screma.narrs && sc->narrs) { /* it still runs over s's elements */
        l->params[l->nparams++] = ir_var(D->p, sc->map->params[0]->name, sc->map->params[0]->type);
        e->screma.arrs[e->screma.narrs++] = sc->arrs[0];
    }
    return ir_stm(D->a, s->pat, nv, e, s->loc);
}

/* Whether statement k of b is its last but for transpositions (of its
 * results: kernel extraction's perfect nests). */
static bool last_but_rearranges(const Body *b, int k) {
    for (int i = k + 1; i < b->nstms; i++)
        if (b->stms[i]->e->kind != IE_REARRANGE) return false;
    return true;
}

/* The degree of parallelism of s run with one work-item per element of
 * its nest of maps (the width of s, times the widths of the maps nested
 * alone at the end of its body that are the same for every element), as
 * an i64 SubExp whose statements are appended to out. */
static SubExp outer_parallelism(Dist *D, const Stm *s, StmVec *out) {
    SubExp p = s->e->screma.w;
    for (const Body *b = s->e->screma.map->body;;) {
        int k = sole_inner_map(b);
        if (k < 0 || !last_but_rearranges(b, k) || !invariant(D, b->stms[k]->e->screma.w)) return p;
        p = ir_emit_op2(D->p, out, OP_MUL, PT_I64, p, b->stms[k]->e->screma.w, "outer_par", s->loc);
        b = b->stms[k]->e->screma.map->body;
    }
}

/* Replaces statement at of host by the statements with (freed). */
static void splice(Dist *D, Body *host, int at, StmVec *with) {
    Stm **stms = NEW_ARRAY(D->a, Stm *, host->nstms + with->len);
    COPY_ARRAY(stms, host->stms, at);
    COPY_ARRAY(stms + at, with->items, with->len);
    COPY_ARRAY(stms + at + with->len, host->stms + at + 1, host->nstms - at - 1);
    host->stms = stms;
    host->nstms += with->len - 1;
    vec_free(with);
    D->changed = true;
}

/* A threshold named NAME_K (K: the function's count) under parent's false
 * branch, or without parent under the threshold being distributed, if
 * any, comparing p (an intra-group version's with fits_group), and the
 * statement binding it. */
static Stm *threshold(Dist *D, const char *name, int64_t dflt, SubExp p, const Threshold *parent, bool fits_group,
                      SrcLoc loc) {
    Threshold *t = ir_threshold(D->a, D->fun, name, D->nthresholds++, dflt, parent ? parent : D->parent,
                                parent ? false : D->branch);
    t->fits_group = fits_group;
    IrExp *ce = NEW(D->a, IrExp);
    ce->kind = IE_THRESHOLD;
    ce->thr = t;
    ce->nargs = 1;
    ce->args = NEW_ARRAY(D->a, SubExp, 1);
    ce->args[0] = p;
    return ir_stm1(D->a, ir_var(D->p, name, type_prim(PT_BOOL)), ce, loc);
}

/* A body of the n statements stms whose results are the n Vars res. */
static Body *body_of(Dist *D, Stm *const *stms, int n, Var *const *res, int nres) {
    Body *b = NEW(D->a, Body);
    b->nstms = n;
    b->stms = NEW_ARRAY(D->a, Stm *, n + 1);
    COPY_ARRAY(b->stms, stms, n);
    b->nres = nres;
    b->res = NEW_ARRAY(D->a, SubExp, nres + 1);
    for (int i = 0; i < nres; i++) b->res[i] = se_var(res[i]);
    return b;
}

/* let pat = if c (the Var a threshold statement binds) then t else f */
static Stm *version_if(Dist *D, const Stm *c, Body *t, Body *f, Var **pat, int npat, SrcLoc loc) {
    IrExp *e = NEW(D->a, IrExp);
    e->kind = IE_IF;
    e->cond = se_var(c->pat[0]);
    e->nret = npat;
    e->ret = NEW_ARRAY(D->a, Type, npat + 1);
    for (int i = 0; i < npat; i++) e->ret[i] = pat[i]->type;
    e->tbody = t;
    e->fbody = f;
    return ir_stm(D->a, pat, npat, e, loc);
}

/* The work-group size of an intra-group version: the width of the widest
 * parallel operation at the group level (ir_each_group_soac) of a map's
 * body, each a Screma of scalar operators and of a width that is the same
 * for every element, which builds no array inside (its work-items would
 * each need memory of their own: kernels.c takes no such SegGroup). */
typedef struct GroupWidth {
    Dist *D;
    StmVec *out; /* where the statements computing it go */
    SubExp w;   /* with n > 0 */
    SrcLoc loc;
    int n;      /* the operations seen */
} GroupWidth;

/* Whether a statement inside a SOAC builds an array (not a view): each
 * work-item would need memory of its own for it. */
typedef struct Builds {
    const Stm *soac;
    bool found;
} Builds;

static void builds_stm(IrWalk *w, Stm *s) {
    Builds *b = w->ctx;
    IrExpKind k = s->e->kind;
    if (s == b->soac || k == IE_INDEX || k == IE_FLAT_INDEX || k == IE_RESHAPE || k == IE_REARRANGE) return;
    for (int i = 0; i < s->npat; i++) b->found |= s->pat[i]->type.kind == TK_ARRAY;
}

static bool group_width(void *ctx, const Stm *s) {
    GroupWidth *g = ctx;
    const Screma *sc = &s->e->screma;
    if (s->e->kind != IE_SCREMA || !invariant(g->D, sc->w) || !ir_segops_scalar(sc->scans, sc->nscans) ||
        !ir_segops_scalar(sc->reds, sc->nreds))
        return false;
    Builds b = {s, false};
    IrWalk w = {NULL, NULL, builds_stm, &b};
    ir_walk_stm(&w, (Stm *)s);
    if (b.found) return false;
    g->w = g->n++ ? ir_emit_op2(g->D->p, g->out, OP_MAX, PT_I64, g->w, sc->w, "intra_par", g->loc) : sc->w;
    return true;
}

/* Host statement s becomes up to three versions (incremental flattening,
 * seed 002 ch. 7): outer, the map run as it was (one work-item per
 * element of its nest, the stages sequential in it); intra, a copy of it
 * whose elements each get a work-group that runs the element's parallel
 * operations (when their widths are the same for every element); and
 * dist, the statements of its distributed stages (binding dist_pat
 * instead of s's pattern). Thresholds choose at run time, comparing the
 * outer version's parallelism P and the intra-group version's work-group
 * size G:
 *   let c = threshold main.suff_outer_par_K (P)
 *   let pat = if c then outer
 *             else let ci = threshold main.suff_intra_par_K+1 (G)
 *                  in if ci then intra else dist
 * where ci also requires G to fit the device's work-groups. A version the
 * program rules out (IrExp.pin: #[incremental_flattening(no_outer)] or
 * (no_intra)) is left out with its threshold; (only_intra), where no
 * intra-group version can be made (only_intra above), leaves the
 * distributed version alone. Returns the statements that
 * replace s; *dist_parent gets the threshold whose false branch dist is
 * (NULL: none), *dist_b the body of dist. */
static StmVec versions(Dist *D, Stm *s, Stm *outer, Var **pat, Var **dist_pat, const StmVec *dist,
                       const Threshold **dist_parent, Body **dist_b) {
    StmVec r = {0}, in = {0};
    Body *fb = *dist_b = body_of(D, dist->items, dist->len, dist_pat, s->npat);
    *dist_parent = NULL;
    Stm *c = NULL;
    GroupWidth g = {D, &in, {0}, s->loc, 0};
    bool intra_ok = !(s->e->pin & PIN_NO_INTRA) && is_map(outer->e) &&
                    ir_each_group_soac(outer->e->screma.map->body, group_width, &g) && g.n;
    if (!(s->e->pin & (PIN_NO_OUTER | PIN_ONLY_INTRA))) {
        c = threshold(D, "suff_outer_par", DIST_OUTER_THRESHOLD, outer_parallelism(D, outer, &r), NULL, false, s->loc);
        vec_push(&r, c);
        *dist_parent = c->e->thr;
    }
    if (intra_ok) {
        Stm *intra = ir_clone_stm(D->p, outer);
        intra->e->intra = true;
        Stm *ci = threshold(D, "suff_intra_par", DIST_INTRA_THRESHOLD, g.w, c ? c->e->thr : NULL, true, s->loc);
        vec_push(&in, ci);
        Var **ipat = pat;
        if (c) {
            ipat = NEW_ARRAY(D->a, Var *, s->npat + 1);
            for (int i = 0; i < s->npat; i++) ipat[i] = ir_var(D->p, pat[i]->name, pat[i]->type);
        }
        vec_push(&in, version_if(D, ci, body_of(D, &intra, 1, intra->pat, s->npat), fb, ipat, s->npat, s->loc));
        fb = body_of(D, in.items, in.len, ipat, s->npat);
        *dist_parent = ci->e->thr;
    } else {
        in.len = 0; /* the width's statements, if any: unused */
    }
    if (c) {
        vec_push(&r, version_if(D, c, body_of(D, &outer, 1, outer->pat, s->npat), fb, pat, s->npat, s->loc));
    } else {
        /* no threshold above: the statements of the one branch left */
        for (int i = 0; i < fb->nstms; i++) vec_push(&r, fb->stms[i]);
        for (int i = 0; fb == *dist_b && i < s->npat; i++) vec_push(&r, ir_copy_stm(D->a, pat[i], se_var(dist_pat[i]), s->loc));
    }
    vec_free(&in);
    return r;
}

/* Splits s (statement at of body host, a map, or a map-reduce whose map
 * results are reduced after its stages) into its stages' maps when
 * distribution applies; returns whether it did. With version (s is a
 * host-level statement), the map as it was stays as a second version
 * (versions above). */
static bool dist_map(Dist *D, Body *host, int at, bool version) {
    Stm *s = host->stms[at];
    if (s->e->kind != IE_SCREMA || s->e->screma.nscans) return false;
    int nv = red_values(&s->e->screma);
    Lambda *lam = s->e->screma.map;
    Body *b = lam->body;
    int inner = sole_inner_map(b);
    /* The outer version is copied before anything changes s: before the
     * inner map is distributed, else once distribution is certain. */
    Stm *outer = version && inner >= 0 ? ir_clone_stm(D->p, s) : NULL;
    bool forced = inner >= 0 && dist_map(D, b, inner, false);
    int nst = 0, tail = -1;
    bool *stage = NEW_ARRAY(D->a, bool, b->nstms + 1);
    for (int k = 0; k < b->nstms; k++) nst += stage[k] = is_stage(D, b->stms[k]);
    /* A map whose one stage is an inner map followed by statements (a nest
     * that is not perfect: crystal's frames, then a pixel of each) splits
     * after that map: the statements after it are a stage of their own. */
    for (int k = 0; nst == 1 && !nv && k < b->nstms - 1; k++)
        if (stage[k]) tail = is_map(b->stms[k]->e) && !last_but_rearranges(b, k) ? k + 1 : -1;
    if (tail >= 0) nst = 2;
    if (nst < (nv ? 1 : 2)) return false;

    int n = D->p->next_var_id + 1;
    Split S = {.D = D,
               .lam = lam,
               .nvars = n,
               .binder = NEW_ARRAY(D->a, int, n),
               .param = NEW_ARRAY(D->a, char, n),
               .needed = NEW_ARRAY(D->a, char, n),
               .has_input = NEW_ARRAY(D->a, char, nst),
               .repl = NEW_ARRAY(D->a, Var *, n)};
    for (int i = 0; i < lam->nparams; i++) S.param[lam->params[i]->id] = 1;
    int *stage_at = NEW_ARRAY(D->a, int, b->nstms + 1);
    bool row = false;
    /* A statement joins the next stage (or the last). */
    for (int k = 0, before = 0; k < b->nstms; before += stage[k++]) {
        stage_at[k] = tail >= 0 ? k >= tail : before < nst ? before : nst - 1;
        for (int j = 0; j < b->stms[k]->npat; j++) S.binder[b->stms[k]->pat[j]->id] = stage_at[k] + 1;
    }
    bool all_segmentable = true;
    for (int k = 0; k < b->nstms; k++) {
        if (!stage[k]) {
            all_segmentable &= (tail >= 0 && k >= tail) || ir_stm_cheap(b->stms[k]);
            continue;
        }
        row |= reads_row(&S, b->stms[k]);
        all_segmentable &= segmentable(b->stms[k]);
    }
    if ((!forced && (!(row || tail >= 0) || !all_segmentable)) || !split_ok(&S, s, stage_at, nst)) return false;

    Var **pat = s->pat;
    if (version && !outer) outer = ir_clone_stm(D->p, s);
    if (version) {
        s->pat = NEW_ARRAY(D->a, Var *, s->npat + 1);
        for (int i = 0; i < s->npat; i++) s->pat[i] = ir_var(D->p, pat[i]->name, pat[i]->type);
    }
    Inputs in = {{0}, {0}, NEW_ARRAY(D->a, Var *, n)};
    StmVec out = {0};
    for (int st = 0, lo = 0; st < nst; st++) {
        int hi = lo;
        while (hi < b->nstms && stage_at[hi] == st) hi++;
        vec_push(&out, build_stage(&S, s, st, lo, hi, &in));
        lo = hi;
    }
    if (nv) vec_push(&out, final_reduction(D, s, &S, &in, nv));
    /* A value returned at several positions: the later ones copy the first. */
    for (int r = nv; r < b->nres; r++) {
        Var *first = in.out[b->res[r].v->id];
        if (first == s->pat[r]) continue;
        vec_push(&out, ir_copy_stm(D->a, s->pat[r], se_var(first), s->loc));
    }
    if (version) {
        const Threshold *parent;
        Body *db;
        StmVec v = versions(D, s, outer, pat, s->pat, &out, &parent, &db);
        vec_free(&out);
        out = v;
    }
    splice(D, host, at, &out);
    vec_free(&in.params);
    vec_free(&in.arrs);
    return true;
}

static void dist_body(Dist *D, Body *b);

/* Marks what host statement s binds (D->nest, grown to hold every Var
 * now). */
static void mark_nest(Dist *D, Stm *s) {
    if (D->nnest < D->p->next_var_id + 1) {
        int n = 2 * (D->p->next_var_id + 1);
        char *grown = realloc(D->nest, (size_t)n);
        if (!grown) ICE("pass_distribute: out of memory");
        D->nest = grown, D->nnest = n;
    }
    memset(D->nest, 0, (size_t)D->nnest);
    IrWalk w = {nest_bind, NULL, NULL, D};
    ir_walk_stm(&w, s);
}

/* The n Vars vs, and whether a statement consumes one of them. */
typedef struct Consumes {
    Var *const *vs;
    int n;
    bool found;
} Consumes;

static void consumes_one(void *ctx, const Var *v) {
    Consumes *c = ctx;
    for (int j = 0; j < c->n; j++) c->found |= c->vs[j] == v;
}

static void consumes_stm(IrWalk *w, Stm *s) { ir_each_consumed(s, consumes_one, w->ctx); }

/* Whether b, or a body nested in it, consumes one of the n Vars vs. */
static bool consumes_any(Body *b, Var *const *vs, int n) {
    Consumes c = {vs, n, false};
    IrWalk w = {NULL, NULL, consumes_stm, &c};
    ir_walk_body(&w, b);
    return c.found;
}

/* Map-loop interchange (the fully flattened version of seed 002 ch. 7):
 * a host-level map whose body is cheap scalar code and then a for-loop of
 * a bound that is the same for every element, whose results are the
 * map's, and whose body runs a parallel stage,
 *   map (\x -> let y = f x in loop a = x for i < n do g y a i) xs
 * becomes a host loop of maps over all elements,
 *   loop as = xs for i < n do map (\x a -> let y = f x in g y a i) xs as
 * so that each iteration's stages are segmented operations over every
 * element (distributed in turn), kept as a second version of the map
 * (versions above). A loop parameter's initial value must be a parameter
 * of the map (the loop then starts from the map's input) or the same for
 * every element (replicated); its type's sizes must be too; and the body
 * must not update a loop parameter in place. Returns whether it did. */
static bool dist_interchange(Dist *D, Body *host, int at) {
    Stm *s = host->stms[at];
    IrExp *e = s->e;
    if (e->kind != IE_SCREMA || e->screma.nscans || e->screma.nreds) return false;
    Lambda *lam = e->screma.map;
    Body *b = lam->body;
    if (!b->nstms) return false;
    Stm *ls = b->stms[b->nstms - 1];
    Loop *lp = &ls->e->loop;
    if (ls->e->kind != IE_LOOP || lp->kind != IR_LOOP_FOR || !invariant(D, lp->bound)) return false;
    for (int k = 0; k + 1 < b->nstms; k++)
        if (!ir_stm_cheap(b->stms[k])) return false;
    bool stage = false;
    for (int k = 0; k < lp->body->nstms; k++) stage |= is_stage(D, lp->body->stms[k]);
    if (!stage || consumes_any(lp->body, lp->params, lp->nparams)) return false;
    int *from = NEW_ARRAY(D->a, int, b->nres + 1); /* map result r is loop result from[r] */
    for (int r = 0; r < b->nres; r++) {
        from[r] = -1;
        for (int j = 0; b->res[r].is_var && j < ls->npat; j++)
            if (ls->pat[j] == b->res[r].v) from[r] = j;
        if (from[r] < 0) return false;
    }
    int *param_of = NEW_ARRAY(D->a, int, lp->nparams + 1); /* the map parameter an init is, or -1 */
    for (int j = 0; j < lp->nparams; j++) {
        Type t = lp->params[j]->type;
        for (int d = 0; t.kind == TK_ARRAY && d < t.rank; d++)
            if (!invariant(D, t.shape[d])) return false;
        param_of[j] = -1;
        for (int i = 0; lp->inits[j].is_var && i < lam->nparams; i++)
            if (lam->params[i] == lp->inits[j].v) param_of[j] = i;
        if (param_of[j] < 0 && !invariant(D, lp->inits[j])) return false;
    }
    Stm *outer = ir_clone_stm(D->p, s);
    Arena *a = D->a;
    SubExp w = e->screma.w;
    StmVec out = {0};
    /* The new loop's parameters and initial values. */
    Var **aparams = NEW_ARRAY(a, Var *, lp->nparams + 1), **rpat = NEW_ARRAY(a, Var *, lp->nparams + 1);
    SubExp *inits = NEW_ARRAY(a, SubExp, lp->nparams + 1);
    for (int j = 0; j < lp->nparams; j++) {
        Type t = expand_type(a, lp->params[j]->type, w);
        t.unique = lp->params[j]->type.unique;
        aparams[j] = ir_var(D->p, lp->params[j]->name, t);
        rpat[j] = ir_var(D->p, lp->params[j]->name, t);
        if (param_of[j] >= 0) {
            inits[j] = se_var(e->screma.arrs[param_of[j]]);
            continue;
        }
        IrExp *re = NEW(a, IrExp);
        re->kind = IE_REPLICATE;
        re->nshape = 1;
        re->shape = NEW_ARRAY(a, SubExp, 1);
        re->shape[0] = w;
        re->se = lp->inits[j];
        Var *rep = ir_var(D->p, lp->params[j]->name, t);
        vec_push(&out, ir_stm1(a, rep, re, s->loc));
        inits[j] = se_var(rep);
    }
    /* The map each iteration runs: the cheap code, then the loop's body. */
    Lambda *m = NEW(a, Lambda);
    m->nparams = lam->nparams + lp->nparams;
    m->params = NEW_ARRAY(a, Var *, m->nparams + 1);
    COPY_ARRAY(m->params, lam->params, lam->nparams);
    COPY_ARRAY(m->params + lam->nparams, lp->params, lp->nparams);
    for (int j = 0; j < lp->nparams; j++) lp->params[j]->type.unique = false;
    m->nret = lp->nparams;
    m->ret = NEW_ARRAY(a, Type, lp->nparams + 1);
    for (int j = 0; j < lp->nparams; j++) m->ret[j] = lp->params[j]->type;
    m->body = NEW(a, Body);
    m->body->nstms = b->nstms - 1 + lp->body->nstms;
    m->body->stms = NEW_ARRAY(a, Stm *, m->body->nstms + 1);
    COPY_ARRAY(m->body->stms, b->stms, b->nstms - 1);
    COPY_ARRAY(m->body->stms + b->nstms - 1, lp->body->stms, lp->body->nstms);
    m->body->res = lp->body->res;
    m->body->nres = lp->body->nres;
    IrExp *me = NEW(a, IrExp);
    me->kind = IE_SCREMA;
    me->screma.w = w;
    me->screma.narrs = e->screma.narrs + lp->nparams;
    me->screma.arrs = NEW_ARRAY(a, Var *, me->screma.narrs + 1);
    COPY_ARRAY(me->screma.arrs, e->screma.arrs, e->screma.narrs);
    COPY_ARRAY(me->screma.arrs + e->screma.narrs, aparams, lp->nparams);
    me->screma.map = m;
    Var **mpat = NEW_ARRAY(a, Var *, lp->nparams + 1);
    for (int j = 0; j < lp->nparams; j++) mpat[j] = ir_var(D->p, lp->params[j]->name, aparams[j]->type);
    Body *lb = NEW(a, Body);
    lb->nstms = 1;
    lb->stms = NEW_ARRAY(a, Stm *, 1);
    lb->stms[0] = ir_stm(a, mpat, lp->nparams, me, s->loc);
    lb->nres = lp->nparams;
    lb->res = NEW_ARRAY(a, SubExp, lp->nparams + 1);
    for (int j = 0; j < lp->nparams; j++) lb->res[j] = se_var(mpat[j]);
    IrExp *le = NEW(a, IrExp);
    le->kind = IE_LOOP;
    le->loop = (Loop){aparams, inits, lp->nparams, IR_LOOP_FOR, lp->i, lp->bound, NULL, lb};
    vec_push(&out, ir_stm(a, rpat, lp->nparams, le, s->loc));
    /* The map's results: its loop's. */
    Var **dpat = NEW_ARRAY(a, Var *, s->npat + 1);
    for (int r = 0; r < s->npat; r++) {
        dpat[r] = ir_var(D->p, s->pat[r]->name, s->pat[r]->type);
        vec_push(&out, ir_copy_stm(a, dpat[r], se_var(rpat[from[r]]), s->loc));
    }
    const Threshold *dist_parent;
    Body *db;
    StmVec v = versions(D, s, outer, s->pat, dpat, &out, &dist_parent, &db);
    vec_free(&out);
    const Threshold *saved = D->parent;
    bool saved_branch = D->branch;
    if (dist_parent) { /* the distributed branch's thresholds are under it */
        D->parent = dist_parent;
        D->branch = false;
    }
    dist_body(D, db);
    D->parent = saved, D->branch = saved_branch;
    splice(D, host, at, &v);
    return true;
}

/* A host-level map that is not distributed (its stages cannot be: a scan
 * fused with a reduction, array operations between them) whose element
 * has two or more parallel operations at the group level (one alone over
 * a row is a segmented operation already) gets an intra-group version
 * beside the map as written (versions above):
 *   let c = if threshold main.suff_outer_par_K (P) then false
 *           else threshold main.suff_intra_par_K+1 (G)
 *   let pat = if c then intra else outer
 * Returns whether it did. */
static bool dist_intra(Dist *D, Body *host, int at) {
    Stm *s = host->stms[at];
    if (!is_map(s->e) || (s->e->pin & PIN_NO_INTRA)) return false;
    StmVec r = {0};
    GroupWidth g = {D, &r, {0}, s->loc, 0};
    if (!ir_each_group_soac(s->e->screma.map->body, group_width, &g) || g.n < 2) {
        vec_free(&r);
        return false;
    }
    Stm *outer = ir_clone_stm(D->p, s), *intra = ir_clone_stm(D->p, s);
    intra->e->intra = true;
    Stm *c = NULL;
    if (!(s->e->pin & PIN_NO_OUTER)) {
        c = threshold(D, "suff_outer_par", DIST_OUTER_THRESHOLD, outer_parallelism(D, outer, &r), NULL, false, s->loc);
        vec_push(&r, c);
    }
    Stm *ci = threshold(D, "suff_intra_par", DIST_INTRA_THRESHOLD, g.w, c ? c->e->thr : NULL, true, s->loc);
    if (c) { /* the intra-group threshold is compared in the outer one's false branch only */
        Body *never = NEW(D->a, Body);
        never->nres = 1;
        never->res = NEW_ARRAY(D->a, SubExp, 1);
        never->res[0] = se_bool(false);
        Var **intra_c = NEW_ARRAY(D->a, Var *, 1); /* the statement keeps it */
        intra_c[0] = ir_var(D->p, "intra", type_prim(PT_BOOL));
        ci = version_if(D, c, never, body_of(D, &ci, 1, ci->pat, 1), intra_c, 1, s->loc);
    }
    vec_push(&r, ci);
    vec_push(&r, version_if(D, ci, body_of(D, &intra, 1, intra->pat, s->npat), body_of(D, &outer, 1, outer->pat, s->npat),
                            s->pat, s->npat, s->loc));
    splice(D, host, at, &r);
    return true;
}

/* With #[incremental_flattening(only_intra)], host-level map s becomes its
 * intra-group version alone, as in Futhark, wherever one can be made (its
 * element has parallel operations at the group level that build no arrays;
 * the version runs whatever their widths: its work-items stride over
 * them), and nothing else is tried on it. Returns whether it did. */
static bool only_intra(Dist *D, Stm *s) {
    if (!(s->e->pin & PIN_ONLY_INTRA) || (s->e->pin & PIN_NO_INTRA) || !is_map(s->e)) return false;
    StmVec w = {0}; /* the width's statements: unused */
    GroupWidth g = {D, &w, {0}, s->loc, 0};
    bool made = ir_each_group_soac(s->e->screma.map->body, group_width, &g) && g.n;
    vec_free(&w);
    if (made) s->e->intra = true;
    return made;
}

/* Distributes the host-level maps of b (entering host-level loops and ifs). */
static void dist_body(Dist *D, Body *b) {
    for (int k = 0; k < b->nstms; k++) {
        Stm *s = b->stms[k];
        IrExp *e = s->e;
        if (e->kind == IE_IF) {
            dist_body(D, e->tbody);
            dist_body(D, e->fbody);
        } else if (e->kind == IE_LOOP) {
            dist_body(D, e->loop.body);
        } else if (e->kind == IE_SCREMA && !e->screma.nscans) {
            mark_nest(D, s);
            int before = b->nstms;
            if (!(e->pin & PIN_NO_DIST) && !only_intra(D, s) &&
                (dist_map(D, b, k, true) || dist_interchange(D, b, k) || dist_intra(D, b, k)))
                k += b->nstms - before;
        }
    }
}

void pass_distribute(Prog *p) {
    if (p->stage != STAGE_SOACS) ICE("pass_distribute: expected a program at STAGE_SOACS");
    Dist D = {p, p->arena, NULL, 0, false, NULL, 0, NULL, false};
    for (int i = 0; i < p->nfuns; i++) {
        D.fun = p->funs[i]->name;
        dist_body(&D, p->funs[i]->body);
    }
    free(D.nest);
    if (D.changed) pass_simplify(p);
}
