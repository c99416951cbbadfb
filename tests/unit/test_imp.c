/* Unit tests of Imp (compiler/imp): the builder and the readable printer
 * on hand-built code, the checker accepting lowered programs and rejecting
 * hand-built bad ones (each with the message it gives), and the lowering
 * of small programs run through the pipeline to STAGE_MEM. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "from_source.h"

#include "imp/imp.h"
#include "passes/pipeline.h"

/* ---- Hand-built programs ---------------------------------------------------- */

/* An empty program with its own arena; ids from 1. */
static ImpProg *new_prog(void) {
    Arena *a = calloc(1, sizeof(Arena));
    ImpProg *p = NEW(a, ImpProg);
    p->arena = a;
    p->next_id = 1;
    return p;
}

static void free_prog(ImpProg *p) {
    Arena *a = p->arena;
    arena_free(a);
    free(a);
}

/* Adds function f (its body built in b) as p's next function. */
static ImpFun *add_fun(ImpProg *p, const char *name, ImpVar **params, int nparams, PrimType ret, ImpBuilder *b) {
    ImpFun *f = NEW(p->arena, ImpFun);
    f->name = name;
    f->index = p->nfuns;
    f->params = params;
    f->nparams = nparams;
    f->rets = NEW_ARRAY(p->arena, PrimType, 1);
    f->rets[0] = ret;
    f->nrets = 1;
    f->body = imp_finish(b);
    ImpFun **fs = NEW_ARRAY(p->arena, ImpFun *, p->nfuns + 1);
    COPY_ARRAY(fs, p->funs, p->nfuns);
    fs[p->nfuns++] = f;
    p->funs = fs;
    return f;
}

static void add_return(ImpBuilder *b, ImpExp *x) {
    ImpStm *r = imp_add(b, IMP_RETURN);
    r->args = NEW_ARRAY(b->a, ImpExp *, 1);
    r->args[0] = x;
    r->nargs = 1;
}

/* The printed program. */
static char *printed(const ImpProg *p) {
    Buf b = {0};
    imp_print(&b, p);
    return b.data;
}

/* imp_check's verdict on p; the message (when it fails) in *msg, malloc'd. */
static bool checks(const ImpProg *p, char **msg) {
    Buf err = {0};
    bool ok = imp_check(p, &err);
    *msg = err.data;
    return ok;
}

/* Asserts that p fails the check with a message containing what. */
static void assert_rejected(const ImpProg *p, const char *what) {
    char *msg;
    assert_false(checks(p, &msg));
    assert_non_null(msg);
    if (!strstr(msg, what)) fail_msg("expected \"%s\" in \"%s\"", what, msg);
    free(msg);
}

/* fun 0 pow3 (x: i32) -> i32: y = 1; for i < 3 { y = y * x }; return y */
static void test_builder_and_printer(void **state) {
    (void)state;
    ImpProg *p = new_prog();
    Arena *a = p->arena;
    ImpVar *x = imp_var(p, "x", IMP_SCALAR, PT_I32);
    ImpVar *y = imp_var(p, "y", IMP_SCALAR, PT_I32);
    ImpVar *i = imp_var(p, "i", IMP_SCALAR, PT_I64);
    assert_int_equal(x->id, 1);
    assert_int_equal(i->id, 3);
    assert_int_equal(p->next_id, 4);
    ImpBuilder b = {.a = a};
    imp_decl(&b, y, imp_const(a, prim_int(PT_I32, 1)));
    ImpStm *f = imp_add(&b, IMP_FOR);
    f->var = i;
    f->bound = imp_i64(a, 3);
    ImpBuilder body = {.a = a};
    imp_assign(&body, y, imp_op2(a, OP_MUL, PT_I32, imp_read(a, y), imp_read(a, x)));
    f->body = imp_finish(&body);
    assert_int_equal(f->body.n, 1);
    assert_int_equal(body.stms.len, 0);
    add_return(&b, imp_read(a, y));
    ImpVar **params = NEW_ARRAY(a, ImpVar *, 1);
    params[0] = x;
    add_fun(p, "pow3", params, 1, PT_I32, &b);
    char *text = printed(p);
    assert_string_equal(text, "-- stage imp\n"
                              "fun 0 pow3(i32 x_1) -> (i32) {\n"
                              "  i32 y_2 = 1i32\n"
                              "  for i_3 < 3i64 {\n"
                              "    y_2 = mul.i32(y_2, x_1)\n"
                              "  }\n"
                              "  return (y_2)\n"
                              "}\n");
    free(text);
    char *msg;
    assert_true(checks(p, &msg));
    free(msg);
    free_prog(p);
}

/* Expression types, constant Syms, loads, stores and copies as printed. */
static void test_expressions(void **state) {
    (void)state;
    ImpProg *p = new_prog();
    Arena *a = p->arena;
    ImpVar *n = imp_var(p, "n", IMP_SCALAR, PT_I64);
    ImpVar *m = imp_var(p, "mem", IMP_MEM, PT_I64);
    ImpExp *one = imp_const(a, prim_float(PT_F32, 1)), *two = imp_const(a, prim_float(PT_F32, 2));
    assert_int_equal(imp_exp_type(imp_op2(a, OP_LT, PT_F32, one, two)), PT_BOOL);
    assert_int_equal(imp_exp_type(imp_op2(a, OP_ADD, PT_F32, one, two)), PT_F32);
    assert_int_equal(imp_exp_type(imp_conv(a, PT_I64, PT_F64, imp_read(a, n))), PT_F64);
    Sym *two_n1 = sym_add(a, sym_mul(a, sym_const(a, 2), sym_var(a, n->id)), sym_const(a, 1));
    ImpExp *ix = imp_sym(a, two_n1);
    assert_int_equal(ix->kind, IX_SYM);
    assert_int_equal(imp_exp_type(ix), PT_I64);
    ImpExp *c = imp_sym(a, sym_sub(a, two_n1, two_n1));
    assert_int_equal(c->kind, IX_CONST);
    assert_int_equal(c->c.v.i, 0);
    ImpExp *ld = imp_load(a, m, PT_U8, ix);
    assert_int_equal(imp_exp_type(ld), PT_U8);
    /* Printed inside a function whose parameter is n. */
    ImpBuilder b = {.a = a};
    imp_decl(&b, m, NULL);
    ImpStm *al = imp_add(&b, IMP_ALLOC);
    al->mem = m;
    al->size = imp_i64(a, 64);
    imp_store(&b, m, PT_U8, ix, imp_const(a, prim_int(PT_U8, 7)));
    ImpStm *cp = imp_add(&b, IMP_COPY);
    cp->dst = cp->src = m;
    cp->t = PT_U8;
    Sym *shape = sym_var(a, n->id);
    cp->dst_lmad = lmad_row_major(a, 1, &shape);
    LmadSlice upper = {.start = shape, .len = shape, .stride = sym_const(a, 1)};
    cp->src_lmad = lmad_slice(a, cp->dst_lmad, &upper, 1);
    imp_add(&b, IMP_RELEASE)->mem = m;
    add_return(&b, imp_conv(a, PT_U8, PT_I64, ld));
    ImpVar **params = NEW_ARRAY(a, ImpVar *, 1);
    params[0] = n;
    add_fun(p, "f", params, 1, PT_I64, &b);
    char *text = printed(p);
    assert_non_null(strstr(text, "  mem mem_2\n  mem_2 = alloc(64i64)\n"));
    assert_non_null(strstr(text, "  mem_2.u8[2*n_1 + 1] = 7u8\n"));
    assert_non_null(strstr(text, "  copy u8 mem_2[0 + {(n_1 : 1)}] <- mem_2[n_1 + {(n_1 : 1)}]\n"));
    assert_non_null(strstr(text, "  return (u8->i64(mem_2.u8[2*n_1 + 1]))\n"));
    free(text);
    /* A function allocates: the checker refuses (functions cannot fail). */
    assert_rejected(p, "an allocation in a function");
    free_prog(p);
}

/* fun 0 f (x: i32) -> i32 { <stms> return x }, for the bad programs below. */
static ImpProg *fun_with(void (*build)(ImpProg *p, ImpBuilder *b, ImpVar *x)) {
    ImpProg *p = new_prog();
    ImpVar *x = imp_var(p, "x", IMP_SCALAR, PT_I32);
    ImpBuilder b = {.a = p->arena};
    build(p, &b, x);
    add_return(&b, imp_read(p->arena, x));
    ImpVar **params = NEW_ARRAY(p->arena, ImpVar *, 1);
    params[0] = x;
    add_fun(p, "f", params, 1, PT_I32, &b);
    return p;
}

static void use_before_decl(ImpProg *p, ImpBuilder *b, ImpVar *x) {
    ImpVar *y = imp_var(p, "y", IMP_SCALAR, PT_I32);
    imp_assign(b, x, imp_read(p->arena, y));
    imp_decl(b, y, imp_read(p->arena, x));
}

static void type_mismatch(ImpProg *p, ImpBuilder *b, ImpVar *x) {
    imp_assign(b, x, imp_const(p->arena, prim_float(PT_F32, 1.5)));
}

static void op_mismatch(ImpProg *p, ImpBuilder *b, ImpVar *x) {
    Arena *a = p->arena;
    imp_assign(b, x, imp_op2(a, OP_ADD, PT_I32, imp_read(a, x), imp_i64(a, 1)));
}

static void sym_undeclared(ImpProg *p, ImpBuilder *b, ImpVar *x) {
    Arena *a = p->arena;
    ImpVar *m = imp_var(p, "m", IMP_MEM, PT_I32);
    ImpVar *k = imp_var(p, "k", IMP_SCALAR, PT_I64); /* never declared */
    imp_decl(b, m, NULL);
    imp_assign(b, x, imp_load(a, m, PT_I32, imp_sym(a, sym_add(a, sym_var(a, k->id), sym_const(a, 1)))));
}

static void sym_not_i64(ImpProg *p, ImpBuilder *b, ImpVar *x) {
    Arena *a = p->arena;
    ImpVar *m = imp_var(p, "m", IMP_MEM, PT_I32);
    imp_decl(b, m, NULL);
    imp_assign(b, x, imp_load(a, m, PT_I32, imp_sym(a, sym_var(a, x->id))));
}

static void result_in_fun(ImpProg *p, ImpBuilder *b, ImpVar *x) {
    ImpStm *r = imp_add(b, IMP_RESULT);
    r->t = PT_I32;
    r->value = imp_read(p->arena, x);
}

static void block_as_scalar(ImpProg *p, ImpBuilder *b, ImpVar *x) {
    ImpVar *m = imp_var(p, "m", IMP_MEM, PT_I32);
    imp_decl(b, m, NULL);
    imp_assign(b, x, imp_read(p->arena, m));
}

static void declared_twice(ImpProg *p, ImpBuilder *b, ImpVar *x) { imp_decl(b, x, NULL); }

static void out_of_scope(ImpProg *p, ImpBuilder *b, ImpVar *x) {
    Arena *a = p->arena;
    ImpVar *i = imp_var(p, "i", IMP_SCALAR, PT_I64);
    ImpStm *f = imp_add(b, IMP_FOR);
    f->var = i;
    f->bound = imp_i64(a, 4);
    imp_assign(b, x, imp_conv(a, PT_I64, PT_I32, imp_read(a, i)));
}

static void return_early(ImpProg *p, ImpBuilder *b, ImpVar *x) { add_return(b, imp_read(p->arena, x)); }

static void test_check_rejects(void **state) {
    (void)state;
    static const struct {
        void (*build)(ImpProg *p, ImpBuilder *b, ImpVar *x);
        const char *msg;
    } cases[] = {
        {use_before_decl, "function f: y_2 is used before its declaration"},
        {type_mismatch, "the value given to x_1 is a f32, not a i32"},
        {op_mismatch, "operand 2 of add.i32 is not a i32"},
        {sym_undeclared, "a Sym mentions v3, which is not in scope"},
        {sym_not_i64, "a Sym mentions x_1, which is not an i64 scalar"},
        {result_in_fun, "IMP_RESULT outside an entry point"},
        {block_as_scalar, "m_2 is a block used as a scalar"},
        {declared_twice, "x_1 is declared twice"},
        {out_of_scope, "i_2 is used before its declaration or outside its scope"},
        {return_early, "IMP_RETURN that does not end a function"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        ImpProg *p = fun_with(cases[k].build);
        assert_rejected(p, cases[k].msg);
        free_prog(p);
    }
}

/* ---- Lowered programs --------------------------------------------------------- */

/* src through the pipeline to STAGE_MEM and lowered; imp_check must
 * accept it. */
static ImpProg *lowered(const char *src, Prog **out) {
    Prog *p = unit_from_source(src);
    PipelineOpts o = {.verify = true, .last_stage = STAGE_MEM};
    assert_true(pipeline_run(p, &o));
    ImpProg *ip = imp_lower(p);
    assert_non_null(ip);
    assert_int_equal(ip->nentries, p->nfuns);
    assert_true(ip->next_id >= p->next_var_id);
    char *msg;
    if (!checks(ip, &msg)) fail_msg("imp_check: %s", msg);
    free(msg);
    *out = p;
    return ip;
}

/* Statements of kind k in c, nested code included. */
static int count(const ImpCode *c, ImpStmKind k) {
    int n = 0;
    for (int i = 0; i < c->n; i++) {
        const ImpStm *s = c->stms[i];
        n += s->kind == k;
        n += count(&s->body, k) + count(&s->orelse, k);
    }
    return n;
}

/* The first statement of kind k in c (depth first), or NULL. */
static const ImpStm *find(const ImpCode *c, ImpStmKind k) {
    for (int i = 0; i < c->n; i++) {
        const ImpStm *s = c->stms[i];
        if (s->kind == k) return s;
        const ImpStm *r = find(&s->body, k);
        if (!r) r = find(&s->orelse, k);
        if (r) return r;
    }
    return NULL;
}

/* A map, a scan and a reduction: arguments, one loop with an allocation
 * before it, results, and every block released. */
static void test_lower_screma(void **state) {
    (void)state;
    Prog *p;
    ImpProg *ip = lowered("entry main (xs: []i32) (ys: []i32) : (i32, []i32) =\n"
                          "  let s = reduce (+) 0 xs\n"
                          "  let ws = scan (+) 0 (map2 (+) xs ys)\n"
                          "  in (s, ws with [0] = s)\n",
                          &p);
    const ImpCode *c = &ip->entries[0]->body;
    assert_int_equal(count(c, IMP_ARG), 2);
    assert_int_equal(count(c, IMP_RESULT), 2);
    assert_int_equal(count(c, IMP_FOR), 1);
    assert_int_equal(count(c, IMP_ALLOC), 1);
    /* the two arguments' blocks and the allocated one */
    assert_int_equal(count(c, IMP_RELEASE), 3);
    const ImpStm *a = find(c, IMP_ARG);
    assert_int_equal(a->rank, 1);
    assert_false(a->unique);
    /* ys's size is xs's: checked with today's message, without a location */
    const ImpStm *chk = find(c, IMP_ASSERT);
    assert_non_null(chk);
    assert_string_equal(chk->msg, "Entry point arguments have invalid sizes: argument 2 of main has size {} in "
                                  "dimension 1, but {} was expected.");
    assert_null(chk->loc.file);
    assert_int_equal(chk->nargs, 2);
    /* the in-place update's bounds check keeps its message and location */
    int asserts = count(c, IMP_ASSERT);
    assert_int_equal(asserts, 2);
    char *text = printed(ip);
    assert_non_null(strstr(text, "Index [{}] out of bounds for array of shape [{}]."));
    assert_non_null(strstr(text, "@ t.fut:4:"));
    assert_non_null(strstr(text, "result 0 = "));
    free(text);
    unit_free(p);
}

/* A loop whose parameter is an array: its block is retained on entry and
 * replaced (retain the new, release the old) each iteration. */
static void test_lower_loop(void **state) {
    (void)state;
    Prog *p;
    ImpProg *ip = lowered("entry main (n: i64) (xs: [n]f32) : []f32 =\n"
                          "  loop acc = xs for i < 3 do map (+ f32.i64 i) acc\n",
                          &p);
    const ImpCode *c = &ip->entries[0]->body;
    const ImpStm *loop = find(c, IMP_FOR);
    assert_non_null(loop);
    assert_int_equal(count(&loop->body, IMP_ALLOC), 1);
    assert_int_equal(count(&loop->body, IMP_RETAIN), 1);
    assert_int_equal(count(&loop->body, IMP_RELEASE), 2);
    assert_int_equal(count(&loop->body, IMP_FOR), 1);
    assert_int_equal(count(c, IMP_RETAIN), 2);
    const ImpStm *r = find(c, IMP_RESULT);
    assert_int_equal(r->rank, 1);
    assert_int_equal(r->lmad->rank, 1);
    unit_free(p);
}

/* Scatter checks its indices (an if in the loop); a unique argument is
 * marked so. */
static void test_lower_scatter(void **state) {
    (void)state;
    Prog *p;
    ImpProg *ip = lowered("entry main (dest: *[]i32) (is: []i64) (vs: []i32) : []i32 = scatter dest is vs\n", &p);
    const ImpCode *c = &ip->entries[0]->body;
    const ImpStm *a = find(c, IMP_ARG);
    assert_int_equal(a->k, 0);
    assert_true(a->unique);
    const ImpStm *loop = find(c, IMP_FOR);
    assert_non_null(loop);
    const ImpStm *guard = find(&loop->body, IMP_IF);
    assert_non_null(guard);
    assert_int_equal(guard->cond->kind, IX_OP);
    assert_int_equal(guard->cond->op, OP_LAND);
    assert_int_equal(count(&guard->body, IMP_STORE), 1);
    unit_free(p);
}

/* Hist combines into its buckets: a load and a store of the bucket. */
static void test_lower_hist(void **state) {
    (void)state;
    Prog *p;
    ImpProg *ip = lowered("entry main (is: []i64) (vs: []f32) : []f32 =\n"
                          "  hist (+) 0 10 is vs\n",
                          &p);
    const ImpCode *c = &ip->entries[0]->body;
    const ImpStm *guard = find(c, IMP_IF);
    assert_non_null(guard);
    assert_int_equal(count(&guard->body, IMP_STORE), 1);
    char *text = printed(ip);
    assert_non_null(strstr(text, "add.f32("));
    free(text);
    unit_free(p);
}

/* A large function stays a function: an ImpFun ending in IMP_RETURN,
 * called by IMP_CALL. */
static void test_lower_call(void **state) {
    (void)state;
    Prog *p;
    ImpProg *ip = lowered("def big (x: i64) (y: i64) : i64 =\n"
                          "  let a = x * 3 + y let b = a * 5 + x let c = b * 7 + a let d = c * 11 + b\n"
                          "  let e = d * 13 + c let f = e * 17 + d let g = f * 19 + e let h = g * 23 + f\n"
                          "  let i = h * 29 + g let j = i * 31 + h let k = j * 37 + i let l = k * 41 + j\n"
                          "  let m = l * 43 + k let n = m * 47 + l let o = n * 53 + m let p = o * 59 + n\n"
                          "  let q = p * 61 + o let r = q * 67 + p let s = r * 71 + q let t = s * 73 + r\n"
                          "  let u = t * 79 + s in u * 83 + t\n"
                          "entry main (x: i64) : i64 = big x 1 + big x 2\n",
                          &p);
    assert_int_equal(ip->nfuns, 1);
    const ImpFun *f = ip->funs[0];
    assert_string_equal(f->name, "big");
    assert_int_equal(f->nparams, 2);
    assert_int_equal(f->body.stms[f->body.n - 1]->kind, IMP_RETURN);
    const ImpCode *c = &ip->entries[0]->body;
    assert_int_equal(count(c, IMP_CALL), 2);
    assert_ptr_equal(find(c, IMP_CALL)->fn, f);
    unit_free(p);
}

/* Array literals, concatenation and replicate of rows are copies. */
static void test_lower_copies(void **state) {
    (void)state;
    Prog *p;
    ImpProg *ip = lowered("entry main (xs: []f64) (ys: []f64) : ([][]f64, []f64, [][]f64) =\n"
                          "  ([xs, xs], concat xs ys, replicate 3 ys)\n",
                          &p);
    const ImpCode *c = &ip->entries[0]->body;
    /* two rows of the literal, two halves of the concatenation, one
     * replicate (its source seen with a leading dimension of stride 0) */
    assert_int_equal(count(c, IMP_COPY), 5);
    int broadcast = 0;
    for (int i = 0; i < c->n; i++) {
        const ImpStm *s = c->stms[i];
        if (s->kind != IMP_COPY) continue;
        assert_int_equal(s->t, PT_F64);
        assert_int_equal(s->dst_lmad->rank, s->src_lmad->rank);
        int64_t stride;
        broadcast += s->src_lmad->rank == 2 && sym_is_const(s->src_lmad->dims[0].stride, &stride) && stride == 0;
    }
    assert_int_equal(broadcast, 1);
    assert_int_equal(count(c, IMP_RESULT), 3);
    unit_free(p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builder_and_printer), cmocka_unit_test(test_expressions),
        cmocka_unit_test(test_check_rejects),       cmocka_unit_test(test_lower_screma),
        cmocka_unit_test(test_lower_loop),          cmocka_unit_test(test_lower_scatter),
        cmocka_unit_test(test_lower_hist),          cmocka_unit_test(test_lower_call),
        cmocka_unit_test(test_lower_copies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
