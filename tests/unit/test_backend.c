/* End-to-end tests of the IR constructors, the memory pass and the
 * sequential C backend: small IR programs are built by hand, checked with
 * ir_verify before and after pass_memory, lowered to Imp and printed as C,
 * compiled with cc, run on input from stdin, and their exact output is
 * compared. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "from_source.h"

#include "backend/backend.h"
#include "check/check.h"
#include "ir/ir.h"
#include "lower/internalise.h"
#include "passes/passes.h"
#include "syntax/ast.h"
#include "util/embedded.h"

/* ---- Building IR -------------------------------------------------------- */

static Prog *tb_prog(void) {
    Arena *a = calloc(1, sizeof(Arena));
    Prog *p = NEW(a, Prog);
    p->arena = a;
    p->next_var_id = 1;
    p->stage = STAGE_SOACS;
    return p;
}

static void tb_free(Prog *p) {
    Arena *a = p->arena;
    arena_free(a);
    free(a);
}

static SrcLoc tb_loc(int line, int col) {
    SrcLoc l = {"t.fut", line, col, line, col + 1};
    return l;
}

typedef VEC(Stm *) TbStms;

static IrExp *tb_exp(Prog *p, IrExpKind k) {
    IrExp *e = NEW(p->arena, IrExp);
    e->kind = k;
    return e;
}

static Var **tb_vars(Prog *p, int n, ...) {
    Var **vs = NEW_ARRAY(p->arena, Var *, n + 1);
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) vs[i] = va_arg(ap, Var *);
    va_end(ap);
    return vs;
}

static SubExp *tb_ses(Prog *p, int n, ...) {
    SubExp *ss = NEW_ARRAY(p->arena, SubExp, n + 1);
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) ss[i] = va_arg(ap, SubExp);
    va_end(ap);
    return ss;
}

/* Appends "let pat = e" (npat pattern Vars) to stms. */
static void tb_let(Prog *p, TbStms *stms, Var **pat, int npat, IrExp *e) {
    Stm *s = NEW(p->arena, Stm);
    s->pat = pat;
    s->npat = npat;
    s->e = e;
    s->loc = tb_loc(stms->len + 1, 5);
    vec_push(stms, s);
}

static Var *tb_let1(Prog *p, TbStms *stms, const char *name, Type t, IrExp *e) {
    Var *v = ir_var(p, name, t);
    tb_let(p, stms, tb_vars(p, 1, v), 1, e);
    return v;
}

static Body *tb_body(Prog *p, TbStms *stms, SubExp *res, int nres) {
    Body *b = NEW(p->arena, Body);
    b->stms = vec_to_arena(p->arena, stms);
    b->nstms = stms->len;
    vec_free(stms);
    b->res = res;
    b->nres = nres;
    return b;
}

static IrExp *tb_op(Prog *p, Op op, PrimType t, SubExp x, SubExp y) {
    IrExp *e = tb_exp(p, IE_OP);
    e->op = op;
    e->t = t;
    e->nargs = op_arity(op);
    e->args = tb_ses(p, 2, x, y);
    return e;
}

static Var *tb_binop(Prog *p, TbStms *s, Op op, PrimType t, SubExp x, SubExp y) {
    return tb_let1(p, s, "t", type_prim(op_result(op, t)), tb_op(p, op, t, x, y));
}

static SubExp tb_i32(int32_t v) { return se_const(prim_int(PT_I32, v)); }

static Lambda *tb_lambda(Prog *p, Var **params, int nparams, Type *ret, int nret, Body *b) {
    Lambda *l = NEW(p->arena, Lambda);
    l->params = params;
    l->nparams = nparams;
    l->ret = ret;
    l->nret = nret;
    l->body = b;
    return l;
}

static Type *tb_types(Prog *p, int n, Type t) {
    Type *ts = NEW_ARRAY(p->arena, Type, n + 1);
    for (int i = 0; i < n; i++) ts[i] = t;
    return ts;
}

/* A binary operator lambda \x y -> x op y on type t. */
static Lambda *tb_binlam(Prog *p, Op op, PrimType t) {
    Var *x = ir_var(p, "x", type_prim(t)), *y = ir_var(p, "y", type_prim(t));
    TbStms s = {0};
    Var *r = tb_binop(p, &s, op, t, se_var(x), se_var(y));
    return tb_lambda(p, tb_vars(p, 2, x, y), 2, tb_types(p, 1, type_prim(t)), 1,
                     tb_body(p, &s, tb_ses(p, 1, se_var(r)), 1));
}

static Type tb_arr(Prog *p, PrimType t, SubExp n) { return type_array(p->arena, t, 1, &n); }

static void tb_entry(Prog *p, const char *name, Var **params, int nparams, Body *b, Type *ret, int nret) {
    Fun *f = NEW(p->arena, Fun);
    f->name = name;
    f->params = params;
    f->nparams = nparams;
    f->param_ext = NEW_ARRAY(p->arena, ExtType, nparams + 1);
    for (int i = 0; i < nparams; i++) {
        f->param_ext[i].elem = params[i]->type.elem;
        f->param_ext[i].rank = params[i]->type.kind == TK_ARRAY ? params[i]->type.rank : 0;
        f->param_ext[i].unique = params[i]->type.unique;
    }
    f->ret = ret;
    f->nret = nret;
    f->ret_ext = NEW_ARRAY(p->arena, ExtType, nret + 1);
    for (int i = 0; i < nret; i++) {
        f->ret_ext[i].elem = ret[i].elem;
        f->ret_ext[i].rank = ret[i].kind == TK_ARRAY ? ret[i].rank : 0;
    }
    f->body = b;
    Fun **fs = NEW_ARRAY(p->arena, Fun *, p->nfuns + 1);
    if (p->nfuns) memcpy(fs, p->funs, sizeof(Fun *) * (size_t)p->nfuns);
    fs[p->nfuns++] = f;
    p->funs = fs;
}

/* A plain map over one array: map (\x -> f x) arr with f built by mk. */
static IrExp *tb_map(Prog *p, SubExp w, Var *arr, Lambda *lam) {
    IrExp *e = tb_exp(p, IE_SCREMA);
    e->screma.w = w;
    e->screma.arrs = tb_vars(p, 1, arr);
    e->screma.narrs = 1;
    e->screma.map = lam;
    return e;
}

static Lambda *tb_identity(Prog *p, PrimType t) {
    Var *x = ir_var(p, "x", type_prim(t));
    TbStms s = {0};
    return tb_lambda(p, tb_vars(p, 1, x), 1, tb_types(p, 1, type_prim(t)), 1,
                     tb_body(p, &s, tb_ses(p, 1, se_var(x)), 1));
}

static SegOp tb_segop(Prog *p, Op op, PrimType t, SubExp ne) {
    SegOp o = {0};
    o.op = tb_binlam(p, op, t);
    o.neutral = tb_ses(p, 1, ne);
    o.k = 1;
    o.commutative = true;
    return o;
}

/* ---- Inspecting IR -------------------------------------------------------- */

static int count_kind_body(const Body *b, IrExpKind k);

static int count_kind_exp(const IrExp *e, IrExpKind k) {
    int n = e->kind == k;
    if (e->tbody) n += count_kind_body(e->tbody, k);
    if (e->fbody) n += count_kind_body(e->fbody, k);
    if (e->kind == IE_LOOP) n += count_kind_body(e->loop.body, k);
    if (e->kind == IE_SCREMA) n += count_kind_body(e->screma.map->body, k);
    return n;
}

static int count_kind_body(const Body *b, IrExpKind k) {
    int n = 0;
    for (int i = 0; i < b->nstms; i++) n += count_kind_exp(b->stms[i]->e, k);
    return n;
}


/* ---- Compiling and running -------------------------------------------------- */

typedef struct RunResult {
    int status;
    char out[4096];
    char err[4096];
} RunResult;

static void read_into(const char *path, char *buf, size_t n) {
    buf[0] = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return;
    size_t len = fread(buf, 1, n - 1, f);
    buf[len] = 0;
    fclose(f);
}

/* Runs the memory pass and the checker, emits C, compiles it and runs it
 * with input on stdin. Fails the test if the C does not compile. */
static RunResult run_prog(Prog *p, const char *input, const char *args) {
    ir_verify(p, "test construction");
    pass_memory(p);
    ir_verify(p, "memory");
    Buf c = {0};
    emit_c_program(&c, imp_lower(p, false), false, false);
    char dir[] = "/tmp/futhorc_test_backend_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], cmd[1024];
    snprintf(path, sizeof path, "%s/prog.c", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fwrite(c.data, 1, c.len, f);
    fclose(f);
    buf_free(&c);
    /* FUTHORC_TEST_CFLAGS adds flags, e.g. -fsanitize=address,undefined. */
    const char *extra = getenv("FUTHORC_TEST_CFLAGS");
    snprintf(cmd, sizeof cmd,
             "cc -O1 -std=c11 -Wall -Wno-unused-variable -Wno-unused-function %s -o %s/prog %s/prog.c -lm 2> %s/cc.err",
             extra ? extra : "", dir, dir, dir);
    int rc = system(cmd);
    RunResult r = {0};
    if (rc != 0) {
        read_into(arena_printf(p->arena, "%s/cc.err", dir), r.err, sizeof r.err);
        fprintf(stderr, "generated C did not compile (kept in %s):\n%s\n", dir, r.err);
        fail();
    }
    snprintf(path, sizeof path, "%s/in.txt", dir);
    f = fopen(path, "w");
    fputs(input, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s/prog %s < %s/in.txt > %s/out.txt 2> %s/err.txt", dir, args ? args : "", dir, dir, dir);
    int st = system(cmd);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
    read_into(arena_printf(p->arena, "%s/out.txt", dir), r.out, sizeof r.out);
    read_into(arena_printf(p->arena, "%s/err.txt", dir), r.err, sizeof r.err);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return r;
}

static void expect_output(Prog *p, const char *input, const char *expected) {
    RunResult r = run_prog(p, input, NULL);
    if (r.status != 0) fprintf(stderr, "stderr: %s\n", r.err);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, expected);
}

/* ---- Programs from source ------------------------------------------------- */


/* Counts statements of kind k in b that run once per iteration of a loop or
 * per element of a SOAC (depth > 0 inside loop bodies and lambdas). */
static int count_repeated(const Body *b, IrExpKind k, int depth);

static int count_repeated_lambda(const Lambda *l, IrExpKind k, int depth) {
    return l ? count_repeated(l->body, k, depth + 1) : 0;
}

static int count_repeated_exp(const IrExp *e, IrExpKind k, int depth) {
    int n = e->kind == k && depth > 0;
    if (e->tbody) n += count_repeated(e->tbody, k, depth);
    if (e->fbody) n += count_repeated(e->fbody, k, depth);
    if (e->kind == IE_LOOP) n += count_repeated(e->loop.body, k, depth + 1);
    if (e->kind == IE_SCREMA) {
        n += count_repeated_lambda(e->screma.map, k, depth);
        for (int i = 0; i < e->screma.nscans; i++) n += count_repeated_lambda(e->screma.scans[i].op, k, depth);
        for (int i = 0; i < e->screma.nreds; i++) n += count_repeated_lambda(e->screma.reds[i].op, k, depth);
    }
    if (e->kind == IE_SCATTER) n += count_repeated_lambda(e->scatter.lam, k, depth);
    if (e->kind == IE_HIST) {
        n += count_repeated_lambda(e->hist.lam, k, depth);
        n += count_repeated_lambda(e->hist.op.op, k, depth);
    }
    return n;
}

static int count_repeated(const Body *b, IrExpKind k, int depth) {
    int n = 0;
    for (int i = 0; i < b->nstms; i++) n += count_repeated_exp(b->stms[i]->e, k, depth);
    return n;
}

/* Compiles src, checks the number of allocations and copies made per
 * iteration or element and of copies overall, and runs it on input. */
static void expect_source(const char *src, int repeated_allocs, int copies, const char *input, const char *expected) {
    Prog *p = unit_from_source(src);
    RunResult r = run_prog(p, input, NULL);
    if (r.status != 0) fprintf(stderr, "stderr: %s\n", r.err);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, expected);
    const Body *b = p->funs[0]->body;
    assert_int_equal(count_repeated(b, IE_ALLOC, 0), repeated_allocs);
    assert_int_equal(count_repeated(b, IE_COPY, 1), copies); /* depth 1: all of them */
    tb_free(p);
}

/* ---- Programs ----------------------------------------------------------------- */

/* entry main (xs: [n]i32) = map (+1) xs */
static Prog *prog_map_inc(void) {
    Prog *p = tb_prog();
    Var *n = ir_var(p, "n", type_prim(PT_I64));
    Var *xs = ir_var(p, "xs", tb_arr(p, PT_I32, se_var(n)));
    Var *x = ir_var(p, "x", type_prim(PT_I32));
    TbStms ls = {0};
    Var *y = tb_binop(p, &ls, OP_ADD, PT_I32, se_var(x), tb_i32(1));
    Lambda *lam = tb_lambda(p, tb_vars(p, 1, x), 1, tb_types(p, 1, type_prim(PT_I32)), 1,
                            tb_body(p, &ls, tb_ses(p, 1, se_var(y)), 1));
    TbStms s = {0};
    Var *ys = tb_let1(p, &s, "ys", tb_arr(p, PT_I32, se_var(n)), tb_map(p, se_var(n), xs, lam));
    tb_entry(p, "main", tb_vars(p, 1, xs), 1, tb_body(p, &s, tb_ses(p, 1, se_var(ys)), 1),
             tb_types(p, 1, ys->type), 1);
    return p;
}

static void test_map_inc(void **state) {
    (void)state;
    Prog *p = prog_map_inc();
    expect_output(p, "[1, 2, 3, -5]", "[2i32, 3i32, 4i32, -4i32]\n");
    tb_free(p);
    p = prog_map_inc();
    expect_output(p, "empty([0]i32)", "empty([0]i32)\n");
    tb_free(p);
}

static void test_print_and_mem_annotations(void **state) {
    (void)state;
    Prog *p = prog_map_inc();
    Buf b = {0};
    ir_print(&b, p);
    assert_string_equal(b.data, "-- stage soacs\n"
                                "entry main (xs_2 : [n_1]i32) : ([n_1]i32) = {\n"
                                "  let ys_5 : [n_1]i32 = screma(n_1, {xs_2},\n"
                                "    map \\(x_3 : i32) : (i32) -> {\n"
                                "      let t_4 : i32 = add.i32(x_3, 1i32)\n"
                                "      in (t_4)\n"
                                "    })\n"
                                "  in (ys_5)\n"
                                "}\n");
    buf_free(&b);
    pass_memory(p);
    ir_verify(p, "memory");
    ir_print(&b, p);
    assert_non_null(strstr(b.data, "-- stage mem"));
    assert_non_null(strstr(b.data, "= alloc("));
    assert_non_null(strstr(b.data, "@mem_ys"));
    if (getenv("FUTHORC_TEST_SHOW")) {
        fputs(b.data, stderr);
        Buf c = {0};
        emit_c_program(&c, imp_lower(p, false), false, false);
        const char *prog = strstr(c.data, "/* ---- the program ---- */");
        fputs(prog ? prog : c.data, stderr);
        buf_free(&c);
    }
    buf_free(&b);
    Body *body = p->funs[0]->body;
    assert_int_equal(count_kind_body(body, IE_ALLOC), 1);
    tb_free(p);
}

/* entry main (xs: [n]f64) : (f64, [n]i64) = (reduce (+) 0 xs, scan (+) 0 (map i64 xs)) */
static void test_reduce_and_scan(void **state) {
    (void)state;
    Prog *p = tb_prog();
    Var *n = ir_var(p, "n", type_prim(PT_I64));
    Var *xs = ir_var(p, "xs", tb_arr(p, PT_F64, se_var(n)));
    TbStms s = {0};
    IrExp *red = tb_map(p, se_var(n), xs, tb_identity(p, PT_F64));
    red->screma.reds = NEW(p->arena, SegOp);
    red->screma.reds[0] = tb_segop(p, OP_ADD, PT_F64, se_const(prim_float(PT_F64, 0.5)));
    red->screma.nreds = 1;
    Var *sum = tb_let1(p, &s, "sum", type_prim(PT_F64), red);
    /* scan (+) 0 (map (\x -> i64.f64 x) xs) as one screma */
    Var *x = ir_var(p, "x", type_prim(PT_F64));
    TbStms ls = {0};
    IrExp *cv = tb_exp(p, IE_CONV);
    cv->t = PT_F64;
    cv->to = PT_I64;
    cv->nargs = 1;
    cv->args = tb_ses(p, 1, se_var(x));
    Var *xi = tb_let1(p, &ls, "xi", type_prim(PT_I64), cv);
    Lambda *lam = tb_lambda(p, tb_vars(p, 1, x), 1, tb_types(p, 1, type_prim(PT_I64)), 1,
                            tb_body(p, &ls, tb_ses(p, 1, se_var(xi)), 1));
    IrExp *sc = tb_map(p, se_var(n), xs, lam);
    sc->screma.scans = NEW(p->arena, SegOp);
    sc->screma.scans[0] = tb_segop(p, OP_ADD, PT_I64, se_i64(0));
    sc->screma.nscans = 1;
    Var *pre = tb_let1(p, &s, "pre", tb_arr(p, PT_I64, se_var(n)), sc);
    Type *ret = NEW_ARRAY(p->arena, Type, 2);
    ret[0] = sum->type;
    ret[1] = pre->type;
    tb_entry(p, "main", tb_vars(p, 1, xs), 1, tb_body(p, &s, tb_ses(p, 2, se_var(sum), se_var(pre)), 2), ret, 2);
    expect_output(p, "[1.0, 2.5, -3.75, 10.0]", "10.25f64\n[1i64, 3i64, 0i64, 10i64]\n");
    tb_free(p);
}

/* entry main (xss: [n][m]i32) : ([m][n]i32, i32) =
 *   let t = transpose xss; let r = t[m-1 :+ m * -1]; let row = r[0][1:] in
 *   (r, reduce (+) 0 row)   -- no allocation besides nothing: all views */
static Prog *prog_views(Var **out_xss, Var **out_r, Var **out_row) {
    Prog *p = tb_prog();
    Var *n = ir_var(p, "n", type_prim(PT_I64)), *m = ir_var(p, "m", type_prim(PT_I64));
    SubExp sh[2] = {se_var(n), se_var(m)};
    Var *xss = ir_var(p, "xss", type_array(p->arena, PT_I32, 2, sh));
    TbStms s = {0};
    SubExp tsh[2] = {se_var(m), se_var(n)};
    IrExp *tr = tb_exp(p, IE_REARRANGE);
    tr->arr = xss;
    tr->perm = NEW_ARRAY(p->arena, int, 2);
    tr->perm[0] = 1;
    tr->perm[1] = 0;
    Var *t = tb_let1(p, &s, "t", type_array(p->arena, PT_I32, 2, tsh), tr);
    Var *m1 = tb_binop(p, &s, OP_SUB, PT_I64, se_var(m), se_i64(1));
    IrExp *rev = tb_exp(p, IE_INDEX);
    rev->arr = t;
    rev->nslice = 1;
    rev->slice = NEW(p->arena, DimSlice);
    rev->slice[0] = (DimSlice){true, {0}, se_var(m1), se_var(m), se_i64(-1)};
    Var *r = tb_let1(p, &s, "r", type_array(p->arena, PT_I32, 2, tsh), rev);
    Var *n1 = tb_binop(p, &s, OP_SUB, PT_I64, se_var(n), se_i64(1));
    IrExp *row = tb_exp(p, IE_INDEX);
    row->arr = r;
    row->nslice = 2;
    row->slice = NEW_ARRAY(p->arena, DimSlice, 2);
    row->slice[0] = (DimSlice){false, se_i64(0), {0}, {0}, {0}};
    row->slice[1] = (DimSlice){true, {0}, se_i64(1), se_var(n1), se_i64(1)};
    Var *rw = tb_let1(p, &s, "row", tb_arr(p, PT_I32, se_var(n1)), row);
    IrExp *red = tb_map(p, se_var(n1), rw, tb_identity(p, PT_I32));
    red->screma.reds = NEW(p->arena, SegOp);
    red->screma.reds[0] = tb_segop(p, OP_ADD, PT_I32, tb_i32(0));
    red->screma.nreds = 1;
    Var *sum = tb_let1(p, &s, "sum", type_prim(PT_I32), red);
    Type *ret = NEW_ARRAY(p->arena, Type, 2);
    ret[0] = r->type;
    ret[1] = sum->type;
    tb_entry(p, "main", tb_vars(p, 1, xss), 1, tb_body(p, &s, tb_ses(p, 2, se_var(r), se_var(sum)), 2), ret, 2);
    *out_xss = xss;
    *out_r = r;
    *out_row = rw;
    return p;
}

static void test_views_share_memory(void **state) {
    (void)state;
    Var *xss, *r, *row;
    Prog *p = prog_views(&xss, &r, &row);
    pass_memory(p);
    ir_verify(p, "memory");
    assert_non_null(xss->mem);
    assert_ptr_equal(r->mem->mem, xss->mem->mem);
    assert_ptr_equal(row->mem->mem, xss->mem->mem);
    assert_int_equal(count_kind_body(p->funs[0]->body, IE_ALLOC), 0);
    assert_int_equal(count_kind_body(p->funs[0]->body, IE_COPY), 0);
    tb_free(p);
    p = prog_views(&xss, &r, &row);
    /* xss = [[1,2,3],[4,5,6]]: t = [[1,4],[2,5],[3,6]], r = [[3,6],[2,5],[1,4]], row = [6] */
    expect_output(p, "[[1,2,3],[4,5,6]]", "[[3i32, 6i32], [2i32, 5i32], [1i32, 4i32]]\n6i32\n");
    tb_free(p);
}

/* entry main (n: i64) = loop (a = replicate n 0) for i < n do a with [i] = i32(i) * 3 */
static void test_loop_in_place(void **state) {
    (void)state;
    Prog *p = tb_prog();
    Var *n = ir_var(p, "n", type_prim(PT_I64));
    TbStms s = {0};
    IrExp *rep = tb_exp(p, IE_REPLICATE);
    rep->shape = tb_ses(p, 1, se_var(n));
    rep->nshape = 1;
    rep->se = tb_i32(0);
    Type at = tb_arr(p, PT_I32, se_var(n));
    at.unique = true;
    Var *a0 = tb_let1(p, &s, "a0", at, rep);
    Var *a = ir_var(p, "a", at), *i = ir_var(p, "i", type_prim(PT_I64));
    TbStms bs = {0};
    IrExp *cv = tb_exp(p, IE_CONV);
    cv->t = PT_I64;
    cv->to = PT_I32;
    cv->nargs = 1;
    cv->args = tb_ses(p, 1, se_var(i));
    Var *ii = tb_let1(p, &bs, "ii", type_prim(PT_I32), cv);
    Var *v = tb_binop(p, &bs, OP_MUL, PT_I32, se_var(ii), tb_i32(3));
    IrExp *up = tb_exp(p, IE_UPDATE);
    up->arr = a;
    up->nslice = 1;
    up->slice = NEW(p->arena, DimSlice);
    up->slice[0].index = se_var(i);
    up->se = se_var(v);
    Var *a2 = tb_let1(p, &bs, "a2", at, up);
    IrExp *lp = tb_exp(p, IE_LOOP);
    lp->loop.params = tb_vars(p, 1, a);
    lp->loop.inits = tb_ses(p, 1, se_var(a0));
    lp->loop.nparams = 1;
    lp->loop.kind = IR_LOOP_FOR;
    lp->loop.i = i;
    lp->loop.bound = se_var(n);
    lp->loop.body = tb_body(p, &bs, tb_ses(p, 1, se_var(a2)), 1);
    Var *res = tb_let1(p, &s, "res", at, lp);
    tb_entry(p, "main", tb_vars(p, 1, n), 1, tb_body(p, &s, tb_ses(p, 1, se_var(res)), 1), tb_types(p, 1, at), 1);
    expect_output(p, "5", "[0i32, 3i32, 6i32, 9i32, 12i32]\n");
    /* After the pass (run by expect_output): the loop body neither allocates nor copies. */
    Body *lb = lp->loop.body;
    assert_int_equal(count_kind_body(lb, IE_ALLOC), 0);
    assert_int_equal(count_kind_body(lb, IE_COPY), 0);
    assert_int_equal(lp->loop.nparams, 2); /* the existential memory parameter */
    assert_ptr_equal(a2->mem->mem, a->mem->mem);
    tb_free(p);
}

/* entry main (is: [k]i64, vs: [k]f32) = scatter (replicate 4 0) is vs */
static void test_scatter(void **state) {
    (void)state;
    Prog *p = tb_prog();
    Var *k = ir_var(p, "k", type_prim(PT_I64));
    Var *is = ir_var(p, "is", tb_arr(p, PT_I64, se_var(k)));
    Var *vs = ir_var(p, "vs", tb_arr(p, PT_F32, se_var(k)));
    TbStms s = {0};
    IrExp *rep = tb_exp(p, IE_REPLICATE);
    rep->shape = tb_ses(p, 1, se_i64(4));
    rep->nshape = 1;
    rep->se = se_const(prim_float(PT_F32, 0.5));
    Var *d = tb_let1(p, &s, "d", tb_arr(p, PT_F32, se_i64(4)), rep);
    Var *ix = ir_var(p, "ix", type_prim(PT_I64)), *vx = ir_var(p, "vx", type_prim(PT_F32));
    TbStms ls = {0};
    Type *lr = NEW_ARRAY(p->arena, Type, 2);
    lr[0] = type_prim(PT_I64);
    lr[1] = type_prim(PT_F32);
    IrExp *e = tb_exp(p, IE_SCATTER);
    e->scatter.w = se_var(k);
    e->scatter.arrs = tb_vars(p, 2, is, vs);
    e->scatter.narrs = 2;
    e->scatter.lam = tb_lambda(p, tb_vars(p, 2, ix, vx), 2, lr, 2, tb_body(p, &ls, tb_ses(p, 2, se_var(ix), se_var(vx)), 2));
    e->scatter.dests = tb_vars(p, 1, d);
    e->scatter.ndests = 1;
    Var *r = tb_let1(p, &s, "r", d->type, e);
    tb_entry(p, "main", tb_vars(p, 2, is, vs), 2, tb_body(p, &s, tb_ses(p, 1, se_var(r)), 1), tb_types(p, 1, r->type), 1);
    expect_output(p, "[2, -1, 0, 9, 3] [1.5, 7.0, 2.25, 8.0, -1.75]", "[2.25f32, 0.5f32, 1.5f32, -1.75f32]\n");
    tb_free(p);
}

/* entry main (xs: [k]i32) = hist (+) 0 3 (map (\x -> (i64 (x % 3) ... )) xs):
 * counts of the buckets x (values outside 0..2 ignored), summing x+10. */
static void test_hist(void **state) {
    (void)state;
    Prog *p = tb_prog();
    Var *k = ir_var(p, "k", type_prim(PT_I64));
    Var *xs = ir_var(p, "xs", tb_arr(p, PT_I64, se_var(k)));
    TbStms s = {0};
    IrExp *rep = tb_exp(p, IE_REPLICATE);
    rep->shape = tb_ses(p, 1, se_i64(3));
    rep->nshape = 1;
    rep->se = se_i64(0);
    Var *d = tb_let1(p, &s, "d", tb_arr(p, PT_I64, se_i64(3)), rep);
    Var *x = ir_var(p, "x", type_prim(PT_I64));
    TbStms ls = {0};
    Var *v = tb_binop(p, &ls, OP_ADD, PT_I64, se_var(x), se_i64(10));
    IrExp *e = tb_exp(p, IE_HIST);
    e->hist.w = se_var(k);
    e->hist.arrs = tb_vars(p, 1, xs);
    e->hist.narrs = 1;
    e->hist.lam = tb_lambda(p, tb_vars(p, 1, x), 1, tb_types(p, 2, type_prim(PT_I64)), 2,
                            tb_body(p, &ls, tb_ses(p, 2, se_var(x), se_var(v)), 2));
    e->hist.dest_w = se_i64(3);
    e->hist.dests = tb_vars(p, 1, d);
    e->hist.op = tb_segop(p, OP_ADD, PT_I64, se_i64(0));
    Var *r = tb_let1(p, &s, "r", d->type, e);
    tb_entry(p, "main", tb_vars(p, 1, xs), 1, tb_body(p, &s, tb_ses(p, 1, se_var(r)), 1), tb_types(p, 1, r->type), 1);
    expect_output(p, "[0, 2, 2, 5, -1, 1, 2]", "[10i64, 11i64, 36i64]\n");
    tb_free(p);
}

/* entry main (xs: [n]i32) (i: i64) = assert (0 <= i && i < n) "..."; xs[i] */
static Prog *prog_assert(void) {
    Prog *p = tb_prog();
    Var *n = ir_var(p, "n", type_prim(PT_I64));
    Var *xs = ir_var(p, "xs", tb_arr(p, PT_I32, se_var(n)));
    Var *i = ir_var(p, "i", type_prim(PT_I64));
    TbStms s = {0};
    Var *c1 = tb_binop(p, &s, OP_LE, PT_I64, se_i64(0), se_var(i));
    Var *c2 = tb_binop(p, &s, OP_LT, PT_I64, se_var(i), se_var(n));
    Var *c = tb_binop(p, &s, OP_LAND, PT_BOOL, se_var(c1), se_var(c2));
    IrExp *as = tb_exp(p, IE_ASSERT);
    as->cond = se_var(c);
    as->msg = "Index [{}] out of bounds for array of shape [{}].";
    as->args = tb_ses(p, 2, se_var(i), se_var(n));
    as->nargs = 2;
    tb_let(p, &s, NULL, 0, as);
    IrExp *ix = tb_exp(p, IE_INDEX);
    ix->arr = xs;
    ix->nslice = 1;
    ix->slice = NEW(p->arena, DimSlice);
    ix->slice[0].index = se_var(i);
    Var *r = tb_let1(p, &s, "r", type_prim(PT_I32), ix);
    tb_entry(p, "main", tb_vars(p, 2, xs, i), 2, tb_body(p, &s, tb_ses(p, 1, se_var(r)), 1), tb_types(p, 1, r->type), 1);
    return p;
}

static void test_assert(void **state) {
    (void)state;
    Prog *p = prog_assert();
    expect_output(p, "[7, 8, 9] 2", "9i32\n");
    tb_free(p);
    p = prog_assert();
    RunResult r = run_prog(p, "[7, 8, 9] 7", NULL);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "t.fut:4:5: Index [7] out of bounds for array of shape [3]."));
    tb_free(p);
}

/* entry main (xs: [n]i32) (ys: [n]i32) = map2 (-) xs ys: sizes must agree. */
static void test_size_mismatch(void **state) {
    (void)state;
    Prog *p = tb_prog();
    Var *n = ir_var(p, "n", type_prim(PT_I64));
    Var *xs = ir_var(p, "xs", tb_arr(p, PT_I32, se_var(n)));
    Var *ys = ir_var(p, "ys", tb_arr(p, PT_I32, se_var(n)));
    Var *x = ir_var(p, "x", type_prim(PT_I32)), *y = ir_var(p, "y", type_prim(PT_I32));
    TbStms ls = {0};
    Var *d = tb_binop(p, &ls, OP_SUB, PT_I32, se_var(x), se_var(y));
    Lambda *lam = tb_lambda(p, tb_vars(p, 2, x, y), 2, tb_types(p, 1, type_prim(PT_I32)), 1,
                            tb_body(p, &ls, tb_ses(p, 1, se_var(d)), 1));
    TbStms s = {0};
    IrExp *m = tb_map(p, se_var(n), xs, lam);
    m->screma.arrs = tb_vars(p, 2, xs, ys);
    m->screma.narrs = 2;
    Var *r = tb_let1(p, &s, "r", xs->type, m);
    tb_entry(p, "main", tb_vars(p, 2, xs, ys), 2, tb_body(p, &s, tb_ses(p, 1, se_var(r)), 1), tb_types(p, 1, r->type), 1);
    RunResult rr = run_prog(p, "[1, 2] [3, 4, 5]", NULL);
    assert_int_equal(rr.status, 1);
    assert_non_null(strstr(rr.err, "invalid sizes: argument 2 of main has size 3 in dimension 1, but 2 was expected"));
    tb_free(p);
}

/* Integer division semantics: (x / y, x % y, x // y, x %% y, x >> 40, clz x). */
static void test_scalar_semantics(void **state) {
    (void)state;
    Prog *p = tb_prog();
    Var *x = ir_var(p, "x", type_prim(PT_I32)), *y = ir_var(p, "y", type_prim(PT_I32));
    TbStms s = {0};
    Op ops[] = {OP_DIV, OP_MOD, OP_QUOT, OP_REM, OP_SHL, OP_POW};
    int nops = (int)(sizeof ops / sizeof ops[0]);
    SubExp *res = NEW_ARRAY(p->arena, SubExp, nops + 1);
    for (int i = 0; i < nops; i++) res[i] = se_var(tb_binop(p, &s, ops[i], PT_I32, se_var(x), se_var(y)));
    IrExp *cz = tb_exp(p, IE_OP);
    cz->op = OP_CLZ;
    cz->t = PT_I32;
    cz->nargs = 1;
    cz->args = tb_ses(p, 1, se_var(x));
    res[nops] = se_var(tb_let1(p, &s, "z", type_prim(PT_I32), cz));
    tb_entry(p, "main", tb_vars(p, 2, x, y), 2, tb_body(p, &s, res, nops + 1), tb_types(p, nops + 1, type_prim(PT_I32)),
             nops + 1);
    expect_output(p, "-7 2", "-4i32\n1i32\n-3i32\n-1i32\n-28i32\n49i32\n0i32\n");
    tb_free(p);
    (void)0;
}

/* if c then xs[1:] (a slice: copied to row-major) else iota n: existential memory. */
static void test_if_existential(void **state) {
    (void)state;
    Prog *p = tb_prog();
    Var *n = ir_var(p, "n", type_prim(PT_I64));
    Var *xs = ir_var(p, "xs", tb_arr(p, PT_I64, se_var(n)));
    Var *c = ir_var(p, "c", type_prim(PT_BOOL));
    TbStms s = {0};
    Var *n1 = tb_binop(p, &s, OP_SUB, PT_I64, se_var(n), se_i64(1));
    Type rt = tb_arr(p, PT_I64, se_var(n1));
    TbStms ts = {0};
    IrExp *sl = tb_exp(p, IE_INDEX);
    sl->arr = xs;
    sl->nslice = 1;
    sl->slice = NEW(p->arena, DimSlice);
    sl->slice[0] = (DimSlice){true, {0}, se_i64(1), se_var(n1), se_i64(1)};
    Var *tail = tb_let1(p, &ts, "tail", rt, sl);
    TbStms fs = {0};
    IrExp *io = tb_exp(p, IE_IOTA);
    io->t = PT_I64;
    io->n = se_var(n1);
    io->start = se_i64(100);
    io->step = se_i64(-2);
    Var *it = tb_let1(p, &fs, "it", rt, io);
    IrExp *ife = tb_exp(p, IE_IF);
    ife->cond = se_var(c);
    ife->tbody = tb_body(p, &ts, tb_ses(p, 1, se_var(tail)), 1);
    ife->fbody = tb_body(p, &fs, tb_ses(p, 1, se_var(it)), 1);
    ife->ret = tb_types(p, 1, rt);
    ife->nret = 1;
    Var *r = tb_let1(p, &s, "r", rt, ife);
    tb_entry(p, "main", tb_vars(p, 2, xs, c), 2, tb_body(p, &s, tb_ses(p, 1, se_var(r)), 1), tb_types(p, 1, rt), 1);
    RunResult rr = run_prog(p, "[5, 6, 7] true", NULL);
    assert_int_equal(rr.status, 0);
    assert_string_equal(rr.out, "[6i64, 7i64]\n");
    /* The then branch is a slice at offset 1: block, offset and stride are
     * existential, and neither branch copies. */
    assert_int_equal(ife->nret, 4);
    assert_int_equal(r->mem->mem->type.kind, TK_MEM);
    assert_int_equal(count_kind_body(ife->tbody, IE_COPY) + count_kind_body(ife->fbody, IE_COPY), 0);
    tb_free(p);
}


/* Array operators: the accumulators are allocated once, outside the loop;
 * map2 (+) updates its accumulator in place. */
static void test_reduce_rows(void **state) {
    (void)state;
    expect_source("def main [n][m] (rows: [n][m]i32) : [m]i32 = reduce (map2 (+)) (replicate m 0) rows", 0, 0,
                  "[[1, 2, 3], [4, 5, 6], [10, 20, 30]]", "[15i32, 27i32, 39i32]\n");
    /* A non-element-wise operator gets a scratch block, also allocated once
     * (the operator is not associative: this checks sequential order). */
    expect_source("def main [n] (xs: [n][2]i32) : [2]i32 = reduce (\\a b -> [a[0] + b[1], a[1] + b[0]]) [0, 0] xs",
                  0, 0, "[[1, 2], [3, 4], [5, 6]]", "[12i32, 9i32]\n");
}

static void test_scan_hist_rows(void **state) {
    (void)state;
    expect_source("def main [n][m] (rows: [n][m]i32) : [n][m]i32 = scan (map2 (+)) (replicate m 0) rows", 0, 0,
                  "[[1, 2], [3, 4], [5, 6]]", "[[1i32, 2i32], [4i32, 6i32], [9i32, 12i32]]\n");
    expect_source("def main [n][m] (is: [n]i64) (vs: [n][m]i32) : [2][m]i32 =\n"
                  "  reduce_by_index (replicate 2 (replicate m 0)) (map2 (+)) (replicate m 0) is vs",
                  0, 0, "[1i64, 0i64, 1i64, 7i64] [[1, 2], [3, 4], [5, 6], [7, 8]]",
                  "[[3i32, 4i32], [6i32, 8i32]]\n");
}

/* Nested maps build their rows in place; a temporary of loop-invariant
 * size inside a loop or a map is allocated once; only the loop's result
 * (passed to the next iteration) is allocated per iteration. */
static void test_hoisting(void **state) {
    (void)state;
    expect_source("def main [n][m] (xs: [n][m]i32) (k: i64) : [n][m]i32 =\n"
                  "  let ys = map (\\r -> let t = map (*2) r in map2 (+) t (reverse t)) xs\n"
                  "  in loop ys for i < k do\n"
                  "       let tmp = map (\\j -> i32.i64 (j + i)) (iota m)\n"
                  "       in map (\\r -> map2 (+) r tmp) ys",
                  1, 0, "[[1, 2, 3], [4, 5, 6]] 2i64",
                  "[[9i32, 11i32, 13i32], [21i32, 23i32, 25i32]]\n");
}

/* An if between a transposition and a reversed slice: existential offset
 * and strides, no copy. */
static void test_if_layouts(void **state) {
    (void)state;
    const char *src = "def main [n] (c: bool) (a: [n][n]i32) : [n][n]i32 =\n"
                      "  let x = if c then transpose a else a[::-1] :> [n][n]i32 in map (map (+1)) x";
    expect_source(src, 0, 0, "true [[1, 2], [3, 4]]", "[[2i32, 4i32], [3i32, 5i32]]\n");
    expect_source(src, 0, 0, "false [[1, 2], [3, 4]]", "[[4i32, 5i32], [2i32, 3i32]]\n");
}

/* The SOAC iteration index: an i64 Var that array parameters' LMADs use. */
static void test_iter(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main [n][m] (xs: [n][m]i32) : [n]i32 = map (\\r -> r[0]) xs");
    pass_memory(p);
    ir_verify(p, "memory");
    const Stm *s = p->funs[0]->body->stms[p->funs[0]->body->nstms - 1];
    assert_int_equal(s->e->kind, IE_SCREMA);
    const Var *it = s->e->screma.iter, *r = s->e->screma.map->params[0];
    assert_non_null(it);
    assert_int_equal(it->type.kind, TK_PRIM);
    assert_int_equal(it->type.elem, PT_I64);
    Buf b = {0};
    lmad_print(&b, r->mem->ixfun);
    assert_non_null(strstr(b.data, arena_printf(p->arena, "v%d", it->id)));
    buf_free(&b);
    tb_free(p);
}

/* ir_verify aborts (an ICE) when it finds an index function mentioning a
 * Var out of scope or one that is not an i64. */
static bool verify_aborts(Prog *p) {
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stderr)) _exit(2);
        ir_verify(p, "test");
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFSIGNALED(st);
}

static void test_verify_lmad_vars(void **state) {
    (void)state;
    Prog *p = unit_from_source("def main [n][m] (xs: [n][m]i32) (c: bool) : [n][m]i32 = map (map (+1)) xs");
    pass_memory(p);
    Stm *s = p->funs[0]->body->stms[p->funs[0]->body->nstms - 1];
    Var *ys = s->pat[0], *it = s->e->screma.iter, *c = p->funs[0]->params[1];
    assert_false(verify_aborts(p));
    Lmad *good = ys->mem->ixfun;
    Lmad bad = *good;
    bad.offset = sym_var(p->arena, it->id); /* iter is out of scope after the map */
    ys->mem->ixfun = &bad;
    assert_true(verify_aborts(p));
    bad.offset = sym_var(p->arena, c->id); /* a bool */
    assert_true(verify_aborts(p));
    ys->mem->ixfun = good;
    assert_false(verify_aborts(p));
    tb_free(p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduce_rows),
        cmocka_unit_test(test_scan_hist_rows),
        cmocka_unit_test(test_hoisting),
        cmocka_unit_test(test_if_layouts),
        cmocka_unit_test(test_iter),
        cmocka_unit_test(test_verify_lmad_vars),
        cmocka_unit_test(test_print_and_mem_annotations),
        cmocka_unit_test(test_map_inc),
        cmocka_unit_test(test_reduce_and_scan),
        cmocka_unit_test(test_views_share_memory),
        cmocka_unit_test(test_loop_in_place),
        cmocka_unit_test(test_scatter),
        cmocka_unit_test(test_hist),
        cmocka_unit_test(test_assert),
        cmocka_unit_test(test_size_mismatch),
        cmocka_unit_test(test_scalar_semantics),
        cmocka_unit_test(test_if_existential),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
