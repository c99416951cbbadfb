/* Unit tests for the Flex lexer (compiler/syntax/lexer.l), its literal
 * decoding (literal.c) and the parser's token wrapper (parse.c): token
 * kinds, literal values and suffixes, range errors, operator classes,
 * qualified names, indexing brackets, doc comments and token locations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "syntax/syntax_internal.h"
#include "parser.h"
#define YYSTYPE SYN_STYPE
#define YYLTYPE SYN_LTYPE
#include "lexer.h"

/* Most tokens one test text may produce. */
enum { MAX_TOKS = 64 };

typedef struct LexTok {
    int kind;
    Tok tok;
    SrcLoc loc;
} LexTok;

static Arena test_arena;
static LexTok toks[MAX_TOKS];

/* Scans text into toks[]; returns the number of tokens before end of file
 * and the number of errors reported in *errors. Diagnostics go to stderr. */
static int lex_all(const char *text, int *errors) {
    diag_reset();
    LexState ls = {.arena = &test_arena, .file = intern("t.fut"), .line = 1, .col = 1, .last_tok = -1};
    yyscan_t sc;
    assert_int_equal(synlex_lex_init_extra(&ls, &sc), 0);
    YY_BUFFER_STATE b = synlex__scan_bytes(text, (int)strlen(text), sc);
    int n = 0;
    for (;;) {
        SYN_STYPE v;
        SrcLoc loc;
        int k = syn_lex(&v, &loc, sc);
        if (k == 0) break;
        assert_true(n < MAX_TOKS);
        toks[n].kind = k;
        toks[n].tok = v.tok;
        toks[n].loc = loc;
        n++;
    }
    synlex__delete_buffer(b, sc);
    synlex_lex_destroy(sc);
    if (errors) *errors = diag_error_count();
    return n;
}

/* Scans text, which must be exactly one token of kind k without errors. */
static Tok one(const char *text, int k) {
    int errors;
    int n = lex_all(text, &errors);
    assert_int_equal(n, 1);
    assert_int_equal(errors, 0);
    assert_int_equal(toks[0].kind, k);
    return toks[0].tok;
}

/* Scans text with stderr silenced; returns the error count. */
static int errors_of(const char *text) {
    fflush(stderr);
    int saved = dup(2);
    FILE *null = fopen("/dev/null", "w");
    dup2(fileno(null), 2);
    int errors;
    lex_all(text, &errors);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    fclose(null);
    return errors;
}

static void test_integer_literals(void **state) {
    Tok t = one("42", TK_INTLIT);
    assert_int_equal(t.ival, 42);
    assert_false(t.has_suffix);
    assert_ptr_equal(t.text, intern("42")); /* the text names numeric fields: {42 = x} */
    t = one("1i64", TK_INTLIT);
    assert_int_equal(t.ival, 1);
    assert_true(t.has_suffix);
    assert_int_equal(t.suffix, PT_I64);
    t = one("0xFFu8", TK_INTLIT);
    assert_int_equal(t.ival, 255);
    assert_string_equal(t.text, "0xFFu8");
    assert_int_equal(t.suffix, PT_U8);
    t = one("0b101", TK_INTLIT);
    assert_int_equal(t.ival, 5);
    t = one("1_000_000", TK_INTLIT);
    assert_int_equal(t.ival, 1000000);
    t = one("0x7fff_ffffi32", TK_INTLIT);
    assert_int_equal(t.ival, 0x7fffffff);
    assert_int_equal(t.suffix, PT_I32);
    t = one("18446744073709551615u64", TK_INTLIT);
    assert_true(t.ival == UINT64_MAX);
    t = one("3u16", TK_INTLIT);
    assert_int_equal(t.suffix, PT_U16);
    t = one("7i8", TK_INTLIT);
    assert_int_equal(t.suffix, PT_I8);
}

static void test_float_literals(void **state) {
    Tok t = one("0.5f32", TK_FLOATLIT);
    assert_true(t.fval == 0.5);
    assert_true(t.has_suffix);
    assert_int_equal(t.suffix, PT_F32);
    t = one("1e-3", TK_FLOATLIT);
    assert_true(t.fval == 1e-3);
    assert_false(t.has_suffix);
    t = one("2f32", TK_FLOATLIT);
    assert_true(t.fval == 2.0);
    assert_int_equal(t.suffix, PT_F32);
    t = one("3.25e2f64", TK_FLOATLIT);
    assert_true(t.fval == 325.0);
    assert_int_equal(t.suffix, PT_F64);
    t = one("1_0.5", TK_FLOATLIT);
    assert_true(t.fval == 10.5);
    t = one("2E+3", TK_FLOATLIT);
    assert_true(t.fval == 2000.0);
}

static void test_literal_range_errors(void **state) {
    /* a suffixed integer is read modulo 2^N, as Futhark's lexer does */
    assert_int_equal(errors_of("300u8"), 0);
    assert_int_equal(one("300u8", TK_INTLIT).ival, 44);
    assert_int_equal(one("255i8", TK_INTLIT).ival, 255); /* -1 as an i8 */
    assert_int_equal(one("0x1FFi8", TK_INTLIT).ival, 255);
    assert_int_equal(one("65536u16", TK_INTLIT).ival, 0);
    assert_int_equal(one("4294967297i32", TK_INTLIT).ival, 1);
    assert_int_equal(errors_of("18446744073709551616"), 1);
    assert_int_equal(errors_of("1e999"), 1);
    assert_int_equal(errors_of("1e39f32"), 1);
    assert_int_equal(errors_of("1e39f64"), 0);
    assert_int_equal(errors_of("1.0f16"), 0);
    assert_int_equal(errors_of("65519f16"), 0); /* rounds to 65504 */
    assert_int_equal(errors_of("65520f16"), 1); /* rounds to infinity */
}

static void test_char_and_string_literals(void **state) {
    assert_int_equal(one("'a'", TK_CHARLIT).ival, 'a');
    assert_int_equal(one("'\\n'", TK_CHARLIT).ival, '\n');
    assert_int_equal(one("'\\''", TK_CHARLIT).ival, '\'');
    assert_int_equal(one("'\\u00e9'", TK_CHARLIT).ival, 0xe9);
    assert_int_equal(one("'\xc3\xa9'", TK_CHARLIT).ival, 0xe9);
    assert_int_equal(one("'\\x41'", TK_CHARLIT).ival, 0x41);
    Tok t = one("\"a\\n\\\"b\\\\\"", TK_STRINGLIT);
    assert_int_equal(t.len, 5);
    assert_memory_equal(t.str, "a\n\"b\\", 5);
    t = one("\"\\u00e9\\x00z\"", TK_STRINGLIT);
    assert_int_equal(t.len, 4);
    assert_memory_equal(t.str, "\xc3\xa9\0z", 4);
    t = one("\"\"", TK_STRINGLIT);
    assert_int_equal(t.len, 0);
    assert_int_equal(errors_of("\"abc"), 1);
    assert_int_equal(errors_of("\"a\\qb\""), 1);
    assert_int_equal(errors_of("\"a\\x4\""), 1);
}

static void test_operator_classes(void **state) {
    struct { const char *text; int kind; } cases[] = {
        {"+", TK_OP_ADD},   {"+^", TK_OP_ADD},    {"-", TK_MINUS},     {"-^", TK_OP_ADD},
        {"*", TK_ASTERISK}, {"**", TK_OP_POW},    {"*^", TK_OP_MUL},   {"/", TK_OP_MUL},
        {"//", TK_OP_MUL},  {"%", TK_OP_MUL},     {"%%", TK_OP_MUL},   {"==", TK_OP_CMP},
        {"!=", TK_OP_CMP},  {"<", TK_LT},         {"<=", TK_OP_CMP},   {">", TK_OP_CMP},
        {">=", TK_OP_CMP},  {">->", TK_OP_CMP},   {"<-<", TK_OP_CMP},  {"|>", TK_OP_PIPE_R},
        {"<|", TK_OP_PIPE_L}, {"|>>", TK_OP_PIPE_R}, {"&&", TK_OP_AND}, {"||", TK_OP_OR},
        {"&", TK_OP_BIT},   {"^", TK_OP_BIT},     {"|", TK_OP_BIT},    {"<<", TK_OP_SHIFT},
        {">>", TK_OP_SHIFT}, {">>>", TK_OP_SHIFT}, {"=", TK_EQUALS},   {"!", TK_BANG},
        {"->", TK_ARROW},   {":>", TK_COERCE},    {"..", TK_DOTDOT},   {"...", TK_DOTDOTDOT},
        {"..<", TK_DOTDOTLT}, {"..>", TK_DOTDOTGT},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Tok t = one(cases[i].text, cases[i].kind);
        if (cases[i].kind != TK_ARROW && cases[i].kind != TK_COERCE && cases[i].text[0] != '.')
            assert_string_equal(t.text, cases[i].text);
    }
}

static void test_keywords_and_names(void **state) {
    assert_int_equal(one("def", TK_DEF).flag, 0);
    one("entry", TK_ENTRY);
    one("loop", TK_LOOP);
    one("with", TK_WITH);
    one("_", TK_UNDERSCORE);
    assert_int_equal(one("type", TK_TYPE).flag, LIFT_NONE);
    assert_int_equal(one("type^", TK_TYPE).flag, LIFT_FULL);
    assert_int_equal(one("type~", TK_TYPE).flag, LIFT_SIZES);
    Tok t = one("x'", TK_ID);
    assert_string_equal(t.text, "x'");
    t = one("_tmp1", TK_ID);
    assert_true(t.text == intern("_tmp1"));
    t = one("f32.sqrt", TK_QUALID);
    assert_int_equal(t.qn.nparts, 2);
    assert_true(t.qn.parts[0] == intern("f32"));
    assert_true(t.qn.parts[1] == intern("sqrt"));
    t = one("t.0.1", TK_QUALID);
    assert_int_equal(t.qn.nparts, 3);
    assert_string_equal(t.qn.parts[2], "1");
    t = one("`f`", TK_BACKTICK);
    assert_string_equal(t.qn.parts[0], "f");
    t = one("#[unsafe]", TK_ATTR);
    assert_string_equal(t.text, "unsafe");
    t = one("#[incremental_flattening(only_inner)]", TK_ATTR);
    assert_string_equal(t.text, "incremental_flattening(only_inner)");
}

static void test_token_sequences(void **state) {
    int n = lex_all("0..<n", NULL);
    assert_int_equal(n, 3);
    assert_int_equal(toks[0].kind, TK_INTLIT);
    assert_int_equal(toks[1].kind, TK_DOTDOTLT);
    n = lex_all("1..2...n", NULL);
    assert_int_equal(n, 5);
    assert_int_equal(toks[1].kind, TK_DOTDOT);
    assert_int_equal(toks[3].kind, TK_DOTDOTDOT);
    n = lex_all("(e).0.x", NULL);
    assert_int_equal(n, 5);
    assert_int_equal(toks[3].kind, TK_PROJ);
    assert_string_equal(toks[3].tok.text, "0");
    assert_int_equal(toks[4].kind, TK_PROJ);
    n = lex_all("'a '~b '^c", NULL);
    assert_int_equal(n, 6);
    assert_int_equal(toks[0].kind, TK_APOS);
    assert_int_equal(toks[2].kind, TK_APOS_TILDE);
    assert_int_equal(toks[4].kind, TK_APOS_HAT);
    n = lex_all("x -- comment\n y", NULL);
    assert_int_equal(n, 2);
    n = lex_all("?[n].[n]i32", NULL);
    assert_int_equal(n, 9);
    assert_int_equal(toks[0].kind, TK_QUESTION);
    assert_int_equal(toks[4].kind, TK_DOT);
}

static void test_index_brackets(void **state) {
    lex_all("a[i] f [i] (x)[0] xs[0][1] [1]", NULL);
    assert_int_equal(toks[1].kind, TK_IDX_LBRACKET);
    assert_int_equal(toks[5].kind, TK_LBRACKET);
    assert_int_equal(toks[11].kind, TK_IDX_LBRACKET);
    assert_int_equal(toks[15].kind, TK_IDX_LBRACKET);
    assert_int_equal(toks[18].kind, TK_IDX_LBRACKET);
    assert_int_equal(toks[21].kind, TK_LBRACKET);
    lex_all("f.x[2] x -- c\n[3]", NULL);
    assert_int_equal(toks[1].kind, TK_IDX_LBRACKET);
    assert_int_equal(toks[5].kind, TK_LBRACKET);
}

static void test_doc_comments(void **state) {
    int n = lex_all("-- | First line.\n-- Second.\ndef x = -- | not a doc\n1", NULL);
    assert_int_equal(n, 4);
    assert_string_equal(toks[0].tok.doc, "First line.\nSecond.");
    assert_null(toks[1].tok.doc);
    assert_string_equal(toks[3].tok.doc, "not a doc");
    lex_all("-- plain\ndef", NULL);
    assert_null(toks[0].tok.doc);
}

static void test_token_locations(void **state) {
    lex_all("def f =\n  x + 10", NULL);
    assert_string_equal(toks[0].loc.file, "t.fut");
    assert_int_equal(toks[0].loc.line, 1);
    assert_int_equal(toks[0].loc.col, 1);
    assert_int_equal(toks[0].loc.end_col, 4);
    assert_int_equal(toks[2].loc.col, 7);
    assert_int_equal(toks[3].loc.line, 2);
    assert_int_equal(toks[3].loc.col, 3);
    assert_int_equal(toks[5].loc.col, 7);
    assert_int_equal(toks[5].loc.end_col, 9);
    assert_int_equal(toks[5].loc.end_line, 2);
}

static void test_lexical_errors(void **state) {
    assert_int_equal(errors_of("x $ y"), 1);
    assert_int_equal(errors_of("a @ b ~ c"), 2);
    assert_int_equal(errors_of("\x01\xff"), 2);
    assert_int_equal(errors_of("#[unterminated"), 1);
    assert_int_equal(errors_of("'ab'"), 0); /* quote, name, quote: a parse error */
}

static int teardown(void **state) {
    arena_free(&test_arena);
    return 0;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_integer_literals, teardown),
        cmocka_unit_test_teardown(test_float_literals, teardown),
        cmocka_unit_test_teardown(test_literal_range_errors, teardown),
        cmocka_unit_test_teardown(test_char_and_string_literals, teardown),
        cmocka_unit_test_teardown(test_operator_classes, teardown),
        cmocka_unit_test_teardown(test_keywords_and_names, teardown),
        cmocka_unit_test_teardown(test_token_sequences, teardown),
        cmocka_unit_test_teardown(test_index_brackets, teardown),
        cmocka_unit_test_teardown(test_doc_comments, teardown),
        cmocka_unit_test_teardown(test_token_locations, teardown),
        cmocka_unit_test_teardown(test_lexical_errors, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
