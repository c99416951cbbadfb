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
 *    A map whose body is cheap scalar code around one map-reduce over
 *    whole arrays bound outside it (each element traverses the same
 *    arrays: n-body) is 1-D tiled (SegInfo.tile of depth 1): the
 *    work-group stages chunks of those arrays through local memory, and
 *    several work-items may split one element's reduction.
 *  - A map nest (as for SegMap, and not tiled) whose innermost body is
 *    cheap scalar code around one reduction over rows of its input (trmv,
 *    row sums, the rows of a batch of matrices) is a segmented SegRed
 *    (depth: the maps, then the reduction) whose segments are the points
 *    of the nest: by the segments' length at run time, a work-group per
 *    segment when they are long (several when there are too few segments
 *    to fill the device), a few lanes of a group when they are of medium
 *    length, else a SegMap that reduces each in one work-item. When the
 *    reduction's width is computed in the body (it reduces a slice whose
 *    bounds the body reads, as in a CSR matrix-vector product), the
 *    segments' widths vary (only below a single map): the SegRed is
 *    irregular, and a few lanes of a work-group reduce each segment
 *    (work-groups each chunk of a long one).
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
 * In a kernel whose work-items run in parallel, such a block's copies
 * are interleaved (FunMem's memory expansion with the coalesced layout,
 * seed-002-funmem.md §4.1): every array inside the statement that lives
 * in it gets the index function lmad_interleave makes, in terms of two
 * Vars the kernels bind (SegInfo.tid, nthreads). That is sound only when
 * every access to the block goes through such an index function, so a
 * block an array may share with other memory (through an if or a loop)
 * stays sliced (expand_private).
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
    seg->private_mem = NEW_ARRAY(k->a, PrivMem, out.len + 1);
    for (int i = 0; i < out.len; i++) {
        Var *v = seg->free[i];
        Stm *al = v->type.kind == TK_MEM ? k->alloc_of[v->id] : NULL;
        seg->private_mem[i] = al && al->e->per_iter ? PRIV_SLICED : PRIV_NONE;
    }
    vec_free(&out);
    vec_free(&f.free);
}

/* ---- Coalesced private blocks ----------------------------------------------------- */

/* Which private blocks of a statement s can be interleaved: the blocks its
 * arrays live in are grouped, since an if or a loop inside s binds a block
 * (existential memory) that is one of its branches' (or its init's and
 * its body's) blocks: a group is every block one array may move through.
 * A group is interleaved when it holds a private block of s and nothing
 * that cannot follow: a block shared by the work-items, a block bound in
 * s otherwise than by an if or a loop, an array bound outside s's lambdas
 * (s's own results included), or arrays of different element sizes
 * (the copies are interleaved element by element). */
typedef struct Expand {
    const Stm *s;
    int *parent;          /* by Var id: union-find over blocks (0: itself) */
    char *inside;         /* by Var id: bound inside s */
    char *merged;         /* by block id: bound by an if or a loop of s */
    char *bad;            /* by group root: cannot be interleaved */
    int *elem;            /* by group root: its arrays' element size, or 0 */
    VEC(Var *) arrays;    /* the arrays bound inside s */
    VEC(Var *) blocks;    /* the blocks bound inside s */
    VEC(Var *) outer;     /* the blocks of arrays bound outside s's lambdas */
} Expand;

static int ex_find(Expand *x, int id) {
    while (x->parent[id]) id = x->parent[id];
    return id;
}

static void ex_union(Expand *x, Var *a, SubExp b) {
    if (!b.is_var) return;
    int ra = ex_find(x, a->id), rb = ex_find(x, b.v->id);
    if (ra != rb) x->parent[ra] = rb;
}

static void ex_bind(IrWalk *w, Var *v) {
    Expand *x = w->ctx;
    for (int i = 0; i < x->s->npat; i++)
        if (x->s->pat[i] == v) return; /* bound by s itself, outside */
    x->inside[v->id] = 1;
    if (v->type.kind == TK_ARRAY) vec_push(&x->arrays, v);
    if (v->type.kind == TK_MEM) vec_push(&x->blocks, v);
}

static void ex_use(IrWalk *w, Var *v) {
    Expand *x = w->ctx;
    if (v->type.kind == TK_ARRAY && !x->inside[v->id]) vec_push(&x->outer, v->mem->mem);
}

/* Joins the blocks an if or a loop of s binds with their sources. */
static void ex_stm(IrWalk *w, Stm *st) {
    Expand *x = w->ctx;
    IrExp *e = st->e;
    if (e->kind != IE_IF && e->kind != IE_LOOP) return;
    for (int j = 0; j < st->npat; j++) {
        Var *m = st->pat[j];
        if (m->type.kind != TK_MEM) continue;
        x->merged[m->id] = 1;
        if (e->kind == IE_IF) {
            ex_union(x, m, e->tbody->res[j]);
            ex_union(x, m, e->fbody->res[j]);
            continue;
        }
        Var *p = e->loop.params[j];
        x->merged[p->id] = 1;
        ex_union(x, m, se_var(p));
        ex_union(x, p, e->loop.inits[j]);
        ex_union(x, p, e->loop.body->res[j]);
    }
}

/* Marks the groups of s that cannot be interleaved (see Expand). */
static void ex_check(Expand *x, const SegInfo *g) {
    for (int i = 0; i < x->blocks.len; i++)
        if (!x->merged[x->blocks.items[i]->id]) x->bad[ex_find(x, x->blocks.items[i]->id)] = 1;
    for (int i = 0; i < x->outer.len; i++) x->bad[ex_find(x, x->outer.items[i]->id)] = 1;
    for (int i = 0; i < x->s->npat; i++)
        if (x->s->pat[i]->type.kind == TK_ARRAY) x->bad[ex_find(x, x->s->pat[i]->mem->mem->id)] = 1;
    for (int i = 0; i < g->nfree; i++)
        if (g->free[i]->type.kind == TK_MEM && !g->private_mem[i]) x->bad[ex_find(x, g->free[i]->id)] = 1;
    for (int i = 0; i < x->arrays.len; i++) {
        Var *v = x->arrays.items[i];
        int r = ex_find(x, v->mem->mem->id), size = prim_size(v->type.elem);
        if (x->elem[r] && x->elem[r] != size) x->bad[r] = 1;
        x->elem[r] = size;
    }
}

/* Interleaves the private blocks of s (a kernel whose work-items run in
 * parallel) that it can: the arrays in them get index functions in terms
 * of seg->tid and seg->nthreads (lmad_interleave); the others stay
 * sliced. */
static void expand_private(KCtx *k, Stm *s, SegInfo *seg) {
    if (seg->kind == SEG_SEQ || seg->kind == SEG_HOST) return;
    size_t n = (size_t)k->p->next_var_id + 1;
    Expand x = {s, NEW_ARRAY(k->a, int, n), arena_alloc(k->a, n), arena_alloc(k->a, n), arena_alloc(k->a, n),
                NEW_ARRAY(k->a, int, n), {0}, {0}, {0}};
    IrWalk w = {ex_bind, ex_use, ex_stm, &x};
    ir_walk_stm(&w, s);
    ex_check(&x, seg);
    char *interleaved = arena_alloc(k->a, n);
    for (int i = 0; i < seg->nfree; i++) {
        int r = ex_find(&x, seg->free[i]->id);
        if (seg->private_mem[i] != PRIV_SLICED || x.bad[r]) continue;
        seg->private_mem[i] = PRIV_INTERLEAVED;
        interleaved[r] = 1;
        if (!seg->tid) {
            seg->tid = ir_var(k->p, "tid", type_prim(PT_I64));
            seg->nthreads = ir_var(k->p, "nthreads", type_prim(PT_I64));
        }
    }
    Sym *nthreads = seg->tid ? sym_var(k->a, seg->nthreads->id) : NULL;
    Sym *tid = seg->tid ? sym_var(k->a, seg->tid->id) : NULL;
    for (int i = 0; i < x.arrays.len; i++) {
        Var *v = x.arrays.items[i];
        if (!interleaved[ex_find(&x, v->mem->mem->id)]) continue;
        MemInfo *mi = NEW(k->a, MemInfo); /* v's own: MemInfos may be shared */
        mi->mem = v->mem->mem;
        mi->ixfun = lmad_interleave(k->a, v->mem->ixfun, nthreads, tid);
        v->mem = mi;
    }
    vec_free(&x.arrays);
    vec_free(&x.blocks);
    vec_free(&x.outer);
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

static bool is_map(const IrExp *e) {
    return e->kind == IE_SCREMA && e->screma.nscans == 0 && e->screma.nreds == 0;
}

/* The array that result v of body b is: v, or what v transposes when a
 * statement of b from index from on (after the inner level) makes v as a
 * transposition (a view: the inner level's result was built transposed
 * in v's place). */
static const Var *result_source(const Body *b, int from, const Var *v) {
    for (int j = from; j < b->nstms; j++)
        if (b->stms[j]->pat[0] == v && b->stms[j]->e->kind == IE_REARRANGE) return b->stms[j]->e->arr;
    return v;
}

/* Whether v is bound by s (at index at of b), directly or through a
 * transposition after it, and no earlier one of the first n results of b
 * is. */
static bool fresh_result(const Stm *s, const Body *b, int at, int n, const Var *v) {
    const Var *src = result_source(b, at + 1, v);
    bool bound = false;
    for (int i = 0; i < s->npat; i++) bound |= s->pat[i] == src;
    for (int i = 0; i < n; i++)
        if (b->res[i].is_var && result_source(b, at + 1, b->res[i].v) == src) return false;
    return bound;
}

/* Whether result i of map s's body is an array that statement in (at
 * index at of the body) binds, or a transposition of one, (and no earlier
 * result is) in the place of row iter of s's output i: written in place,
 * it needs no copy. */
static bool row_in_place(KCtx *k, const Stm *s, const Stm *in, int at, int i) {
    const Screma *sc = &s->e->screma;
    const Body *b = sc->map->body;
    Var *r = b->res[i].v, *o = s->pat[i];
    if (!b->res[i].is_var || !fresh_result(in, b, at, i, r) || !r->mem || !o->mem || r->mem->mem != o->mem->mem)
        return false;
    LmadSlice fix = {.is_index = true, .index = sym_var(k->a, sc->iter->id)};
    return lmad_equal(r->mem->ixfun, lmad_slice(k->a, o->mem->ixfun, &fix, 1));
}

/* The statement of level s's body that keeps s a perfect nest below the
 * outermost level outer: a Screma after cheap scalar code, of a width
 * bound outside outer's lambda, whose results are s's results (in any
 * order: horizontal fusion reorders them), or transpositions of them made
 * after it, built in place in s's output rows (a transposed result was
 * built transposed there: map (\x -> transpose (map f (transpose x))) is
 * a nest). Else NULL. */
static Stm *nest_tail(KCtx *k, const Stm *outer, Stm *s) {
    Screma *sc = &s->e->screma;
    Body *b = sc->map->body;
    int at = b->nstms - 1;
    while (at >= 0 && b->stms[at]->e->kind == IE_REARRANGE) at--;
    if (at < 0) return NULL;
    Stm *in = b->stms[at];
    if (in->e->kind != IE_SCREMA || in->npat != b->nres || in->npat != s->npat) return NULL;
    for (int i = 0; i < at; i++)
        if (!ir_stm_cheap(b->stms[i])) return NULL;
    SubExp w = in->e->screma.w;
    if (w.is_var && ir_lambda_binds(outer->e->screma.map, w.v)) return NULL;
    for (int i = 0; i < b->nres; i++)
        if (!row_in_place(k, s, in, at, i)) return NULL;
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
    if (!u->found && !u->own[v->id] && ir_lambda_binds(u->in, v)) u->found = true;
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
    if (!sc->nscans || sc->nreds || !ir_segops_scalar(sc->scans, sc->nscans)) return NULL;
    Lambda *nest = outer->e->screma.map;
    for (int i = 0; i < sc->nscans; i++) {
        if (uses_bound_in(k, sc->scans[i].op, nest)) return NULL;
        for (int j = 0; j < sc->scans[i].k; j++) {
            SubExp ne = sc->scans[i].neutral[j];
            if (ne.is_var && ir_lambda_binds(nest, ne.v)) return NULL;
        }
    }
    return in;
}

/* The reduction of a segmented reduction below map s, the innermost level
 * of a map nest whose outermost level is outer, or NULL: s's body
 * is cheap scalar code around one reduction (no scans, scalar operators)
 * over at least one array that differs between s's elements (a row of
 * s's input, or a slice the body takes), or over no array at all (a
 * tabulation from the indices), and s returns scalars, and the
 * reduction's map outputs (such as the exps of a softmax, which the sum
 * reduces) built in place in s's output rows. Each of s's elements is
 * then a segment that a work-group, or a few of its lanes, reduce with
 * coalesced reads. *irregular tells whether the reduction's width is
 * bound in s's lambda (segments of varying width, such as the rows of a
 * CSR matrix; those have no map outputs and no levels around s); else it
 * is bound outside the nest (every segment has the same width). */
static Stm *segred_level(KCtx *k, const Stm *outer, Stm *s, bool *irregular) {
    Screma *sc = &s->e->screma;
    Body *b = sc->map->body;
    Stm *red = NULL;
    for (int i = 0; i < b->nstms; i++) {
        Stm *x = b->stms[i];
        if (ir_stm_cheap(x)) continue;
        const IrExp *e = x->e;
        if (red || e->kind != IE_SCREMA || e->screma.nscans || !e->screma.nreds) return NULL;
        if (!ir_segops_scalar(e->screma.reds, e->screma.nreds)) return NULL;
        red = x;
    }
    if (!red) return NULL;
    int outputs = 0;
    for (int i = 0; i < b->nres; i++) {
        if (subexp_type(b->res[i]).kind == TK_PRIM) continue;
        if (!row_in_place(k, s, red, b->nstms - 1, i)) return NULL; /* no transposed outputs */
        outputs++;
    }
    int nv = 0;
    for (int j = 0; j < red->e->screma.nreds; j++) nv += red->e->screma.reds[j].k;
    if (red->npat != nv + outputs) return NULL; /* every map output is a result */
    SubExp w = red->e->screma.w;
    *irregular = w.is_var && ir_lambda_binds(sc->map, w.v);
    if (*irregular && (outputs || s != outer)) return NULL;
    if (w.is_var && ir_lambda_binds(outer->e->screma.map, w.v) && !*irregular) return NULL;
    for (int i = 0; i < red->e->screma.narrs; i++)
        if (ir_lambda_binds(sc->map, red->e->screma.arrs[i])) return red;
    /* No inputs: its elements are computed from their index (iotas are not
     * built) and from the segment's own values, so no segment reads what
     * another does. */
    return red->e->screma.narrs == 0 ? red : NULL;
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

/* Local memory that 1-D tiling stages per element of its arrays, at most
 * (a stage of 256 elements then takes 16 KiB). */
#define TILE1_ELEM_BYTES 64

/* Whether statement s of a lambda's body is a map-reduce whose map and
 * operators are plain arithmetic, whose results are all reduced (no map
 * outputs), and which has inputs. */
static bool arith_redomap(const Stm *s) {
    const IrExp *e = s->e;
    if (e->kind != IE_SCREMA || e->screma.nscans || !e->screma.nreds || !e->screma.narrs) return false;
    if (!arith_lambda(e->screma.map)) return false;
    int nv = 0;
    for (int j = 0; j < e->screma.nreds; j++) {
        if (!arith_lambda(e->screma.reds[j].op)) return false;
        nv += e->screma.reds[j].k;
    }
    return s->npat == nv;
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
    if (!arith_redomap(red)) return NULL;
    for (int i = 1; i < b->nstms; i++)
        if (!ir_stm_cheap(b->stms[i])) return NULL;
    for (int i = 0; i < b->nres; i++)
        if (subexp_type(b->res[i]).kind != TK_PRIM) return NULL;
    SubExp w = e->screma.w;
    if (w.is_var && ir_lambda_binds(lo, w.v)) return NULL;
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

/* The reduction that 1-D tiling shares between the work-items of SegMap
 * g, or NULL. g must be one map whose body is cheap scalar code around
 * one map-reduce (arith_redomap) over whole arrays bound outside the map
 * (every element traverses the same arrays: all-pairs interactions, such
 * as n-body), of a width bound outside it too. */
static Stm *tile1_level(SegInfo *g) {
    if (g->kind != SEG_MAP || g->depth != 1 || g->levels[0]->e->kind != IE_SCREMA) return NULL;
    Lambda *lo = g->levels[0]->e->screma.map;
    const Body *b = lo->body;
    Stm *red = NULL;
    for (int i = 0; i < b->nstms; i++) {
        Stm *st = b->stms[i];
        if (!red && arith_redomap(st)) red = st;
        else if (!ir_stm_cheap(st)) return NULL;
    }
    if (!red) return NULL;
    for (int i = 0; i < b->nres; i++)
        if (subexp_type(b->res[i]).kind != TK_PRIM) return NULL;
    const Screma *rc = &red->e->screma;
    if (rc->w.is_var && ir_lambda_binds(lo, rc->w.v)) return NULL;
    int bytes = 0;
    for (int i = 0; i < rc->narrs; i++) {
        const Var *a = rc->arrs[i];
        if (ir_lambda_binds(lo, a) || a->type.rank != 1 || a->type.elem == PT_BOOL) return NULL;
        bytes += prim_size(a->type.elem);
    }
    return bytes <= TILE1_ELEM_BYTES ? red : NULL;
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
        g->tile = tile_level(k, g);
        if (!g->tile) g->tile = tile1_level(g);
        if (g->tile) return g;
        Stm *red = segred_level(k, s, g->levels[g->depth - 1], &g->irregular);
        Stm *scan = segscan_level(k, s, g->levels[g->depth - 1]);
        if (red) {
            g->kind = SEG_RED;
            g->levels[g->depth++] = red;
        } else if (scan) {
            g->kind = SEG_SCAN;
            g->levels[g->depth++] = scan;
        }
    }
    return g;
}

/* Whether a histogram's operator fits the atomic SegHist kernel. */
static bool atomic_hist(const Hist *h) {
    if (h->op.k != 1 || !ir_segops_scalar(&h->op, 1)) return false;
    int size = prim_size(h->op.op->params[0]->type.elem);
    return size == 4 || size == 8;
}

static SegKind classify(const Stm *s) {
    const IrExp *e = s->e;
    if (exp_allocates(e)) return SEG_HOST;
    if (e->kind == IE_SCATTER) return SEG_MAP;
    if (e->kind == IE_HIST) return atomic_hist(&e->hist) ? SEG_HIST : SEG_SEQ;
    const Screma *sc = &e->screma;
    if (!ir_segops_scalar(sc->scans, sc->nscans) || !ir_segops_scalar(sc->reds, sc->nreds)) return SEG_SEQ;
    if (sc->nscans) return SEG_SCAN;
    if (sc->nreds) return SEG_RED;
    return SEG_MAP;
}

/* ---- Intra-group versions ------------------------------------------------------ */

/* Whether a SOAC at the group level of intra-group version s runs with the
 * work-items of a work-group: a Screma of scalar operators whose width is
 * bound outside s (the host sizes the group by it). */
typedef struct GroupCheck {
    Lambda *lam; /* the map's */
    int n;       /* SOACs seen */
} GroupCheck;

static bool group_soac_ok(void *ctx, const Stm *st) {
    GroupCheck *c = ctx;
    const Screma *sc = &st->e->screma;
    c->n++;
    return st->e->kind == IE_SCREMA && ir_segops_scalar(sc->scans, sc->nscans) &&
           ir_segops_scalar(sc->reds, sc->nreds) && !(sc->w.is_var && ir_lambda_binds(c->lam, sc->w.v));
}

/* Whether s, an intra-group version (IrExp.intra) of a map, can be a
 * SEG_GROUP: a map whose group level has a SOAC, each one that
 * group_soac_ok takes. */
static bool group_ok(const Stm *s, SegKind kind) {
    if (!s->e->intra || kind != SEG_MAP || s->e->kind != IE_SCREMA) return false;
    GroupCheck c = {s->e->screma.map, 0};
    return ir_each_group_soac(c.lam->body, group_soac_ok, &c) && c.n > 0;
}

/* The blocks of the arrays that a SEG_GROUP's work-items bind one by one
 * (inside the lambdas of its group-level SOACs: thread) and of those its
 * work-group binds together (group). */
typedef struct GroupBlocks {
    char *group, *thread;
} GroupBlocks;

static void thread_bind(IrWalk *w, Var *v) {
    GroupBlocks *gb = w->ctx;
    if (v->type.kind == TK_ARRAY && v->mem) gb->thread[v->mem->mem->id] = 1;
}

static void group_blocks(GroupBlocks *gb, Body *b) {
    for (int i = 0; i < b->nstms; i++) {
        Stm *s = b->stms[i];
        IrExp *e = s->e;
        for (int j = 0; j < s->npat; j++) {
            Var *v = s->pat[j];
            if (v->type.kind == TK_ARRAY && v->mem) gb->group[v->mem->mem->id] = 1;
            if (v->type.kind == TK_MEM) gb->group[v->id] = 1;
        }
        if (e->kind == IE_IF) {
            group_blocks(gb, e->tbody);
            group_blocks(gb, e->fbody);
        } else if (e->kind == IE_LOOP) {
            for (int j = 0; j < e->loop.nparams; j++) {
                Var *v = e->loop.params[j];
                if (v->type.kind == TK_MEM) gb->group[v->id] = 1;
            }
            group_blocks(gb, e->loop.body);
        } else if (e->kind == IE_SCREMA || e->kind == IE_SCATTER || e->kind == IE_HIST) {
            IrWalk w = {thread_bind, NULL, NULL, gb};
            ir_walk_stm(&w, s);
        }
    }
}

/* Whether every per-element block of SEG_GROUP s holds arrays of its
 * work-group, of which the group needs one copy: an array that each
 * work-item binds in a block of its own (a private array inside a
 * group-level SOAC's lambda) would need a copy per work-item. */
static bool group_blocks_ok(KCtx *k, Stm *s) {
    size_t n = (size_t)k->p->next_var_id + 1;
    GroupBlocks gb = {arena_alloc(k->a, n), arena_alloc(k->a, n)};
    group_blocks(&gb, s->e->screma.map->body);
    for (size_t id = 0; id < n; id++)
        if (gb.thread[id] && !gb.group[id] && k->alloc_of[id] && k->alloc_of[id]->e->per_iter) return false;
    return true;
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
            SegKind kind = classify(s);
            e->seg = new_seg(k, group_ok(s, kind) ? SEG_GROUP : kind, s);
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

/* Records the free variables of the host-level SOACs of b and expands
 * their private blocks. */
static void kern_free(KCtx *k, Body *b) {
    for (int i = 0; i < b->nstms; i++) {
        IrExp *e = b->stms[i]->e;
        if (e->kind == IE_IF) {
            kern_free(k, e->tbody);
            kern_free(k, e->fbody);
        } else if (e->kind == IE_LOOP) {
            kern_free(k, e->loop.body);
        } else if (e->seg) {
            if (e->seg->kind == SEG_GROUP && !group_blocks_ok(k, b->stms[i])) e->seg = new_seg(k, SEG_MAP, b->stms[i]);
            free_vars(k, b->stms[i], e->seg);
            if (e->seg->kind != SEG_GROUP) expand_private(k, b->stms[i], e->seg);
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
        IrWalk w = {index_bind, NULL, index_stm, &k};
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
