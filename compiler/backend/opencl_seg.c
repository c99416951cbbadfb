/* The OpenCL backend's SegRed and SegHist kernels, written from the memory
 * IR for IMP_LEGACY (opencl.c describes the backend and how each SegOp
 * runs): a SegRed leaves per-group partial results that a second kernel
 * combines in order, and a segmented one gives each segment a work-item
 * (a SegMap of the segments), lanes of a group or whole groups by its
 * width; a SegHist updates its buckets atomically. Here too are what
 * other kernels reuse: the launch block, the iterators of a nest's
 * levels, the stores of a lambda's results (res_store), the partial
 * results and the second kernel of a reduction (red_final). */
#include "opencl_internal.h"

#include <string.h>

/* Elements a work-item of a reduction or histogram handles per step of
 * its strided loop: independent loads in flight hide memory latency. */
#define STRIDE_UNROLL 4

/* ---- SegMap -------------------------------------------------------------------------------- */

void host_launch_begin(Emit *E, Kern *k) {
    ce_line(E, "{");
    E->indent++;
    host_private_sizes(E, k);
}

void host_launch_end(Emit *E, Kern *k) {
    host_release_private(E, k);
    E->indent--;
    ce_line(E, "}");
}

SubExp level_width(const Stm *s) {
    return s->e->kind == IE_SCATTER ? s->e->scatter.w : s->e->screma.w;
}

/* The number of points of the first depth levels of g (a C expression). */
const char *space_size(Emit *E, const SegInfo *g, int depth) {
    Buf n = {0};
    for (int l = 0; l < depth; l++) buf_printf(&n, "%s(int64_t)%s", l ? " * " : "", ce_se(E, level_width(g->levels[l])));
    const char *r = arena_strdup(E->a, n.data);
    buf_free(&n);
    return r;
}

/* Declares the iters of the first depth levels of g from the flat index
 * (a C expression; its value is consumed in rt_rest), innermost fastest. */
void level_iters(Emit *K, const SegInfo *g, int depth, const char *index) {
    ce_line(K, "long rt_rest = %s;", index);
    for (int l = depth - 1; l >= 0; l--) {
        const Stm *ls = g->levels[l];
        const Var *iter = ls->e->kind == IE_SCATTER ? ls->e->scatter.iter : ls->e->screma.iter;
        if (l == 0) ce_line(K, "int64_t %s = rt_rest;", ce_name(K, iter));
        else {
            const char *w = ce_se(K, level_width(ls));
            ce_line(K, "int64_t %s = rt_rest %% %s;", ce_name(K, iter), w);
            ce_line(K, "rt_rest /= %s;", w);
        }
    }
}

/* The outer levels [0, n) of g's nest around level n: each binds its rows
 * and runs its cheap code before the next level (its last statement). */
void outer_levels(Emit *K, const SegInfo *g, int n) {
    for (int l = 0; l < n; l++) {
        const Screma *sc = &g->levels[l]->e->screma;
        ce_bind_rows(K, sc->map, sc->arrs, sc->iter);
        for (int i = 0; i + 1 < sc->map->body->nstms; i++) ce_stm(K, sc->map->body->stms[i]);
    }
}

/* A SegMap over the first depth levels of s's SegInfo: the segments of a
 * segmented reduction too short for lanes (seg_segred). An untiled SegMap
 * of the program is Imp's (compiler/imp/gpu.c). */
void seg_map(Emit *E, const Stm *s, int depth) {
    Kern k;
    kern_begin(E, &k, s, "segmap");
    SegInfo lv = *s->e->seg;
    lv.depth = depth;
    const SegInfo *g = &lv;
    int P = new_param(E, arena_printf(E->a, "segmap_%d.group_size", k.id));
    host_launch_begin(E, &k);
    ce_line(E, "int64_t rt_n = %s;", space_size(E, g, g->depth));
    ce_line(E, "int64_t rt_g = rt_cl_group_size(%d), rt_groups = (rt_n + rt_g - 1) / rt_g;", P);
    kern_free_args(E, &k, "rt_groups * rt_g");
    kern_extra(E, &k, "long rt_n", "int64_t", "rt_n");
    ce_line(E, "if (rt_cl_launch(ctx, %d, rt_groups, rt_g)) goto fail;", k.id);
    host_launch_end(E, &k);

    Emit *K = &k.K;
    ce_line(K, "long rt_tid = get_global_id(0);");
    ce_line(K, "if (rt_tid >= rt_n) return;");
    kern_prologue(&k, "rt_tid");
    /* Level iters from the flat id, innermost fastest. */
    level_iters(K, g, g->depth, "rt_tid");
    outer_levels(K, g, g->depth - 1);
    const Stm *ls = g->levels[g->depth - 1];
    if (ls->e->kind == IE_SCATTER) {
        const Scatter *sc = &ls->e->scatter;
        ce_bind_rows(K, sc->lam, sc->arrs, sc->iter);
        ce_body(K, sc->lam->body, ce_res_scatter, (void *)sc);
    } else {
        const Screma *sc = &ls->e->screma;
        ce_bind_rows(K, sc->map, sc->arrs, sc->iter);
        CeScremaCtx x = {ls, NULL, NULL};
        ce_body(K, sc->map->body, ce_res_screma, &x);
    }
    ce_line(K, "rt_next: ;");
    kern_end(E, &k);
}

void res_store(Emit *K, const Body *b, void *ctx) {
    StoreCtx *x = ctx;
    for (int j = 0; j < x->nv; j++) ce_line(K, "%s = %s;", x->dst[j], ce_se(K, b->res[j]));
    const char **rv = NEW_ARRAY(K->a, const char *, x->nr + 1);
    for (int j = 0; j < x->nr; j++) rv[j] = ce_se(K, b->res[x->nv + j]);
    if (x->red_accs) combine_reds(K, x->s, rv, x->red_accs);
    else if (x->red_dst)
        for (int j = 0; j < x->nr; j++) ce_line(K, "%s = %s;", x->red_dst[j], rv[j]);
    if (x->s->e->kind != IE_SCREMA) return;
    const Screma *sc = &x->s->e->screma;
    Sym *i = sym_var(K->a, sc->iter->id);
    for (int r = x->nv + x->nr; r < b->nres; r++) {
        Var *out = x->s->pat[r];
        ce_store(K, out->mem->mem, ce_fix_row(K, out->mem->ixfun, i), b->res[r], out->type.elem);
    }
}

/* Applies every scan operator: dst = op(xs, ys) over all values. */
/* Where a work-item's strided loop runs: elements start, start + stride,
 * ... below n (C expressions). */
typedef struct Stride {
    const char *start, *stride, *n;
} Stride;

/* Over the whole input, all work-items of the kernel. */
static const Stride GLOBAL_STRIDE = {"rt_tid", "rt_nthreads", "rt_n"};

/* The main loop of a work-item over the elements of st: STRIDE_UNROLL
 * elements per step, each copy of lam's body computing its first nv
 * results (types ts) into rt_r<u>_<j> before any of them is combined (by
 * combine, called per copy u), so that their loads overlap. Leaves rt_i0
 * at the first element the steps did not take; open_rest / close_rest
 * loop over the rest one by one (rt_i). */
static void strided_steps(Emit *K, Stride st, const Stm *s, const Lambda *lam, Var **arrs, const Var *iter,
                          const PrimType *ts, int nv, void (*combine)(Emit *K, const Stm *s, const char **vals, void *ctx),
                          void *ctx) {
    ce_line(K, "long rt_i0 = %s;", st.start);
    ce_line(K, "for (; rt_i0 + %d * (%s) < %s; rt_i0 += %d * (%s)) {", STRIDE_UNROLL - 1, st.stride, st.n,
            STRIDE_UNROLL, st.stride);
    K->indent++;
    const char ***vals = NEW_ARRAY(K->a, const char **, STRIDE_UNROLL);
    for (int u = 0; u < STRIDE_UNROLL; u++) {
        const char *fmt = arena_printf(K->a, "rt_r%d_%%d", u);
        declare_vals(K, fmt, ts, NULL, nv);
        vals[u] = NEW_ARRAY(K->a, const char *, nv + 1);
        for (int j = 0; j < nv; j++) vals[u][j] = arena_printf(K->a, fmt, j);
    }
    for (int u = 0; u < STRIDE_UNROLL; u++) {
        ce_line(K, "{");
        K->indent++;
        K->fail_label = arena_printf(K->a, "rt_next%d", u);
        ce_line(K, "int64_t %s = rt_i0 + %d * (%s);", ce_name(K, iter), u, st.stride);
        ce_bind_rows(K, lam, arrs, iter);
        StoreCtx x = {s, nv, vals[u], 0, NULL, NULL};
        ce_body(K, lam->body, res_store, &x);
        ce_line(K, "%s: ;", K->fail_label);
        K->indent--;
        ce_line(K, "}");
    }
    K->fail_label = "rt_next";
    for (int u = 0; u < STRIDE_UNROLL; u++) combine(K, s, vals[u], ctx);
    K->indent--;
    ce_line(K, "}");
}

static void open_rest(Emit *K, Stride st) {
    ce_line(K, "for (; rt_i0 < %s; rt_i0 += %s) {", st.n, st.stride);
    K->indent++;
    ce_line(K, "long rt_i = rt_i0;");
}

static void close_rest(Emit *K) {
    ce_line(K, "rt_next: ;");
    K->indent--;
    ce_line(K, "}");
}

void combine_reds(Emit *K, const Stm *s, const char **vals, void *ctx) {
    const Screma *sc = &s->e->screma;
    const char **accs = ctx;
    int v = 0;
    for (int j = 0; j < sc->nreds; j++) {
        apply_op(K, &sc->reds[j], accs + v, vals + v, accs + v);
        v += sc->reds[j].k;
    }
}

/* ---- SegRed ---------------------------------------------------------------------------------- */

/* Whether the operators may combine elements in any order: declared so
 * (reduce_comm) or known to be (ir_segop_known_commutative). */
bool all_commutative(const SegOp *ops, int n) {
    for (int i = 0; i < n; i++)
        if (!ops[i].commutative && !ir_segop_known_commutative(&ops[i])) return false;
    return true;
}

/* Declares rt_loc<j> local parameters and their host sizes for values ts. */
void local_arrays(Emit *E, Kern *k, const PrimType *ts, int n, const char *count) {
    for (int j = 0; j < n; j++)
        kern_extra_local(E, k, arena_printf(E->a, "__local %s *rt_loc%d", ctype(ts[j]), j),
                         arena_printf(E->a, "(size_t)(%s) * sizeof(%s)", count, ctype(ts[j])));
}

/* The reduction Screma rs over the elements of st: each work-item folds
 * its elements (strided and unrolled when the operators commute, else a
 * contiguous chunk in order), then tree t leaves the result in rt_loc<j>
 * at its position 0. */
static void group_reduce(Emit *K, const Stm *rs, Stride st, Tree t) {
    const Screma *sc = &rs->e->screma;
    int nv;
    PrimType *ts = op_types(K, sc->reds, sc->nreds, &nv);
    const char **accs = ce_declare_accs(K, sc->reds, sc->nreds, NULL, true);
    if (all_commutative(sc->reds, sc->nreds)) {
        strided_steps(K, st, rs, sc->map, sc->arrs, sc->iter, ts, nv, combine_reds, accs);
        open_rest(K, st);
    } else {
        ce_line(K, "long rt_chunk = (%s + (%s) - 1) / (%s), rt_lo = (%s) * rt_chunk;", st.n, st.stride, st.stride,
                st.start);
        ce_line(K, "long rt_hi = rt_lo + rt_chunk < %s ? rt_lo + rt_chunk : %s;", st.n, st.n);
        ce_line(K, "for (long rt_i = rt_lo; rt_i < rt_hi; rt_i++) {");
        K->indent++;
    }
    ce_line(K, "int64_t %s = rt_i;", ce_name(K, sc->iter));
    ce_bind_rows(K, sc->map, sc->arrs, sc->iter);
    CeScremaCtx x = {rs, NULL, accs};
    ce_body(K, sc->map->body, ce_res_screma, &x);
    close_rest(K);
    for (int j = 0; j < nv; j++) ce_line(K, "rt_loc%d[rt_ltid] = %s;", j, accs[j]);
    group_tree(K, sc->reds, sc->nreds, t);
}

/* Stage 1: every group reduces its share of the input into rt_part<j>. */
static void red_stage1(const Stm *s, Kern *k, int nv) {
    Emit *K = &k->K;
    ce_line(K, "long rt_tid = get_global_id(0), rt_nthreads = get_global_size(0);");
    ce_line(K, "int rt_ltid = get_local_id(0), rt_lsize = get_local_size(0);");
    kern_prologue(k, "rt_tid");
    group_reduce(K, s, GLOBAL_STRIDE, GROUP_TREE);
    ce_line(K, "if (rt_ltid == 0) {");
    for (int j = 0; j < nv; j++) ce_line(K, "    rt_part%d[get_group_id(0)] = rt_loc%d[0];", j, j);
    ce_line(K, "}");
}

/* Folds the partial results rt_part<j>[lo .. hi) in order into the
 * accumulators accs of operators ops. */
static void fold_parts(Emit *K, const SegOp *ops, int nops, const char **accs, const char *lo, const char *hi) {
    ce_line(K, "for (long rt_i = %s; rt_i < %s; rt_i++) {", lo, hi);
    K->indent++;
    int v = 0;
    for (int j = 0; j < nops; j++) {
        apply_op(K, &ops[j], accs + v, names_at(K, "rt_part", v, ops[j].k, "rt_i"), accs + v);
        v += ops[j].k;
    }
    K->indent--;
    ce_line(K, "}");
}

/* Stage 2: one group combines the partial results in order into rt_res
 * at s's pattern positions first, first + 1, ... */
static void red_stage2(const Stm *s, Kern *k, int nv, int first) {
    const Screma *sc = &s->e->screma;
    Emit *K = &k->K;
    ce_line(K, "int rt_ltid = get_local_id(0), rt_lsize = get_local_size(0);");
    kern_prologue(k, "0");
    const char **accs = ce_declare_accs(K, sc->reds, sc->nreds, NULL, true);
    ce_line(K, "long rt_chunk = (rt_ngroups + rt_lsize - 1) / rt_lsize, rt_lo = rt_ltid * rt_chunk;");
    ce_line(K, "long rt_hi = rt_lo + rt_chunk < rt_ngroups ? rt_lo + rt_chunk : rt_ngroups;");
    fold_parts(K, sc->reds, sc->nreds, accs, "rt_lo", "rt_hi");
    for (int j = 0; j < nv; j++) ce_line(K, "rt_loc%d[rt_ltid] = %s;", j, accs[j]);
    group_tree(K, sc->reds, sc->nreds, GROUP_TREE);
    ce_line(K, "if (rt_ltid == 0) {");
    for (int j = 0; j < nv; j++)
        ce_line(K, "    *(__global %s *)(rt_res + %d) = rt_loc%d[0];", ctype(s->pat[first + j]->type.elem),
                8 * (first + j), j);
    ce_line(K, "}");
    ce_line(K, "rt_next: ;");
}

/* Scalar results of a kernel travel through the device block rt_res, 8
 * bytes per pattern position. Host: declares s's scalar pattern Vars (before
 * the launch block, so they outlive it). */
void declare_results(Emit *E, const Stm *s) {
    for (int j = 0; j < s->npat; j++)
        if (s->pat[j]->type.kind == TK_PRIM) ce_declare(E, s->pat[j], NULL);
}

/* Host: the rt_res block (inside the launch block). */
void host_result_block(Emit *E, const Stm *s) {
    ce_line(E, "rt_dblock *rt_res = rt_dblock_new(ctx, dpool, %d);", 8 * (s->npat > 0 ? s->npat : 1));
    ce_line(E, "if (!rt_res) goto fail;");
}

/* Host: reads the scalar results back from rt_res and releases it. */
void host_read_results(Emit *E, const Stm *s) {
    ce_line(E, "{");
    ce_line(E, "    unsigned char rt_buf[%d];", 8 * (s->npat > 0 ? s->npat : 1));
    ce_line(E, "    if (rt_cl_read(ctx, rt_res, 0, sizeof rt_buf, rt_buf)) goto fail;");
    for (int j = 0; j < s->npat; j++)
        if (s->pat[j]->type.kind == TK_PRIM)
            ce_line(E, "    memcpy(&%s, rt_buf + %d, sizeof %s);", ce_name(E, s->pat[j]), 8 * j,
                    ce_name(E, s->pat[j]));
    ce_line(E, "}");
    ce_line(E, "rt_dblock_release(rt_res);");
}

/* Host: the blocks rt_part<j> of rt_groups partial results of values ts. */
void host_partials(Emit *E, const PrimType *ts, int nv) {
    for (int j = 0; j < nv; j++) {
        ce_line(E, "rt_dblock *rt_part%d = rt_dblock_new(ctx, dpool, rt_groups * %d);", j, prim_size(ts[j]));
        ce_line(E, "if (!rt_part%d) goto fail;", j);
    }
}

/* The rt_part<j> blocks as arguments of kernel k. */
void kern_partials(Emit *E, Kern *k, const PrimType *ts, int nv) {
    for (int j = 0; j < nv; j++)
        kern_extra_mem(E, k, arena_printf(E->a, "__global %s *rt_part%d", ctype(ts[j]), j),
                       arena_printf(E->a, "rt_part%d", j));
}

/* The second kernel of a reduction whose first left rt_groups partial
 * results (values ts) in rt_part<j>: one group of rt_g combines them in
 * order; the host reads the results back into s's pattern positions
 * first, first + 1, ... and releases the partials. */
void red_final(Emit *E, const Stm *s, const PrimType *ts, int nv, int first) {
    Kern k;
    kern_begin(E, &k, s, "segred_final");
    host_result_block(E, s);
    host_private_sizes(E, &k);
    kern_free_args(E, &k, "rt_g");
    kern_extra(E, &k, "long rt_ngroups", "int64_t", "rt_groups");
    kern_partials(E, &k, ts, nv);
    local_arrays(E, &k, ts, nv, "rt_g");
    kern_extra_mem(E, &k, "__global unsigned char *rt_res", "rt_res");
    ce_line(E, "if (rt_cl_launch(ctx, %d, 1, rt_g)) goto fail;", k.id);
    red_stage2(s, &k, nv, first);
    kern_end(E, &k);
    host_release_private(E, &k);
    host_read_results(E, s);
    for (int j = 0; j < nv; j++) ce_line(E, "rt_dblock_release(rt_part%d);", j);
}

void seg_red(Emit *E, const Stm *s) {
    const Screma *sc = &s->e->screma;
    int nv;
    PrimType *ts = op_types(E, sc->reds, sc->nreds, &nv);
    declare_results(E, s);
    Kern k;
    kern_begin(E, &k, s, "segred");
    int P = new_param(E, arena_printf(E->a, "segred_%d.group_size", k.id));
    int PN = new_param(E, arena_printf(E->a, "segred_%d.num_groups", k.id));
    host_launch_begin(E, &k);
    ce_line(E, "int64_t rt_n = %s;", ce_se(E, sc->w));
    ce_line(E, "int64_t rt_g = rt_cl_group_size(%d), rt_groups = rt_cl_num_groups(%d, rt_n, rt_g);", P, PN);
    host_partials(E, ts, nv);
    kern_free_args(E, &k, "rt_groups * rt_g");
    kern_extra(E, &k, "long rt_n", "int64_t", "rt_n");
    kern_partials(E, &k, ts, nv);
    local_arrays(E, &k, ts, nv, "rt_g");
    ce_line(E, "if (rt_cl_launch(ctx, %d, rt_groups, rt_g)) goto fail;", k.id);
    red_stage1(s, &k, nv);
    kern_end(E, &k);
    red_final(E, s, ts, nv, 0);
    host_launch_end(E, &k);
}

/* Segments of a regular segmented reduction at least SEGRED_GROUP_MIN
 * long get several lanes of a work-group each, about one per
 * RT_CL_SEG_MIN_ITEMS elements; shorter ones are reduced by one
 * work-item each (lanes would idle). Segments of SEGRED_LANES_BELOW
 * elements or more would get a whole default group (256 lanes) that way
 * and take the work-group kernel, which can also split a segment over
 * several groups. */
#define SEGRED_GROUP_MIN 64
#define SEGRED_LANES_BELOW 2048

/* The map's code of a segmented reduction s in a kernel where iter is
 * set: binds its rows, runs its scalar code up to the reduction rs (a
 * failure jumps to fail) and returns the index of rs in the body. */
static int segred_prefix(Emit *K, const Stm *s, const Stm *rs, const char *fail) {
    const Screma *sc = &s->e->screma;
    ce_bind_rows(K, sc->map, sc->arrs, sc->iter);
    K->fail_label = fail;
    const Body *b = sc->map->body;
    int at = 0;
    while (b->stms[at] != rs) ce_stm(K, b->stms[at++]);
    return at;
}

/* After the reduction rs of a segment gave its values vals (C
 * expressions): the map's code after the reduction and its results,
 * written by the work-items for which cond holds. */
static void segred_suffix(Emit *K, const Stm *s, const Stm *rs, int at, const char **vals, const char *cond) {
    const Body *b = s->e->screma.map->body;
    const Screma *rc = &rs->e->screma;
    for (int j = 0, v = 0; j < rc->nreds; j++)
        for (int i = 0; i < rc->reds[j].k; i++, v++) ce_declare(K, rs->pat[v], vals[v]);
    ce_line(K, "if (!(%s)) goto rt_done;", cond);
    K->fail_label = "rt_done";
    for (at++; at < b->nstms; at++) ce_stm(K, b->stms[at]);
    CeScremaCtx ox = {s, NULL, NULL};
    ce_res_screma(K, b, &ox);
    ce_line(K, "rt_done: ;");
}

/* The segment seg (a C expression) of a segmented reduction g: the iters
 * of its map nest's levels, and the outer levels' code (a failure there
 * jumps to fail); the innermost map's code is segred_prefix's. */
static void segment_levels(Emit *K, const SegInfo *g, const char *seg, const char *fail) {
    level_iters(K, g, g->depth - 1, seg);
    K->fail_label = fail;
    outer_levels(K, g, g->depth - 2);
}

/* A segmented reduction whose segments rt_lanes work-items (lanes) of a
 * group take each: an irregular one (at least SEGRED_LANES_MIN lanes),
 * or a regular one of medium segments (enough lanes that each folds
 * about RT_CL_SEG_MIN_ITEMS elements); lanes_min is that least number
 * (a host C expression), and more are taken when there are too few
 * segments to fill the device. All lanes run the maps' code up to the
 * reduction (it gives the segment's width and rows), fold the segment's
 * elements strided by rt_lanes, and combine their values in a tree of
 * their own; lane 0 runs the rest and writes the results. A segment
 * whose code failed, and lanes past the last segment, reduce nothing but
 * still meet the group's barriers. */
void seg_segred_lanes(Emit *E, const Stm *s, const char *lanes_min) {
    const SegInfo *g = s->e->seg;
    const Stm *rs = g->levels[g->depth - 1], *ls = g->levels[g->depth - 2];
    const Screma *rc = &rs->e->screma;
    int nv;
    PrimType *ts = op_types(E, rc->reds, rc->nreds, &nv);
    Kern k;
    kern_begin(E, &k, s, "segred_lanes");
    int P = new_param(E, arena_printf(E->a, "segred_lanes_%d.group_size", k.id));
    int PL = new_param(E, arena_printf(E->a, "segred_lanes_%d.lanes", k.id));
    host_launch_begin(E, &k);
    ce_line(E, "int64_t rt_nseg = %s, rt_g = rt_cl_group_size(%d);", space_size(E, g, g->depth - 1), P);
    ce_line(E, "int64_t rt_lanes = rt_cl_lanes(%d, rt_nseg, rt_g, %s);", PL, lanes_min);
    ce_line(E, "int64_t rt_groups = (rt_nseg * rt_lanes + rt_g - 1) / rt_g;");
    kern_free_args(E, &k, "rt_groups * rt_g");
    kern_extra(E, &k, "long rt_nseg", "int64_t", "rt_nseg");
    kern_extra(E, &k, "int rt_lanes", "int32_t", "(int32_t)rt_lanes");
    local_arrays(E, &k, ts, nv, "rt_g");
    ce_line(E, "if (rt_cl_launch(ctx, %d, rt_groups, rt_g)) goto fail;", k.id);
    host_launch_end(E, &k);

    Emit *K = &k.K;
    ce_line(K, "long rt_tid = get_global_id(0);");
    ce_line(K, "int rt_ltid = get_local_id(0), rt_lane = rt_ltid & (rt_lanes - 1);");
    kern_prologue(&k, "rt_tid");
    ce_line(K, "long rt_seg = rt_tid / rt_lanes, rt_m = 0;");
    ce_line(K, "bool rt_ok = false;");
    ce_line(K, "if (rt_seg >= rt_nseg) goto rt_skip;");
    segment_levels(K, g, "rt_seg", "rt_skip");
    int at = segred_prefix(K, ls, rs, "rt_skip");
    ce_line(K, "rt_m = %s;", ce_se(K, rc->w));
    ce_line(K, "rt_ok = true;");
    ce_line(K, "rt_skip: ;");
    K->fail_label = "rt_next";
    Stride seg = {"rt_lane", "rt_lanes", "rt_m"};
    Tree lanes = {"rt_ltid", "rt_lane", "rt_lanes"};
    group_reduce(K, rs, seg, lanes);
    segred_suffix(K, ls, rs, at, names_at(K, "rt_loc", 0, nv, "rt_ltid"), "rt_ok && rt_lane == 0");
    kern_end(E, &k);
}

/* The second kernel of a segmented reduction whose segments took
 * rt_gps groups each (s, whose innermost map ls has the reduction rs,
 * values ts): one work-item per segment combines the groups' partial
 * results rt_part<j> in order, runs the maps' code around the reduction
 * again and writes the results. */
static void segred_combine(Emit *E, const Stm *s, const Stm *ls, const Stm *rs, const PrimType *ts, int nv) {
    const Screma *rc = &rs->e->screma;
    Kern k;
    kern_begin(E, &k, s, "segred_segments_final");
    host_private_sizes(E, &k);
    kern_free_args(E, &k, "rt_nseg");
    kern_extra(E, &k, "long rt_nseg", "int64_t", "rt_nseg");
    kern_extra(E, &k, "long rt_gps", "int64_t", "rt_gps");
    kern_partials(E, &k, ts, nv);
    ce_line(E, "if (rt_cl_launch(ctx, %d, (rt_nseg + rt_g - 1) / rt_g, rt_g)) goto fail;", k.id);
    Emit *K = &k.K;
    ce_line(K, "long rt_tid = get_global_id(0);");
    ce_line(K, "if (rt_tid >= rt_nseg) return;");
    kern_prologue(&k, "rt_tid");
    segment_levels(K, s->e->seg, "rt_tid", "rt_done");
    int at = segred_prefix(K, ls, rs, "rt_done");
    const char **accs = ce_declare_accs(K, rc->reds, rc->nreds, NULL, true);
    fold_parts(K, rc->reds, rc->nreds, accs, "rt_tid * rt_gps", "(rt_tid + 1) * rt_gps");
    segred_suffix(K, ls, rs, at, accs, "1");
    ce_line(K, "rt_next: ;");
    kern_end(E, &k);
    host_release_private(E, &k);
}

/* A segmented reduction (a map nest around a reduction over rows; each
 * point of the nest is a segment): rt_gps work-groups per segment read
 * the segment coalesced and reduce their parts of it in local memory;
 * the maps' scalar code runs in every work-item (it is the same for the
 * whole group). With one group per
 * segment, its work-item 0 writes the results; with several (few long
 * segments, which would leave the device idle), each group leaves a
 * partial result that segred_combine combines. Short segments use the
 * one-work-item-per-segment SegMap instead. */
void seg_segred(Emit *E, const Stm *s) {
    const SegInfo *g = s->e->seg;
    const Stm *rs = g->levels[g->depth - 1], *ls = g->levels[g->depth - 2];
    const Screma *rc = &rs->e->screma;
    int nv;
    PrimType *ts = op_types(E, rc->reds, rc->nreds, &nv);
    ce_line(E, "if ((int64_t)%s < %d) {", ce_se(E, rc->w), SEGRED_GROUP_MIN);
    E->indent++;
    seg_map(E, s, g->depth - 1);
    E->indent--;
    ce_line(E, "} else if ((int64_t)%s < %d) {", ce_se(E, rc->w), SEGRED_LANES_BELOW);
    E->indent++;
    seg_segred_lanes(E, s, arena_printf(E->a, "(int64_t)%s / RT_CL_SEG_MIN_ITEMS", ce_se(E, rc->w)));
    E->indent--;
    ce_line(E, "} else {");
    E->indent++;
    Kern k;
    kern_begin(E, &k, s, "segred_segments");
    int P = new_param(E, arena_printf(E->a, "segred_segments_%d.group_size", k.id));
    int PG = new_param(E, arena_printf(E->a, "segred_segments_%d.groups_per_segment", k.id));
    host_launch_begin(E, &k);
    ce_line(E, "int64_t rt_nseg = %s, rt_m = %s;", space_size(E, g, g->depth - 1), ce_se(E, rc->w));
    ce_line(E, "int64_t rt_g = rt_cl_group_size(%d), rt_gps = rt_cl_segment_groups(%d, rt_nseg, rt_m, rt_g);", P,
            PG);
    ce_line(E, "int64_t rt_groups = rt_gps > 1 ? rt_nseg * rt_gps : 1;");
    host_partials(E, ts, nv);
    kern_free_args(E, &k, "rt_nseg * rt_gps * rt_g");
    kern_extra(E, &k, "long rt_m", "int64_t", "rt_m");
    kern_extra(E, &k, "long rt_gps", "int64_t", "rt_gps");
    kern_partials(E, &k, ts, nv);
    local_arrays(E, &k, ts, nv, "rt_g");
    ce_line(E, "if (rt_cl_launch(ctx, %d, rt_nseg * rt_gps, rt_g)) goto fail;", k.id);
    ce_line(E, "if (rt_gps > 1) {");
    E->indent++;
    segred_combine(E, s, ls, rs, ts, nv);
    E->indent--;
    ce_line(E, "}");
    for (int j = 0; j < nv; j++) ce_line(E, "rt_dblock_release(rt_part%d);", j);
    host_launch_end(E, &k);
    E->indent--;
    ce_line(E, "}");

    Emit *K = &k.K;
    ce_line(K, "long rt_tid = get_global_id(0);");
    ce_line(K, "int rt_ltid = get_local_id(0), rt_lsize = get_local_size(0);");
    kern_prologue(&k, "rt_tid");
    ce_line(K, "long rt_grp = get_group_id(0), rt_part = rt_grp %% rt_gps;");
    /* The segment's code is uniform in the group: a failure there leaves
     * the whole group together. */
    segment_levels(K, g, "rt_grp / rt_gps", "rt_done");
    int at = segred_prefix(K, ls, rs, "rt_done");
    K->fail_label = "rt_next";
    Stride seg = {"rt_part * rt_lsize + rt_ltid", "rt_gps * rt_lsize", "rt_m"};
    group_reduce(K, rs, seg, GROUP_TREE);
    ce_line(K, "if (rt_gps > 1) {");
    ce_line(K, "    if (rt_ltid == 0) {");
    for (int j = 0; j < nv; j++) ce_line(K, "        rt_part%d[rt_grp] = rt_loc%d[0];", j, j);
    ce_line(K, "    }");
    ce_line(K, "    return;");
    ce_line(K, "}");
    segred_suffix(K, ls, rs, at, names_at(K, "rt_loc", 0, nv, "0"), "rt_ltid == 0");
    kern_end(E, &k);
}

/* ---- SegHist ----------------------------------------------------------------------------------- */

/* The native atomic function for op on type t, or NULL. */
static const char *native_atomic(const SegOp *op, PrimType t) {
    PrimClass c = prim_class(t);
    if (c != PC_SIGNED && c != PC_UNSIGNED) return NULL;
    bool wide = prim_size(t) == 8;
    switch (ir_lambda_binop(op->op, 0, 1)) {
    case OP_ADD: return wide ? "atom_add" : "atomic_add";
    case OP_MIN: return wide ? "atom_min" : "atomic_min";
    case OP_MAX: return wide ? "atom_max" : "atomic_max";
    case OP_AND: return wide ? "atom_and" : "atomic_and";
    case OP_OR: return wide ? "atom_or" : "atomic_or";
    case OP_XOR: return wide ? "atom_xor" : "atomic_xor";
    default: return NULL;
    }
}

/* The reinterpretation function of OpenCL for type t ("as_float"). */
static const char *as_fn(PrimType t) {
    switch (t) {
    case PT_I32: return "as_int";
    case PT_U32: return "as_uint";
    case PT_F32: return "as_float";
    case PT_I64: return "as_long";
    case PT_U64: return "as_ulong";
    case PT_F64: return "as_double";
    default: return NULL;
    }
}

/* Combines val into *addr (space "__global" or "__local") atomically. */
static void atomic_combine(Emit *K, const SegOp *op, const char *space, const char *addr, const char *val) {
    PrimType t = op->op->params[0]->type.elem;
    const char *nat = native_atomic(op, t);
    bool wide = prim_size(t) == 8;
    if (prim_class(t) == PC_FLOAT && ir_lambda_binop(op->op, 0, 1) == OP_ADD) {
        ce_line(K, "rt_fadd_%s_%s((volatile %s %s *)(%s), %s);", strcmp(space, "__local") ? "global" : "local",
                prim_name(t), space, ctype(t), addr, val);
        return;
    }
    if (nat) {
        const char *pt = prim_class(t) == PC_SIGNED ? (wide ? "long" : "int") : (wide ? "ulong" : "uint");
        ce_line(K, "%s((volatile %s %s *)(%s), (%s)(%s));", nat, space, pt, addr, pt, val);
        return;
    }
    const char *u = wide ? "ulong" : "uint";
    ce_line(K, "{");
    K->indent++;
    ce_line(K, "volatile %s %s *rt_p = (volatile %s %s *)(%s);", space, u, space, u, addr);
    ce_line(K, "%s rt_old = *rt_p, rt_seen;", u);
    ce_line(K, "%s rt_new;", ctype(t));
    ce_line(K, "do {");
    K->indent++;
    ce_line(K, "rt_seen = rt_old;");
    const char *x = arena_printf(K->a, "%s(rt_seen)", as_fn(t));
    const char *dst = "rt_new";
    apply_op(K, op, &x, &val, &dst);
    ce_line(K, "rt_old = %s(rt_p, rt_seen, %s(rt_new));", wide ? "atom_cmpxchg" : "atomic_cmpxchg",
            wide ? "as_ulong" : "as_uint");
    K->indent--;
    ce_line(K, "} while (rt_old != rt_seen);");
    K->indent--;
    ce_line(K, "}");
}

/* Adds value v to bucket ix (C expressions) of h's destination. */
static void hist_update(Emit *K, const Hist *h, const char *ix, const char *v) {
    const Var *d = h->dests[0];
    ce_line(K, "if (%s >= 0 && %s < rt_bins) {", ix, ix);
    K->indent++;
    ce_line(K, "if (rt_use_local) {");
    K->indent++;
    atomic_combine(K, &h->op, "__local", arena_printf(K->a, "&rt_lh[%s]", ix), v);
    K->indent--;
    ce_line(K, "} else {");
    K->indent++;
    Sym *is = sym_var(K->a, ce_counter(K, "bucket"));
    ce_line(K, "int64_t %s = %s;", ce_sym(K, is), ix);
    atomic_combine(K, &h->op, "__global",
                   arena_printf(K->a, "&%s", ce_elem_at(K, ce_arr_base(K, d), d->mem->ixfun, &is)), v);
    K->indent--;
    ce_line(K, "}");
    K->indent--;
    ce_line(K, "}");
}

static void res_hist_atomic(Emit *K, const Body *b, void *ctx) {
    hist_update(K, ctx, ce_se(K, b->res[0]), ce_se(K, b->res[1]));
}

static void combine_hist(Emit *K, const Stm *s, const char **vals, void *ctx) {
    hist_update(K, &s->e->hist, vals[0], vals[1]);
}

void seg_hist(Emit *E, const Stm *s) {
    const Hist *h = &s->e->hist;
    PrimType t = h->op.op->params[0]->type.elem;
    Kern k;
    kern_begin(E, &k, s, "seghist");
    int P = new_param(E, arena_printf(E->a, "seghist_%d.group_size", k.id));
    int PN = new_param(E, arena_printf(E->a, "seghist_%d.num_groups", k.id));
    host_launch_begin(E, &k);
    ce_line(E, "int64_t rt_n = %s, rt_bins = %s;", ce_se(E, h->w), ce_se(E, h->dest_w));
    ce_line(E, "int64_t rt_g = rt_cl_group_size(%d), rt_groups = rt_cl_num_groups(%d, rt_n, rt_g);", P, PN);
    ce_line(E, "int rt_use_local = %s && rt_bins > 0 && rt_bins * %d <= rt_cl_local_budget();",
            prim_size(t) == 4 ? "1" : "0", prim_size(t));
    kern_free_args(E, &k, "rt_groups * rt_g");
    kern_extra(E, &k, "long rt_n", "int64_t", "rt_n");
    kern_extra(E, &k, "long rt_bins", "int64_t", "rt_bins");
    kern_extra(E, &k, "int rt_use_local", "int", "rt_use_local");
    kern_extra_local(E, &k, arena_printf(E->a, "__local %s *rt_lh", ctype(t)),
                     arena_printf(E->a, "(size_t)(rt_use_local ? rt_bins : 1) * %d", prim_size(t)));
    ce_line(E, "if (rt_cl_launch(ctx, %d, rt_groups, rt_g)) goto fail;", k.id);
    host_launch_end(E, &k);

    Emit *K = &k.K;
    ce_line(K, "long rt_tid = get_global_id(0), rt_nthreads = get_global_size(0);");
    ce_line(K, "int rt_ltid = get_local_id(0), rt_lsize = get_local_size(0);");
    kern_prologue(&k, "rt_tid");
    ce_line(K, "if (rt_use_local) {");
    ce_line(K, "    for (long rt_b = rt_ltid; rt_b < rt_bins; rt_b += rt_lsize) rt_lh[rt_b] = %s;",
            ce_se(K, h->op.neutral[0]));
    ce_line(K, "    barrier(CLK_LOCAL_MEM_FENCE);");
    ce_line(K, "}");
    PrimType hts[2] = {PT_I64, t};
    strided_steps(K, GLOBAL_STRIDE, s, h->lam, h->arrs, h->iter, hts, 2, combine_hist, NULL);
    open_rest(K, GLOBAL_STRIDE);
    ce_line(K, "int64_t %s = rt_i;", ce_name(K, h->iter));
    ce_bind_rows(K, h->lam, h->arrs, h->iter);
    ce_body(K, h->lam->body, res_hist_atomic, (void *)h);
    close_rest(K);
    ce_line(K, "if (rt_use_local) {");
    K->indent++;
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    ce_line(K, "for (long rt_b = rt_ltid; rt_b < rt_bins; rt_b += rt_lsize) {");
    K->indent++;
    const Var *d = h->dests[0];
    int bc = ce_counter(K, "b");
    Sym *bs = sym_var(K->a, bc);
    ce_line(K, "int64_t %s = rt_b;", ce_sym_name(bc, K));
    atomic_combine(K, &h->op, "__global", arena_printf(K->a, "&%s", ce_elem_at(K, ce_arr_base(K, d), d->mem->ixfun, &bs)),
                   "rt_lh[rt_b]");
    K->indent--;
    ce_line(K, "}");
    K->indent--;
    ce_line(K, "}");
    kern_end(E, &k);
}
