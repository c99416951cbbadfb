/* The block-tiled SegMap (SegInfo.tile; gpu.h lists the GPU lowering's
 * files): a map of two levels around a reduction over a row of each
 * level's input (a matrix product). A work-group computes a block of the
 * space with its points' accumulators in registers, staging the rows it
 * needs in local memory. */
#include "gpu.h"

/* A tiled group is TILE_SIDE_Y x TILE_SIDE_X work-items, each computing
 * TILE_REG x TILE_REG points of the space in registers; a group's block
 * is tile_block(0) x tile_block(1) points. Its rows and columns read
 * TILE_K elements of their reduction's rows at a time from local memory,
 * where the group stages them: every element read from global memory
 * serves a whole row or column of the block, and every local read
 * TILE_REG points. A work-item's points in one direction are runs of
 * TILE_RUN neighbours, side * TILE_RUN apart, so that neighbouring
 * work-items read neighbouring local words (no bank conflicts) and a run
 * can be one vector load. Staged rows are padded by TILE_PAD elements
 * against bank conflicts when they are stored. Sizes for a GPU with 64K
 * registers and 48 KiB+ of local memory per compute unit (NVIDIA, AMD):
 * 256 work-items, 34 KiB of local memory per f32 matrix product (two
 * stages). On an H100 ptxas gives each work-item 231 registers, so one
 * group runs per multiprocessor (fewer registers by unrolling less, or
 * stages of 8 or 32, were slower; groups of 16 x 8 or 8 x 16 work-items,
 * blocks of 128 x 64 or 64 x 128, took 255 registers and 6.0 / 5.8 ms
 * against 4.9 ms for 4096^3). */
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

/* The kernel being written: the work-item's place (i32: ltid, its
 * coordinates ty and tx, the stage at), its group's first row and column
 * (i64: y0, x0), whether the host found every input small enough for
 * 32-bit indices (narrow), and per input j of the reduction (of level
 * level[j]) its local array tiles[j] and registers regs[j][e]; per point
 * (r, c) of the work-item, the accumulators accs[r][c] (nv values). */
typedef struct Tile {
    const SegInfo *g;
    const Screma *rc;
    const int *level;
    ImpVar *ltid, *ty, *tx, *at, *y0, *x0, *narrow;
    ImpVar **tiles;
    ImpVar ***regs;
    ImpVar ****accs;
    int nv;
} Tile;

static ImpExp *i32(ImpLower *L, int c) { return imp_const(L->a, prim_int(PT_I32, c)); }

/* An element index x computed in 32-bit arithmetic (local arrays, and
 * inputs whose every index fits). */
static ImpExp *ix32(ImpLower *L, Sym *x) { return imp_conv(L->a, PT_I32, PT_I64, imp_sym32(L->a, x)); }

/* The offset in a group's block of a work-item's point r along level l
 * (its coordinate ty or tx). */
static Sym *tile_offset(ImpLower *L, const Tile *T, int l, int r) {
    int side = l ? TILE_SIDE_X : TILE_SIDE_Y;
    Sym *t = gl_sym(L, l ? T->tx : T->ty);
    return sym_add(L->a, sym_const(L->a, (r / TILE_RUN) * side * TILE_RUN + r % TILE_RUN),
                   sym_mul(L->a, t, sym_const(L->a, TILE_RUN)));
}

/* Whether neighbour work-items load neighbour elements of input arr
 * along its reduction dimension (when that has unit stride) rather than
 * along its rows. */
static bool tile_along_k(const Var *arr) {
    int64_t unit;
    return sym_is_const(arr->mem->ixfun->dims[0].stride, &unit) && unit == 1;
}

/* Declares the position (*kk, *rr: i32) in a stage of input j of the
 * work-item's element e. */
static void tile_place(ImpLower *L, const Tile *T, int j, int e, ImpVar **kk, ImpVar **rr) {
    Arena *a = L->a;
    ImpExp *x = imp_sym32(a, sym_add(a, gl_sym(L, T->ltid), sym_const(a, e * TILE_THREADS)));
    bool along_k = tile_along_k(T->rc->arrs[j]);
    ImpExp *w = i32(L, along_k ? TILE_K : tile_block(T->level[j]));
    ImpVar *in = gl_let(L, along_k ? "kk" : "rr", PT_I32, imp_op2(a, OP_REM, PT_I32, x, w));
    ImpVar *across = gl_let(L, along_k ? "rr" : "kk", PT_I32, imp_op2(a, OP_QUOT, PT_I32, x, w));
    *kk = along_k ? in : across;
    *rr = along_k ? across : in;
}

/* Loads the work-item's share of a stage of input j into its registers:
 * tile_block rows times TILE_K elements from k0, zero outside the input,
 * with 32-bit addresses when narrow. */
static void tile_fetch_input(ImpLower *L, const Tile *T, int j, Sym *k0, bool narrow) {
    Arena *a = L->a;
    const Var *arr = T->rc->arrs[j];
    int l = T->level[j];
    const Stm *ls = T->g->levels[l];
    const Var *iter = gl_level_iter(ls);
    Sym *base = gl_sym(L, l ? T->x0 : T->y0);
    PrimType t = arr->type.elem;
    PrimValue zero = prim_class(t) == PC_FLOAT ? prim_float(t, 0) : prim_int(t, 0);
    for (int e = 0; e < tile_per(l); e++) {
        LwNest sn;
        ImpStm *sc = gl_scope(L, &sn);
        ImpVar *kk, *rr;
        tile_place(L, T, j, e, &kk, &rr);
        lw_declare(L, iter, imp_sym(a, sym_add(a, base, gl_sym(L, rr))));
        ImpVar *kg = gl_let(L, "kg", PT_I64, imp_sym(a, sym_add(a, k0, gl_sym(L, kk))));
        ImpVar *reg = T->regs[j][e];
        imp_assign(L->b, reg, imp_const(a, zero));
        ImpExp *rows = imp_op2(a, OP_LT, PT_I64, imp_read(a, lw_var(L, iter)), lw_se(L, gl_level_width(ls)));
        ImpExp *cols = imp_op2(a, OP_LT, PT_I64, imp_read(a, kg), lw_se(L, T->rc->w));
        LwNest in;
        ImpStm *inside = gl_if(L, &in, imp_op2(a, OP_LAND, PT_BOOL, rows, cols));
        Sym *k = gl_sym(L, kg);
        if (narrow) imp_assign(L->b, reg, imp_load(a, lw_var(L, arr->mem->mem), t, ix32(L, lmad_index(a, arr->mem->ixfun, &k))));
        else imp_assign(L->b, reg, lw_elem(L, arr, &k));
        inside->body = lw_leave(L, &in);
        sc->body = lw_leave(L, &sn);
    }
}

/* Loads the work-item's share of a stage of every input (from k0) into
 * its registers: all loads are issued before any is used, and a stage is
 * loaded while the previous one is being computed on. The addresses are
 * computed in 32 bits when the host found every input small enough
 * (narrow, uniform): on an H100 that took matmul from 4.85 to 3.89 ms.
 * The test of narrow is taken once around all the loads of both paths,
 * so that each path's loads are issued together (a test per element
 * between them took matmul from 3.89 to 4.62 ms on an H200). */
static void tile_fetch(ImpLower *L, const Tile *T, Sym *k0) {
    LwNest n;
    ImpStm *narrow = gl_if(L, &n, imp_read(L->a, T->narrow));
    for (int j = 0; j < T->rc->narrs; j++) tile_fetch_input(L, T, j, k0, true);
    narrow->body = lw_leave(L, &n);
    lw_enter(L, &n);
    for (int j = 0; j < T->rc->narrs; j++) tile_fetch_input(L, T, j, k0, false);
    narrow->orelse = lw_leave(L, &n);
}

/* Stores the registers of input j into stage at of its local array:
 * element (row rr, kk) at [kk][rr]. */
static void tile_store(ImpLower *L, const Tile *T, int j) {
    Arena *a = L->a;
    int l = T->level[j];
    for (int e = 0; e < tile_per(l); e++) {
        ImpVar *kk, *rr;
        tile_place(L, T, j, e, &kk, &rr);
        Sym *at = sym_add(a, sym_mul(a, gl_sym(L, T->at), sym_const(a, tile_stage(l))),
                          sym_add(a, sym_mul(a, gl_sym(L, kk), sym_const(a, tile_block(l) + TILE_PAD)), gl_sym(L, rr)));
        imp_store(L->b, T->tiles[j], T->rc->arrs[j]->type.elem, ix32(L, at), imp_read(a, T->regs[j][e]));
    }
}

/* Folds a point's map results (the first nv results of the reduction's
 * map body) into its accumulators (ctx). */
typedef struct FoldCtx {
    const Tile *T;
    ImpVar **accs;
} FoldCtx;

static void fold_res(ImpLower *L, const Body *b, void *ctx) {
    const FoldCtx *f = ctx;
    const Screma *rc = f->T->rc;
    ImpExp **vals = NEW_ARRAY(L->a, ImpExp *, f->T->nv + 1);
    for (int v = 0; v < f->T->nv; v++) vals[v] = lw_se(L, b->res[v]);
    gl_apply(L, rc->reds, rc->nreds, gl_reads(L, f->accs, f->T->nv), vals, f->accs);
}

/* A loop over element kk (an i32 counter, below bound) of stage at:
 * reads each work-item's elements of it from local memory and folds them
 * into its points' accumulators. */
static void tile_fold(ImpLower *L, const Tile *T, ImpExp *bound, bool unroll) {
    Arena *a = L->a;
    const Screma *rc = T->rc;
    ImpVar *kk = lw_fresh(L, "kk", IMP_SCALAR, PT_I32);
    LwNest n;
    ImpStm *loop = lw_for(L, &n, kk, bound);
    loop->unroll = unroll;
    ImpVar ***f = NEW_ARRAY(a, ImpVar **, rc->narrs + 1);
    for (int j = 0; j < rc->narrs; j++) {
        int l = T->level[j];
        PrimType t = rc->arrs[j]->type.elem;
        Sym *row = sym_add(a, sym_mul(a, gl_sym(L, T->at), sym_const(a, tile_stage(l))),
                           sym_mul(a, gl_sym(L, kk), sym_const(a, tile_block(l) + TILE_PAD)));
        f[j] = NEW_ARRAY(a, ImpVar *, TILE_REG);
        for (int r = 0; r < TILE_REG; r++)
            f[j][r] = gl_let(L, "f", t, imp_load(a, T->tiles[j], t, ix32(L, sym_add(a, row, tile_offset(L, T, l, r)))));
    }
    for (int r = 0; r < TILE_REG; r++)
        for (int c = 0; c < TILE_REG; c++) {
            LwNest sn;
            ImpStm *sc = gl_scope(L, &sn);
            for (int j = 0; j < rc->narrs; j++) lw_declare(L, rc->map->params[j], imp_read(a, f[j][T->level[j] ? c : r]));
            FoldCtx x = {T, T->accs[r][c]};
            lw_body(L, rc->map->body, fold_res, &x, NULL, 0);
            sc->body = lw_leave(L, &sn);
        }
    loop->body = lw_leave(L, &n);
}

/* The kernel's steps over the reduction, one barrier each: load the next
 * stage of every input into registers, fold the current one (in local
 * memory) into each point's accumulators, and store the next one in the
 * other half of local memory. The stage loop's counter k0 is an i64, the
 * fold's an i32 (a full stage's fold unrolled). */
static void tile_steps(ImpLower *L, Tile *T) {
    Arena *a = L->a;
    const Screma *rc = T->rc;
    T->regs = NEW_ARRAY(a, ImpVar **, rc->narrs + 1);
    for (int j = 0; j < rc->narrs; j++) {
        T->regs[j] = NEW_ARRAY(a, ImpVar *, tile_per(T->level[j]));
        for (int e = 0; e < tile_per(T->level[j]); e++) T->regs[j][e] = gl_let(L, "g", rc->arrs[j]->type.elem, NULL);
    }
    tile_fetch(L, T, sym_const(a, 0));
    T->at = gl_let(L, "at", PT_I32, i32(L, 0));
    for (int j = 0; j < rc->narrs; j++) tile_store(L, T, j);
    gl_barrier(L);
    ImpVar *k0 = gl_let(L, "k0", PT_I64, gl_i64(L, 0));
    Sym *wk = ir_se_sym(a, rc->w);
    LwNest n;
    ImpStm *w = gl_while(L, &n, imp_op2(a, OP_LT, PT_I64, imp_read(a, k0), imp_sym(a, wk)));
    tile_fetch(L, T, sym_add(a, gl_sym(L, k0), sym_const(a, TILE_K)));
    ImpExp *left = imp_op2(a, OP_MIN, PT_I64, imp_sym(a, sym_sub(a, wk, gl_sym(L, k0))), gl_i64(L, TILE_K));
    ImpVar *kn = gl_let(L, "kn", PT_I32, imp_conv(a, PT_I64, PT_I32, left));
    LwNest fn;
    ImpStm *full = gl_if(L, &fn, imp_op2(a, OP_EQ, PT_I32, imp_read(a, kn), i32(L, TILE_K)));
    tile_fold(L, T, i32(L, TILE_K), true);
    full->body = lw_leave(L, &fn);
    lw_enter(L, &fn);
    tile_fold(L, T, imp_read(a, kn), false);
    full->orelse = lw_leave(L, &fn);
    imp_assign(L->b, T->at, imp_sym32(a, sym_sub(a, sym_const(a, 1), gl_sym(L, T->at))));
    for (int j = 0; j < rc->narrs; j++) tile_store(L, T, j);
    gl_barrier(L);
    imp_assign(L->b, k0, imp_sym(a, sym_add(a, gl_sym(L, k0), sym_const(a, TILE_K))));
    w->body = lw_leave(L, &n);
}

/* Each point (r, c) of the work-item inside the space: the rest of the
 * inner body (after the reduction, whose results are the point's
 * accumulators) and its results. */
static void tile_points(ImpLower *L, const Tile *T) {
    Arena *a = L->a;
    const Stm *outer = T->g->levels[0], *inner = T->g->levels[1], *red = T->g->tile;
    const Screma *in = &inner->e->screma;
    Body rest = *in->map->body;
    rest.stms++;
    rest.nstms--;
    for (int r = 0; r < TILE_REG; r++)
        for (int c = 0; c < TILE_REG; c++) {
            Sym *y = sym_add(a, gl_sym(L, T->y0), tile_offset(L, T, 0, r));
            Sym *x = sym_add(a, gl_sym(L, T->x0), tile_offset(L, T, 1, c));
            ImpExp *iny = imp_op2(a, OP_LT, PT_I64, imp_sym(a, y), lw_se(L, gl_level_width(outer)));
            ImpExp *inx = imp_op2(a, OP_LT, PT_I64, imp_sym(a, x), lw_se(L, gl_level_width(inner)));
            LwNest n;
            ImpStm *st = gl_if(L, &n, imp_op2(a, OP_LAND, PT_BOOL, iny, inx));
            lw_declare(L, gl_level_iter(outer), imp_sym(a, y));
            lw_declare(L, gl_level_iter(inner), imp_sym(a, x));
            gl_outer_levels(L, T->g, 1);
            lw_bind_rows(L, in->map, in->arrs, in->iter);
            for (int v = 0; v < T->nv; v++) lw_declare(L, red->pat[v], imp_read(a, T->accs[r][c][v]));
            lw_body(L, &rest, lw_map_results, (void *)inner, NULL, 0);
            st->body = lw_leave(L, &n);
        }
}

/* A block-tiled SegMap (SegInfo.tile): one group of TILE_THREADS
 * work-items (a fixed size, so that the target may give each work-item
 * the registers its accumulators need) per tile_block(0) x tile_block(1)
 * block of the two-level space, with the map-reduce's accumulators in
 * registers; then each point runs the rest of the inner body and stores
 * its results. The accumulation may contract a multiply and an add into
 * one fused operation (ImpKernel.contract): the order of the reduction
 * is kept, its rounding may differ from the C backend's. */
void gl_seg_map_tiled(ImpLower *L, const Stm *s) {
    const SegInfo *g = s->e->seg;
    const Screma *rc = &g->tile->e->screma;
    Arena *a = L->a;
    Kb kb;
    kb_begin(L, &kb, "segmap_tiled", g);
    kb.k->fixed_group_size = TILE_THREADS;
    kb.k->contract = true;
    /* Host: 32-bit indices when every input is small enough. */
    ImpExp *narrow = NULL;
    for (int j = 0; j < rc->narrs; j++) {
        const Var *arr = rc->arrs[j];
        ImpExp *small = imp_op2(a, OP_LT, PT_I64, imp_memsize(a, lw_var(L, arr->mem->mem)),
                                gl_i64(L, TILE_NARROW_MAX * prim_size(arr->type.elem)));
        narrow = narrow ? imp_op2(a, OP_LAND, PT_BOOL, narrow, small) : small;
    }
    Sym *wy = ir_se_sym(a, gl_level_width(g->levels[0])), *wx = ir_se_sym(a, gl_level_width(g->levels[1]));
    ImpExp *gx = gl_div_up(L, imp_sym(a, wx), gl_i64(L, tile_block(1)));
    ImpExp *gy = gl_div_up(L, imp_sym(a, wy), gl_i64(L, tile_block(0)));
    ImpVar *groups = gl_let(L, "groups", PT_I64, gl_op(L, OP_MUL, gx, gy));
    kb_free_vars(L, &kb, imp_sym(a, sym_mul(a, gl_sym(L, groups), sym_const(a, TILE_THREADS))), s->loc);
    Tile T = {.g = g, .rc = rc, .level = g->tile_level};
    T.narrow = kb_scalar(L, &kb, "narrow", PT_BOOL, narrow);
    T.tiles = NEW_ARRAY(a, ImpVar *, rc->narrs + 1);
    for (int j = 0; j < rc->narrs; j++)
        T.tiles[j] = kb_local(L, &kb, "tile", rc->arrs[j]->type.elem, gl_i64(L, 2 * tile_stage(g->tile_level[j])));

    kb_enter(L, &kb);
    T.ltid = gl_let(L, "ltid", PT_I32, imp_conv(a, PT_I64, PT_I32, imp_thread(a, IMP_LOCAL_ID)));
    T.ty = gl_let(L, "ty", PT_I32, imp_op2(a, OP_QUOT, PT_I32, imp_read(a, T.ltid), i32(L, TILE_SIDE_X)));
    T.tx = gl_let(L, "tx", PT_I32, imp_op2(a, OP_REM, PT_I32, imp_read(a, T.ltid), i32(L, TILE_SIDE_X)));
    ImpVar *gid = gl_let(L, "gid", PT_I64, imp_thread(a, IMP_GROUP_ID));
    Sym *kgx = gl_sym(L, gl_let(L, "gx", PT_I64, gx));
    ImpVar *by = gl_let(L, "by", PT_I64, imp_sym(a, sym_div(a, gl_sym(L, gid), kgx)));
    Sym *bx = sym_sub(a, gl_sym(L, gid), sym_mul(a, gl_sym(L, by), kgx));
    T.y0 = gl_let(L, "y0", PT_I64, imp_sym(a, sym_mul(a, gl_sym(L, by), sym_const(a, tile_block(0)))));
    T.x0 = gl_let(L, "x0", PT_I64, imp_sym(a, sym_mul(a, bx, sym_const(a, tile_block(1)))));
    kb_prologue(L, &kb, sym_add(a, sym_mul(a, gl_sym(L, gid), sym_const(a, TILE_THREADS)), gl_sym(L, T.ltid)));
    PrimType *ts = gl_op_types(L, rc->reds, rc->nreds, &T.nv);
    T.accs = NEW_ARRAY(a, ImpVar ***, TILE_REG);
    for (int r = 0; r < TILE_REG; r++) {
        T.accs[r] = NEW_ARRAY(a, ImpVar **, TILE_REG);
        for (int c = 0; c < TILE_REG; c++)
            T.accs[r][c] = gl_lets(L, "acc", ts, T.nv, gl_neutrals(L, rc->reds, rc->nreds, T.nv));
    }
    tile_steps(L, &T);
    tile_points(L, &T);
    kb_leave(L, &kb);

    kb_launch(L, &kb, imp_read(a, groups), gl_i64(L, TILE_THREADS));
    kb_release(L, &kb);
}
