/* Unit tests of Imp (compiler/imp): the builder and the readable printer
 * on hand-built code, the checker accepting lowered programs and rejecting
 * hand-built bad ones (each with the message it gives), the GPU forms
 * (kernels, launches, device blocks) likewise, and the lowering of small
 * programs run through the pipeline to STAGE_MEM and to STAGE_GPU. */
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

static void sym_not_integer(ImpProg *p, ImpBuilder *b, ImpVar *x) {
    Arena *a = p->arena;
    ImpVar *m = imp_var(p, "m", IMP_MEM, PT_I32), *f = imp_var(p, "f", IMP_SCALAR, PT_F32);
    imp_decl(b, m, NULL);
    imp_decl(b, f, NULL);
    imp_assign(b, x, imp_load(a, m, PT_I32, imp_sym(a, sym_var(a, f->id))));
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
        {sym_not_integer, "a Sym mentions f_3, which is not an i64 or i32 scalar"},
        {result_in_fun, "IMP_RESULT outside an entry point"},
        {block_as_scalar, "m_2 is a block used as a scalar"},
        {declared_twice, "x_1 is declared again in its scope"},
        {out_of_scope, "i_2 is used before its declaration or outside its scope"},
        {return_early, "IMP_RETURN that does not end a function"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        ImpProg *p = fun_with(cases[k].build);
        assert_rejected(p, cases[k].msg);
        free_prog(p);
    }
}

/* ---- GPU forms ------------------------------------------------------------------ */

/* Appends an entry point main (no arguments; nret results) whose body b holds. */
static void add_entry(ImpProg *p, ImpBuilder *b, int nret) {
    Fun *f = NEW(p->arena, Fun);
    f->name = "main";
    f->nret = nret;
    ImpEntry *e = NEW(p->arena, ImpEntry);
    e->src = f;
    e->body = imp_finish(b);
    ImpEntry **es = NEW_ARRAY(p->arena, ImpEntry *, p->nentries + 1);
    COPY_ARRAY(es, p->entries, p->nentries);
    es[p->nentries++] = e;
    p->entries = es;
}

/* A program whose entry launches kernel 0 k(i64 kn, dmem kout) with (n,
 * out), for the cases below to add to: host code after the launch, kernel
 * code, or changes to the launch. */
typedef struct Gpu {
    ImpProg *p;
    Arena *a;
    ImpBuilder host, kbody;
    ImpVar *n, *out;   /* host: an i64 and a device block */
    ImpVar *kn, *kout; /* the kernel's parameters */
    ImpKernel *k;
    ImpStm *launch;
    int nret;
} Gpu;

static ImpProg *gpu_with(void (*build)(Gpu *g)) {
    Gpu g = {0};
    ImpProg *p = g.p = new_prog();
    Arena *a = g.a = p->arena;
    g.host.a = g.kbody.a = a;
    g.n = imp_var(p, "n", IMP_SCALAR, PT_I64);
    g.out = imp_block(p, "out", IMP_SPACE_DEVICE);
    g.k = imp_kernel(p, "k");
    g.kn = imp_var(p, "kn", IMP_SCALAR, PT_I64);
    g.kout = imp_block(p, "kout", IMP_SPACE_DEVICE);
    g.k->nparams = 2;
    g.k->params = NEW_ARRAY(a, ImpVar *, 2);
    g.k->params[0] = g.kn;
    g.k->params[1] = g.kout;
    imp_decl(&g.host, g.n, imp_i64(a, 8));
    imp_decl(&g.host, g.out, NULL);
    ImpStm *al = imp_add(&g.host, IMP_ALLOC);
    al->mem = g.out;
    al->size = imp_i64(a, 32);
    ImpStm *l = g.launch = imp_add(&g.host, IMP_LAUNCH);
    l->kernel = g.k;
    l->groups = imp_i64(a, 1);
    l->group_size = imp_i64(a, 8);
    l->nargs = 2;
    l->args = NEW_ARRAY(a, ImpExp *, 2);
    l->args[0] = imp_read(a, g.n);
    l->args[1] = imp_read(a, g.out);
    build(&g);
    g.k->body = imp_finish(&g.kbody);
    add_entry(p, &g.host, g.nret);
    return p;
}

/* The forms printed: a kernel with a local array, the work-item's id, a
 * view at an offset; transfers, a fill, an iota, a mapped block, a tuning
 * parameter and a block's size in host code. */
static void all_forms(Gpu *g) {
    Arena *a = g->a;
    ImpProg *p = g->p;
    ImpVar *loc = imp_block(p, "loc", IMP_SPACE_LOCAL);
    g->k->nlocals = 1;
    g->k->locals = NEW_ARRAY(a, ImpLocal, 1);
    g->k->locals[0] = (ImpLocal){loc, PT_F32, imp_read(a, g->n)};
    ImpVar *gid = imp_var(p, "gid", IMP_SCALAR, PT_I64);
    imp_decl(&g->kbody, gid, imp_thread(a, IMP_GLOBAL_ID));
    imp_store(&g->kbody, loc, PT_F32, imp_thread(a, IMP_LOCAL_ID), imp_const(a, prim_float(PT_F32, 1)));
    ImpStm *v = imp_add(&g->kbody, IMP_DECL);
    v->var = imp_block(p, "view", IMP_SPACE_DEVICE);
    v->init = imp_read(a, g->kout);
    v->offset = imp_i64(a, 16);
    imp_store(&g->kbody, v->var, PT_F32, imp_read(a, gid), imp_load(a, loc, PT_F32, imp_i64(a, 0)));
    ImpVar *gs = imp_var(p, "gs", IMP_SCALAR, PT_I64), *sz = imp_var(p, "sz", IMP_SCALAR, PT_I64);
    imp_decl(&g->host, gs, imp_tuning(a, g->k, IMP_TUNE_GROUP_SIZE, NULL));
    imp_decl(&g->host, sz, imp_memsize(a, g->out));
    Sym *shape = sym_var(a, g->n->id);
    Lmad *dense = lmad_row_major(a, 1, &shape);
    ImpStm *f = imp_add(&g->host, IMP_FILL);
    f->dst = g->out;
    f->dst_lmad = dense;
    f->t = PT_F32;
    f->value = imp_const(a, prim_float(PT_F32, 0));
    ImpStm *io = imp_add(&g->host, IMP_IOTA);
    io->dst = g->out;
    io->dst_lmad = dense;
    io->t = PT_I32;
    io->bound = imp_read(a, g->n);
    io->value = imp_const(a, prim_int(PT_I32, 0));
    io->step = imp_const(a, prim_int(PT_I32, 2));
    ImpVar *h = imp_block(p, "h", IMP_SPACE_HOST);
    ImpStm *m = imp_add(&g->host, IMP_MAP);
    m->mem = h;
    m->src = g->out;
    ImpVar *x = imp_var(p, "x", IMP_SCALAR, PT_F32), *y = imp_var(p, "y", IMP_SCALAR, PT_F32);
    imp_decl(&g->host, x, imp_op2(a, OP_ADD, PT_F32, imp_load(a, h, PT_F32, imp_i64(a, 0)), imp_load(a, h, PT_F32, imp_i64(a, 1))));
    ImpStm *um = imp_add(&g->host, IMP_UNMAP);
    um->mem = h;
    um->src = g->out;
    imp_decl(&g->host, y, imp_load(a, g->out, PT_F32, imp_i64(a, 3)));
    imp_store(&g->host, g->out, PT_F32, imp_i64(a, 2), imp_read(a, y));
    imp_add(&g->host, IMP_RELEASE)->mem = g->out;
}

/* Work-group forms: a barrier, atomics, and one variable declared in two
 * sibling scopes (once out of scope, a variable may be declared again). */
static void group_forms(Gpu *g) {
    Arena *a = g->a;
    ImpProg *p = g->p;
    imp_add(&g->kbody, IMP_BARRIER)->global = true;
    ImpVar *old = imp_var(p, "old", IMP_SCALAR, PT_I32);
    ImpStm *at = imp_add(&g->kbody, IMP_ATOMIC);
    at->atomic = IMP_AT_ADD;
    at->var = old;
    at->mem = g->kout;
    at->t = PT_I32;
    at->index = imp_i64(a, 0);
    at->value = imp_const(a, prim_int(PT_I32, 1));
    ImpStm *cas = imp_add(&g->kbody, IMP_ATOMIC);
    cas->atomic = IMP_AT_CMPXCHG;
    cas->mem = g->kout;
    cas->t = PT_U32;
    cas->index = imp_i64(a, 1);
    cas->expected = imp_const(a, prim_int(PT_U32, 0));
    cas->value = imp_const(a, prim_int(PT_U32, 7));
    ImpVar *y = imp_var(p, "y", IMP_SCALAR, PT_I32);
    for (int k = 0; k < 2; k++) {
        ImpStm *sc = imp_add(&g->kbody, IMP_SCOPE);
        ImpBuilder b = {.a = a};
        imp_decl(&b, y, imp_read(a, old));
        sc->body = imp_finish(&b);
    }
}

static void test_gpu_group_forms(void **state) {
    (void)state;
    ImpProg *p = gpu_with(group_forms);
    char *text = printed(p);
    static const char *const want[] = {
        "  barrier (global)\n  i32 old_5 = atomic_add kout_4.i32[0i64], 1i32\n",
        "  atomic_cmpxchg kout_4.u32[1i64], 0u32, 7u32\n",
        "  scope {\n    i32 y_6 = old_5\n  }\n  scope {\n    i32 y_6 = old_5\n  }\n",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(text, want[i])) fail_msg("expected \"%s\" in:\n%s", want[i], text);
    free(text);
    char *msg;
    if (!checks(p, &msg)) fail_msg("imp_check: %s", msg);
    free(msg);
    free_prog(p);
}

static void test_gpu_printer(void **state) {
    (void)state;
    ImpProg *p = gpu_with(all_forms);
    char *text = printed(p);
    static const char *const want[] = {
        "entry 0 main {\n  i64 n_1 = 8i64\n  dmem out_2\n  out_2 = alloc(32i64)\n",
        "  launch kernel 0 k<<<1i64, 8i64>>>(n_1, out_2)\n",
        "  i64 gs_8 = tuning(kernel 0 k.group_size)\n  i64 sz_9 = memsize(out_2)\n",
        "  fill f32 out_2[0 + {(n_1 : 1)}] = 0f32\n",
        "  iota i32 out_2[0 + {(n_1 : 1)}] = 0i32 + c * 2i32 for c < n_1\n",
        "  mem h_10 = map out_2\n  f32 x_11 = add.f32(h_10.f32[0i64], h_10.f32[1i64])\n  unmap out_2 <- h_10\n",
        "  f32 y_12 = out_2.f32[3i64]\n  out_2.f32[2i64] = y_12\n  release out_2\n}\n",
        "kernel 0 k(i64 kn_3, dmem kout_4) {\n  local lmem loc_5: f32[n_1]\n  i64 gid_6 = global_id\n",
        "  loc_5.f32[local_id] = 1f32\n  dmem view_7 = kout_4 + 16i64\n  view_7.f32[gid_6] = loc_5.f32[0i64]\n}\n",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(text, want[i])) fail_msg("expected \"%s\" in:\n%s", want[i], text);
    free(text);
    char *msg;
    if (!checks(p, &msg)) fail_msg("imp_check: %s", msg);
    free(msg);
    free_prog(p);
}

static void thread_in_host(Gpu *g) { imp_decl(&g->host, imp_var(g->p, "t", IMP_SCALAR, PT_I64), imp_thread(g->a, IMP_GROUP_ID)); }

static void alloc_in_kernel(Gpu *g) {
    ImpVar *m = imp_block(g->p, "m", IMP_SPACE_DEVICE);
    imp_decl(&g->kbody, m, NULL);
    ImpStm *al = imp_add(&g->kbody, IMP_ALLOC);
    al->mem = m;
    al->size = imp_i64(g->a, 4);
}

static void host_block_in_kernel(Gpu *g) { imp_decl(&g->kbody, imp_block(g->p, "m", IMP_SPACE_HOST), NULL); }

static void local_block_in_host(Gpu *g) { imp_decl(&g->host, imp_block(g->p, "m", IMP_SPACE_LOCAL), NULL); }

static void launch_arg_count(Gpu *g) { g->launch->nargs = 1; }

static void launch_scalar_for_block(Gpu *g) { g->launch->args[1] = imp_i64(g->a, 0); }

static void launch_arg_type(Gpu *g) { g->launch->args[0] = imp_const(g->a, prim_int(PT_I32, 8)); }

static void launch_host_block(Gpu *g) {
    ImpVar *h = imp_block(g->p, "h", IMP_SPACE_HOST);
    g->host.stms.items[g->host.stms.len - 1] = NULL; /* the launch moves after h's declaration */
    g->host.stms.len--;
    imp_decl(&g->host, h, NULL);
    vec_push(&g->host.stms, g->launch);
    g->launch->args[1] = imp_read(g->a, h);
}

static void launched_twice(Gpu *g) { vec_push(&g->host.stms, g->launch); }

static void launch_in_kernel(Gpu *g) { vec_push(&g->kbody.stms, g->launch); }

static void device_load_in_exp(Gpu *g) {
    Arena *a = g->a;
    ImpExp *ld = imp_load(a, g->out, PT_F32, imp_i64(a, 0));
    imp_decl(&g->host, imp_var(g->p, "x", IMP_SCALAR, PT_F32), imp_op2(a, OP_ADD, PT_F32, ld, ld));
}

static void copy_between_spaces(Gpu *g) {
    ImpVar *h = imp_block(g->p, "h", IMP_SPACE_HOST);
    imp_decl(&g->host, h, NULL);
    ImpStm *cp = imp_add(&g->host, IMP_COPY);
    Sym *one = sym_const(g->a, 1);
    cp->dst = g->out;
    cp->src = h;
    cp->dst_lmad = cp->src_lmad = lmad_row_major(g->a, 1, &one);
    cp->t = PT_F32;
}

static void fill_host_block(Gpu *g) {
    ImpVar *h = imp_block(g->p, "h", IMP_SPACE_HOST);
    imp_decl(&g->host, h, NULL);
    ImpStm *f = imp_add(&g->host, IMP_FILL);
    Sym *one = sym_const(g->a, 1);
    f->dst = h;
    f->dst_lmad = lmad_row_major(g->a, 1, &one);
    f->t = PT_F32;
    f->value = imp_const(g->a, prim_float(PT_F32, 0));
}

static void offset_in_host(Gpu *g) {
    ImpStm *d = imp_add(&g->host, IMP_DECL);
    d->var = imp_block(g->p, "v", IMP_SPACE_DEVICE);
    d->init = imp_read(g->a, g->out);
    d->offset = imp_i64(g->a, 8);
}

static void result_not_row_major(Gpu *g) {
    Arena *a = g->a;
    g->nret = 1;
    ImpStm *r = imp_add(&g->host, IMP_RESULT);
    r->t = PT_F32;
    r->rank = 1;
    r->mem = g->out;
    Sym *two = sym_const(a, 2);
    r->lmad = lmad_row_major(a, 1, &two);
    r->lmad->dims[0].stride = two;
    r->shape = NEW_ARRAY(a, ImpExp *, 1);
    r->shape[0] = imp_i64(a, 2);
}

static void never_launched(Gpu *g) { imp_kernel(g->p, "idle"); }

static void barrier_in_host(Gpu *g) { imp_add(&g->host, IMP_BARRIER); }

/* An atomic update of kind at, type t, binding a variable or not. */
static ImpStm *atomic_in(Gpu *g, ImpBuilder *b, ImpAtomic at, PrimType t, bool bind) {
    ImpStm *s = imp_add(b, IMP_ATOMIC);
    s->atomic = at;
    s->mem = b == &g->host ? g->out : g->kout;
    s->t = t;
    s->index = imp_i64(g->a, 0);
    s->value = imp_const(g->a, prim_float(t, 1));
    if (prim_class(t) != PC_FLOAT) s->value = imp_const(g->a, prim_int(t, 1));
    if (bind) s->var = imp_var(g->p, "old", IMP_SCALAR, t);
    return s;
}

static void atomic_in_host(Gpu *g) { atomic_in(g, &g->host, IMP_AT_ADD, PT_I32, false); }

static void atomic_float_min(Gpu *g) { atomic_in(g, &g->kbody, IMP_AT_MIN, PT_F32, false); }

static void atomic_float_old(Gpu *g) { atomic_in(g, &g->kbody, IMP_AT_ADD, PT_F64, true); }

static void atomic_cas_signed(Gpu *g) {
    ImpStm *s = atomic_in(g, &g->kbody, IMP_AT_CMPXCHG, PT_I32, false);
    s->expected = imp_const(g->a, prim_int(PT_I32, 0));
}

static void redeclared_in_scope(Gpu *g) {
    ImpVar *y = imp_var(g->p, "y", IMP_SCALAR, PT_I64);
    imp_decl(&g->kbody, y, imp_i64(g->a, 0));
    ImpStm *sc = imp_add(&g->kbody, IMP_SCOPE);
    ImpBuilder b = {.a = g->a};
    imp_decl(&b, y, imp_i64(g->a, 1));
    sc->body = imp_finish(&b);
}

static void tuning_in_fun(ImpProg *p, ImpBuilder *b, ImpVar *x) {
    Arena *a = p->arena;
    imp_assign(b, x, imp_conv(a, PT_I64, PT_I32, imp_tuning(a, imp_kernel(p, "k"), IMP_TUNE_GROUP_SIZE, NULL)));
}

static void test_gpu_check_rejects(void **state) {
    (void)state;
    static const struct {
        void (*build)(Gpu *g);
        const char *msg;
    } cases[] = {
        {thread_in_host, "entry main: IX_THREAD outside a kernel"},
        {alloc_in_kernel, "kernel 0 k: an allocation in kernel code"},
        {host_block_in_kernel, "m_5 is a host block in kernel code"},
        {local_block_in_host, "entry main: m_5 is a local block in host code"},
        {launch_arg_count, "a launch of kernel 0 k with 1 arguments for 2 parameters"},
        {launch_scalar_for_block, "argument 1 of kernel k is not a block variable"},
        {launch_arg_type, "argument 0 of kernel k is a i32, not a i64"},
        {launch_host_block, "argument 1 of kernel k, h_5 is a host block, not a device one"},
        {launched_twice, "kernel 0 k is launched twice"},
        {launch_in_kernel, "kernel 0 k: IMP_LAUNCH in kernel code"},
        {device_load_in_exp, "a load from device block out_2 inside an expression of host code"},
        {copy_between_spaces, "a copy from host block h_5 to device block out_2"},
        {fill_host_block, "the destination of IMP_FILL h_5 is a host block, not a device one"},
        {offset_in_host, "a block declared at an offset outside a kernel"},
        {result_not_row_major, "IMP_RESULT 0 of device block out_2 is not row-major"},
        {never_launched, "kernel 1 idle: the kernel is never launched"},
        {barrier_in_host, "entry main: IMP_BARRIER outside a kernel"},
        {atomic_in_host, "entry main: IMP_ATOMIC outside a kernel"},
        {atomic_float_min, "an atomic update of type f32 that the operation does not take"},
        {atomic_float_old, "an atomic float addition binds old_5"},
        {atomic_cas_signed, "an atomic update of type i32 that the operation does not take"},
        {redeclared_in_scope, "kernel 0 k: y_5 is declared again in its scope"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        ImpProg *p = gpu_with(cases[k].build);
        assert_rejected(p, cases[k].msg);
        free_prog(p);
    }
    ImpProg *p = fun_with(tuning_in_fun);
    assert_rejected(p, "function f: IX_TUNING in a function");
    free_prog(p);
}

/* ---- Lowered programs --------------------------------------------------------- */

/* src through the pipeline to stage and lowered (parallel: for the
 * multicore backend); imp_check must accept it. */
static ImpProg *lowered_par(const char *src, Stage stage, bool parallel, Prog **out) {
    Prog *p = unit_from_source(src);
    PipelineOpts o = {.verify = true, .last_stage = stage};
    assert_true(pipeline_run(p, &o));
    ImpProg *ip = imp_lower(p, parallel);
    assert_non_null(ip);
    assert_int_equal(ip->nentries, p->nfuns);
    assert_true(ip->next_id >= p->next_var_id);
    char *msg;
    if (!checks(ip, &msg)) fail_msg("imp_check: %s", msg);
    free(msg);
    *out = p;
    return ip;
}

static ImpProg *lowered_at(const char *src, Stage stage, Prog **out) { return lowered_par(src, stage, false, out); }
static ImpProg *lowered(const char *src, Prog **out) { return lowered_at(src, STAGE_MEM, out); }

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

/* A scan result that nothing reads after the scan (its block dies with
 * it) is not stored: one store, of the other result, of two scanned. */
static void test_lower_dead_scan(void **state) {
    (void)state;
    Prog *p;
    ImpProg *ip = lowered("entry main (xs: []i32) : []i32 =\n"
                          "  let (a, b) = unzip (scan (\\(x1, y1) (x2, y2) -> (x1 + y2, y1 * y2)) (0, 1)\n"
                          "                            (map (\\x -> (x, x + 1)) xs))\n"
                          "  in a\n",
                          &p);
    const ImpCode *c = &ip->entries[0]->body;
    assert_int_equal(count(c, IMP_FOR), 1);
    assert_int_equal(count(c, IMP_STORE), 1);
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
    /* 0 <= i < n as one unsigned comparison */
    assert_int_equal(guard->cond->kind, IX_OP);
    assert_int_equal(guard->cond->op, OP_LT);
    assert_int_equal(guard->cond->t, PT_U64);
    assert_int_equal(count(&guard->body, IMP_STORE), 1);
    unit_free(p);
}

/* A loop whose iterations past a guard on the counter add zero stops
 * there (narrow.c): the inner loop of a masked triangular product is
 * bounded by min(n - 1, i) + 1; one whose iterations past it add 1 is
 * not. */
static void test_narrow(void **state) {
    (void)state;
    const char *src[] = {"entry main [n] (a: [n][n]i32) (x: [n]i32) : [n]i32 =\n"
                         "  map2 (\\i row -> reduce (+) 0 (map3 (\\j aij xj -> if j <= i then aij * xj else 0)\n"
                         "                                       (iota n) row x)) (iota n) a\n",
                         "entry main [n] (a: [n][n]i32) (x: [n]i32) : [n]i32 =\n"
                         "  map2 (\\i row -> reduce (+) 0 (map3 (\\j aij xj -> if j <= i then aij * xj else 1)\n"
                         "                                       (iota n) row x)) (iota n) a\n"};
    for (int k = 0; k < 2; k++) {
        Prog *p;
        ImpProg *ip = lowered(src[k], &p);
        const ImpStm *outer = find(&ip->entries[0]->body, IMP_FOR);
        assert_non_null(outer);
        const ImpStm *inner = find(&outer->body, IMP_FOR);
        assert_non_null(inner);
        bool narrowed = inner->bound->kind == IX_OP && inner->bound->op == OP_ADD &&
                        inner->bound->args[0]->kind == IX_OP && inner->bound->args[0]->op == OP_MIN;
        assert_int_equal(narrowed, k == 0);
        unit_free(p);
    }
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

/* ---- Lowered for the GPU ------------------------------------------------------------ */

/* A SegMap is a kernel of one work-item per element: its launch passes
 * the free variables and the number of elements; the work-item's number
 * comes from IX_THREAD; the group size is the kernel's tuning parameter. */
static void test_lower_gpu_map(void **state) {
    (void)state;
    Prog *p;
    ImpProg *ip = lowered_at("entry main (xs: []f32) (ys: []f32) : []f32 = map2 (+) xs ys\n", STAGE_GPU, &p);
    assert_int_equal(ip->nkernels, 1);
    const ImpKernel *k = ip->kernels[0];
    assert_string_equal(k->name, "segmap");
    const ImpCode *c = &ip->entries[0]->body;
    assert_int_equal(count(c, IMP_LAUNCH), 1);
    const ImpStm *l = find(c, IMP_LAUNCH);
    assert_ptr_equal(l->kernel, k);
    assert_int_equal(l->nargs, k->nparams);
    /* xs, ys, the result's block, the size and the number of elements */
    assert_int_equal(k->nparams, 5);
    const ImpStm *a = find(c, IMP_ARG);
    assert_int_equal(a->mem->space, IMP_SPACE_DEVICE);
    assert_int_equal(k->body.stms[0]->init->kind, IX_THREAD);
    assert_int_equal(count(&k->body, IMP_STORE), 1);
    assert_int_equal(count(&k->body, IMP_RELEASE), 0);
    char *text = printed(ip);
    assert_non_null(strstr(text, "tuning(kernel 0 segmap.group_size)"));
    assert_non_null(strstr(text, "launch kernel 0 segmap<<<"));
    free(text);
    unit_free(p);
}

/* Scalar code on device arrays transfers elements; replicate and iota
 * fill device blocks on the device; a result that is not row-major is
 * copied into a dense block of its own first. */
static void test_lower_gpu_host(void **state) {
    (void)state;
    Prog *p;
    ImpProg *ip = lowered_at("entry main (n: i64) (xss: [n][n]i32) : (i32, [n][n]i32, []i32, []i64) =\n"
                             "  (xss[1, 2], transpose xss, replicate n 7, iota n)\n",
                             STAGE_GPU, &p);
    const ImpCode *c = &ip->entries[0]->body;
    const ImpStm *d = NULL;
    for (int i = 0; i < c->n && !d; i++)
        if (c->stms[i]->kind == IMP_DECL && c->stms[i]->init && c->stms[i]->init->kind == IX_LOAD) d = c->stms[i];
    assert_non_null(d);
    assert_int_equal(d->init->var->space, IMP_SPACE_DEVICE);
    assert_int_equal(count(c, IMP_FILL), 1);
    assert_int_equal(count(c, IMP_IOTA), 1);
    assert_int_equal(count(c, IMP_COPY), 1);
    const ImpStm *cp = find(c, IMP_COPY);
    assert_true(lmad_is_row_major(cp->dst_lmad));
    assert_false(lmad_is_row_major(cp->src_lmad));
    for (int i = 0; i < c->n; i++) {
        const ImpStm *r = c->stms[i];
        if (r->kind == IMP_RESULT && r->rank) assert_true(lmad_is_row_major(r->lmad));
    }
    assert_int_equal(ip->nkernels, 0);
    unit_free(p);
}

/* A reduction: every group's partial result (a kernel whose work-items
 * meet at barriers, with a local array per value), then a second kernel
 * of one group, whose result the host reads back by a transfer. */
static void test_lower_gpu_segred(void **state) {
    (void)state;
    Prog *p;
    ImpProg *ip = lowered_at("entry main (xs: []i32) : i32 = reduce (+) 0 xs\n", STAGE_GPU, &p);
    const ImpCode *c = &ip->entries[0]->body;
    assert_int_equal(ip->nkernels, 2);
    assert_string_equal(ip->kernels[0]->name, "segred");
    assert_string_equal(ip->kernels[1]->name, "segred_final");
    assert_int_equal(count(c, IMP_LAUNCH), 2);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(ip->kernels[k]->nlocals, 1);
        assert_true(count(&ip->kernels[k]->body, IMP_BARRIER) >= 2);
    }
    const ImpStm *d = NULL;
    for (int i = 0; i < c->n && !d; i++)
        if (c->stms[i]->kind == IMP_DECL && c->stms[i]->init && c->stms[i]->init->kind == IX_LOAD) d = c->stms[i];
    assert_non_null(d);
    assert_int_equal(d->init->var->space, IMP_SPACE_DEVICE);
    char *text = printed(ip);
    assert_non_null(strstr(text, "tuning(kernel 0 segred.num_groups; "));
    free(text);
    unit_free(p);
}

/* A reduction whose operator takes arrays runs in one work-item (SegSeq):
 * its scalar result comes back through a device block; an allocating map
 * that flattening leaves alone (a loop whose count differs between
 * elements, carrying an array it indexes at its counter) runs as kernels
 * by memory expansion (a reduction for the largest size, then the map),
 * but on the host over its blocks lent to it (SegHost) when it allocates
 * in a branch. */
static void test_lower_gpu_seq_host(void **state) {
    (void)state;
    Prog *p;
    ImpProg *ip = lowered_at("entry main [n][m] (xss: [n][m]i32) (ys: [n]i32) : ([m]i32, i32) =\n"
                             "  reduce (\\(a, x) (b, y) -> (map2 (+) a b, x + y)) (replicate m 0, 0) (zip xss ys)\n",
                             STAGE_GPU, &p);
    assert_int_equal(ip->nkernels, 1);
    assert_string_equal(ip->kernels[0]->name, "segseq");
    const ImpCode *c = &ip->entries[0]->body;
    const ImpStm *l = find(c, IMP_LAUNCH);
    assert_int_equal(l->groups->kind, IX_CONST);
    assert_int_equal(count(&ip->kernels[0]->body, IMP_FOR) > 0, 1);
    char *text = printed(ip);
    assert_non_null(strstr(text, "res_"));
    free(text);
    unit_free(p);
#define LOOP "let (s, _) = loop (s, ys) = (0, iota n) for i < c do (s + ys[i], map (+ 1) ys) in s"
    ip = lowered_at("entry main [k] (ns: [k]i64) (cs: [k]i64) : [k]i64 =\n"
                    "  map2 (\\n c -> " LOOP ") ns cs\n",
                    STAGE_GPU, &p);
    c = &ip->entries[0]->body;
    assert_int_equal(count(c, IMP_MAP), 0);
    assert_int_equal(ip->nkernels, 3); /* the largest size's reduction (two kernels), then the map */
    assert_string_equal(ip->kernels[0]->name, "segred");
    assert_string_equal(ip->kernels[2]->name, "segmap");
    unit_free(p);
    ip = lowered_at("entry main [k] (ns: [k]i64) (cs: [k]i64) : [k]i64 =\n"
                    "  map2 (\\n c -> if c > 0 then (" LOOP ") else 0) ns cs\n",
                    STAGE_GPU, &p);
#undef LOOP
    c = &ip->entries[0]->body;
    assert_true(count(c, IMP_MAP) > 0);
    assert_int_equal(count(c, IMP_MAP), count(c, IMP_UNMAP));
    assert_int_equal(find(c, IMP_MAP)->mem->space, IMP_SPACE_HOST);
    assert_int_equal(ip->nkernels, 0);
    unit_free(p);
}

/* Variables named "reg" that code c declares (regcache.c's copies of
 * cached elements). */
static int count_regs(const ImpCode *c) {
    int n = 0;
    for (int i = 0; i < c->n; i++) {
        const ImpStm *s = c->stms[i];
        n += s->kind == IMP_DECL && !strcmp(s->var->name, "reg");
        n += count_regs(&s->body) + count_regs(&s->orelse);
    }
    return n;
}

/* A kernel loop over centres that reads its point's row again for each
 * is cached (regcache.c): versions for rows of 8, 16 and 32 elements
 * (each one loop over the centres, the row in as many variables), then
 * the loop as it was (with its inner loop): five loops. Not when the row
 * index changes with the centre, nor when the loop may fail (a bounds
 * check of an index read from an array). */
static void test_regcache(void **state) {
    (void)state;
    const char *src[] = {
        "entry main [n][k][d] (ps: [n][d]f32) (cs: [k][d]f32) : [n]f32 =\n"
        "  map (\\p -> loop acc = 0 for c < k do acc + f32.sum (map2 (*) p cs[c])) ps\n",
        "entry main [n][k][d] (ps: [n][d]f32) (cs: [k][d]f32) : [n]f32 =\n"
        "  map (\\p -> loop acc = 0 for c < k do acc + f32.sum (map (\\j -> p[(j + c) % d] * cs[c][j]) (iota d))) ps\n",
        "entry main [n][k][d] (ps: [n][d]f32) (cs: [k][d]f32) (is: [d]i64) : [n]f32 =\n"
        "  map (\\p -> loop acc = 0 for c < k do acc + f32.sum (map (\\j -> p[j] * cs[c][is[j]]) (iota d))) ps\n",
    };
    for (int k = 0; k < 3; k++) {
        Prog *p;
        ImpProg *ip = lowered_at(src[k], STAGE_GPU, &p);
        int loops = 0, regs = 0;
        for (int i = 0; i < ip->nkernels; i++) {
            const ImpCode *body = &ip->kernels[i]->body;
            if (count(body, IMP_FOR) > loops) loops = count(body, IMP_FOR), regs = count_regs(body);
        }
        assert_int_equal(loops, k == 0 ? 5 : 2);
        assert_int_equal(regs, k == 0 ? 8 + 16 + 32 : 0);
        unit_free(p);
    }
}

/* Stores in c, streaming ones (stream) or not. */
static int count_stores(const ImpCode *c, bool stream) {
    int n = 0;
    for (int i = 0; i < c->n; i++) {
        const ImpStm *s = c->stms[i];
        n += s->kind == IMP_STORE && s->stream == stream;
        n += count_stores(&s->body, stream) + count_stores(&s->orelse, stream);
    }
    return n;
}

/* Multicore streaming stores (mc.c): a map's parallel loop in two
 * versions (chosen by the bytes it stores), one writing its outputs by
 * streaming stores, the other by ordinary ones; so does a scan's (whose
 * tasks also publish their folds by ordinary stores). Not into a
 * block the loop reads (a map built in its unique input's block), nor
 * from a loop with a loop inside (a reduction of each row). */
static void test_streams(void **state) {
    (void)state;
    const struct {
        const char *src;
        int streams, plain;
    } cases[] = {
        {"entry main [n] (a: [n]f32) (b: [n]f32) : [n]f32 = map2 (\\x y -> 2.5 * x + y) a b\n", 1, 1},
        {"entry main [n] (a: [n]f32) : ([n]f32, [n]i32) = (map (* 2) a, map i32.f32 a)\n", 2, 2},
        /* the flags' zeroing, and each version's two published folds */
        {"entry main [n] (a: [n]i32) : [n]i32 = scan (+) 0 a\n", 1, 1 + 2 * 2 + 1},
        {"entry main [n] (a: *[n]f32) : [n]f32 = map (+ 1) a\n", 0, 1},
        {"entry main [n][m] (a: [n][m]f32) : [n]f32 = map f32.sum a\n", 0, 1},
    };
    for (int k = 0; k < 5; k++) {
        Prog *p;
        ImpProg *ip = lowered_par(cases[k].src, STAGE_MEM, true, &p);
        const ImpCode *c = &ip->entries[0]->body;
        assert_int_equal(count_stores(c, true), cases[k].streams);
        assert_int_equal(count_stores(c, false), cases[k].plain);
        assert_int_equal(count(c, IMP_PARFOR), 1 + (cases[k].streams > 0));
        char *text = printed(ip);
        /* the versions are chosen by the bytes the map stores, 32 MiB */
        assert_true(!strstr(text, "33554432i64") == !cases[k].streams);
        free(text);
        unit_free(p);
    }
}

/* imp_jam: a loop around a reduction runs four iterations together in
 * the multicore lowering only, and not when the reduction reads what the
 * loop carries. */
static void test_jam(void **state) {
    (void)state;
    const char *nearest =
        "entry main [n][k][d] (ps: [n][d]f32) (cs: [k][d]f32) : [n]i64 =\n"
        "  map (\\p -> (loop (b, bd) = (0i64, f32.inf) for c < k do\n"
        "                  let dc = f32.sum (map2 (\\x y -> (x - y) * (x - y)) p cs[c])\n"
        "                  in if dc < bd then (c, dc) else (b, bd)).0) ps\n";
    const char *carried = "entry main [k][d] (cs: [k][d]f32) : f32 =\n"
                          "  loop acc = 1f32 for c < k do acc + f32.sum (map (\\x -> x * acc) cs[c])\n";
    const struct {
        const char *src;
        bool parallel, jammed;
    } cases[] = {{nearest, true, true}, {nearest, false, false}, {carried, true, false}};
    for (int k = 0; k < 3; k++) {
        Prog *p;
        ImpProg *ip = lowered_par(cases[k].src, STAGE_MEM, cases[k].parallel, &p);
        char *text = printed(ip);
        assert_int_equal(strstr(text, "for jam_") != NULL, cases[k].jammed);
        assert_int_equal(strstr(text, "for rest_") != NULL, cases[k].jammed);
        free(text);
        unit_free(p);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builder_and_printer), cmocka_unit_test(test_expressions),
        cmocka_unit_test(test_check_rejects),       cmocka_unit_test(test_lower_screma),
        cmocka_unit_test(test_lower_loop),          cmocka_unit_test(test_lower_scatter),
        cmocka_unit_test(test_lower_dead_scan),
        cmocka_unit_test(test_narrow),
        cmocka_unit_test(test_lower_hist),          cmocka_unit_test(test_lower_call),
        cmocka_unit_test(test_lower_copies),        cmocka_unit_test(test_gpu_printer),        cmocka_unit_test(test_gpu_group_forms),
        cmocka_unit_test(test_gpu_check_rejects),   cmocka_unit_test(test_lower_gpu_map),
        cmocka_unit_test(test_lower_gpu_host),      cmocka_unit_test(test_lower_gpu_segred),
        cmocka_unit_test(test_lower_gpu_seq_host), cmocka_unit_test(test_regcache),
        cmocka_unit_test(test_streams),             cmocka_unit_test(test_jam),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
