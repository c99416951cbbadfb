/* Unit tests of SOAC fusion (passes/fuse.c): small programs are
 * internalised from source, pass_fuse runs on the internalised IR (without
 * the simplifier, so these tests depend on fusion alone), ir_verify must
 * accept the result, and the tests assert the SOACs left and the shape of
 * the fused statements. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "check/check.h"
#include "ir/ir.h"
#include "lower/internalise.h"
#include "passes/passes.h"
#include "syntax/ast.h"
#include "tools/structure.h"
#include "util/embedded.h"

#include "from_source.h"

/* ---- Helpers ------------------------------------------------------------ */


/* Fuses p and checks the invariants. */
static void tf_fuse(Prog *p) {
    pass_fuse(p);
    assert_int_equal(p->stage, STAGE_SOACS);
    ir_verify(p, "fuse");
}


/* The i-th top-level statement of main that is of kind k (NULL if none). */
static Stm *tf_find(const Prog *p, IrExpKind k, int i) {
    const Body *b = p->funs[0]->body;
    for (int j = 0; j < b->nstms; j++)
        if (b->stms[j]->e->kind == k && i-- == 0) return b->stms[j];
    return NULL;
}

/* p printed; the caller frees. */
static char *tf_print(const Prog *p) {
    Buf b = {0};
    ir_print(&b, p);
    return b.data;
}

/* ---- Vertical fusion -------------------------------------------------------- */

static void test_map_map(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main (xs: []i32) : []i32 = map (*3) (map (+1) xs)");
    assert_int_equal(unit_structure_count(p, "Screma"), 2);
    tf_fuse(p);
    assert_int_equal(unit_structure_count(p, "Screma"), 1);
    Stm *s = tf_find(p, IE_SCREMA, 0);
    assert_non_null(s);
    assert_int_equal(s->npat, 1); /* the intermediate array is gone */
    assert_int_equal(s->e->screma.narrs, 1);
    assert_ptr_equal(s->e->screma.arrs[0], p->funs[0]->params[0]);
    assert_ptr_equal(s->pat[0], p->funs[0]->body->res[0].v);
    unit_free(p);
}

static void test_dot(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main (xs: []f32) (ys: []f32) : f32 = reduce (+) 0 (map2 (*) xs ys)");
    tf_fuse(p);
    Stm *s = tf_find(p, IE_SCREMA, 0);
    assert_non_null(s);
    assert_null(tf_find(p, IE_SCREMA, 1));
    assert_int_equal(s->e->screma.nreds, 1);
    assert_int_equal(s->e->screma.narrs, 2);
    assert_int_equal(s->npat, 1);
    assert_int_equal(s->pat[0]->type.kind, TK_PRIM);
    unit_free(p);
}

/* A producer output that is also returned stays an output of the fused
 * Screma (diagonal fusion) instead of being recomputed. */
static void test_diagonal(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main (xs: []i32) : ([]i32, []i32) =\n"
                             "  let ys = map (\\x -> x * x) xs in (map (+1) ys, ys)");
    tf_fuse(p);
    assert_int_equal(unit_structure_count(p, "Screma"), 1);
    Stm *s = tf_find(p, IE_SCREMA, 0);
    assert_int_equal(s->npat, 2);
    assert_int_equal(s->e->screma.map->nret, 2);
    unit_free(p);
}

static void test_map_into_scatter_and_hist(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main [n] (k: i64) (is: [n]i64) (vs: [n]i32) : ([]i32, []i32) =\n"
                             "  (scatter (replicate k 0) (map (+1) is) (map (*2) vs),\n"
                             "   hist (+) 0 k (map (%k) is) (map (*3) vs))");
    tf_fuse(p);
    assert_int_equal(unit_structure_count(p, "Screma"), 0);
    assert_int_equal(unit_structure_count(p, "Scatter"), 1);
    assert_int_equal(unit_structure_count(p, "Hist"), 1);
    Stm *h = tf_find(p, IE_HIST, 0);
    assert_int_equal(h->e->hist.narrs, 2); /* is and vs, each once */
    unit_free(p);
}

/* A scan result is not available to the map lambda: no fusion. */
static void test_scan_output_not_fused(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main (xs: []i64) : []i64 = map (*2) (scan (+) 0 xs)");
    tf_fuse(p);
    assert_int_equal(unit_structure_count(p, "Screma"), 2);
    unit_free(p);
}

/* A producer with a reduction fuses its map output into a consumer map. */
static void test_screma_into_map(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main (xs: []i64) : (i64, []i64) =\n"
                             "  let ys = map (+1) xs in (reduce (+) 0 ys, map (*2) ys)");
    tf_fuse(p);
    assert_int_equal(unit_structure_count(p, "Screma"), 1);
    Stm *s = tf_find(p, IE_SCREMA, 0);
    assert_int_equal(s->e->screma.nreds, 1);
    assert_int_equal(s->npat, 2); /* the sum and the doubled array; ys is gone */
    assert_int_equal(s->pat[0]->type.kind, TK_PRIM);
    assert_int_equal(s->pat[1]->type.kind, TK_ARRAY);
    unit_free(p);
}

/* ---- Horizontal fusion ------------------------------------------------------ */

static void test_sum_and_max(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main (xs: []i32) : (i32, i32) = (reduce (+) 0 xs, reduce i32.max 0 xs)");
    tf_fuse(p);
    Stm *s = tf_find(p, IE_SCREMA, 0);
    assert_non_null(s);
    assert_null(tf_find(p, IE_SCREMA, 1));
    assert_int_equal(s->e->screma.nreds, 2);
    assert_int_equal(s->e->screma.narrs, 1); /* the shared input is read once */
    unit_free(p);
}

static void test_dependent_not_horizontal(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main (xs: []f64) : []f64 = let s = reduce (+) 0 xs in map (/s) xs");
    tf_fuse(p);
    assert_int_equal(unit_structure_count(p, "Screma"), 2);
    unit_free(p);
}

static void test_different_widths(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main (xs: []i32) (ys: []i32) : ([]i32, []i32) = (map (+1) xs, map (+1) ys)");
    tf_fuse(p);
    assert_int_equal(unit_structure_count(p, "Screma"), 2);
    unit_free(p);
}

/* ---- Legality ----------------------------------------------------------------- */

/* The producer reads xs, which an in-place update consumes before the
 * consumer (which needs the update's result): neither can move. */
static void test_update_between(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main [n] (xs: *[n]i32) : []i32 =\n"
                             "  let ys = map (*10) xs\n"
                             "  let xs2 = xs with [0] = 7\n"
                             "  in map2 (+) ys xs2");
    tf_fuse(p);
    assert_int_equal(unit_structure_count(p, "Screma"), 2);
    unit_free(p);
}

/* The same through an alias: the producer reads a slice of xs. */
static void test_update_of_alias(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main [n] (xs: *[n]i32) : []i32 =\n"
                             "  let ys = map (*10) xs[0:2]\n"
                             "  let xs2 = xs with [0] = 7\n"
                             "  in map2 (+) ys xs2[0:2]");
    tf_fuse(p);
    assert_int_equal(unit_structure_count(p, "Screma"), 2);
    unit_free(p);
}

/* The value map reads the scatter's destination. */
static void test_scatter_reads_dest(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main [n] (xs: *[n]i32) (is: []i64) : []i32 =\n"
                             "  scatter xs is (map (\\i -> xs[n - 1 - i]) is)");
    tf_fuse(p);
    assert_int_equal(unit_structure_count(p, "Screma"), 1);
    assert_int_equal(unit_structure_count(p, "Scatter"), 1);
    unit_free(p);
}

/* The producer may fail (division by zero) and an index check lies between
 * it and a consumer that needs the indexed value: fusing would report the
 * index error first, so it does not happen. Without the producer's
 * assertion, it fuses. */
static void test_assert_order(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main (xs: []i32) (d: i32) (i: i64) : []i32 =\n"
                             "  let ys = map (\\x -> x / d) xs\n"
                             "  let v = xs[i]\n"
                             "  in map (+v) ys");
    tf_fuse(p);
    assert_int_equal(unit_structure_count(p, "Screma"), 2);
    Prog *q = unit_from_source("def main (xs: []i32) (d: i32) (i: i64) : []i32 =\n"
                             "  let ys = map (\\x -> x * d) xs\n"
                             "  let v = xs[i]\n"
                             "  in map (+v) ys");
    tf_fuse(q);
    assert_int_equal(unit_structure_count(q, "Screma"), 1);
    unit_free(p);
    unit_free(q);
}

/* map2 over a producer of width n and an array of the width an if gives
 * fuses because the zip's assertion proves the widths equal first. */
static void test_width_by_assertion(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main [n] [m] (b: bool) (xs: [n]i32) (ys: [m]i32) : []i32 =\n"
                             "  map2 (+) (if b then xs else ys) (map (+1) xs)");
    tf_fuse(p);
    assert_int_equal(unit_structure_count(p, "Screma"), 1);
    assert_int_equal(unit_structure_count(p, "Assert"), 1);
    unit_free(p);
}

/* An element-wise map over a flattened image whose result is unflattened
 * for a map of row sums becomes a nest of maps over the image and fuses
 * into the row sums: the outer Screma reads the image itself. */
static void test_reshape_nest(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main [n][m] (img: [n][m]i32) : [n]i32 =\n"
                             "  let flat = map (+1) (flatten img)\n"
                             "  in map (reduce (+) 0) (unflatten flat : [n][m]i32)");
    tf_fuse(p);
    assert_int_equal(unit_structure_count(p, "Screma"), 2);
    Stm *s = tf_find(p, IE_SCREMA, 0);
    assert_int_equal(s->e->screma.narrs, 1);
    assert_ptr_equal(s->e->screma.arrs[0], p->funs[0]->params[0]);
    unit_free(p);
}

/* The map may fail (division by zero) and the unflatten's size check lies
 * between it and its reshape: the nest would have to move past the check,
 * so the map stays flat. */
static void test_reshape_nest_assert_order(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main [n][m] (img: [n][m]i32) (d: i32) (k: i64) : [k]i32 =\n"
                             "  let flat = map (\\x -> x / d) (flatten img)\n"
                             "  in map (reduce (+) 0) (unflatten (flat :> [k * m]i32))");
    tf_fuse(p);
    assert_int_equal(unit_structure_count(p, "Screma"), 3);
    assert_int_equal(tf_find(p, IE_SCREMA, 0)->e->screma.map->params[0]->type.kind, TK_PRIM);
    unit_free(p);
}

/* A producer outside a loop is not fused into a consumer inside it. */
static void test_loop_boundary(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main (xs: []i32) (k: i32) : []i32 =\n"
                             "  let ys = map (\\x -> x * x) xs\n"
                             "  in loop acc = xs for i < k do map2 (+) acc ys");
    tf_fuse(p);
    assert_int_equal(unit_structure_count(p, "Screma"), 2);
    unit_free(p);
}

/* Fusing a fused program changes nothing. */
static void test_fixed_point(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main (xs: []i64) : (i64, []i64, []i64) =\n"
                             "  let ys = map (+1) xs\n"
                             "  let zs = map (*2) ys\n"
                             "  in (reduce (+) 0 zs, scan (+) 0 ys, map (\\z -> z - 1) zs)");
    tf_fuse(p);
    assert_int_equal(unit_structure_count(p, "Screma"), 1);
    char *a = tf_print(p);
    tf_fuse(p);
    char *b = tf_print(p);
    assert_string_equal(a, b);
    free(a);
    free(b);
    unit_free(p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_map),
        cmocka_unit_test(test_dot),
        cmocka_unit_test(test_diagonal),
        cmocka_unit_test(test_map_into_scatter_and_hist),
        cmocka_unit_test(test_scan_output_not_fused),
        cmocka_unit_test(test_screma_into_map),
        cmocka_unit_test(test_sum_and_max),
        cmocka_unit_test(test_dependent_not_horizontal),
        cmocka_unit_test(test_different_widths),
        cmocka_unit_test(test_update_between),
        cmocka_unit_test(test_update_of_alias),
        cmocka_unit_test(test_scatter_reads_dest),
        cmocka_unit_test(test_assert_order),
        cmocka_unit_test(test_width_by_assertion),
        cmocka_unit_test(test_reshape_nest),
        cmocka_unit_test(test_reshape_nest_assert_order),
        cmocka_unit_test(test_loop_boundary),
        cmocka_unit_test(test_fixed_point),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
