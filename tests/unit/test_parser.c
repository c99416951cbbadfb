/* Unit tests for the Bison parser (compiler/syntax/parser.y) and the AST
 * printer (ast.c): tree shapes of every expression, pattern, type and
 * declaration form, operator precedence and associativity (checked through
 * the fully parenthesised printer), indexing versus application, node and
 * error locations, error messages and recovery, parse/print round trips of
 * realistic programs, ty_print, and robustness against random bytes and
 * truncated files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "syntax/ast.h"

static Arena arena;

/* ---- Helpers ---- */

static Program *parse_ok(const char *text) {
    diag_reset();
    Program *p = parse_program(&arena, "t.fut", text);
    if (!p) fail_msg("parse failed: %s", text);
    return p;
}

/* The body of "def x = <text>". */
static Exp *exp_of(const char *text) {
    char *src = arena_printf(&arena, "def x = %s", text);
    Program *p = parse_ok(src);
    assert_int_equal(p->ndecls, 1);
    return p->decls[0]->body;
}

static const char *print_exp(const Exp *e) {
    Buf b = {0};
    ast_print_exp(&b, e);
    char *s = arena_strndup(&arena, b.data, b.len);
    buf_free(&b);
    return s;
}

/* The printed form of expression text. */
static const char *shape(const char *text) { return print_exp(exp_of(text)); }

static const char *print_prog(const Program *p) {
    Buf b = {0};
    ast_print_program(&b, p);
    char *s = arena_strndup(&arena, b.data ? b.data : "", b.len);
    buf_free(&b);
    return s;
}

/* Parses the len bytes of text with stderr captured: returns the program
 * (NULL on errors), the diagnostics text in *msgs and the error count in
 * *errors. */
static Program *parse_captured_n(const char *text, size_t len, const char **msgs, int *errors) {
    diag_reset();
    fflush(stderr);
    int saved = dup(2);
    FILE *tmp = tmpfile();
    dup2(fileno(tmp), 2);
    Program *p = parse_program_n(&arena, "e.fut", text, len);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    long n = ftell(tmp);
    char *buf = arena_alloc(&arena, (size_t)(n > 0 ? n : 0) + 1);
    rewind(tmp);
    size_t got = n > 0 ? fread(buf, 1, (size_t)n, tmp) : 0;
    buf[got] = 0;
    fclose(tmp);
    if (msgs) *msgs = buf;
    if (errors) *errors = diag_error_count();
    return p;
}

static Program *parse_captured(const char *text, const char **msgs, int *errors) {
    return parse_captured_n(text, strlen(text), msgs, errors);
}

#define assert_shape(text, expected) assert_string_equal(shape(text), expected)
#define assert_contains(hay, needle)                                            \
    do {                                                                        \
        if (!strstr((hay), (needle))) fail_msg("'%s' not in:\n%s", (needle), (hay)); \
    } while (0)

/* ---- Literals ---- */

static void test_literals(void **state) {
    Exp *e = exp_of("1i64");
    assert_int_equal(e->kind, EX_INT);
    assert_int_equal(e->ivalue, 1);
    assert_true(e->has_suffix);
    assert_int_equal(e->suffix, PT_I64);
    e = exp_of("0xFFu8");
    assert_int_equal(e->ivalue, 255);
    assert_int_equal(e->suffix, PT_U8);
    e = exp_of("2f32");
    assert_int_equal(e->kind, EX_FLOAT);
    assert_true(e->fvalue == 2.0);
    assert_int_equal(e->suffix, PT_F32);
    e = exp_of("0.5");
    assert_int_equal(e->kind, EX_FLOAT);
    assert_false(e->has_suffix);
    e = exp_of("'a'");
    assert_int_equal(e->kind, EX_INT);
    assert_int_equal(e->ivalue, 97);
    e = exp_of("\"hi\\n\"");
    assert_int_equal(e->kind, EX_STRING);
    assert_int_equal(e->strlen, 3);
    assert_memory_equal(e->str, "hi\n", 3);
    e = exp_of("true");
    assert_int_equal(e->kind, EX_BOOL);
    assert_true(e->bvalue);
    assert_false(exp_of("false")->bvalue);
    e = exp_of("-1");
    assert_int_equal(e->kind, EX_NEG);
    assert_int_equal(e->e1->kind, EX_INT);
    assert_shape("1_000_000", "1000000");
    assert_shape("0b101i8", "5i8");
    assert_shape("1e-3", "0.001");
    assert_shape("2f64", "2.0f64");
}

/* ---- Precedence and associativity ---- */

static void test_precedence(void **state) {
    assert_shape("a + b * c", "(a + (b * c))");
    assert_shape("a * b + c", "((a * b) + c)");
    assert_shape("a - b - c", "((a - b) - c)");
    assert_shape("a / b / c", "((a / b) / c)");
    assert_shape("a ** b * c", "((a ** b) * c)");
    assert_shape("a // b %% c", "((a // b) %% c)");
    assert_shape("a << 1 + 2", "(a << (1 + 2))");
    assert_shape("a >>> 1 & b", "((a >>> 1) & b)");
    assert_shape("x & y == z", "((x & y) == z)");
    assert_shape("a == b && c < d", "((a == b) && (c < d))");
    assert_shape("a || b && c", "(a || (b && c))");
    assert_shape("a && b || c", "((a && b) || c)");
    assert_shape("a + b |> f", "((a + b) |> f)");
    assert_shape("xs |> f |> g", "((xs |> f) |> g)");
    assert_shape("f <| g <| x", "(f <| (g <| x))");
    assert_shape("a |> f <| b", "(a |> (f <| b))");
    assert_shape("a || b |> f", "((a || b) |> f)");
    assert_shape("a != b", "(a != b)");
    assert_shape("a <= b + 1", "(a <= (b + 1))");
}

static void test_user_operators(void **state) {
    assert_shape("a +^ b * c", "(a +^ (b * c))");
    assert_shape("a *^ b +^ c", "((a *^ b) +^ c)");
    assert_shape("f >-> g >-> h", "((f >-> g) >-> h)");
    assert_shape("f >-> g + 1", "(f >-> (g + 1))");
    assert_shape("f <-< g", "(f <-< g)");
    assert_shape("a |>> b + c", "(a |>> (b + c))");
    assert_shape("a ==> b && c", "((a ==> b) && c)");
    assert_shape("x `f` y + 1", "(f x (y + 1))");
    assert_shape("x `M.f` y `g` z", "(g (M.f x y) z)");
    Exp *e = exp_of("x `f` y");
    assert_int_equal(e->kind, EX_APPLY);
    assert_int_equal(e->nelems, 2);
    assert_string_equal(e->e1->name.parts[0], "f");
    e = exp_of("a >-> b");
    assert_int_equal(e->kind, EX_BINOP);
    assert_true(e->op == intern(">->"));
}

static void test_prefix_and_application(void **state) {
    assert_shape("-x + y", "((-x) + y)");
    assert_shape("-f x", "(-(f x))");
    assert_shape("-x ** 2", "((-x) ** 2)");
    assert_shape("!a && b", "((!a) && b)");
    assert_shape("f x y + g z", "((f x y) + (g z))");
    assert_shape("f -1", "(f - 1)");
    assert_shape("f (-1)", "(f (-1))");
    assert_shape("f (g x) y", "(f (g x) y)");
    assert_shape("(f x) y", "((f x) y)");
    Exp *e = exp_of("f a b c");
    assert_int_equal(e->kind, EX_APPLY);
    assert_int_equal(e->nelems, 3);
    assert_int_equal(e->e1->kind, EX_VAR);
}

static void test_indexing_vs_application(void **state) {
    Exp *e = exp_of("f [1, 2]");
    assert_int_equal(e->kind, EX_APPLY);
    assert_int_equal(e->elems[0]->kind, EX_ARRAY);
    assert_int_equal(e->elems[0]->nelems, 2);
    e = exp_of("a[1]");
    assert_int_equal(e->kind, EX_INDEX);
    assert_int_equal(e->nslice, 1);
    assert_false(e->slice[0].is_slice);
    e = exp_of("xs[i][j]");
    assert_int_equal(e->kind, EX_INDEX);
    assert_int_equal(e->e1->kind, EX_INDEX);
    e = exp_of("(f x)[0]");
    assert_int_equal(e->kind, EX_INDEX);
    assert_int_equal(e->e1->kind, EX_APPLY);
    e = exp_of("f xs[0]");
    assert_int_equal(e->kind, EX_APPLY);
    assert_int_equal(e->elems[0]->kind, EX_INDEX);
    assert_shape("f a[i] [j]", "(f (a)[i] [j])");
    assert_shape("a[i, j]", "(a)[i, j]");
    assert_shape("r.xs[0]", "(r.xs)[0]");
}

static void test_slices(void **state) {
    Exp *e = exp_of("a[i:j:s]");
    assert_true(e->slice[0].is_slice);
    assert_non_null(e->slice[0].start);
    assert_non_null(e->slice[0].end);
    assert_non_null(e->slice[0].stride);
    e = exp_of("a[:, j]");
    assert_int_equal(e->nslice, 2);
    assert_true(e->slice[0].is_slice);
    assert_null(e->slice[0].start);
    assert_null(e->slice[0].end);
    assert_false(e->slice[1].is_slice);
    e = exp_of("a[::-1]");
    assert_null(e->slice[0].start);
    assert_null(e->slice[0].end);
    assert_int_equal(e->slice[0].stride->kind, EX_NEG);
    e = exp_of("a[i:]");
    assert_non_null(e->slice[0].start);
    assert_null(e->slice[0].end);
    assert_shape("a[1:n-1]", "(a)[1:(n - 1)]");
    assert_shape("a[:n]", "(a)[:n]");
}

/* ---- Expression forms ---- */

static void test_names_and_projections(void **state) {
    Exp *e = exp_of("f32.sqrt");
    assert_int_equal(e->kind, EX_VAR);
    assert_int_equal(e->name.nparts, 2);
    e = exp_of("t.0");
    assert_int_equal(e->name.nparts, 2);
    assert_string_equal(e->name.parts[1], "0");
    e = exp_of("(f x).y");
    assert_int_equal(e->kind, EX_PROJECT);
    assert_string_equal(e->field, "y");
    e = exp_of("(p).0.1");
    assert_int_equal(e->kind, EX_PROJECT);
    assert_string_equal(e->field, "1");
    assert_int_equal(e->e1->kind, EX_PROJECT);
    e = exp_of("xs[0].x");
    assert_int_equal(e->kind, EX_PROJECT);
    assert_int_equal(e->e1->kind, EX_INDEX);
}

static void test_tuples_records_arrays(void **state) {
    Exp *e = exp_of("(1, 2, 3)");
    assert_int_equal(e->kind, EX_TUPLE);
    assert_int_equal(e->nelems, 3);
    e = exp_of("()");
    assert_int_equal(e->kind, EX_TUPLE);
    assert_int_equal(e->nelems, 0);
    e = exp_of("(1)");
    assert_int_equal(e->kind, EX_INT);
    e = exp_of("{x = 1, y}");
    assert_int_equal(e->kind, EX_RECORD);
    assert_int_equal(e->nfields, 2);
    assert_string_equal(e->fields[1].name, "y");
    assert_int_equal(e->fields[1].exp->kind, EX_VAR);
    e = exp_of("[]");
    assert_int_equal(e->kind, EX_ARRAY);
    assert_int_equal(e->nelems, 0);
    e = exp_of("[[1, 2], [3, 4]]");
    assert_int_equal(e->nelems, 2);
    assert_int_equal(e->elems[1]->kind, EX_ARRAY);
}

static void test_ranges(void **state) {
    Exp *e = exp_of("a..b");
    assert_int_equal(e->kind, EX_RANGE);
    assert_int_equal(e->range, RANGE_INCL);
    assert_null(e->second);
    e = exp_of("0..<n");
    assert_int_equal(e->range, RANGE_UPTO);
    e = exp_of("n..>0");
    assert_int_equal(e->range, RANGE_DOWNTO);
    e = exp_of("a..b..c");
    assert_int_equal(e->range, RANGE_INCL);
    assert_non_null(e->second);
    e = exp_of("a..b..<c");
    assert_int_equal(e->range, RANGE_UPTO);
    assert_string_equal(e->second->name.parts[0], "b");
    e = exp_of("1..2...n");
    assert_int_equal(e->range, RANGE_INCL);
    assert_shape("0..<n+1", "(0 ..< (n + 1))");
}

static void test_lambdas_and_sections(void **state) {
    Exp *e = exp_of("\\x (y: i32) -> x + y");
    assert_int_equal(e->kind, EX_LAMBDA);
    assert_int_equal(e->nparams, 2);
    assert_int_equal(e->params[1]->kind, P_ASCRIBE);
    assert_null(e->ret);
    assert_int_equal(e->e1->kind, EX_BINOP);
    e = exp_of("\\x: i32 -> x");
    assert_non_null(e->ret);
    assert_int_equal(e->ret->kind, TE_NAME);
    e = exp_of("(+)");
    assert_int_equal(e->kind, EX_SECTION);
    assert_string_equal(e->op, "+");
    assert_null(e->e1);
    assert_null(e->e2);
    e = exp_of("(+ 1)");
    assert_null(e->e1);
    assert_int_equal(e->e2->kind, EX_INT);
    e = exp_of("(1 +)");
    assert_int_equal(e->e1->kind, EX_INT);
    assert_null(e->e2);
    e = exp_of("(-)");
    assert_string_equal(e->op, "-");
    e = exp_of("(- 1)");
    assert_int_equal(e->kind, EX_NEG);
    e = exp_of("(x -)");
    assert_int_equal(e->kind, EX_SECTION);
    e = exp_of("(.x)");
    assert_int_equal(e->kind, EX_PROJ_SECTION);
    assert_int_equal(e->npath, 1);
    e = exp_of("(.0)");
    assert_string_equal(e->path[0], "0");
    e = exp_of("(.a.b)");
    assert_int_equal(e->npath, 2);
    assert_shape("(|>)", "(|>)");
    assert_shape("(*)", "(*)");
}

static void test_if_let_loop(void **state) {
    Exp *e = exp_of("if c then a else b");
    assert_int_equal(e->kind, EX_IF);
    assert_shape("if c then a else b + 1", "(if c then a else (b + 1))");
    assert_shape("1 + if c then a else b", "(1 + (if c then a else b))");
    e = exp_of("let x = 1 in x + 1");
    assert_int_equal(e->kind, EX_LET);
    assert_int_equal(e->pat->kind, P_ID);
    assert_int_equal(e->e2->kind, EX_BINOP);
    e = exp_of("let x = 1 let y = 2 in y");
    assert_int_equal(e->e2->kind, EX_LET);
    e = exp_of("let f [n] 'a (x: [n]a) y : a = x in f");
    assert_int_equal(e->kind, EX_LETFUN);
    assert_string_equal(e->fname, "f");
    assert_int_equal(e->ntparams, 2);
    assert_int_equal(e->tparams[0].kind, TP_SIZE);
    assert_int_equal(e->tparams[1].kind, TP_TYPE);
    assert_int_equal(e->nparams, 2);
    assert_non_null(e->ret);
    e = exp_of("let a[i] = v in a");
    assert_int_equal(e->kind, EX_LET_UPDATE);
    assert_string_equal(e->fname, "a");
    assert_int_equal(e->nslice, 1);
    e = exp_of("let a[i:j] = v in a");
    assert_true(e->slice[0].is_slice);
    e = exp_of("let (a, b): (i32, i32) = t in a");
    assert_int_equal(e->pat->kind, P_ASCRIBE);
    assert_int_equal(e->pat->inner->kind, P_TUPLE);
    e = exp_of("loop acc = 0 for i < n do acc + i");
    assert_int_equal(e->kind, EX_LOOP);
    assert_int_equal(e->form, LOOP_FOR_UPTO);
    assert_string_equal(e->loop_var, "i");
    assert_int_equal(e->e1->kind, EX_INT);
    assert_int_equal(e->e3->kind, EX_VAR);
    assert_int_equal(e->e2->kind, EX_BINOP);
    e = exp_of("loop (x, y) = (0, 1) for (a, b) in zip xs ys do (x + a, y + b)");
    assert_int_equal(e->form, LOOP_FOR_IN);
    assert_int_equal(e->pat2->kind, P_TUPLE);
    assert_int_equal(e->e3->kind, EX_APPLY);
    e = exp_of("loop x while x < 10 do x * 2");
    assert_int_equal(e->form, LOOP_WHILE);
    assert_null(e->e1);
    assert_int_equal(e->e3->kind, EX_BINOP);
}

static void test_updates_ascriptions_assert(void **state) {
    Exp *e = exp_of("xs with [i] = v");
    assert_int_equal(e->kind, EX_UPDATE);
    assert_int_equal(e->nslice, 1);
    assert_shape("x with [i] = v + 1", "(x with [i] = (v + 1))");
    e = exp_of("xs with [i:j] = ys");
    assert_true(e->slice[0].is_slice);
    e = exp_of("r with a.b = 3");
    assert_int_equal(e->kind, EX_RECORD_UPDATE);
    assert_int_equal(e->npath, 2);
    assert_string_equal(e->path[1], "b");
    e = exp_of("r with x = 3");
    assert_int_equal(e->npath, 1);
    e = exp_of("x : i32");
    assert_int_equal(e->kind, EX_ASCRIBE);
    assert_int_equal(e->ret->kind, TE_NAME);
    assert_shape("a + b : i32", "((a + b) : i32)");
    e = exp_of("xs :> [n]i32");
    assert_int_equal(e->kind, EX_COERCE);
    assert_int_equal(e->ret->kind, TE_ARRAY);
    e = exp_of("assert (x > 0) (f x)");
    assert_int_equal(e->kind, EX_ASSERT);
    assert_int_equal(e->e1->kind, EX_BINOP);
    assert_int_equal(e->e2->kind, EX_APPLY);
    e = exp_of("#[unsafe] xs[i]");
    assert_int_equal(e->kind, EX_INDEX);
    e = exp_of("#[sequential] map f xs");
    assert_int_equal(e->kind, EX_APPLY);
}

/* ---- Types and patterns ---- */

static TypeExp *ret_of(const char *type) {
    Program *p = parse_ok(arena_printf(&arena, "def x : %s = y", type));
    return p->decls[0]->ret;
}

static void test_types(void **state) {
    TypeExp *t = ret_of("[n][m]f32");
    assert_int_equal(t->kind, TE_ARRAY);
    assert_int_equal(t->dim->kind, EX_VAR);
    assert_int_equal(t->elem->kind, TE_ARRAY);
    assert_int_equal(t->elem->elem->kind, TE_NAME);
    t = ret_of("[n*m]i32");
    assert_int_equal(t->dim->kind, EX_BINOP);
    t = ret_of("[]i32");
    assert_null(t->dim);
    t = ret_of("(i32, bool)");
    assert_int_equal(t->kind, TE_TUPLE);
    assert_int_equal(t->nelems, 2);
    t = ret_of("()");
    assert_int_equal(t->nelems, 0);
    t = ret_of("{x: f32, y: i32}");
    assert_int_equal(t->kind, TE_RECORD);
    assert_int_equal(t->nfields, 2);
    assert_string_equal(t->fields[1].name, "y");
    t = ret_of("a -> b -> c");
    assert_int_equal(t->kind, TE_ARROW);
    assert_int_equal(t->result->kind, TE_ARROW);
    t = ret_of("(n: i64) -> [n]t");
    assert_string_equal(t->pname, "n");
    assert_int_equal(t->result->kind, TE_ARRAY);
    t = ret_of("*[n]i32");
    assert_int_equal(t->kind, TE_UNIQUE);
    t = ret_of("?[k].[k]i32");
    assert_int_equal(t->kind, TE_EXIST);
    assert_int_equal(t->nexist, 1);
    assert_string_equal(t->exist_names[0], "k");
    t = ret_of("?[a][b].([a]i32, [b]i32)");
    assert_int_equal(t->nexist, 2);
    t = ret_of("vec [n] f32");
    assert_int_equal(t->kind, TE_NAME);
    assert_int_equal(t->nargs, 2);
    assert_true(t->args[0].is_size);
    assert_false(t->args[1].is_size);
    t = ret_of("m.t [] ([2]i32)");
    assert_int_equal(t->name.nparts, 2);
    assert_null(t->args[0].size);
    assert_int_equal(t->args[1].type->kind, TE_ARRAY);
}

static void test_patterns(void **state) {
    Program *p = parse_ok("def f _ (a, b) {x, y = (c, _)} () (z: i32) ((w)) = 0");
    Decl *d = p->decls[0];
    assert_int_equal(d->nparams, 6);
    assert_int_equal(d->params[0]->kind, P_WILD);
    assert_int_equal(d->params[1]->kind, P_TUPLE);
    assert_int_equal(d->params[2]->kind, P_RECORD);
    assert_int_equal(d->params[2]->fields[0].pat->kind, P_ID);
    assert_string_equal(d->params[2]->fields[0].pat->name, "x");
    assert_int_equal(d->params[2]->fields[1].pat->kind, P_TUPLE);
    assert_int_equal(d->params[3]->kind, P_TUPLE);
    assert_int_equal(d->params[3]->nelems, 0);
    assert_int_equal(d->params[4]->kind, P_ASCRIBE);
    assert_int_equal(d->params[5]->kind, P_ID);
}

/* ---- Declarations ---- */

static void test_value_declarations(void **state) {
    Program *p = parse_ok("def f [n] 'a '~b '^c (xs: [n]a) : a = xs[0]\n"
                          "entry main (x: i32) = x\n"
                          "let g = 1\n"
                          "def (+^) (x: i32) (y: i32) = x\n"
                          "def x >-> y = y\n"
                          "local def h = 2\n");
    assert_int_equal(p->ndecls, 6);
    Decl *d = p->decls[0];
    assert_int_equal(d->kind, D_VAL);
    assert_string_equal(d->name, "f");
    assert_int_equal(d->ntparams, 4);
    assert_int_equal(d->tparams[0].kind, TP_SIZE);
    assert_int_equal(d->tparams[1].kind, TP_TYPE);
    assert_int_equal(d->tparams[2].kind, TP_TYPE_SIZES);
    assert_int_equal(d->tparams[3].kind, TP_TYPE_LIFTED);
    assert_string_equal(d->tparams[3].name, "c");
    assert_int_equal(d->nparams, 1);
    assert_non_null(d->ret);
    assert_false(d->is_entry);
    assert_true(p->decls[1]->is_entry);
    assert_string_equal(p->decls[2]->name, "g");
    assert_int_equal(p->decls[2]->nparams, 0);
    assert_true(p->decls[3]->name == intern("+^"));
    assert_int_equal(p->decls[3]->nparams, 2);
    assert_true(p->decls[4]->name == intern(">->"));
    assert_int_equal(p->decls[4]->nparams, 2);
    assert_true(p->decls[5]->is_local);
    p = parse_ok("def main [n][m] (xs: [n][m]f32) = xs");
    assert_int_equal(p->decls[0]->ntparams, 2);
    assert_string_equal(p->decls[0]->tparams[1].name, "m");
}

static void test_other_declarations(void **state) {
    Program *p = parse_ok("type vec 't [n] = [n]t\n"
                          "type~ dyn = ?[k].[k]i32\n"
                          "type^ fn = i32 -> i32\n"
                          "import \"lib/github.com/diku-dk/sorts/radix_sort\"\n"
                          "import \"foo.fut\"\n"
                          "module m = { def a = 1 type t = i32 }\n"
                          "open m\n");
    assert_int_equal(p->ndecls, 7);
    Decl *d = p->decls[0];
    assert_int_equal(d->kind, D_TYPE);
    assert_int_equal(d->lifted, LIFT_NONE);
    assert_int_equal(d->ntparams, 2);
    assert_int_equal(d->tparams[0].kind, TP_TYPE);
    assert_int_equal(d->tparams[1].kind, TP_SIZE);
    assert_int_equal(d->ret->kind, TE_ARRAY);
    assert_int_equal(p->decls[1]->lifted, LIFT_SIZES);
    assert_int_equal(p->decls[2]->lifted, LIFT_FULL);
    assert_int_equal(p->decls[3]->kind, D_IMPORT);
    assert_string_equal(p->decls[3]->path, "lib/github.com/diku-dk/sorts/radix_sort");
    assert_string_equal(p->decls[4]->path, "foo");
    assert_int_equal(p->decls[5]->kind, D_MODULE);
    assert_int_equal(p->decls[5]->mexp->kind, ME_STRUCT);
    assert_int_equal(p->decls[5]->mexp->ndecls, 2);
    assert_int_equal(p->decls[5]->mexp->decls[1]->kind, D_TYPE);
    assert_int_equal(p->decls[6]->kind, D_OPEN);
    assert_int_equal(p->decls[6]->mexp->kind, ME_NAME);
    assert_string_equal(p->decls[6]->mexp->name.parts[0], "m");
    assert_int_equal(p->nimports, 2);
}

static void test_docs_and_attributes(void **state) {
    Program *p = parse_ok("-- | Adds one.\n-- Really.\ndef inc x = x + 1\n"
                          "-- | Inlined.\n#[inline]\n#[noinline]\ndef g = 1\n"
                          "-- ordinary comment\ndef h = 2\n");
    assert_string_equal(p->decls[0]->doc, "Adds one.\nReally.");
    assert_string_equal(p->decls[1]->doc, "Inlined.");
    assert_int_equal(p->decls[1]->nattrs, 2);
    assert_string_equal(p->decls[1]->attrs[0].text, "inline");
    assert_string_equal(p->decls[1]->attrs[1].text, "noinline");
    assert_null(p->decls[2]->doc);
    assert_int_equal(p->decls[2]->nattrs, 0);
}

/* ---- Locations ---- */

static void test_locations(void **state) {
    Program *p = parse_ok("def f (x: i32) =\n  x + g 10\n\ndef y = 1");
    Decl *d = p->decls[0];
    assert_string_equal(d->loc.file, "t.fut");
    assert_int_equal(d->loc.line, 1);
    assert_int_equal(d->loc.col, 1);
    assert_int_equal(d->loc.end_line, 2);
    assert_int_equal(d->loc.end_col, 11);
    Exp *e = d->body;
    assert_int_equal(e->loc.line, 2);
    assert_int_equal(e->loc.col, 3);
    assert_int_equal(e->loc.end_col, 11);
    assert_int_equal(e->e1->loc.col, 3);
    assert_int_equal(e->e1->loc.end_col, 4);
    assert_int_equal(e->e2->loc.col, 7);
    assert_int_equal(e->e2->elems[0]->loc.col, 9);
    Pat *pt = d->params[0];
    assert_int_equal(pt->loc.col, 8);
    assert_int_equal(pt->type->loc.col, 11);
    assert_int_equal(pt->type->loc.end_col, 14);
    assert_int_equal(p->decls[1]->loc.line, 4);
}

/* ---- Errors ---- */

/* A syntax error notes the "let" without "in" or the bracket without its
 * closer that it most likely comes from. */
static void test_unclosed_notes(void **state) {
    const char *msgs;
    int errors;
    parse_captured("def f (x: i32) =\n  let y = x + 1\n  y\n\ndef g = 2\n", &msgs, &errors);
    assert_contains(msgs, "e.fut:5:1: error: Unexpected \"def\", expected 'in'");
    assert_contains(msgs, "e.fut:2:3: note: this 'let' has no 'in'");
    parse_captured("def f (x: i32) =\n  (x + (1 * 2)\n\ndef g = 2\n", &msgs, &errors);
    assert_contains(msgs, "e.fut:2:3: note: this '(' is not closed");
    /* the loop's "for ... in" and "for ... do" close nothing else */
    parse_captured("def f (xs: []i32) =\n  let a = loop s = 0 for x in xs do s + x\n"
                   "  let b = loop s = 0 for i < 3 do s + i\n  let c = [a,\n  b\n", &msgs, &errors);
    assert_contains(msgs, "e.fut:4:11: note: this '[' is not closed");
    parse_captured("def f = g (let a = 1 in a) {x = (let b = 2\n", &msgs, &errors);
    assert_contains(msgs, "e.fut:1:34: note: this 'let' has no 'in'");
    parse_captured("def f = xs[1:(2\n", &msgs, &errors);
    assert_contains(msgs, "e.fut:1:14: note: this '(' is not closed");
    /* a wrong closer: no note claims the opener is unclosed */
    parse_captured("def f = (1, 2]\n", &msgs, &errors);
    assert_contains(msgs, "e.fut:1:14: error: Unexpected \"]\"");
    assert_contains(msgs, "e.fut:1:9: note: this '(' is not closed");
}

static void test_error_messages(void **state) {
    const char *msgs;
    int errors;
    Program *p = parse_captured("def f x = if then 1 else 2\n", &msgs, &errors);
    assert_null(p);
    assert_int_equal(errors, 1);
    assert_contains(msgs, "e.fut:1:14: error: Unexpected \"then\", expected expression");
    parse_captured("def f = if x else 2\n", &msgs, &errors);
    assert_contains(msgs, "e.fut:1:14: error: Unexpected \"else\", expected 'then'");
    parse_captured("def f = let x = 1\n", &msgs, &errors);
    assert_contains(msgs, "e.fut:2:1: error: Unexpected end of file, expected 'in'");
    parse_captured("def f = (1, 2\n", &msgs, &errors);
    assert_contains(msgs, "expected ')' or ','");
    parse_captured("def = 1", &msgs, &errors);
    assert_contains(msgs, "e.fut:1:5: error: Unexpected \"=\"");
    parse_captured("def f = 1e39f32", &msgs, &errors);
    assert_int_equal(errors, 1);
    assert_contains(msgs, "e.fut:1:9: error: literal 1e39f32 is out of bounds");
    parse_captured("def f = \"abc\n", &msgs, &errors);
    assert_contains(msgs, "e.fut:1:9: error: unterminated string literal");
    parse_captured("def f = 1 $ 2", &msgs, &errors);
    assert_contains(msgs, "e.fut:1:11: error: Unexpected character '$'");
    parse_captured("def f = match x case _ -> 1\ndef g = (", &msgs, &errors);
    assert_int_equal(errors, 1); /* a match parses; the error is the parenthesis */
    assert_contains(msgs, "e.fut:2:10: error: Unexpected end of file, expected ')'");
    parse_captured("def f = match x case -> 1\n", &msgs, &errors);
    assert_int_equal(errors, 1);
    assert_contains(msgs, "e.fut:1:22: error: Unexpected \"->\"");
    p = parse_captured("type t = #a | #b i32\ndef f = #a\n", &msgs, &errors);
    assert_non_null(p);
    assert_int_equal(errors, 0);
}

/* A NUL byte is an error where it stands, also in a comment or a literal,
 * never the end of the file. */
static void test_nul_bytes(void **state) {
    const char *msgs;
    int errors;
    static const char code[] = "def main (x: i32) = x\0 garbage";
    assert_null(parse_captured_n(code, sizeof code - 1, &msgs, &errors));
    assert_contains(msgs, "e.fut:1:22: error: Unexpected byte 0x00");
    static const char comment[] = "-- a\0b\ndef f = 1";
    assert_null(parse_captured_n(comment, sizeof comment - 1, &msgs, &errors));
    assert_contains(msgs, "e.fut:1:5: error: Unexpected byte 0x00");
    static const char string[] = "def s = \"a\0b\"";
    assert_null(parse_captured_n(string, sizeof string - 1, &msgs, &errors));
    assert_contains(msgs, "e.fut:1:11: error: Unexpected byte 0x00");
    static const char ok[] = "def f = 1\n";
    assert_non_null(parse_captured_n(ok, sizeof ok - 1, &msgs, &errors));
}

static void test_error_recovery(void **state) {
    const char *msgs;
    int errors;
    Program *p = parse_captured("def a = 1 +\n"
                                "def b = (]\n"
                                "def ok = let x = 1 in x\n"
                                "def c x = if x then\n"
                                "type t = [n\n"
                                "let d = 2\n"
                                "entry e = )\n",
                                &msgs, &errors);
    assert_null(p);
    assert_int_equal(errors, 5);
    assert_contains(msgs, "e.fut:2:1: error: Unexpected \"def\"");
    assert_contains(msgs, "e.fut:2:10: error: Unexpected \"]\"");
    assert_contains(msgs, "e.fut:5:1: error: Unexpected \"type\"");
    assert_contains(msgs, "e.fut:6:1: error: Unexpected \"let\"");
    assert_contains(msgs, "e.fut:7:11: error: Unexpected \")\"");
    /* An indented let inside a broken definition is not a resync point. */
    p = parse_captured("def a = ) +\n  let x = 1 in x\ndef b = ]\n", &msgs, &errors);
    assert_int_equal(errors, 2);
    assert_contains(msgs, "e.fut:3:9: error: Unexpected \"]\"");
    /* Errors inside a module. */
    p = parse_captured("module m = { def a = ) def b = 1 }\ndef c = ]\n", &msgs, &errors);
    assert_int_equal(errors, 2);
    p = parse_captured("module m = { def a = 1\n", &msgs, &errors);
    assert_int_equal(errors, 1);
    assert_contains(msgs, "expected declaration or '}'");
}

/* ---- Round trips ---- */

static const char *const programs[] = {
    "-- | Matrix multiplication.\n"
    "def matmul [n][m][p] (xss: [n][m]f32) (yss: [m][p]f32) : [n][p]f32 =\n"
    "  map (\\xs -> map (\\ys -> f32.sum (map2 (*) xs ys)) (transpose yss)) xss\n"
    "\n"
    "entry main [n] (a: [n][n]f32) (b: [n][n]f32) = matmul a b\n",

    "type complex = (f32, f32)\n"
    "def mandel (depth: i32) (c: complex) : i32 =\n"
    "  let (cr, ci) = c\n"
    "  let (_, _, i) =\n"
    "    loop (zr, zi, i) = (0f32, 0f32, 0) while i < depth && zr*zr + zi*zi < 4f32 do\n"
    "      (zr*zr - zi*zi + cr, 2f32*zr*zi + ci, i + 1)\n"
    "  in i\n"
    "entry main (w: i64) (h: i64) : [h][w]i32 =\n"
    "  tabulate_2d h w (\\y x -> mandel 255 (f32.i64 x / f32.i64 w, f32.i64 y / f32.i64 h))\n",

    "import \"lib/github.com/diku-dk/sorts/radix_sort\"\n"
    "module m = {\n"
    "  type t = {x: f32, y: f32}\n"
    "  def add (a: t) (b: t) : t = {x = a.x + b.x, y = a.y + b.y}\n"
    "}\n"
    "open m\n"
    "def (<+>) (a: t) (b: t) = add a b\n"
    "def norm p = f32.sqrt (p.x ** 2 + p.y ** 2)\n"
    "#[noinline]\n"
    "def step [n] (ps: *[n]t) (i: i64) : *[n]t =\n"
    "  let ps[i] = ps[i] <+> {x = 1, y = -1}\n"
    "  in ps with [0] = (ps[1]) with x = 0\n",

    "def scan_exclusive 't [n] (op: t -> t -> t) (ne: t) (xs: [n]t) : [n]t =\n"
    "  let ys = scan op ne xs\n"
    "  in map (\\i -> if i == 0 then ne else ys[i-1]) (iota n)\n"
    "def filter_pos (xs: []i32) : ?[k].[k]i32 = filter (> 0) xs\n"
    "def rev 'a (xs: []a) = xs[::-1]\n"
    "def sl [n] (xs: [n]i32) = (xs[1:n-1], xs[:2], xs[::2], xs[:, 0] :> [2]i32)\n"
    "def sects = (map (.0) ps, map (.x.y) qs, (+ 1), (2 *), (-), (|>))\n"
    "def loops (xs: []i64) =\n"
    "  let a = loop acc = 0 for x in xs do acc + x\n"
    "  let b = loop s = 1 for i < 10 do s * 2\n"
    "  let c = loop (i, j) = (0, 1) while i < 100 do (i + j, j)\n"
    "  let f 'q (x: q) (y: i64) : i64 = y\n"
    "  in assert (a > 0) (f () (a + b + c.0 + reduce (+) 0 (0..<10) + i64.sum (1..2...9)))\n"
    "def chars = ('a', '\\n', \"str\\t\\\"q\\\"\", 0xffu8, 1_000i64, 1e10, 2.5f32, true, !false)\n"
    "def ops x y = (x >-> y, x <-< y, x |> y <| x, x `max` y, x >>> 2, x // y %% 3, x & y ^ x | y)\n"
    "entry e (a: f64) : f64 = -a ** 2 + f64.exp (-a)\n",

    "type matrix [n][m] = [n][m]i32\n"
    "type pair 'a 'b = {0: a, 1: b,}\n"
    "def trace [n] (a: matrix [n][n]) (p: pair i32 (matrix [][2])) : i32 =\n"
    "  let {0 = x, 1 = {y: i32, z},} = ({0 = 1, 1 = {y = 2, z = 3}}, p with 0 = 4)\n"
    "  in (map (`i32.max` 0) [x, y, z,], map (5 `i32.min`) [1], (`max`), map (.[0,]) [a]).0\n",
};

static void test_round_trip(void **state) {
    for (size_t i = 0; i < sizeof programs / sizeof programs[0]; i++) {
        Program *p = parse_ok(programs[i]);
        const char *once = print_prog(p);
        Program *q = parse_program(&arena, "printed.fut", once);
        if (!q) fail_msg("printed program %zu does not parse:\n%s", i, once);
        const char *twice = print_prog(q);
        assert_string_equal(once, twice);
        assert_int_equal(p->ndecls, q->ndecls);
    }
}

static void test_printer_output(void **state) {
    Program *p = parse_ok("-- | Doc.\n#[inline] local def (+^) 'a [n] (x: *[n]a) (y: [n]a) : [n]a = x\n"
                          "type^ f = (n: i64) -> ?[k].[k]i32\nmodule m = { def a = 1 }\nopen m\n");
    assert_string_equal(print_prog(p),
                        "-- | Doc.\n#[inline]\nlocal def (+^) 'a [n] (x : (*([n]a))) (y : ([n]a)) : ([n]a) = x\n"
                        "\ntype^ f = ((n: i64) -> (?[k].([k]i32)))\n"
                        "\nmodule m = {\n  def a = 1\n}\n\nopen m\n");
    Buf b = {0};
    ast_print_type_exp(&b, p->decls[1]->ret);
    assert_string_equal(b.data, "((n: i64) -> (?[k].([k]i32)))");
    buf_free(&b);
}


/* ---- Forms added for real programs ---- */

static const char *print_type_text(const TypeExp *t) {
    Buf b = {0};
    ast_print_type_exp(&b, t);
    char *s = arena_strndup(&arena, b.data, b.len);
    buf_free(&b);
    return s;
}

/* Size and type arguments of parametric type abbreviations. */
static void test_type_arguments(void **state) {
    TypeExp *t = ret_of("matrix [n][n]");
    assert_int_equal(t->kind, TE_NAME);
    assert_int_equal(t->nargs, 2);
    assert_true(t->args[0].is_size && t->args[1].is_size);
    assert_int_equal(t->args[1].size->kind, EX_VAR);
    assert_string_equal(print_type_text(t), "(matrix [n] [n])");
    t = ret_of("matrix [][2]");
    assert_null(t->args[0].size);
    assert_int_equal(t->args[1].size->kind, EX_INT);
    t = ret_of("vec [n]f32");
    assert_int_equal(t->nargs, 2);
    assert_true(t->args[0].is_size);
    assert_false(t->args[1].is_size);
    assert_string_equal(print_type_text(t), "(vec [n] f32)");
    t = ret_of("pair i32 bool");
    assert_int_equal(t->nargs, 2);
    assert_false(t->args[0].is_size || t->args[1].is_size);
    t = ret_of("two_vecs [n*2][m] (i32, bool) -> m.t [k] f32");
    assert_int_equal(t->kind, TE_ARROW);
    assert_int_equal(t->param->nargs, 3);
    assert_int_equal(t->param->args[0].size->kind, EX_BINOP);
    assert_int_equal(t->param->args[2].type->kind, TE_TUPLE);
    assert_int_equal(t->result->nargs, 2);
    t = ret_of("[3](matrix [n][m])");
    assert_int_equal(t->kind, TE_ARRAY);
    assert_int_equal(t->elem->nargs, 2);
    Program *p = parse_ok("type matrix [n][m] = [n][m]i32\n"
                          "def trace [n] (a: matrix [n][n]) : i32 = a[0, 0]\n");
    assert_int_equal(p->decls[0]->ntparams, 2);
    assert_int_equal(p->decls[1]->params[0]->type->nargs, 2);
}

/* Numeric field names in record expressions, patterns, types, updates. */
static void test_numeric_fields(void **state) {
    Exp *e = exp_of("{0 = x, 1 = y}");
    assert_int_equal(e->kind, EX_RECORD);
    assert_int_equal(e->nfields, 2);
    assert_string_equal(e->fields[0].name, "0");
    assert_string_equal(e->fields[1].name, "1");
    assert_ptr_equal(e->fields[1].name, intern("1"));
    assert_shape("{0 = x, 1 = y, z}", "{0 = x, 1 = y, z = z}");
    assert_shape("{10 = 1 + 2}", "{10 = (1 + 2)}");
    e = exp_of("let {0 = a, 1 = (b: i32)} = t in a");
    assert_int_equal(e->pat->kind, P_RECORD);
    assert_string_equal(e->pat->fields[0].name, "0");
    assert_string_equal(e->pat->fields[1].name, "1");
    assert_int_equal(e->pat->fields[1].pat->kind, P_ASCRIBE);
    TypeExp *t = ret_of("{0: i32, 1: bool}");
    assert_int_equal(t->kind, TE_RECORD);
    assert_string_equal(t->fields[1].name, "1");
    assert_string_equal(print_type_text(t), "{0: i32, 1: bool}");
    e = exp_of("t with 1 = v");
    assert_int_equal(e->kind, EX_RECORD_UPDATE);
    assert_int_equal(e->npath, 1);
    assert_string_equal(e->path[0], "1");
    e = exp_of("t with 0.x = v");
    assert_int_equal(e->npath, 2);
    assert_string_equal(e->path[0], "0");
    assert_string_equal(e->path[1], "x");
    assert_shape("t with 0.x = v", "(t with 0.x = v)");
    /* {x: t} in a pattern binds x with an ascription. */
    e = exp_of("let {x: i32, y} = r in x");
    assert_int_equal(e->pat->fields[0].pat->kind, P_ASCRIBE);
    assert_string_equal(e->pat->fields[0].pat->inner->name, "x");
    assert_int_equal(e->pat->fields[1].pat->kind, P_ID);
    const char *msgs;
    int errors;
    assert_null(parse_captured("def f = {0x1 = 2}", &msgs, &errors));
    assert_contains(msgs, "e.fut:1:10: error: field name '0x1' must be an identifier or a plain decimal number");
    assert_null(parse_captured("def f = {1i32 = 2}", &msgs, &errors));
    assert_contains(msgs, "field name '1i32'");
    assert_null(parse_captured("def f {0: i32} = 1", &msgs, &errors));
    assert_contains(msgs, "numeric field name cannot be bound");
    assert_null(parse_captured("def f = {0}", &msgs, &errors));
}

/* Sections of backticked functions: op is the qualified name's text. */
static void test_backtick_sections(void **state) {
    Exp *e = exp_of("(`i32.max` 0)");
    assert_int_equal(e->kind, EX_SECTION);
    assert_ptr_equal(e->op, intern("i32.max"));
    assert_null(e->e1);
    assert_int_equal(e->e2->kind, EX_INT);
    e = exp_of("(5 `i32.min`)");
    assert_int_equal(e->kind, EX_SECTION);
    assert_string_equal(e->op, "i32.min");
    assert_int_equal(e->e1->kind, EX_INT);
    assert_null(e->e2);
    e = exp_of("(`f`)");
    assert_int_equal(e->kind, EX_SECTION);
    assert_ptr_equal(e->op, intern("f"));
    assert_null(e->e1);
    assert_null(e->e2);
    assert_shape("(`i32.max` 0)", "(`i32.max` 0)");
    assert_shape("(x + 1 `f`)", "((x + 1) `f`)");
    assert_shape("(`f` g x)", "(`f` (g x))");
    assert_shape("map (`M.f` 1) xs", "(map (`M.f` 1) xs)");
    /* Backtick infix application is unchanged. */
    assert_shape("(a `f` b)", "(f a b)");
}

/* Index sections (.[i]) become \a -> a[i] with a non-capturing a. */
static void test_index_sections(void **state) {
    Exp *e = exp_of("(.[i])");
    assert_int_equal(e->kind, EX_LAMBDA);
    assert_int_equal(e->nparams, 1);
    assert_int_equal(e->params[0]->kind, P_ID);
    assert_int_equal(e->e1->kind, EX_INDEX);
    assert_int_equal(e->e1->e1->kind, EX_VAR);
    assert_ptr_equal(e->e1->e1->name.parts[0], e->params[0]->name);
    assert_int_equal(e->e1->nslice, 1);
    assert_string_equal(print_exp(e), "(\\ arr -> (arr)[i])");
    assert_shape("(.[i, 1:, ::-1])", "(\\ arr -> (arr)[i, 1:, ::(-1)])");
    assert_shape("(.[arr])", "(\\ arr' -> (arr')[arr])");
    assert_shape("(.[f (\\arr -> arr')])", "(\\ arr'' -> (arr'')[(f (\\ arr -> arr'))])");
    assert_shape("map (.[0]) xss", "(map (\\ arr -> (arr)[0]) xss)");
}

/* Trailing commas, which Futhark allows in every comma-separated list. */
static void test_trailing_commas(void **state) {
    assert_shape("[1, 2,]", "[1, 2]");
    assert_shape("(1, 2,)", "(1, 2)");
    assert_shape("{x = 1, y,}", "{x = 1, y = y}");
    assert_shape("a[i, 1:,]", "(a)[i, 1:]");
    assert_shape("a with [i,] = v", "(a with [i] = v)");
    assert_shape("let a[i,] = v in a", "(let a[i] = v in a)");
    assert_shape("(.[i,])", "(\\ arr -> (arr)[i])");
    Exp *e = exp_of("let (a, b,) = t in a");
    assert_int_equal(e->pat->nelems, 2);
    e = exp_of("let {a, b = c,} = r in a");
    assert_int_equal(e->pat->nfields, 2);
    TypeExp *t = ret_of("(i32, bool,)");
    assert_int_equal(t->nelems, 2);
    t = ret_of("{x: i32, y: f32,}");
    assert_int_equal(t->nfields, 2);
    /* A one-element tuple stays an error, as do bare commas. */
    const char *msgs;
    int errors;
    assert_null(parse_captured("def f = (1,)", &msgs, &errors));
    assert_null(parse_captured("def f = [,]", &msgs, &errors));
    assert_null(parse_captured("def f = {,}", &msgs, &errors));
    assert_null(parse_captured("def f = [1,,]", &msgs, &errors));
    assert_null(parse_captured("def f : (i32,) = 1", &msgs, &errors));
}

/* let [n][m] p = e keeps its size binders (in tparams) with their names
 * and places; attributes stay on the expressions and patterns they
 * precede, outermost first. */
static void test_size_binders_and_attributes(void **state) {
    Exp *e = exp_of("let [n][m] (xs: [n][m]i32) = ys in n");
    assert_int_equal(e->kind, EX_LET);
    assert_int_equal(e->ntparams, 2);
    assert_string_equal(e->tparams[0].name, "n");
    assert_int_equal(e->tparams[0].kind, TP_SIZE);
    assert_string_equal(e->tparams[1].name, "m");
    assert_int_equal(e->tparams[1].loc.col, 17);
    assert_string_equal(shape("let [n][m] (xs: [n][m]i32) = ys in n"), "(let [n][m] (xs : ([n]([m]i32))) = ys in n)");
    e = exp_of("#[unroll] #[incremental_flattening(only_inner)] loop x = 0 for i < 3 do x + i");
    assert_int_equal(e->kind, EX_LOOP);
    assert_int_equal(e->nattrs, 2);
    assert_string_equal(e->attrs[0].text, "unroll");
    assert_string_equal(e->attrs[1].text, "incremental_flattening(only_inner)");
    e = exp_of("let #[a] #[b] (x: i32) = 1 in x");
    assert_int_equal(e->pat->nattrs, 2);
    assert_string_equal(e->pat->attrs[1].text, "b");
}

/* Module types, parametric modules, applications, imports as modules and
 * local opens. */
static void test_modules(void **state) {
    Program *p = parse_ok("module type S = { type t 'a type~ u val f [n] 'a : [n]a -> t a val (+) : u -> u -> u\n"
                          "  module M : { val x : i32 } include T with u = i32 #[doc] val g : u }\n"
                          "module F (A: S) (B: S with M.t 'a = [2]a) : S = { open A }\n"
                          "module G = F X {} : (P: S) -> S with u = bool\n"
                          "module H = \\(P: S) : S -> P\n"
                          "local open F (import \"lib\") import \"other\"\n"
                          "def g x = M.N.(x + y)\n");
    assert_int_equal(p->ndecls, 7);
    ModTypeExp *s = p->decls[0]->mtype;
    assert_int_equal(p->decls[0]->kind, D_MODTYPE);
    assert_int_equal(s->kind, MT_SPECS);
    assert_int_equal(s->nspecs, 7);
    assert_int_equal(s->specs[0]->kind, SP_TYPE);
    assert_null(s->specs[0]->type);
    assert_int_equal(s->specs[0]->ntparams, 1);
    assert_int_equal(s->specs[1]->lifted, LIFT_SIZES);
    assert_int_equal(s->specs[2]->kind, SP_VAL);
    assert_int_equal(s->specs[2]->ntparams, 2);
    assert_string_equal(s->specs[3]->name, "+");
    assert_int_equal(s->specs[4]->kind, SP_MODULE);
    assert_int_equal(s->specs[5]->kind, SP_INCLUDE);
    assert_int_equal(s->specs[5]->mtype->kind, MT_WITH);
    assert_string_equal(s->specs[6]->name, "g");
    ModExp *f = p->decls[1]->mexp;
    assert_int_equal(f->kind, ME_LAMBDA);
    assert_string_equal(f->pname, "A");
    assert_null(f->result);
    assert_int_equal(f->e1->kind, ME_LAMBDA);
    assert_int_equal(f->e1->mtype->kind, MT_WITH);
    assert_int_equal(f->e1->mtype->name.nparts, 2);
    assert_int_equal(f->e1->mtype->ntparams, 1);
    assert_int_equal(f->e1->result->kind, MT_NAME);
    assert_int_equal(f->e1->e1->kind, ME_STRUCT);
    ModExp *g = p->decls[2]->mexp;
    assert_int_equal(g->kind, ME_ASCRIBE);
    assert_int_equal(g->mtype->kind, MT_ARROW);
    assert_string_equal(g->mtype->pname, "P");
    assert_int_equal(g->mtype->res->kind, MT_WITH); /* the with binds tighter than the arrow */
    assert_int_equal(g->e1->kind, ME_APPLY);
    assert_int_equal(g->e1->e1->kind, ME_APPLY);
    assert_int_equal(g->e1->e2->kind, ME_STRUCT);
    assert_int_equal(p->decls[3]->mexp->kind, ME_LAMBDA);
    assert_int_equal(p->decls[3]->mexp->result->kind, MT_NAME);
    Decl *o = p->decls[4];
    assert_int_equal(o->kind, D_OPEN);
    assert_true(o->is_local);
    assert_int_equal(o->mexp->e2->kind, ME_IMPORT);
    assert_string_equal(o->mexp->e2->import->path, "lib");
    assert_int_equal(p->decls[5]->kind, D_IMPORT);
    assert_int_equal(p->nimports, 2);
    Exp *e = p->decls[6]->body;
    assert_int_equal(e->kind, EX_OPEN);
    assert_int_equal(e->name.nparts, 2);
    assert_int_equal(e->e1->kind, EX_BINOP);
    const char *once = print_prog(p);
    Program *q = parse_program(&arena, "printed.fut", once);
    if (!q) fail_msg("the printed modules do not parse:\n%s", once);
    assert_string_equal(once, print_prog(q));
}

/* ---- ty_print ---- */

static void test_ty_print(void **state) {
    Ty f32 = {.kind = TY_PRIM, .prim = PT_F32};
    Ty i32 = {.kind = TY_PRIM, .prim = PT_I32};
    Ty boolt = {.kind = TY_PRIM, .prim = PT_BOOL};
    Size dims[2] = {{.kind = SZ_VAR, .uid = 3, .name = "n"}, {.kind = SZ_ANY}};
    Ty arr = {.kind = TY_ARRAY, .elem = &f32, .rank = 2, .dims = dims};
    Ty *elems[2] = {&i32, &boolt};
    Ty tup = {.kind = TY_TUPLE, .elems = elems, .n = 2};
    Ty unit = {.kind = TY_TUPLE, .n = 0};
    TyField fields[2] = {{"x", &f32}, {"y", &i32}};
    Ty rec = {.kind = TY_RECORD, .fields = fields, .n = 2};
    Size three = {.kind = SZ_CONST, .c = 3};
    Ty uarr = {.kind = TY_ARRAY, .unique = true, .elem = &i32, .rank = 1, .dims = &three};
    Ty fn = {.kind = TY_ARROW, .param = &i32, .result = &boolt};
    Ty hof = {.kind = TY_ARROW, .param = &fn, .result = &unit};
    Ty dep = {.kind = TY_ARROW, .param = &i32, .pname = "n", .result = &arr};
    Ty var = {.kind = TY_VAR, .var = 4, .var_name = "a"};
    struct { Ty *t; const char *s; } cases[] = {
        {&f32, "f32"}, {&arr, "[n][]f32"}, {&tup, "(i32, bool)"}, {&unit, "()"},
        {&rec, "{x: f32, y: i32}"}, {&uarr, "*[3]i32"}, {&fn, "i32 -> bool"},
        {&hof, "(i32 -> bool) -> ()"}, {&dep, "(n: i32) -> [n][]f32"}, {&var, "a"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Buf b = {0};
        ty_print(&b, cases[i].t);
        assert_string_equal(b.data, cases[i].s);
        buf_free(&b);
    }
}

/* ---- Robustness ---- */

/* Deterministic pseudo-random numbers (xorshift) so failures reproduce. */
static uint32_t rng_state = 12345;
static uint32_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

/* Parses text with stderr discarded; only returning matters. */
static void parse_quietly(const char *text) {
    diag_reset();
    fflush(stderr);
    int saved = dup(2);
    FILE *null = fopen("/dev/null", "w");
    dup2(fileno(null), 2);
    Program *p = parse_program(&arena, "fuzz.fut", text);
    if (p) {
        Buf b = {0};
        ast_print_program(&b, p);
        buf_free(&b);
    }
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    fclose(null);
}

/* Inputs: random bytes, random tokens, mutations and truncations. */
static void test_robustness(void **state) {
    enum { RANDOM_INPUTS = 300, MAX_LEN = 300 };
    char buf[MAX_LEN + 1];
    for (int i = 0; i < RANDOM_INPUTS; i++) {
        int n = (int)(rng() % MAX_LEN);
        for (int j = 0; j < n; j++) buf[j] = (char)(rng() % 255 + 1);
        buf[n] = 0;
        parse_quietly(buf);
    }
    static const char *const pieces[] = {
        "def", "let", "in", "(", ")", "[", "]", "{", "}", "x", "1", "+", "-", "if", "then",
        "else", "loop", "for", "do", "<", "=", ":", ",", "\\", "->", ".x", "..", "with",
        "#[a]", "'", "type", "?", "*", "|>", "\"s", "`f`", "entry", "module", "\n", " ",
    };
    enum { NPIECES = sizeof pieces / sizeof pieces[0] };
    for (int i = 0; i < RANDOM_INPUTS; i++) {
        Buf b = {0};
        int n = (int)(rng() % 60);
        for (int j = 0; j < n; j++) {
            buf_puts(&b, pieces[rng() % NPIECES]);
            buf_putc(&b, rng() % 3 ? ' ' : '\n');
        }
        parse_quietly(b.data ? b.data : "");
        buf_free(&b);
    }
    for (size_t k = 0; k < sizeof programs / sizeof programs[0]; k++) {
        size_t len = strlen(programs[k]);
        char *copy = malloc(len + 1);
        for (size_t cut = 0; cut <= len; cut++) {
            memcpy(copy, programs[k], cut);
            copy[cut] = 0;
            parse_quietly(copy);
        }
        for (int m = 0; m < 100; m++) {
            memcpy(copy, programs[k], len + 1);
            for (int j = 0; j < 3; j++) copy[rng() % len] = (char)(rng() % 255 + 1);
            parse_quietly(copy);
        }
        free(copy);
    }
    /* Deep nesting must give an error, not a crash. */
    enum { DEPTH = 20000 };
    Buf deep = {0};
    buf_puts(&deep, "def x = ");
    for (int i = 0; i < DEPTH; i++) buf_putc(&deep, '(');
    buf_putc(&deep, '1');
    for (int i = 0; i < DEPTH; i++) buf_putc(&deep, ')');
    parse_quietly(deep.data);
    buf_free(&deep);
    /* The parser still works afterwards. */
    assert_shape("1 + 2", "(1 + 2)");
}

static int teardown(void **state) {
    arena_free(&arena);
    return 0;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_literals, teardown),
        cmocka_unit_test_teardown(test_precedence, teardown),
        cmocka_unit_test_teardown(test_user_operators, teardown),
        cmocka_unit_test_teardown(test_prefix_and_application, teardown),
        cmocka_unit_test_teardown(test_indexing_vs_application, teardown),
        cmocka_unit_test_teardown(test_slices, teardown),
        cmocka_unit_test_teardown(test_names_and_projections, teardown),
        cmocka_unit_test_teardown(test_tuples_records_arrays, teardown),
        cmocka_unit_test_teardown(test_ranges, teardown),
        cmocka_unit_test_teardown(test_lambdas_and_sections, teardown),
        cmocka_unit_test_teardown(test_if_let_loop, teardown),
        cmocka_unit_test_teardown(test_updates_ascriptions_assert, teardown),
        cmocka_unit_test_teardown(test_types, teardown),
        cmocka_unit_test_teardown(test_patterns, teardown),
        cmocka_unit_test_teardown(test_value_declarations, teardown),
        cmocka_unit_test_teardown(test_other_declarations, teardown),
        cmocka_unit_test_teardown(test_docs_and_attributes, teardown),
        cmocka_unit_test_teardown(test_locations, teardown),
        cmocka_unit_test_teardown(test_error_messages, teardown),
        cmocka_unit_test_teardown(test_unclosed_notes, teardown),
        cmocka_unit_test_teardown(test_nul_bytes, teardown),
        cmocka_unit_test_teardown(test_error_recovery, teardown),
        cmocka_unit_test_teardown(test_round_trip, teardown),
        cmocka_unit_test_teardown(test_printer_output, teardown),
        cmocka_unit_test_teardown(test_type_arguments, teardown),
        cmocka_unit_test_teardown(test_numeric_fields, teardown),
        cmocka_unit_test_teardown(test_backtick_sections, teardown),
        cmocka_unit_test_teardown(test_index_sections, teardown),
        cmocka_unit_test_teardown(test_trailing_commas, teardown),
        cmocka_unit_test_teardown(test_size_binders_and_attributes, teardown),
        cmocka_unit_test_teardown(test_modules, teardown),
        cmocka_unit_test_teardown(test_ty_print, teardown),
        cmocka_unit_test_teardown(test_robustness, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
