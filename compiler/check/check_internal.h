/* Internal interface of the type checker (check/): the inference state,
 * type variables and size variables, the scope of bindings, and the
 * functions shared by types.c (unification and substitution), env.c (names,
 * numeric modules, type expressions), infer.c (expressions and patterns),
 * check.c (declarations and programs), modules.c (module expressions and
 * parametric modules), sigs.c (module types: matching and sealing) and
 * unique.c (uniqueness checking). */
#ifndef FUTHORC_CHECK_INTERNAL_H
#define FUTHORC_CHECK_INTERNAL_H

#include <setjmp.h>

#include "check.h"

/* ---- Type variables ------------------------------------------------------ */

/* A record-field constraint on a type variable ("must have field x of type t"),
 * from a field access on a value whose type is not yet known; or a
 * constructor constraint ("must be a sum type with constructor #x whose
 * payload has the types of tuple t"), from a constructor or a constructor
 * pattern whose sum type is not yet known. */
typedef struct FieldCon {
    const char *name;
    Ty *ty;
    struct FieldCon *next;
} FieldCon;

/* A type variable: unification variable (flexible) or a rigid type parameter. */
typedef struct TVar {
    Ty *bound;      /* the type it stands for, NULL while unbound */
    int level;      /* let-nesting depth where it was created (generalisation) */
    bool rigid;     /* a type parameter: unifies only with itself */
    bool lifted;    /* '^a: may stand for a function type */
    bool eq;        /* must support == (no functions) */
    bool nofun;     /* may not be a function type: an instance of a type
                       parameter without ^ ('a), an array's element, a loop
                       parameter or a branch's result */
    bool literal;   /* from a numeric literal or an overloaded operator: defaults */
    bool index;     /* used as an index: defaults to i64 rather than i32 */
    unsigned prims; /* allowed primitive types as a bitmask; 0: any type */
    FieldCon *fields;
    FieldCon *constrs;
    const char *name; /* for messages */
    SrcLoc loc;
} TVar;

/* A size variable: an unknown size to be inferred (Size.kind == SZ_VAR with
 * uid < 0; the variable's index is -uid). */
typedef struct SVar {
    bool bound;
    Size val;
    int level;
} SVar;

/* A polymorphic type: ty with the type variables tvars and the sizes svars
 * quantified. Size uids are > 0: the explicit size parameters [n] first
 * (svar_names[i] their names), then the implicit ones, the sizes of the
 * definition's type that nothing determined (svar_names[i] NULL). */
typedef struct Scheme {
    Ty *ty;
    int *tvars;
    int ntvars;
    int *svars;
    const char **svar_names;
    int nsvars;
    Decl *decl;    /* top-level definition (for argument counts in messages) */
    int nparams;   /* declared parameters, -1 if unknown */
} Scheme;

/* ---- Scope --------------------------------------------------------------- */

typedef enum BindNs { NS_VALUE, NS_TYPE, NS_MODULE, NS_MODTYPE } BindNs;

typedef struct Module Module;
typedef struct Sig Sig;
typedef struct Functor Functor;

/* A type abbreviation: its parameters are rigid type variables (TP_TYPE*)
 * and size uids (TP_SIZE), substituted when it is applied. */
typedef struct TypeAbbr {
    const char *name;
    TypeParam *params;
    int nparams;
    int *keys; /* per parameter: type variable id or size uid */
    Ty *body;
    Liftedness lifted; /* as declared */
} TypeAbbr;

/* One name in scope. */
typedef struct Binding {
    const char *name;
    BindNs ns;
    SrcLoc loc;
    /* NS_VALUE */
    RefKind ref;     /* REF_LOCAL, REF_GLOBAL or REF_NUMERIC */
    int uid;         /* REF_LOCAL */
    Decl *decl;      /* REF_GLOBAL */
    int numeric;     /* REF_NUMERIC: the row of numeric.def, */
    PrimType numeric_type; /* for this module type */
    Scheme *sch;     /* NULL: poisoned (its definition had errors) */
    bool recursive;  /* marker: the definition being checked */
    bool local;      /* declared `local` (not exported) */
    /* NS_TYPE */
    TypeAbbr *abbr;
    Ty *tparam;      /* a type parameter in scope: its rigid variable */
    /* NS_MODULE */
    Module *mod;
    /* NS_MODTYPE */
    Sig *sig;
    int prev;        /* in scope: the binding pushed before it in its hash bucket, or -1 */
} Binding;

/* A module: a structure's names (newest last; a later binding of a name
 * hides an earlier one), or a parametric module. */
struct Module {
    const char *name; /* its path, for messages ("M1.M") */
    Binding *binds;
    int n;
    Functor *fun;     /* a parametric module (binds unused) */
    bool poisoned;    /* its definition had errors (already reported) */
};

/* A snapshot of the scope: what a module type or a parametric module's
 * body sees of the names around it. */
typedef struct Env {
    Binding *binds;
    int n;
} Env;

/* A refinement "with path params = type" of a module type: the abstract
 * type at path is defined as abbr. */
typedef struct Refine {
    const char **path;
    int npath;
    TypeAbbr *abbr;
    SrcLoc loc;
} Refine;

/* A module type (sigs.c). A structure's: its specifications, written where
 * the scope was env, with refinements; checking them against a module in
 * order, each binding its name for the specs after it, matches or seals
 * the module. A parametric module's: (pname: param) -> res, where res is
 * evaluated in env with pname bound to the argument. */
struct Sig {
    SrcLoc loc;
    Env *env;
    Spec **specs;
    int nspecs;
    Refine *refines;
    int nrefines;
    bool is_functor;
    const char *pname;
    Sig *param;
    ModTypeExp *res;
};

/* A parametric module (modules.c). FN_CLOSURE: defined in the program, its
 * body (a copy never checked) is checked anew for each argument, in env
 * with pname bound to the argument matched against param. FN_SEALED: inner
 * seen through the parametric module type spec (ascription). FN_ABSTRACT:
 * a parameter of parametric module type spec; its application's result has
 * abstract types without definitions. */
typedef enum FunctorKind { FN_CLOSURE, FN_SEALED, FN_ABSTRACT } FunctorKind;

struct Functor {
    FunctorKind kind;
    const char *pname;
    Sig *param;
    ModExp *body;
    Env *env;
    Functor *inner;
    Sig *spec;
};

/* An abstract type: the type of a module type's "type name params" seen
 * from outside a module sealed by it (TY_ABSTRACT's var indexes them). */
typedef struct AbsType {
    const char *name;    /* its path, for messages */
    Liftedness lifted;
    TypeParam *params;
    int nparams;
    TypeAbbr *def;       /* what it stands for; NULL for a parameter's */
} AbsType;

/* ---- Checker state ------------------------------------------------------- */

/* A use (at loc) of a definition fname whose explicit size parameter name
 * is not a size of its parameters: only the instantiation, sizes[i] (the
 * use's Ref.inst_sizes), can determine it, so it must be known once the
 * definition containing the use is checked. */
typedef struct SizeUse {
    const Size *sizes;
    int i;
    SrcLoc loc;
    const char *fname, *name;
} SizeUse;

/* Expressions nested deeper than this are rejected ("Expression is nested
 * too deeply") rather than risk running out of stack in the checker and
 * the phases after it, which recurse over the same nesting: the deepest
 * take about 2 KB of stack a level, so the usual 8 MB stack holds some
 * 4,000. Chains of lets do not count: every phase follows them in a loop. */
enum { TC_MAX_DEPTH = 2000 };

/* The scope is hashed: a lookup walks the bindings of one bucket, newest
 * first, rather than the whole scope (which a long chain of lets makes as
 * long as the chain). The number of buckets starts at this power of two
 * and doubles whenever the scope outgrows it. */
enum { TC_MIN_BUCKETS = 1024 };

typedef struct Tc {
    Arena *a;
    VEC(TVar) vars;
    VEC(SVar) svars;
    VEC(Binding) scope;
    int *buckets;        /* per bucket: the newest binding in it, or -1 */
    int nbuckets;
    VEC(bool) strict;    /* by uid: a size whose mismatch is a definite error */
    VEC(SizeUse) size_uses; /* of the current top-level definition */
    int next_uid;
    int level;
    int depth;
    bool in_prelude;
    jmp_buf *bail;       /* where an error in the current definition returns */
    int def_first_var;   /* first type variable of the current definition */
    int def_first_svar;
    int def_first_uid;
    bool saw_poisoned;   /* the definition uses one that had errors */
    Program **files;
    int nfiles;
    Module **exports;    /* per file: its exported names */
    int cur_file;        /* the file being checked */
    int module_depth;    /* structures being checked around the current declaration */
    VEC(AbsType) abstracts;
    VEC(Binding *) saved_scopes; /* scopes replaced by tc_env_enter, innermost last */
    VEC(int) saved_lens;
    int instantiating;   /* applications of parametric modules being checked */
    int ninstances;      /* applications of parametric modules checked so far */
    SrcLoc top_loc;      /* the top-level declaration being checked */
    int mod_nesting;     /* module expressions and module types being evaluated */
    const char *mod_path; /* the path of the structure being checked ("M.N"), or NULL */
    unsigned scope_version; /* changes whenever the scope does */
    Env *last_snapshot;  /* tc_env_snapshot's latest, while scope_version is */
    unsigned snapshot_version;
} Tc;

extern Tc tc;

/* ---- types.c ------------------------------------------------------------- */

/* Bitmasks of primitive types for constraints. */
#define TC_PRIM_BIT(p) (1u << (p))
extern const unsigned TC_INTS, TC_FLOATS, TC_NUMS, TC_PRIMS;

Ty *tc_prim(PrimType p);
Ty *tc_unit(void);
Ty *tc_tuple(Ty **elems, int n);
Ty *tc_arrow(Ty *param, Ty *result, const char *pname);
Ty *tc_arrow_dep(Ty *param, Ty *result, const char *pname, int puid);
Ty *tc_array(Ty *elem, const Size *dims, int rank);
Ty *tc_fresh(SrcLoc loc);
Ty *tc_fresh_rigid(const char *name, bool lifted);
/* Marks the type variables of t as never to become function types (an
 * array's element, a loop parameter, a branch's result). */
void tc_no_functions(Ty *t);
Ty *tc_fresh_lit(unsigned prims, SrcLoc loc);
Ty *tc_copy_unique(Ty *t, bool unique);
Size tc_size_const(int64_t c);
Size tc_size_any(void);
Size tc_size_var(int uid, const char *name);
Size tc_fresh_size(void);
const char *tc_prim_name(PrimType p);
PrimType tc_default_prim(unsigned prims);
PrimType tc_default_var(const TVar *v);
bool tc_prim_from_name(const char *name, PrimType *out);

Ty *tc_head(Ty *t);
Size tc_size_head(Size s);
Size tc_size_resolve(Size s);
bool tc_size_same(Size a, Size b);
Exp *tc_size_term(Exp *e);
Size tc_exp_size(Exp *e);
/* The size an expression of an integer type other than i64 gives a
 * dependent parameter of that type: a term of that type (a literal, a
 * name, an operator or an application over them), or unknown. */
Size tc_int_size(Exp *e);
/* Size terms (size_terms.c): a size's expression (NULL when unknown) and
 * back; a size with its name leaves mapped through f; structural
 * equality of terms, and whether two applications have one callee. */
Exp *tc_size_as_exp(Size s);
Size tc_term_size(Exp *e);
Size tc_map_size(Size s, Size (*f)(Size, void *), void *ctx);
bool tc_exp_same(Exp *a, Exp *b);
bool tc_same_callee(Exp *a, Exp *b);
Ty *tc_zonk(Ty *t);
bool tc_is_prim(Ty *t, PrimType p);

/* Unification. On failure the functions report "Couldn't match expected
 * type ... with actual type ..." at loc (after the sentence context, such
 * as "Cannot apply ...", when given) and abandon the definition. Modes:
 * U_LENIENT_SIZES accepts differing sizes (checked at run time); U_DIET
 * rejects a consuming function where a non-consuming one is expected;
 * U_COERCE (a size coercion e :> t, with U_LENIENT_SIZES) leaves the
 * unknown sizes of the actual type (e's) unknown: the coercion checks
 * them at run time and does not decide them (an anonymous size of a
 * parameter stays a size parameter). */
enum { U_STRICT = 0, U_LENIENT_SIZES = 1, U_DIET = 2, U_COERCE = 4 };
void tc_unify(SrcLoc loc, Ty *expected, Ty *actual, int mode);
void tc_unify_in(SrcLoc loc, Ty *expected, Ty *actual, int mode, const char *context);
/* Unifies; returns NULL, or the message tc_unify_in would report. */
const char *tc_try_unify(Ty *expected, Ty *actual, int mode, const char *context);
void tc_constrain(SrcLoc loc, Ty *t, unsigned prims, const char *what);
void tc_constrain_eq(SrcLoc loc, Ty *t, const char *what);
Ty *tc_field_type(SrcLoc loc, Ty *t, const char *field);
Ty *tc_join(Ty *a, Ty *b);
Ty *tc_forget_sizes(Ty *t, int uid_mark);
Ty *tc_any_sizes(Ty *t);
/* Whether size uid occurs in a size of t outside function types: as the
 * whole size when whole is set, else anywhere in it (n in [n + 1]). */
bool tc_size_in_data(Ty *t, int uid, bool whole);
bool tc_contains_arrow(Ty *t);
bool tc_tuple_fields(const char **names, int n, int *pos);

/* Substitution of type variables and sizes (instantiation, abbreviations). */
typedef struct Subst {
    int *tkeys;
    Ty **tvals;
    int nt;
    int *skeys;
    Size *svals;
    int ns;
} Subst;
Ty *tc_subst(Ty *t, const Subst *s);
/* A fresh instance of sch; sets *sizes to what its sizes (sch->svars) are
 * instantiated to. */
Ty *tc_instantiate(Scheme *sch, Size **sizes);
Size tc_zonk_size(Size s);
Ty *tc_subst_pname(Ty *t, const char *pname, int puid, Size s);

/* ---- show.c -------------------------------------------------------------- */

/* Printing for messages: the type with the current substitution applied. */
const char *tc_show(Ty *t);
const char *tc_size_text(Size s);

const char *tc_capital(const char *s);

/* Errors: report at loc and abandon the current definition. */
void tc_fail(SrcLoc loc, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));

/* ---- env.c --------------------------------------------------------------- */

int tc_new_uid(void);
void tc_set_strict(int uid);
void tc_push(Binding b);
int tc_mark(void);
void tc_pop_to(int mark);
Binding *tc_lookup(const char *name, BindNs ns);
Binding *tc_lookup_in(Module *m, const char *name, BindNs ns);
/* The binding of b's name that b (a binding in scope) hides, or NULL. */
Binding *tc_lookup_hidden(Binding *b);
void tc_push_local_value(const char *name, int uid, Ty *ty, SrcLoc loc);
/* Brings a type or size parameter into scope: a size parameter as an i64
 * value with a fresh uid (stored in tp->uid), a type parameter as a rigid
 * type variable. Returns the uid or the variable's id. */
int tc_bind_tparam(TypeParam *tp);
Module *tc_collect_module(const char *name, int mark);
void tc_open_module(Module *m);
Module *tc_resolve_module(SrcLoc loc, const QualName *q, int nparts, const char *what);
Ty *tc_type_exp(TypeExp *te, bool in_param);
Ty *tc_numeric_type(int row, PrimType t);
int tc_numeric_row(const char *name, PrimType t);
/* Binds the built-in numeric modules i8 ... u64, f32, f64 and bool. */
void tc_push_numeric_modules(void);
/* The module or module type named by q (several parts: through modules). */
Module *tc_lookup_module(SrcLoc loc, const QualName *q);
Sig *tc_lookup_sig(SrcLoc loc, const QualName *q);
/* A poisoned binding for a name of a module whose definition had errors. */
Binding *tc_poison_binding(const char *name, BindNs ns);

/* ---- modules.c ----------------------------------------------------------- */

/* Each application of a parametric module checks a copy of its body, as
 * Futhark's defunctorisation copies it, and a parametric module's body
 * that applies another twice doubles the work for each level of such
 * nesting. Beyond this many applications in one program the checker
 * reports the program as too large rather than run for hours (real
 * programs apply parametric modules some hundreds of times). */
enum { TC_MAX_INSTANCES = 20000 };

/* Modules and module types nested deeper than this are rejected: each
 * level takes some hundreds of bytes of the checker's stack (a structure's
 * declarations are checked in a nested call), and real programs nest them
 * a few levels. */
enum { TC_MAX_MODULE_DEPTH = 250 };

/* The current scope as an environment, and switching to one: enter saves
 * the scope and installs env (returns the depth to leave to); leave
 * restores the scopes saved since depth (also after an error). */
Env *tc_env_snapshot(void);
int tc_env_enter(Env *env);
void tc_env_leave(int depth);
int tc_env_depth(void);
/* The module a module expression denotes; name is the path of the module
 * being defined, for the names of its abstract types. */
Module *tc_mod_exp(ModExp *me, const char *name);
/* Checks a module declaration, an open, a module type declaration. */
void tc_check_module_decl(Decl *d);
void tc_check_open(Decl *d);
void tc_check_modtype_decl(Decl *d);
/* Checks the declarations of a structure in order (check.c). */
void tc_check_decls(Decl **decls, int n);
/* The module a functor's application to arg gives. */
Module *tc_apply_functor(Functor *f, Module *arg, SrcLoc loc, const char *name);

/* ---- sigs.c -------------------------------------------------------------- */

/* The module type a module type expression denotes. */
Sig *tc_sig(ModTypeExp *mt);
/* The view of module m through module type s: m's own names for those s
 * specifies (for the argument of a parametric module). Reports what m lacks
 * or defines differently. */
Module *tc_match(Module *m, Sig *s, SrcLoc loc, const char *name);
/* Module m sealed by module type s: the abstract types of s are new types
 * standing for m's (m NULL: for nothing, a parameter), and values have the
 * types s gives them. */
Module *tc_seal(Module *m, Sig *s, SrcLoc loc, const char *name);
/* A functor type's result for an argument (the view of it). */
Sig *tc_sig_result(Sig *ft, Module *arg, SrcLoc loc);
/* The definition of abstract type t (TY_ABSTRACT) applied to its
 * arguments, or NULL when it has none. */
Ty *tc_abs_expand(Ty *t);
/* Whether t holds an abstract type declared type~ (outside functions). */
bool tc_size_lifted(Ty *t);

/* ---- infer.c ------------------------------------------------------------- */

Ty *tc_exp(Exp *e);
Ty *tc_bind_pat(Pat *p, Ty *expected, bool is_param);
void tc_check_dup_names(Pat **pats, int npats);
Scheme *tc_function(SrcLoc loc, TypeParam *tps, int ntps, Pat **params, int nparams,
                TypeExp *ret, Exp *body, Ty **ret_out, bool intrinsic, Ty ***param_tys_out);
bool tc_is_intrinsic_body(Exp *e);
void tc_generalise(Scheme *sch, int first_var, int first_svar);

/* ---- sums.c -------------------------------------------------------------- */

Ty *tc_sum_type(TypeExp *te, bool in_param);
Ty *tc_constr_exp(Exp *e);
Ty *tc_constr_pat_type(Pat *p, Ty **payload);
Ty *tc_match_exp(Exp *e);
void tc_check_irrefutable(Pat *p);
void tc_check_patterns(Exp *e);

/* ---- check.c ------------------------------------------------------------- */

void tc_zonk_exp(Exp *e);
void tc_zonk_pat(Pat *p);

/* ---- unique.c ------------------------------------------------------------ */

/* Checks consumption and aliasing in one checked, substituted definition;
 * returns its result type with the uniqueness Futhark infers where it was
 * not declared (else d->ret_ty). */
Ty *tc_check_uniqueness(Decl *d);
void tc_unique_free(void);

#endif
