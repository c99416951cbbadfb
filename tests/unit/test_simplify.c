/* Unit tests of the simplifier (passes/simplify.c): small programs are
 * internalised from source, or IR is built by hand; pass_simplify runs,
 * ir_verify must accept the result, and the tests assert what is left
 * (construct counts from structure_print, or the printed IR). */
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


/* Simplifies p and checks the invariants. */
static void ts_simplify(Prog *p) {
    pass_simplify(p);
    assert_int_equal(p->stage, STAGE_SOACS);
    ir_verify(p, "simplify");
}


/* p printed; the caller frees. */
static char *ts_print(const Prog *p) {
    Buf b = {0};
    ir_print(&b, p);
    return b.data;
}

static Prog *ts_prog(void) {
    Arena *a = calloc(1, sizeof(Arena));
    Prog *p = NEW(a, Prog);
    p->arena = a;
    p->next_var_id = 1;
    p->stage = STAGE_SOACS;
    return p;
}

typedef VEC(Stm *) TsStms;

static Var *ts_let(Prog *p, TsStms *stms, Type t, IrExp *e) {
    Var *v = ir_var(p, "x", t);
    Stm *s = NEW(p->arena, Stm);
    s->pat = NEW_ARRAY(p->arena, Var *, 1);
    s->pat[0] = v;
    s->npat = e->kind == IE_ASSERT ? 0 : 1;
    s->e = e;
    vec_push(stms, s);
    return v;
}

static IrExp *ts_op(Prog *p, Op op, PrimType t, SubExp x, SubExp y) {
    IrExp *e = NEW(p->arena, IrExp);
    e->kind = IE_OP;
    e->op = op;
    e->t = t;
    e->nargs = op_arity(op);
    e->args = NEW_ARRAY(p->arena, SubExp, 2);
    e->args[0] = x;
    e->args[1] = y;
    return e;
}

static Body *ts_body(Prog *p, TsStms *stms, SubExp res) {
    Body *b = NEW(p->arena, Body);
    b->stms = vec_to_arena(p->arena, stms);
    b->nstms = stms->len;
    b->res = NEW_ARRAY(p->arena, SubExp, 1);
    b->res[0] = res;
    b->nres = 1;
    vec_free(stms);
    return b;
}

/* An entry point "main" with the given i32 parameters and body. */
static void ts_entry(Prog *p, Var **params, int n, Body *b, PrimType ret) {
    Fun *f = NEW(p->arena, Fun);
    f->name = "main";
    f->params = params;
    f->nparams = n;
    f->param_ext = NEW_ARRAY(p->arena, ExtType, n + 1);
    for (int i = 0; i < n; i++) f->param_ext[i].elem = params[i]->type.elem;
    f->ret = NEW_ARRAY(p->arena, Type, 1);
    f->ret[0] = type_prim(ret);
    f->nret = 1;
    f->ret_ext = NEW_ARRAY(p->arena, ExtType, 1);
    f->ret_ext[0].elem = ret;
    f->body = b;
    p->funs = NEW_ARRAY(p->arena, Fun *, 1);
    p->funs[0] = f;
    p->nfuns = 1;
}

/* ---- Hand-built IR ----------------------------------------------------------- */

/* (2 + 3) * x - 0 folds to 5 * x; x * 1 and neg(neg y) vanish. */
static void test_fold_and_algebra(void **state) {
    (void)state;
    Prog *p = ts_prog();
    Var **ps = NEW_ARRAY(p->arena, Var *, 2);
    ps[0] = ir_var(p, "x", type_prim(PT_I32));
    ps[1] = ir_var(p, "y", type_prim(PT_I32));
    TsStms s = {0};
    SubExp c2 = se_const(prim_int(PT_I32, 2)), c3 = se_const(prim_int(PT_I32, 3));
    Var *a = ts_let(p, &s, type_prim(PT_I32), ts_op(p, OP_ADD, PT_I32, c2, c3));
    Var *b = ts_let(p, &s, type_prim(PT_I32), ts_op(p, OP_MUL, PT_I32, se_var(a), se_var(ps[0])));
    Var *c = ts_let(p, &s, type_prim(PT_I32), ts_op(p, OP_SUB, PT_I32, se_var(b), se_const(prim_int(PT_I32, 0))));
    Var *n1 = ts_let(p, &s, type_prim(PT_I32), ts_op(p, OP_NEG, PT_I32, se_var(ps[1]), se_var(ps[1])));
    Var *n2 = ts_let(p, &s, type_prim(PT_I32), ts_op(p, OP_NEG, PT_I32, se_var(n1), se_var(n1)));
    Var *m = ts_let(p, &s, type_prim(PT_I32), ts_op(p, OP_MUL, PT_I32, se_var(n2), se_const(prim_int(PT_I32, 1))));
    Var *r = ts_let(p, &s, type_prim(PT_I32), ts_op(p, OP_ADD, PT_I32, se_var(c), se_var(m)));
    ts_entry(p, ps, 2, ts_body(p, &s, se_var(r)), PT_I32);
    ts_simplify(p);
    Body *body = p->funs[0]->body;
    assert_int_equal(body->nstms, 2);
    char *text = ts_print(p);
    assert_non_null(strstr(text, "mul.i32(5i32, x_1)"));
    assert_non_null(strstr(text, "add.i32(x_"));
    assert_non_null(strstr(text, ", y_2)"));
    assert_null(strstr(text, "neg"));
    free(text);
    unit_free(p);
}

/* x / 0 is not folded and its assertion assert(false) stays; assert(true)
 * and a repeated assertion of one condition go. */
static void test_asserts(void **state) {
    (void)state;
    Prog *p = ts_prog();
    Var **ps = NEW_ARRAY(p->arena, Var *, 2);
    ps[0] = ir_var(p, "x", type_prim(PT_I32));
    ps[1] = ir_var(p, "c", type_prim(PT_BOOL));
    TsStms s = {0};
    SubExp zero = se_const(prim_int(PT_I32, 0));
    const SubExp conds[4] = {se_bool(true), se_var(ps[1]), se_var(ps[1]), se_bool(false)};
    for (int i = 0; i < 4; i++) {
        IrExp *e = NEW(p->arena, IrExp);
        e->kind = IE_ASSERT;
        e->cond = conds[i];
        e->msg = "failed";
        ts_let(p, &s, type_prim(PT_BOOL), e);
    }
    Var *d = ts_let(p, &s, type_prim(PT_I32), ts_op(p, OP_DIV, PT_I32, se_const(prim_int(PT_I32, 7)), zero));
    ts_entry(p, ps, 2, ts_body(p, &s, se_var(d)), PT_I32);
    ts_simplify(p);
    assert_int_equal(unit_structure_count(p, "Assert"), 2);
    assert_int_equal(unit_structure_count(p, "BinOp"), 1);
    char *text = ts_print(p);
    assert_non_null(strstr(text, "assert(c_2"));
    assert_non_null(strstr(text, "assert(false"));
    assert_null(strstr(text, "assert(true"));
    free(text);
    unit_free(p);
}

/* Dead pure statements go, an assertion never does. */
static void test_dead_code(void **state) {
    (void)state;
    Prog *p = ts_prog();
    Var **ps = NEW_ARRAY(p->arena, Var *, 1);
    ps[0] = ir_var(p, "x", type_prim(PT_I64));
    TsStms s = {0};
    Var *a = ts_let(p, &s, type_prim(PT_I64), ts_op(p, OP_MUL, PT_I64, se_var(ps[0]), se_var(ps[0])));
    Var *b = ts_let(p, &s, type_prim(PT_I64), ts_op(p, OP_ADD, PT_I64, se_var(a), se_i64(3)));
    Var *lt = ts_let(p, &s, type_prim(PT_BOOL), ts_op(p, OP_LT, PT_I64, se_var(b), se_i64(100)));
    IrExp *e = NEW(p->arena, IrExp);
    e->kind = IE_ASSERT;
    e->cond = se_var(lt);
    e->msg = "small";
    ts_let(p, &s, type_prim(PT_BOOL), e);
    ts_let(p, &s, type_prim(PT_I64), ts_op(p, OP_SUB, PT_I64, se_var(b), se_i64(1)));
    ts_entry(p, ps, 1, ts_body(p, &s, se_var(ps[0])), PT_I64);
    ts_simplify(p);
    assert_int_equal(p->funs[0]->body->nstms, 4);
    assert_int_equal(unit_structure_count(p, "BinOp"), 3);
    assert_int_equal(unit_structure_count(p, "Assert"), 1);
    unit_free(p);
}

/* ---- From source -------------------------------------------------------------- */

static void test_dead_map(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main (xs: []i32) : i32 = let ys = map (*2) xs let _ = ys in i32.sum xs");
    assert_int_equal(unit_structure_count(p, "Screma"), 2);
    ts_simplify(p);
    assert_int_equal(unit_structure_count(p, "Screma"), 1);
    assert_int_equal(unit_structure_count(p, "Reduce"), 1);
    unit_free(p);
}

static void test_cse_reduce(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main (xs: []f32) : f32 = f32.sum xs * f32.sum xs");
    assert_int_equal(unit_structure_count(p, "Screma"), 2);
    ts_simplify(p);
    assert_int_equal(unit_structure_count(p, "Screma"), 1);
    assert_int_equal(unit_structure_count(p, "BinOp"), 2);
    unit_free(p);
}

/* Different operators are not merged. */
static void test_no_cse_of_different(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main (xs: []i32) : i32 = i32.sum xs + i32.product xs");
    ts_simplify(p);
    assert_int_equal(unit_structure_count(p, "Screma"), 2);
    unit_free(p);
}

static void test_bounds_loop(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main [n] (xs: [n]i32) : i32 = loop acc = 0 for i < n do acc + xs[i]");
    assert_int_equal(unit_structure_count(p, "Assert"), 1);
    ts_simplify(p);
    assert_int_equal(unit_structure_count(p, "Assert"), 0);
    assert_int_equal(unit_structure_count(p, "Index"), 1);
    unit_free(p);
}

/* i + 1 is not provably below n: the check stays. */
static void test_bounds_kept(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main [n] (xs: [n]i32) : [n]i32 = map (\\i -> xs[i + 1]) (iota n)");
    ts_simplify(p);
    assert_int_equal(unit_structure_count(p, "Assert"), 1);
    unit_free(p);
}

static void test_bounds_iota(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main [n] (xs: [n]i32) : [n]i32 = map (\\i -> xs[i] + 1) (iota n)");
    ts_simplify(p);
    assert_int_equal(unit_structure_count(p, "Assert"), 0);
    unit_free(p);
}

/* Clamped neighbours of a stencil are in bounds: max (i - 1) 0 and
 * min (i + 1) (n - 1) for i < n (n >= 1 where i exists), also through a
 * for-loop index and nested clamps. */
static void test_bounds_clamped(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main [n] (xs: [n]i32) : [n]i32 =\n"
                               "  map (\\i -> xs[i64.max (i - 1) 0] + xs[i64.min (i + 1) (n - 1)]\n"
                               "             + xs[i64.max 0 (i64.min (i + 2) (n - 1))]\n"
                               "             + (loop a = 0 for j < n do a + xs[i64.min (j + 1) (n - 1)])) (iota n)");
    ts_simplify(p);
    assert_int_equal(unit_structure_count(p, "Assert"), 0);
    unit_free(p);
}

/* Clamps that can leave the array keep their checks: max (i + 1) 0 may be
 * n, min i (n - 2) may be -1 (n = 1), max (i - 1) 1 may be n when n = 1,
 * min (i + 1) n may be n. */
static void test_bounds_clamped_kept(void **state) {
    (void)state;
    const char *const progs[] = {
        "def main [n] (xs: [n]i32) : [n]i32 = map (\\i -> xs[i64.max (i + 1) 0]) (iota n)",
        "def main [n] (xs: [n]i32) : [n]i32 = map (\\i -> xs[i64.min i (n - 2)]) (iota n)",
        "def main [n] (xs: [n]i32) : [n]i32 = map (\\i -> xs[i64.max (i - 1) 1]) (iota n)",
        "def main [n] (xs: [n]i32) : [n]i32 = map (\\i -> xs[i64.min (i + 1) n]) (iota n)",
    };
    for (size_t k = 0; k < sizeof progs / sizeof *progs; k++) {
        Prog *p = unit_from_source(progs[k]);
        ts_simplify(p);
        assert_int_equal(unit_structure_count(p, "Assert"), 1);
        unit_free(p);
    }
}

/* The dimensions of an entry point's array parameters are >= 0: unflatten's
 * check that its sizes are not negative goes, that of a value stays. */
static void test_entry_sizes_nonneg(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main [n][m] (a: [n][m]i32) (k: i64) : ([n][m]i32, [k][]i32) =\n"
                               "  (unflatten (flatten a), unflatten (flatten a :> [k * m]i32))");
    ts_simplify(p);
    assert_int_equal(unit_structure_count(p, "Assert"), 2);
    unit_free(p);
}

/* a*b moves in front of the loop; the loop keeps only the add. */
static void test_hoist_loop(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main (a: i32) (b: i32) (n: i32) : i32 = loop acc = 0 for _i < n do acc + a * b");
    ts_simplify(p);
    Body *body = p->funs[0]->body;
    Stm *loop = NULL;
    int mul_before = 0;
    for (int i = 0; i < body->nstms; i++) {
        IrExp *e = body->stms[i]->e;
        if (e->kind == IE_LOOP) loop = body->stms[i];
        if (e->kind == IE_OP && e->op == OP_MUL && !loop) mul_before++;
    }
    assert_non_null(loop);
    assert_int_equal(mul_before, 1);
    assert_int_equal(loop->e->loop.body->nstms, 1);
    unit_free(p);
}

/* A division by a variable inside a loop is not hoisted (it could trap). */
static void test_no_hoist_division(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main (a: i32) (b: i32) (n: i32) : i32 = loop acc = 0 for _i < n do acc + a / b");
    ts_simplify(p);
    Body *body = p->funs[0]->body;
    Stm *loop = body->stms[body->nstms - 1];
    assert_int_equal(loop->e->kind, IE_LOOP);
    int divs = 0;
    for (int i = 0; i < loop->e->loop.body->nstms; i++)
        divs += loop->e->loop.body->stms[i]->e->kind == IE_OP && loop->e->loop.body->stms[i]->e->op == OP_DIV;
    assert_int_equal(divs, 1);
    unit_free(p);
}

/* xs[i] is proven in bounds, so it may move out of the inner map. */
static void test_hoist_proven_index(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main [n] (xs: [n]i32) : [n][n]i32 = "
                             "map (\\i -> map (\\j -> xs[j] * xs[i]) (iota n)) (iota n)");
    ts_simplify(p);
    Stm *outer = p->funs[0]->body->stms[p->funs[0]->body->nstms - 1];
    assert_int_equal(outer->e->kind, IE_SCREMA);
    Body *ob = outer->e->screma.map->body;
    assert_int_equal(ob->nstms, 2);
    assert_int_equal(ob->stms[0]->e->kind, IE_INDEX);
    Stm *inner = ob->stms[1];
    assert_int_equal(inner->e->kind, IE_SCREMA);
    assert_int_equal(inner->e->screma.map->body->nstms, 2);
    assert_int_equal(unit_structure_count(p, "Assert"), 0);
    unit_free(p);
}

static void test_unused_loop_param(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main (n: i32) : i32 = "
                             "let (x, _) = loop (a, b) = (0, 1) for i < n do (a + i, b * 3 + a) in x");
    ts_simplify(p);
    Body *body = p->funs[0]->body;
    Stm *loop = body->stms[body->nstms - 1];
    assert_int_equal(loop->e->kind, IE_LOOP);
    assert_int_equal(loop->e->loop.nparams, 1);
    assert_int_equal(unit_structure_count(p, "BinOp"), 1);
    unit_free(p);
}

static void test_if_rules(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main (c: bool) (x: i32) : (i32, i32, i32) = "
                             "(if c then x else x, if c then 1 else 0, if 2 > 1 then x + 1 else x - 1)");
    ts_simplify(p);
    assert_int_equal(unit_structure_count(p, "If"), 0);
    assert_int_equal(unit_structure_count(p, "Conv"), 1);
    assert_int_equal(unit_structure_count(p, "BinOp"), 1);
    unit_free(p);
}

static void test_unused_map_output(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main (xs: []i32) : []i32 = let (ys, _) = unzip (map (\\x -> (x + 1, x * x)) xs) in ys");
    ts_simplify(p);
    Stm *m = p->funs[0]->body->stms[p->funs[0]->body->nstms - 1];
    assert_int_equal(m->e->kind, IE_SCREMA);
    assert_int_equal(m->npat, 1);
    assert_int_equal(m->e->screma.map->nret, 1);
    assert_int_equal(unit_structure_count(p, "BinOp"), 1);
    unit_free(p);
}

/* unflatten of a flatten is the array itself; two flattens in a row are
 * one reshape of the original array. */
static void test_reshape_chains(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main [n][m] (xs: [n][m]i32) : [n][m]i32 = unflatten (flatten xs)");
    ts_simplify(p);
    assert_int_equal(unit_structure_count(p, "Reshape"), 0);
    assert_ptr_equal(p->funs[0]->body->res[0].v, p->funs[0]->params[0]);
    Prog *q = unit_from_source("def main [n][m][k] (xs: [n][m][k]i32) : []i32 = flatten (flatten xs)");
    ts_simplify(q);
    assert_int_equal(unit_structure_count(q, "Reshape"), 1);
    Stm *r = q->funs[0]->body->stms[q->funs[0]->body->nstms - 1];
    assert_int_equal(r->e->kind, IE_RESHAPE);
    assert_ptr_equal(r->e->arr, q->funs[0]->params[0]);
    unit_free(p);
    unit_free(q);
}

/* An array that is updated in place is not merged with an equal one. */
static void test_no_cse_of_consumed(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main (n: i64) : ([]i32, []i32) = "
                             "let a = replicate n 0i32 let b = replicate n 0i32 in (a, b with [0] = 1)");
    ts_simplify(p);
    assert_int_equal(unit_structure_count(p, "Replicate"), 2);
    unit_free(p);
}

/* A reduction and a size computation are hoisted out of a map lambda;
 * simplifying twice changes nothing more (a fixed point). */
static void test_fixed_point(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main [n] (xs: [n]i64) : [n]i64 = "
                             "map (\\i -> xs[i] * (n * 2) + reduce (+) 0 xs) (iota n)");
    ts_simplify(p);
    /* the reduction and n * 2 moved out of the map, its bounds check went */
    Body *body = p->funs[0]->body;
    Stm *last = body->stms[body->nstms - 1];
    assert_int_equal(last->e->kind, IE_SCREMA);
    assert_int_equal(last->e->screma.map->body->nstms, 3);
    assert_int_equal(unit_structure_count(p, "Assert"), 0);
    char *a = ts_print(p);
    ts_simplify(p);
    char *b = ts_print(p);
    assert_string_equal(a, b);
    free(a);
    free(b);
    unit_free(p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fold_and_algebra),
        cmocka_unit_test(test_asserts),
        cmocka_unit_test(test_dead_code),
        cmocka_unit_test(test_dead_map),
        cmocka_unit_test(test_cse_reduce),
        cmocka_unit_test(test_no_cse_of_different),
        cmocka_unit_test(test_bounds_loop),
        cmocka_unit_test(test_bounds_kept),
        cmocka_unit_test(test_bounds_iota),
        cmocka_unit_test(test_bounds_clamped),
        cmocka_unit_test(test_bounds_clamped_kept),
        cmocka_unit_test(test_entry_sizes_nonneg),
        cmocka_unit_test(test_hoist_loop),
        cmocka_unit_test(test_no_hoist_division),
        cmocka_unit_test(test_hoist_proven_index),
        cmocka_unit_test(test_unused_loop_param),
        cmocka_unit_test(test_if_rules),
        cmocka_unit_test(test_unused_map_output),
        cmocka_unit_test(test_no_cse_of_consumed),
        cmocka_unit_test(test_reshape_chains),
        cmocka_unit_test(test_fixed_point),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
