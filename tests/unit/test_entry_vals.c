/* Unit tests of how internalise groups an entry point's flattened
 * parameters and results into the values the generated C API shows
 * (Fun's in_vals and out_vals): primitives and arrays one component each,
 * records and tuples opaque types named by their abbreviation or their
 * structure, a top-level tuple result split unless an abbreviation names
 * it, arrays of tuples opaque without fields, and nested records. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "from_source.h"

static const Fun *ev_fun(const Prog *p, const char *name) {
    for (int i = 0; i < p->nfuns; i++)
        if (!strcmp(p->funs[i]->name, name)) return p->funs[i];
    fail_msg("no entry point %s", name);
    return NULL;
}

/* Checks value v: components [first, first + n), opaque name (or NULL)
 * and number of fields. */
static void ev_expect(const EntryVal *v, int first, int n, const char *opaque, int nfields) {
    assert_int_equal(v->first, first);
    assert_int_equal(v->n, n);
    if (opaque) assert_string_equal(v->opaque, opaque);
    else assert_null(v->opaque);
    assert_int_equal(v->nfields, nfields);
}

static void ev_free(Prog *p) {
    Arena *a = p->arena;
    arena_free(a);
    free(a);
}

static void test_plain_values(void **state) {
    (void)state;
    Prog *p = unit_from_source("entry f (xs: []i32) (n: i64) : (i32, []f32) = (xs[0], map f32.i64 (iota n))\n");
    const Fun *f = ev_fun(p, "f");
    assert_int_equal(f->nin_vals, 2);
    ev_expect(&f->in_vals[0], 0, 1, NULL, 0);
    ev_expect(&f->in_vals[1], 1, 1, NULL, 0);
    assert_int_equal(f->nout_vals, 2);
    ev_expect(&f->out_vals[1], 1, 1, NULL, 0);
    ev_free(p);
}

static void test_named_record(void **state) {
    (void)state;
    Prog *p = unit_from_source("type point = {x: f32, y: f32}\n"
                               "entry g (p: point) (d: f32) : point = {x = p.x + d, y = p.y}\n");
    const Fun *f = ev_fun(p, "g");
    assert_int_equal(f->nparams, 3);
    assert_int_equal(f->nin_vals, 2);
    ev_expect(&f->in_vals[0], 0, 2, "point", 2);
    assert_string_equal(f->in_vals[0].field_names[0], "x");
    assert_string_equal(f->in_vals[0].field_names[1], "y");
    ev_expect(&f->in_vals[0].fields[1], 1, 1, NULL, 0);
    ev_expect(&f->in_vals[1], 2, 1, NULL, 0);
    assert_int_equal(f->nout_vals, 1);
    ev_expect(&f->out_vals[0], 0, 2, "point", 2);
    ev_free(p);
}

static void test_tuple_results(void **state) {
    (void)state;
    Prog *p = unit_from_source("entry h (n: i64) : (i32, (i64, []i64)) = (i32.i64 n, (n, iota n))\n"
                               "type pair = (i32, i32)\n"
                               "entry q (a: i32) : pair = (a, a + 1)\n");
    const Fun *h = ev_fun(p, "h"), *q = ev_fun(p, "q");
    assert_int_equal(h->nret, 3);
    assert_int_equal(h->nout_vals, 2);
    ev_expect(&h->out_vals[0], 0, 1, NULL, 0);
    ev_expect(&h->out_vals[1], 1, 2, "tup2_i64_arr1d_i64", 2);
    assert_string_equal(h->out_vals[1].field_names[1], "1");
    assert_int_equal(q->nout_vals, 1); /* named by an abbreviation: one opaque value */
    ev_expect(&q->out_vals[0], 0, 2, "pair", 2);
    ev_free(p);
}

static void test_arrays_of_tuples_and_nesting(void **state) {
    (void)state;
    Prog *p = unit_from_source("entry z [n] (ps: [n](i32, [3]f32)) : f32 = f32.sum (map (\\(a, b) -> f32.i32 a + b[0]) ps)\n"
                               "type nested = {p: {x: f32, y: f32}, n: i32}\n"
                               "entry t (v: nested) : i32 = v.n\n");
    const Fun *z = ev_fun(p, "z"), *t = ev_fun(p, "t");
    assert_int_equal(z->nparams, 2);
    ev_expect(&z->in_vals[0], 0, 2, "arr1d_tup2_i32_arr1d_f32", 0);
    ev_expect(&t->in_vals[0], 0, 3, "nested", 2);
    ev_expect(&t->in_vals[0].fields[0], 0, 1, NULL, 0); /* n: fields are sorted by name */
    ev_expect(&t->in_vals[0].fields[1], 1, 2, "rec_x_f32_y_f32", 2);
    ev_free(p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_values),
        cmocka_unit_test(test_named_record),
        cmocka_unit_test(test_tuple_results),
        cmocka_unit_test(test_arrays_of_tuples_and_nesting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
