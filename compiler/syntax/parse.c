/* The entry point of the syntax module: runs the Flex scanner and the Bison
 * parser over one file. Also the token wrapper between them, which turns
 * '[' directly after a name or closing bracket into the indexing bracket
 * (Futhark's rule: "a[i]" indexes, "f [i]" applies f to an array), hands
 * pending doc comments to the next token, and after a syntax error skips
 * tokens up to the next top-level declaration keyword. */
#include "syntax_internal.h"
#include "parser.h"
#define YYSTYPE SYN_STYPE
#define YYLTYPE SYN_LTYPE
#include "lexer.h"

#include <limits.h>
#include <string.h>

LexState *syn_state(void *scanner);
LexState *syn_state(void *scanner) { return synlex_get_extra(scanner); }

/* Whether '[' right after token t (no space between) indexes (after an
 * integer literal: a tuple field's element in an update path, t with 0[i] = v). */
static bool closes_atom(int t) {
    return t == TK_ID || t == TK_QUALID || t == TK_RPAR || t == TK_RBRACKET || t == TK_PROJ || t == TK_INTLIT;
}

/* Whether t may start a declaration where the parser resynchronises after
 * an error. A "let" must be in column 1 to count: indented ones are local. */
static bool resync_token(int t, const SrcLoc *loc) {
    switch (t) {
    case 0: case TK_DEF: case TK_ENTRY: case TK_TYPE: case TK_IMPORT: case TK_MODULE:
    case TK_OPEN: case TK_LOCAL: case TK_ATTR:
        return true;
    case TK_LET:
        return loc->col == 1;
    default:
        return false;
    }
}

/* Pops openers down to and including the innermost one of kind a or b
 * (nothing if there is none). */
static void open_close(LexState *ls, int a, int b) {
    for (int i = ls->nopen - 1; i >= 0; i--)
        if (ls->open[i].tok == a || ls->open[i].tok == b) {
            ls->nopen = i;
            return;
        }
}

/* Pops the openers of kind t on top of the stack. */
static void open_pop_all(LexState *ls, int t) {
    while (ls->nopen > 0 && ls->open[ls->nopen - 1].tok == t) ls->nopen--;
}

/* Keeps the stack of unclosed openers up to date with token t: brackets,
 * "let" (a chain of lets shares one "in") and "for" (closed by the "in"
 * of "for x in xs" or by "do"). A "let" in column 1 is a declaration. */
static void open_track(LexState *ls, int t, const SrcLoc *loc) {
    bool top_for = ls->nopen > 0 && ls->open[ls->nopen - 1].tok == TK_FOR;
    switch (t) {
    case TK_LET:
        if (loc->col == 1) break; /* a declaration */
        /* fall through */
    case TK_LPAR: case TK_LBRACKET: case TK_IDX_LBRACKET: case TK_LBRACE: case TK_FOR:
        if (ls->nopen == LEX_MAX_OPEN) memmove(ls->open, ls->open + 1, sizeof(LexOpen) * --ls->nopen);
        ls->open[ls->nopen++] = (LexOpen){t, *loc};
        return;
    case TK_RPAR: open_close(ls, TK_LPAR, TK_LPAR); return;
    case TK_RBRACKET: open_close(ls, TK_LBRACKET, TK_IDX_LBRACKET); return;
    case TK_RBRACE: open_close(ls, TK_LBRACE, TK_LBRACE); return;
    case TK_DO: if (top_for) ls->nopen--; return;
    case TK_IN:
        if (top_for) ls->nopen--;
        else open_pop_all(ls, TK_LET);
        return;
    default:
        return;
    }
}

int syn_lex(SYN_STYPE *lval, SrcLoc *lloc, void *scanner) {
    LexState *ls = synlex_get_extra(scanner);
    for (;;) {
        memset(&lval->tok, 0, sizeof lval->tok);
        ls->space_before = false;
        int t = synlex_lex(lval, lloc, scanner);
        if (t == TK_LBRACKET && !ls->space_before && closes_atom(ls->last_tok)) t = TK_IDX_LBRACKET;
        ls->last_tok = t;
        if (ls->skipping) {
            if (!resync_token(t, lloc)) continue;
            ls->skipping = false;
            ls->nopen = 0;
        } else if (ls->last_open.tok) {
            open_track(ls, ls->last_open.tok, &ls->last_open.loc);
        }
        /* tracked when the next token is read: a syntax error at this one
         * sees the openers before it */
        ls->last_open = (LexOpen){t, *lloc};
        lval->tok.doc = ls->pending_doc;
        ls->pending_doc = NULL;
        ls->doc_open = false;
        return t;
    }
}

Program *parse_program(Arena *a, const char *file, const char *text) {
    return parse_program_n(a, file, text, strlen(text));
}

Program *parse_program_n(Arena *a, const char *file, const char *text, size_t len) {
    file = intern(file);
    if (len > INT_MAX) { /* flex takes the length as an int */
        diag_error((SrcLoc){.file = file}, "the file is too large (%zu bytes)", len);
        return NULL;
    }
    text = arena_strndup(a, text, len);
    diag_register_source(file, text);
    int errors_before = diag_error_count();
    LexState ls = {.arena = a, .file = file, .line = 1, .col = 1, .last_tok = -1};
    yyscan_t scanner;
    if (synlex_lex_init_extra(&ls, &scanner) != 0) ICE("cannot create the scanner");
    YY_BUFFER_STATE buf = synlex__scan_bytes(text, (int)len, scanner);
    int rc = syn_parse(scanner);
    synlex__delete_buffer(buf, scanner);
    synlex_lex_destroy(scanner);
    if (rc != 0 || diag_error_count() > errors_before) return NULL;
    Program *p = NEW(a, Program);
    p->file = file;
    p->ndecls = plist_len(ls.decls);
    p->decls = NEW_ARRAY(a, Decl *, p->ndecls ? p->ndecls : 1);
    for (int i = 0; i < p->ndecls; i++) p->decls[i] = ls.decls->items[i];
    p->nimports = plist_len(ls.imports);
    p->imports = NEW_ARRAY(a, Decl *, p->nimports ? p->nimports : 1);
    for (int i = 0; i < p->nimports; i++) p->imports[i] = ls.imports->items[i];
    return p;
}
