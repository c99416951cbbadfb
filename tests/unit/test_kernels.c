/* Unit tests of the GPU stage: which operators are known to commute
 * (ir_segop_known_commutative), and what the kernels pass records for
 * host-level SOACs (segment kind, nest depth, free variables, per-work-item
 * blocks and their layout, inputs read through transposed copies), on
 * programs compiled from source through the whole pipeline; and skipping
 * an optimisation pass (--skip-pass) to measure it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "from_source.h"

#include "passes/pipeline.h"

/* p through every pass up to STAGE_GPU, verified. */
static Prog *tk_gpu(const char *src) {
    Prog *p = unit_from_source(src);
    PipelineOpts o = {.verify = true, .last_stage = STAGE_GPU};
    assert_true(pipeline_run(p, &o));
    assert_int_equal(p->stage, STAGE_GPU);
    return p;
}

static void tk_free(Prog *p) {
    Arena *a = p->arena;
    arena_free(a);
    free(a);
}

/* The first statement of b with a SegInfo, in the branches of host-level
 * ifs too (the true branch first: of a multi-versioned map, the map as
 * written), or NULL. */
static Stm *tk_first_seg(const Body *b) {
    for (int i = 0; i < b->nstms; i++) {
        Stm *s = b->stms[i], *in = NULL;
        if (s->e->seg) return s;
        if (s->e->kind == IE_IF && ((in = tk_first_seg(s->e->tbody)) || (in = tk_first_seg(s->e->fbody)))) return in;
    }
    return NULL;
}

/* The first host-level statement of main with a SegInfo. */
static Stm *tk_seg_stm(const Prog *p) {
    Stm *s = tk_first_seg(p->funs[0]->body);
    if (!s) fail_msg("no host-level SOAC");
    return s;
}

/* Whether the reduction operator of the only host-level Screma is known to
 * commute. */
static bool tk_red_commutes(const char *src) {
    Prog *p = unit_from_source(src);
    const Body *b = p->funs[0]->body;
    bool r = false, found = false;
    for (int i = 0; i < b->nstms; i++) {
        const IrExp *e = b->stms[i]->e;
        if (e->kind != IE_SCREMA || e->screma.nreds != 1) continue;
        r = ir_segop_known_commutative(&e->screma.reds[0]);
        found = true;
    }
    assert_true(found);
    tk_free(p);
    return r;
}

static void test_commutative_known(void **state) {
    (void)state;
    assert_true(tk_red_commutes("def main (xs: []i32) = reduce (+) 0 xs"));
    assert_true(tk_red_commutes("def main (xs: []f32) = reduce f32.max f32.lowest xs"));
    assert_true(tk_red_commutes("def main (xs: []i64) = reduce (\\a b -> b * a) 1 xs"));
    assert_true(tk_red_commutes(
        "def main (xs: []i32) (ys: []i32) = reduce (\\(a, b) (c, d) -> (a + c, b & d)) (0, -1) (zip xs ys)"));
}

static void test_commutative_not_known(void **state) {
    (void)state;
    assert_false(tk_red_commutes("def main (xs: []i32) = reduce (-) 0 xs"));
    assert_false(tk_red_commutes("def main (xs: []i32) = reduce (\\a b -> a * 3 + b) 0 xs"));
    assert_false(tk_red_commutes("def main (xs: []i32) = reduce (\\_ b -> b) 0 xs"));
    /* Composition of affine maps: associative, not commutative. */
    assert_false(tk_red_commutes("def main (xs: []i32) (ys: []i32) = "
                                 "reduce (\\(a1, b1) (a2, b2) -> (a1 * a2, b1 * a2 + b2)) (1, 0) (zip xs ys)"));
}

static void test_perfect_nest_flattened(void **state) {
    (void)state;
    Prog *p = tk_gpu("def main (xss: [][]f32) = map (\\xs -> map (\\x -> x * 2 + 1) xs) xss");
    Stm *s = tk_seg_stm(p);
    assert_int_equal(s->e->seg->kind, SEG_MAP);
    assert_int_equal(s->e->seg->depth, 2);
    assert_int_equal(s->e->seg->levels[1]->e->kind, IE_SCREMA);
    tk_free(p);
}

static void test_segmented_reduction(void **state) {
    (void)state;
    Prog *p = tk_gpu("def main (xss: [][]i32) = map (\\r -> 1 + reduce (+) 0 r) xss");
    Stm *s = tk_seg_stm(p);
    assert_int_equal(s->e->seg->kind, SEG_RED);
    assert_int_equal(s->e->seg->depth, 2);
    assert_int_equal(s->e->seg->levels[1]->e->screma.nreds, 1);
    tk_free(p);
    /* Over an array that is the same for every element: not segmented
     * (one work-item per element reads it with broadcasts). */
    p = tk_gpu("def main (xs: []i32) (ys: []i32) = map (\\x -> reduce (+) 0 (map (*x) ys)) xs");
    s = tk_seg_stm(p);
    assert_int_equal(s->e->seg->kind, SEG_MAP);
    assert_int_equal(s->e->seg->depth, 1);
    assert_false(s->e->seg->irregular);
    tk_free(p);
}

static void test_irregular_segmented_reduction(void **state) {
    (void)state;
    /* Rows of a width read in the body: irregular. */
    Prog *p = tk_gpu("def main [r] (offs: [r]i64) (xs: []f32) = "
                     "map (\\i -> f32.sum xs[offs[i]:offs[i + 1]]) (iota (r - 1))");
    Stm *s = tk_seg_stm(p);
    assert_int_equal(s->e->seg->kind, SEG_RED);
    assert_int_equal(s->e->seg->depth, 2);
    assert_true(s->e->seg->irregular);
    tk_free(p);
    /* Rows of the map's input: regular. */
    p = tk_gpu("def main (xss: [][]i32) = map (\\r -> reduce (+) 0 r) xss");
    s = tk_seg_stm(p);
    assert_int_equal(s->e->seg->kind, SEG_RED);
    assert_false(s->e->seg->irregular);
    tk_free(p);
    /* Prefixes of one array, of a length each element gives: segments of
     * varying width too. */
    p = tk_gpu("def main (ns: []i64) (ys: []i32) = map (\\n -> reduce (+) 0 (map (*2) ys[0:n])) ns");
    s = tk_seg_stm(p);
    assert_int_equal(s->e->seg->kind, SEG_RED);
    assert_true(s->e->seg->irregular);
    tk_free(p);
}

/* The tiled SegMap's reduction, or NULL, for main's first host SOAC. */
static bool tk_tiled(const char *src) {
    Prog *p = tk_gpu(src);
    Stm *s = tk_seg_stm(p);
    const Stm *t = s->e->seg->tile;
    if (t) {
        assert_int_equal(s->e->seg->kind, SEG_MAP);
        assert_int_equal(s->e->seg->depth, 2);
        assert_ptr_equal(t, s->e->seg->levels[1]->e->screma.map->body->stms[0]);
        /* Each input's recorded level is the one whose lambda gives it. */
        for (int j = 0; j < t->e->screma.narrs; j++) {
            const Lambda *l = s->e->seg->levels[s->e->seg->tile_level[j]]->e->screma.map;
            bool found = false;
            for (int i = 0; i < l->nparams; i++) found |= l->params[i] == t->e->screma.arrs[j];
            assert_true(found);
        }
    }
    tk_free(p);
    return t != NULL;
}

static void test_block_tiling(void **state) {
    (void)state;
    assert_true(tk_tiled("def main [n][k][m] (a: [n][k]f32) (b: [k][m]f32) = "
                         "map (\\r -> map (\\c -> reduce (+) 0 (map2 (*) r c)) (transpose b)) a"));
    assert_true(tk_tiled("def main [n][m][d] (p: [n][d]i32) (q: [m][d]i32) = "
                         "map (\\x -> map (\\y -> 2 * reduce i32.max 0 (map2 (-) x y)) q) p"));
    /* Both rows from the same level: nothing to share between columns. */
    assert_false(tk_tiled("def main [n][k] (a: [n][k]f32) (b: [n][k]f32) (m: i64) = "
                          "map2 (\\r s -> map (\\j -> f32.i64 j + reduce (+) 0 (map2 (*) r s)) (iota m)) a b"));
    /* Indexing inside the map-reduce could fail on a tile's padding. */
    assert_false(tk_tiled("def main [n][k][m] (a: [n][k]i64) (b: [m][k]i64) (w: [3]i64) = "
                          "map (\\r -> map (\\c -> reduce (+) 0 (map2 (\\x y -> w[x] + y) r c)) b) a"));
    /* A scan is not a reduction. */
    assert_false(tk_tiled("def main [n][k][m] (a: [n][k]i32) (b: [m][k]i32) = "
                          "map (\\r -> map (\\c -> last (scan (+) 0 (map2 (*) r c))) b) a"));
}

static void test_kinds(void **state) {
    (void)state;
    Prog *p = tk_gpu("def main (xs: []i32) = scan (+) 0 xs");
    assert_int_equal(tk_seg_stm(p)->e->seg->kind, SEG_SCAN);
    tk_free(p);
    /* Scans and reductions in one Screma: the scan kernel folds both. */
    p = tk_gpu("def main (xs: []i32) = (scan (+) 0 xs, reduce i32.max 0 xs)");
    Stm *s = tk_seg_stm(p);
    assert_int_equal(s->e->screma.nscans, 1);
    assert_int_equal(s->e->screma.nreds, 1);
    assert_int_equal(s->e->seg->kind, SEG_SCAN);
    tk_free(p);
    p = tk_gpu("def main (xs: []i32) = filter (> 0) xs");
    assert_int_equal(tk_seg_stm(p)->e->seg->kind, SEG_SCAN);
    tk_free(p);
    p = tk_gpu("def main (is: []i64) (vs: []f32) = hist (+) 0 10 is vs");
    assert_int_equal(tk_seg_stm(p)->e->seg->kind, SEG_HIST);
    tk_free(p);
    p = tk_gpu("def main (is: []i64) (vs: []i16) = hist (+) 0 10 is vs");
    assert_int_equal(tk_seg_stm(p)->e->seg->kind, SEG_SEQ);
    tk_free(p);
    p = tk_gpu("def main [n][m] (xss: [n][m]i32) = reduce (map2 (+)) (replicate m 0) xss");
    assert_int_equal(tk_seg_stm(p)->e->seg->kind, SEG_SEQ);
    tk_free(p);
}

/* The layout of the private block of the only host-level SOAC, which has
 * exactly one (the input and the output blocks are shared). */
static PrivMem tk_private_layout(const SegInfo *g) {
    int priv = 0, shared = 0;
    PrivMem layout = PRIV_NONE;
    for (int i = 0; i < g->nfree; i++) {
        if (g->free[i]->type.kind != TK_MEM) continue;
        if (g->private_mem[i]) priv++, layout = g->private_mem[i];
        else shared++;
    }
    assert_int_equal(priv, 1);
    assert_true(shared >= 2);
    return layout;
}

/* The first array a statement of the map lambda of s binds. */
static const Var *tk_first_array(const Stm *s) {
    const Body *b = s->e->screma.map->body;
    for (int i = 0; i < b->nstms; i++)
        if (b->stms[i]->npat && b->stms[i]->pat[0]->type.kind == TK_ARRAY) return b->stms[i]->pat[0];
    fail_msg("no array in the map's body");
    return NULL;
}

/* A block allocated per element of a map (hoisted out of its lambda) is
 * private to each work-item; the map's output block is not. The private
 * block is interleaved: the index function of the array in it is
 * tid + {(4 : nthreads)}, in terms of the SegInfo's Vars. */
static void test_private_blocks(void **state) {
    (void)state;
    Prog *p = tk_gpu("def main (xs: []i64) = map (\\x -> let a = map (+x) (iota 4) in a[x % 4] + a[3]) xs");
    const Stm *s = tk_seg_stm(p);
    const SegInfo *g = s->e->seg;
    assert_int_equal(tk_private_layout(g), PRIV_INTERLEAVED);
    assert_non_null(g->tid);
    const Lmad *l = tk_first_array(s)->mem->ixfun;
    Lmad *want = lmad_interleave(p->arena, lmad_row_major(p->arena, 1, (Sym *[]){sym_const(p->arena, 4)}),
                                 sym_var(p->arena, g->nthreads->id), sym_var(p->arena, g->tid->id));
    assert_true(lmad_equal(l, want));
    tk_free(p);
}

/* A private array that an if may replace by a row of the input lives, as
 * far as its index function can tell, in either block: its block stays
 * sliced (one contiguous copy per work-item) and its index function as
 * it was. One work-item running an array operator (SegSeq) slices too. */
static void test_private_fallback(void **state) {
    (void)state;
    Prog *p = tk_gpu("def main (xss: [][]i64) = map (\\row -> let a = map (+1) row "
                     "let b = if row[0] > 0 then a else row in b[0] + b[1]) xss");
    const Stm *s = tk_seg_stm(p);
    assert_int_equal(tk_private_layout(s->e->seg), PRIV_SLICED);
    assert_null(s->e->seg->tid);
    assert_true(lmad_is_row_major(tk_first_array(s)->mem->ixfun));
    tk_free(p);
    p = tk_gpu("def main (xs: []i64) = reduce (\\a b -> map2 (+) a b) (replicate 3 0) "
               "(map (\\x -> let a = map (+x) (iota 3) in replicate 3 (a[x % 3] + a[2])) xs)");
    const SegInfo *g = tk_seg_stm(p)->e->seg;
    assert_int_equal(g->kind, SEG_SEQ);
    int priv = 0;
    for (int i = 0; i < g->nfree; i++) {
        priv += g->private_mem[i] != PRIV_NONE;
        assert_int_not_equal(g->private_mem[i], PRIV_INTERLEAVED);
    }
    assert_true(priv >= 1);
    assert_null(g->tid);
    tk_free(p);
}

/* Without fusion the map and the reduction stay apart; lowering passes
 * cannot be skipped. */
static void test_skip_pass(void **state) {
    (void)state;
    const char *src = "def main (xs: []f32) = reduce (+) 0 (map (*2) xs)";
    assert_true(pipeline_skippable("fuse"));
    assert_true(pipeline_skippable("simplify"));
    assert_false(pipeline_skippable("memory"));
    assert_false(pipeline_skippable("kernels"));
    assert_false(pipeline_skippable("no-such-pass"));
    for (int skip = 0; skip < 2; skip++) {
        Prog *p = unit_from_source(src);
        const char *const fuse[] = {"fuse"};
        PipelineOpts o = {.verify = true, .last_stage = STAGE_SOACS, .skip = fuse, .nskip = skip};
        assert_true(pipeline_run(p, &o));
        assert_int_equal(unit_structure_count(p, "Screma"), skip ? 2 : 1);
        tk_free(p);
    }
}

/* The copies in main after the kernels pass: inputs coalesce.c gives a
 * transposed copy. */
static int tk_copies(const char *src) {
    Prog *p = tk_gpu(src);
    int n = unit_structure_count(p, "Copy");
    tk_free(p);
    return n;
}

/* The statement of b that binds v (in the branches of host-level ifs
 * too), or NULL. */
static const Stm *tk_binding(const Body *b, const Var *v) {
    for (int i = 0; i < b->nstms; i++) {
        const Stm *s = b->stms[i], *in = NULL;
        if (s->npat && s->pat[0] == v) return s;
        if (s->e->kind == IE_IF && ((in = tk_binding(s->e->tbody, v)) || (in = tk_binding(s->e->fbody, v)))) return in;
    }
    return NULL;
}

/* A loop that traverses row r once per step (the step is used, so the
 * traversal stays in the loop). */
#define TK_LOOP(k) TK_LOOP_FROM(0, k)
#define TK_LOOP_FROM(a0, k) "loop a = " #a0 " for i < " #k " do a + f32.sum (map (* f32.i64 i) r)"
/* main over rows of w f32: a size the IR knows (entry parameters' sizes are
 * known at run time only). */
#define TK_ROWS(w, body)                                                                                     \
    "def main [m] (flat: [m]f32) (k: i64) = let n = m / " #w " in map (\\r -> " body ") (unflatten (flat[:n * " #w \
    "] :> [n * " #w "]f32))"

/* A row traversed in a loop is read from a copy laid out column-major
 * (element (i, j) at j*n + i), made in a block of its own before the
 * SegMap, which the kernel gets instead of the input's block. */
static void test_coalesce_layout(void **state) {
    (void)state;
    Prog *p = tk_gpu("def main [n][d] (xs: [n][d]f32) (k: i64) = map (\\r -> " TK_LOOP(k) ") xs");
    const Fun *f = p->funs[0];
    Stm *s = tk_seg_stm(p);
    Var *in = s->e->screma.arrs[0], *xs = f->params[0];
    const Stm *cp = tk_binding(f->body, in);
    assert_non_null(cp);
    assert_int_equal(cp->e->kind, IE_COPY);
    assert_ptr_equal(cp->e->arr, xs);
    const Stm *al = tk_binding(f->body, in->mem->mem);
    assert_non_null(al);
    assert_int_equal(al->e->kind, IE_ALLOC);
    const Lmad *l = in->mem->ixfun;
    Arena *a = p->arena;
    assert_true(sym_equal(l->offset, sym_const(a, 0)));
    assert_true(sym_equal(l->dims[0].stride, sym_const(a, 1)));
    assert_true(sym_equal(l->dims[1].stride, sym_var(a, xs->type.shape[0].v->id)));
    assert_ptr_equal(s->e->screma.map->params[0]->mem->mem, in->mem->mem);
    bool copy_free = false, xs_free = false;
    for (int i = 0; i < s->e->seg->nfree; i++) {
        copy_free |= s->e->seg->free[i] == in->mem->mem;
        xs_free |= s->e->seg->free[i] == xs->mem->mem;
    }
    assert_true(copy_free);
    assert_false(xs_free);
    tk_free(p);
}

/* A second traversal of row r after its sum s, in a loop: a map of two
 * reductions would be distributed into segmented SegReds instead. */
#define TK_TWICE "loop a = 0 for x in r do a + x * s"

/* When the copy pays: traversals of a row (repeated by loops) times its
 * bytes (unknown: 256) must exceed 256 bytes. */
static void test_coalesce_rule(void **state) {
    (void)state;
    assert_int_equal(tk_copies("def main (xs: [][]f32) (k: i64) = map (\\r -> " TK_LOOP(k) ") xs"), 1);
    /* One traversal never pays; two do for rows of unknown size. */
    assert_int_equal(tk_copies("def main (xs: [][]f32) = map (\\r -> loop a = 0 for x in r do a + x) xs"), 0);
    assert_int_equal(tk_copies("def main (xs: [][]i32) = map (\\r -> let s = i32.sum r in " TK_TWICE ") xs"), 1);
    /* Rows of a known size: 32 assumed steps of a loop times 32 bytes
     * pays, times 8 does not; 5 steps times 64 bytes pays, 4 do not. */
    assert_int_equal(tk_copies(TK_ROWS(8, TK_LOOP(k))), 1);
    assert_int_equal(tk_copies(TK_ROWS(2, TK_LOOP(k))), 0);
    assert_int_equal(tk_copies(TK_ROWS(16, TK_LOOP(5))), 1);
    assert_int_equal(tk_copies(TK_ROWS(16, TK_LOOP(4))), 0);
    assert_int_equal(tk_copies(TK_ROWS(64, "let s = f32.sum r in " TK_TWICE)), 1);
    assert_int_equal(tk_copies(TK_ROWS(16, "let s = f32.sum r in " TK_TWICE)), 0);
    /* The rows of a rank-3 input are matrices: their rows' traversals
     * count as parts of one traversal (two columns read: 1/16 of one). */
    assert_int_equal(tk_copies("def main (xss: [][][]i32) = map (\\m -> loop a = 0 for r in m do a + r[0] + r[1]) xss"),
                     0);
    assert_int_equal(tk_copies("def main (xss: [][][]f32) (k: i64) = map (\\m -> loop a = 0 for i < k do "
                               "a + f32.sum (map (\\r -> f32.sum (map (* f32.i64 i) r)) m)) xss"),
                     1);
    /* A row that an if merges with another array keeps its layout. */
    assert_int_equal(tk_copies("def main (xs: [][]f32) (k: i64) = map (\\row -> "
                               "let r = if row[0] > 0 then row else reverse row in " TK_LOOP(k) ") xs"),
                     0);
    /* The inner level of a nest: neighbours share the outer row. */
    assert_int_equal(tk_copies("def main (xs: [][]f32) (ys: []f32) (k: i64) = "
                               "map (\\r -> map (\\y -> " TK_LOOP_FROM(y, k) ") ys) xs"),
                     0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_commutative_known),
        cmocka_unit_test(test_commutative_not_known),
        cmocka_unit_test(test_perfect_nest_flattened),
        cmocka_unit_test(test_segmented_reduction),
        cmocka_unit_test(test_irregular_segmented_reduction),
        cmocka_unit_test(test_kinds),
        cmocka_unit_test(test_block_tiling),
        cmocka_unit_test(test_private_blocks),
        cmocka_unit_test(test_private_fallback),
        cmocka_unit_test(test_skip_pass),
        cmocka_unit_test(test_coalesce_layout),
        cmocka_unit_test(test_coalesce_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
