/* SegRed as Imp kernels (gpu.h), and the strided loop and second kernel
 * that SegScan and SegHist share with it:
 *   - one reduction: every work-group reduces its share of the input
 *     (a strided loop per work-item when the operators commute,
 *     contiguous chunks in order otherwise, then a tree in local memory)
 *     into a partial result, and a second kernel of one group combines
 *     the partials in order (gl_red_final);
 *   - a segmented reduction (a map nest around a reduction over rows:
 *     each point of the nest is a segment) by the width of its segments:
 *     short ones a work-item each (a SegMap), medium and irregular ones
 *     (a CSR row) lanes of a work-group each, long ones one or more whole
 *     work-groups each, whose partial results a second kernel combines;
 *     the long segments of an irregular one (segred_irregular) equal
 *     shares of their chunks of about SEGRED_CHUNK elements per group.
 * The maps' scalar code around the reduction runs in every work-item of
 * a segment (it gives the segment's width and rows); a failure there
 * skips the segment, whose work-items still meet the group's barriers. */
#include "gpu.h"

/* Segments of a regular segmented reduction at least SEGRED_GROUP_MIN
 * long get several lanes of a work-group each, about one per
 * SEG_MIN_ITEMS elements; shorter ones are reduced by one work-item each
 * (lanes would idle). Segments of SEGRED_LANES_BELOW elements or more
 * would get a whole default group (256 lanes) that way and take the
 * work-group kernel, which can also split a segment over several
 * groups. */
#define SEGRED_GROUP_MIN 64
#define SEGRED_LANES_BELOW 2048
/* Elements a lane folds at least (runtime/opencl.h's RT_CL_SEG_MIN_ITEMS). */
#define SEG_MIN_ITEMS 8
/* The fewest lanes per segment of an irregular segmented reduction (more
 * when there are too few segments to fill the device; tuning parameter
 * segred_lanes_K.lanes): on an H100, CSR rows of 0-32 elements took 0.35
 * ms with 1 lane, 0.29 with 2, 0.26 with 4, 0.27 with 8, 0.30 with 16 and
 * 0.45 with 32 (fewer lanes leave rows' reads uncoalesced, more leave
 * lanes idle and add tree steps). */
#define SEGRED_LANES_MIN 4
/* ... and about one lane per SEGRED_LANE_ITEMS elements of an average
 * segment, at most SEGRED_LANES_AVG_MAX, when the average is known
 * (irregular_lanes): on an H100, 10^6 rows of 0-1,000 elements took 1.56
 * ms with 4 lanes, 1.34 with 8, 1.25 with 16, 1.28 with 32, 1.52 with 64. */
#define SEGRED_LANE_ITEMS 32
#define SEGRED_LANES_AVG_MAX 32
/* A segment of an irregular segmented reduction is long when it has more
 * than SEGRED_LONG_ITEMS elements per lane: its lanes leave it to whole
 * work-groups (segred_irregular), so that one long segment among many
 * short ones does not keep a few lanes busy while the device idles. */
#define SEGRED_LONG_ITEMS 256

/* Work-groups reduce a long segment in chunks of SEGRED_CHUNK elements
 * (64 per work-item of a group of 256). */
#define SEGRED_CHUNK 16384

/* The long segments of an irregular segmented reduction, which its lanes
 * kernel leaves to work-groups, as host variables or a kernel's
 * parameters: count (a device block of one i64, chunks << 32 | segments,
 * summed), list, base and done (per slot, its segment's number, first
 * chunk, in the order the slots were taken, so that the first chunks
 * ascend, and how many work-groups have left their part of it in
 * segred_chunks, zeroed as the slot is taken); in segred_chunks, n (how
 * many long segments) and chunks (how many chunks), read from count; in
 * the lanes kernel, least (the least width of a long segment) and local
 * (two i64 of local memory). */
typedef struct Long {
    ImpVar *count, *list, *base, *done, *n, *chunks, *least, *local;
} Long;

/* ---- Elements ---------------------------------------------------------------------------- */

/* The first nv results of a lambda's body into variables, and a Screma's
 * map outputs (the results after them) at its row. */
typedef struct ValsCtx {
    const Stm *s;
    int nv;
    ImpVar **dst;
} ValsCtx;

static void res_vals(ImpLower *L, const Body *b, void *ctx) {
    const ValsCtx *x = ctx;
    for (int j = 0; j < x->nv; j++) imp_assign(L->b, x->dst[j], lw_se(L, b->res[j]));
    if (x->s->e->kind == IE_SCREMA) lw_map_outputs(L, x->s, b, x->nv);
}

ImpVar **gl_element(ImpLower *L, const Stm *s, const Lambda *lam, Var **arrs, const Var *iter, ImpExp *i,
                        const PrimType *ts, int nv) {
    ImpVar **vals = gl_lets(L, "v", ts, nv, NULL);
    LwNest n;
    ImpStm *sc = gl_scope(L, &n);
    lw_declare(L, iter, i);
    lw_bind_rows(L, lam, arrs, iter);
    ValsCtx x = {s, nv, vals};
    lw_body(L, lam->body, res_vals, &x, NULL, 0);
    sc->body = lw_leave(L, &n);
    return vals;
}

void gl_strided(ImpLower *L, GlStride st, const Stm *s, const Lambda *lam, Var **arrs, const Var *iter,
                const PrimType *ts, int nv, GlCombine combine, void *ctx) {
    Arena *a = L->a;
    ImpVar *i0 = gl_let(L, "i0", PT_I64, st.start);
    ImpExp *last = gl_op(L, OP_ADD, imp_read(a, i0), gl_op(L, OP_MUL, gl_i64(L, GL_UNROLL - 1), st.stride));
    LwNest n;
    ImpStm *w = gl_while(L, &n, imp_op2(a, OP_LT, PT_I64, last, st.n));
    ImpVar **vals[GL_UNROLL];
    for (int u = 0; u < GL_UNROLL; u++) {
        ImpExp *i = gl_op(L, OP_ADD, imp_read(a, i0), gl_op(L, OP_MUL, gl_i64(L, u), st.stride));
        vals[u] = gl_element(L, s, lam, arrs, iter, i, ts, nv);
    }
    for (int u = 0; u < GL_UNROLL; u++) combine(L, gl_reads(L, vals[u], nv), ctx);
    imp_assign(L->b, i0, gl_op(L, OP_ADD, imp_read(a, i0), gl_op(L, OP_MUL, gl_i64(L, GL_UNROLL), st.stride)));
    w->body = lw_leave(L, &n);
    /* the rest, one by one */
    w = gl_while(L, &n, imp_op2(a, OP_LT, PT_I64, imp_read(a, i0), st.n));
    combine(L, gl_reads(L, gl_element(L, s, lam, arrs, iter, imp_read(a, i0), ts, nv), nv), ctx);
    imp_assign(L->b, i0, gl_op(L, OP_ADD, imp_read(a, i0), st.stride));
    w->body = lw_leave(L, &n);
}

/* ---- Group reductions --------------------------------------------------------------------- */

/* A reduction's operators and accumulators (a GlCombine's state). */
typedef struct Reds {
    const SegOp *ops;
    int nops;
    ImpVar **accs;
} Reds;

static void combine_reds(ImpLower *L, ImpExp **vals, void *ctx) {
    Reds *r = ctx;
    int nv;
    gl_op_types(L, r->ops, r->nops, &nv);
    gl_apply(L, r->ops, r->nops, gl_reads(L, r->accs, nv), vals, r->accs);
}

ImpStm *gl_for_chunk(ImpLower *L, LwNest *n, GlStride st, ImpExp **i) {
    Arena *a = L->a;
    ImpExp *chunk = gl_div_up(L, st.n, st.stride);
    ImpVar *lo = gl_let(L, "lo", PT_I64, gl_op(L, OP_MUL, st.start, chunk));
    ImpVar *hi = gl_let(L, "hi", PT_I64, gl_op(L, OP_MIN, gl_op(L, OP_ADD, imp_read(a, lo), chunk), st.n));
    ImpVar *c = lw_fresh(L, "c", IMP_SCALAR, PT_I64);
    ImpStm *f = lw_for(L, n, c, gl_op(L, OP_SUB, imp_read(a, hi), imp_read(a, lo)));
    *i = gl_op(L, OP_ADD, imp_read(a, lo), imp_read(a, c));
    return f;
}

void gl_group_reduce(ImpLower *L, const Stm *rs, GlStride st, GlTree t, ImpVar **locs) {
    const Screma *sc = &rs->e->screma;
    int nv;
    PrimType *ts = gl_op_types(L, sc->reds, sc->nreds, &nv);
    Reds r = {sc->reds, sc->nreds, gl_lets(L, "acc", ts, nv, gl_neutrals(L, sc->reds, sc->nreds, nv))};
    if (gl_commutative(sc->reds, sc->nreds)) {
        gl_strided(L, st, rs, sc->map, sc->arrs, sc->iter, ts, nv, combine_reds, &r);
    } else {
        LwNest n;
        ImpExp *i;
        ImpStm *f = gl_for_chunk(L, &n, st, &i);
        combine_reds(L, gl_reads(L, gl_element(L, rs, sc->map, sc->arrs, sc->iter, i, ts, nv), nv), &r);
        f->body = lw_leave(L, &n);
    }
    gl_stores(L, locs, ts, nv, t.ix, gl_reads(L, r.accs, nv));
    gl_tree(L, sc->reds, sc->nreds, locs, ts, nv, t);
}

/* The blocks mems as parameters of kb. */
static ImpVar **kb_blocks(ImpLower *L, Kb *kb, ImpVar **mems, int n) {
    ImpVar **ps = NEW_ARRAY(L->a, ImpVar *, n + 1);
    for (int j = 0; j < n; j++) ps[j] = kb_block(L, kb, mems[j]->name, mems[j]);
    return ps;
}

/* Kernel: a new i64 variable of the work-item's position t. */
static ImpVar *thread(ImpLower *L, const char *name, ImpThread t) { return gl_let(L, name, PT_I64, imp_thread(L->a, t)); }

/* ---- One reduction -------------------------------------------------------------------------- */

void gl_red_final(ImpLower *L, const Stm *s, const SegOp *ops, int nops, ImpVar **parts, ImpExp *groups, ImpExp *size) {
    Arena *a = L->a;
    int nv;
    PrimType *ts = gl_op_types(L, ops, nops, &nv);
    ImpVar *res = gl_results(L, nv, s->loc);
    Kb kb;
    kb_begin(L, &kb, "segred_final", s->e->seg);
    kb_free_vars(L, &kb, size, s->loc);
    ImpVar *ngroups = kb_scalar(L, &kb, "ngroups", PT_I64, groups);
    ImpVar **kparts = kb_blocks(L, &kb, parts, nv);
    ImpVar **locs = gl_locals(L, &kb, "loc", ts, nv, size);
    ImpVar *kres = kb_block(L, &kb, "res", res);

    kb_enter(L, &kb);
    ImpVar *ltid = thread(L, "ltid", IMP_LOCAL_ID), *lsize = thread(L, "lsize", IMP_LOCAL_SIZE);
    kb_prologue(L, &kb, sym_const(a, 0));
    Reds r = {ops, nops, gl_lets(L, "acc", ts, nv, gl_neutrals(L, ops, nops, nv))};
    GlStride st = {imp_read(a, ltid), imp_read(a, lsize), imp_read(a, ngroups)};
    LwNest cn;
    ImpExp *i;
    ImpStm *f = gl_for_chunk(L, &cn, st, &i);
    combine_reds(L, gl_loads(L, kparts, ts, nv, i), &r);
    f->body = lw_leave(L, &cn);
    gl_stores(L, locs, ts, nv, imp_read(a, ltid), gl_reads(L, r.accs, nv));
    GlTree t = {imp_read(a, ltid), imp_read(a, ltid), imp_read(a, lsize)};
    gl_tree(L, ops, nops, locs, ts, nv, t);
    LwNest n;
    ImpStm *first = gl_if(L, &n, imp_op2(a, OP_EQ, PT_I64, imp_read(a, ltid), gl_i64(L, 0)));
    for (int j = 0; j < nv; j++) imp_store(L->b, kres, ts[j], gl_result_slot(L, j, ts[j]), imp_load(a, locs[j], ts[j], gl_i64(L, 0)));
    first->body = lw_leave(L, &n);
    kb_leave(L, &kb);

    kb_launch(L, &kb, gl_i64(L, 1), size);
    kb_release(L, &kb);
    gl_read_results(L, s, res);
    gl_release(L, parts, nv);
}

/* A SegRed of depth 1: every group reduces its share of the input into a
 * partial result, which gl_red_final combines. */
static void seg_red(ImpLower *L, const Stm *s) {
    const Screma *sc = &s->e->screma;
    Arena *a = L->a;
    int nv;
    PrimType *ts = gl_op_types(L, sc->reds, sc->nreds, &nv);
    Kb kb;
    kb_begin(L, &kb, "segred", s->e->seg);
    ImpVar *n = gl_let(L, "n", PT_I64, lw_se(L, sc->w));
    ImpVar *size = gl_let(L, "group_size", PT_I64, imp_tuning(a, kb.k, IMP_TUNE_GROUP_SIZE, NULL));
    ImpExp *ng_args[] = {imp_read(a, n), imp_read(a, size)};
    ImpVar *groups = gl_let(L, "groups", PT_I64, imp_tuning(a, kb.k, IMP_TUNE_NUM_GROUPS, ng_args));
    ImpVar **parts = gl_blocks(L, "part", ts, nv, imp_read(a, groups), s->loc);
    kb_free_vars(L, &kb, gl_op(L, OP_MUL, imp_read(a, groups), imp_read(a, size)), s->loc);
    ImpVar *kn = kb_scalar(L, &kb, "n", PT_I64, imp_read(a, n));
    ImpVar **kparts = kb_blocks(L, &kb, parts, nv);
    ImpVar **locs = gl_locals(L, &kb, "loc", ts, nv, imp_read(a, size));

    kb_enter(L, &kb);
    ImpVar *tid = thread(L, "tid", IMP_GLOBAL_ID), *nthreads = thread(L, "nthreads", IMP_GLOBAL_SIZE);
    ImpVar *ltid = thread(L, "ltid", IMP_LOCAL_ID), *lsize = thread(L, "lsize", IMP_LOCAL_SIZE);
    kb_prologue(L, &kb, gl_sym(L, tid));
    GlStride st = {imp_read(a, tid), imp_read(a, nthreads), imp_read(a, kn)};
    GlTree t = {imp_read(a, ltid), imp_read(a, ltid), imp_read(a, lsize)};
    gl_group_reduce(L, s, st, t, locs);
    LwNest in;
    ImpStm *first = gl_if(L, &in, imp_op2(a, OP_EQ, PT_I64, imp_read(a, ltid), gl_i64(L, 0)));
    gl_stores(L, kparts, ts, nv, imp_thread(a, IMP_GROUP_ID), gl_loads(L, locs, ts, nv, gl_i64(L, 0)));
    first->body = lw_leave(L, &in);
    kb_leave(L, &kb);

    kb_launch(L, &kb, imp_read(a, groups), imp_read(a, size));
    gl_red_final(L, s, sc->reds, sc->nreds, parts, imp_read(a, groups), imp_read(a, size));
    kb_release(L, &kb);
}

/* ---- Segmented reductions --------------------------------------------------------------------- */

/* The segment seg (an i64 expression) of segmented reduction s in a
 * kernel, up to its reduction: the iterators of the map nest's levels,
 * the outer levels' code, and the innermost map's rows and code before
 * the reduction (which gives the segment's width and rows). Returns the
 * index of the reduction in the innermost map's body. */
static int segment_prefix(ImpLower *L, const Stm *s, ImpExp *seg) {
    const SegInfo *g = s->e->seg;
    const Stm *rs = g->levels[g->depth - 1], *ls = g->levels[g->depth - 2];
    ImpVar *sv = gl_let(L, "seg", PT_I64, seg);
    gl_level_iters(L, g, g->depth - 1, gl_sym(L, sv));
    gl_outer_levels(L, g, g->depth - 2);
    const Screma *sc = &ls->e->screma;
    lw_bind_rows(L, sc->map, sc->arrs, sc->iter);
    const Body *b = sc->map->body;
    int at = 0;
    while (b->stms[at] != rs) lw_stm(L, b->stms[at++]);
    return at;
}

/* After the reduction of a segment gave its values vals, for the
 * work-items where cond holds: the innermost map's code after the
 * reduction (from at) and its outputs at the segment's row. */
static void segment_suffix(ImpLower *L, const Stm *s, int at, ImpExp **vals, ImpExp *cond) {
    const SegInfo *g = s->e->seg;
    const Stm *rs = g->levels[g->depth - 1], *ls = g->levels[g->depth - 2];
    LwNest n, in;
    ImpStm *when = gl_if(L, &n, cond);
    ImpStm *sc = gl_scope(L, &in);
    for (int v = 0; v < rs->npat && rs->pat[v]->type.kind == TK_PRIM; v++) lw_declare(L, rs->pat[v], vals[v]);
    const Body *b = ls->e->screma.map->body;
    for (int i = at + 1; i < b->nstms; i++) lw_stm(L, b->stms[i]);
    lw_map_outputs(L, ls, b, 0);
    sc->body = lw_leave(L, &in);
    when->body = lw_leave(L, &n);
}

static ImpStm *atomic(ImpLower *L, ImpVar *mem, ImpExp *index, ImpAtomic op, ImpExp *value, const char *old) {
    ImpStm *at = imp_add(L->b, IMP_ATOMIC);
    at->var = old ? lw_fresh(L, old, IMP_SCALAR, PT_I64) : NULL;
    at->mem = mem, at->index = index, at->t = PT_I64, at->atomic = op, at->value = value;
    return at;
}

/* In segred_lanes' kernel (lg: its parameters), after segment seg's code
 * gave its width m (0 when it failed, ok false): a long segment is left
 * to segred_chunks, its lanes reduce nothing and write nothing, and it
 * takes a slot of lg->list and lg->base and its chunks. The group sums
 * its long segments and their chunks (packed as in Long.count) in local
 * memory and takes them with one atomic addition to lg->count, so that
 * slots and chunks are taken in the same order. Every work-item meets
 * the barriers. */
static void long_segments(ImpLower *L, const Long *lg, ImpVar *seg, ImpVar *m, ImpVar *ok, ImpVar *lane0) {
    Arena *a = L->a;
    ImpVar *big = gl_let(L, "long", PT_BOOL, imp_op2(a, OP_GT, PT_I64, imp_read(a, m), imp_read(a, lg->least)));
    ImpVar *ltid = gl_let(L, "ltid", PT_I64, imp_thread(a, IMP_LOCAL_ID));
    ImpVar *mine = gl_let(L, "mine", PT_BOOL, imp_op2(a, OP_LAND, PT_BOOL, imp_read(a, big), imp_read(a, lane0)));
    ImpVar *off = gl_let(L, "off", PT_I64, gl_i64(L, 0));
    LwNest n;
    ImpStm *first = gl_if(L, &n, imp_op2(a, OP_EQ, PT_I64, imp_read(a, ltid), gl_i64(L, 0)));
    imp_store(L->b, lg->local, PT_I64, gl_i64(L, 0), gl_i64(L, 0));
    first->body = lw_leave(L, &n);
    gl_barrier(L);
    ImpStm *take = gl_if(L, &n, imp_read(a, mine));
    ImpExp *chunks = gl_div_up(L, imp_read(a, m), gl_i64(L, SEGRED_CHUNK));
    ImpExp *packed = gl_op(L, OP_ADD, gl_op(L, OP_SHL, chunks, gl_i64(L, 32)), gl_i64(L, 1));
    imp_assign(L->b, off, imp_read(a, atomic(L, lg->local, gl_i64(L, 0), IMP_AT_ADD, packed, "o")->var));
    take->body = lw_leave(L, &n);
    gl_barrier(L);
    /* a group without long segments takes nothing (no atomic on the one count) */
    ImpVar *sum = gl_let(L, "sum", PT_I64, imp_load(a, lg->local, PT_I64, gl_i64(L, 0)));
    first = gl_if(L, &n, imp_op2(a, OP_LAND, PT_BOOL, imp_op2(a, OP_EQ, PT_I64, imp_read(a, ltid), gl_i64(L, 0)),
                                 imp_op2(a, OP_NE, PT_I64, imp_read(a, sum), gl_i64(L, 0))));
    imp_store(L->b, lg->local, PT_I64, gl_i64(L, 1), imp_read(a, atomic(L, lg->count, gl_i64(L, 0), IMP_AT_ADD, imp_read(a, sum), "base")->var));
    first->body = lw_leave(L, &n);
    gl_barrier(L);
    take = gl_if(L, &n, imp_read(a, mine));
    ImpVar *at = gl_let(L, "at", PT_I64, gl_op(L, OP_ADD, imp_load(a, lg->local, PT_I64, gl_i64(L, 1)), imp_read(a, off)));
    ImpVar *slot = gl_let(L, "slot", PT_I64, gl_op(L, OP_AND, imp_read(a, at), gl_i64(L, 0xffffffff)));
    imp_store(L->b, lg->list, PT_I64, imp_read(a, slot), imp_read(a, seg));
    imp_store(L->b, lg->base, PT_I64, imp_read(a, slot), gl_op(L, OP_LSHR, imp_read(a, at), gl_i64(L, 32)));
    imp_store(L->b, lg->done, PT_I64, imp_read(a, slot), gl_i64(L, 0));
    take->body = lw_leave(L, &n);
    ImpStm *drop = gl_if(L, &n, imp_read(a, big));
    imp_assign(L->b, m, gl_i64(L, 0));
    imp_assign(L->b, ok, imp_const(a, prim_bool(false)));
    drop->body = lw_leave(L, &n);
}

/* A segmented reduction whose segments lanes work-items of a group take
 * each: an irregular one (at least SEGRED_LANES_MIN lanes), or a regular
 * one of medium segments (enough lanes that each folds about
 * SEG_MIN_ITEMS elements); lanes_min is that least number (a host
 * expression, a power of two), and more are taken when there are too few
 * segments to fill the device. All lanes run the maps' code up to the
 * reduction, fold the segment's elements strided by lanes, and combine
 * their values in a tree of their own; lane 0 runs the rest and writes the
 * results. A segment whose code failed, and lanes past the last segment,
 * reduce nothing but still meet the group's barriers. */
static void segred_lanes(ImpLower *L, const Stm *s, ImpExp *lanes_min, const Long *lg) {
    const SegInfo *g = s->e->seg;
    const Stm *rs = g->levels[g->depth - 1];
    const Screma *rc = &rs->e->screma;
    Arena *a = L->a;
    int nv;
    PrimType *ts = gl_op_types(L, rc->reds, rc->nreds, &nv);
    Kb kb;
    kb_begin(L, &kb, "segred_lanes", g);
    ImpVar *nseg = gl_let(L, "nseg", PT_I64, imp_sym(a, gl_space(L, g, g->depth - 1)));
    ImpVar *size = gl_let(L, "group_size", PT_I64, imp_tuning(a, kb.k, IMP_TUNE_GROUP_SIZE, NULL));
    ImpExp *lanes_args[] = {imp_read(a, nseg), imp_read(a, size), lanes_min};
    ImpVar *lanes = gl_let(L, "lanes", PT_I64, imp_tuning(a, kb.k, IMP_TUNE_LANES, lanes_args));
    ImpExp *items = gl_op(L, OP_MUL, imp_read(a, nseg), imp_read(a, lanes));
    ImpVar *groups = gl_let(L, "groups", PT_I64, gl_div_up(L, items, imp_read(a, size)));
    kb_free_vars(L, &kb, gl_op(L, OP_MUL, imp_read(a, groups), imp_read(a, size)), s->loc);
    ImpVar *knseg = kb_scalar(L, &kb, "nseg", PT_I64, imp_read(a, nseg));
    ImpVar *klanes = kb_scalar(L, &kb, "lanes", PT_I64, imp_read(a, lanes));
    ImpVar **locs = gl_locals(L, &kb, "loc", ts, nv, imp_read(a, size));
    Long klg;
    if (lg) {
        ImpExp *least = gl_op(L, OP_MUL, imp_read(a, lanes), gl_i64(L, SEGRED_LONG_ITEMS));
        klg = (Long){kb_block(L, &kb, "long_count", lg->count), kb_block(L, &kb, "long_list", lg->list),
                     kb_block(L, &kb, "long_base", lg->base), kb_block(L, &kb, "long_done", lg->done), NULL, NULL,
                     kb_scalar(L, &kb, "long_min", PT_I64, least), kb_local(L, &kb, "long_local", PT_I64, gl_i64(L, 2))};
        lg = &klg;
    }

    kb_enter(L, &kb);
    ImpVar *tid = thread(L, "tid", IMP_GLOBAL_ID), *ltid = thread(L, "ltid", IMP_LOCAL_ID);
    ImpVar *lane = gl_let(L, "lane", PT_I64, gl_op(L, OP_AND, imp_read(a, ltid), gl_op(L, OP_SUB, imp_read(a, klanes), gl_i64(L, 1))));
    kb_prologue(L, &kb, gl_sym(L, tid));
    ImpVar *seg = gl_let(L, "segment", PT_I64, gl_op(L, OP_DIV, imp_read(a, tid), imp_read(a, klanes)));
    ImpVar *m = gl_let(L, "m", PT_I64, gl_i64(L, 0));
    ImpVar *ok = gl_let(L, "ok", PT_BOOL, imp_const(a, prim_bool(false)));
    /* Lanes past the last segment run the last one's code (the launch has
     * no work-items when there are no segments) but reduce nothing. */
    LwNest rn, in;
    ImpStm *region = gl_region(L, &rn);
    ImpExp *last = gl_op(L, OP_SUB, imp_read(a, knseg), gl_i64(L, 1));
    int at = segment_prefix(L, s, gl_op(L, OP_MIN, imp_read(a, seg), last));
    ImpStm *live = gl_if(L, &in, imp_op2(a, OP_LT, PT_I64, imp_read(a, seg), imp_read(a, knseg)));
    imp_assign(L->b, m, lw_se(L, rc->w));
    imp_assign(L->b, ok, imp_const(a, prim_bool(true)));
    live->body = lw_leave(L, &in);
    region->body = lw_leave(L, &rn);
    ImpVar *lane0 = gl_let(L, "lane0", PT_BOOL, imp_op2(a, OP_EQ, PT_I64, imp_read(a, lane), gl_i64(L, 0)));
    if (lg) long_segments(L, lg, seg, m, ok, lane0);
    GlStride st = {imp_read(a, lane), imp_read(a, klanes), imp_read(a, m)};
    GlTree t = {imp_read(a, ltid), imp_read(a, lane), imp_read(a, klanes)};
    gl_group_reduce(L, rs, st, t, locs);
    ImpExp *lead = imp_op2(a, OP_LAND, PT_BOOL, imp_read(a, ok), imp_read(a, lane0));
    segment_suffix(L, s, at, gl_loads(L, locs, ts, nv, imp_read(a, ltid)), lead);
    kb_leave(L, &kb);

    kb_launch(L, &kb, imp_read(a, groups), imp_read(a, size));
    kb_release(L, &kb);
}

/* Kernel: the first chunk *lo of long segment slot (an i64 variable's
 * read) and the one after its last, *hi (lg: the kernel's parameters). */
static void slot_chunks(ImpLower *L, const Long *lg, ImpExp *slot, ImpVar **lo, ImpVar **hi) {
    Arena *a = L->a;
    ImpVar *sv = gl_let(L, "slot", PT_I64, slot);
    *lo = gl_let(L, "lo", PT_I64, imp_load(a, lg->base, PT_I64, imp_read(a, sv)));
    *hi = gl_let(L, "hi", PT_I64, imp_read(a, lg->chunks));
    LwNest n;
    ImpExp *next = gl_op(L, OP_ADD, imp_read(a, sv), gl_i64(L, 1));
    ImpStm *more = gl_if(L, &n, imp_op2(a, OP_LT, PT_I64, next, imp_read(a, lg->n)));
    imp_assign(L->b, *hi, imp_load(a, lg->base, PT_I64, gl_op(L, OP_ADD, imp_read(a, sv), gl_i64(L, 1))));
    more->body = lw_leave(L, &n);
}

/* The first of segred_chunks' chunks that work-group g (an expression)
 * takes: g * chunks / groups. */
static ImpExp *share_of(ImpLower *L, ImpExp *g, ImpVar *chunks, ImpVar *groups) {
    return gl_op(L, OP_DIV, gl_op(L, OP_MUL, g, imp_read(L->a, chunks)), imp_read(L->a, groups));
}

/* Kernel, after segment_prefix gave the segment's code up to the
 * reduction (at): the work-group folds the count partial results parts
 * from lo (the work-items take consecutive ones, combined in order in
 * locs), after the one at index head unless NULL, and its work-item 0
 * runs the code after the reduction. With idle (segred_chunks' chunks and
 * groups), the parts of groups whose share of the chunks is empty are
 * not there, and are skipped. */
static void fold_parts(ImpLower *L, const Stm *s, int at, ImpVar **parts, ImpVar *lo, ImpExp *count, ImpExp *head,
                       ImpVar **locs, ImpVar *const idle[2]) {
    const SegInfo *g = s->e->seg;
    const Screma *rc = &g->levels[g->depth - 1]->e->screma;
    Arena *a = L->a;
    int nv;
    PrimType *ts = gl_op_types(L, rc->reds, rc->nreds, &nv);
    ImpVar *ltid = thread(L, "ltid", IMP_LOCAL_ID), *lsize = thread(L, "lsize", IMP_LOCAL_SIZE);
    Reds r = {rc->reds, rc->nreds, gl_lets(L, "acc", ts, nv, gl_neutrals(L, rc->reds, rc->nreds, nv))};
    GlStride st = {imp_read(a, ltid), imp_read(a, lsize), count};
    LwNest cn;
    ImpExp *i;
    ImpStm *f = gl_for_chunk(L, &cn, st, &i);
    ImpVar *p = gl_let(L, "p", PT_I64, gl_op(L, OP_ADD, imp_read(a, lo), i));
    LwNest hn;
    ImpStm *has = idle ? gl_if(L, &hn, imp_op2(a, OP_LT, PT_I64, share_of(L, imp_read(a, p), idle[0], idle[1]),
                                               share_of(L, gl_op(L, OP_ADD, imp_read(a, p), gl_i64(L, 1)), idle[0], idle[1])))
                       : NULL;
    combine_reds(L, gl_loads(L, parts, ts, nv, imp_read(a, p)), &r);
    if (has) has->body = lw_leave(L, &hn);
    f->body = lw_leave(L, &cn);
    gl_stores(L, locs, ts, nv, imp_read(a, ltid), gl_reads(L, r.accs, nv));
    GlTree t = {imp_read(a, ltid), imp_read(a, ltid), imp_read(a, lsize)};
    gl_tree(L, rc->reds, rc->nreds, locs, ts, nv, t);
    ImpExp **vals = gl_loads(L, locs, ts, nv, gl_i64(L, 0));
    if (head) {
        Reds h = {rc->reds, rc->nreds, gl_lets(L, "head", ts, nv, gl_loads(L, parts, ts, nv, head))};
        combine_reds(L, vals, &h);
        vals = gl_reads(L, h.accs, nv);
    }
    segment_suffix(L, s, at, vals, imp_op2(a, OP_EQ, PT_I64, imp_read(a, ltid), gl_i64(L, 0)));
}

/* The second kernel of a segmented reduction whose segments took gps
 * work-groups each: a work-group per segment (nseg of them) combines the
 * groups' partial results parts in order, and its work-item 0 runs the
 * maps' code around the reduction again and writes the results. */
static void segred_combine(ImpLower *L, const Stm *s, ImpVar **parts, ImpVar *nseg, ImpVar *gps, ImpVar *size) {
    const SegInfo *g = s->e->seg;
    const Screma *rc = &g->levels[g->depth - 1]->e->screma;
    Arena *a = L->a;
    int nv;
    PrimType *ts = gl_op_types(L, rc->reds, rc->nreds, &nv);
    Kb kb;
    kb_begin(L, &kb, "segred_segments_final", g);
    kb_free_vars(L, &kb, gl_op(L, OP_MUL, imp_read(a, nseg), imp_read(a, size)), s->loc);
    ImpVar *kgps = kb_scalar(L, &kb, "gps", PT_I64, imp_read(a, gps));
    ImpVar **kparts = kb_blocks(L, &kb, parts, nv);
    ImpVar **locs = gl_locals(L, &kb, "loc", ts, nv, imp_read(a, size));

    kb_enter(L, &kb);
    ImpVar *tid = thread(L, "tid", IMP_GLOBAL_ID), *grp = thread(L, "grp", IMP_GROUP_ID);
    kb_prologue(L, &kb, gl_sym(L, tid));
    ImpVar *lo = gl_let(L, "lo", PT_I64, gl_op(L, OP_MUL, imp_read(a, grp), imp_read(a, kgps)));
    LwNest n;
    ImpStm *sc = gl_scope(L, &n);
    int at = segment_prefix(L, s, imp_read(a, grp));
    fold_parts(L, s, at, kparts, lo, imp_read(a, kgps), NULL, locs, NULL);
    sc->body = lw_leave(L, &n);
    kb_leave(L, &kb);

    kb_launch(L, &kb, imp_read(a, nseg), imp_read(a, size));
    kb_release(L, &kb);
}

/* Long segments: gps work-groups per segment read it coalesced and reduce
 * their parts of it in local memory; the maps' code runs in every
 * work-item (it is the same for the whole group, so a failure there
 * leaves the whole group together). With one group per segment its
 * work-item 0 writes the results; with several (few long segments, which
 * would leave the device idle), each group leaves a partial result that
 * segred_combine combines. */
static void segred_groups(ImpLower *L, const Stm *s) {
    const SegInfo *g = s->e->seg;
    const Stm *rs = g->levels[g->depth - 1];
    const Screma *rc = &rs->e->screma;
    Arena *a = L->a;
    int nv;
    PrimType *ts = gl_op_types(L, rc->reds, rc->nreds, &nv);
    Kb kb;
    kb_begin(L, &kb, "segred_segments", g);
    ImpVar *nseg = gl_let(L, "nseg", PT_I64, imp_sym(a, gl_space(L, g, g->depth - 1)));
    ImpVar *m = gl_let(L, "m", PT_I64, lw_se(L, rc->w));
    ImpVar *size = gl_let(L, "group_size", PT_I64, imp_tuning(a, kb.k, IMP_TUNE_GROUP_SIZE, NULL));
    ImpExp *gps_args[] = {imp_read(a, nseg), imp_read(a, m), imp_read(a, size)};
    ImpVar *gps = gl_let(L, "gps", PT_I64, imp_tuning(a, kb.k, IMP_TUNE_SEGMENT_GROUPS, gps_args));
    /* partial results only when segments take several groups */
    ImpVar *nparts = gl_let(L, "nparts", PT_I64, gl_i64(L, 1));
    LwNest pn;
    ImpStm *several = gl_if(L, &pn, imp_op2(a, OP_GT, PT_I64, imp_read(a, gps), gl_i64(L, 1)));
    imp_assign(L->b, nparts, gl_op(L, OP_MUL, imp_read(a, nseg), imp_read(a, gps)));
    several->body = lw_leave(L, &pn);
    ImpVar **parts = gl_blocks(L, "part", ts, nv, imp_read(a, nparts), s->loc);
    ImpVar *groups = gl_let(L, "groups", PT_I64, gl_op(L, OP_MUL, imp_read(a, nseg), imp_read(a, gps)));
    kb_free_vars(L, &kb, gl_op(L, OP_MUL, imp_read(a, groups), imp_read(a, size)), s->loc);
    ImpVar *km = kb_scalar(L, &kb, "m", PT_I64, imp_read(a, m));
    ImpVar *kgps = kb_scalar(L, &kb, "gps", PT_I64, imp_read(a, gps));
    ImpVar **kparts = kb_blocks(L, &kb, parts, nv);
    ImpVar **locs = gl_locals(L, &kb, "loc", ts, nv, imp_read(a, size));

    kb_enter(L, &kb);
    ImpVar *tid = thread(L, "tid", IMP_GLOBAL_ID), *grp = thread(L, "grp", IMP_GROUP_ID);
    ImpVar *ltid = thread(L, "ltid", IMP_LOCAL_ID), *lsize = thread(L, "lsize", IMP_LOCAL_SIZE);
    kb_prologue(L, &kb, gl_sym(L, tid));
    ImpVar *part = gl_let(L, "part", PT_I64, gl_op(L, OP_MOD, imp_read(a, grp), imp_read(a, kgps)));
    LwNest n, in;
    ImpStm *sc = gl_scope(L, &n);
    int at = segment_prefix(L, s, gl_op(L, OP_DIV, imp_read(a, grp), imp_read(a, kgps)));
    ImpExp *start = gl_op(L, OP_ADD, gl_op(L, OP_MUL, imp_read(a, part), imp_read(a, lsize)), imp_read(a, ltid));
    GlStride st = {start, gl_op(L, OP_MUL, imp_read(a, kgps), imp_read(a, lsize)), imp_read(a, km)};
    GlTree t = {imp_read(a, ltid), imp_read(a, ltid), imp_read(a, lsize)};
    gl_group_reduce(L, rs, st, t, locs);
    ImpStm *split = gl_if(L, &in, imp_op2(a, OP_GT, PT_I64, imp_read(a, kgps), gl_i64(L, 1)));
    LwNest first;
    ImpStm *lead = gl_if(L, &first, imp_op2(a, OP_EQ, PT_I64, imp_read(a, ltid), gl_i64(L, 0)));
    gl_stores(L, kparts, ts, nv, imp_read(a, grp), gl_loads(L, locs, ts, nv, gl_i64(L, 0)));
    lead->body = lw_leave(L, &first);
    split->body = lw_leave(L, &in);
    lw_enter(L, &in);
    segment_suffix(L, s, at, gl_loads(L, locs, ts, nv, gl_i64(L, 0)),
                   imp_op2(a, OP_EQ, PT_I64, imp_read(a, ltid), gl_i64(L, 0)));
    split->orelse = lw_leave(L, &in);
    sc->body = lw_leave(L, &n);
    kb_leave(L, &kb);

    kb_launch(L, &kb, imp_read(a, groups), imp_read(a, size));
    LwNest cn;
    ImpStm *combine = gl_if(L, &cn, imp_op2(a, OP_GT, PT_I64, imp_read(a, gps), gl_i64(L, 1)));
    segred_combine(L, s, parts, nseg, gps, size);
    combine->body = lw_leave(L, &cn);
    gl_release(L, parts, nv);
    kb_release(L, &kb);
}

/* Kernel: the last of the long segments' slots 0 .. n-1 whose first
 * chunk (base, ascending) is at most chunk c: a binary search. */
static ImpVar *slot_of(ImpLower *L, const Long *lg, ImpExp *c) {
    Arena *a = L->a;
    ImpVar *lo = gl_let(L, "lo", PT_I64, gl_i64(L, 0)), *hi = gl_let(L, "hi", PT_I64, imp_read(a, lg->n));
    ImpVar *chunk = gl_let(L, "chunk", PT_I64, c);
    LwNest n, in;
    ImpStm *w = gl_while(L, &n, imp_op2(a, OP_GT, PT_I64, gl_op(L, OP_SUB, imp_read(a, hi), imp_read(a, lo)), gl_i64(L, 1)));
    ImpVar *mid = gl_let(L, "mid", PT_I64, gl_op(L, OP_DIV, gl_op(L, OP_ADD, imp_read(a, lo), imp_read(a, hi)), gl_i64(L, 2)));
    ImpStm *le = gl_if(L, &in, imp_op2(a, OP_LE, PT_I64, imp_load(a, lg->base, PT_I64, imp_read(a, mid)), imp_read(a, chunk)));
    imp_assign(L->b, lo, imp_read(a, mid));
    le->body = lw_leave(L, &in);
    lw_enter(L, &in);
    imp_assign(L->b, hi, imp_read(a, mid));
    le->orelse = lw_leave(L, &in);
    w->body = lw_leave(L, &n);
    return lo;
}

/* Kernel: the long segments' count (Long.count) unpacked into n and
 * chunks, which every work-item reads. */
static void long_counts(ImpLower *L, const Long *kl, ImpVar **n, ImpVar **chunks) {
    Arena *a = L->a;
    ImpVar *packed = gl_let(L, "packed", PT_I64, imp_load(a, kl->count, PT_I64, gl_i64(L, 0)));
    *n = gl_let(L, "nlong", PT_I64, gl_op(L, OP_AND, imp_read(a, packed), gl_i64(L, 0xffffffff)));
    *chunks = gl_let(L, "chunks", PT_I64, gl_op(L, OP_LSHR, imp_read(a, packed), gl_i64(L, 32)));
}

/* segred_chunks' parameters of the long segments: count, list, base and
 * done (n and chunks are long_counts'). */
static Long long_params(ImpLower *L, Kb *kb, const Long *lg) {
    return (Long){kb_block(L, kb, "long_count", lg->count), kb_block(L, kb, "long_list", lg->list),
                  kb_block(L, kb, "long_base", lg->base), kb_block(L, kb, "long_done", lg->done), NULL, NULL, NULL, NULL};
}

/* The work-group whose share of the chunks (the chunks from g * chunks /
 * groups to (g + 1) * chunks / groups) holds chunk c. */
static ImpExp *group_of(ImpLower *L, ImpExp *c, ImpVar *chunks, ImpVar *groups) {
    Arena *a = L->a;
    ImpExp *up = gl_op(L, OP_SUB, gl_op(L, OP_MUL, gl_op(L, OP_ADD, c, gl_i64(L, 1)), imp_read(a, groups)), gl_i64(L, 1));
    return gl_op(L, OP_DIV, up, imp_read(a, chunks));
}

/* In segred_chunks, after work-group grp left its part of the long
 * segment in slot (its chunks lo .. hi - 1) that other groups share:
 * the group counts itself in k->done[slot] (its part's store before the
 * count, a fence between), and the last of the segment's groups to count
 * (every group that holds some of its chunks: all groups from the first
 * chunk's, glo, to the last's, ghi, but, when there are fewer chunks than
 * groups, only those of its chunks') folds their parts in order, glo's
 * (its first part when the segment begins its share, else its last) then
 * the others' first ones, and writes the segment's results. The parts
 * are volatile: other groups store them as the kernel runs. */
static void fold_split(ImpLower *L, const Stm *s, int at, const Long *k, ImpVar **parts, ImpVar *groups,
                       ImpVar *slot, ImpVar *lo, ImpVar *hi, ImpVar *last, ImpVar **locs) {
    Arena *a = L->a;
    ImpVar *ltid = thread(L, "ltid", IMP_LOCAL_ID);
    ImpVar *glo = gl_let(L, "glo", PT_I64, group_of(L, imp_read(a, lo), k->chunks, groups));
    ImpVar *ghi = gl_let(L, "ghi", PT_I64, group_of(L, gl_op(L, OP_SUB, imp_read(a, hi), gl_i64(L, 1)), k->chunks, groups));
    ImpExp *holders = gl_op(L, OP_MIN, gl_op(L, OP_ADD, gl_op(L, OP_SUB, imp_read(a, ghi), imp_read(a, glo)), gl_i64(L, 1)),
                            gl_op(L, OP_SUB, imp_read(a, hi), imp_read(a, lo)));
    LwNest n;
    ImpStm *lead = gl_if(L, &n, imp_op2(a, OP_EQ, PT_I64, imp_read(a, ltid), gl_i64(L, 0)));
    imp_add(L->b, IMP_FENCE);
    ImpVar *old = atomic(L, k->done, imp_read(a, slot), IMP_AT_ADD, gl_i64(L, 1), "counted")->var;
    imp_add(L->b, IMP_FENCE);
    ImpExp *is_last = imp_op2(a, OP_EQ, PT_I64, imp_read(a, old), gl_op(L, OP_SUB, holders, gl_i64(L, 1)));
    imp_store(L->b, last, PT_I64, gl_i64(L, 0), imp_conv(a, PT_BOOL, PT_I64, is_last));
    lead->body = lw_leave(L, &n);
    gl_barrier(L);
    ImpStm *folds = gl_if(L, &n, imp_op2(a, OP_NE, PT_I64, imp_load(a, last, PT_I64, gl_i64(L, 0)), gl_i64(L, 0)));
    ImpVar *head = gl_let(L, "head", PT_I64, gl_op(L, OP_ADD, imp_read(a, glo), imp_read(a, groups)));
    LwNest hn;
    ImpStm *begins = gl_if(L, &hn, imp_op2(a, OP_EQ, PT_I64, imp_read(a, lo), share_of(L, imp_read(a, glo), k->chunks, groups)));
    imp_assign(L->b, head, imp_read(a, glo));
    begins->body = lw_leave(L, &hn);
    ImpVar *from = gl_let(L, "from", PT_I64, gl_op(L, OP_ADD, imp_read(a, glo), gl_i64(L, 1)));
    ImpVar *idle[2] = {k->chunks, groups};
    fold_parts(L, s, at, parts, from, gl_op(L, OP_SUB, imp_read(a, ghi), imp_read(a, glo)), imp_read(a, head), locs, idle);
    folds->body = lw_leave(L, &n);
    gl_barrier(L);
}

/* The long segments of an irregular segmented reduction (segred_lanes
 * left them, in chunks of about SEGRED_CHUNK elements), in a fixed number
 * of work-groups that read the counts from the device (the host reads
 * nothing): work-group g takes the chunks from g * chunks / groups to the
 * next group's first one, in order, each as segred_groups' groups take
 * their part of a segment (coalesced strides over the whole segment when
 * the operators commute, consecutive elements in order otherwise), and
 * folds a segment's chunks as it goes. A segment whose chunks are all the
 * group's gets its results written; else the group leaves its part in
 * parts, at g when the segment is the group's first one, else (its last)
 * at groups + g, and the last of the segment's groups to leave its
 * part combines them (fold_split). */
static void segred_chunks(ImpLower *L, const Stm *s, const Long *lg) {
    const SegInfo *g = s->e->seg;
    const Stm *rs = g->levels[g->depth - 1];
    const Screma *rc = &rs->e->screma;
    Arena *a = L->a;
    int nv;
    PrimType *ts = gl_op_types(L, rc->reds, rc->nreds, &nv);
    Kb kb;
    kb_begin(L, &kb, "segred_chunks", g);
    ImpVar *size = gl_let(L, "group_size", PT_I64, imp_tuning(a, kb.k, IMP_TUNE_GROUP_SIZE, NULL));
    ImpExp *ng_args[] = {gl_i64(L, (int64_t)1 << 40), imp_read(a, size)};
    ImpVar *groups = gl_let(L, "groups", PT_I64, imp_tuning(a, kb.k, IMP_TUNE_NUM_GROUPS, ng_args));
    ImpVar **parts = gl_blocks(L, "part", ts, nv, gl_op(L, OP_MUL, imp_read(a, groups), gl_i64(L, 2)), s->loc);
    kb_free_vars(L, &kb, gl_op(L, OP_MUL, imp_read(a, groups), imp_read(a, size)), s->loc);
    Long k = long_params(L, &kb, lg);
    ImpVar *kgroups = kb_scalar(L, &kb, "groups", PT_I64, imp_read(a, groups));
    ImpVar **kparts = kb_blocks(L, &kb, parts, nv);
    for (int j = 0; j < nv; j++) kparts[j]->is_volatile = true;
    ImpVar **locs = gl_locals(L, &kb, "loc", ts, nv, imp_read(a, size));
    ImpVar *folds = kb_local(L, &kb, "folds", PT_I64, gl_i64(L, 1));

    kb_enter(L, &kb);
    ImpVar *tid = thread(L, "tid", IMP_GLOBAL_ID), *grp = thread(L, "grp", IMP_GROUP_ID);
    ImpVar *ltid = thread(L, "ltid", IMP_LOCAL_ID), *lsize = thread(L, "lsize", IMP_LOCAL_SIZE);
    kb_prologue(L, &kb, gl_sym(L, tid));
    long_counts(L, &k, &k.n, &k.chunks);
    ImpVar *c0 = gl_let(L, "c0", PT_I64, share_of(L, imp_read(a, grp), k.chunks, kgroups));
    ImpVar *c1 = gl_let(L, "c1", PT_I64, share_of(L, gl_op(L, OP_ADD, imp_read(a, grp), gl_i64(L, 1)), k.chunks, kgroups));
    ImpVar *c = gl_let(L, "c", PT_I64, imp_read(a, c0));
    ImpVar *slot = gl_let(L, "slot", PT_I64, gl_i64(L, 0));
    LwNest wn, fn, sn, en;
    Reds r = {rc->reds, rc->nreds, gl_lets(L, "acc", ts, nv, gl_neutrals(L, rc->reds, rc->nreds, nv))};
    ImpStm *any = gl_if(L, &fn, imp_op2(a, OP_LT, PT_I64, imp_read(a, c0), imp_read(a, c1)));
    imp_assign(L->b, slot, imp_read(a, slot_of(L, &k, imp_read(a, c0))));
    any->body = lw_leave(L, &fn);
    ImpStm *w = gl_while(L, &wn, imp_op2(a, OP_LT, PT_I64, imp_read(a, c), imp_read(a, c1)));
    ImpVar *lo, *hi;
    slot_chunks(L, &k, imp_read(a, slot), &lo, &hi);
    ImpVar *ends = gl_let(L, "ends", PT_BOOL,
                          imp_op2(a, OP_EQ, PT_I64, gl_op(L, OP_ADD, imp_read(a, c), gl_i64(L, 1)), imp_read(a, hi)));
    ImpStm *sc = gl_scope(L, &sn);
    int at = segment_prefix(L, s, imp_load(a, k.list, PT_I64, imp_read(a, slot)));
    ImpExp *start = gl_op(L, OP_ADD, gl_op(L, OP_MUL, gl_op(L, OP_SUB, imp_read(a, c), imp_read(a, lo)), imp_read(a, lsize)),
                          imp_read(a, ltid));
    ImpExp *stride = gl_op(L, OP_MUL, gl_op(L, OP_SUB, imp_read(a, hi), imp_read(a, lo)), imp_read(a, lsize));
    GlStride st = {start, stride, lw_se(L, rc->w)};
    GlTree tr = {imp_read(a, ltid), imp_read(a, ltid), imp_read(a, lsize)};
    gl_group_reduce(L, rs, st, tr, locs);
    /* every work-item keeps the group's accumulators (the same values) */
    combine_reds(L, gl_loads(L, locs, ts, nv, gl_i64(L, 0)), &r);
    gl_barrier(L);
    ImpExp *last = imp_op2(a, OP_LOR, PT_BOOL, imp_read(a, ends),
                           imp_op2(a, OP_EQ, PT_I64, gl_op(L, OP_ADD, imp_read(a, c), gl_i64(L, 1)), imp_read(a, c1)));
    ImpStm *emit = gl_if(L, &en, last);
    ImpExp *first_slot = imp_op2(a, OP_LE, PT_I64, imp_read(a, lo), imp_read(a, c0));
    ImpExp *whole = imp_op2(a, OP_LAND, PT_BOOL, imp_op2(a, OP_GE, PT_I64, imp_read(a, lo), imp_read(a, c0)),
                            imp_op2(a, OP_LE, PT_I64, imp_read(a, hi), imp_read(a, c1)));
    LwNest hn;
    ImpStm *own = gl_if(L, &hn, whole);
    segment_suffix(L, s, at, gl_reads(L, r.accs, nv), imp_op2(a, OP_EQ, PT_I64, imp_read(a, ltid), gl_i64(L, 0)));
    own->body = lw_leave(L, &hn);
    lw_enter(L, &hn);
    /* every work-item stores the part (the same values): a store by one
       work-item before the count's barrier did not reach memory on PoCL */
    ImpVar *at2 = gl_let(L, "part", PT_I64, imp_read(a, grp));
    LwNest bn;
    ImpStm *after = gl_if(L, &bn, imp_op2(a, OP_EQ, PT_BOOL, first_slot, imp_const(a, prim_bool(false))));
    imp_assign(L->b, at2, gl_op(L, OP_ADD, imp_read(a, at2), imp_read(a, kgroups)));
    after->body = lw_leave(L, &bn);
    gl_stores(L, kparts, ts, nv, imp_read(a, at2), gl_reads(L, r.accs, nv));
    fold_split(L, s, at, &k, kparts, kgroups, slot, lo, hi, folds, locs);
    own->orelse = lw_leave(L, &hn);
    emit->body = lw_leave(L, &en);
    sc->body = lw_leave(L, &sn);
    ImpStm *move = gl_if(L, &fn, imp_read(a, ends));
    imp_assign(L->b, slot, gl_op(L, OP_ADD, imp_read(a, slot), gl_i64(L, 1)));
    ImpExp **zero = gl_neutrals(L, rc->reds, rc->nreds, nv);
    for (int j = 0; j < nv; j++) imp_assign(L->b, r.accs[j], zero[j]);
    move->body = lw_leave(L, &fn);
    imp_assign(L->b, c, gl_op(L, OP_ADD, imp_read(a, c), gl_i64(L, 1)));
    w->body = lw_leave(L, &wn);
    kb_leave(L, &kb);

    kb_launch(L, &kb, imp_read(a, groups), imp_read(a, size));
    gl_release(L, parts, nv);
    kb_release(L, &kb);
}

/* Host: the least lanes per segment of irregular segmented reduction s
 * (a power of two or not; the runtime rounds down): SEGRED_LANES_MIN, or
 * more when the reduction reads slices of arrays from outside the map:
 * the longest one's length over the number of segments estimates the
 * average segment's width, and a lane takes about SEGRED_LANE_ITEMS of
 * its elements (at most SEGRED_LANES_AVG_MAX lanes). */
static ImpExp *irregular_lanes(ImpLower *L, const Stm *s) {
    const SegInfo *g = s->e->seg;
    const Screma *rc = &g->levels[g->depth - 1]->e->screma;
    Lambda *map = g->levels[g->depth - 2]->e->screma.map;
    Arena *a = L->a;
    ImpExp *len = NULL;
    for (int i = 0; i < rc->narrs; i++)
        for (int j = 0; j < map->body->nstms; j++) {
            const Stm *st = map->body->stms[j];
            if (st->npat != 1 || st->pat[0] != rc->arrs[i] || st->e->kind != IE_INDEX || ir_lambda_binds(map, st->e->arr))
                continue;
            ImpExp *n = lw_se(L, st->e->arr->type.shape[0]);
            len = len ? gl_op(L, OP_MAX, len, n) : n;
        }
    ImpExp *least = gl_i64(L, SEGRED_LANES_MIN);
    if (!len) return least;
    ImpExp *nseg = gl_op(L, OP_MAX, imp_sym(a, gl_space(L, g, g->depth - 1)), gl_i64(L, 1));
    ImpExp *want = gl_op(L, OP_DIV, gl_op(L, OP_DIV, len, nseg), gl_i64(L, SEGRED_LANE_ITEMS));
    return gl_op(L, OP_MAX, least, gl_op(L, OP_MIN, want, gl_i64(L, SEGRED_LANES_AVG_MAX)));
}

/* An irregular segmented reduction: irregular_lanes or more lanes per
 * segment (segred_lanes), which leave the long segments (more than
 * SEGRED_LONG_ITEMS elements per lane) to segred_chunks' work-groups, a
 * share of their chunks of about SEGRED_CHUNK elements each, so that the
 * time does not depend on the longest segment's length, nor on how many
 * long ones there are. The lanes kernel counts the long segments and
 * their chunks in one i64 (chunks << 32 | segments, added to atomically
 * by each work-group that has long segments); segred_chunks reads it on
 * the device and is launched whether there are any or not (then it does
 * nothing), so that the host waits for nothing. */
static void segred_irregular(ImpLower *L, const Stm *s) {
    const SegInfo *g = s->e->seg;
    Arena *a = L->a;
    PrimType i64s[] = {PT_I64, PT_I64, PT_I64};
    Sym *nseg = gl_space(L, g, g->depth - 1), *one = sym_const(a, 1);
    ImpVar **lists = gl_blocks(L, "long", i64s, 3, imp_sym(a, nseg), s->loc);
    Long lg = {gl_blocks(L, "long_count", i64s, 1, gl_i64(L, 1), s->loc)[0], lists[0], lists[1], lists[2], NULL, NULL, NULL, NULL};
    ImpStm *fill = imp_add(L->b, IMP_FILL);
    fill->dst = lg.count;
    fill->dst_lmad = lmad_row_major(a, 1, &one);
    fill->t = PT_I64;
    fill->value = gl_i64(L, 0);
    segred_lanes(L, s, irregular_lanes(L, s), &lg);
    segred_chunks(L, s, &lg);
    gl_release(L, &lg.count, 1);
    gl_release(L, lists, 3);
}

/* A regular segmented reduction, by the width of its segments: thresholds
 * <entry>.seg_lanes_K (default SEGRED_GROUP_MIN: wider segments get
 * lanes of a work-group, narrower ones a work-item each) and, under its
 * true branch, <entry>.seg_groups_K+1 (default SEGRED_LANES_BELOW:
 * wider segments get whole work-groups), which futhorc autotune tunes
 * like the versions' thresholds. */
static void segred(ImpLower *L, const Stm *s) {
    const SegInfo *g = s->e->seg;
    const Screma *rc = &g->levels[g->depth - 1]->e->screma;
    Arena *a = L->a;
    ImpVar *w = gl_let(L, "width", PT_I64, lw_se(L, rc->w));
    const Threshold *parent = L->thr_parent, *lanes;
    bool branch = L->thr_branch;
    LwNest n, m;
    ImpStm *wide = gl_if(L, &n, gl_threshold(L, "seg_lanes", SEGRED_GROUP_MIN, imp_read(a, w), &lanes));
    L->thr_parent = lanes, L->thr_branch = true;
    ImpStm *whole = gl_if(L, &m, gl_threshold(L, "seg_groups", SEGRED_LANES_BELOW, imp_read(a, w), NULL));
    L->thr_parent = parent, L->thr_branch = branch;
    segred_groups(L, s);
    whole->body = lw_leave(L, &m);
    lw_enter(L, &m);
    segred_lanes(L, s, gl_op(L, OP_DIV, imp_read(a, w), gl_i64(L, SEG_MIN_ITEMS)), NULL);
    whole->orelse = lw_leave(L, &m);
    wide->body = lw_leave(L, &n);
    lw_enter(L, &n);
    gl_seg_map(L, s, g->depth - 1);
    wide->orelse = lw_leave(L, &n);
}

void gl_seg_red(ImpLower *L, const Stm *s) {
    const SegInfo *g = s->e->seg;
    if (g->irregular) segred_irregular(L, s);
    else if (g->depth > 1) segred(L, s);
    else seg_red(L, s);
}
