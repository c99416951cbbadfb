/* The Bison grammar for futhorc source files (Futhark syntax): a pure
 * parser with locations that builds the AST of syntax/ast.h in the
 * compilation arena. Operator precedence follows Futhark's parser: an
 * operator binds according to its leading characters (the lexer
 * classifies it), from loosest to tightest:
 *   `f`  with  |>  <|  ||  &&  comparisons  & ^ |  << >>  + -  * / % // %%  **
 *   prefix - and !, application, indexing.
 * Ranges and ascriptions bind looser than all operators; if/let/loop/lambda
 * bodies extend as far right as possible.
 * Forms without an AST node of their own: an index section (.[i]) becomes
 * the lambda \a -> a[i]; a backtick section (`f` x) is an EX_SECTION whose
 * op is f's dotted name; {0 = a, 1 = b} is an EX_RECORD with fields "0" and
 * "1"; a parametric module's parameters become nested ME_LAMBDAs. Size
 * binders in let (let [n] p = e) are parsed only to report that they are
 * not supported.
 * Modules: a module type's "with t = type" takes the longest type, so
 * "S with t = a -> b" refines t to a function type (an arrow after it
 * never starts a functor type); the result type of a module lambda
 * (\(p: S): R -> e) is written without arrows, as the lambda's own arrow
 * follows it. An import is a module expression only at the head of an
 * application ("F import "x"" would be ambiguous with a following import
 * declaration).
 * Errors: detailed messages via yyreport_syntax_error; after an error the
 * token wrapper skips to the next top-level declaration keyword (a "let"
 * counts only in column 1, since let also starts local bindings). */

%define api.pure full
%define api.prefix {syn_}
%define api.token.prefix {TK_}
%define api.location.type {SrcLoc}
%define parse.error custom
%define parse.lac full
%locations
%param {void *scanner}

%code requires {
#include "syntax/syntax_internal.h"
}

%code provides {
int syn_lex(SYN_STYPE *lval, SrcLoc *lloc, void *scanner);
void syn_error(SrcLoc *loc, void *scanner, const char *msg);
}

%code {
#include <string.h>

/* The parser's stack holds a few entries for each construct still open:
 * about five for each link of a chain of lets or each else-if, one or two
 * for each nesting. Bison's default of 10,000 entries refused 2,000
 * chained lets; this allows some 200,000 (the stack grows as it fills,
 * about 110 bytes an entry). Deeper programs are rejected by syn_error. */
enum { SYN_MAX_DEPTH = 1000000 };
#define YYMAXDEPTH SYN_MAX_DEPTH

#define YYLLOC_DEFAULT(Cur, Rhs, N)                                           \
    do {                                                                      \
        if (N) {                                                              \
            (Cur) = loc_span(YYRHSLOC(Rhs, 1), YYRHSLOC(Rhs, N));             \
        } else {                                                              \
            (Cur) = YYRHSLOC(Rhs, 0);                                         \
            (Cur).line = (Cur).end_line;                                      \
            (Cur).col = (Cur).end_col;                                        \
        }                                                                     \
    } while (0)

#define LS (syn_state(scanner))
#define AR (LS->arena)

/* Helpers defined after the grammar. */
static Exp *mk_binop(void *scanner, Exp *l, Tok op, Exp *r, SrcLoc loc);
static Exp *mk_apply(void *scanner, PtrList *l, SrcLoc loc);
static Exp *mk_lit(void *scanner, ExpKind k, Tok t, SrcLoc loc);
static Exp *mk_range(void *scanner, Exp *s, Exp *second, Exp *end, RangeKind k, SrcLoc loc);
static Exp *mk_letfun(void *scanner, Tok name, PtrList *fps, TypeExp *ret, Exp *e1, Exp *body, SrcLoc loc);
static void attr_prepend(void *scanner, Attr **attrs, int *n, const char *text);
static TypeExp *mk_type(void *scanner, TypeExpKind k, SrcLoc loc);
static Decl *mk_decl(void *scanner, DeclKind k, SrcLoc loc, const char *doc);
static Decl *mk_val(void *scanner, Tok kw, const char *name, PtrList *fps, TypeExp *ret, Exp *body, SrcLoc loc);
static DimIndex *mk_slice(void *scanner, Exp *s, Exp *e, Exp *st);
static void split_funparams(void *scanner, PtrList *fps, TypeParam **tps, int *ntps, Pat ***ps, int *nps);
static Tok numeric_field(void *scanner, Tok t, SrcLoc loc);
static bool is_numeric_name(const char *s);
static const char *qualname_text(void *scanner, QualName qn);
static const char *op_text(void *scanner, Tok op);
static Exp *mk_section(void *scanner, Exp *l, const char *op, Exp *r, SrcLoc loc);
static ModExp *mk_mexp(void *scanner, ModExpKind k, SrcLoc loc);
static ModTypeExp *mk_mtype(void *scanner, ModTypeExpKind k, SrcLoc loc);
static Spec *mk_spec(void *scanner, SpecKind k, SrcLoc loc);
static Decl *mk_import(void *scanner, Tok path, SrcLoc loc, const char *doc);
static ModExp *mk_functor(void *scanner, PtrList *params, ModTypeExp *result, ModExp *body, SrcLoc loc);
static void only_tparams(void *scanner, PtrList *fps, TypeParam **tps, int *ntps, const char *what);

/* A parameter of a parametric module: (name: mtype). */
typedef struct ModParam { const char *name; ModTypeExp *mtype; SrcLoc loc; } ModParam;
static ModParam *mk_modparam(void *scanner, Tok name, ModTypeExp *mt, SrcLoc loc);

/* One entry of a function's parameter list: a type/size parameter or a
 * pattern, kept in source order until split_funparams. */
typedef struct FunParam { TypeParam *tp; Pat *pat; } FunParam;
static FunParam *mk_fp(void *scanner, TypeParam *tp, Pat *pat);
static PtrList *infix_params(void *scanner, Pat *left, Pat *right);
static TypeParam *mk_tparam(void *scanner, TypeParamKind k, Tok name, SrcLoc loc);
}

%union {
    Tok tok;
    Exp *exp;
    Pat *pat;
    TypeExp *te;
    Decl *decl;
    PtrList *list;
    DimIndex *dim;
    TypeParam *tp;
    TypeArg *targ;
    ExpField *efield;
    PatField *pfield;
    TypeExpField *tfield;
    struct FunParam *fp;
    ModExp *mexp;
    ModTypeExp *mtype;
    Spec *spec;
    struct ModParam *mparam;
}

%token <tok> ID "identifier" QUALID "qualified name" BACKTICK "backtick operator"
%token <tok> INTLIT "integer literal" FLOATLIT "decimal literal"
%token <tok> CHARLIT "character literal" STRINGLIT "string literal"
%token <tok> PROJ "field projection" ATTR "attribute" CONSTR "constructor"
%token <tok> OP_PIPE_R "|>" OP_PIPE_L "<|" OP_OR "||" OP_AND "&&" OP_CMP "comparison operator"
%token <tok> OP_BIT "bitwise operator" OP_SHIFT "shift operator" OP_ADD "+" OP_MUL "*-like operator"
%token <tok> OP_POW "**" LT "<" MINUS "-" ASTERISK "*" BANG "!"
%token <tok> DEF "def" ENTRY "entry" LET "let" TYPE "type" IMPORT "import"
%token <tok> MODULE "module" OPEN "open" LOCAL "local"
%token <tok> IF "if" THEN "then" ELSE "else" IN "in" LOOP "loop" FOR "for"
%token <tok> WHILE "while" DO "do" WITH "with" ASSERT "assert" TRUE "true" FALSE "false"
%token <tok> MATCH "match" CASE "case" VAL "val" INCLUDE "include"
%token <tok> LPAR "(" RPAR ")" LBRACKET "[" IDX_LBRACKET "indexing [" RBRACKET "]"
%token <tok> LBRACE "{" RBRACE "}" COMMA "," COLON ":" COERCE ":>" EQUALS "="
%token <tok> ARROW "->" BACKSLASH "\\" UNDERSCORE "_" DOT "." QUESTION "?" HOLE "???"
%token <tok> APOS "'" APOS_TILDE "'~" APOS_HAT "'^"
%token <tok> DOTDOT ".." DOTDOTDOT "..." DOTDOTLT "..<" DOTDOTGT "..>"

%type <list> decls exps exps_tc efields efields_tc pats pats_tc pfields pfields_tc types types_tc
%type <list> tfields tfields_tc dims dims_tc funparams funparams0 params1 projs type_args exist_dims size_binders
%type <list> sum_clauses sum_payload constr_pats cases upd_steps upd_steps1
%type <decl> decl decl1
%type <tok> val_kw anyop anyop_nominus fieldid
%type <exp> exp rexp oexp atom apply opt_oexp let_exp let_body opt_init
%type <pat> pat pat_atom pat_lit
%type <tfield> sum_clause
%type <te> sum_payload_type
%type <te> type type_noarrow type_atom opt_ret lam_ret
%type <dim> dimidx
%type <tp> tparam
%type <targ> type_arg
%type <efield> efield
%type <pfield> pfield
%type <tfield> tfield
%type <fp> funparam funparam0
%type <list> apply_list specs modparams modparams1
%type <mexp> mexp mexp_app mexp_head mexp_atom
%type <mtype> mtype mtype_noarrow opt_msig
%type <spec> spec
%type <mparam> modparam

%precedence LOWEST
%precedence CASE
%precedence ARROW
%precedence COLON COERCE
%right DOTDOT DOTDOTDOT DOTDOTLT DOTDOTGT
%left BACKTICK
%left WITH
%left OP_PIPE_R
%right OP_PIPE_L
%left OP_OR
%left OP_AND
%left OP_CMP LT
%left OP_BIT
%left OP_SHIFT
%left OP_ADD MINUS
%left OP_MUL ASTERISK
%left OP_POW
%precedence UNARY

%%

program: decls { LS->decls = $1; }
       ;

decls: %empty { $$ = NULL; }
     | decls decl { $$ = plist_push(AR, $1, $2); }
     | decls error {
           $$ = $1;
           /* Keep the offending token if a declaration starts there, else
            * drop it and let the token wrapper skip to one. */
           if (yychar == TK_YYEOF) {
               /* let Bison stop at end of file */
           } else if (yychar == TK_DEF || yychar == TK_ENTRY || yychar == TK_TYPE ||
                      yychar == TK_IMPORT || yychar == TK_MODULE || yychar == TK_OPEN ||
                      yychar == TK_LOCAL || yychar == TK_ATTR) {
               LS->skipping = false;
               yyerrok;
           } else {
               yyclearin;
               yyerrok;
           }
       }
     ;

decl: ATTR decl {
          $$ = $2;
          attr_prepend(scanner, &$$->attrs, &$$->nattrs, $1.text);
          if ($1.doc) $$->doc = $1.doc;
          $$->loc = @$;
      }
    | LOCAL decl { $$ = $2; $$->is_local = true; if ($1.doc) $$->doc = $1.doc; $$->loc = @$; }
    | decl1 { $$ = $1; }
    ;

decl1: val_kw ID funparams opt_ret EQUALS exp { $$ = mk_val(scanner, $1, $2.text, $3, $4, $6, @$); }
     | val_kw LPAR anyop RPAR funparams opt_ret EQUALS exp {
           $$ = mk_val(scanner, $1, $3.text, $5, $6, $8, @$);
       }
     | val_kw pat_atom anyop pat_atom opt_ret EQUALS exp {
           $$ = mk_val(scanner, $1, $3.text, infix_params(scanner, $2, $4), $5, $7, @$);
       }
     | val_kw pat_atom BANG pat_atom opt_ret EQUALS exp {
           diag_error(@3, "\"!\" is a prefix operator: it cannot be used as infix");
           $$ = mk_val(scanner, $1, "!", infix_params(scanner, $2, $4), $5, $7, @$);
       }
     | TYPE ID funparams EQUALS type {
           $$ = mk_decl(scanner, D_TYPE, @$, $1.doc);
           $$->name = $2.text;
           $$->lifted = (Liftedness)$1.flag;
           Pat **ps; int nps;
           split_funparams(scanner, $3, &$$->tparams, &$$->ntparams, &ps, &nps);
           if (nps) diag_error(@3, "type abbreviations take only type and size parameters");
           $$->ret = $5;
       }
     | IMPORT STRINGLIT { $$ = mk_import(scanner, $2, @$, $1.doc); }
     | MODULE ID modparams opt_msig EQUALS mexp {
           $$ = mk_decl(scanner, D_MODULE, @$, $1.doc);
           $$->name = $2.text;
           $$->mexp = mk_functor(scanner, $3, $4, $6, @$);
       }
     | MODULE TYPE ID EQUALS mtype {
           $$ = mk_decl(scanner, D_MODTYPE, @$, $1.doc);
           if ($2.flag) diag_error(@2, "a module type is declared with 'module type', without '^' or '~'");
           $$->name = $3.text;
           $$->mtype = $5;
       }
     | OPEN mexp { $$ = mk_decl(scanner, D_OPEN, @$, $1.doc); $$->mexp = $2; }
     ;

/* ---- Modules ---- */

modparams: %empty { $$ = NULL; }
         | modparams modparam { $$ = plist_push(AR, $1, $2); }
         ;

modparams1: modparam { $$ = plist_push(AR, NULL, $1); }
          | modparams1 modparam { $$ = plist_push(AR, $1, $2); }
          ;

modparam: LPAR ID COLON mtype RPAR { $$ = mk_modparam(scanner, $2, $4, @$); }
        ;

opt_msig: %empty { $$ = NULL; }
        | COLON mtype { $$ = $2; }
        ;

mexp: mexp_app { $$ = $1; }
    | mexp COLON mtype { $$ = mk_mexp(scanner, ME_ASCRIBE, @$); $$->e1 = $1; $$->mtype = $3; }
    | BACKSLASH modparams1 ARROW mexp { $$ = mk_functor(scanner, $2, NULL, $4, @$); }
    | BACKSLASH modparams1 COLON mtype_noarrow ARROW mexp { $$ = mk_functor(scanner, $2, $4, $6, @$); }
    ;

mexp_app: mexp_head { $$ = $1; }
        | mexp_app mexp_atom { $$ = mk_mexp(scanner, ME_APPLY, @$); $$->e1 = $1; $$->e2 = $2; }
        ;

mexp_head: mexp_atom { $$ = $1; }
         | IMPORT STRINGLIT {
               $$ = mk_mexp(scanner, ME_IMPORT, @$);
               $$->import = mk_import(scanner, $2, @$, NULL);
           }
         ;

mexp_atom: ID { $$ = mk_mexp(scanner, ME_NAME, @$); $$->name = $1.qn; }
         | QUALID { $$ = mk_mexp(scanner, ME_NAME, @$); $$->name = $1.qn; }
         | LPAR mexp RPAR { $$ = $2; }
         | LBRACE decls RBRACE {
               $$ = mk_mexp(scanner, ME_STRUCT, @$);
               $$->decls = list_array(scanner, $2, sizeof(Decl *));
               $$->ndecls = plist_len($2);
           }
         ;

mtype: mtype_noarrow { $$ = $1; }
     | mtype_noarrow ARROW mtype { $$ = mk_mtype(scanner, MT_ARROW, @$); $$->param = $1; $$->res = $3; }
     | LPAR ID COLON mtype RPAR ARROW mtype {
           $$ = mk_mtype(scanner, MT_ARROW, @$);
           $$->pname = $2.text;
           $$->param = $4;
           $$->res = $7;
       }
     ;

mtype_noarrow: ID { $$ = mk_mtype(scanner, MT_NAME, @$); $$->name = $1.qn; }
             | QUALID { $$ = mk_mtype(scanner, MT_NAME, @$); $$->name = $1.qn; }
             | LBRACE specs RBRACE {
                   $$ = mk_mtype(scanner, MT_SPECS, @$);
                   $$->specs = list_array(scanner, $2, sizeof(Spec *));
                   $$->nspecs = plist_len($2);
               }
             | LPAR mtype RPAR { $$ = $2; }
             | mtype_noarrow WITH ID funparams EQUALS type {
                   $$ = mk_mtype(scanner, MT_WITH, @$);
                   $$->mt = $1;
                   $$->name = $3.qn;
                   only_tparams(scanner, $4, &$$->tparams, &$$->ntparams, "a refined type");
                   $$->type = $6;
               }
             | mtype_noarrow WITH QUALID funparams EQUALS type {
                   $$ = mk_mtype(scanner, MT_WITH, @$);
                   $$->mt = $1;
                   $$->name = $3.qn;
                   only_tparams(scanner, $4, &$$->tparams, &$$->ntparams, "a refined type");
                   $$->type = $6;
               }
             ;

specs: %empty { $$ = NULL; }
     | specs spec { $$ = $2 ? plist_push(AR, $1, $2) : $1; }
     ;

spec: VAL ID funparams COLON type {
          $$ = mk_spec(scanner, SP_VAL, @$);
          $$->name = $2.text;
          only_tparams(scanner, $3, &$$->tparams, &$$->ntparams, "a value specification");
          $$->type = $5;
      }
    | VAL LPAR anyop RPAR funparams COLON type {
          $$ = mk_spec(scanner, SP_VAL, @$);
          $$->name = $3.text;
          only_tparams(scanner, $5, &$$->tparams, &$$->ntparams, "a value specification");
          $$->type = $7;
      }
    | VAL anyop funparams COLON type {
          $$ = mk_spec(scanner, SP_VAL, @$);
          $$->name = $2.text;
          only_tparams(scanner, $3, &$$->tparams, &$$->ntparams, "a value specification");
          $$->type = $5;
      }
    | TYPE ID funparams {
          $$ = mk_spec(scanner, SP_TYPE, @$);
          $$->name = $2.text;
          $$->lifted = (Liftedness)$1.flag;
          only_tparams(scanner, $3, &$$->tparams, &$$->ntparams, "a type specification");
      }
    | TYPE ID funparams EQUALS type {
          $$ = mk_spec(scanner, SP_TYPE, @$);
          $$->name = $2.text;
          $$->lifted = (Liftedness)$1.flag;
          only_tparams(scanner, $3, &$$->tparams, &$$->ntparams, "a type specification");
          $$->type = $5;
      }
    | MODULE ID COLON mtype { $$ = mk_spec(scanner, SP_MODULE, @$); $$->name = $2.text; $$->mtype = $4; }
    | INCLUDE mtype { $$ = mk_spec(scanner, SP_INCLUDE, @$); $$->mtype = $2; }
    | ATTR spec { $$ = $2; }
    ;

val_kw: DEF { $$ = $1; $$.flag = 0; }
      | ENTRY { $$ = $1; $$.flag = 1; }
      | LET { $$ = $1; $$.flag = 0; }
      ;

anyop: anyop_nominus { $$ = $1; }
     | MINUS { $$ = $1; }
     ;

anyop_nominus: OP_PIPE_R | OP_PIPE_L | OP_OR | OP_AND | OP_CMP | LT | OP_BIT
             | OP_SHIFT | OP_ADD | OP_MUL | ASTERISK | OP_POW
             ;

/* Type, size and value parameters of a definition, in source order. */
funparams: %empty { $$ = NULL; }
         | funparams funparam { $$ = plist_push(AR, $1, $2); }
         ;

funparam: funparam0 { $$ = $1; }
        | IDX_LBRACKET ID RBRACKET { $$ = mk_fp(scanner, mk_tparam(scanner, TP_SIZE, $2, @$), NULL); }
        ;

/* The first parameter of a local function: "let f[n]" would be an update. */
funparam0: tparam { $$ = mk_fp(scanner, $1, NULL); }
         | pat_atom { $$ = mk_fp(scanner, NULL, $1); }
         ;

funparams0: funparam0 { $$ = plist_push(AR, NULL, $1); }
          | funparams0 funparam { $$ = plist_push(AR, $1, $2); }
          ;

tparam: APOS ID { $$ = mk_tparam(scanner, TP_TYPE, $2, @$); }
      | APOS_TILDE ID { $$ = mk_tparam(scanner, TP_TYPE_SIZES, $2, @$); }
      | APOS_HAT ID { $$ = mk_tparam(scanner, TP_TYPE_LIFTED, $2, @$); }
      | LBRACKET ID RBRACKET { $$ = mk_tparam(scanner, TP_SIZE, $2, @$); }
      ;

opt_ret: %empty { $$ = NULL; }
       | COLON type { $$ = $2; }
       ;

/* ---- Patterns ---- */

pat: pat_atom { $$ = $1; }
   | ATTR pat { $$ = $2; attr_prepend(scanner, &$$->attrs, &$$->nattrs, $1.text); }
   | pat_atom COLON type {
         $$ = mk_pat(scanner, P_ASCRIBE, @$);
         $$->inner = $1;
         $$->type = $3;
     }
   | CONSTR constr_pats {
         $$ = mk_pat(scanner, P_CONSTR, @$);
         $$->name = $1.text;
         $$->elems = list_array(scanner, $2, sizeof(Pat *));
         $$->nelems = $2->len;
     }
   | MINUS INTLIT { $$ = mk_pat(scanner, P_LIT, @$); $$->lit = mk_exp(scanner, EX_NEG, @$); $$->lit->e1 = mk_lit(scanner, EX_INT, $2, @2); }
   | MINUS FLOATLIT { $$ = mk_pat(scanner, P_LIT, @$); $$->lit = mk_exp(scanner, EX_NEG, @$); $$->lit->e1 = mk_lit(scanner, EX_FLOAT, $2, @2); }
   ;

constr_pats: pat_atom { $$ = plist_push(AR, NULL, $1); }
           | constr_pats pat_atom { $$ = plist_push(AR, $1, $2); }
           ;

/* A literal pattern; negative numbers are patterns of their own (pat),
 * since a parameter list may be followed by the operator "-". */
pat_lit: INTLIT { $$ = mk_pat(scanner, P_LIT, @$); $$->lit = mk_lit(scanner, EX_INT, $1, @$); }
       | CHARLIT { $$ = mk_pat(scanner, P_LIT, @$); $$->lit = mk_lit(scanner, EX_INT, $1, @$); }
       | FLOATLIT { $$ = mk_pat(scanner, P_LIT, @$); $$->lit = mk_lit(scanner, EX_FLOAT, $1, @$); }
       | TRUE { $$ = mk_pat(scanner, P_LIT, @$); $$->lit = mk_exp(scanner, EX_BOOL, @$); $$->lit->bvalue = true; }
       | FALSE { $$ = mk_pat(scanner, P_LIT, @$); $$->lit = mk_exp(scanner, EX_BOOL, @$); }
       ;

pat_atom: ID { $$ = mk_pat(scanner, P_ID, @$); $$->name = $1.text; }
        | UNDERSCORE { $$ = mk_pat(scanner, P_WILD, @$); }
        | CONSTR { $$ = mk_pat(scanner, P_CONSTR, @$); $$->name = $1.text; }
        | pat_lit { $$ = $1; }
        | LPAR RPAR { $$ = mk_pat(scanner, P_TUPLE, @$); }
        | LPAR anyop RPAR { $$ = mk_pat(scanner, P_ID, @$); $$->name = $2.text; } /* ((<=): t -> t -> bool) */
        | LPAR pat RPAR { $$ = $2; }
        | LPAR pat COMMA pats_tc RPAR {
              $$ = mk_pat(scanner, P_TUPLE, @$);
              PtrList *l = plist_push(AR, NULL, $2);
              for (int i = 0; i < plist_len($4); i++) l = plist_push(AR, l, $4->items[i]);
              $$->elems = list_array(scanner, l, sizeof(Pat *));
              $$->nelems = l->len;
          }
        | LBRACE RBRACE { $$ = mk_pat(scanner, P_RECORD, @$); }
        | LBRACE pfields_tc RBRACE {
              $$ = mk_pat(scanner, P_RECORD, @$);
              $$->nfields = $2->len;
              $$->fields = NEW_ARRAY(AR, PatField, $2->len);
              for (int i = 0; i < $2->len; i++) $$->fields[i] = *(PatField *)$2->items[i];
          }
        ;

pats: pat { $$ = plist_push(AR, NULL, $1); }
    | pats COMMA pat { $$ = plist_push(AR, $1, $3); }
    ;

/* Comma-separated lists take an optional trailing comma, as in Futhark. */
pats_tc: pats { $$ = $1; }
       | pats COMMA { $$ = $1; }
       ;

pfields: pfield { $$ = plist_push(AR, NULL, $1); }
       | pfields COMMA pfield { $$ = plist_push(AR, $1, $3); }
       ;

pfields_tc: pfields { $$ = $1; }
          | pfields COMMA { $$ = $1; }
          ;

pfield: ID {
            $$ = NEW(AR, PatField);
            $$->name = $1.text;
            $$->pat = mk_pat(scanner, P_ID, @$);
            $$->pat->name = $1.text;
        }
      | fieldid EQUALS pat { $$ = NEW(AR, PatField); $$->name = $1.text; $$->pat = $3; }
      | fieldid COLON type {
            /* {x: t} binds x with an ascription: {x = (x : t)} */
            $$ = NEW(AR, PatField);
            $$->name = $1.text;
            $$->pat = mk_pat(scanner, P_ASCRIBE, @$);
            $$->pat->inner = mk_pat(scanner, P_ID, @1);
            $$->pat->inner->name = $1.text;
            $$->pat->type = $3;
            if (is_numeric_name($1.text))
                diag_error(@1, "a numeric field name cannot be bound as a variable; write {%s = p : t}", $1.text);
        }
      ;

/* A record field name: an identifier or a decimal number ({0 = x}). */
fieldid: ID { $$ = $1; }
       | INTLIT { $$ = numeric_field(scanner, $1, @1); }
       ;

/* ---- Types ---- */

type: type_noarrow ARROW type {
          $$ = mk_type(scanner, TE_ARROW, @$);
          $$->param = $1;
          $$->result = $3;
      }
    | LPAR ID COLON type RPAR ARROW type {
          $$ = mk_type(scanner, TE_ARROW, @$);
          $$->pname = $2.text;
          $$->param = $4;
          $$->result = $7;
      }
    | type_noarrow %prec LOWEST { $$ = $1; }
    ;

type_noarrow: ASTERISK type_noarrow { $$ = mk_type(scanner, TE_UNIQUE, @$); $$->elem = $2; }
            | LBRACKET oexp RBRACKET type_noarrow { $$ = mk_type(scanner, TE_ARRAY, @$); $$->dim = $2; $$->elem = $4; }
            | IDX_LBRACKET oexp RBRACKET type_noarrow { $$ = mk_type(scanner, TE_ARRAY, @$); $$->dim = $2; $$->elem = $4; }
            | LBRACKET RBRACKET type_noarrow { $$ = mk_type(scanner, TE_ARRAY, @$); $$->elem = $3; }
            | IDX_LBRACKET RBRACKET type_noarrow { $$ = mk_type(scanner, TE_ARRAY, @$); $$->elem = $3; }
            | QUESTION exist_dims DOT type_noarrow {
                  $$ = mk_type(scanner, TE_EXIST, @$);
                  $$->exist_names = list_array(scanner, $2, sizeof(const char *));
                  $$->nexist = $2->len;
                  $$->elem = $4;
              }
            | QUESTION exist_dims projs {
                  /* ?[n].t and ?[n].M.t: the name lexes as projections */
                  $$ = mk_type(scanner, TE_EXIST, @$);
                  $$->exist_names = list_array(scanner, $2, sizeof(const char *));
                  $$->nexist = $2->len;
                  $$->elem = mk_type(scanner, TE_NAME, @3);
                  $$->elem->name.parts = list_array(scanner, $3, sizeof(const char *));
                  $$->elem->name.nparts = $3->len;
              }
            | QUESTION exist_dims projs type_args {
                  /* ?[n].vec [n] t */
                  $$ = mk_type(scanner, TE_EXIST, @$);
                  $$->exist_names = list_array(scanner, $2, sizeof(const char *));
                  $$->nexist = $2->len;
                  $$->elem = mk_type(scanner, TE_NAME, loc_span(@3, @4));
                  $$->elem->name.parts = list_array(scanner, $3, sizeof(const char *));
                  $$->elem->name.nparts = $3->len;
                  $$->elem->args = NEW_ARRAY(AR, TypeArg, $4->len);
                  for (int i = 0; i < $4->len; i++) $$->elem->args[i] = *(TypeArg *)$4->items[i];
                  $$->elem->nargs = $4->len;
              }
            | ID type_args {
                  $$ = mk_type(scanner, TE_NAME, @$);
                  $$->name = $1.qn;
                  $$->args = NEW_ARRAY(AR, TypeArg, $2->len);
                  for (int i = 0; i < $2->len; i++) $$->args[i] = *(TypeArg *)$2->items[i];
                  $$->nargs = $2->len;
              }
            | QUALID type_args {
                  $$ = mk_type(scanner, TE_NAME, @$);
                  $$->name = $1.qn;
                  $$->args = NEW_ARRAY(AR, TypeArg, $2->len);
                  for (int i = 0; i < $2->len; i++) $$->args[i] = *(TypeArg *)$2->items[i];
                  $$->nargs = $2->len;
              }
            | type_atom { $$ = $1; }
            | sum_clauses %prec LOWEST {
                  $$ = mk_type(scanner, TE_SUM, @$);
                  $$->nfields = $1->len;
                  $$->fields = NEW_ARRAY(AR, TypeExpField, $1->len);
                  for (int i = 0; i < $1->len; i++) $$->fields[i] = *(TypeExpField *)$1->items[i];
              }
            ;

/* A sum type's constructors: #a t1 t2 | #b. */
sum_clauses: sum_clause { $$ = plist_push(AR, NULL, $1); }
           | sum_clauses OP_BIT sum_clause {
                 if (strcmp($2.text, "|") != 0) diag_error(@2, "unexpected \"%s\" in a sum type; constructors are separated by \"|\"", $2.text);
                 $$ = plist_push(AR, $1, $3);
             }
           ;

sum_clause: CONSTR sum_payload {
                $$ = NEW(AR, TypeExpField);
                $$->name = $1.text;
                $$->loc = @$;
                $$->type = mk_type(scanner, TE_TUPLE, @$);
                $$->type->elems = list_array(scanner, $2, sizeof(TypeExp *));
                $$->type->nelems = plist_len($2);
            }
          ;

sum_payload: %empty { $$ = NULL; }
           | sum_payload sum_payload_type { $$ = plist_push(AR, $1, $2); }
           ;

/* A payload type: an atom or an array of one ("#foo []i32"). */
sum_payload_type: type_atom { $$ = $1; }
                | LBRACKET oexp RBRACKET sum_payload_type { $$ = mk_type(scanner, TE_ARRAY, @$); $$->dim = $2; $$->elem = $4; }
                | IDX_LBRACKET oexp RBRACKET sum_payload_type { $$ = mk_type(scanner, TE_ARRAY, @$); $$->dim = $2; $$->elem = $4; }
                | LBRACKET RBRACKET sum_payload_type { $$ = mk_type(scanner, TE_ARRAY, @$); $$->elem = $3; }
                | IDX_LBRACKET RBRACKET sum_payload_type { $$ = mk_type(scanner, TE_ARRAY, @$); $$->elem = $3; }
                ;

exist_dims: LBRACKET ID RBRACKET { $$ = plist_push(AR, NULL, (void *)$2.text); }
          | IDX_LBRACKET ID RBRACKET { $$ = plist_push(AR, NULL, (void *)$2.text); }
          | exist_dims IDX_LBRACKET ID RBRACKET { $$ = plist_push(AR, $1, (void *)$3.text); }
          | exist_dims LBRACKET ID RBRACKET { $$ = plist_push(AR, $1, (void *)$3.text); }
          ;

type_args: type_arg { $$ = plist_push(AR, NULL, $1); }
         | type_args type_arg { $$ = plist_push(AR, $1, $2); }
         ;

/* A size argument: "matrix [n][m]" has no space between its brackets, so
 * the second one arrives as the indexing bracket. As in Futhark, "[n]" after
 * a type name is always a size argument: "vec [n]t" is vec applied to [n]
 * and t. */
type_arg: LBRACKET oexp RBRACKET { $$ = NEW(AR, TypeArg); $$->is_size = true; $$->size = $2; }
        | IDX_LBRACKET oexp RBRACKET { $$ = NEW(AR, TypeArg); $$->is_size = true; $$->size = $2; }
        | LBRACKET RBRACKET { $$ = NEW(AR, TypeArg); $$->is_size = true; }
        | IDX_LBRACKET RBRACKET { $$ = NEW(AR, TypeArg); $$->is_size = true; }
        | type_atom { $$ = NEW(AR, TypeArg); $$->type = $1; }
        ;

type_atom: ID { $$ = mk_type(scanner, TE_NAME, @$); $$->name = $1.qn; }
         | QUALID { $$ = mk_type(scanner, TE_NAME, @$); $$->name = $1.qn; }
         | LPAR RPAR { $$ = mk_type(scanner, TE_TUPLE, @$); }
         | LPAR type RPAR { $$ = $2; }
         | LPAR type COMMA types_tc RPAR {
               $$ = mk_type(scanner, TE_TUPLE, @$);
               PtrList *l = plist_push(AR, NULL, $2);
               for (int i = 0; i < $4->len; i++) l = plist_push(AR, l, $4->items[i]);
               $$->elems = list_array(scanner, l, sizeof(TypeExp *));
               $$->nelems = l->len;
           }
         | LBRACE RBRACE { $$ = mk_type(scanner, TE_RECORD, @$); }
         | LBRACE tfields_tc RBRACE {
               $$ = mk_type(scanner, TE_RECORD, @$);
               $$->nfields = $2->len;
               $$->fields = NEW_ARRAY(AR, TypeExpField, $2->len);
               for (int i = 0; i < $2->len; i++) $$->fields[i] = *(TypeExpField *)$2->items[i];
           }
         ;

types: type { $$ = plist_push(AR, NULL, $1); }
     | types COMMA type { $$ = plist_push(AR, $1, $3); }
     ;

types_tc: types { $$ = $1; }
        | types COMMA { $$ = $1; }
        ;

tfields: tfield { $$ = plist_push(AR, NULL, $1); }
       | tfields COMMA tfield { $$ = plist_push(AR, $1, $3); }
       ;

tfields_tc: tfields { $$ = $1; }
          | tfields COMMA { $$ = $1; }
          ;

tfield: fieldid COLON type { $$ = NEW(AR, TypeExpField); $$->name = $1.text; $$->type = $3; $$->loc = @$; }
      ;

/* ---- Expressions ---- */

/* exp: ascriptions; rexp: ranges; oexp: operators and binding forms. */
exp: rexp %prec LOWEST { $$ = $1; }
   | rexp COLON type { $$ = mk_exp(scanner, EX_ASCRIBE, @$); $$->e1 = $1; $$->ret = $3; }
   | rexp COERCE type { $$ = mk_exp(scanner, EX_COERCE, @$); $$->e1 = $1; $$->ret = $3; }
   ;

rexp: oexp %prec LOWEST { $$ = $1; }
    | oexp DOTDOT oexp { $$ = mk_range(scanner, $1, NULL, $3, RANGE_INCL, @$); }
    | oexp DOTDOTDOT oexp { $$ = mk_range(scanner, $1, NULL, $3, RANGE_INCL, @$); }
    | oexp DOTDOTLT oexp { $$ = mk_range(scanner, $1, NULL, $3, RANGE_UPTO, @$); }
    | oexp DOTDOTGT oexp { $$ = mk_range(scanner, $1, NULL, $3, RANGE_DOWNTO, @$); }
    | oexp DOTDOT oexp DOTDOT oexp { $$ = mk_range(scanner, $1, $3, $5, RANGE_INCL, @$); }
    | oexp DOTDOT oexp DOTDOTDOT oexp { $$ = mk_range(scanner, $1, $3, $5, RANGE_INCL, @$); }
    | oexp DOTDOT oexp DOTDOTLT oexp { $$ = mk_range(scanner, $1, $3, $5, RANGE_UPTO, @$); }
    | oexp DOTDOT oexp DOTDOTGT oexp { $$ = mk_range(scanner, $1, $3, $5, RANGE_DOWNTO, @$); }
    ;

oexp: oexp OP_PIPE_R oexp { $$ = mk_binop(scanner, $1, $2, $3, @$); }
    | oexp OP_PIPE_L oexp { $$ = mk_binop(scanner, $1, $2, $3, @$); }
    | oexp OP_OR oexp { $$ = mk_binop(scanner, $1, $2, $3, @$); }
    | oexp OP_AND oexp { $$ = mk_binop(scanner, $1, $2, $3, @$); }
    | oexp OP_CMP oexp { $$ = mk_binop(scanner, $1, $2, $3, @$); }
    | oexp LT oexp { $$ = mk_binop(scanner, $1, $2, $3, @$); }
    | oexp OP_BIT oexp { $$ = mk_binop(scanner, $1, $2, $3, @$); }
    | oexp OP_SHIFT oexp { $$ = mk_binop(scanner, $1, $2, $3, @$); }
    | oexp OP_ADD oexp { $$ = mk_binop(scanner, $1, $2, $3, @$); }
    | oexp MINUS oexp { $$ = mk_binop(scanner, $1, $2, $3, @$); }
    | oexp OP_MUL oexp { $$ = mk_binop(scanner, $1, $2, $3, @$); }
    | oexp ASTERISK oexp { $$ = mk_binop(scanner, $1, $2, $3, @$); }
    | oexp OP_POW oexp { $$ = mk_binop(scanner, $1, $2, $3, @$); }
    | oexp BACKTICK oexp {
          $$ = mk_exp(scanner, EX_APPLY, @$);
          $$->e1 = mk_var(scanner, $2.qn, @2);
          $$->elems = NEW_ARRAY(AR, Exp *, 2);
          $$->elems[0] = $1;
          $$->elems[1] = $3;
          $$->nelems = 2;
      }
    | MINUS oexp %prec UNARY { $$ = mk_exp(scanner, EX_NEG, @$); $$->e1 = $2; }
    | BANG oexp %prec UNARY { $$ = mk_exp(scanner, EX_NOT, @$); $$->e1 = $2; }
    | oexp WITH LBRACKET dims_tc RBRACKET upd_steps EQUALS oexp %prec WITH {
          $$ = mk_path_update(scanner, $1, plist_push(AR, NULL, mk_slice_step(scanner, $4, @3)), $6, $8, @$);
      }
    | oexp WITH ID upd_steps EQUALS oexp %prec WITH { $$ = mk_path_update(scanner, $1, field_steps(scanner, $3, @3), $4, $6, @$); }
    | oexp WITH QUALID upd_steps EQUALS oexp %prec WITH { $$ = mk_path_update(scanner, $1, field_steps(scanner, $3, @3), $4, $6, @$); }
    | oexp WITH INTLIT upd_steps EQUALS oexp %prec WITH {
          /* t with 0 = v, t with 0.x = v, t with 0[i] = v (a path such as
             "0.1" lexes as a decimal literal) */
          PtrList *first = plist_push(AR, NULL, mk_field_step(scanner, numeric_field(scanner, $3, @3).text, @3));
          $$ = mk_path_update(scanner, $1, first, $4, $6, @$);
      }
    | IF exp THEN exp ELSE exp %prec LOWEST {
          $$ = mk_exp(scanner, EX_IF, @$);
          $$->e1 = $2;
          $$->e2 = $4;
          $$->e3 = $6;
      }
    | let_exp { $$ = $1; }
    | LOOP pat opt_init FOR ID LT exp DO exp %prec LOWEST {
          $$ = mk_exp(scanner, EX_LOOP, @$);
          $$->pat = $2;
          $$->e1 = $3;
          $$->form = LOOP_FOR_UPTO;
          $$->loop_var = $5.text;
          $$->e3 = $7;
          $$->e2 = $9;
      }
    | LOOP pat opt_init FOR pat IN exp DO exp %prec LOWEST {
          $$ = mk_exp(scanner, EX_LOOP, @$);
          $$->pat = $2;
          $$->e1 = $3;
          $$->form = LOOP_FOR_IN;
          $$->pat2 = $5;
          $$->e3 = $7;
          $$->e2 = $9;
      }
    | LOOP pat opt_init WHILE exp DO exp %prec LOWEST {
          $$ = mk_exp(scanner, EX_LOOP, @$);
          $$->pat = $2;
          $$->e1 = $3;
          $$->form = LOOP_WHILE;
          $$->e3 = $5;
          $$->e2 = $7;
      }
    | BACKSLASH params1 lam_ret ARROW exp %prec LOWEST { $$ = mk_lambda(scanner, $2, $3, $5, @$); }
    | apply_list BACKSLASH params1 lam_ret ARROW exp %prec LOWEST {
          /* f x \y -> e: a lambda as the last argument needs no parentheses */
          $$ = mk_apply(scanner, plist_push(AR, $1, mk_lambda(scanner, $3, $4, $6, loc_span(@2, @6))), @$);
      }
    | ATTR exp %prec LOWEST { $$ = $2; attr_prepend(scanner, &$$->attrs, &$$->nattrs, $1.text); }
    | ASSERT atom atom { $$ = mk_exp(scanner, EX_ASSERT, @$); $$->e1 = $2; $$->e2 = $3; }
    | MATCH exp cases %prec LOWEST {
          $$ = mk_exp(scanner, EX_MATCH, @$);
          $$->e1 = $2;
          $$->nparams = $$->nelems = $3->len / 2;
          $$->params = NEW_ARRAY(AR, Pat *, $$->nparams);
          $$->elems = NEW_ARRAY(AR, Exp *, $$->nelems);
          for (int i = 0; i < $$->nparams; i++) {
              $$->params[i] = $3->items[2 * i];
              $$->elems[i] = $3->items[2 * i + 1];
          }
      }
    | apply { $$ = $1; }
    ;

/* The cases of a match: pattern and body alternate in the list. A case's
 * body extends as far as possible, so a match nested in it takes the
 * cases after it. */
cases: CASE pat ARROW exp { $$ = plist_push(AR, plist_push(AR, NULL, $2), $4); }
     | cases CASE pat ARROW exp { $$ = plist_push(AR, plist_push(AR, $1, $3), $5); }
     ;

opt_init: %empty { $$ = NULL; }
        | EQUALS exp { $$ = $2; }
        ;

lam_ret: %empty { $$ = NULL; }
       | COLON type_noarrow { $$ = $2; }
       ;

params1: pat_atom { $$ = plist_push(AR, NULL, $1); }
       | params1 pat_atom { $$ = plist_push(AR, $1, $2); }
       ;

let_exp: LET pat EQUALS exp let_body { $$ = mk_let(scanner, $2, $4, $5, @$); }
       | LET size_binders pat EQUALS exp let_body {
             $$ = mk_let(scanner, $3, $5, $6, @$);
             $$->ntparams = $2->len;
             $$->tparams = NEW_ARRAY(AR, TypeParam, $2->len);
             for (int i = 0; i < $2->len; i++) $$->tparams[i] = *(TypeParam *)$2->items[i];
         }
       | LET ID funparams0 opt_ret EQUALS exp let_body {
             $$ = mk_letfun(scanner, $2, $3, $4, $6, $7, @$);
         }
       | LET ID IDX_LBRACKET dims_tc RBRACKET EQUALS exp let_body {
             $$ = mk_exp(scanner, EX_LET_UPDATE, @$);
             $$->fname = $2.text;
             $$->slice = list_array(scanner, $4, sizeof(DimIndex));
             $$->nslice = $4->len;
             $$->e1 = $7;
             $$->e2 = $8;
         }
       | LET ID IDX_LBRACKET dims_tc RBRACKET upd_steps1 EQUALS exp let_body {
             /* let xs[i].f = v: let xs = xs with [i].f = v */
             PtrList *steps = plist_push(AR, NULL, mk_slice_step(scanner, $4, @3));
             $$ = mk_let_path_update(scanner, $2, @2, steps, $6, $8, $9, @$);
         }
       | LET QUALID upd_steps EQUALS exp let_body {
             /* let r.f.g = v, let r.f[i] = v: let r = r with f.g = v */
             Tok head = $2;
             head.qn.parts = $2.qn.parts;
             head.qn.nparts = 1;
             head.text = $2.qn.parts[0];
             QualName rest = {$2.qn.parts + 1, $2.qn.nparts - 1};
             PtrList *steps = NULL;
             for (int i = 0; i < rest.nparts; i++) steps = plist_push(AR, steps, mk_field_step(scanner, rest.parts[i], @2));
             $$ = mk_let_path_update(scanner, head, @2, steps, $3, $5, $6, @$);
         }
       ;

/* The steps of an update path after its first: brackets and fields. */
upd_steps: %empty { $$ = NULL; }
         | upd_steps1 { $$ = $1; }
         ;

upd_steps1: IDX_LBRACKET dims_tc RBRACKET { $$ = plist_push(AR, NULL, mk_slice_step(scanner, $2, @1)); }
          | PROJ { $$ = plist_push(AR, NULL, mk_field_step(scanner, $1.text, @1)); }
          | upd_steps1 IDX_LBRACKET dims_tc RBRACKET { $$ = plist_push(AR, $1, mk_slice_step(scanner, $3, @2)); }
          | upd_steps1 PROJ { $$ = plist_push(AR, $1, mk_field_step(scanner, $2.text, @2)); }
          ;

/* "let [n][m] p = e": the first bracket follows a space, later ones a ']'. */
size_binders: LBRACKET ID RBRACKET { $$ = plist_push(AR, NULL, mk_tparam(scanner, TP_SIZE, $2, @2)); }
            | size_binders IDX_LBRACKET ID RBRACKET { $$ = plist_push(AR, $1, mk_tparam(scanner, TP_SIZE, $3, @3)); }
            | size_binders LBRACKET ID RBRACKET { $$ = plist_push(AR, $1, mk_tparam(scanner, TP_SIZE, $3, @3)); }
            ;

let_body: IN exp %prec LOWEST { $$ = $2; }
        | let_exp { $$ = $1; }
        ;

apply: apply_list { $$ = mk_apply(scanner, $1, @$); }
     ;

apply_list: atom { $$ = plist_push(AR, NULL, $1); }
          | apply_list atom { $$ = plist_push(AR, $1, $2); }
          ;

atom: INTLIT { $$ = mk_lit(scanner, EX_INT, $1, @$); }
    | CHARLIT { $$ = mk_lit(scanner, EX_INT, $1, @$); }
    | FLOATLIT { $$ = mk_lit(scanner, EX_FLOAT, $1, @$); }
    | STRINGLIT { $$ = mk_exp(scanner, EX_STRING, @$); $$->str = $1.str; $$->strlen = $1.len; }
    | TRUE { $$ = mk_exp(scanner, EX_BOOL, @$); $$->bvalue = true; }
    | HOLE { $$ = mk_exp(scanner, EX_HOLE, @$); }
    | FALSE { $$ = mk_exp(scanner, EX_BOOL, @$); $$->bvalue = false; }
    | CONSTR { $$ = mk_exp(scanner, EX_CONSTR, @$); $$->field = $1.text; }
    | ID { $$ = mk_var(scanner, $1.qn, @$); }
    | QUALID { $$ = mk_var(scanner, $1.qn, @$); }
    | LPAR RPAR { $$ = mk_exp(scanner, EX_TUPLE, @$); }
    | LPAR exp RPAR { $$ = $2; }
    | LPAR exp COMMA exps_tc RPAR {
          $$ = mk_exp(scanner, EX_TUPLE, @$);
          PtrList *l = plist_push(AR, NULL, $2);
          for (int i = 0; i < $4->len; i++) l = plist_push(AR, l, $4->items[i]);
          $$->elems = list_array(scanner, l, sizeof(Exp *));
          $$->nelems = l->len;
      }
    | LBRACE RBRACE { $$ = mk_exp(scanner, EX_RECORD, @$); }
    | LBRACE efields_tc RBRACE {
          $$ = mk_exp(scanner, EX_RECORD, @$);
          $$->nfields = $2->len;
          $$->fields = NEW_ARRAY(AR, ExpField, $2->len);
          for (int i = 0; i < $2->len; i++) $$->fields[i] = *(ExpField *)$2->items[i];
      }
    | LBRACKET RBRACKET { $$ = mk_exp(scanner, EX_ARRAY, @$); }
    | LBRACKET exps_tc RBRACKET {
          $$ = mk_exp(scanner, EX_ARRAY, @$);
          $$->elems = list_array(scanner, $2, sizeof(Exp *));
          $$->nelems = $2->len;
      }
    | atom PROJ { $$ = mk_exp(scanner, EX_PROJECT, @$); $$->e1 = $1; $$->field = $2.text; }
    | atom IDX_LBRACKET dims_tc RBRACKET {
          $$ = mk_exp(scanner, EX_INDEX, @$);
          $$->e1 = $1;
          $$->slice = list_array(scanner, $3, sizeof(DimIndex));
          $$->nslice = $3->len;
      }
    | LPAR anyop RPAR { $$ = mk_section(scanner, NULL, op_text(scanner, $2), NULL, @$); }
    | LPAR anyop_nominus oexp RPAR { $$ = mk_section(scanner, NULL, op_text(scanner, $2), $3, @$); }
    | LPAR oexp anyop RPAR { $$ = mk_section(scanner, $2, op_text(scanner, $3), NULL, @$); }
    | LPAR BACKTICK RPAR { $$ = mk_section(scanner, NULL, qualname_text(scanner, $2.qn), NULL, @$); }
    | LPAR BACKTICK oexp RPAR { $$ = mk_section(scanner, NULL, qualname_text(scanner, $2.qn), $3, @$); }
    | LPAR oexp BACKTICK RPAR { $$ = mk_section(scanner, $2, qualname_text(scanner, $3.qn), NULL, @$); }
    | LPAR DOT LBRACKET dims_tc RBRACKET upd_steps RPAR {
          $$ = mk_path_section(scanner, plist_push(AR, NULL, mk_slice_step(scanner, $4, @3)), $6, @$);
      }
    | ID DOT LPAR exp RPAR { $$ = mk_exp(scanner, EX_OPEN, @$); $$->name = $1.qn; $$->e1 = $4; }
    | QUALID DOT LPAR exp RPAR { $$ = mk_exp(scanner, EX_OPEN, @$); $$->name = $1.qn; $$->e1 = $4; }
    | LPAR PROJ upd_steps RPAR {
          $$ = mk_path_section(scanner, plist_push(AR, NULL, mk_field_step(scanner, $2.text, @2)), $3, @$);
      }
    ;

projs: PROJ { $$ = plist_push(AR, NULL, (void *)$1.text); }
     | projs PROJ { $$ = plist_push(AR, $1, (void *)$2.text); }
     ;

exps: exp { $$ = plist_push(AR, NULL, $1); }
    | exps COMMA exp { $$ = plist_push(AR, $1, $3); }
    ;

exps_tc: exps { $$ = $1; }
       | exps COMMA { $$ = $1; }
       ;

efields: efield { $$ = plist_push(AR, NULL, $1); }
       | efields COMMA efield { $$ = plist_push(AR, $1, $3); }
       ;

efields_tc: efields { $$ = $1; }
          | efields COMMA { $$ = $1; }
          ;

efield: fieldid EQUALS exp { $$ = NEW(AR, ExpField); $$->name = $1.text; $$->exp = $3; $$->loc = @$; }
      | ID { $$ = NEW(AR, ExpField); $$->name = $1.text; $$->exp = mk_var(scanner, $1.qn, @1); $$->loc = @$; }
      ;

dims: dimidx { $$ = plist_push(AR, NULL, $1); }
    | dims COMMA dimidx { $$ = plist_push(AR, $1, $3); }
    ;

dims_tc: dims { $$ = $1; }
       | dims COMMA { $$ = $1; }
       ;

dimidx: oexp { $$ = NEW(AR, DimIndex); $$->index = $1; }
      | opt_oexp COLON opt_oexp { $$ = mk_slice(scanner, $1, $3, NULL); }
      | opt_oexp COLON opt_oexp COLON opt_oexp { $$ = mk_slice(scanner, $1, $3, $5); }
      ;

opt_oexp: %empty { $$ = NULL; }
        | oexp { $$ = $1; }
        ;

%%

/* The application of a list's head to the rest (the head alone when there
 * is no rest); #c a b: a constructor takes every argument as its payload. */
static Exp *mk_apply(void *scanner, PtrList *l, SrcLoc loc) {
    Exp *head = l->items[0], *e = head;
    if (l->len == 1) return head;
    if (head->kind != EX_CONSTR || head->nelems != 0) {
        e = mk_exp(scanner, EX_APPLY, loc);
        e->e1 = head;
    }
    e->loc = loc;
    e->nelems = l->len - 1;
    e->elems = NEW_ARRAY(AR, Exp *, e->nelems);
    COPY_ARRAY(e->elems, l->items + 1, e->nelems);
    return e;
}

/* l op r; a module's operator (l M.+ r) keeps its qualified name in name. */
static Exp *mk_binop(void *scanner, Exp *l, Tok op, Exp *r, SrcLoc loc) {
    Exp *e = mk_exp(scanner, EX_BINOP, loc);
    e->e1 = l;
    e->e2 = r;
    e->op = op.text;
    if (op.qn.nparts > 1) e->name = op.qn;
    return e;
}

/* An operator's text as a section names it: "+", or "M.+" for a module's. */
static const char *op_text(void *scanner, Tok op) {
    return op.qn.nparts > 1 ? qualname_text(scanner, op.qn) : op.text;
}

static Exp *mk_lit(void *scanner, ExpKind k, Tok t, SrcLoc loc) {
    Exp *e = mk_exp(scanner, k, loc);
    e->ivalue = t.ival;
    e->fvalue = t.fval;
    e->has_suffix = t.has_suffix;
    e->suffix = t.suffix;
    return e;
}

static Exp *mk_range(void *scanner, Exp *s, Exp *second, Exp *end, RangeKind k, SrcLoc loc) {
    Exp *e = mk_exp(scanner, EX_RANGE, loc);
    e->start = s;
    e->second = second;
    e->end = end;
    e->range = k;
    return e;
}

static Exp *mk_letfun(void *scanner, Tok name, PtrList *fps, TypeExp *ret, Exp *e1, Exp *body, SrcLoc loc) {
    Exp *e = mk_exp(scanner, EX_LETFUN, loc);
    e->fname = name.text;
    split_funparams(scanner, fps, &e->tparams, &e->ntparams, &e->params, &e->nparams);
    e->ret = ret;
    e->e1 = e1;
    e->e2 = body;
    return e;
}

/* #[text] written before a declaration, expression or pattern that may
 * already carry attributes: the new one comes first, as in the source. */
static void attr_prepend(void *scanner, Attr **attrs, int *n, const char *text) {
    Attr *a = NEW_ARRAY(AR, Attr, *n + 1);
    a[0].text = text;
    for (int i = 0; i < *n; i++) a[i + 1] = (*attrs)[i];
    *attrs = a;
    (*n)++;
}

static TypeExp *mk_type(void *scanner, TypeExpKind k, SrcLoc loc) {
    TypeExp *t = NEW(AR, TypeExp);
    t->kind = k;
    t->loc = loc;
    return t;
}

static Decl *mk_decl(void *scanner, DeclKind k, SrcLoc loc, const char *doc) {
    Decl *d = NEW(AR, Decl);
    d->kind = k;
    d->loc = loc;
    d->doc = doc;
    return d;
}

static Decl *mk_val(void *scanner, Tok kw, const char *name, PtrList *fps, TypeExp *ret, Exp *body, SrcLoc loc) {
    Decl *d = mk_decl(scanner, D_VAL, loc, kw.doc);
    d->name = name;
    d->is_entry = kw.flag == 1;
    split_funparams(scanner, fps, &d->tparams, &d->ntparams, &d->params, &d->nparams);
    d->ret = ret;
    d->body = body;
    return d;
}

static DimIndex *mk_slice(void *scanner, Exp *s, Exp *e, Exp *st) {
    DimIndex *d = NEW(AR, DimIndex);
    d->is_slice = true;
    d->start = s;
    d->end = e;
    d->stride = st;
    return d;
}

static FunParam *mk_fp(void *scanner, TypeParam *tp, Pat *pat) {
    FunParam *fp = NEW(AR, FunParam);
    fp->tp = tp;
    fp->pat = pat;
    return fp;
}

/* The parameters of an operator defined infix: def x op y. */
static PtrList *infix_params(void *scanner, Pat *left, Pat *right) {
    return plist_push(AR, plist_push(AR, NULL, mk_fp(scanner, NULL, left)), mk_fp(scanner, NULL, right));
}

static TypeParam *mk_tparam(void *scanner, TypeParamKind k, Tok name, SrcLoc loc) {
    TypeParam *tp = NEW(AR, TypeParam);
    tp->kind = k;
    tp->name = name.text;
    tp->loc = loc;
    return tp;
}

/* Splits a parameter list into type/size parameters and value patterns;
 * type parameters must come first. */
static void split_funparams(void *scanner, PtrList *fps, TypeParam **tps, int *ntps, Pat ***ps, int *nps) {
    int n = plist_len(fps), nt = 0, np = 0;
    for (int i = 0; i < n; i++) {
        FunParam *fp = fps->items[i];
        if (fp->tp && np > 0) diag_error(fp->tp->loc, "type parameters must come before value parameters");
        if (fp->tp) nt++; else np++;
    }
    *tps = nt ? NEW_ARRAY(AR, TypeParam, nt) : NULL;
    *ps = np ? NEW_ARRAY(AR, Pat *, np) : NULL;
    *ntps = *nps = 0;
    for (int i = 0; i < n; i++) {
        FunParam *fp = fps->items[i];
        if (fp->tp) (*tps)[(*ntps)++] = *fp->tp;
        else (*ps)[(*nps)++] = fp->pat;
    }
}

/* Whether s is a plain decimal number, the only numeric field names. */
static bool is_numeric_name(const char *s) {
    if (!s || !*s) return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9') return false;
    return true;
}

/* An integer literal used as a record field name ({0 = x}, t with 1 = v):
 * as in Futhark it must be a plain decimal number, and the field is named
 * by its text, so {0 = a, 1 = b} is the tuple (a, b). */
static Tok numeric_field(void *scanner, Tok t, SrcLoc loc) {
    if (!is_numeric_name(t.text)) {
        diag_error(loc, "field name '%s' must be an identifier or a plain decimal number",
                   t.text ? t.text : "");
        t.text = intern("0");
    }
    return t;
}

/* The dotted text of a qualified name ("i32.max"), interned. */
static const char *qualname_text(void *scanner, QualName qn) {
    if (qn.nparts == 1) return qn.parts[0];
    Buf b = {0};
    for (int i = 0; i < qn.nparts; i++) buf_printf(&b, "%s%s", i ? "." : "", qn.parts[i]);
    const char *s = intern(b.data);
    buf_free(&b);
    return s;
}

/* An operator section (l op r) with l or r (or both) missing. op is the
 * operator's text, or for a backticked function (`f` x) the function's
 * qualified name ("i32.max"). */
static Exp *mk_section(void *scanner, Exp *l, const char *op, Exp *r, SrcLoc loc) {
    Exp *e = mk_exp(scanner, EX_SECTION, loc);
    e->e1 = l;
    e->op = op;
    e->e2 = r;
    return e;
}

/* ---- Modules ---- */

static ModExp *mk_mexp(void *scanner, ModExpKind k, SrcLoc loc) {
    ModExp *m = NEW(AR, ModExp);
    m->kind = k;
    m->loc = loc;
    return m;
}

static ModTypeExp *mk_mtype(void *scanner, ModTypeExpKind k, SrcLoc loc) {
    ModTypeExp *m = NEW(AR, ModTypeExp);
    m->kind = k;
    m->loc = loc;
    return m;
}

static Spec *mk_spec(void *scanner, SpecKind k, SrcLoc loc) {
    Spec *s = NEW(AR, Spec);
    s->kind = k;
    s->loc = loc;
    return s;
}

static ModParam *mk_modparam(void *scanner, Tok name, ModTypeExp *mt, SrcLoc loc) {
    ModParam *p = NEW(AR, ModParam);
    p->name = name.text;
    p->mtype = mt;
    p->loc = loc;
    return p;
}

/* An import declaration (also the one a module expression "import" names),
 * recorded in the file's list of imports for the driver to load. */
static Decl *mk_import(void *scanner, Tok path, SrcLoc loc, const char *doc) {
    Decl *d = mk_decl(scanner, D_IMPORT, loc, doc);
    const char *s = path.str ? path.str : "";
    size_t n = strlen(s);
    if (n > 4 && strcmp(s + n - 4, ".fut") == 0) n -= 4;
    d->path = arena_strndup(AR, s, n);
    LS->imports = plist_push(AR, LS->imports, d);
    return d;
}

/* The module expression of "module m params : result = body" (and of a
 * module lambda): with parameters, nested lambdas of one parameter each,
 * the innermost carrying the result type; without, body ascribed to it. */
static ModExp *mk_functor(void *scanner, PtrList *params, ModTypeExp *result, ModExp *body, SrcLoc loc) {
    int n = plist_len(params);
    if (n == 0) {
        if (!result) return body;
        ModExp *a = mk_mexp(scanner, ME_ASCRIBE, loc);
        a->e1 = body;
        a->mtype = result;
        return a;
    }
    ModExp *m = body;
    for (int i = n - 1; i >= 0; i--) {
        ModParam *p = params->items[i];
        ModExp *l = mk_mexp(scanner, ME_LAMBDA, loc);
        l->pname = p->name;
        l->ploc = p->loc;
        l->mtype = p->mtype;
        l->result = i == n - 1 ? result : NULL;
        l->e1 = m;
        m = l;
    }
    return m;
}

/* The type and size parameters of a specification or refinement, which
 * take no value parameters. */
static void only_tparams(void *scanner, PtrList *fps, TypeParam **tps, int *ntps, const char *what) {
    Pat **ps;
    int nps;
    split_funparams(scanner, fps, tps, ntps, &ps, &nps);
    if (nps) diag_error(ps[0]->loc, "%s takes only type and size parameters", what);
}

/* The index section (.[i, j]) as the function it denotes, \a -> a[i, j],
 * since ast.h has no index-section node. The parameter is named so that
 * it does not capture a name used in the indices. */

/* ---- Error reporting ---- */

/* Most expected alternatives named in one message; more are summarised. */
enum { SYN_MAX_EXPECTED = 5 };

/* Whether a token can start an expression. */
static bool starts_exp(yysymbol_kind_t k) {
    switch (k) {
    case YYSYMBOL_INTLIT: case YYSYMBOL_FLOATLIT: case YYSYMBOL_CHARLIT:
    case YYSYMBOL_STRINGLIT: case YYSYMBOL_TRUE: case YYSYMBOL_FALSE:
    case YYSYMBOL_ID: case YYSYMBOL_QUALID: case YYSYMBOL_LPAR:
    case YYSYMBOL_LBRACKET: case YYSYMBOL_LBRACE: case YYSYMBOL_IF:
    case YYSYMBOL_LET: case YYSYMBOL_LOOP: case YYSYMBOL_BACKSLASH:
    case YYSYMBOL_MINUS: case YYSYMBOL_BANG: case YYSYMBOL_ASSERT:
    case YYSYMBOL_ATTR: case YYSYMBOL_CONSTR: case YYSYMBOL_MATCH:
        return true;
    default:
        return false;
    }
}

/* Whether a token continues an expression (operators, postfix forms). */
static bool continues_exp(yysymbol_kind_t k) {
    switch (k) {
    case YYSYMBOL_OP_PIPE_R: case YYSYMBOL_OP_PIPE_L: case YYSYMBOL_OP_OR:
    case YYSYMBOL_OP_AND: case YYSYMBOL_OP_CMP: case YYSYMBOL_OP_BIT:
    case YYSYMBOL_OP_SHIFT: case YYSYMBOL_OP_ADD: case YYSYMBOL_OP_MUL:
    case YYSYMBOL_OP_POW: case YYSYMBOL_LT: case YYSYMBOL_ASTERISK:
    case YYSYMBOL_BACKTICK: case YYSYMBOL_WITH: case YYSYMBOL_PROJ:
    case YYSYMBOL_IDX_LBRACKET: case YYSYMBOL_DOTDOT: case YYSYMBOL_DOTDOTDOT:
    case YYSYMBOL_DOTDOTLT: case YYSYMBOL_DOTDOTGT: case YYSYMBOL_COLON:
    case YYSYMBOL_COERCE:
        return true;
    default:
        return false;
    }
}

static bool starts_decl(yysymbol_kind_t k) {
    return k == YYSYMBOL_DEF || k == YYSYMBOL_ENTRY || k == YYSYMBOL_TYPE ||
           k == YYSYMBOL_IMPORT || k == YYSYMBOL_MODULE || k == YYSYMBOL_OPEN ||
           k == YYSYMBOL_LOCAL;
}

/* Whether a token's name is a description ("identifier") rather than
 * its spelling, which is quoted in messages. */
static bool descriptive(yysymbol_kind_t k) {
    switch (k) {
    case YYSYMBOL_ID: case YYSYMBOL_QUALID: case YYSYMBOL_BACKTICK:
    case YYSYMBOL_INTLIT: case YYSYMBOL_FLOATLIT: case YYSYMBOL_CHARLIT:
    case YYSYMBOL_STRINGLIT: case YYSYMBOL_PROJ: case YYSYMBOL_ATTR:
    case YYSYMBOL_OP_CMP: case YYSYMBOL_OP_BIT: case YYSYMBOL_OP_SHIFT:
    case YYSYMBOL_OP_MUL: case YYSYMBOL_IDX_LBRACKET: case YYSYMBOL_CONSTR:
        return true;
    default:
        return false;
    }
}

/* Closing and structural tokens: when one of them is expected, the
 * message names only those (and the categories). */
static bool structural(yysymbol_kind_t k) {
    switch (k) {
    case YYSYMBOL_RPAR: case YYSYMBOL_RBRACKET: case YYSYMBOL_RBRACE:
    case YYSYMBOL_COMMA: case YYSYMBOL_THEN: case YYSYMBOL_ELSE:
    case YYSYMBOL_IN: case YYSYMBOL_DO: case YYSYMBOL_EQUALS:
    case YYSYMBOL_ARROW: case YYSYMBOL_YYEOF:
        return true;
    default:
        return false;
    }
}

/* Appends a token's spelling in quotes ("'then'"), or its description. */
static void put_symbol(Buf *b, yysymbol_kind_t k) {
    const char *name = yysymbol_name(k);
    size_t n = strlen(name);
    if (n >= 2 && name[0] == '"') name++, n -= 2;
    if (k == YYSYMBOL_YYEOF) buf_puts(b, "end of file");
    else if (descriptive(k)) buf_printf(b, "%.*s", (int)n, name);
    else buf_printf(b, "'%.*s'", (int)n, name);
}

/* Whether a token is covered by a category named in the message. */
static bool covered(yysymbol_kind_t k, bool in_exp, bool any_decl, bool any_type, bool any_pat) {
    if (in_exp && (starts_exp(k) || continues_exp(k))) return true;
    if (any_decl && (starts_decl(k) || k == YYSYMBOL_LET || k == YYSYMBOL_ATTR)) return true;
    if ((any_type || any_pat) && (k == YYSYMBOL_ID || k == YYSYMBOL_LPAR || k == YYSYMBOL_LBRACE))
        return true;
    if (any_pat && (k == YYSYMBOL_UNDERSCORE || k == YYSYMBOL_CONSTR || k == YYSYMBOL_INTLIT ||
                    k == YYSYMBOL_FLOATLIT || k == YYSYMBOL_CHARLIT || k == YYSYMBOL_TRUE ||
                    k == YYSYMBOL_FALSE || k == YYSYMBOL_MINUS))
        return true;
    return any_type && (k == YYSYMBOL_QUALID || k == YYSYMBOL_LBRACKET ||
                        k == YYSYMBOL_IDX_LBRACKET || k == YYSYMBOL_ASTERISK ||
                        k == YYSYMBOL_QUESTION);
}

/* Describes the expected tokens: categories ("expression", "type",
 * "pattern", "declaration") where a whole category fits, else tokens. */
static void describe_expected(Buf *b, const yypcontext_t *ctx) {
    yysymbol_kind_t exp[YYNTOKENS];
    int n = yypcontext_expected_tokens(ctx, exp, YYNTOKENS);
    bool any_exp = false, any_cont = false, any_decl = false, any_type = false;
    bool any_pat = false, any_struct = false;
    bool any_if = false; /* a pattern may start with a literal too, but not with "if" */
    for (int i = 0; i < n; i++) {
        any_exp |= exp[i] == YYSYMBOL_INTLIT;
        any_if |= exp[i] == YYSYMBOL_IF;
        any_cont |= continues_exp(exp[i]);
        any_decl |= starts_decl(exp[i]);
        any_type |= exp[i] == YYSYMBOL_QUESTION;
        any_pat |= exp[i] == YYSYMBOL_UNDERSCORE;
        any_struct |= structural(exp[i]);
    }
    if (any_pat && !any_if) any_exp = false;
    any_pat &= !any_exp;
    Buf items = {0};
    int m = 0;
    bool more = false;
    const char *cats[4];
    int ncats = 0;
    if (any_exp && !any_cont) cats[ncats++] = "expression";
    if (any_type) cats[ncats++] = "type";
    if (any_pat) cats[ncats++] = "pattern";
    if (any_decl) cats[ncats++] = "declaration";
    const char *sep[SYN_MAX_EXPECTED + 1];
    size_t start[SYN_MAX_EXPECTED + 1];
    for (int i = 0; i < ncats; i++) {
        start[m] = items.len;
        buf_puts(&items, cats[i]);
        buf_putc(&items, 0);
        m++;
    }
    for (int i = 0; i < n; i++) {
        yysymbol_kind_t k = exp[i];
        if (covered(k, any_exp || any_cont, any_decl, any_type, any_pat)) continue;
        if (any_struct && !structural(k)) continue;
        if (m == SYN_MAX_EXPECTED) { more = true; break; }
        start[m] = items.len;
        put_symbol(&items, k);
        buf_putc(&items, 0);
        m++;
    }
    if (m == 0) {
        buf_puts(b, any_cont ? "an operator" : "something else");
    }
    for (int i = 0; i < m; i++) {
        sep[i] = i == 0 ? "" : (i == m - 1 && !more) ? " or " : ", ";
        buf_printf(b, "%s%s", sep[i], items.data + start[i]);
    }
    if (more) buf_puts(b, ", ...");
    buf_free(&items);
}

/* Whether the token that closes opener o is among the n expected ones. */
static bool closer_expected(int o, const yysymbol_kind_t *exp, int n) {
    yysymbol_kind_t want = o == TK_LET ? YYSYMBOL_IN : o == TK_LPAR ? YYSYMBOL_RPAR
                         : o == TK_LBRACE ? YYSYMBOL_RBRACE
                         : o == TK_LBRACKET || o == TK_IDX_LBRACKET ? YYSYMBOL_RBRACKET : YYSYMBOL_YYUNDEF;
    for (int i = 0; i < n; i++)
        if (exp[i] == want) return true;
    return false;
}

/* A note at the innermost unclosed opener whose closer the parser
 * expects: the "let" without "in", the "(" without ")". */
static void note_unclosed(const yypcontext_t *ctx, const LexState *ls) {
    yysymbol_kind_t exp[YYNTOKENS];
    int n = yypcontext_expected_tokens(ctx, exp, YYNTOKENS);
    for (int i = ls->nopen - 1; i >= 0; i--) {
        const LexOpen *o = &ls->open[i];
        if (!closer_expected(o->tok, exp, n)) continue;
        if (o->tok == TK_LET) diag_note(o->loc, "this 'let' has no 'in'");
        else diag_note(o->loc, "this '%s' is not closed", o->tok == TK_LPAR ? "(" : o->tok == TK_LBRACE ? "{" : "[");
        return;
    }
}

/* Reports a syntax error naming the unexpected token and what was
 * expected, then makes the token wrapper skip to the next declaration. */
static int yyreport_syntax_error(const yypcontext_t *ctx, void *scanner) {
    LexState *ls = LS;
    Buf b = {0};
    yysymbol_kind_t la = yypcontext_token(ctx);
    /* Futhark's wording: a name or literal is a token, a keyword or symbol
     * is quoted */
    if (la == YYSYMBOL_YYEOF || la == YYSYMBOL_YYEMPTY) buf_puts(&b, "Unexpected end of file");
    else if (la == YYSYMBOL_STRINGLIT) buf_puts(&b, "Unexpected string literal");
    else if (la == YYSYMBOL_ID || la == YYSYMBOL_QUALID || la == YYSYMBOL_INTLIT || la == YYSYMBOL_FLOATLIT ||
             la == YYSYMBOL_CHARLIT || la == YYSYMBOL_CONSTR)
        buf_printf(&b, "Unexpected token: '%s'", ls->last_text);
    else buf_printf(&b, "Unexpected \"%s\"", ls->last_text);
    buf_puts(&b, ", expected ");
    describe_expected(&b, ctx);
    diag_error(*yypcontext_location(ctx), "%s", b.data);
    note_unclosed(ctx, ls);
    buf_free(&b);
    ls->skipping = true;
    return 0;
}

/* Bison's own error: with custom syntax error reports, only the parser's
 * stack filling up ("memory exhausted") comes here. */
void syn_error(SrcLoc *loc, void *scanner, const char *msg) {
    (void)msg;
    diag_error(*loc, "the program is nested too deeply to parse: the parser's stack is full (%d entries; "
                     "each let of a chain of lets or else-if of a chain takes about five)", (int)SYN_MAX_DEPTH);
}
