/* Coalescing by layout, a step of the kernels pass (STAGE_MEM -> STAGE_GPU):
 * Futhark's "babysitting" of kernel inputs, done on index functions.
 *
 * A SegMap's work-items are neighbours along its outermost index. When the
 * lambda takes row i of an input xs[n][d] stored row-major and traverses
 * it (an inner SOAC over it, a loop indexing it), neighbouring work-items
 * read addresses d elements apart: each load of a warp touches as many
 * cache lines as the warp has work-items. Manifesting once, before the
 * kernel, a copy of xs whose index function puts the outer dimension
 * innermost (element (i, j) at j*n + i) makes those loads read
 * neighbouring addresses. The kernel reads through the copy's LMAD
 * unchanged: only the index functions of the row and of the views made of
 * it inside the lambda change (recomputed here as memory.c computed them).
 * The OpenCL runtime runs the copy as its tiled transpose (rt_cl_copy).
 *
 * Why in the kernels pass rather than at STAGE_MEM: the rule needs the
 * kernels pass's classification (a SegMap of one level that is not
 * block-tiled: SegRed and SegScan read rows with coalesced lanes already,
 * a tiled nest stages its rows through local memory, and the work-items
 * of a deeper nest that share a row of an outer level read it at the same
 * addresses), the layouts must change before the kernels' free variables
 * are recorded, and only the GPU pipeline runs this pass, so the C
 * backend (which stops at STAGE_MEM, where a copy would only cost) never
 * copies.
 *
 * When it pays, for input xs of such a SegMap (or Scatter) whose lambda
 * parameter is a row:
 *  - xs's innermost stride is 1 and its outer stride is not 0 or 1 (the
 *    rows of neighbours lie apart; a stride of 0 is one row that every
 *    work-item shares, 1 a layout that is coalesced already);
 *  - the lambda traverses the row often enough. It reads the elements of
 *    the row and of its views (slices, reversals, reshapes, rows of them)
 *    that an inner SOAC takes, that a statement copies, that the lambda
 *    returns, and one for each scalar index, each as many times as the
 *    code around it runs (a loop or an inner SOAC runs its body its trip
 *    count times, COALESCE_UNKNOWN_LEN when that is not a constant, which
 *    is also the length counted for a dimension that is not). The reads
 *    over the row's elements are the traversals; the traversals times the
 *    row's bytes (at most COALESCE_SPAN_BYTES, and that many when unknown)
 *    must exceed COALESCE_SPAN_BYTES: a single traversal never pays (a
 *    loop over the row is one), nor do a few of short rows, while a
 *    traversal inside a loop (k-means: a distance per centre) does;
 *  - every view of the row can take the new layout: the row and its views
 *    are not consumed (updated in place), not results of an if or a loop
 *    body or an operator's input (memory.c merged those layouts with
 *    others), and every reshape of them stays one LMAD.
 */
#include "passes.h"

#include <stdint.h>
#include <string.h>


/* The row bytes for which one uncoalesced traversal costs about what the
 * transposing copy does (it reads and writes the whole array). H100,
 * 2^20 x 64 f32 (256-byte rows), one traversal per row: 327 us read in
 * place, 335 us with the copy; with two (softmax), 9.4 ms against 5.1.
 * Shorter rows cost less per traversal, since a warp's next loads find
 * the cache lines its last ones touched: 2^22 x 16 f32 (64 bytes), one
 * traversal 203 us in place, 377 with the copy; two, 1.84 ms against
 * 2.05; 2^23 x 4 f32, 107 us against 440. */
#define COALESCE_SPAN_BYTES 256
/* A length that is not a constant (the trip count of a loop or of an
 * inner SOAC, a dimension) is taken to be this: a loop around a traversal
 * (over centres, neighbours, steps) rarely runs fewer times, and with 32
 * a traversal it repeats pays for rows of 16 bytes or more (k-means,
 * d = 16, k = 32: 1.38 ms in place, 0.54 with the copy). */
#define COALESCE_UNKNOWN_LEN 32
/* Cap on the counts, far above any threshold, so that they cannot overflow. */
#define COALESCE_COUNT_CAP ((int64_t)1 << 40)

/* The views of one row being given the transposed layout. */
typedef struct Relayout {
    Arena *a;
    MemInfo **place;  /* by Var id: the new place of a view of the row, else NULL */
    int nplace;
    VEC(Var *) views; /* the Vars with a new place */
    int64_t runs;     /* how often a work-item runs the code being walked */
    int64_t reads;    /* elements of the row a work-item reads */
    bool ok;          /* every view can take the new layout */
} Relayout;

static int64_t capped(int64_t x) { return x < COALESCE_COUNT_CAP ? x : COALESCE_COUNT_CAP; }

/* A length as counted: its value, or COALESCE_UNKNOWN_LEN. */
static int64_t length_of(SubExp n) {
    if (n.is_var) return COALESCE_UNKNOWN_LEN;
    return n.c.v.i > 0 ? capped(n.c.v.i) : 0;
}

/* The elements of an array of type t, as counted. */
static int64_t elems_of(Type t) {
    int64_t n = 1;
    for (int d = 0; d < t.rank; d++) n = capped(n * length_of(t.shape[d]));
    return n;
}

/* n more elements read, each time the code being walked runs. */
static void rl_read(Relayout *r, int64_t n) { r->reads = capped(r->reads + capped(r->runs * n)); }

static bool rl_view(const Relayout *r, const Var *v) { return v && v->id < r->nplace && r->place[v->id]; }

/* v's new place: the copy's block (set when it is made) at layout l (NULL:
 * not expressible). */
static void rl_set(Relayout *r, Var *v, Lmad *l) {
    if (!l) {
        r->ok = false;
        return;
    }
    MemInfo *mi = NEW(r->a, MemInfo);
    mi->ixfun = l;
    r->place[v->id] = mi;
    vec_push(&r->views, v);
}

/* The new LMAD of view v. */
static Lmad *rl_lmad(const Relayout *r, const Var *v) { return r->place[v->id]->ixfun; }

static void rl_body(Relayout *r, Body *b, int first_view_res);

/* Walks body b, which runs trips times per run of the code around it. */
static void rl_repeated(Relayout *r, Body *b, int first_view_res, SubExp trips) {
    int64_t runs = r->runs;
    r->runs = capped(runs * length_of(trips));
    rl_body(r, b, first_view_res);
    r->runs = runs;
}

/* The lambda parameters that take rows of views among arrs get views of
 * the new layout at row iter; taking the elements of one traverses it. */
static void rl_inputs(Relayout *r, Lambda *l, Var **arrs, int narrs, const Var *iter) {
    for (int i = 0; i < narrs && i < l->nparams; i++) {
        if (!rl_view(r, arrs[i])) continue;
        Var *p = l->params[i];
        if (p->type.kind != TK_ARRAY) {
            rl_read(r, elems_of(arrs[i]->type));
            continue;
        }
        LmadSlice fix = {.is_index = true, .index = sym_var(r->a, iter->id)};
        rl_set(r, p, lmad_slice(r->a, rl_lmad(r, arrs[i]), &fix, 1));
    }
}

/* Fails when one of vs (consumed arrays) is a view. */
static void rl_consumed(Relayout *r, Var *const *vs, int n) {
    for (int i = 0; i < n; i++)
        if (rl_view(r, vs[i])) r->ok = false;
}

static void rl_segops(Relayout *r, SegOp *ops, int n, SubExp w) {
    for (int i = 0; i < n; i++) rl_repeated(r, ops[i].op->body, ops[i].op->body->nres, w);
}

/* A statement without nested bodies that uses a view copies it. */
static void rl_use(IrWalk *w, Var *v) {
    Relayout *r = w->ctx;
    if (rl_view(r, v)) rl_read(r, elems_of(v->type));
}


/* Views: aliases, slices, rearrangements and reshapes of views. */
static bool rl_view_stm(Relayout *r, Stm *s) {
    IrExp *e = s->e;
    Var *pat0 = s->npat ? s->pat[0] : NULL;
    switch (e->kind) {
    case IE_SUBEXP:
        if (!e->se.is_var || !rl_view(r, e->se.v)) return false;
        rl_set(r, pat0, rl_lmad(r, e->se.v));
        return true;
    case IE_INDEX:
    case IE_FLAT_INDEX:
        if (!rl_view(r, e->arr) || pat0->type.kind != TK_ARRAY) return false;
        rl_set(r, pat0, ir_region(r->a, rl_lmad(r, e->arr), e));
        return true;
    case IE_REARRANGE:
        if (!rl_view(r, e->arr)) return false;
        rl_set(r, pat0, lmad_permute(r->a, rl_lmad(r, e->arr), e->perm));
        return true;
    case IE_RESHAPE: {
        if (!rl_view(r, e->arr)) return false;
        Sym **shape = NEW_ARRAY(r->a, Sym *, e->nshape + 1);
        for (int i = 0; i < e->nshape; i++) shape[i] = ir_se_sym(r->a, e->shape[i]);
        rl_set(r, pat0, lmad_reshape(r->a, rl_lmad(r, e->arr), e->nshape, shape));
        return true;
    }
    default: return false;
    }
}

static void rl_stm(Relayout *r, Stm *s) {
    IrExp *e = s->e;
    if (rl_view_stm(r, s)) return;
    switch (e->kind) {
    case IE_INDEX:
        if (rl_view(r, e->arr)) rl_read(r, 1);
        return;
    case IE_UPDATE:
    case IE_FLAT_UPDATE:
        rl_consumed(r, &e->arr, 1);
        if (e->se.is_var && rl_view(r, e->se.v)) rl_read(r, elems_of(e->se.v->type));
        return;
    case IE_IF:
        rl_body(r, e->tbody, e->tbody->nres);
        rl_body(r, e->fbody, e->fbody->nres);
        return;
    case IE_LOOP:
        for (int i = 0; i < e->loop.nparams; i++)
            if (e->loop.inits[i].is_var && rl_view(r, e->loop.inits[i].v)) r->ok = false;
        rl_repeated(r, e->loop.body, e->loop.body->nres,
                    e->loop.kind == IR_LOOP_FOR ? e->loop.bound : se_i64(COALESCE_UNKNOWN_LEN));
        return;
    case IE_SCREMA: {
        Screma *sc = &e->screma;
        int nops = 0;
        for (int i = 0; i < sc->nscans; i++) nops += sc->scans[i].k;
        for (int i = 0; i < sc->nreds; i++) nops += sc->reds[i].k;
        rl_inputs(r, sc->map, sc->arrs, sc->narrs, sc->iter);
        rl_segops(r, sc->scans, sc->nscans, sc->w);
        rl_segops(r, sc->reds, sc->nreds, sc->w);
        rl_repeated(r, sc->map->body, nops, sc->w);
        return;
    }
    case IE_SCATTER:
        rl_consumed(r, e->scatter.dests, e->scatter.ndests);
        rl_inputs(r, e->scatter.lam, e->scatter.arrs, e->scatter.narrs, e->scatter.iter);
        rl_repeated(r, e->scatter.lam->body, 0, e->scatter.w);
        return;
    case IE_HIST:
        rl_consumed(r, e->hist.dests, e->hist.op.k);
        rl_inputs(r, e->hist.lam, e->hist.arrs, e->hist.narrs, e->hist.iter);
        rl_segops(r, &e->hist.op, 1, e->hist.w);
        rl_repeated(r, e->hist.lam->body, e->hist.lam->body->nres, e->hist.w);
        return;
    default: {
        IrWalk w = {NULL, rl_use, NULL, r};
        ir_walk_stm(&w, s);
        return;
    }
    }
}

/* Walks b; its results from first_view_res on may be views (they are
 * copied out), those before may not (memory.c merged their layouts with
 * others'). */
static void rl_body(Relayout *r, Body *b, int first_view_res) {
    for (int i = 0; i < b->nstms && r->ok; i++) rl_stm(r, b->stms[i]);
    for (int i = 0; i < b->nres; i++) {
        if (!b->res[i].is_var || !rl_view(r, b->res[i].v)) continue;
        if (i < first_view_res) r->ok = false;
        else rl_read(r, elems_of(b->res[i].v->type));
    }
}

/* ---- The rule and the copy -------------------------------------------------- */

/* The layout of an array of type t with its outer dimension innermost:
 * row-major over (shape 1, ..., shape r-1, shape 0), dimensions permuted
 * back. */
static Lmad *outer_innermost(Arena *a, Type t) {
    int r = t.rank;
    Sym **shape = NEW_ARRAY(a, Sym *, r);
    int *perm = NEW_ARRAY(a, int, r);
    for (int d = 0; d < r; d++) {
        shape[d] = ir_se_sym(a, t.shape[(d + 1) % r]);
        perm[d] = (d + r - 1) % r;
    }
    return lmad_permute(a, lmad_row_major(a, r, shape), perm);
}

static bool sym_is(const Sym *x, int64_t c) {
    int64_t v;
    return sym_is_const(x, &v) && v == c;
}

/* Whether input arr (rank >= 2) keeps each row's elements contiguous
 * while the rows of neighbouring work-items lie apart. */
static bool rows_apart(const Var *arr) {
    const Lmad *l = arr->mem->ixfun;
    return sym_is(l->dims[l->rank - 1].stride, 1) && !sym_is(l->dims[0].stride, 0) && !sym_is(l->dims[0].stride, 1);
}

/* Whether reading reads elements of a row of arr pays for the copy:
 * whether the traversals they make (reads over the row's elements) times
 * the row's bytes (at most COALESCE_SPAN_BYTES, and that when unknown)
 * exceed COALESCE_SPAN_BYTES. */
static bool pays(const Var *arr, int64_t reads) {
    Type row = type_row(arr->type);
    int64_t bytes = prim_size(arr->type.elem);
    for (int d = 0; d < row.rank && bytes < COALESCE_SPAN_BYTES; d++)
        bytes = row.shape[d].is_var ? COALESCE_SPAN_BYTES : capped(bytes * length_of(row.shape[d]));
    if (bytes > COALESCE_SPAN_BYTES) bytes = COALESCE_SPAN_BYTES;
    return reads * bytes > COALESCE_SPAN_BYTES * elems_of(row);
}

static IrExp *new_exp(Prog *p, IrExpKind k) {
    IrExp *e = NEW(p->arena, IrExp);
    e->kind = k;
    return e;
}

/* Appends to out the statements of a copy of arr at layout l in a block
 * of its own: its byte size, the allocation, the copy; returns the copy. */
static Var *transposed_copy(Prog *p, StmVec *out, Var *arr, Lmad *l, SrcLoc loc) {
    Arena *a = p->arena;
    SubExp bytes = ir_size_bytes(p, out, arr->type, loc);
    IrExp *al = new_exp(p, IE_ALLOC);
    al->size = bytes;
    Type mt = {0};
    mt.kind = TK_MEM;
    Var *mem = ir_var(p, arena_printf(a, "mem_%s_tr", arr->name), mt);
    vec_push(out, ir_stm1(p->arena, mem, al, loc));
    Type t = arr->type;
    t.unique = false;
    Var *c = ir_var(p, arena_printf(a, "%s_tr", arr->name), t);
    c->mem = NEW(a, MemInfo);
    c->mem->mem = mem;
    c->mem->ixfun = l;
    IrExp *cp = new_exp(p, IE_COPY);
    cp->arr = arr;
    vec_push(out, ir_stm1(p->arena, c, cp, loc));
    return c;
}

/* The SOAC's inputs, their lambda and its iter (a SegMap's Screma or
 * Scatter), or false. */
static bool soac_parts(IrExp *e, Var ***arrs, int *narrs, Lambda **lam, Var **iter) {
    if (e->kind == IE_SCREMA) {
        *arrs = e->screma.arrs, *narrs = e->screma.narrs, *lam = e->screma.map, *iter = e->screma.iter;
        return true;
    }
    if (e->kind == IE_SCATTER) {
        *arrs = e->scatter.arrs, *narrs = e->scatter.narrs, *lam = e->scatter.lam, *iter = e->scatter.iter;
        return true;
    }
    return false;
}

/* Gives input j of s a transposed copy (appended to out) when it pays. */
static void coalesce_input(Prog *p, Stm *s, Var **arrs, Lambda *lam, Var *iter, int j, StmVec *out) {
    Arena *a = p->arena;
    Var *arr = arrs[j], *row = lam->params[j];
    if (row->type.kind != TK_ARRAY || !rows_apart(arr)) return;
    Lmad *l = outer_innermost(a, arr->type);
    Relayout r = {a, NEW_ARRAY(a, MemInfo *, p->next_var_id + 1), p->next_var_id + 1, {0}, 1, 0, true};
    LmadSlice fix = {.is_index = true, .index = sym_var(a, iter->id)};
    rl_set(&r, row, lmad_slice(a, l, &fix, 1));
    rl_body(&r, lam->body, 0);
    if (r.ok && pays(arr, r.reads)) {
        arrs[j] = transposed_copy(p, out, arr, l, s->loc);
        for (int i = 0; i < r.views.len; i++) {
            Var *v = r.views.items[i];
            v->mem = r.place[v->id];
            v->mem->mem = arrs[j]->mem->mem;
        }
    }
    vec_free(&r.views);
}

Stm **coalesce_inputs(Prog *p, Stm *s, int *n) {
    const SegInfo *g = s->e->seg;
    Var **arrs, *iter;
    Lambda *lam;
    int narrs;
    StmVec out = {0};
    if (g->kind == SEG_MAP && g->depth == 1 && !g->tile && soac_parts(s->e, &arrs, &narrs, &lam, &iter))
        for (int j = 0; j < narrs && j < lam->nparams; j++) coalesce_input(p, s, arrs, lam, iter, j, &out);
    *n = out.len;
    Stm **r = vec_to_arena(p->arena, &out);
    vec_free(&out);
    return r;
}
