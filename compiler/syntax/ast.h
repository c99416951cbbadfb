/* The abstract syntax tree produced by the parser and annotated by the type
 * checker. Every node carries a source span. Nodes live in the compilation
 * arena. Lists are (pointer, count) pairs.
 *
 * Who writes what:
 *   parser   - every field not marked "checker"
 *   checker  - fields marked "checker": resolved references, unique ids of
 *              bindings, and the type of every expression and pattern, with
 *              all type variables substituted and unresolved numeric
 *              literal types defaulted (i32 / f64).
 */
#ifndef FUTHORC_AST_H
#define FUTHORC_AST_H

#include "../ir/prim.h"
#include "../util/util.h"

typedef struct Exp Exp;
typedef struct Pat Pat;
typedef struct TypeExp TypeExp;
typedef struct Decl Decl;
typedef struct Ty Ty;
typedef struct ModExp ModExp;
typedef struct ModTypeExp ModTypeExp;
typedef struct Spec Spec;

/* ---- Names ---------------------------------------------------------------- */

/* A possibly qualified name: "f32.sqrt" is {"f32","sqrt"}; all interned.
 * The parser cannot tell a module qualifier from a record field access
 * ("p.x"): it produces a QualName and the checker decides. */
typedef struct QualName {
    const char **parts;
    int nparts;
} QualName;

/* ---- Checked types (written by the checker) ------------------------------- */

typedef enum TyKind {
    TY_PRIM,   /* prim */
    TY_ARRAY,  /* elem (never an array), rank >= 1, dims[rank] */
    TY_TUPLE,  /* elems[n]; n == 0 is the unit type () */
    TY_RECORD, /* fields sorted by name */
    TY_ARROW,  /* param -> result; pname names a dependent parameter or NULL */
    TY_VAR,    /* a type variable (only inside polymorphic definitions) */
    TY_ABSTRACT, /* an abstract type of a module: var indexes the checker's
                  * table of abstract types; its arguments are elems[n] (type
                  * parameters, in order) and dims[rank] (size parameters).
                  * The checker replaces each by its definition in the types
                  * it writes into the AST, so later phases never see one. */
    TY_SUM,    /* a sum type: its constructors are fields[n], sorted by
                * name (a constructor's tag is its index), each field's type
                * the TY_TUPLE of the constructor's payload types */
} TyKind;

/* A size in a checked type. */
typedef enum SizeKind {
    SZ_CONST, /* a literal size such as [3] */
    SZ_VAR,   /* the value of the binding with this uid (size parameter, i64 variable) */
    SZ_ANY,   /* unknown: anonymous [] or an existential the checker could not name */
    SZ_EXP,   /* a size expression such as [n*m] or [n-1]: exp, over resolved names */
} SizeKind;

typedef struct Size {
    SizeKind kind;
    int64_t c;  /* SZ_CONST */
    int uid;    /* SZ_VAR */
    const char *name; /* SZ_VAR: the name, for messages */
    Exp *exp;   /* SZ_EXP: the (checked) expression */
} Size;

typedef struct TyField {
    const char *name;
    Ty *ty;
} TyField;

struct Ty {
    TyKind kind;
    bool unique; /* *t */
    PrimType prim;
    Ty *elem;
    int rank;
    Size *dims;
    Ty **elems;
    int n;
    TyField *fields; /* TY_RECORD, n fields */
    Ty *param, *result;
    const char *pname;
    int var; /* TY_VAR: id; TY_ARROW with a named parameter: the parameter's uid;
              * TY_ABSTRACT: the abstract type's index */
    const char *var_name;
};

/* ---- Type expressions (what the user wrote) -------------------------------- */

typedef enum TypeExpKind {
    TE_NAME,   /* name with arguments: i32, t, vec [n] f32 */
    TE_TUPLE,  /* (a, b); () is a zero-element tuple */
    TE_RECORD, /* {x: f32, y: f32} */
    TE_ARRAY,  /* [dim]elem; dim == NULL for [] */
    TE_ARROW,  /* (pname: param) -> result, or param -> result */
    TE_UNIQUE, /* *inner */
    TE_EXIST,  /* ?[n][m].inner */
    TE_SUM,    /* #a t1 t2 | #b: fields are the constructors in source order,
                * each field's type the TE_TUPLE of its payload types */
} TypeExpKind;

/* An argument to a parametric type abbreviation: a type or a size [e]/[]. */
typedef struct TypeArg {
    bool is_size;
    TypeExp *type;  /* !is_size */
    Exp *size;      /* is_size; NULL for [] */
} TypeArg;

typedef struct TypeExpField {
    const char *name;
    TypeExp *type;
    SrcLoc loc;
} TypeExpField;

struct TypeExp {
    TypeExpKind kind;
    SrcLoc loc;
    QualName name;      /* TE_NAME */
    TypeArg *args;      /* TE_NAME */
    int nargs;
    TypeExp **elems;    /* TE_TUPLE */
    int nelems;
    TypeExpField *fields; /* TE_RECORD, in source order */
    int nfields;
    Exp *dim;           /* TE_ARRAY: size expression or NULL */
    TypeExp *elem;      /* TE_ARRAY elem, TE_UNIQUE/TE_EXIST inner */
    const char *pname;  /* TE_ARROW: named parameter or NULL */
    TypeExp *param, *result; /* TE_ARROW */
    const char **exist_names; /* TE_EXIST */
    int nexist;
};

/* ---- Patterns ------------------------------------------------------------- */

typedef enum PatKind {
    P_ID,      /* x */
    P_WILD,    /* _ */
    P_TUPLE,   /* (p1, p2); () is the zero-element tuple */
    P_RECORD,  /* {x, y = p} */
    P_ASCRIBE, /* p : t */
    P_CONSTR,  /* #c p1 ... pn: name is c, elems the payload patterns */
    P_LIT,     /* a literal (1, -2.5, true, 'a'): lit */
} PatKind;

typedef struct PatField {
    const char *name;
    Pat *pat; /* for a punned field {x}, a P_ID pattern named x */
} PatField;

/* An attribute, #[unroll] or #[incremental_flattening(only_inner)]: kept on
 * declarations, expressions and patterns for the passes that use them;
 * the others ignore them, as Futhark ignores attributes it does not know. */
typedef struct Attr {
    const char *text; /* #[attr] contents, as written */
} Attr;

struct Pat {
    PatKind kind;
    SrcLoc loc;
    const char *name;   /* P_ID, P_CONSTR */
    Pat **elems;        /* P_TUPLE, P_CONSTR */
    int nelems;
    PatField *fields;   /* P_RECORD, in source order */
    int nfields;
    Pat *inner;         /* P_ASCRIBE */
    TypeExp *type;      /* P_ASCRIBE */
    Exp *lit;           /* P_LIT: the literal expression (EX_NEG of one for -1) */
    int uid;            /* checker: P_ID's unique binding id (> 0) */
    Ty *ty;             /* checker: the pattern's type */
    Attr *attrs;        /* #[attr] p, outermost first */
    int nattrs;
};

/* ---- Expressions ---------------------------------------------------------- */

typedef enum ExpKind {
    EX_INT,      /* integer literal; ivalue, suffix */
    EX_FLOAT,    /* decimal literal; fvalue, suffix */
    EX_BOOL,     /* true/false */
    EX_HOLE,     /* ???: a typed hole, of any type; fails when evaluated */
    EX_STRING,   /* "..." : []u8; str, strlen */
    EX_VAR,      /* qualified name */
    EX_TUPLE,    /* (a, b); () is unit */
    EX_RECORD,   /* {x = e, y} */
    EX_ARRAY,    /* [a, b, c]; [] */
    EX_RANGE,    /* start [.. second] (..|..<|..>) end */
    EX_PROJECT,  /* e.field, where e is not a plain name (else EX_VAR) */
    EX_INDEX,    /* e[slice] */
    EX_BINOP,    /* l op r, op is the operator text */
    EX_NEG,      /* -e */
    EX_NOT,      /* !e */
    EX_APPLY,    /* f a1 ... an (juxtaposition, also backtick infix) */
    EX_LAMBDA,   /* \p1 ... pn [: t] -> body */
    EX_SECTION,  /* (op), (op e), (e op); left/right may be NULL */
    EX_PROJ_SECTION, /* (.a.b) : field path */
    EX_IF,
    EX_LET,      /* let pat = e1 in body */
    EX_LETFUN,   /* let f [typarams] params [: t] = e1 in body */
    EX_LET_UPDATE, /* let a[slice] = v in body */
    EX_LOOP,
    EX_UPDATE,   /* e with [slice] = v */
    EX_RECORD_UPDATE, /* e with a.b = v */
    EX_ASCRIBE,  /* e : t */
    EX_COERCE,   /* e :> t */
    EX_ASSERT,   /* assert cond e */
    EX_OPEN,     /* M.(e): e with module name's members in scope; the
                  * checker replaces the node by e once its names are resolved */
    EX_CONSTR,   /* #c a1 ... an: field is c, elems the payload */
    EX_MATCH,    /* match e1 case params[i] -> elems[i] (nparams == nelems) */
} ExpKind;

/* One dimension of an index or slice: a[i], a[i:j:s], a[:], a[::-1]. */
typedef struct DimIndex {
    bool is_slice;
    Exp *index;             /* !is_slice */
    Exp *start, *end, *stride; /* is_slice; each may be NULL */
} DimIndex;

/* A step of the path of an update (e with [i].f[j] = v): a field, or the
 * indices and slices of one bracket. */
typedef struct UpdStep {
    const char *field; /* NULL: a bracket */
    DimIndex *slice;
    int nslice;
    SrcLoc loc;
} UpdStep;

typedef struct ExpField {
    const char *name;
    Exp *exp; /* for a punned field {x}, an EX_VAR x */
    SrcLoc loc;
} ExpField;

typedef enum RangeKind { RANGE_INCL /* a..b */, RANGE_UPTO /* a..<b */, RANGE_DOWNTO /* a..>b */ } RangeKind;

typedef enum LoopForm { LOOP_FOR_UPTO /* for i < n */, LOOP_FOR_IN /* for p in xs */, LOOP_WHILE } LoopForm;

/* Type and size parameters of a definition. */
typedef enum TypeParamKind {
    TP_TYPE,        /* 'a  */
    TP_TYPE_SIZES,  /* '~a */
    TP_TYPE_LIFTED, /* '^a */
    TP_SIZE,        /* [n] */
} TypeParamKind;

typedef struct TypeParam {
    TypeParamKind kind;
    const char *name;
    SrcLoc loc;
    int uid; /* checker: TP_SIZE's binding id (an i64 value in scope) */
} TypeParam;

/* What a name refers to, filled in by the checker for EX_VAR (and for the
 * operator of EX_BINOP / EX_SECTION). */
typedef enum RefKind {
    REF_NONE,      /* unresolved (only before checking) */
    REF_LOCAL,     /* a local binding: uid of a P_ID, size parameter or local function */
    REF_GLOBAL,    /* a top-level definition: decl */
    REF_NUMERIC,   /* a numeric-module function T.name: row of check/numeric.def
                    * (also an operator of a numeric module: f32.(a + b)) */
} RefKind;

typedef struct Ref {
    RefKind kind;
    int uid;
    Decl *decl;
    int numeric;        /* REF_NUMERIC: row index in numeric.def, from 0 */
    PrimType numeric_type; /* REF_NUMERIC: the T of T.name */
    /* For EX_VAR naming a record field path through a variable ("p.x.y"):
     * the number of leading name parts that form the variable; the rest are
     * field projections. 0 means the whole name is the reference. */
    int nvar_parts;
    /* A definition with size parameters (explicit [n], or implicit for the
     * anonymous sizes [] of its parameters): the size each parameter (uid
     * inst_keys[i]) stands for at this use, SZ_ANY where nothing
     * determined it. */
    const int *inst_keys;
    Size *inst_sizes;
    int ninst;
} Ref;

struct Exp {
    ExpKind kind;
    SrcLoc loc;
    Ty *ty; /* checker */

    /* literals */
    uint64_t ivalue;      /* EX_INT: magnitude (a leading '-' is EX_NEG) */
    double fvalue;        /* EX_FLOAT */
    bool has_suffix;      /* EX_INT/EX_FLOAT: a type suffix was written */
    PrimType suffix;      /* EX_INT/EX_FLOAT when has_suffix */
    bool bvalue;          /* EX_BOOL */
    const char *str;      /* EX_STRING bytes (escapes decoded) */
    int strlen;

    QualName name;        /* EX_VAR; EX_OPEN: the module; EX_BINOP: a module's
                           * operator's qualified name (M.+), else empty */
    Ref ref;              /* checker: EX_VAR, EX_BINOP and EX_SECTION operators */

    Exp **elems;          /* EX_TUPLE, EX_ARRAY, EX_APPLY args */
    int nelems;
    ExpField *fields;     /* EX_RECORD */
    int nfields;

    /* EX_RANGE */
    Exp *start, *second, *end;
    RangeKind range;

    const char *field;    /* EX_PROJECT; EX_CONSTR: the constructor's name */
    const char **path;    /* EX_RECORD_UPDATE, EX_PROJ_SECTION: field path */
    int npath;

    Exp *e1, *e2, *e3;    /* operands: see below */
    /* EX_PROJECT: e1.field         EX_INDEX: e1[slice]
     * EX_BINOP: e1 op e2           EX_NEG/EX_NOT: e1
     * EX_APPLY: e1 elems...        EX_LAMBDA: body e1
     * EX_SECTION: (e1 op e2), e1/e2 may be NULL
     * EX_IF: if e1 then e2 else e3
     * EX_LET: let pat = e1 in e2   EX_LETFUN: let fname ... = e1 in e2
     * EX_LET_UPDATE: let var[slice] = e1 in e2
     * EX_LOOP: loop pat = e1 (NULL when omitted) <form> do e2;
     *          for i < e3 / for pat2 in e3 / while e3
     * EX_UPDATE: e1 with [slice] = e2, or e1 with steps = e2
     * EX_RECORD_UPDATE: e1 with path = e2
     * EX_ASCRIBE/EX_COERCE: e1 : type
     * EX_ASSERT: assert e1 e2       EX_OPEN: name.(e1) */
    const char *op;       /* EX_BINOP/EX_SECTION: operator text, interned ("+", "|>", ...);
                           * a section of a module's operator: "M.+" */

    DimIndex *slice;      /* EX_INDEX, EX_UPDATE, EX_LET_UPDATE */
    int nslice;
    UpdStep *steps;       /* EX_UPDATE of a path of fields and brackets (then slice is unused) */
    int nsteps;

    Pat *pat;             /* EX_LET, EX_LOOP */
    LoopForm form;        /* EX_LOOP */
    const char *loop_var; /* EX_LOOP for i < n: i */
    int loop_var_uid;     /* checker */
    Pat *pat2;            /* EX_LOOP for p in xs */

    /* EX_LAMBDA and EX_LETFUN; tparams also EX_LET's size binders (let [n] p = e) */
    const char *fname;    /* EX_LETFUN: function name; EX_LET_UPDATE: array variable */
    int fname_uid;        /* checker: binding id of fname */
    TypeParam *tparams;
    int ntparams;
    Pat **params;
    int nparams;
    TypeExp *ret;         /* optional return ascription; EX_ASCRIBE/EX_COERCE type */
    Attr *attrs;          /* #[attr] e, outermost first (#[unroll] loop ...) */
    int nattrs;
};

/* ---- Declarations ---------------------------------------------------------- */

typedef enum DeclKind {
    D_VAL,    /* def/entry/let */
    D_TYPE,   /* type abbreviation */
    D_IMPORT, /* import "path" */
    D_MODULE, /* module m params [: sig] = mod_exp (mexp, parameters folded in) */
    D_MODTYPE, /* module type s = mtype */
    D_OPEN,   /* open mod_exp */
} DeclKind;

typedef enum Liftedness { LIFT_NONE /* type */, LIFT_SIZES /* type~ */, LIFT_FULL /* type^ */ } Liftedness;

struct Decl {
    DeclKind kind;
    SrcLoc loc;
    const char *name;    /* D_VAL, D_TYPE, D_MODULE, D_MODTYPE; interned. Operators: "+^" */
    const char *doc;     /* -- | doc comment text or NULL */
    bool is_entry;       /* D_VAL: entry */
    bool is_local;       /* local def */
    TypeParam *tparams;  /* D_VAL, D_TYPE */
    int ntparams;
    Pat **params;        /* D_VAL */
    int nparams;
    TypeExp *ret;        /* D_VAL: optional; D_TYPE: definition */
    Exp *body;           /* D_VAL */
    Liftedness lifted;   /* D_TYPE */
    const char *path;    /* D_IMPORT: as written, without ".fut" */
    struct Program *imported; /* driver: the loaded file of a D_IMPORT */
    ModExp *mexp;        /* D_MODULE, D_OPEN */
    ModTypeExp *mtype;   /* D_MODTYPE */
    Attr *attrs;
    int nattrs;
    Ty *ty;              /* checker, D_VAL: the definition's full type */
    Ty **param_tys;      /* checker, D_VAL: type of each parameter */
    Ty *ret_ty;          /* checker, D_VAL: result type */
};

/* ---- Modules ------------------------------------------------------------------ */

typedef enum ModExpKind {
    ME_NAME,    /* a module by its (qualified) name */
    ME_STRUCT,  /* { decls } */
    ME_ASCRIBE, /* e1 : mtype */
    ME_LAMBDA,  /* \(pname: mtype) [: result] -> e1; a functor of one parameter
                 * (several parameters nest: F (A: S) (B: T) is \A -> \B -> body) */
    ME_APPLY,   /* e1 e2 */
    ME_IMPORT,  /* import "path": import is its D_IMPORT */
} ModExpKind;

struct ModExp {
    ModExpKind kind;
    SrcLoc loc;
    QualName name;        /* ME_NAME */
    Decl **decls;         /* ME_STRUCT */
    int ndecls;
    ModExp *e1, *e2;      /* ME_ASCRIBE, ME_APPLY, ME_LAMBDA (body) */
    ModTypeExp *mtype;    /* ME_ASCRIBE; ME_LAMBDA: the parameter's module type */
    ModTypeExp *result;   /* ME_LAMBDA: the optional result module type */
    const char *pname;    /* ME_LAMBDA */
    SrcLoc ploc;          /* ME_LAMBDA: the parameter */
    Decl *import;         /* ME_IMPORT */
};

typedef enum ModTypeExpKind {
    MT_NAME,   /* a module type by its (qualified) name */
    MT_SPECS,  /* { specs } */
    MT_WITH,   /* mt with path tparams = type */
    MT_ARROW,  /* (pname: param) -> result, or param -> result */
} ModTypeExpKind;

struct ModTypeExp {
    ModTypeExpKind kind;
    SrcLoc loc;
    QualName name;        /* MT_NAME; MT_WITH: the refined type's path */
    Spec **specs;         /* MT_SPECS */
    int nspecs;
    ModTypeExp *mt;       /* MT_WITH: the refined module type */
    TypeParam *tparams;   /* MT_WITH */
    int ntparams;
    TypeExp *type;        /* MT_WITH */
    const char *pname;    /* MT_ARROW: the parameter's name or NULL */
    ModTypeExp *param, *res; /* MT_ARROW */
};

typedef enum SpecKind {
    SP_VAL,     /* val name tparams : type */
    SP_TYPE,    /* type name tparams [= type]: abstract when type is NULL */
    SP_MODULE,  /* module name : mtype */
    SP_INCLUDE, /* include mtype */
} SpecKind;

struct Spec {
    SpecKind kind;
    SrcLoc loc;
    const char *name;
    TypeParam *tparams;
    int ntparams;
    TypeExp *type;        /* SP_VAL; SP_TYPE (NULL: abstract) */
    Liftedness lifted;    /* SP_TYPE */
    ModTypeExp *mtype;    /* SP_MODULE, SP_INCLUDE */
};

/* A parsed source file. */
typedef struct Program {
    const char *file;
    Decl **decls;
    int ndecls;
    Decl **imports;       /* every D_IMPORT of the file, also those in modules */
    int nimports;
} Program;

/* ---- Entry points of the syntax module ----------------------------------- */

/* Parses text (the contents of file) into a Program in the arena. Syntax
 * errors are reported through diag_error; the parser recovers at the next
 * top-level declaration and keeps going. Returns NULL if there were errors.
 * parse_program_n reads len bytes, so that a NUL byte in a file is an
 * error where it stands rather than its end. */
Program *parse_program(Arena *a, const char *file, const char *text);
Program *parse_program_n(Arena *a, const char *file, const char *text, size_t len);

/* Whether e is one of the let forms (let p = e1, a local function, let
 * a[i] = v), whose body e2 continues a chain of lets. The phases follow
 * such chains in a loop, since real programs make them long. */
bool ast_is_let(const Exp *e);

/* Deep copies of declarations and module expressions, with none of the
 * checker's fields set: the checker checks a fresh copy of a parametric
 * module's body for each application (syntax/clone.c). */
Decl *ast_clone_decl(Arena *a, const Decl *d);
ModExp *ast_clone_mod_exp(Arena *a, const ModExp *m);
ModTypeExp *ast_clone_mod_type(Arena *a, const ModTypeExp *m);

/* Prints the AST as source text that parses back to the same tree. */
void ast_print_program(Buf *out, const Program *p);
void ast_print_exp(Buf *out, const Exp *e);
void ast_print_type_exp(Buf *out, const TypeExp *t);
/* Prints a checked type in Futhark syntax ("[n][]f32", "(i32, bool)"). */
void ty_print(Buf *out, const Ty *t);
/* A copy of tuple, record or sum type t whose parts (elems or fields) are
 * arrays of its own, for the caller to replace some of them. */
Ty *ty_copy_parts(Arena *a, const Ty *t);

#endif
