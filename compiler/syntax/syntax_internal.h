/* Shared between the Flex lexer (lexer.l), the Bison parser (parser.y) and
 * the literal decoder (literal.c): token values, the scanner state and
 * arena-backed pointer lists. Nothing outside compiler/syntax includes it. */
#ifndef FUTHORC_SYNTAX_INTERNAL_H
#define FUTHORC_SYNTAX_INTERNAL_H

#include "ast.h"

/* The semantic value of every token. */
typedef struct Tok {
    const char *text;  /* interned token text (identifiers, operators, attrs) */
    const char *str;   /* STRINGLIT: decoded bytes in the arena */
    int len;           /* STRINGLIT: number of bytes */
    uint64_t ival;     /* INTLIT, CHARLIT */
    double fval;       /* FLOATLIT */
    bool has_suffix;
    PrimType suffix;
    QualName qn;       /* ID, QUALID, BACKTICK */
    const char *doc;   /* a "-- |" doc comment written just before the token */
    int flag;          /* val_kw: 1 for entry; type_kw: Liftedness */
} Tok;

/* Longest token text kept for error messages; longer texts are cut. */
enum { LEX_TEXT_MAX = 40 };

/* Innermost openers remembered for the notes of syntax errors ("the '('
 * here is not closed"); deeper nesting forgets the outermost ones. */
enum { LEX_MAX_OPEN = 64 };

/* An opening bracket, "let" (closed by "in") or "for" (by "in" or "do"). */
typedef struct LexOpen {
    int tok;
    SrcLoc loc;
} LexOpen;

/* Everything the lexer and parser of one file share; the flex "extra". */
typedef struct LexState {
    Arena *arena;
    const char *file;       /* interned */
    int line, col;          /* position of the next character */
    bool space_before;      /* whitespace or a comment preceded the token */
    int last_tok;           /* previous token kind, for "a[i]" indexing */
    char last_text[LEX_TEXT_MAX + 4]; /* text of the latest token */
    const char *pending_doc;  /* doc comment waiting for the next token */
    bool doc_open;          /* the previous line was a doc comment line */
    bool skipping;          /* after a syntax error: skip to a declaration */
    struct PtrList *decls;  /* the result: Decl pointers */
    struct PtrList *imports; /* every import declaration, also those in modules */
    LexOpen open[LEX_MAX_OPEN]; /* unclosed openers, innermost last */
    int nopen;
    LexOpen last_open;          /* the latest token, not yet in open */
} LexState;

/* A growable list of pointers whose storage lives in an arena. */
typedef struct PtrList {
    void **items;
    int len, cap;
} PtrList;

PtrList *plist_push(Arena *a, PtrList *l, void *x);
static inline int plist_len(const PtrList *l) { return l ? l->len : 0; }

/* Lexer helpers (literal.c). Each reports its own errors at loc. */
void lex_step(LexState *ls, SrcLoc *loc, const char *text, int len);
void lex_int(LexState *ls, Tok *t, const char *text, SrcLoc loc);
void lex_float(LexState *ls, Tok *t, const char *text, SrcLoc loc);
void lex_string(LexState *ls, Tok *t, const char *text, int len, SrcLoc loc);
void lex_char(LexState *ls, Tok *t, const char *text, int len, SrcLoc loc);
void lex_qualname(LexState *ls, Tok *t, const char *text, int len);
void lex_doc_line(LexState *ls, const char *text, bool first);
void lex_bad_char(LexState *ls, const char *text, SrcLoc loc);

/* Whether name occurs anywhere in the indices of a slice, free, bound or
 * as a field: an over-approximation of "free in" that is enough to pick a
 * fresh name (ast.c). */
bool syn_slice_mentions(const DimIndex *d, int n, const char *name);

/* Whether a name is an operator ("+^", "|>") rather than an identifier. */
bool syn_is_operator_name(const char *name);

/* AST construction for the parser's actions (build.c); scanner is the
 * parser's, whose LexState (syn_state) holds the arena. */
LexState *syn_state(void *scanner);
Exp *mk_exp(void *scanner, ExpKind k, SrcLoc loc);
Exp *mk_var(void *scanner, QualName qn, SrcLoc loc);
Pat *mk_pat(void *scanner, PatKind k, SrcLoc loc);
Exp *mk_let(void *scanner, Pat *p, Exp *e1, Exp *body, SrcLoc loc);
Exp *mk_lambda(void *scanner, PtrList *params, TypeExp *ret, Exp *body, SrcLoc loc);
/* A list as an arena array of elem_size elements (pointers or pointees). */
void *list_array(void *scanner, PtrList *l, size_t elem_size);
Exp *mk_record_update(void *scanner, Exp *r, const char **path, int npath, Exp *v, SrcLoc loc);
/* Steps of update and section paths: a bracket of dims, a field, the
 * fields of a (dotted) name. */
UpdStep *mk_slice_step(void *scanner, PtrList *dims, SrcLoc loc);
UpdStep *mk_field_step(void *scanner, const char *field, SrcLoc loc);
PtrList *field_steps(void *scanner, Tok t, SrcLoc loc);
/* r with <first ++ rest> = v; let x <steps ++ rest> = v in body; the
 * section (.<first ++ rest>). */
Exp *mk_path_update(void *scanner, Exp *r, PtrList *first, PtrList *rest, Exp *v, SrcLoc loc);
Exp *mk_let_path_update(void *scanner, Tok x, SrcLoc xloc, PtrList *steps, PtrList *rest, Exp *v, Exp *body,
                        SrcLoc loc);
Exp *mk_path_section(void *scanner, PtrList *first, PtrList *rest, SrcLoc loc);

#endif
