/* Kernel extraction, STAGE_MEM -> STAGE_GPU: decides how each host-level
 * SOAC (one that is not inside another SOAC's lambda; host-level loops and
 * ifs are entered, a stencil's time loop stays on the host) runs on a GPU,
 * and records it in a SegInfo (ir.h):
 *
 *  - A map-only Screma is a SegMap. Its space takes in the levels of a
 *    perfect nest: when the map's body is cheap scalar code followed by
 *    another map-only Screma of a width bound outside the outermost
 *    lambda, whose results are the body's results (in any order) built
 *    in place in the outer output rows, the inner map joins the space (up
 *    to SEG_MAX_DEPTH levels). Inner SOACs that do not join run
 *    sequentially inside each work-item, as do loops.
 *    A nest of two maps around one map-reduce of a row from each level
 *    (the matrix product) is block-tiled (SegInfo.tile): each work-group
 *    computes a block of the space and stages the rows it reads in local
 *    memory, so that every element read from memory is used many times.
 *  - A map whose body is cheap scalar code around one reduction over rows
 *    of the map's input (trmv, row sums) is a segmented SegRed of depth 2:
 *    a work-group per segment when segments are long (several when there
 *    are too few segments to fill the device), else a SegMap that reduces
 *    each segment in one work-item (chosen at run time). When the
 *    reduction's width is computed in the body (it reduces a slice whose
 *    bounds the body reads, as in a CSR matrix-vector product), the
 *    segments' widths vary: the SegRed is irregular, and a few lanes of a
 *    work-group reduce each segment.
 *  - A map nest (as for SegMap) whose innermost body is cheap scalar code
 *    followed by one scan-only Screma (scalar operators, maybe with map
 *    outputs) of a width bound outside the nest, whose results are the
 *    body's results built in place in the output rows, and whose
 *    operators and neutral elements use nothing bound in the nest, is a
 *    segmented SegScan (depth: the maps, then the scan): one single-pass
 *    scan over all the elements in row-major order with the operator
 *    lifted onto (segment start flag, value) pairs, so that every element
 *    is scanned in parallel (the backend's seg_scan).
 *  - A Screma with reductions and no scans is a SegRed, with scans a
 *    SegScan: its scan kernel also folds the reductions, if any (the
 *    counts of filter and partition), into a partial result per group
 *    that a second kernel combines; fused map outputs are written by the
 *    same kernel. A Scatter is a SegMap over its elements; a Hist whose
 *    operator combines one scalar of 4 or 8 bytes is a SegHist.
 *  - Operators on arrays (and other histograms) run in one work-item
 *    (SegSeq): correct, not fast.
 *  - A SOAC that allocates memory per element whose size varies (an
 *    allocation left inside its lambdas) cannot run in a kernel and runs on
 *    the host over mapped memory (Host).
 *
 * A SegMap whose work-items traverse rows of a row-major input often
 * enough reads a copy of it laid out with the outer dimension innermost,
 * made before it (coalesce.c), so that neighbouring work-items read
 * neighbouring addresses.
 *
 * Each SegInfo also lists the statement's free variables (kernel
 * arguments) and which of them are blocks every work-item needs its own
 * copy of: blocks the memory pass hoisted out of a SOAC lambda (per_iter
 * allocations), which the backend expands by the number of work-items.
 */
#include "passes.h"

#include <string.h>

/* Deepest map nest flattened into one segment space: enough for the
 * nests real programs write (images, matrices, batches of them). */
#define SEG_MAX_DEPTH 4

typedef struct KCtx {
    Prog *p;
    Arena *a;
    Var **by_id;     /* every Var of the function, by id (for LMAD variables) */
    Stm **alloc_of;  /* by block id: its IE_ALLOC statement */
} KCtx;

/* ---- Indexing the function's variables -------------------------------------- */

static void index_bind(IrWalk *w, Var *v) {
    KCtx *k = w->ctx;
    k->by_id[v->id] = v;
}

static void index_stm(IrWalk *w, Stm *s) {
    KCtx *k = w->ctx;
    if (s->e->kind == IE_ALLOC) k->alloc_of[s->pat[0]->id] = s;
}

/* ---- Free variables --------------------------------------------------------- */

typedef struct FreeCtx {
    KCtx *k;
    char *bound, *seen;
    VEC(Var *) free;
} FreeCtx;

static void free_add(FreeCtx *f, Var *v) {
    if (f->seen[v->id]) return;
    f->seen[v->id] = 1;
    vec_push(&f->free, v);
}

static void free_sym_var(int id, void *ctx) {
    FreeCtx *f = ctx;
    Var *v = f->k->by_id[id];
    if (!v) ICE("kernels: LMAD variable %d is not bound in the function", id);
    free_add(f, v);
}

/* Records v (and its block and LMAD variables) as used. Blocks and LMAD
 * variables of arrays bound inside are free too when bound outside. */
static void free_use(IrWalk *w, Var *v) {
    FreeCtx *f = w->ctx;
    if (v->mem) {
        if (v->mem->mem) free_use(w, v->mem->mem);
        const Lmad *l = v->mem->ixfun;
        sym_vars(l->offset, free_sym_var, f);
        for (int d = 0; d < l->rank; d++) {
            sym_vars(l->dims[d].stride, free_sym_var, f);
            sym_vars(l->dims[d].shape, free_sym_var, f);
        }
    }
    for (int d = 0; v->type.kind == TK_ARRAY && d < v->type.rank; d++)
        if (v->type.shape[d].is_var) free_use(w, v->type.shape[d].v);
    free_add(f, v);
}

static void free_bind(IrWalk *w, Var *v) {
    FreeCtx *f = w->ctx;
    f->bound[v->id] = 1;
    free_use(w, v); /* its block and LMAD variables */
}

/* The variables s uses that are bound outside it, in first-use order. */
static void free_vars(KCtx *k, Stm *s, SegInfo *seg) {
    size_t n = (size_t)k->p->next_var_id + 1;
    FreeCtx f = {k, arena_alloc(k->a, n), arena_alloc(k->a, n), {0}};
    IrWalk w = {free_bind, free_use, NULL, &f};
    ir_walk_stm(&w, s);
    VEC(Var *) out = {0};
    for (int i = 0; i < f.free.len; i++)
        if (!f.bound[f.free.items[i]->id]) vec_push(&out, f.free.items[i]);
    seg->nfree = out.len;
    seg->free = vec_to_arena(k->a, &out);
    seg->private_mem = arena_alloc(k->a, (size_t)out.len + 1);
    for (int i = 0; i < out.len; i++) {
        Var *v = seg->free[i];
        Stm *al = v->type.kind == TK_MEM ? k->alloc_of[v->id] : NULL;
        seg->private_mem[i] = al && al->e->per_iter;
    }
    vec_free(&out);
    vec_free(&f.free);
}

/* ---- Classification --------------------------------------------------------- */

static bool body_allocates(const Body *b);

static bool lambda_allocates(const Lambda *l) { return l && body_allocates(l->body); }

static bool exp_allocates(const IrExp *e) {
    switch (e->kind) {
    case IE_ALLOC: return true;
    case IE_IF: return body_allocates(e->tbody) || body_allocates(e->fbody);
    case IE_LOOP: return body_allocates(e->loop.body);
    case IE_SCREMA:
        for (int i = 0; i < e->screma.nscans; i++)
            if (lambda_allocates(e->screma.scans[i].op)) return true;
        for (int i = 0; i < e->screma.nreds; i++)
            if (lambda_allocates(e->screma.reds[i].op)) return true;
        return lambda_allocates(e->screma.map);
    case IE_SCATTER: return lambda_allocates(e->scatter.lam);
    case IE_HIST: return lambda_allocates(e->hist.lam) || lambda_allocates(e->hist.op.op);
    default: return false;
    }
}

static bool body_allocates(const Body *b) {
    for (int i = 0; i < b->nstms; i++)
        if (exp_allocates(b->stms[i]->e)) return true;
    return false;
}

/* Whether every operator parameter is a scalar. */
static bool scalar_ops(const SegOp *ops, int n) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < ops[i].op->nparams; j++)
            if (ops[i].op->params[j]->type.kind != TK_PRIM) return false;
    return true;
}

/* Cheap scalar code that every work-item of a flattened nest may repeat;
 * a call is as cheap as its callee's body inlined would be. */
static bool cheap_stm(const Stm *s) {
    switch (s->e->kind) {
    case IE_SUBEXP:
    case IE_OP:
    case IE_CONV:
    case IE_INDEX:
    case IE_ASSERT:
    case IE_RESHAPE:
    case IE_REARRANGE: return true;
    case IE_APPLY: {
        const Body *b = s->e->fn->body;
        for (int i = 0; i < b->nstms; i++)
            if (!cheap_stm(b->stms[i])) return false;
        return true;
    }
    default: return false;
    }
}

/* Whether Var v is bound anywhere in lambda l (so a width using it varies
 * between l's elements). */
typedef struct BoundIn {
    const Var *v;
    bool found;
} BoundIn;

static void bound_in_bind(IrWalk *w, Var *v) {
    BoundIn *b = w->ctx;
    if (v == b->v) b->found = true;
}

static void no_use(IrWalk *w, Var *v) {}

static bool bound_in(Lambda *l, const Var *v) {
    BoundIn b = {v, false};
    IrWalk w = {bound_in_bind, no_use, NULL, &b};
    ir_walk_lambda(&w, l);
    return b.found;
}

static bool is_map(const IrExp *e) {
    return e->kind == IE_SCREMA && e->screma.nscans == 0 && e->screma.nreds == 0;
}

/* Whether v is bound by s and not among the first n results of b. */
static bool fresh_result(const Stm *s, const Body *b, int n, const Var *v) {
    bool bound = false;
    for (int i = 0; i < s->npat; i++) bound |= s->pat[i] == v;
    for (int i = 0; i < n; i++)
        if (b->res[i].is_var && b->res[i].v == v) return false;
    return bound;
}

/* The last statement of level s's body when it keeps s a perfect nest
 * below the outermost level outer: a Screma after cheap scalar code, of a
 * width bound outside outer's lambda, whose results are s's results (in
 * any order: horizontal fusion reorders them) built in place in s's
 * output rows. Else NULL. */
static Stm *nest_tail(KCtx *k, const Stm *outer, Stm *s) {
    Screma *sc = &s->e->screma;
    Body *b = sc->map->body;
    if (b->nstms == 0) return NULL;
    Stm *in = b->stms[b->nstms - 1];
    if (in->e->kind != IE_SCREMA || in->npat != b->nres || in->npat != s->npat) return NULL;
    for (int i = 0; i + 1 < b->nstms; i++)
        if (!cheap_stm(b->stms[i])) return NULL;
    SubExp w = in->e->screma.w;
    if (w.is_var && bound_in(outer->e->screma.map, w.v)) return NULL;
    for (int i = 0; i < b->nres; i++) {
        Var *r = b->res[i].v, *o = s->pat[i];
        if (!b->res[i].is_var || !fresh_result(in, b, i, r) || !r->mem || !o->mem || r->mem->mem != o->mem->mem)
            return NULL;
        LmadSlice fix = {.is_index = true, .index = sym_var(k->a, sc->iter->id)};
        if (!lmad_equal(r->mem->ixfun, lmad_slice(k->a, o->mem->ixfun, &fix, 1))) return NULL;
    }
    return in;
}

/* The inner map of a perfect nest below level s (outer the outermost), or NULL. */
static Stm *inner_level(KCtx *k, const Stm *outer, Stm *s) {
    Stm *in = nest_tail(k, outer, s);
    return in && is_map(in->e) ? in : NULL;
}

/* Whether lambda l uses a Var that is bound in lambda in, outside l. */
typedef struct UsesIn {
    Lambda *in;
    char *own; /* by id: bound in l */
    bool found;
} UsesIn;

static void uses_in_bind(IrWalk *w, Var *v) {
    UsesIn *u = w->ctx;
    u->own[v->id] = 1;
}

static void uses_in_use(IrWalk *w, Var *v) {
    UsesIn *u = w->ctx;
    if (!u->found && !u->own[v->id] && bound_in(u->in, v)) u->found = true;
}

static bool uses_bound_in(KCtx *k, Lambda *l, Lambda *in) {
    UsesIn u = {in, arena_alloc(k->a, (size_t)k->p->next_var_id + 1), false};
    IrWalk w = {uses_in_bind, uses_in_use, NULL, &u};
    ir_walk_lambda(&w, l);
    return u.found;
}

/* The scan of a segmented scan below the innermost level s of a map nest
 * whose outermost level is outer, or NULL: s's body is cheap scalar code
 * followed by one Screma with scans and no reductions (scalar operators;
 * fused map outputs allowed) of a width bound outside the nest, whose
 * results are s's results built in place in s's output rows, and whose
 * operators and neutral elements use nothing bound in the nest (so they
 * are the same for every segment). Each point of the nest is then a
 * segment (a row of the outputs) of one scan over all the elements. */
static Stm *segscan_level(KCtx *k, const Stm *outer, Stm *s) {
    Stm *in = nest_tail(k, outer, s);
    if (!in) return NULL;
    const Screma *sc = &in->e->screma;
    if (!sc->nscans || sc->nreds || !scalar_ops(sc->scans, sc->nscans)) return NULL;
    Lambda *nest = outer->e->screma.map;
    for (int i = 0; i < sc->nscans; i++) {
        if (uses_bound_in(k, sc->scans[i].op, nest)) return NULL;
        for (int j = 0; j < sc->scans[i].k; j++) {
            SubExp ne = sc->scans[i].neutral[j];
            if (ne.is_var && bound_in(nest, ne.v)) return NULL;
        }
    }
    return in;
}

/* The reduction of a segmented reduction below map s, or NULL: s's body
 * is cheap scalar code around one reduction (no scans, no map outputs,
 * scalar operators) over at least one array that differs between s's
 * elements (a row of s's input, or a slice the body takes), and s returns
 * scalars. Each of s's elements is then a segment that a work-group, or
 * a few of its lanes, reduce with coalesced reads. *irregular tells
 * whether the reduction's width is bound in s's lambda (segments of
 * varying width, such as the rows of a CSR matrix). */
static Stm *segred_level(Stm *s, bool *irregular) {
    Screma *sc = &s->e->screma;
    Body *b = sc->map->body;
    Stm *red = NULL;
    for (int i = 0; i < b->nstms; i++) {
        Stm *x = b->stms[i];
        if (cheap_stm(x)) continue;
        const IrExp *e = x->e;
        if (red || e->kind != IE_SCREMA || e->screma.nscans || !e->screma.nreds) return NULL;
        int nv = 0;
        for (int j = 0; j < e->screma.nreds; j++) nv += e->screma.reds[j].k;
        if (x->npat != nv || !scalar_ops(e->screma.reds, e->screma.nreds)) return NULL;
        red = x;
    }
    if (!red) return NULL;
    for (int i = 0; i < b->nres; i++)
        if (subexp_type(b->res[i]).kind != TK_PRIM) return NULL;
    SubExp w = red->e->screma.w;
    for (int i = 0; i < red->e->screma.narrs; i++)
        if (bound_in(sc->map, red->e->screma.arrs[i])) {
            *irregular = w.is_var && bound_in(sc->map, w.v);
            return red;
        }
    return NULL;
}

/* Whether l is plain arithmetic on non-boolean scalars (no indexing, no
 * assertions): safe to run on the zeros that pad a partial tile. */
static bool arith_lambda(const Lambda *l) {
    for (int i = 0; i < l->nparams; i++)
        if (l->params[i]->type.kind != TK_PRIM || l->params[i]->type.elem == PT_BOOL) return false;
    for (int i = 0; i < l->body->nstms; i++) {
        IrExpKind e = l->body->stms[i]->e->kind;
        if (e != IE_SUBEXP && e != IE_OP && e != IE_CONV) return false;
    }
    return true;
}

/* 0 or 1 when arr is a parameter of the outer (lo) or inner (li) lambda
 * of a nest, else -1. */
static int param_level(const Lambda *lo, const Lambda *li, const Var *arr) {
    for (int i = 0; i < lo->nparams; i++)
        if (lo->params[i] == arr) return 0;
    for (int i = 0; i < li->nparams; i++)
        if (li->params[i] == arr) return 1;
    return -1;
}

/* The reduction that block tiling shares between the work-items of SegMap
 * g, or NULL. g must be a nest of two levels whose inner body is one
 * map-reduce (plain arithmetic) over a width bound outside the nest,
 * followed by cheap scalar code, and each input of the map-reduce must be
 * the row one level's lambda gets, with at least one from each level: the
 * matrix product's shape, where a group's rows and columns share the rows
 * they read through local memory. Records each input's level in
 * g->tile_level. */
static Stm *tile_level(KCtx *k, SegInfo *g) {
    if (g->kind != SEG_MAP || g->depth != 2 || g->levels[0]->e->kind != IE_SCREMA) return NULL;
    Lambda *lo = g->levels[0]->e->screma.map, *li = g->levels[1]->e->screma.map;
    Body *b = li->body;
    if (lo->body->nstms != 1 || b->nstms == 0) return NULL;
    Stm *red = b->stms[0];
    const IrExp *e = red->e;
    if (e->kind != IE_SCREMA || e->screma.nscans || !e->screma.nreds || !arith_lambda(e->screma.map)) return NULL;
    int nv = 0;
    for (int j = 0; j < e->screma.nreds; j++) {
        if (!arith_lambda(e->screma.reds[j].op)) return NULL;
        nv += e->screma.reds[j].k;
    }
    if (red->npat != nv) return NULL;
    for (int i = 1; i < b->nstms; i++)
        if (!cheap_stm(b->stms[i])) return NULL;
    for (int i = 0; i < b->nres; i++)
        if (subexp_type(b->res[i]).kind != TK_PRIM) return NULL;
    SubExp w = e->screma.w;
    if (w.is_var && bound_in(lo, w.v)) return NULL;
    int from[2] = {0, 0};
    int *levels = NEW_ARRAY(k->a, int, e->screma.narrs + 1);
    for (int i = 0; i < e->screma.narrs; i++) {
        const Var *a = e->screma.arrs[i];
        int l = param_level(lo, li, a);
        if (l < 0 || a->type.rank != 1 || a->type.elem == PT_BOOL) return NULL;
        from[l]++;
        levels[i] = l;
    }
    if (!from[0] || !from[1]) return NULL;
    g->tile_level = levels;
    return red;
}

static SegInfo *new_seg(KCtx *k, SegKind kind, Stm *s) {
    SegInfo *g = NEW(k->a, SegInfo);
    g->kind = kind;
    g->depth = 1;
    g->levels = NEW_ARRAY(k->a, Stm *, SEG_MAX_DEPTH + 1);
    g->levels[0] = s;
    if (kind == SEG_MAP && s->e->kind == IE_SCREMA) {
        Stm *cur = s;
        while (g->depth < SEG_MAX_DEPTH && (cur = inner_level(k, s, cur))) g->levels[g->depth++] = cur;
        Stm *red = g->depth == 1 ? segred_level(s, &g->irregular) : NULL;
        Stm *scan = segscan_level(k, s, g->levels[g->depth - 1]);
        if (red) {
            g->kind = SEG_RED;
            g->levels[g->depth++] = red;
        } else if (scan) {
            g->kind = SEG_SCAN;
            g->levels[g->depth++] = scan;
        }
        g->tile = tile_level(k, g);
    }
    return g;
}

/* Whether a histogram's operator fits the atomic SegHist kernel. */
static bool atomic_hist(const Hist *h) {
    if (h->op.k != 1 || !scalar_ops(&h->op, 1)) return false;
    int size = prim_size(h->op.op->params[0]->type.elem);
    return size == 4 || size == 8;
}

static SegKind classify(const Stm *s) {
    const IrExp *e = s->e;
    if (exp_allocates(e)) return SEG_HOST;
    if (e->kind == IE_SCATTER) return SEG_MAP;
    if (e->kind == IE_HIST) return atomic_hist(&e->hist) ? SEG_HIST : SEG_SEQ;
    const Screma *sc = &e->screma;
    if (!scalar_ops(sc->scans, sc->nscans) || !scalar_ops(sc->reds, sc->nreds)) return SEG_SEQ;
    if (sc->nscans) return SEG_SCAN;
    if (sc->nreds) return SEG_RED;
    return SEG_MAP;
}

/* Classifies the host-level SOACs of b (entering host-level ifs and
 * loops) and inserts before each the copies that coalesce its reads. */
static void kern_body(KCtx *k, Body *b) {
    VEC(Stm *) out = {0};
    for (int i = 0; i < b->nstms; i++) {
        Stm *s = b->stms[i];
        IrExp *e = s->e;
        if (e->kind == IE_IF) {
            kern_body(k, e->tbody);
            kern_body(k, e->fbody);
        } else if (e->kind == IE_LOOP) {
            kern_body(k, e->loop.body);
        } else if (e->kind == IE_SCREMA || e->kind == IE_SCATTER || e->kind == IE_HIST) {
            e->seg = new_seg(k, classify(s), s);
            int n;
            Stm **pre = coalesce_inputs(k->p, s, &n);
            for (int j = 0; j < n; j++) vec_push(&out, pre[j]);
        }
        vec_push(&out, s);
    }
    b->nstms = out.len;
    b->stms = vec_to_arena(k->a, &out);
    vec_free(&out);
}

/* Records the free variables of the host-level SOACs of b. */
static void kern_free(KCtx *k, Body *b) {
    for (int i = 0; i < b->nstms; i++) {
        IrExp *e = b->stms[i]->e;
        if (e->kind == IE_IF) {
            kern_free(k, e->tbody);
            kern_free(k, e->fbody);
        } else if (e->kind == IE_LOOP) {
            kern_free(k, e->loop.body);
        } else if (e->seg) {
            free_vars(k, b->stms[i], e->seg);
        }
    }
}

void pass_kernels(Prog *p) {
    if (p->stage != STAGE_MEM) ICE("pass_kernels: expected a program at STAGE_MEM");
    Arena *a = p->arena;
    for (int i = 0; i < p->nfuns; i++) {
        Fun *f = p->funs[i];
        KCtx k = {p, a, NULL, NULL};
        kern_body(&k, f->body);
        size_t n = (size_t)p->next_var_id + 1;
        k.by_id = NEW_ARRAY(a, Var *, n);
        k.alloc_of = NEW_ARRAY(a, Stm *, n);
        IrWalk w = {index_bind, no_use, index_stm, &k};
        for (int j = 0; j < f->nparams; j++) {
            Var *v = f->params[j];
            index_bind(&w, v);
            if (v->mem) index_bind(&w, v->mem->mem);
            for (int d = 0; v->type.kind == TK_ARRAY && d < v->type.rank; d++)
                if (v->type.shape[d].is_var) index_bind(&w, v->type.shape[d].v);
        }
        ir_walk_body(&w, f->body);
        kern_free(&k, f->body);
    }
    p->stage = STAGE_GPU;
}
