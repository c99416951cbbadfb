/* Unit tests for the type checker (compiler/check/): small programs parsed
 * with parse_program and checked with check_programs against a stand-in
 * prelude; accepted programs assert inferred types, defaulted literals and
 * resolved references, rejected programs assert the error count and the
 * message (captured from stderr). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/check.h"
#include "check/check_internal.h"

/* A stand-in prelude: a few intrinsics with the real prelude's types. */
static const char *const PRELUDE =
    "def map 'a [n] 'x (f: a -> x) (as: [n]a) : *[n]x = __intrinsic \"map\"\n"
    "def reduce [n] 'a (op: a -> a -> a) (ne: a) (as: [n]a) : a = __intrinsic \"reduce\"\n"
    "def scatter 't [k] [n] (dest: *[k]t) (is: [n]i64) (vs: [n]t) : *[k]t = __intrinsic \"scatter\"\n"
    "def filter [n] 'a (p: a -> bool) (as: [n]a) : *[]a = __intrinsic \"filter\"\n"
    "def iota (n: i64) : *[n]i64 = __intrinsic \"iota\"\n"
    "def replicate 't (n: i64) (x: t) : *[n]t = __intrinsic \"replicate\"\n"
    "def copy 't (a: t) : *t = __intrinsic \"copy\"\n"
    "def zip [n] 'a 'b (as: [n]a) (bs: [n]b) : [n](a, b) = __intrinsic \"zip\"\n"
    "def length [n] 't (_: [n]t) : i64 = n\n"
    "def (++) [n] [m] 't (xs: [n]t) (ys: [m]t) : *[]t = __intrinsic \"concat\"\n";

/* Everything the checker printed to stderr during the last check. */
static char errbuf[16384];
static Arena arena;
static Program *files[3];

static Program *parse(const char *name, const char *src) {
    diag_register_source(intern(name), src);
    return parse_program(&arena, intern(name), src);
}

static FILE *capture_file;
static int saved_stderr;

/* Sends stderr to a temporary file until capture_end, which copies what
 * was written into errbuf. */
static void capture_begin(void) {
    fflush(stderr);
    capture_file = tmpfile();
    assert_non_null(capture_file);
    saved_stderr = dup(fileno(stderr));
    dup2(fileno(capture_file), fileno(stderr));
}

static void capture_end(void) {
    fflush(stderr);
    dup2(saved_stderr, fileno(stderr));
    close(saved_stderr);
    rewind(capture_file);
    size_t n = fread(errbuf, 1, sizeof errbuf - 1, capture_file);
    errbuf[n] = 0;
    fclose(capture_file);
}

/* Parses and checks src after prelude; returns the number of errors and
 * leaves the messages in errbuf. */
static int check_src_with(const char *prelude, const char *src) {
    diag_reset();
    capture_begin();
    files[0] = parse("prelude.fut", prelude);
    files[1] = parse("test.fut", src);
    if (files[0] && files[1]) check_programs(&arena, files, 2);
    capture_end();
    assert_non_null(files[0]);
    return diag_error_count();
}

static int check_src(const char *src) { return check_src_with(PRELUDE, src); }

static Decl *find_decl(const char *name) {
    Program *p = files[1];
    for (int i = p->ndecls - 1; i >= 0; i--)
        if (p->decls[i]->name && strcmp(p->decls[i]->name, name) == 0) return p->decls[i];
    fail_msg("no declaration '%s'", name);
    return NULL;
}

static char *show(const Ty *t) {
    static char buf[4][512];
    static int k;
    Buf b = {0};
    ty_print(&b, t);
    char *out = buf[k++ % 4];
    snprintf(out, 512, "%s", b.data ? b.data : "");
    buf_free(&b);
    return out;
}

/* Checks src and asserts that it is accepted. */
static void accept(const char *src) {
    int n = check_src(src);
    if (n) fail_msg("expected no errors, got %d:\n%s", n, errbuf);
}

static void assert_ret(const char *name, const char *ty) {
    assert_string_equal(show(find_decl(name)->ret_ty), ty);
}

static void assert_full(const char *name, const char *ty) {
    assert_string_equal(show(find_decl(name)->ty), ty);
}

/* Checks src and asserts nerrors errors, the first containing msg. */
static void reject(const char *src, int nerrors, const char *msg) {
    int n = check_src(src);
    if (n != nerrors) fail_msg("expected %d errors, got %d:\n%s", nerrors, n, errbuf);
    if (!strstr(errbuf, msg)) fail_msg("expected '%s' in:\n%s", msg, errbuf);
}

/* ---- Accepted programs: types ------------------------------------------------- */

static void test_literal_defaults(void **state) {
    (void)state;
    accept("def a = 1\ndef b = 2.5\ndef c = 1 + 2.0f32\ndef d : i64 = 3 * 4\ndef e = 7u8");
    assert_ret("a", "i32");
    assert_ret("b", "f64");
    assert_ret("c", "f32");
    assert_ret("d", "i64");
    assert_ret("e", "u8");
    Decl *c = find_decl("c");
    assert_int_equal(c->body->kind, EX_BINOP);
    assert_string_equal(show(c->body->e1->ty), "f32");
    Decl *d = find_decl("d");
    assert_string_equal(show(d->body->e1->ty), "i64");
    assert_string_equal(show(d->body->e2->ty), "i64");
}

/* A literal must fit the type it is inferred to have (Futhark's rule);
 * a negated literal fits when its negation does. */
static void test_literal_bounds(void **state) {
    (void)state;
    accept("def a : (i8, i8, u8, u16, i32, i64, u64) = (-128, 127, 255, 65535, -2147483648, "
           "-9223372036854775808, 18446744073709551615)\n"
           "def b : (f32, f64, f32) = (3.4e38, 1.79e308, -16777217)\n");
    reject("def x : i8 = 128", 1, "Literal 128 out of bounds for inferred type i8.");
    reject("def x : i8 = -129", 1, "Literal -129 out of bounds for inferred type i8.");
    reject("def x : u8 = -1", 1, "Literal -1 out of bounds for inferred type u8.");
    reject("def x : u32 = 4294967296", 1, "out of bounds for inferred type u32");
    reject("def x = 2147483648", 1, "Literal 2147483648 out of bounds for inferred type i32.");
    reject("def x : f32 = -1e40", 1, "Literal -1e+40 out of bounds for inferred type f32.");
    reject("def f (y: u16) = y + 70000", 1, "Literal 70000 out of bounds for inferred type u16.");
}

static void test_functions_and_generalisation(void **state) {
    (void)state;
    accept("def add (x: i32) (y: i32) = x + y\n"
           "def inc x = x + 1\n"
           "def id2 x = x\n"
           "def use = (id2 1i64, id2 true)\n"
           "def twice 'a (f: a -> a) (x: a) = f (f x)\n"
           "def t = twice inc 3\n");
    assert_full("add", "(x: i32) -> (y: i32) -> i32");
    assert_full("inc", "(x: i32) -> i32");
    Decl *id2 = find_decl("id2");
    assert_int_equal(id2->ret_ty->kind, TY_VAR);
    assert_int_equal(id2->param_tys[0]->kind, TY_VAR);
    assert_int_equal(id2->param_tys[0]->var, id2->ret_ty->var);
    assert_ret("use", "(i64, bool)");
    assert_full("twice", "(f: a -> a) -> (x: a) -> a");
    assert_ret("t", "i32");
}

/* The binding uid of parameter i of d (a name, possibly ascribed). */
static int param_uid_of(Decl *d, int i) {
    Pat *p = d->params[i];
    while (p->kind == P_ASCRIBE) p = p->inner;
    return p->uid;
}

static void test_sizes(void **state) {
    (void)state;
    accept("def f [n] (xs: [n]i32) : [n]i32 = xs\n"
           "def g (n: i64) = iota n\n"
           "def h = replicate 3 0i32\n"
           "def p [n] (xs: [n]i32) (ys: [n]f32) = zip xs ys\n"
           "def q (b: bool) (xs: []i32) (ys: []i32) = if b then xs else ys\n"
           "def r [n] (xs: [n]i32) = filter (\\x -> x > 0) xs\n"
           "def s = [[1, 2], [3, 4], [5, 6]]\n"
           "def t (xs: []i32) = xs[0:2]\n");
    assert_full("f", "(xs: [n]i32) -> [n]i32");
    assert_full("g", "(n: i64) -> *[n]i64");
    assert_ret("h", "[3]i32"); /* a constant's result is not unique (Futhark) */
    assert_ret("p", "[n](i32, f32)");
    assert_ret("s", "[3][2]i32");
    assert_ret("t", "[2]i32");
    Decl *f = find_decl("f");
    assert_int_equal(f->tparams[0].kind, TP_SIZE);
    assert_true(f->tparams[0].uid > 0);
    assert_int_equal(f->ret_ty->dims[0].kind, SZ_VAR);
    assert_int_equal(f->ret_ty->dims[0].uid, f->tparams[0].uid);
    assert_int_equal(find_decl("r")->ret_ty->dims[0].kind, SZ_ANY);
    /* the caller's x is not replicate's parameter x */
    accept("def u (x: i64) = replicate x 7i32\n"
           "def v (x: i64) (y: i32) = map (replicate x) [y, y]\n");
    assert_ret("u", "*[x]i32");
    assert_ret("v", "*[2][x]i32");
    Decl *u = find_decl("u");
    assert_int_equal(u->ret_ty->dims[0].uid, param_uid_of(u, 0));
}

static void test_records_and_tuples(void **state) {
    (void)state;
    accept("def r = {x = 1, y = 2.0f32}\n"
           "def getx (p: {x: i32, y: f32}) = p.x\n"
           "def snd (t: (i32, bool)) = t.1\n"
           "def pat ({x, y}: {x: i32, y: f32}) = f32.i32 x + y\n"
           "def upd (p: {x: i32, y: f32}) = p with x = 3\n"
           "def xs (ps: []{x: f64, y: f64}) = map (\\p -> p.x) ps\n"
           "def ys (ps: [](i32, i32)) = map (.1) ps\n");
    assert_ret("r", "{x: i32, y: f32}");
    assert_ret("getx", "i32");
    assert_ret("snd", "bool");
    assert_ret("pat", "f32");
    assert_ret("upd", "{x: i32, y: f32}");
    assert_ret("xs", "*[]f64");
    assert_ret("ys", "*[]i32");
    Decl *s = find_decl("snd");
    assert_int_equal(s->body->kind, EX_VAR);
    assert_int_equal(s->body->ref.kind, REF_LOCAL);
    assert_int_equal(s->body->ref.nvar_parts, 1);
}

static void test_lambdas_and_operators(void **state) {
    (void)state;
    accept("def a (xs: []f32) = map (\\x -> x * 2) xs\n"
           "def b (xs: []i32) = reduce (+) 0 xs\n"
           "def c (xs: []i32) = xs |> map (+1) |> map (\\x -> x > 2)\n"
           "def d = (\\x y -> x - y) 5i8 2\n"
           "def e (x: i32) = (x >> 2) & 7 ^ !x\n"
           "def f = (>->) (\\(x: i32) -> x + 1) (\\y -> y * 2)\n"
           "def g (a: []i32) (b: []i32) = a ++ b\n");
    assert_ret("a", "*[]f32");
    assert_ret("b", "i32");
    assert_ret("c", "*[]bool"); /* as unique as map's result */
    assert_ret("d", "i8");
    assert_ret("e", "i32");
    assert_ret("f", "i32 -> i32");
    assert_ret("g", "*[]i32");
    assert_int_equal(find_decl("g")->body->ref.kind, REF_GLOBAL);
    assert_int_equal(find_decl("e")->body->ref.kind, REF_NONE);
}

static void test_user_operator(void **state) {
    (void)state;
    accept("def (+^) (a: i32) (b: i32) = a + b * 2\ndef z = 1 +^ 2\ndef s = (+^ 3)\n");
    Decl *z = find_decl("z");
    assert_int_equal(z->body->kind, EX_BINOP);
    assert_int_equal(z->body->ref.kind, REF_GLOBAL);
    assert_ptr_equal(z->body->ref.decl, find_decl("+^"));
    assert_ret("s", "i32 -> i32");
    assert_int_equal(find_decl("s")->body->ref.kind, REF_GLOBAL);
}

static void test_local_bindings_and_uids(void **state) {
    (void)state;
    accept("def f (x: i32) = let y = x + 1 in let g z = z in (g y, g true)\n"
           "def l (n: i64) = loop acc = 0 for i < n do acc + i\n"
           "def w = loop (i, s) = (0, 1.0) while i < 10 do (i + 1, s * 2)\n");
    Decl *f = find_decl("f");
    assert_ret("f", "(i32, bool)");
    Pat *x = f->params[0];
    while (x->kind == P_ASCRIBE) x = x->inner;
    Exp *let = f->body;
    assert_int_equal(let->kind, EX_LET);
    assert_true(x->uid > 0);
    assert_int_equal(let->e1->e1->ref.kind, REF_LOCAL);
    assert_int_equal(let->e1->e1->ref.uid, x->uid);
    Exp *letfun = let->e2;
    assert_int_equal(letfun->kind, EX_LETFUN);
    assert_true(letfun->fname_uid > 0);
    assert_true(letfun->fname_uid != x->uid && letfun->fname_uid != let->pat->uid);
    assert_int_equal(letfun->e2->elems[0]->e1->ref.uid, letfun->fname_uid);
    assert_int_equal(letfun->e2->elems[0]->elems[0]->ref.uid, let->pat->uid);
    assert_ret("l", "i64");
    Decl *l = find_decl("l");
    assert_true(l->body->loop_var_uid > 0);
    assert_ret("w", "(i32, f64)");
}

static void test_modules_and_numeric(void **state) {
    (void)state;
    accept("module m = { def x = 1i32 def twice (y: i32) = y * 2 local def h = 3 }\n"
           "def a = m.twice m.x\n"
           "open m\n"
           "def b = twice 4\n"
           "def s = f32.sqrt 2\n"
           "def c = i64.i32 3 + (f64.i64 4 |> i64.f64)\n"
           "def mx = i32.max 1 2\n"
           "def pi = f64.pi\n");
    assert_ret("a", "i32");
    assert_ret("b", "i32");
    assert_ret("s", "f32");
    assert_ret("c", "i64");
    assert_ret("pi", "f64");
    Decl *a = find_decl("a");
    assert_int_equal(a->body->e1->ref.kind, REF_GLOBAL);
    assert_int_equal(a->body->e1->ref.nvar_parts, 0);
    Decl *s = find_decl("s");
    assert_int_equal(s->body->e1->ref.kind, REF_NUMERIC);
    assert_int_equal(s->body->e1->ref.numeric_type, PT_F32);
    assert_int_equal(s->body->e1->ref.numeric, 17); /* sqrt is row 17 of numeric.def */
    assert_string_equal(show(s->body->elems[0]->ty), "f32");
}

static void test_type_abbreviations(void **state) {
    (void)state;
    accept("type point = {x: f32, y: f32}\n"
           "type vec [n] 't = [n]t\n"
           "type pair 'a = (a, a)\n"
           "def o : point = {x = 0, y = 0}\n"
           "def v : vec [3] i32 = [1, 2, 3]\n"
           "def p : pair bool = (true, false)\n"
           "def norm (q: point) = q.x * q.x + q.y * q.y\n");
    assert_ret("o", "{x: f32, y: f32}");
    assert_ret("v", "[3]i32");
    assert_ret("p", "(bool, bool)");
    assert_ret("norm", "f32");
}

static void test_uniqueness_accepted(void **state) {
    (void)state;
    accept("def a (xs: *[]i32) = xs with [0] = 1\n"
           "def b (n: i64) = let r = replicate n 0i32 in let r[0] = 1 in let r[1] = 2 in r\n"
           "def c (xs: []i32) = let ys = copy xs in ys with [0] = 2\n"
           "def d (n: i64) = loop acc = replicate n 0 for i < n do acc with [i] = i32.i64 i\n"
           "def e (b: bool) (xs: *[]i32) = if b then xs with [0] = 1 else xs with [1] = 2\n"
           "def f (dest: *[]i32) (is: []i64) (vs: []i32) : *[]i32 = scatter dest is vs\n"
           "def g (xs: *[]i32) (ys: []i32) = let (a, b) = (xs, ys) in (a with [0] = b[0], b)\n"
           "def h (xs: *[]i32) = let g = \\(i: i64) -> xs[i] in let v = g 0 in xs with [0] = v\n"
           "def k (n: i64) = loop acc = replicate n 0i32 for i < n do let acc[i] = 1 in acc\n"
           "def l (xs: *[]i32) (ys: []i32) = map (\\y -> y + 1) ys |> map (\\y -> y + xs[0])\n"
           "def m (n: i64) = let k = 3i64 in loop k = 0i64 for i < k do k + i + n\n");
    Exp *m = find_decl("m")->body;
    assert_int_equal(m->e2->kind, EX_LOOP);
    accept("def t (a: *[]i32, i: i64) = let a[i] = 0 in a\n"
           "def tu (n: i64) = let a = replicate n 0i32 in t (a, 1)\n"
           "def pr (x: *[]i32) : (*[]i32, []i32) = (x, copy x)\n"
           "def inferred (x: *[]i32) = (x, x)\n"
           "def swap (n: i64) = loop (a, b) = (iota n, iota n) for i < n do let a[i] = 0 in (a, b)\n"
           "def fresh (n: i64) (xs: []i64) = loop acc = iota n for i < n do let acc[i] = 1 in map (+1) xs\n");
    assert_int_equal(m->e2->e3->ref.uid, m->pat->uid); /* the bound is outside the loop's scope */
}

static void test_entry_points(void **state) {
    (void)state;
    accept("entry main (xs: []f32) (n: i64) : ([]f32, i64) = (xs, n)\n"
           "entry other [n] (m: [n][n]i32) : i32 = m[0, 0]\n"
           "entry tup (x: i32, ys: []f32) : f32 = ys[0] + f32.i32 x\n"
           "entry rec (p: {a: i32, b: []i32}) : i32 = p.a + p.b[0]\n"
           "entry unit () : i32 = 1\n");
    assert_string_equal(show(find_decl("tup")->param_tys[0]), "(i32, []f32)");
    assert_string_equal(show(find_decl("rec")->param_tys[0]), "{a: i32, b: []i32}");
    assert_string_equal(show(find_decl("unit")->param_tys[0]), "()");
}

static void test_real_prelude(void **state) {
    (void)state;
    char *text = util_read_file("stdlib/prelude.fut", NULL);
    if (!text) skip();
    int n = check_src_with(text, "def main (xs: []i32) = map2 (+) xs (rotate 1 xs) |> reduce (+) 0\n"
                                 "def h (is: []i64) = hist (+) 0 10 is (map i32.i64 is)\n");
    free(text);
    if (n) fail_msg("prelude program rejected:\n%s", errbuf);
    assert_ret("main", "i32");
    assert_ret("h", "*[10]i32");
}

static void test_imports(void **state) {
    (void)state;
    diag_reset();
    files[0] = parse("prelude.fut", PRELUDE);
    files[1] = parse("lib.fut", "def helper (x: i32) = x * 3\nlocal def hidden = 1\n");
    files[2] = parse("main.fut", "import \"lib\"\ndef main (x: i32) = helper x\n");
    assert_non_null(files[2]);
    files[2]->decls[0]->imported = files[1];
    assert_true(check_programs(&arena, files, 3));
    Decl *m = files[2]->decls[1];
    assert_int_equal(m->body->e1->ref.kind, REF_GLOBAL);
    assert_ptr_equal(m->body->e1->ref.decl, files[1]->decls[0]);
    files[2] = parse("main2.fut", "import \"lib\"\ndef main = hidden\n");
    files[2]->decls[0]->imported = files[1];
    capture_begin();
    bool ok = check_programs(&arena, files, 3);
    capture_end();
    assert_false(ok);
    assert_non_null(strstr(errbuf, "main2.fut:2:12: error: Unknown name \"hidden\""));
}

/* {0 = a, 1 = b} is the tuple (a, b), in expressions, patterns and types. */
static void test_tuple_records(void **state) {
    (void)state;
    accept("def t (x: i32) (y: bool) : (i32, bool) = {1 = y, 0 = x}\n"
           "def p (r: (i32, bool)) = let {1 = b, 0 = a} = r in (b, a)\n"
           "def q (r: {0: i32, 1: f32}) = r.1\n"
           "def one = {0 = 1i32}\n");
    assert_ret("t", "(i32, bool)");
    Exp *b = find_decl("t")->body;
    assert_int_equal(b->kind, EX_TUPLE);
    assert_int_equal(b->nelems, 2);
    assert_string_equal(b->elems[0]->name.parts[0], "x");
    assert_string_equal(show(b->ty), "(i32, bool)");
    assert_ret("p", "(bool, i32)");
    Pat *pat = find_decl("p")->body->pat;
    assert_int_equal(pat->kind, P_TUPLE);
    assert_string_equal(pat->elems[1]->name, "b");
    assert_ret("q", "f32");
    assert_int_equal(find_decl("q")->param_tys[0]->kind, TY_TUPLE);
    assert_ret("one", "{0: i32}");
}

/* (`f` e) and (e `f`) resolve f like a variable. */
static void test_backtick_sections(void **state) {
    (void)state;
    accept("def f (x: i32) (y: i32) = x - y\n"
           "module m = { def h (a: f32) (b: f32) = a * b }\n"
           "def a = (`i32.max` 0)\n"
           "def b = (5 `f`)\n"
           "def c = let g (u: i64) (v: i64) = u * v in (`g` 2)\n"
           "def d = (`m.h` 1)\n");
    assert_ret("a", "i32 -> i32");
    Exp *a = find_decl("a")->body;
    assert_int_equal(a->kind, EX_SECTION);
    assert_int_equal(a->ref.kind, REF_NUMERIC);
    assert_int_equal(a->ref.numeric_type, PT_I32);
    assert_ret("b", "(y: i32) -> i32");
    assert_int_equal(find_decl("b")->body->ref.kind, REF_GLOBAL);
    assert_ptr_equal(find_decl("b")->body->ref.decl, find_decl("f"));
    assert_ret("c", "i64 -> i64");
    Exp *c = find_decl("c")->body;
    assert_int_equal(c->e2->ref.kind, REF_LOCAL);
    assert_int_equal(c->e2->ref.uid, c->fname_uid);
    assert_ret("d", "f32 -> f32");
    assert_int_equal(find_decl("d")->body->ref.kind, REF_GLOBAL);
    reject("def e = (`nosuch` 1)", 1, "Unknown name \"nosuch\"");
}

static const char *const SIZE_PRELUDE =
    "def iota (n: i64) : *[n]i64 = __intrinsic \"iota\"\n"
    "def replicate 't (n: i64) (x: t) : *[n]t = __intrinsic \"replicate\"\n"
    "def flatten [n] [m] 't (xs: [n][m]t) : [n * m]t = __intrinsic \"flatten\"\n"
    "def unflatten 't [n] [m] (xs: [n * m]t) : [n][m]t = __intrinsic \"unflatten\"\n"
    "def split [n] [m] 't (xs: [n + m]t) : ([n]t, [m]t) = (xs[0:n], xs[n:n + m] :> [m]t)\n";

/* Asserts that e is the size expression "l op r" over names with uids. */
static void assert_size_binop(const Size *s, const char *op, int l, int r) {
    assert_int_equal(s->kind, SZ_EXP);
    Exp *e = s->exp;
    assert_int_equal(e->kind, EX_BINOP);
    assert_string_equal(e->op, op);
    assert_string_equal(show(e->ty), "i64");
    assert_int_equal(e->e1->kind, EX_VAR);
    assert_int_equal(e->e1->ref.kind, REF_LOCAL);
    assert_int_equal(e->e1->ref.uid, l);
    assert_int_equal(e->e2->kind, EX_VAR);
    assert_int_equal(e->e2->ref.uid, r);
    assert_string_equal(show(e->e2->ty), "i64");
}

/* Sizes the arguments do not determine come from unifying size
 * expressions structurally (n + m with k + (n - k), n * m with a * b * c). */
static void test_size_expressions(void **state) {
    (void)state;
    int n = check_src_with(SIZE_PRELUDE,
                           "def s [n] (xs: [n]i32) (k: i64) = split (xs :> [k + (n - k)]i32)\n"
                           "def u [a] [b] [c] (f: [a * b * c]i32) = unflatten f\n"
                           "def uu [a] [b] [c] (f: [a * b * c]i32) = unflatten (unflatten f)\n"
                           "def fl [p] [q] (x: [p][q]i32) = flatten x\n"
                           "def un [p] [q] (xs: [p * q]f32) = unflatten xs\n"
                           "def cf = flatten (replicate 2 (replicate 3 0i32))\n"
                           "def dep (k: i64) = iota (k * 2)\n"
                           "def esc (k: i64) = let j = k + 1 in iota (j * 2)\n"
                           "def same (b: bool) (k: i64) = if b then iota (k + 1) else iota (k + 1)\n"
                           "def diff (b: bool) (k: i64) = if b then iota (k + 1) else iota (k + 2)\n");
    if (n) fail_msg("rejected:\n%s", errbuf);
    Decl *s = find_decl("s");
    Ty *r = s->ret_ty;
    assert_int_equal(r->kind, TY_TUPLE);
    assert_int_equal(r->elems[0]->dims[0].kind, SZ_VAR);
    assert_int_equal(r->elems[0]->dims[0].uid, param_uid_of(s, 1));
    assert_size_binop(&r->elems[1]->dims[0], "-", s->tparams[0].uid, param_uid_of(s, 1));
    Decl *u = find_decl("u");
    assert_string_equal(show(u->ret_ty), "[][c]i32");
    assert_size_binop(&u->ret_ty->dims[0], "*", u->tparams[0].uid, u->tparams[1].uid);
    assert_ret("uu", "[a][b][c]i32");
    Decl *fl = find_decl("fl");
    assert_size_binop(&fl->ret_ty->dims[0], "*", fl->tparams[0].uid, fl->tparams[1].uid);
    assert_ret("un", "[p][q]f32");
    assert_ret("cf", "[6]i32");
    Decl *dep = find_decl("dep");
    assert_int_equal(dep->ret_ty->dims[0].kind, SZ_EXP);
    assert_int_equal(dep->ret_ty->dims[0].exp->e1->ref.uid, param_uid_of(dep, 0));
    assert_int_equal(dep->ret_ty->dims[0].exp->e2->kind, EX_INT);
    assert_int_equal(find_decl("esc")->ret_ty->dims[0].kind, SZ_ANY);
    assert_int_equal(find_decl("same")->ret_ty->dims[0].kind, SZ_EXP);
    assert_int_equal(find_decl("diff")->ret_ty->dims[0].kind, SZ_ANY);
}

/* ---- Rejected programs --------------------------------------------------------- */

static void test_type_errors(void **state) {
    (void)state;
    reject("def b (x: i32) : f32 = x", 1, "test.fut:1:24: error: Couldn't match expected type f32 with actual type i32.");
    reject("def c = foo 1", 1, "1:9: error: Unknown name \"foo\".");
    reject("def d (x: i32) = if x then 1 else 2", 1, "1:21: error: Couldn't match expected type bool with actual type i32.");
    reject("def e = (1, 2).2", 1, "Type (i32, i32) has no field \"2\".");
    reject("def f (r: {a: i32}) = r.b", 1, "Type {a: i32} has no field \"b\".");
    reject("def g (x: i32) (y: i32) = x\ndef h = g 1 2 3", 1,
           "2:9: error: Cannot apply \"g\" to argument #3 \"3\", as \"g\" only takes 2 arguments.");
    reject("def j = 1 & 2.0", 1, "not an integer type");
    reject("def k = 1 + true", 1, "Couldn't match expected type i32 with actual type bool: bool is not a numeric type.");
    reject("def m = !1.5", 1, "Operator \"!\" requires bool or an integer type, but the operand has type f64.");
    reject("def n (x: i32) = x.foo", 1, "Cannot access field \"foo\" of a value of type i32, which is not a record.");
    reject("def o = 3 4", 1, "Cannot apply expression as function, as it has type: i32.");
    reject("def p (x: f32) = x == 1i32", 1, "Couldn't match expected type f32 with actual type i32.");
    reject("def q = [1, true]", 1, "1:13: error: Couldn't match expected type i32 with actual type bool");
    reject("def r = unknown.thing", 1, "Unknown name \"unknown\".");
    reject("def s = f32.popc 1", 1, "Unknown name \"f32.popc\".");
    reject("type t = [2]i32\ndef u : t = [1, 2, 3]", 1, "Sizes \"2\" and \"3\" do not match (expected type [2]i32, actual type [3]i32).");
}

static void test_size_errors(void **state) {
    (void)state;
    reject("def f [n][m] (xs: [n]i32) (ys: [m]i32) = zip xs ys", 1, "1:49: error: Cannot apply \"zip\" to \"ys\" (invalid type). Sizes \"n\" and \"m\" do not match");
    reject("def g = [1, 2] : [3]i32", 1, "Sizes \"3\" and \"2\" do not match");
    reject("def h [n] (xs: [n]i32) : [n]i32 = [1, 2, 3]", 1, "Sizes \"n\" and \"3\" do not match");
    reject("def i (xs: [k]i32) = xs", 1, "Unknown size \"k\".");
    reject("type sq [n] = [n][n]i32\ndef j (a: i64) (b: i64) : sq [] = replicate a (replicate b 0)", 1,
           "Sizes \"a\" and \"b\" do not match (expected type [a][a]i32, actual type *[a][b]i32).");
    reject("def k [n] (xs: [n]i32) : [n + 1]i32 = replicate (n + 2) xs[0]", 1,
           "Sizes \"n + 1\" and \"n + 2\" do not match");
    reject("def l [n] (xs: [n]i32) : [n]i32 = xs :> [n + 1]i32", 1, "Sizes \"n\" and \"n + 1\" do not match");
    reject("def twice '^a '^b (f: a -> b) (x: a) (y: a) : (b, b) = (f x, f y)\n"
           "def m (n: i64) = twice iota n (n + 1)", 1,
           "2:24: error: Cannot apply \"twice\" to \"iota\" (invalid type). Couldn't match expected type i64 -> b "
           "with actual type (n: i64) -> *[n]i64: parameter \"n\" used as a size would go out of scope");
    accept("type sq [n] = [n][n]i32\ndef j (a: i64) : sq [] = replicate a (replicate a 0)\n"
           "def k [n] (xs: [n]i32) : [n + 1]i32 = replicate (n + 1) xs[0]\n");
}

static void test_binding_errors(void **state) {
    (void)state;
    reject("def i (x: i32) (x: i32) = x", 1, "1:17: error: Name \"x\" also bound at 1:8.");
    reject("def m x = m x", 1, "Recursion is not supported: \"m\" refers to itself.");
    reject("def a = let (x, x) = (1, 2) in x", 1, "Name \"x\" also bound at 1:14.");
    reject("def f [m] (m: [m]i64) = m", 1, "1:12: error: Name \"m\" also bound at 1:7.");
    reject("def g 'a 'a (x: a) = x", 1, "1:10: error: Type parameter \"a\" also bound at 1:7.");
    reject("def b = __intrinsic \"map\"", 1, "only be used in the prelude");
    reject("def c (x: i32) : notype = x", 1, "Unknown type \"notype\".");
    reject("def d = m.x", 1, "Unknown name \"m\".");
    reject("module m = { def x = 1 }\ndef e = m.y", 1, "Unknown name \"m.y\".");
    reject("type t = i32\ntype t = f32", 1, "2:1: error: Duplicate definition of type \"t\".");
    assert_non_null(strstr(errbuf, "1:1: note: \"t\" was previously defined here"));
    reject("def x = 1\ndef y = 2\ndef x = 3", 1, "3:1: error: Duplicate definition of value \"x\".");
    reject("module m = { def a = 1 def a = 2 }", 1, "Duplicate definition of value \"a\".");
    accept("local def x = 1\ndef x = 2\ntype t = i32\ndef t = 3\nmodule m = { def x = 1 }\nmodule n = { def x = 2 }\n");
}

static void test_uniqueness_errors(void **state) {
    (void)state;
    reject("def a (xs: []i32) = xs with [0] = 1", 1, "1:21: error: Consuming variable \"xs\", which is not consumable.");
    reject("def b (xs: *[]i32) = let ys = xs with [0] = 1 in xs[0] + ys[0]", 1,
           "1:50: error: Using variable \"xs\", but this was consumed.");
    assert_non_null(strstr(errbuf, "1:31: note: \"xs\" was consumed here"));
    reject("def c (xs: *[]i32) = let v = xs[1:3] in let xs[0] = 2 in v[0]", 1,
           "Using variable \"v\", but \"xs\", which it aliases, was consumed.");
    reject("def d (xs: *[]i32) = map (\\i -> xs with [i] = 0) (iota 3)", 1,
           "Consuming variable \"xs\", which is bound outside the enclosing lambda");
    reject("def e (xs: []i32) : *[]i32 = xs", 1, "Unique-typed return value is aliased to \"xs\", which is not consumable.");
    reject("def f (xs: []i32) = let ys = xs in ys with [0] = 1", 1,
           "Consuming variable \"ys\", which aliases \"xs\", which is not consumable.");
    reject("def g (d: *[]i32) (is: []i64) (vs: []i32) = let r = scatter d is vs in (r, d[0])", 1,
           "Using variable \"d\", but this was consumed.");
    reject("def h (xs: []i32) = loop acc = xs for i < 3 do acc with [i] = 0", 1,
           "Consuming variable \"xs\", which is not consumable.");
    reject("def i (xs: []i32) (is: []i64) = scatter xs is (map i32.i64 is)", 1, "Consuming variable \"xs\", which is not consumable.");
    reject("def j (xs: *[]i32) = loop s = 0 for i < 3 do let ys = xs with [i] = 1 in s + ys[0]", 1,
           "1:55: error: Consuming variable \"xs\", which is bound outside the loop");
    reject("def k (xs: *[]i32) = loop s = 0 for x in xs do let ys = xs with [0] = x in s + ys[0]", 1,
           "Consuming variable \"xs\", which is bound outside the loop");
    reject("def f2 (a: []i32) (b: []i32) = a[0] + b[0]\ndef l (xs: *[]i32) = f2 xs (xs with [0] = 1)", 1,
           "2:22: error: Variable \"xs\" is consumed by this call or one of its arguments, but another argument uses it.");
    reject("def m (d: *[]i32) (is: []i64) = scatter d is d", 1, "Variable \"d\" is consumed by this call");
    reject("def n (xs: *[]i32) = let g = \\(i: i64) -> xs[i] in let ys = xs with [0] = 1 in g 0 + ys[0]", 1,
           "Using variable \"g\", but \"xs\", which it aliases, was consumed.");
    reject("def o (xs: *[]i32) = let g (i: i64) = xs[i] in let ys = xs with [0] = 1 in g 0 + ys[0]", 1,
           "Using variable \"g\", but \"xs\", which it aliases, was consumed.");
    reject("def p (xs: *[]i32) = let h = map (\\(i: i64) -> xs[i]) in let ys = xs with [0] = 1 in h (iota 2)", 1,
           "Using variable \"h\", but \"xs\", which it aliases, was consumed.");
}

/* Futhark's rules on consuming tuple components, functional arguments,
 * loop results and results that alias each other. */
static void test_uniqueness_rules(void **state) {
    (void)state;
    reject("def f (a: *[]i64, i: i64) : i64 = let a[i] = 7 in a[i]\n"
           "def g (n: i64) = let a = iota n in f (a, 1) + a[1]", 1,
           "2:47: error: Using variable \"a\", but this was consumed.");
    reject("def s (a: *[]i64) (i: i64) : []i64 = let a[i] = 0 in a\n"
           "def g (n: i64) = let a = iota n in map (s a) (iota n)", 1,
           "2:41: error: Argument of functional type (i: i64) -> []i64 contains consumption, which is not allowed: "
           "it could consume again each time it is applied (Futhark's error index: contains-consumption).");
    reject("def s (a: *[]i64) (i: i64) : []i64 = let a[i] = 0 in a\n"
           "def g (n: i64) = let h = s (iota n) in (h 0, h 1)", 1,
           "Let-bound expression of higher-order type (i: i64) -> []i64 contains consumption");
    reject("def g (a: *[][]f64) = map (\\(r: *[]f64) : *[]f64 -> r) a", 1,
           "parameters a and *[]f64 are incompatible regarding consuming their arguments.");
    reject("def f (xs: *[]f32) : f32 = xs[0]\ndef g : []f32 -> f32 = f", 1,
           "2:24: error: Couldn't match expected type []f32 -> f32 with actual type (xs: *[]f32) -> f32");
    reject("def g (n: i64) = let b = iota n in loop a = iota n for i < n do let a[i] = 0 in b", 1,
           "1:36: error: Return value for consuming loop parameter \"a\" aliases \"b\", which the next iteration would "
           "consume (Futhark's error index: consuming-loop-param-aliases).");
    reject("def g (n: i64) = loop (acc, arr) = (iota n, replicate n (iota n)) for i < n do\n"
           "  let arr[i] = acc in (arr[i], arr)", 1,
           "Return value for consuming loop parameter \"arr\" aliases previously returned value.");
    reject("def g (n: i64) = loop (x, y) = (iota n, iota n) for i < n do\n"
           "  let x[i] = 0 in (x, x)", 1,
           "Return value for loop parameter \"y\" aliases other consumed loop parameter.");
    reject("def d (x: *[]i32) : (*[]i32, *[]i32) = (x, x)", 1,
           "1:40: error: A unique-typed component of the return value is aliased to some other component.");
    reject("def d (x: (*[]i32, *[]i32)) : (*[]i32, *[]i32) = (x.0, x.0)", 1,
           "A unique-typed component of the return value is aliased to some other component.");
    reject("def d (x: *[]i32) : (*[]i32, []i32) = (x, x[1:])", 1, "aliased to some other component");
}

static void test_entry_errors(void **state) {
    (void)state;
    accept("entry n (x: {a: {b: i32}}) = x.a.b"); /* nested records: one parameter per leaf */
    reject("entry n (x: {a: i32 -> i32}) = x.a 1", 1, "Entry point functions may not be higher-order");
    accept("entry o (x: i32) = \\(y: i32) -> y + x"); /* eta-expanded: y is a parameter too */
    reject("entry o (x: i32) = (x, \\(y: i32) -> y + x)", 1,
           "Entry point functions may not be higher-order: \"o\" returns a value of type (i32, i32 -> i32).");
    reject("entry r = \\(f: i32 -> i32) -> f 1", 1, "Entry point functions may not be higher-order: \"r\" has a parameter");
    reject("entry p 'a (x: a) : a = x", 1, "Entry point functions may not be polymorphic: \"p\" has type parameter \"a\".");
    accept("def main (x: [](i32, i32)) = x"); /* arrays of tuples: one array per component */
    reject("entry q (f: i32 -> i32) = f 1", 1, "Entry point functions may not be higher-order: \"q\" has a parameter");
}

static void test_several_errors(void **state) {
    (void)state;
    reject("def a = foo\ndef b : i32 = true\ndef c = a + 1\ndef d = bar\n", 3, "Unknown name \"foo\".");
    assert_non_null(strstr(errbuf, "2:15: error: Couldn't match expected type i32 with actual type bool."));
    assert_non_null(strstr(errbuf, "4:9: error: Unknown name \"bar\"."));
}

/* tc_head shortens the chains of bound type variables it follows (path
 * compression), as tc_size_head does for size variables: an array literal
 * binds each element's type variable to the next one's, and following the
 * whole chain again for every element made checking quadratic. */
static void test_head_compresses_chains(void **state) {
    (void)state;
    enum { N = 1000 };
    memset(&tc, 0, sizeof tc);
    tc.a = &arena;
    SrcLoc loc = {0};
    Ty *vs[N];
    Size ss[N];
    for (int i = 0; i < N; i++) {
        vs[i] = tc_fresh(loc);
        ss[i] = tc_fresh_size();
    }
    Ty *end = tc_prim(PT_I32);
    for (int i = 0; i + 1 < N; i++) {
        tc.vars.items[vs[i]->var].bound = vs[i + 1];
        tc.svars.items[-ss[i].uid - 1] = (SVar){.bound = true, .val = ss[i + 1]};
    }
    tc.vars.items[vs[N - 1]->var].bound = end;
    tc.svars.items[-ss[N - 1].uid - 1] = (SVar){.bound = true, .val = tc_size_const(7)};
    assert_ptr_equal(tc_head(vs[0]), end);
    Size s = tc_size_head(ss[0]);
    assert_true(s.kind == SZ_CONST && s.c == 7);
    for (int i = 0; i < N; i++) {
        assert_ptr_equal(tc.vars.items[vs[i]->var].bound, end);
        Size v = tc.svars.items[-ss[i].uid - 1].val;
        assert_true(v.kind == SZ_CONST && v.c == 7);
    }
    vec_free(&tc.vars);
    vec_free(&tc.svars);
}

/* Hand-built ASTs with holes the parser could leave must not crash. */
static void test_malformed_ast(void **state) {
    (void)state;
    diag_reset();
    files[0] = parse("prelude.fut", PRELUDE);
    Program *p = NEW(&arena, Program);
    p->file = intern("bad.fut");
    p->ndecls = 4;
    p->decls = NEW_ARRAY(&arena, Decl *, 4);
    ExpKind kinds[4] = {EX_IF, EX_BINOP, EX_LOOP, EX_INDEX};
    for (int i = 0; i < 4; i++) {
        Decl *d = NEW(&arena, Decl);
        d->kind = D_VAL;
        d->name = intern(i == 0 ? "a" : i == 1 ? "b" : i == 2 ? "c" : "d");
        d->body = NEW(&arena, Exp);
        d->body->kind = kinds[i];
        d->body->nslice = 2;
        p->decls[i] = d;
    }
    files[1] = p;
    capture_begin();
    bool ok = check_programs(&arena, files, 2);
    capture_end();
    assert_false(ok);
    assert_int_equal(diag_error_count(), 4);
    assert_non_null(strstr(errbuf, "malformed"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_literal_defaults),
        cmocka_unit_test(test_literal_bounds),
        cmocka_unit_test(test_functions_and_generalisation),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_records_and_tuples),
        cmocka_unit_test(test_lambdas_and_operators),
        cmocka_unit_test(test_user_operator),
        cmocka_unit_test(test_local_bindings_and_uids),
        cmocka_unit_test(test_modules_and_numeric),
        cmocka_unit_test(test_type_abbreviations),
        cmocka_unit_test(test_uniqueness_accepted),
        cmocka_unit_test(test_entry_points),
        cmocka_unit_test(test_real_prelude),
        cmocka_unit_test(test_imports),
        cmocka_unit_test(test_tuple_records),
        cmocka_unit_test(test_backtick_sections),
        cmocka_unit_test(test_size_expressions),
        cmocka_unit_test(test_type_errors),
        cmocka_unit_test(test_size_errors),
        cmocka_unit_test(test_binding_errors),
        cmocka_unit_test(test_uniqueness_errors),
        cmocka_unit_test(test_uniqueness_rules),
        cmocka_unit_test(test_entry_errors),
        cmocka_unit_test(test_several_errors),
        cmocka_unit_test(test_head_compresses_chains),
        cmocka_unit_test(test_malformed_ast),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    arena_free(&arena);
    return rc;
}
