/* Unit tests of the carry pass (passes/carry.c): small programs are
 * internalised from source and simplified, pass_carry runs, ir_verify must
 * accept the result, and the tests count the operations that the loop's
 * body computes (one fewer per carried value). */
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

/* The first loop of a body (nested code included), or NULL. */
static void find_loop(Body *b, void *ctx) {
    Loop **found = ctx;
    for (int i = 0; i < b->nstms && !*found; i++) {
        if (b->stms[i]->e->kind == IE_LOOP) *found = &b->stms[i]->e->loop;
        else ir_exp_bodies(b->stms[i]->e, find_loop, ctx);
    }
}

/* The scalar operations of body b, its branches included. */
static int body_ops(const Body *b) {
    int n = 0;
    for (int i = 0; i < b->nstms; i++) {
        const IrExp *e = b->stms[i]->e;
        n += e->kind == IE_OP;
        if (e->kind == IE_IF) n += body_ops(e->tbody) + body_ops(e->fbody);
    }
    return n;
}

/* The operations of the body of src's first loop before and after the
 * carry pass. */
static void loop_ops(const char *src, int *before, int *after) {
    Prog *p = unit_from_source(src);
    pass_simplify(p);
    Loop *l = NULL;
    find_loop(p->funs[0]->body, &l);
    assert_non_null(l);
    *before = body_ops(l->body);
    pass_carry(p);
    ir_verify(p, "carry");
    l = NULL;
    find_loop(p->funs[0]->body, &l);
    assert_non_null(l);
    *after = body_ops(l->body);
    unit_free(p);
}

/* The escape loop's squares of the new z (computed for the test) are
 * carried: two multiplications fewer; inside a map, where z itself is
 * then dead (only its square is used), one fewer. */
static void test_escape(void **state) {
    (void)state;
    const char *const progs[] = {
        "def main (cr: f32) (ci: f32) : i32 =\n"
        "  let (_, _, c) = loop (zr, zi, c) = (0f32, 0f32, 0i32) while c < 50 && zr * zr + zi * zi < 4 do\n"
        "    (zr * zr - zi * zi + cr, 2 * zr * zi + ci, c + 1)\n"
        "  in c",
        "def main (cr: []f32) : []i32 =\n"
        "  map (\\x -> let (_, c) = loop (z, c) = (x, 0i32) while z * z < 4 do (z * z + x, c + 1) in c) cr",
    };
    int want[] = {2, 1};
    for (int k = 0; k < 2; k++) {
        int before, after;
        loop_ops(progs[k], &before, &after);
        assert_int_equal(after, before - want[k]);
    }
}

/* Nothing is carried: a division (it may fail), an op of the for-loop's
 * index, an op whose op of the results the body never computes, an op of
 * a value bound in the body, an op of a parameter and a value bound in
 * the body (y * t, though the body computes y2 * t of the result y2). */
static void test_kept(void **state) {
    (void)state;
    const char *const progs[] = {
        "def main (x: i32) (k: i32) : i32 =\n"
        "  let (_, n) = loop (x, n) = (x, 0) while k != 0 && x / k > 0 do (x / k, n + 1) in n",
        "def main (n: i64) : i64 = loop s = 0 for i < n do s + i * i + (i + 1) * (i + 1)",
        "def main (x: i32) : i32 = loop y = x for _i < 3 do y * y - y + 2",
        "def main (x: i32) : i32 = loop y = x for i < 3 do let t = y + i32.i64 i in t * t + (t * t) * 2",
        "def main (x: i32) : (i32, bool) =\n"
        "  loop (y, f) = (x, false) for i < 4 do let t = i32.i64 i + 1 let y2 = y * t + 1 in (y2, f || y2 * t > 100)",
    };
    for (size_t k = 0; k < sizeof progs / sizeof *progs; k++) {
        int before, after;
        loop_ops(progs[k], &before, &after);
        assert_int_equal(after, before);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
