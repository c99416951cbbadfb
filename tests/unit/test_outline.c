/* Unit tests of outlining (lower/outline.c) and of calls in the simplifier:
 * programs are internalised from source (ir_verify must accept them), and
 * the tests assert which functions stay functions (Prog.defs), how many
 * calls there are, and what the simplifier does with calls. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "passes/passes.h"

#include "from_source.h"

/* 44 scalar statements of x and y once lowered (22 lines of two ops),
 * and a function of them. */
#define BIG_EXP                                                                                    \
    "  let a = x * 3 + y let b = a * 5 + x let c = b * 7 + a let d = c * 11 + b\n"                 \
    "  let e = d * 13 + c let f = e * 17 + d let g = f * 19 + e let h = g * 23 + f\n"             \
    "  let i = h * 29 + g let j = i * 31 + h let k = j * 37 + i let l = k * 41 + j\n"             \
    "  let m = l * 43 + k let n = m * 47 + l let o = n * 53 + m let p = o * 59 + n\n"             \
    "  let q = p * 61 + o let r = q * 67 + p let s = r * 71 + q let t = s * 73 + r\n"             \
    "  let u = t * 79 + s in u * 83 + t\n"
#define BIG_FN "def big (x: i64) (y: i64) : i64 =\n" BIG_EXP

/* p after the simplifier, checked. */
static Prog *to_simplify(const char *src) {
    Prog *p = unit_from_source(src);
    pass_simplify(p);
    ir_verify(p, "simplify");
    return p;
}

static void free_prog(Prog *p) {
    Arena *a = p->arena;
    arena_free(a);
    free(a);
}

/* Two applications: one function, two calls, before and after simplify. */
static void test_called_twice(void **state) {
    (void)state;
    Prog *p = unit_from_source(BIG_FN "def main (x: i64) : i64 = big x 1 + big x 2");
    assert_int_equal(p->ndefs, 1);
    assert_string_equal(p->defs[0]->name, "big");
    assert_int_equal(p->defs[0]->nparams, 2);
    assert_int_equal(p->defs[0]->nret, 1);
    assert_int_equal(unit_structure_count(p, "Apply"), 2);
    pass_simplify(p);
    ir_verify(p, "simplify");
    assert_int_equal(p->ndefs, 1);
    assert_int_equal(unit_structure_count(p, "Apply"), 2);
    free_prog(p);
}

/* One application: the function's body is spliced into its caller. */
static void test_called_once(void **state) {
    (void)state;
    Prog *p = unit_from_source(BIG_FN "def main (x: i64) : i64 = big x 1");
    assert_int_equal(p->ndefs, 0);
    assert_int_equal(unit_structure_count(p, "Apply"), 0);
    assert_int_equal(unit_structure_count(p, "BinOp"), 44);
    free_prog(p);
}

/* A small function is inlined at every application. */
static void test_small(void **state) {
    (void)state;
    Prog *p = unit_from_source("def f (x: i64) : i64 = x * 3 + 1\n"
                               "def main (x: i64) : i64 = f x + f (x + 1) + f (x + 2)");
    assert_int_equal(p->ndefs, 0);
    assert_int_equal(unit_structure_count(p, "Apply"), 0);
    free_prog(p);
}

/* Applications in a map count like any others; the application inside an
 * unused map disappears with it, and the function with its last call. */
static void test_dead_calls(void **state) {
    (void)state;
    Prog *p = to_simplify(BIG_FN "def main (xs: []i64) (y: i64) : i64 =\n"
                                 "  let _ = map (\\x -> big x y) xs let _ = big y y in y");
    assert_int_equal(p->ndefs, 0);
    assert_int_equal(unit_structure_count(p, "Apply"), 0);
    free_prog(p);
}

/* Calls of one function with the same arguments are one call. */
static void test_cse(void **state) {
    (void)state;
    Prog *p = to_simplify(BIG_FN "def main (x: i64) : i64 = big x 2 * big x 2 + big 2 x");
    assert_int_equal(p->ndefs, 1);
    assert_int_equal(unit_structure_count(p, "Apply"), 2);
    free_prog(p);
}

/* A call with loop-invariant arguments moves out of the loop. */
static void test_hoist(void **state) {
    (void)state;
    Prog *p = to_simplify(BIG_FN "def main (x: i64) (n: i64) : i64 =\n"
                                 "  loop acc = 0 for i < n do acc + big x 3 + big i 4");
    assert_int_equal(unit_structure_count(p, "Apply"), 2);
    Body *b = p->funs[0]->body;
    int before_loop = 0;
    for (int i = 0; i < b->nstms && b->stms[i]->e->kind != IE_LOOP; i++) before_loop += b->stms[i]->e->kind == IE_APPLY;
    assert_int_equal(before_loop, 1);
    free_prog(p);
}

/* #[noinline] keeps a small function's one call, #[inline] inlines a large
 * function applied twice; a function of an array is always inlined. */
static void test_attributes(void **state) {
    (void)state;
    Prog *p = unit_from_source("#[noinline] def f (x: i64) : i64 = x * 3 + 1\n"
                               "#[inline] " BIG_FN "def g (xs: []i64) : i64 = i64.sum xs\n"
                               "def main (xs: []i64) (x: i64) : i64 = f x + big x 1 + big x 2 + g xs + g xs");
    assert_int_equal(p->ndefs, 1);
    assert_string_equal(p->defs[0]->name, "f");
    assert_int_equal(unit_structure_count(p, "Apply"), 1);
    free_prog(p);
}

/* A function that can fail (a bounds check) is inlined. */
static void test_can_fail(void **state) {
    (void)state;
    Prog *p = unit_from_source("def h (x0: i64) (y: i64) : i64 = let x = [x0, y, 3][y] in\n" BIG_EXP
                               "def main (x: i64) : i64 = h x 1 + h x 2");
    assert_int_equal(p->ndefs, 0);
    free_prog(p);
}

/* A function that calls another: each stays a function (callees first)
 * when applied twice; the printer shows both. */
static void test_nested(void **state) {
    (void)state;
    Prog *p = to_simplify(BIG_FN "def big2 (x: i64) : i64 = big x x + big x 1 + (big (x + 1) 7 * 3 + x * 2 + 1 +"
                                 " x * 5 + 2 + x * 7 + 3 + x * 11 + 4 + x * 13 + 5 + x * 17 + 6 + x * 19 + 7 +"
                                 " x * 23 + 8 + x * 29 + 9 + x * 31 + 10 + x * 37 + 11 + x * 41 + 12)\n"
                                 "def main (x: i64) : i64 = big2 x - big2 (x * 2)");
    assert_int_equal(p->ndefs, 2);
    assert_string_equal(p->defs[0]->name, "big");
    assert_string_equal(p->defs[1]->name, "big2");
    assert_int_equal(unit_structure_count(p, "Apply"), 5);
    Buf b = {0};
    ir_print(&b, p);
    assert_non_null(strstr(b.data, "fun big (x_"));
    assert_non_null(strstr(b.data, "apply big2("));
    buf_free(&b);
    free_prog(p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_called_twice), cmocka_unit_test(test_called_once), cmocka_unit_test(test_small),
        cmocka_unit_test(test_dead_calls),   cmocka_unit_test(test_cse),         cmocka_unit_test(test_hoist),
        cmocka_unit_test(test_attributes),   cmocka_unit_test(test_can_fail),    cmocka_unit_test(test_nested),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
