/* The OpenCL backend's block-tiled SegMap (SegInfo.tile; opencl.c
 * describes the backend): a map of two levels around a reduction over a
 * row of each level's input (a matrix product). A work-group computes a
 * block of the space with its points' accumulators in registers, staging
 * the rows it needs in local memory. */
#include "opencl_internal.h"

/* ---- Block-tiled SegMap ------------------------------------------------------------------------ */

/* A tiled group is TILE_SIDE_Y x TILE_SIDE_X work-items, each computing
 * TILE_REG x TILE_REG points of the space in registers; a group's block
 * is tile_block(0) x tile_block(1) points. Its rows and columns read TILE_K elements of
 * their reduction's rows at a time from local memory, where the group
 * stages them: every element read from global memory serves BLOCK
 * points, and every local read TILE_REG of them. A work-item's points in
 * one direction are runs of TILE_RUN neighbours, side * TILE_RUN
 * apart, so that neighbouring work-items read neighbouring local words
 * (no bank conflicts) and a run can be one vector load. Staged rows are
 * padded by TILE_PAD elements against bank conflicts when they are
 * stored. Sizes for a GPU with 64K registers and 48 KiB+ of local memory
 * per compute unit (NVIDIA, AMD): 256 work-items, 34 KiB of local memory
 * per f32 matrix product (two stages). On an H100 ptxas gives each
 * work-item 231 registers, so one group runs per multiprocessor (fewer
 * registers by unrolling less, or stages of 8 or 32, were slower; groups
 * of 16 x 8 or 8 x 16 work-items, blocks of 128 x 64 or 64 x 128, took
 * 255 registers and 6.0 / 5.8 ms against 4.9 ms for 4096^3). */
#define TILE_SIDE_Y 16
#define TILE_SIDE_X 16
#define TILE_REG 8
#define TILE_RUN 4
#define TILE_K 16
#define TILE_PAD 4
#define TILE_THREADS (TILE_SIDE_Y * TILE_SIDE_X)
/* Inputs of fewer elements than this have every in-bounds LMAD index,
 * and each term of it, in the range of a 32-bit int. */
#define TILE_NARROW_MAX 2147483647LL

/* Points of a group's block along level l (0: rows, 1: columns). */
static int tile_block(int l) { return (l ? TILE_SIDE_X : TILE_SIDE_Y) * TILE_REG; }

/* Elements of one stage of an input of level l in local memory; there
 * are two stages per input, one computed on while the next is stored. */
static int tile_stage(int l) { return TILE_K * (tile_block(l) + TILE_PAD); }

/* Elements of a stage of an input of level l that each work-item loads. */
static int tile_per(int l) { return tile_block(l) * TILE_K / TILE_THREADS; }

/* The offset in a group's block of a work-item's point r (coordinate
 * rt_t<axis> of the work-item), a C expression. */
static const char *tile_offset(Emit *K, char axis, int r) {
    int side = axis == 'x' ? TILE_SIDE_X : TILE_SIDE_Y;
    return arena_printf(K->a, "%d + rt_t%c * %d", (r / TILE_RUN) * side * TILE_RUN + r % TILE_RUN, axis, TILE_RUN);
}

/* Whether neighbour work-items load neighbour elements of input arr
 * along its reduction dimension (when that has unit stride) rather than
 * along its rows. */
static bool tile_along_k(const Var *arr) {
    int64_t unit;
    return sym_is_const(arr->mem->ixfun->dims[0].stride, &unit) && unit == 1;
}

/* The position (rt_kk, rt_rr) in a stage of input arr (of level l) of
 * the work-item's element e. */
static void tile_place(Emit *K, const Var *arr, int l, int e) {
    ce_line(K, "int rt_x = rt_ltid + %d;", e * TILE_THREADS);
    if (tile_along_k(arr)) ce_line(K, "int rt_kk = rt_x %% %d, rt_rr = rt_x / %d;", TILE_K, TILE_K);
    else ce_line(K, "int rt_rr = rt_x %% %d, rt_kk = rt_x / %d;", tile_block(l), tile_block(l));
}

/* Where input arr (the j-th) of a tiled map-reduce comes from: the rows
 * of level l with iterator iter and width n, from base (the group's first
 * row), of reduction width w (C expressions). */
typedef struct TileFetch {
    const Var *arr;
    int j, l;
    const Var *iter;
    const char *base, *n, *w;
} TileFetch;

/* A variable of an index expression in 32-bit arithmetic. */
static const char *narrow_name(int id, void *ctx) {
    Emit *K = ctx;
    return arena_printf(K->a, "(int)%s", ce_sym_name(id, K));
}

/* Element e of the work-item's share of a stage of input f->arr (from
 * k0) into rt_g<j>_<e>, zero outside the input. Narrow: the address in
 * 32-bit arithmetic (valid when the input's block has fewer than
 * TILE_NARROW_MAX elements). */
static void tile_fetch_one(Emit *K, const TileFetch *f, const char *k0, int e, int kg, bool narrow) {
    const Var *arr = f->arr;
    const char *it = ce_name(K, f->iter), *kn = ce_sym_name(kg, K);
    tile_place(K, arr, f->l, e);
    ce_line(K, "rt_g%d_%d = 0;", f->j, e);
    ce_line(K, "if (%s + rt_rr < %s && %s + rt_kk < %s) {", f->base, f->n, k0, f->w);
    K->indent++;
    Sym *kk = sym_var(K->a, kg);
    const char *at;
    if (narrow) {
        ce_line(K, "int %s = (int)(%s + rt_rr), %s = (int)(%s + rt_kk);", it, f->base, kn, k0);
        Buf b = {0};
        sym_print_c_as(&b, lmad_index(K->a, arr->mem->ixfun, &kk), narrow_name, K, "int");
        at = arena_printf(K->a, "%s[%s]", ce_arr_base(K, arr), b.data);
        buf_free(&b);
    } else {
        ce_line(K, "int64_t %s = %s + rt_rr, %s = %s + rt_kk;", it, f->base, kn, k0);
        at = ce_elem_at(K, ce_arr_base(K, arr), arr->mem->ixfun, &kk);
    }
    ce_line(K, "rt_g%d_%d = %s;", f->j, e, at);
    K->indent--;
    ce_line(K, "}");
}

/* Loads the work-item's share of a stage of input f->arr into registers
 * rt_g<j>_<e>: tile_block rows times TILE_K elements from k0, zero
 * outside. All loads are issued before any is used, and a stage is
 * loaded while the previous one is being computed on. The addresses are
 * computed in 32 bits when the host found every input small enough
 * (rt_narrow, uniform): on an H100 that took matmul from 4.85 to 3.89 ms. */
static void tile_fetch(Emit *K, const TileFetch *f, const char *k0) {
    int kg = ce_counter(K, "rt_kg");
    for (int e = 0; e < tile_per(f->l); e++) {
        ce_line(K, "if (rt_narrow) {");
        K->indent++;
        tile_fetch_one(K, f, k0, e, kg, true);
        K->indent--;
        ce_line(K, "} else {");
        K->indent++;
        tile_fetch_one(K, f, k0, e, kg, false);
        K->indent--;
        ce_line(K, "}");
    }
}

/* Stores the registers of input arr (j, of level l) into stage rt_at (0
 * or 1) of rt_tile<j>: element (row rr, kk) at [kk][rr]. */
static void tile_store(Emit *K, const Var *arr, int j, int l) {
    for (int e = 0; e < tile_per(l); e++) {
        ce_line(K, "{");
        K->indent++;
        tile_place(K, arr, l, e);
        ce_line(K, "rt_tile%d[rt_at * %d + rt_kk * %d + rt_rr] = rt_g%d_%d;", j, tile_stage(l), tile_block(l) + TILE_PAD,
                j, e);
        K->indent--;
        ce_line(K, "}");
    }
}

/* The body of a loop over rt_kk (left open by the caller, closed here):
 * reads each work-item's elements of element rt_kk of stage rt_at
 * and folds them into its points' accumulators accs[r][c]. */
static void tile_fold(Emit *K, const SegInfo *g, const char ****accs) {
    const Stm *red = g->tile;
    const Screma *rc = &red->e->screma;
    K->indent++;
    for (int j = 0; j < rc->narrs; j++) {
        int l = g->tile_level[j];
        for (int r = 0; r < TILE_REG; r++)
            ce_line(K, "%s rt_f%d_%d = rt_tile%d[rt_at * %d + rt_kk * %d + %s];", ctype(rc->arrs[j]->type.elem), j, r,
                    j, tile_stage(l), tile_block(l) + TILE_PAD, tile_offset(K, l ? 'x' : 'y', r));
    }
    int nv;
    PrimType *ts = op_types(K, rc->reds, rc->nreds, &nv);
    const char **vals = names_of(K, "rt_m%d", nv);
    for (int r = 0; r < TILE_REG; r++)
        for (int c = 0; c < TILE_REG; c++) {
            ce_line(K, "{");
            K->indent++;
            for (int j = 0; j < rc->narrs; j++)
                ce_declare(K, rc->map->params[j],
                           arena_printf(K->a, "rt_f%d_%d", j, g->tile_level[j] ? c : r));
            declare_vals(K, "rt_m%d", ts, NULL, nv);
            StoreCtx x = {red, nv, vals, 0, NULL, NULL};
            ce_body(K, rc->map->body, res_store, &x);
            combine_reds(K, red, vals, accs[r][c]);
            K->indent--;
            ce_line(K, "}");
        }
    K->indent--;
    ce_line(K, "}");
}

/* The kernel's steps over the reduction, one barrier each: load the next
 * stage of every input into registers, fold the current one (in local
 * memory) into each point's accumulators accs[r][c], and store the next
 * one in the other half of local memory. */
static void tile_steps(Emit *K, const SegInfo *g, const char ****accs) {
    const Stm *red = g->tile;
    const Screma *rc = &red->e->screma;
    const char *width[2] = {ce_se(K, level_width(g->levels[0])), ce_se(K, level_width(g->levels[1]))};
    const char *wk = ce_se(K, rc->w);
    for (int j = 0; j < rc->narrs; j++)
        for (int e = 0; e < tile_per(g->tile_level[j]); e++)
            ce_line(K, "%s rt_g%d_%d;", ctype(rc->arrs[j]->type.elem), j, e);
    TileFetch *fetch = NEW_ARRAY(K->a, TileFetch, rc->narrs);
    for (int j = 0; j < rc->narrs; j++) {
        int l = g->tile_level[j];
        fetch[j] = (TileFetch){rc->arrs[j], j, l, g->levels[l]->e->screma.iter, l ? "rt_x0" : "rt_y0", width[l], wk};
        tile_fetch(K, &fetch[j], "0");
    }
    ce_line(K, "int rt_at = 0;");
    for (int j = 0; j < rc->narrs; j++) tile_store(K, rc->arrs[j], j, fetch[j].l);
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    ce_line(K, "for (long rt_k0 = 0; rt_k0 < %s; rt_k0 += %d) {", wk, TILE_K);
    K->indent++;
    for (int j = 0; j < rc->narrs; j++) tile_fetch(K, &fetch[j], arena_printf(K->a, "rt_k0 + %d", TILE_K));
    ce_line(K, "int rt_kn = %s - rt_k0 < %d ? (int)(%s - rt_k0) : %d;", wk, TILE_K, wk, TILE_K);
    ce_line(K, "if (rt_kn == %d) {", TILE_K);
    K->indent++;
    ce_line(K, "#pragma unroll");
    ce_line(K, "for (int rt_kk = 0; rt_kk < %d; rt_kk++) {", TILE_K);
    tile_fold(K, g, accs);
    K->indent--;
    ce_line(K, "} else {");
    K->indent++;
    ce_line(K, "for (int rt_kk = 0; rt_kk < rt_kn; rt_kk++) {");
    tile_fold(K, g, accs);
    K->indent--;
    ce_line(K, "}");
    ce_line(K, "rt_at = 1 - rt_at;");
    for (int j = 0; j < rc->narrs; j++) tile_store(K, rc->arrs[j], j, fetch[j].l);
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    K->indent--;
    ce_line(K, "}");
}

/* A block-tiled SegMap (SegInfo.tile): one group per tile_block(0) x
 * tile_block(1) block of the two-level space, with the map-reduce's
 * accumulators in registers; then each point runs the rest of the inner
 * body and stores its results. The accumulation may contract a multiply
 * and an add into one fused operation (FP_CONTRACT ON): the order of the
 * reduction is kept, its rounding may differ from the C backend's. */
void seg_map_tiled(Emit *E, const Stm *s) {
    const SegInfo *g = s->e->seg;
    const Stm *red = g->tile, *inner = g->levels[1];
    const Screma *rc = &red->e->screma;
    Kern k;
    kern_begin(E, &k, s, "segmap_tiled");
    host_launch_begin(E, &k);
    ce_line(E, "int32_t rt_narrow = 1;");
    for (int j = 0; j < rc->narrs; j++)
        ce_line(E, "rt_narrow &= rt_cl_block_size(%s) / %d < %lld;", ce_name(E, rc->arrs[j]->mem->mem),
                prim_size(rc->arrs[j]->type.elem), TILE_NARROW_MAX);
    ce_line(E, "int64_t rt_gx = ((int64_t)%s + %d) / %d, rt_gy = ((int64_t)%s + %d) / %d;",
            ce_se(E, level_width(inner)), tile_block(1) - 1, tile_block(1), ce_se(E, level_width(s)), tile_block(0) - 1,
            tile_block(0));
    kern_free_args(E, &k, arena_printf(E->a, "rt_gx * rt_gy * %d", TILE_THREADS));
    kern_extra(E, &k, "int rt_narrow", "int32_t", "rt_narrow");
    ce_line(E, "if (rt_cl_launch(ctx, %d, rt_gx * rt_gy, %d)) goto fail;", k.id, TILE_THREADS);
    host_launch_end(E, &k);

    /* The group size is fixed: the compiler may give each work-item the
     * registers its accumulators need. */
    k.attrs = arena_printf(E->a, "__attribute__((reqd_work_group_size(%d, 1, 1))) ", TILE_THREADS);
    Emit *K = &k.K;
    K->contract = true;
    ce_line(K, "#pragma OPENCL FP_CONTRACT ON");
    for (int j = 0; j < rc->narrs; j++)
        ce_line(K, "__local %s rt_tile%d[%d] __attribute__((aligned(16)));", ctype(rc->arrs[j]->type.elem), j,
                2 * tile_stage(g->tile_level[j]));
    const char *wy = ce_se(K, level_width(s)), *wx = ce_se(K, level_width(inner));
    ce_line(K, "int rt_ltid = get_local_id(0), rt_ty = rt_ltid / %d, rt_tx = rt_ltid %% %d;", TILE_SIDE_X,
            TILE_SIDE_X);
    ce_line(K, "long rt_gx = (%s + %d) / %d, rt_gid = get_group_id(0);", wx, tile_block(1) - 1, tile_block(1));
    ce_line(K, "long rt_y0 = rt_gid / rt_gx * %d, rt_x0 = rt_gid %% rt_gx * %d;", tile_block(0), tile_block(1));
    kern_prologue(&k, "get_global_id(0)");
    const char ****accs = NEW_ARRAY(K->a, const char ***, TILE_REG);
    for (int r = 0; r < TILE_REG; r++) {
        accs[r] = NEW_ARRAY(K->a, const char **, TILE_REG);
        for (int c = 0; c < TILE_REG; c++) accs[r][c] = ce_declare_accs(K, rc->reds, rc->nreds, NULL, true);
    }
    tile_steps(K, g, accs);
    const Body *b = inner->e->screma.map->body;
    for (int r = 0; r < TILE_REG; r++)
        for (int c = 0; c < TILE_REG; c++) {
            const char *y = tile_offset(K, 'y', r), *x = tile_offset(K, 'x', c);
            ce_line(K, "if (rt_y0 + %s < %s && rt_x0 + %s < %s) {", y, wy, x, wx);
            K->indent++;
            ce_line(K, "int64_t %s = rt_y0 + %s, %s = rt_x0 + %s;", ce_name(K, s->e->screma.iter), y,
                    ce_name(K, inner->e->screma.iter), x);
            for (int j = 0; j < red->npat; j++) ce_declare(K, red->pat[j], accs[r][c][j]);
            for (int i = 1; i < b->nstms; i++) ce_stm(K, b->stms[i]);
            CeScremaCtx o = {inner, NULL, NULL};
            ce_res_screma(K, b, &o);
            K->indent--;
            ce_line(K, "}");
        }
    ce_line(K, "rt_next: ;");
    kern_end(E, &k);
}
