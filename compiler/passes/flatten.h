/* The state shared by the files of pass flatten (flatten.c: what is
 * lifted, and the driver; flatten_build.c: building the lifted code). */
#ifndef FUTHORC_PASSES_FLATTEN_H
#define FUTHORC_PASSES_FLATTEN_H

#include "passes.h"

/* The most maps one run of the pass flattens (each level of nesting one
 * more): a bound on the work, whatever the program. */
#define MAX_FLATTENED 64

/* What a Var of the map's body is. */
enum {
    L_NONE,
    L_OUTER, /* a value of one element */
    L_INNER, /* an array of a length bound in the body: flat, with a descriptor */
    L_VIEW,  /* a slice of an array bound outside the map whose length is bound
                in the body (a segment a lifted map reads): made again where
                it is used, never expanded */
};

/* The segments of the arrays of one body-bound length. */
typedef struct Desc {
    Var *size;             /* the length (a Var of the body) */
    Var *sizes;            /* [w]i64: its value for each element */
    Var *offsets;          /* [w]i64: exclusive prefix sums of sizes */
    Var *total;            /* i64: their sum */
    Var *seg, *pos;        /* [total]i64: segment and index of each flat position (or NULL) */
    struct Desc *next;
} Desc;

typedef struct Flat {
    Prog *p;
    Arena *a;
    SrcLoc loc;
    SubExp w;            /* the map's width */
    int nvars;           /* entries of the arrays below (Var ids of the body) */
    char *level;         /* by Var id: L_OUTER (body-bound or parameter) or L_INNER */
    int *stage;          /* by Var id: the index of the top-level statement binding it (-1: a parameter) */
    int *last_use;       /* by Var id: the last top-level statement using it (nstms: a result) */
    Var **lifted;        /* by Var id, outer: its expanded [w] array once bound */
    Var **len;           /* by Var id, inner: its length (a Var of the body) */
    Stm **def;           /* by Var id, view: the statement binding it */
    Var **flat;          /* by Var id, inner: its flat array */
    Desc **desc;         /* by Var id, inner: the segments of its length */
    Desc *descs;
    StmVec out;          /* the statements replacing the map */
    bool changed;
    int nflat;           /* maps flattened so far */
    /* Building one stage or lifted lambda: */
    Var **repl;          /* by Var id: its Var there */
    VEC(Var *) params;
    VEC(Var *) arrs;
    StmVec prologue;
    int lo, hi;          /* the stage's top-level statements */
    Var *seg_param;      /* a lifted lambda's segment parameter */
    Desc *cur;           /* the segments of the statement being lifted */
    int *kind;           /* by top-level statement: 1 when inner */
    int *stage_of;       /* by top-level statement: its stage (-2: inner) */
} Flat;

/* F->stage of a Var bound inside a statement of the body, not at its top level. */
#define NESTED 0x7fffffff

static inline bool body_var(const Flat *F, const Var *v) { return v->id < F->nvars && F->level[v->id]; }

/* A parameter of the map's lambda or a Var its body binds at the top level:
 * a value of one element. */
static inline bool top_var(const Flat *F, const Var *v) { return body_var(F, v) && F->stage[v->id] != NESTED; }

static inline bool inner_arr(const Flat *F, const Var *v) { return body_var(F, v) && F->level[v->id] == L_INNER; }

static inline bool irregular_type(const Flat *F, Type t) {
    for (int d = 0; t.kind == TK_ARRAY && d < t.rank; d++)
        if (t.shape[d].is_var && body_var(F, t.shape[d].v)) return true;
    return false;
}

/* ---- flatten_build.c ---------------------------------------------------------- */

/* Builders of IR: an expression of kind k; the type [n]t; `let v = e`
 * appended to out; `let v = arr[i]`; a map over n elements of arrs
 * binding pat (fresh arrays where NULL). */
IrExp *fl_exp_new(Flat *F, IrExpKind k);
Type fl_arr_type(Flat *F, PrimType t, SubExp n);
Var *fl_emit1(Flat *F, StmVec *out, const char *name, Type t, IrExp *e);
Var *fl_emit_index(Flat *F, StmVec *out, Var *arr, SubExp i);
Stm *fl_map_stm(Flat *F, SubExp n, Var **arrs, int narrs, Lambda *lam, Var **pat);
/* `let x = if a then {ts; n} else {fs; o}` appended to out (ts, fs:
 * the branches' statements, or NULL). */
SubExp fl_if(Flat *F, StmVec *out, SubExp a, StmVec *ts, SubExp n, StmVec *fs, SubExp o, Type t);
/* The commutative binary operator op of type t with neutral ne. */
SegOp fl_binop(Flat *F, Op op, PrimType t, SubExp ne);
/* An inclusive scan (scan) or a reduction of the n elements of arr (of t)
 * by op, into out. */
Var *fl_emit_soac1(Flat *F, StmVec *out, SubExp n, Var *arr, SegOp op, bool scan, PrimType t, const char *name);
/* The expanded [w] array of outer value v (an ICE if it has none). */
Var *fl_lifted_of(Flat *F, Var *v);
/* The descriptor of the inner arrays of length len (made on first use,
 * into F->out), and its flat positions' segments and indices. */
Desc *fl_desc_of(Flat *F, Var *len);
void fl_desc_positions(Flat *F, Desc *d);
/* Top-level statements [lo, hi) of b as a map over the elements, the
 * values later code uses expanded. */
void fl_emit_stage(Flat *F, Body *b, int lo, int hi);
/* Flat array v, or a copy of it when a descriptor holds it (for code
 * that consumes it). */
Var *fl_owned(Flat *F, Var *v);
/* Inner Var x's flat array is v. */
void fl_set_flat(Flat *F, Var *x, Var *v);
/* The lifted forms of inner statements (of length d where given), into
 * F->out, recording their results' flat or expanded arrays. */
void fl_lift_screma(Flat *F, Stm *st, Desc *d);
void fl_lift_scratch(Flat *F, Stm *st, Desc *d);
void fl_lift_slice(Flat *F, Stm *st, Desc *d);
void fl_lift_concat(Flat *F, Stm *st, Desc *d);
void fl_lift_copy(Flat *F, Stm *st);
void fl_lift_fill(Flat *F, Stm *st, Desc *d);
void fl_lift_update(Flat *F, Stm *st);
void fl_lift_scatter(Flat *F, Stm *st);

/* flatten_hist.c: rewrites the histogram stms[at] of b, when its operator
 * is elementwise, into a histogram of scalars over the flat buckets. */
bool flatten_hist_rows(Prog *p, Body *b, int at);

#endif
