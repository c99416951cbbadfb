/* Internal interface of internalisation (lower/): static values, the
 * environment and the statement builder shared by internalise.c (the
 * expression evaluator), control.c (branches and loops), intrinsics.c
 * (prelude intrinsics and numeric modules) and the files beside them. */
#ifndef FUTHORC_LOWER_H
#define FUTHORC_LOWER_H

#include <setjmp.h>

#include "internalise.h"

/* A static value: what an expression evaluates to at compile time. Tuples
 * and records are split into their components, and an array of tuples is a
 * tuple of arrays; functions are closures that are inlined when applied
 * (monomorphisation and defunctionalisation in one step). */
typedef enum SvKind {
    SV_DYN,    /* one IR value: se */
    SV_TUPLE,  /* elems[n] */
    SV_RECORD, /* elems[n] named names[n], sorted by name */
    SV_FUN,    /* a function value, see FunKind */
    SV_TYPE,   /* the type a type variable stands for in an inlined call: tyval */
    SV_IRREG,  /* an irregular array (irregular.c): its rows one after another in the
                  flat array se, described by irr */
} SvKind;

typedef enum FunKind {
    FK_LAMBDA,   /* exp: EX_LAMBDA, env */
    FK_LOCAL,    /* exp: EX_LETFUN, env */
    FK_GLOBAL,   /* decl */
    FK_NUMERIC,  /* numeric-module function: row, ptype */
    FK_SECTION,  /* operator section: exp (EX_SECTION or EX_BINOP for the op), bound operands */
    FK_PROJECT,  /* (.a.b): exp EX_PROJ_SECTION */
    FK_COMPOSE,  /* f >-> g: elems[0] then elems[1] */
    FK_HOLE,     /* ??? of a function type: exp EX_HOLE, env; fails when applied */
} FunKind;

typedef struct Env Env;
typedef struct SVal SVal;
typedef struct Irreg Irreg;

struct SVal {
    SvKind kind;
    SubExp se;
    SVal **elems;
    const char **names;
    int n;
    /* SV_FUN */
    FunKind fk;
    Exp *exp;
    Decl *decl;
    Env *env;
    int row;
    PrimType ptype;
    const Ref *inst;    /* FK_GLOBAL, FK_LOCAL: the use that instantiated it, */
    Env *inst_env;      /* in this environment (see lower_bind_inst) */
    SVal **applied; /* arguments supplied so far (partial application) */
    int napplied;
    SVal *left, *right; /* FK_SECTION operands (NULL where missing) */
    const Ty *tyval;    /* SV_TYPE */
    Irreg *irr;         /* SV_IRREG */
};

/* An environment (env.c): a binding of a name, with a uid, to a value,
 * and the environment it extends (NULL: the empty one). */
typedef struct EnvTree EnvTree;
struct Env {
    Env *next;
    const char *name;
    SVal *val;
    EnvTree *tree; /* every uid bound here and below, for lookups */
};

typedef VEC(SubExp) SubExpVec;

typedef struct Builder {
    VEC(Stm *) stms;
    const struct Builder *up; /* the builder of the code around a branch's
                                 body being built, or NULL (irr_bound_by) */
} Builder;

typedef struct Outline Outline;

/* A loop whose lowering is replaced while a map's function is lowered for
 * the map-loop interchange (interchange.c, control.c's hooked_loop):
 * HOOK_INIT gives its initial value and bound (or the length of the array
 * a for-in loop goes over), HOOK_BODY its body's value for parameters of
 * value carried in iteration iter (carried itself where masked and iter
 * is not below count), HOOK_VALUE the value carried in place of the
 * loop. out is the value given; the statements the function's lowering
 * makes after it start at mark in b. */
typedef enum HookMode { HOOK_INIT, HOOK_BODY, HOOK_VALUE } HookMode;
typedef struct LoopHook {
    const Exp *loop;
    HookMode mode;
    SVal *carried;
    SubExp iter, bound, count;
    bool masked;
    SVal *out;
    Builder *b;
    int mark;
    bool fired;
} LoopHook;

typedef struct Lower {
    Arena *a;
    Prog *prog;
    Builder *b;
    const InternaliseOpts *opts;
    int depth; /* inlining depth, to report runaway recursion */
    jmp_buf *bail;       /* where lower_error abandons the lowering */
    const char *prelude; /* the prelude's file name (files[0]), or NULL */
    SrcLoc user_loc;     /* the innermost expression of user code being lowered */
    VEC(Outline *) outlines; /* functions considered for outlining (outline.c) */
    VEC(Fun *) defs;         /* the outlined ones, callees first */
    unsigned pin;            /* IrExp.pin of the Scremas made (PinFlags): those of
                                #[incremental_flattening(...)] around the
                                expression being lowered */
    LoopHook *hook;          /* the loop being interchanged with a map, or NULL */
} Lower;

/* Inlining deeper than this means (mutual) recursion that cannot be
 * unfolded at compile time. */
enum { LOWER_MAX_INLINE_DEPTH = 200 };

/* env.c */
/* env extended with uid (named name) bound to val. */
Env *lower_env_bind(Lower *l, Env *env, int uid, const char *name, SVal *val);
/* The value of the newest binding of uid or of name in env, or NULL. */
SVal *lower_env_lookup(const Env *env, int uid);
SVal *lower_env_lookup_name(const Env *env, const char *name);

/* internalise.c */
SVal *lower_exp(Lower *l, Env *env, Exp *e);
/* env with the names of pattern p bound to the parts of v (and the sizes
 * of its type annotations to v's dimensions). */
Env *lower_bind_pat(Lower *l, Env *env, Pat *p, SVal *v);
SVal *lower_apply(Lower *l, SVal *f, SVal **args, int nargs, Exp *call);
SVal *sv_dyn(Lower *l, SubExp se);
SVal *sv_tuple(Lower *l, SVal **elems, int n);
void sv_leaves(Lower *l, SVal *v, SubExpVec *out);
int sv_count_leaves(const SVal *v);
SVal *sv_rebuild(Lower *l, const SVal *shape, const SubExp *leaves, int *pos);
/* The field name of a record or tuple value (NULL when it has none). */
SVal *sv_field(SVal *v, const char *name);
/* ty with its type variables replaced by what they stand for in env, as
 * far as the structures of values need (arrays, tuples, records, sums). */
const Ty *lower_resolve_ty(Lower *l, Env *env, const Ty *ty);
/* One arm of a conditional: lowers arm number arm (of ctx) into l->b and
 * returns its value. */
typedef SVal *(*LowerArm)(Lower *l, void *ctx, int arm);
/* if cond then arm t else arm f, each arm in a body of its own; sizes that
 * differ between the arms are bound by the conditional (existential)
 * (control.c). */
SVal *lower_branch(Lower *l, SubExp cond, LowerArm arm, void *ctx, int t, int f, SrcLoc loc);
/* An if expression e, and a loop expression e (control.c). */
SVal *lower_if(Lower *l, Env *env, Exp *e);
SVal *lower_loop(Lower *l, Env *env, Exp *e);
/* The body of a loop of lower_loop_over: its value for parameters of
 * value params in iteration i (an i64). */
typedef SVal *(*LoopBodyFn)(Lower *l, void *ctx, SVal *params, SubExp i);
/* A for-loop of bound iterations (an i64) from init, whose body is body's
 * value; e is the loop expression it stands for (its form, for i < n, and
 * location). Sizes and irregular arrays are carried as lower_loop does. */
SVal *lower_loop_over(Lower *l, Exp *e, SVal *init, SubExp bound, LoopBodyFn body, void *ctx);
bool sv_has_fun(const SVal *v);
/* The body of b's statements with the leaves of res as its results. */
Body *lower_finish_body(Lower *l, Builder *b, SVal *res);
/* Emits if cond then tbody else fbody, of one result of type t; returns it. */
SubExp lower_if_one(Lower *l, SubExp cond, Body *tbody, Body *fbody, Type t, SrcLoc loc);
/* Lowers the body of top-level function d applied to args (into l->b). */
SVal *lower_definition(Lower *l, Decl *d, SVal **args);
/* The name a parameter pattern binds, or "arg". */
const char *lower_pat_name(const Pat *p);
SubExp lower_emit1(Lower *l, IrExp *e, Type t, SrcLoc loc);
void lower_emit(Lower *l, IrExp *e, Var **pat, int npat, SrcLoc loc);
IrExp *lower_new_exp(Lower *l, IrExpKind k);
SubExp lower_binop(Lower *l, Op op, SubExp x, SubExp y, SrcLoc loc);
/* lower_binop after the run-time checks of integer operations (unless
 * --unsafe): no division by zero, no negative exponent. */
SubExp lower_checked_binop(Lower *l, Op op, SubExp x, SubExp y, SrcLoc loc);
SubExp lower_unop(Lower *l, Op op, SubExp x, SrcLoc loc);
SubExp lower_conv(Lower *l, SubExp x, PrimType to, SrcLoc loc);
void lower_assert(Lower *l, SubExp cond, const char *msg, SubExp *args, int nargs, SrcLoc loc);
SubExp lower_dim(Lower *l, SubExp arr, int d);
Lambda *lower_lambda(Lower *l, SVal *f, Type *param_types, int nparams, const SVal *param_shape,
                     int nshape, SVal **result_shape, SrcLoc loc);
/* Reports an error and abandons the lowering: internalise returns NULL. */
void lower_error(Lower *l, SrcLoc loc, const char *fmt, ...) __attribute__((noreturn, format(printf, 3, 4)));

/* index.c */
/* e1[slice] (EX_INDEX). */
SVal *lower_index(Lower *l, Env *env, Exp *e);
/* arr with [ix] = v, for every leaf (arr is consumed). */
SVal *lower_update(Lower *l, Env *env, SVal *arr, DimIndex *ix, int n, SVal *v, SrcLoc loc);
/* Element i (an i64) of an array value, for every leaf. */
SVal *lower_index_value(Lower *l, SVal *arr, SubExp i, SrcLoc loc);
/* The shape of the first leaf of an array value (rank in *rank), or NULL. */
const SubExp *lower_value_dims(Lower *l, SVal *v, int *rank);
/* a..b, a..<b, a..>b, with a second element or not (EX_RANGE). */
SVal *lower_range(Lower *l, Env *env, Exp *e);

/* sizes.c */
/* The value of size s in env (a constant, a bound size or name, a size
 * expression over bound names); false when it is unknown or unbound. */
bool lower_try_size(Lower *l, Env *env, const Size *s, SubExp *out);
/* The value of size s in env; an error when it is not known. */
SubExp lower_size(Lower *l, Env *env, const Size *s, SrcLoc loc);
/* Binds in fenv the size parameters of a definition to what inst, the
 * reference that uses it, instantiated them to (evaluated in env, the
 * environment of the use), where that is known. */
Env *lower_bind_inst(Lower *l, Env *fenv, const Ref *inst, Env *env);
/* What a value is matched against its type for (lower_match_shape). */
typedef enum ShapeUse {
    SHAPE_ARGUMENT, /* a function argument: binds the parameter's sizes, checks the rest */
    SHAPE_RESULT,   /* a function result against the declared return type: checks */
    SHAPE_COERCION, /* e :> t: checks */
    SHAPE_ENTRY,    /* an entry point's argument: binds and checks, as SHAPE_ARGUMENT */
    SHAPE_PATTERN,  /* a pattern's type: binds its sizes, checks nothing */
} ShapeUse;
/* Matches value v against checked type ty: binds the sizes of ty unknown in
 * env to v's dimensions and checks at run time that v has the others (unless
 * --unsafe), as use says. Returns env with the new bindings. */
Env *lower_match_shape(Lower *l, Env *env, const Ty *ty, SVal *v, ShapeUse use, SrcLoc loc);
/* After a function result's check against its declared type ty: v with
 * the declared sizes where they are known in env (equal to v's after the
 * check), so that code after the call sees the sizes the function
 * promises, not those its body computed (a map's rows then have one size
 * known outside it). */
SVal *lower_adopt_shape(Lower *l, Env *env, const Ty *ty, SVal *v, SrcLoc loc);

/* entry.c */
/* Creates the external parameters of entry point d as f's (params,
 * param_ext, in_vals) and returns the environment in which d's parameters
 * and their sizes are bound, after emitting the checks of the sizes that
 * the arguments must agree on. When d's result is a function (entry main =
 * map f64.ceil), its parameters are the entry point's too, after d's own:
 * sets *extra to their values (*nextra of them), which the body's value is
 * applied to. */
Env *lower_entry_params(Lower *l, const Decl *d, Fun *f, SVal ***extra, int *nextra);
/* The result type of entry point d after the parameters that a function
 * result adds, and the annotation written for it (or NULL). */
const Ty *lower_entry_result(const Decl *d, const TypeExp **te);
/* Sets f's result types (ret, ret_ext, out_vals) from its body's results. */
void lower_entry_results(Lower *l, const Decl *d, Fun *f);

/* sums.c */
/* A sum value is a tuple: its tag (u8, the constructor's index in name
 * order) and then the payload tuple of each constructor, those of the
 * other constructors than the tag's being blanks (zeros, arrays of unknown
 * content), so that leafwise equality is equality of sums. An array of sums
 * is thus a tag array and payload arrays. */
/* A value of type ty of unspecified content: zeros, and arrays of the
 * sizes ty names where env knows them, else empty (for sum types' other
 * payloads and for holes). */
SVal *lower_blank(Lower *l, Env *env, const Ty *ty, SrcLoc loc);
/* The tuple type that represents sum type ty. */
const Ty *lower_sum_repr(Lower *l, const Ty *ty);
/* #c a1 ... an (EX_CONSTR). */
SVal *lower_constr(Lower *l, Env *env, Exp *e);
/* match e1 case p1 -> b1 ... (EX_MATCH): an if-chain on the patterns. */
SVal *lower_match(Lower *l, Env *env, Exp *e);
/* The payload tuple of constructor pattern p's constructor in sum value v. */
SVal *lower_sum_payload(Lower *l, Pat *p, SVal *v);

/* outline.c */
/* The result of applying top-level function d to args as a call of its
 * outlined function, emitted into l->b; NULL when d is to be inlined. */
SVal *lower_call_outlined(Lower *l, Decl *d, SVal **args, SrcLoc loc);
/* Once every entry point is lowered: inlines the outlined functions called
 * from fewer than two places and sets l->prog->defs to the others. */
void lower_finish_outlining(Lower *l);

/* intrinsics.c */
/* How a definition of the prelude implemented by the compiler was used:
 * its declaration, and the use that instantiated its size parameters (in
 * inst_env), when it was applied as a function value (or NULL). */
typedef struct Intrinsic {
    const Decl *decl;
    const Ref *inst;
    Env *inst_env;
} Intrinsic;
/* Helpers of the intrinsics that irregular.c uses too. */
Type lower_outer_type(Lower *l, SubExp w, Type t);
/* A lambda of fresh parameters of the given types whose body's statements
 * go to nb (l->b is saved) until lower_lambda_end gives it results res. */
Lambda *lower_lambda_begin(Lower *l, const Type *types, int n, Builder **saved, Builder *nb);
void lower_lambda_end(Lower *l, Lambda *lam, Builder *saved, Builder *nb, const SubExp *res, int nres);
/* Ends a body begun like a lambda's: restores the builder, returns the body. */
Body *lower_body_end(Lower *l, Builder *saved, Builder *nb, const SubExp *res, int nres);
/* The binary operator op on two scalars of type t, as a lambda. */
Lambda *lower_prim_op_lambda(Lower *l, Op op, PrimType t);
/* The last element of offs (an i64 array of w elements), 0 when w is 0. */
SubExp lower_scan_total(Lower *l, SubExp offs, SubExp w, SrcLoc loc);
Var **lower_emit_screma(Lower *l, Screma *sc, Type *rtypes, int nres, SrcLoc loc);
/* The elements of the w-element arrays xl whose flag is true, moved into
 * fresh arrays of len elements (filter; partition puts the others after
 * them): offs is the flags' inclusive prefix sum, count its total. */
Var **lower_compact(Lower *l, const SubExpVec *xl, SubExp w, SubExp offs, SubExp flags, SubExp count, bool partition,
                    SubExp len, SrcLoc loc);
/* flatten of one array leaf (of rank 2 or more). */
SubExp lower_flatten_leaf(Lower *l, SubExp x, SrcLoc loc);
/* The type [w] ++ t (in *out) of a map result whose row type t the map's
 * lambda lam computes, with the sizes of t computed outside the map;
 * false when a size depends on the element (regular[d], if not NULL, says
 * which dimensions have sizes known outside). */
bool lower_map_result_type(Lower *l, const Lambda *lam, SubExp w, Type t, Type *out, bool *regular, SrcLoc loc);
SVal *lower_intrinsic(Lower *l, const char *name, SVal **args, int nargs, Exp *call, Env *env, const Intrinsic *in);
/* xs == ys for arrays of one element type: the same shape (the elements
 * are compared only then) and equal elements. */
SubExp lower_equal_arrays(Lower *l, SubExp a, SubExp b, SrcLoc loc);
SVal *lower_numeric(Lower *l, int row, PrimType t, SVal **args, int nargs, SrcLoc loc);
/* The number of arguments a numeric-module function takes (0 for constants). */
int lower_numeric_arity(int row);

/* irregular.c */
/* Whether a leaf of v is an irregular array. */
bool sv_irregular(const SVal *v);
/* The irregular array v (SV_IRREG) as a regular one, after a run-time
 * check that its rows have one size. */
SubExp lower_regular(Lower *l, const SVal *v, SrcLoc loc);
/* The number of rows of an array value whose leaves may be irregular. */
SubExp lower_width(Lower *l, SVal *v, SrcLoc loc);
/* Row i of every leaf of v (i is not checked). */
SVal *lower_row(Lower *l, SVal *v, SubExp i, SrcLoc loc);
/* The value of element i of a map (an i64 in the map's function). */
typedef SVal *(*ElemFn)(Lower *l, void *ctx, SubExp i);
/* A map of n elements, element i being fn(ctx, i): regular arrays where
 * the results' sizes are known outside the map, else irregular ones. A
 * map that must run its elements one after another (a loop over them,
 * each writing its rows) is made only where loop_ok: NULL otherwise.
 * rows: the irregular array whose rows the elements are, or NULL. */
SVal *lower_map_elems(Lower *l, SubExp n, ElemFn fn, void *ctx, const SVal *rows, bool loop_ok, SrcLoc loc);
/* map f xs, f applied to each row of xs (whose leaves may be irregular),
 * by lower_map_elems. */
SVal *lower_map_rows(Lower *l, SVal *f, SVal *xs, SrcLoc loc);

/* interchange.c */
/* map f xs as a loop of maps, when f's body runs a for-loop whose bound is
 * the same for every element (interchange.c); NULL, with nothing made,
 * otherwise. */
SVal *lower_map_interchanged(Lower *l, SVal *f, SVal *xs, SrcLoc loc);
/* Whether map function lam (lowered) runs a loop whose parameters' sizes
 * change between iterations. */
bool lower_loop_resizes(const Lambda *lam);
/* unflatten_irregular sizes xs: rows of xs of the given sizes. */
SVal *lower_unflatten_irregular(Lower *l, SVal *sizes, SVal *xs, SrcLoc loc);
/* to_irregular xs (an irregular array, or a regular array of arrays): the
 * record {elems, sizes} of its rows one after another and their lengths,
 * how entry points take and return irregular arrays. */
SVal *lower_to_irregular(Lower *l, SVal *xs, SrcLoc loc);
/* The leaves of v, one arm's value of a branch whose other arm's value is
 * other: an irregular array whose counterpart is irregular of the same
 * rank and the same varying dimensions as its descriptor's arrays (its
 * flat array, counts, offsets, then its sizes in each dimension), so that
 * the branch's value stays irregular; anything else as sv_leaves makes it. */
void lower_arm_leaves(Lower *l, SVal *v, const SVal *other, SubExpVec *out);
/* The branch's value of shape's structure (the arm whose leaves were
 * lower_arm_leaves(shape, other)), its leaves ses from *pos. */
SVal *lower_arm_value(Lower *l, const SVal *shape, const SVal *other, const SubExp *ses, int *pos);
/* flatten v, whose leaves may be irregular. */
SVal *lower_flatten_irregular(Lower *l, SVal *v, SrcLoc loc);

#endif
