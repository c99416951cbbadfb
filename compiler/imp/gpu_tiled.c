/* The tiled SegMaps (SegInfo.tile; gpu.h lists the GPU lowering's
 * files). Block tiling: a map of two levels around a reduction over a row
 * of each level's input (a matrix product); a work-group computes a block
 * of the space with its points' accumulators in registers, staging the
 * rows it needs in local memory. 1-D tiling: a map around a reduction
 * over whole arrays (n-body); a work-group stages chunks of those arrays
 * in local memory for its elements. */
#include "gpu.h"

/* A tiled group is sy x sx work-items (TileCfg), each computing ry x rx
 * points of the space in registers; a group's block is tile_block(0) x
 * tile_block(1) points. Its rows and columns read k elements of their
 * reduction's rows at a time from local memory, where the group stages
 * them: every element read from global memory serves a whole row or
 * column of the block, and every local read ry or rx points. A
 * work-item's points in one direction are runs of TILE_RUN neighbours,
 * side * TILE_RUN apart, so that neighbouring work-items read neighbouring
 * local words (no bank conflicts) and a run can be one vector load.
 * Staged rows are padded by TILE_PAD elements against bank conflicts when
 * they are stored.
 *
 * The configurations are variants of one kernel (ImpKernel.variant): the
 * tuning parameter <kernel>.variant picks the one the program is built
 * with (RaijinCL's tuned kernels, seed 004). The first is the default:
 * sizes for a GPU with 64K registers and 48 KiB+ of local memory per
 * compute unit (NVIDIA, AMD): 256 work-items, 34 KiB of local memory per
 * f32 matrix product (two stages). On an H200 ptxas gives each of its
 * work-items 239 registers, so one group runs per multiprocessor (capping
 * them at 128 or 160 with -cl-nv-maxrregcount spilled and took 4096^3
 * from 3.83 to 5.0 ms). With the steps of tile_steps, 4096^3 took 3.42
 * ms with the first, 3.45 with stages of 8 (160 registers), 3.30 with
 * groups of 16 x 8 work-items of 8 x 16 points each (252 registers, two
 * groups per multiprocessor) and 3.23 with groups of 8 x 16 of 16 x 8
 * points and steps in two parts (cuBLAS: 2.73-2.78 ms); 4.2-4.5 with
 * blocks of 128 x 64 or 64 x 128 (127 registers), 4.6-5.2 with 64 x 64
 * or 32 x 32, which pay where large blocks leave multiprocessors idle (a
 * product of 256 x 8192 by 8192 x 256 took 838 us with the first, 230
 * with blocks of 32 x 32). Blocks of 128 x 128 with stages of 16 and 8 x
 * 16 points per work-item spilled (255 registers; 4.9-5.5 ms), stages of
 * 32 did not fit or were slow (6.1 ms for 64 x 64). Variants whose local
 * arrays exceed TILE_LOCAL_MAX bytes for the inputs' types are left out. */
typedef struct TileCfg {
    int sy, sx; /* work-items of a group along rows and columns */
    int ry, rx; /* points of a work-item along rows and columns (multiples of TILE_RUN) */
    int k;      /* elements of a stage along the reduction */
    int parts;  /* a full step's loads, folds and stores in parts (tile_step) */
} TileCfg;

static const TileCfg tile_cfgs[] = {
    {16, 16, 8, 8, 16, 1}, {16, 16, 8, 8, 8, 1}, {16, 16, 8, 4, 16, 1}, {16, 16, 4, 8, 16, 1},
    {16, 16, 4, 4, 16, 1}, {8, 8, 4, 4, 16, 1},   {8, 16, 16, 8, 8, 2}, {16, 8, 8, 16, 8, 1},
};
#define TILE_RUN 4
#define TILE_PAD 4
#define TILE_LOCAL_MAX (48 * 1024)
/* Points of a space from which the large blocks' variants are taken by
 * default (128 blocks of 128 x 128: about one per multiprocessor of a
 * large GPU), and the most points of a small variant's block by default. */
#define TILE_LARGE_POINTS (INT64_C(1) << 21)
#define TILE_SMALL_BLOCK (64 * 64)
/* Inputs of fewer elements than this have every in-bounds LMAD index,
 * and each term of it, in the range of a 32-bit int. */
#define TILE_NARROW_MAX 2147483647LL

static int tile_threads(const TileCfg *c) { return c->sy * c->sx; }

/* Work-items of a group and points of a work-item along level l (0:
 * rows, 1: columns). */
static int tile_side(const TileCfg *c, int l) { return l ? c->sx : c->sy; }
static int tile_reg(const TileCfg *c, int l) { return l ? c->rx : c->ry; }

/* Points of a group's block along level l. */
static int tile_block(const TileCfg *c, int l) { return tile_side(c, l) * tile_reg(c, l); }

/* Elements of one stage of an input of level l in local memory; there
 * are two stages per input, one computed on while the next is stored. */
static int tile_stage(const TileCfg *c, int l) { return c->k * (tile_block(c, l) + TILE_PAD); }

/* Elements of a stage of an input of level l that each work-item loads. */
static int tile_per(const TileCfg *c, int l) { return tile_block(c, l) * c->k / tile_threads(c); }

/* The kernel being written: the work-item's place (i32: ltid, its
 * coordinates ty and tx, the stage at), its group's first row and column
 * (i64: y0, x0), whether the host found every input small enough for
 * 32-bit indices (narrow), and per input j of the reduction (of level
 * level[j]) its local array tiles[j], registers regs[j][e] and, when
 * narrow, the index ix[j][e] of element e's row at element 0; per point
 * (r, c) of the work-item, the accumulators accs[r][c] (nv values). */
typedef struct Tile {
    const TileCfg *c;
    const SegInfo *g;
    const Screma *rc;
    const int *level;
    ImpVar *ltid, *ty, *tx, *at, *y0, *x0, *narrow;
    ImpVar **tiles;
    ImpVar ***regs, ***ix;
    ImpVar ****accs;
    int nv;
} Tile;

/* Part i of n of a stage: the elements e of a work-item's share of per
 * with per * i / n <= e < per * (i + 1) / n, and its elements kk along
 * the reduction with k * i / n <= kk < k * (i + 1) / n. */
typedef struct Part {
    int i, n;
} Part;
static const Part TILE_WHOLE = {0, 1};

/* The first of part p's items of count, and the one after its last. */
static int part_start(Part p, int count) { return count * p.i / p.n; }
static int part_end(Part p, int count) { return count * (p.i + 1) / p.n; }

static ImpExp *i32(ImpLower *L, int c) { return imp_const(L->a, prim_int(PT_I32, c)); }

/* An element index x computed in 32-bit arithmetic (local arrays, and
 * inputs whose every index fits). */
static ImpExp *ix32(ImpLower *L, Sym *x) { return imp_conv(L->a, PT_I32, PT_I64, imp_sym32(L->a, x)); }

/* The offset in a group's block of a work-item's point r along level l
 * (its coordinate ty or tx). */
static Sym *tile_offset(ImpLower *L, const Tile *T, int l, int r) {
    int side = tile_side(T->c, l);
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
    ImpExp *x = imp_sym32(a, sym_add(a, gl_sym(L, T->ltid), sym_const(a, e * tile_threads(T->c))));
    bool along_k = tile_along_k(T->rc->arrs[j]);
    ImpExp *w = i32(L, along_k ? T->c->k : tile_block(T->c, T->level[j]));
    ImpVar *in = gl_let(L, along_k ? "kk" : "rr", PT_I32, imp_op2(a, OP_REM, PT_I32, x, w));
    ImpVar *across = gl_let(L, along_k ? "rr" : "kk", PT_I32, imp_op2(a, OP_QUOT, PT_I32, x, w));
    *kk = along_k ? in : across;
    *rr = along_k ? across : in;
}

/* Binds the level iterator of element e of input j's stage to the row it
 * loads, clamped to the input's last row (the input is not empty): what
 * the group computes from rows past the end is what it computes for some
 * point inside the space, and no point outside is stored. Returns the
 * element's position kk in its row's stage. */
static ImpVar *tile_row(ImpLower *L, const Tile *T, int j, int e) {
    Arena *a = L->a;
    int l = T->level[j];
    const Stm *ls = T->g->levels[l];
    ImpVar *kk, *rr;
    tile_place(L, T, j, e, &kk, &rr);
    Sym *row = sym_add(a, gl_sym(L, l ? T->x0 : T->y0), gl_sym(L, rr));
    Sym *last = sym_sub(a, ir_se_sym(a, gl_level_width(ls)), sym_const(a, 1));
    lw_declare(L, gl_level_iter(ls), gl_op(L, OP_MIN, imp_sym(a, row), imp_sym(a, last)));
    return kk;
}

/* A variable per input j and element e of its share of a stage, zero at
 * first: an i32 index, or else of the input's element type. */
static ImpVar ***tile_vars(ImpLower *L, const Tile *T, const char *name, bool index) {
    Arena *a = L->a;
    const Screma *rc = T->rc;
    ImpVar ***vs = NEW_ARRAY(a, ImpVar **, rc->narrs + 1);
    for (int j = 0; j < rc->narrs; j++) {
        PrimType t = index ? PT_I32 : rc->arrs[j]->type.elem;
        ImpExp *zero = imp_const(a, prim_class(t) == PC_FLOAT ? prim_float(t, 0) : prim_int(t, 0));
        vs[j] = NEW_ARRAY(a, ImpVar *, tile_per(T->c, T->level[j]));
        for (int e = 0; e < tile_per(T->c, T->level[j]); e++) vs[j][e] = gl_let(L, name, t, zero);
    }
    return vs;
}

/* Declares T->ix (narrow: each loaded element's index at stage 0),
 * computed once before the loop. */
static void tile_indices(ImpLower *L, Tile *T) {
    Arena *a = L->a;
    const Screma *rc = T->rc;
    T->ix = tile_vars(L, T, "ix", true);
    LwNest n;
    ImpStm *narrow = gl_if(L, &n, imp_read(a, T->narrow));
    for (int j = 0; j < rc->narrs; j++)
        for (int e = 0; e < tile_per(T->c, T->level[j]); e++) {
            LwNest sn;
            ImpStm *sc = gl_scope(L, &sn);
            Sym *k = gl_sym(L, tile_row(L, T, j, e));
            imp_assign(L->b, T->ix[j][e], imp_sym32(a, lmad_index(a, rc->arrs[j]->mem->ixfun, &k)));
            sc->body = lw_leave(L, &sn);
        }
    narrow->body = lw_leave(L, &n);
}

/* Loads the work-item's share of a stage of input j into its registers:
 * tile_block rows times k elements from k0, with 32-bit addresses when
 * narrow (from T->ix unless clamped). Rows past the input's end are
 * clamped to its last one (tile_row), and when clamped elements past the
 * reduction's end to its last one: no staged element past the end is
 * folded (tile_steps). */
static void tile_fetch_input(ImpLower *L, const Tile *T, int j, Sym *k0, bool narrow, bool clamped, Part part) {
    Arena *a = L->a;
    const Var *arr = T->rc->arrs[j];
    Sym *last = sym_sub(a, ir_se_sym(a, T->rc->w), sym_const(a, 1));
    PrimType t = arr->type.elem;
    int per = tile_per(T->c, T->level[j]);
    for (int e = part_start(part, per); e < part_end(part, per); e++) {
        if (narrow && !clamped) {
            Sym *at = sym_add(a, gl_sym(L, T->ix[j][e]), sym_mul(a, k0, arr->mem->ixfun->dims[0].stride));
            imp_assign(L->b, T->regs[j][e], imp_load(a, lw_var(L, arr->mem->mem), t, ix32(L, at)));
            continue;
        }
        LwNest sn;
        ImpStm *sc = gl_scope(L, &sn);
        ImpVar *kk = tile_row(L, T, j, e);
        ImpExp *at = imp_sym(a, sym_add(a, k0, gl_sym(L, kk)));
        ImpVar *kg = gl_let(L, "kg", PT_I64, clamped ? gl_op(L, OP_MIN, at, imp_sym(a, last)) : at);
        Sym *k = gl_sym(L, kg);
        if (narrow) imp_assign(L->b, T->regs[j][e], imp_load(a, lw_var(L, arr->mem->mem), t, ix32(L, lmad_index(a, arr->mem->ixfun, &k))));
        else imp_assign(L->b, T->regs[j][e], lw_elem(L, arr, &k));
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
static void tile_fetch(ImpLower *L, const Tile *T, Sym *k0, bool clamped, Part part) {
    LwNest n;
    ImpStm *narrow = gl_if(L, &n, imp_read(L->a, T->narrow));
    for (int j = 0; j < T->rc->narrs; j++) tile_fetch_input(L, T, j, k0, true, clamped, part);
    narrow->body = lw_leave(L, &n);
    lw_enter(L, &n);
    for (int j = 0; j < T->rc->narrs; j++) tile_fetch_input(L, T, j, k0, false, clamped, part);
    narrow->orelse = lw_leave(L, &n);
}

/* Stores part of the registers of every input j into stage half of its
 * local array: element (row rr, kk) at [kk][rr]. */
static void tile_store(ImpLower *L, const Tile *T, Sym *half, Part part) {
    Arena *a = L->a;
    for (int j = 0; j < T->rc->narrs; j++) {
        int l = T->level[j], per = tile_per(T->c, l);
        for (int e = part_start(part, per); e < part_end(part, per); e++) {
            ImpVar *kk, *rr;
            tile_place(L, T, j, e, &kk, &rr);
            Sym *at = sym_add(a, sym_mul(a, half, sym_const(a, tile_stage(T->c, l))),
                              sym_add(a, sym_mul(a, gl_sym(L, kk), sym_const(a, tile_block(T->c, l) + TILE_PAD)), gl_sym(L, rr)));
            imp_store(L->b, T->tiles[j], T->rc->arrs[j]->type.elem, ix32(L, at), imp_read(a, T->regs[j][e]));
        }
    }
}

/* Folds a point's map results (the first nv results of the map body of
 * reduction rc) into its accumulators accs: an LwResFn of both tilings. */
typedef struct FoldCtx {
    const Screma *rc;
    int nv;
    ImpVar **accs;
} FoldCtx;

static void fold_res(ImpLower *L, const Body *b, void *ctx) {
    const FoldCtx *f = ctx;
    ImpExp **vals = NEW_ARRAY(L->a, ImpExp *, f->nv + 1);
    for (int v = 0; v < f->nv; v++) vals[v] = lw_se(L, b->res[v]);
    gl_apply(L, f->rc->reds, f->rc->nreds, gl_reads(L, f->accs, f->nv), vals, f->accs);
}

/* A loop over elements first + kk (kk an i32 counter below bound) of
 * stage at: reads each work-item's elements of it from local memory and
 * folds them into its points' accumulators. */
static void tile_fold(ImpLower *L, const Tile *T, int first, ImpExp *bound, bool unroll) {
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
        Sym *row = sym_add(a, sym_mul(a, gl_sym(L, T->at), sym_const(a, tile_stage(T->c, l))),
                           sym_mul(a, sym_add(a, gl_sym(L, kk), sym_const(a, first)), sym_const(a, tile_block(T->c, l) + TILE_PAD)));
        f[j] = NEW_ARRAY(a, ImpVar *, tile_reg(T->c, l));
        for (int r = 0; r < tile_reg(T->c, l); r++)
            f[j][r] = gl_let(L, "f", t, imp_load(a, T->tiles[j], t, ix32(L, sym_add(a, row, tile_offset(L, T, l, r)))));
    }
    for (int r = 0; r < T->c->ry; r++)
        for (int c = 0; c < T->c->rx; c++) {
            LwNest sn;
            ImpStm *sc = gl_scope(L, &sn);
            for (int j = 0; j < rc->narrs; j++) lw_declare(L, rc->map->params[j], imp_read(a, f[j][T->level[j] ? c : r]));
            FoldCtx x = {T->rc, T->nv, T->accs[r][c]};
            lw_body(L, rc->map->body, fold_res, &x, NULL, 0);
            sc->body = lw_leave(L, &sn);
        }
    loop->body = lw_leave(L, &n);
}

/* One step over the reduction from k0 (the loop's counter), ending in a
 * barrier: load the next stage of every input into registers (clamped or
 * not), fold kn elements of the current one (in local memory) into each
 * point's accumulators (unrolled or not), and store the next one in the
 * other half of local memory. In parts (kn = k: a full stage), the loads
 * and the stores of part i of the next stage come before and after the
 * fold of part i of the current one: fewer registers hold loads in
 * flight. */
static void tile_step(ImpLower *L, Tile *T, ImpVar *k0, bool clamped, ImpExp *kn, bool unroll, int parts) {
    Arena *a = L->a;
    int kd = T->c->k;
    Sym *next = sym_add(a, gl_sym(L, k0), sym_const(a, kd)), *other = sym_sub(a, sym_const(a, 1), gl_sym(L, T->at));
    for (int i = 0; i < parts; i++) {
        Part part = {i, parts};
        tile_fetch(L, T, next, clamped, part);
        if (parts == 1) tile_fold(L, T, 0, kn, unroll);
        else tile_fold(L, T, part_start(part, kd), i32(L, part_end(part, kd) - part_start(part, kd)), unroll);
        tile_store(L, T, other, part);
    }
    imp_assign(L->b, T->at, imp_sym32(a, other));
    gl_barrier(L);
    imp_assign(L->b, k0, imp_sym(a, sym_add(a, gl_sym(L, k0), sym_const(a, kd))));
}

/* The kernel's steps over the reduction of width w, one barrier each:
 * after the first stage (clamped), a loop of steps whose next stage lies
 * inside the inputs (nothing clamped; a full stage's fold unrolled), then
 * at most two whose next stage does not (clamped; a fold of what is left
 * of w, not unrolled). The stage loops' counter k0 is an i64, the folds'
 * an i32. On an H200 matmul 4096^3 took 3.82 ms with a bounds test per
 * loaded element in every step, 3.74 with a clamp instead, 3.45 with a
 * path without either for the steps of blocks inside the space, and 3.42
 * split so, its loads' indices computed before the loop (the first
 * variant; 3.30 for the one of blocks of 16 x 8 work-items). */
static void tile_steps(ImpLower *L, Tile *T) {
    Arena *a = L->a;
    const Screma *rc = T->rc;
    T->regs = tile_vars(L, T, "g", false);
    tile_indices(L, T);
    Sym *wk = ir_se_sym(a, rc->w);
    int kd = T->c->k;
    LwNest fn;
    ImpStm *any = gl_if(L, &fn, imp_op2(a, OP_LT, PT_I64, gl_i64(L, 0), imp_sym(a, wk))); /* clamping needs an element */
    tile_fetch(L, T, sym_const(a, 0), true, TILE_WHOLE);
    any->body = lw_leave(L, &fn);
    T->at = gl_let(L, "at", PT_I32, i32(L, 0));
    tile_store(L, T, sym_const(a, 0), TILE_WHOLE);
    gl_barrier(L);
    ImpVar *k0 = gl_let(L, "k0", PT_I64, gl_i64(L, 0));
    LwNest n;
    ImpStm *inner = gl_while(L, &n, imp_op2(a, OP_LE, PT_I64, imp_sym(a, sym_add(a, gl_sym(L, k0), sym_const(a, 2 * kd))), imp_sym(a, wk)));
    tile_step(L, T, k0, false, i32(L, kd), true, T->c->parts);
    inner->body = lw_leave(L, &n);
    ImpStm *last = gl_while(L, &n, imp_op2(a, OP_LT, PT_I64, imp_read(a, k0), imp_sym(a, wk)));
    ImpExp *left = imp_op2(a, OP_MIN, PT_I64, imp_sym(a, sym_sub(a, wk, gl_sym(L, k0))), gl_i64(L, kd));
    tile_step(L, T, k0, true, imp_conv(a, PT_I64, PT_I32, left), false, 1);
    last->body = lw_leave(L, &n);
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
    for (int r = 0; r < T->c->ry; r++)
        for (int c = 0; c < T->c->rx; c++) {
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

/* The kernel kb of a block-tiled SegMap s in configuration c: one group
 * of sy x sx work-items (a fixed size, so that the target may give each
 * work-item the registers its accumulators need) per tile_block(c, 0) x
 * tile_block(c, 1) block of the two-level space, with the map-reduce's
 * accumulators in registers; then each point runs the rest of the inner
 * body and stores its results. The accumulation may contract a multiply
 * and an add into one fused operation (ImpKernel.contract): the order of
 * the reduction is kept, its rounding may differ from the C backend's. */
static void tile_kernel(ImpLower *L, const Stm *s, Kb *kb, const TileCfg *c) {
    const SegInfo *g = s->e->seg;
    const Screma *rc = &g->tile->e->screma;
    Arena *a = L->a;
    int threads = tile_threads(c);
    kb->k->fixed_group_size = threads;
    kb->k->contract = true;
    /* Host: 32-bit indices when every input is small enough. */
    ImpExp *narrow = NULL;
    for (int j = 0; j < rc->narrs; j++) {
        const Var *arr = rc->arrs[j];
        ImpExp *small = imp_op2(a, OP_LT, PT_I64, imp_memsize(a, lw_var(L, arr->mem->mem)),
                                gl_i64(L, TILE_NARROW_MAX * prim_size(arr->type.elem)));
        narrow = narrow ? imp_op2(a, OP_LAND, PT_BOOL, narrow, small) : small;
    }
    Sym *wy = ir_se_sym(a, gl_level_width(g->levels[0])), *wx = ir_se_sym(a, gl_level_width(g->levels[1]));
    ImpExp *gx = gl_div_up(L, imp_sym(a, wx), gl_i64(L, tile_block(c, 1)));
    ImpExp *gy = gl_div_up(L, imp_sym(a, wy), gl_i64(L, tile_block(c, 0)));
    ImpVar *groups = gl_let(L, "groups", PT_I64, gl_op(L, OP_MUL, gx, gy));
    kb_free_vars(L, kb, imp_sym(a, sym_mul(a, gl_sym(L, groups), sym_const(a, threads))), s->loc);
    Tile T = {.c = c, .g = g, .rc = rc, .level = g->tile_level};
    T.narrow = kb_scalar(L, kb, "narrow", PT_BOOL, narrow);
    T.tiles = NEW_ARRAY(a, ImpVar *, rc->narrs + 1);
    for (int j = 0; j < rc->narrs; j++)
        T.tiles[j] = kb_local(L, kb, "tile", rc->arrs[j]->type.elem, gl_i64(L, 2 * tile_stage(c, g->tile_level[j])));

    kb_enter(L, kb);
    T.ltid = gl_let(L, "ltid", PT_I32, imp_conv(a, PT_I64, PT_I32, imp_thread(a, IMP_LOCAL_ID)));
    T.ty = gl_let(L, "ty", PT_I32, imp_op2(a, OP_QUOT, PT_I32, imp_read(a, T.ltid), i32(L, c->sx)));
    T.tx = gl_let(L, "tx", PT_I32, imp_op2(a, OP_REM, PT_I32, imp_read(a, T.ltid), i32(L, c->sx)));
    ImpVar *gid = gl_let(L, "gid", PT_I64, imp_thread(a, IMP_GROUP_ID));
    Sym *kgx = gl_sym(L, gl_let(L, "gx", PT_I64, gx));
    ImpVar *by = gl_let(L, "by", PT_I64, imp_sym(a, sym_div(a, gl_sym(L, gid), kgx)));
    Sym *bx = sym_sub(a, gl_sym(L, gid), sym_mul(a, gl_sym(L, by), kgx));
    T.y0 = gl_let(L, "y0", PT_I64, imp_sym(a, sym_mul(a, gl_sym(L, by), sym_const(a, tile_block(c, 0)))));
    T.x0 = gl_let(L, "x0", PT_I64, imp_sym(a, sym_mul(a, bx, sym_const(a, tile_block(c, 1)))));
    kb_prologue(L, kb, sym_add(a, sym_mul(a, gl_sym(L, gid), sym_const(a, threads)), gl_sym(L, T.ltid)));
    PrimType *ts = gl_op_types(L, rc->reds, rc->nreds, &T.nv);
    T.accs = NEW_ARRAY(a, ImpVar ***, c->ry);
    for (int r = 0; r < c->ry; r++) {
        T.accs[r] = NEW_ARRAY(a, ImpVar **, c->rx);
        for (int x = 0; x < c->rx; x++) T.accs[r][x] = gl_lets(L, "acc", ts, T.nv, gl_neutrals(L, rc->reds, rc->nreds, T.nv));
    }
    tile_steps(L, &T);
    tile_points(L, &T);
    kb_leave(L, kb);

    kb_launch(L, kb, imp_read(a, groups), gl_i64(L, threads));
    kb_release(L, kb);
}

/* The bytes of configuration c's local arrays for reduction rc (inputs
 * of levels level). */
static int64_t tile_local_bytes(const TileCfg *c, const Screma *rc, const int *level) {
    int64_t bytes = 0;
    for (int j = 0; j < rc->narrs; j++) bytes += 2 * tile_stage(c, level[j]) * prim_size(rc->arrs[j]->type.elem);
    return bytes;
}

/* The variants of a block-tiled SegMap s, one per configuration cs[i]
 * (n of them), launched after a test of the variant the program was
 * built with (dflt unless its tuning parameter says otherwise); where
 * says where they are used. */
static void tile_variants(ImpLower *L, const Stm *s, const TileCfg **cs, int n, int dflt, const char *where) {
    Arena *a = L->a;
    Kb *kbs = NEW_ARRAY(a, Kb, n);
    Buf d = {0};
    buf_printf(&d, "%s: ", where);
    for (int i = 0; i < n; i++) {
        kb_begin(L, &kbs[i], "segmap_tiled", s->e->seg);
        kbs[i].k->head = kbs[0].k;
        kbs[i].k->variant = i + 1;
        buf_printf(&d, "%s%d = block %dx%d, stage %d, group %dx%d", i ? "; " : "", i + 1, tile_block(cs[i], 0),
                   tile_block(cs[i], 1), cs[i]->k, cs[i]->sy, cs[i]->sx);
        if (cs[i]->parts > 1) buf_printf(&d, ", steps in %d parts", cs[i]->parts);
    }
    kbs[0].k->nvariants = n;
    kbs[0].k->variant_default = dflt;
    kbs[0].k->described = arena_strdup(a, d.data);
    buf_free(&d);
    ImpVar *v = gl_let(L, "variant", PT_I64, imp_tuning(a, kbs[0].k, IMP_TUNE_VARIANT, NULL));
    LwNest *nests = NEW_ARRAY(a, LwNest, n);
    ImpStm **ifs = NEW_ARRAY(a, ImpStm *, n);
    for (int i = 0; i < n; i++) {
        if (i < n - 1) ifs[i] = gl_if(L, &nests[i], imp_op2(a, OP_EQ, PT_I64, imp_read(a, v), gl_i64(L, i + 1)));
        tile_kernel(L, s, &kbs[i], cs[i]);
        if (i < n - 1) {
            ifs[i]->body = lw_leave(L, &nests[i]);
            lw_enter(L, &nests[i]);
        }
    }
    for (int i = n - 2; i >= 0; i--) ifs[i]->orelse = lw_leave(L, &nests[i]);
}

/* A block-tiled SegMap: the configurations of tile_cfgs whose local
 * arrays fit in TILE_LOCAL_MAX bytes (or, if none does, the one that
 * needs the least) are its variants, twice: a space of at least the
 * threshold <entry>.tile_large_N points (TILE_LARGE_POINTS by default)
 * takes one of the first set (by default the first configuration),
 * smaller ones one of the second (by default the first whose blocks have
 * at most TILE_SMALL_BLOCK points), so that a product whose large blocks
 * would leave the device idle has a choice of its own. */
void gl_seg_map_tiled(ImpLower *L, const Stm *s) {
    const SegInfo *g = s->e->seg;
    Arena *a = L->a;
    int n = 0, ncfgs = (int)(sizeof tile_cfgs / sizeof *tile_cfgs), least = 0, small = 0;
    const TileCfg **cs = NEW_ARRAY(a, const TileCfg *, ncfgs);
    int64_t *bytes = NEW_ARRAY(a, int64_t, ncfgs);
    for (int i = 0; i < ncfgs; i++) {
        bytes[i] = tile_local_bytes(&tile_cfgs[i], &g->tile->e->screma, g->tile_level);
        if (bytes[i] <= TILE_LOCAL_MAX) cs[n++] = &tile_cfgs[i];
        if (bytes[i] < bytes[least]) least = i;
    }
    if (n == 0) cs[n++] = &tile_cfgs[least];
    for (int i = n - 1; i >= 0; i--)
        if (tile_block(cs[i], 0) * tile_block(cs[i], 1) <= TILE_SMALL_BLOCK) small = i;
    Sym *points = sym_mul(a, ir_se_sym(a, gl_level_width(g->levels[0])), ir_se_sym(a, gl_level_width(g->levels[1])));
    LwNest t;
    const Threshold *thr;
    ImpStm *large = gl_if(L, &t, gl_threshold(L, "tile_large", TILE_LARGE_POINTS, imp_sym(a, points), &thr));
    tile_variants(L, s, cs, n, 1, arena_printf(a, "spaces of at least %s points", thr->name));
    large->body = lw_leave(L, &t);
    lw_enter(L, &t);
    tile_variants(L, s, cs, n, small + 1, arena_printf(a, "spaces of fewer than %s points", thr->name));
    large->orelse = lw_leave(L, &t);
}

/* ---- 1-D tiling ------------------------------------------------------------------------ */

/* A 1-D tiled group (SegInfo.tile of depth 1) is TILE1_THREADS work-items:
 * lanes work-items (a power of two, at most TILE1_LANES_MAX) split each
 * element's reduction into contiguous chunks, so a group computes
 * TILE1_THREADS / lanes elements (per). Each step stages per elements of
 * every lane's chunk of the reduction's arrays in local memory (one
 * element per work-item), then every work-item folds the per elements
 * of its lane, TILE1_UNROLL at a time. Arrays of one element type are
 * interleaved in one local array, each element's values padded to a
 * power of two, so that the target reads them with one vector load:
 * n-body (32768 bodies, H200) took 2.98 ms untiled, 2.03 with four local
 * arrays, 1.53 with one of float4 elements, and 1.18-1.26 with 4 lanes
 * an element (1 lane leaves an H100 or H200 with 128 groups of 256). */
#define TILE1_THREADS 256
#define TILE1_LANES_MAX 32
#define TILE1_UNROLL 8

/* The kernel being written: the reduction rc, the work-item's place
 * (i32: ltid, its lane q, per), the lanes' chunk length (i64), its
 * lane's elements [start, end) (i64: the last lanes' are shorter), the
 * local arrays (tiles: one per input, or one shared when interleaved,
 * with stride values per element) and the accumulators accs (nv). */
typedef struct Tile1 {
    const Screma *rc;
    ImpVar *ltid, *q, *per, *chunk, *start, *end;
    ImpVar **tiles;
    int stride;
    ImpVar **accs;
    int nv;
} Tile1;

/* Where input j of element e (an i32 position in the stage) is in its
 * local array. */
static ImpExp *tile1_at(ImpLower *L, const Tile1 *T, int j, Sym *e) {
    Arena *a = L->a;
    if (T->stride == 1) return ix32(L, e);
    return ix32(L, sym_add(a, sym_mul(a, e, sym_const(a, T->stride)), sym_const(a, j)));
}

static ImpVar *tile1_array(const Tile1 *T, int j) { return T->tiles[T->stride == 1 ? j : 0]; }

/* Folds element k (an i32) of the work-item's lane in the stage into its
 * accumulators. */
static void tile1_fold(ImpLower *L, const Tile1 *T, Sym *k) {
    Arena *a = L->a;
    const Screma *rc = T->rc;
    LwNest n;
    ImpStm *sc = gl_scope(L, &n);
    Sym *e = sym_add(a, sym_mul(a, gl_sym(L, T->q), gl_sym(L, T->per)), k);
    for (int j = 0; j < rc->narrs; j++)
        lw_declare(L, rc->map->params[j], imp_load(a, tile1_array(T, j), rc->arrs[j]->type.elem, tile1_at(L, T, j, e)));
    FoldCtx x = {rc, T->nv, T->accs};
    lw_body(L, rc->map->body, fold_res, &x, NULL, 0);
    sc->body = lw_leave(L, &n);
}

/* The steps over the reduction's width, two barriers each: every
 * work-item stores element s0 + ltid % per of its lane's chunk, then
 * folds the stage's elements of its lane (a whole stage unrolled). */
static void tile1_steps(ImpLower *L, const Tile1 *T) {
    Arena *a = L->a;
    const Screma *rc = T->rc;
    Sym *per = gl_sym(L, T->per), *start = gl_sym(L, T->start), *end = gl_sym(L, T->end);
    Sym *chunk = gl_sym(L, T->chunk);
    ImpVar *s0 = gl_let(L, "s0", PT_I64, gl_i64(L, 0));
    LwNest n;
    ImpStm *w = gl_while(L, &n, imp_op2(a, OP_LT, PT_I64, imp_read(a, s0), imp_sym(a, chunk)));
    gl_barrier(L);
    Sym *il = sym_sub(a, gl_sym(L, T->ltid), sym_mul(a, gl_sym(L, T->q), per));
    ImpVar *j = gl_let(L, "j", PT_I64, imp_sym(a, sym_add(a, sym_add(a, start, gl_sym(L, s0)), il)));
    LwNest ln;
    ImpStm *in = gl_if(L, &ln, imp_op2(a, OP_LT, PT_I64, imp_read(a, j), imp_sym(a, end)));
    Sym *jj = gl_sym(L, j);
    for (int x = 0; x < rc->narrs; x++)
        imp_store(L->b, tile1_array(T, x), rc->arrs[x]->type.elem, tile1_at(L, T, x, gl_sym(L, T->ltid)),
                  lw_elem(L, rc->arrs[x], &jj));
    in->body = lw_leave(L, &ln);
    gl_barrier(L);
    ImpExp *left = imp_op2(a, OP_MIN, PT_I64, imp_sym(a, sym_sub(a, sym_sub(a, end, start), gl_sym(L, s0))), imp_sym(a, per));
    left = imp_op2(a, OP_MAX, PT_I64, left, gl_i64(L, 0));
    ImpVar *kn = gl_let(L, "kn", PT_I32, imp_conv(a, PT_I64, PT_I32, left));
    LwNest fn;
    ImpStm *full = gl_if(L, &fn, imp_op2(a, OP_EQ, PT_I32, imp_read(a, kn), imp_read(a, T->per)));
    ImpVar *kb = lw_fresh(L, "kb", IMP_SCALAR, PT_I32), *u = lw_fresh(L, "u", IMP_SCALAR, PT_I32);
    LwNest bn, un;
    ImpStm *blocks = lw_for(L, &bn, kb, imp_op2(a, OP_QUOT, PT_I32, imp_read(a, T->per), i32(L, TILE1_UNROLL)));
    ImpStm *unrolled = lw_for(L, &un, u, i32(L, TILE1_UNROLL));
    unrolled->unroll = true;
    tile1_fold(L, T, sym_add(a, sym_mul(a, gl_sym(L, kb), sym_const(a, TILE1_UNROLL)), gl_sym(L, u)));
    unrolled->body = lw_leave(L, &un);
    blocks->body = lw_leave(L, &bn);
    full->body = lw_leave(L, &fn);
    lw_enter(L, &fn);
    ImpVar *k = lw_fresh(L, "k", IMP_SCALAR, PT_I32);
    LwNest kn2;
    ImpStm *rest = lw_for(L, &kn2, k, imp_read(a, kn));
    tile1_fold(L, T, gl_sym(L, k));
    rest->body = lw_leave(L, &kn2);
    full->orelse = lw_leave(L, &fn);
    imp_assign(L->b, s0, imp_sym(a, sym_add(a, gl_sym(L, s0), per)));
    w->body = lw_leave(L, &n);
}

/* A 1-D tiled SegMap: see TILE1_THREADS. Work-items past the map's width
 * compute its last element (they stage elements for the others) and
 * write nothing; lane 0 of an element combines its lanes' partial results
 * in order (the operators need not commute), runs the rest of the body and
 * writes its results. */
void gl_seg_map_tile1(ImpLower *L, const Stm *s) {
    const SegInfo *g = s->e->seg;
    const Stm *level = g->levels[0], *red = g->tile;
    const Screma *rc = &red->e->screma;
    const Body *b = level->e->screma.map->body;
    Arena *a = L->a;
    Kb kb;
    kb_begin(L, &kb, "segmap_tile1", g);
    kb.k->fixed_group_size = TILE1_THREADS;
    ImpVar *n = gl_let(L, "n", PT_I64, lw_se(L, gl_level_width(level)));
    ImpExp *lane_args[] = {imp_read(a, n), gl_i64(L, TILE1_THREADS), gl_i64(L, 1)};
    ImpExp *tuned = imp_tuning(a, kb.k, IMP_TUNE_LANES, lane_args);
    ImpVar *lanes = gl_let(L, "lanes", PT_I64, imp_op2(a, OP_MIN, PT_I64, tuned, gl_i64(L, TILE1_LANES_MAX)));
    ImpExp *per = gl_op(L, OP_DIV, gl_i64(L, TILE1_THREADS), imp_read(a, lanes));
    ImpVar *groups = gl_let(L, "groups", PT_I64, gl_div_up(L, imp_read(a, n), per));
    kb_free_vars(L, &kb, gl_op(L, OP_MUL, imp_read(a, groups), gl_i64(L, TILE1_THREADS)), s->loc);
    ImpVar *kn = kb_scalar(L, &kb, "n", PT_I64, imp_read(a, n));
    ImpVar *klanes = kb_scalar(L, &kb, "lanes", PT_I32, imp_conv(a, PT_I64, PT_I32, imp_read(a, lanes)));
    Tile1 T = {.rc = rc};
    PrimType *ts = gl_op_types(L, rc->reds, rc->nreds, &T.nv);
    bool one_type = true;
    for (int j = 1; j < rc->narrs; j++) one_type &= rc->arrs[j]->type.elem == rc->arrs[0]->type.elem;
    T.stride = 1;
    if (one_type)
        while (T.stride < rc->narrs) T.stride *= 2;
    int ntiles = T.stride == 1 ? rc->narrs : 1;
    T.tiles = NEW_ARRAY(a, ImpVar *, ntiles);
    for (int j = 0; j < ntiles; j++)
        T.tiles[j] = kb_local(L, &kb, "tile", rc->arrs[j]->type.elem, gl_i64(L, (int64_t)TILE1_THREADS * T.stride));
    ImpVar **parts = NEW_ARRAY(a, ImpVar *, T.nv + 1);
    for (int v = 0; v < T.nv; v++) parts[v] = kb_local(L, &kb, "part", ts[v], gl_i64(L, TILE1_THREADS));

    kb_enter(L, &kb);
    T.ltid = gl_let(L, "ltid", PT_I32, imp_conv(a, PT_I64, PT_I32, imp_thread(a, IMP_LOCAL_ID)));
    T.per = gl_let(L, "per", PT_I32, imp_op2(a, OP_QUOT, PT_I32, i32(L, TILE1_THREADS), imp_read(a, klanes)));
    T.q = gl_let(L, "q", PT_I32, imp_op2(a, OP_QUOT, PT_I32, imp_read(a, T.ltid), imp_read(a, T.per)));
    ImpVar *il = gl_let(L, "il", PT_I32, imp_op2(a, OP_REM, PT_I32, imp_read(a, T.ltid), imp_read(a, T.per)));
    Sym *pt = sym_add(a, sym_mul(a, gl_sym(L, gl_let(L, "gid", PT_I64, imp_thread(a, IMP_GROUP_ID))), gl_sym(L, T.per)),
                      gl_sym(L, il));
    ImpVar *act = gl_let(L, "act", PT_BOOL, imp_op2(a, OP_LT, PT_I64, imp_sym(a, pt), imp_read(a, kn)));
    ImpExp *last = imp_sym(a, sym_sub(a, gl_sym(L, kn), sym_const(a, 1)));
    Sym *iter = gl_sym(L, gl_let(L, "pt", PT_I64, imp_op2(a, OP_MIN, PT_I64, imp_sym(a, pt), last)));
    kb_prologue(L, &kb, iter);
    lw_declare(L, gl_level_iter(level), imp_sym(a, iter));
    int ri = 0;
    while (b->stms[ri] != red) ri++;
    LwNest pn;
    ImpStm *pre = gl_region(L, &pn);
    lw_bind_rows(L, level->e->screma.map, level->e->screma.arrs, level->e->screma.iter);
    for (int i = 0; i < ri; i++) lw_stm(L, b->stms[i]);
    pre->body = lw_leave(L, &pn);
    T.accs = gl_lets(L, "acc", ts, T.nv, gl_neutrals(L, rc->reds, rc->nreds, T.nv));
    Sym *w = ir_se_sym(a, rc->w), *lanes_k = gl_sym(L, klanes);
    T.chunk = gl_let(L, "chunk", PT_I64, imp_sym(a, sym_div(a, sym_sub(a, sym_add(a, w, lanes_k), sym_const(a, 1)), lanes_k)));
    Sym *q = gl_sym(L, T.q), *chunk = gl_sym(L, T.chunk);
    T.start = gl_let(L, "start", PT_I64, imp_op2(a, OP_MIN, PT_I64, imp_sym(a, sym_mul(a, q, chunk)), imp_sym(a, w)));
    T.end = gl_let(L, "end", PT_I64,
                   imp_op2(a, OP_MIN, PT_I64, imp_sym(a, sym_mul(a, sym_add(a, q, sym_const(a, 1)), chunk)), imp_sym(a, w)));
    tile1_steps(L, &T);
    gl_barrier(L);
    gl_stores(L, parts, ts, T.nv, ix32(L, gl_sym(L, T.ltid)), gl_reads(L, T.accs, T.nv));
    gl_barrier(L);
    LwNest fn;
    ImpStm *first = gl_if(L, &fn, imp_op2(a, OP_LAND, PT_BOOL, imp_read(a, act), imp_op2(a, OP_EQ, PT_I32, imp_read(a, T.q), i32(L, 0))));
    ImpVar *r = lw_fresh(L, "r", IMP_SCALAR, PT_I32);
    LwNest rn;
    ImpStm *lanes_loop = lw_for(L, &rn, r, imp_op2(a, OP_SUB, PT_I32, imp_read(a, klanes), i32(L, 1)));
    Sym *from = sym_add(a, sym_mul(a, sym_add(a, gl_sym(L, r), sym_const(a, 1)), gl_sym(L, T.per)), gl_sym(L, il));
    gl_apply(L, rc->reds, rc->nreds, gl_reads(L, T.accs, T.nv), gl_loads(L, parts, ts, T.nv, ix32(L, from)), T.accs);
    lanes_loop->body = lw_leave(L, &rn);
    for (int v = 0; v < T.nv; v++) lw_declare(L, red->pat[v], imp_read(a, T.accs[v]));
    Body rest = *b;
    rest.stms += ri + 1;
    rest.nstms -= ri + 1;
    LwNest post;
    ImpStm *after = gl_region(L, &post);
    lw_body(L, &rest, lw_map_results, (void *)level, NULL, 0);
    after->body = lw_leave(L, &post);
    first->body = lw_leave(L, &fn);
    kb_leave(L, &kb);

    kb_launch(L, &kb, imp_read(a, groups), gl_i64(L, TILE1_THREADS));
    kb_release(L, &kb);
}
