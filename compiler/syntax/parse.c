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

/* Whether '[' right after token t (no space between) indexes. */
static bool closes_atom(int t) {
    return t == TK_ID || t == TK_QUALID || t == TK_RPAR || t == TK_RBRACKET || t == TK_PROJ;
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
        }
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
