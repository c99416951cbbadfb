/* The simplifier: STAGE_SOACS -> STAGE_SOACS. Removes the redundancy that
 * internalisation leaves behind (it inlines most functions and emits checks
 * and size computations naively). The algorithm is the classic one of
 * optimising compilers (e.g. Appel, "Modern Compiler Implementation",
 * ch. 17-18; Futhark's simplification engine): a forward walk over each
 * body in SSA order that rewrites statements with a substitution map and a
 * table of available expressions, then a backward dead-code sweep with use
 * counts; both repeat until nothing changes (at most SIMP_MAX_ROUNDS).
 *
 * Rules, each with its reason:
 *  - Constant folding of ops and conversions with all-constant operands
 *    (prim_eval / prim_convert): they compute what the generated C would.
 *    prim_eval declines division by zero, which then stays (and its
 *    guarding assertion reports the error at run time).
 *  - Algebraic rules: x+0, 0+x, x-0, x*1, 1*x, x*0 (integers), x-x
 *    (integers), x/1, x//1, x%1 (integers), neg(neg x), not(not x),
 *    min/max/and/or(x, x), xor(x, x), comparisons of a value with itself
 *    (integers and booleans: floats have NaN), &&/|| with a constant or
 *    twice the same operand, conversion to the same type. Each is an
 *    identity of the wrapping integer semantics of prim.c; float rules are
 *    only the ones exact for every value (x*1, x/1).
 *  - Ranges: a for-loop index i < n and the parameter of a SOAC lambda fed
 *    by iota(n, 0, 1) lie in [0, n); comparisons 0 <= i, i < n (and their
 *    mirrored forms) fold to true, so the bounds check of xs[i] with
 *    xs : [n]t becomes assert(true) and disappears. The dimensions of an
 *    entry point's array parameters, shapes of actual arrays, are >= 0.
 *  - A SOAC input that replicates a scalar is dropped and its lambda
 *    parameter bound to the scalar (one input stays): the array is never
 *    built, and the value is a constant or a variable in the lambda.
 *  - A reshape of a reshape reshapes the first one's array (unflatten of a
 *    flatten, chains of flattens), and a reshape to the array's own shape
 *    is the array: a reshape keeps the row-major order of the elements.
 *    Maps through reshapes then see the arrays themselves (fuse.c).
 *  - A replicate of a replicate is one replicate of the inner element
 *    with both shapes (one fill, no inner array made to be copied).
 *  - Copy propagation: `let x = y` is removed and x replaced by y; SSA makes
 *    this always valid. If-results equal in both branches (and bound
 *    outside the if) and loop parameters the body returns unchanged
 *    (always equal to their initial value) are propagated likewise.
 *  - If with a constant condition becomes its branch; `if c then true else
 *    false` becomes c, `if c then false else true` becomes !c and `if c
 *    then 1 else 0` becomes a bool->int conversion.
 *  - CSE of pure statements (ops, conversions, index, iota, replicate,
 *    reshape, rearrange, Screma compared up to renaming of bound
 *    variables): a later identical statement is replaced by the earlier,
 *    which dominates it. Statements producing arrays take part only when
 *    all their results are only read (SOAC input, scalar index, copy,
 *    concat): merging an array that is later consumed by an in-place
 *    update would let the update clobber the other use. An assertion of a
 *    condition already asserted is redundant; assert(true) is removed.
 *    Updates, scatter, hist, copies and scratch arrays are never merged.
 *  - Calls (IE_APPLY) of the functions internalisation outlined are pure
 *    and cannot fail: CSE merges calls of one function with the same
 *    arguments, a call whose results are unused is dead code (a function
 *    left without calls is removed), and a call is hoisted when its
 *    callee's body could be. Constant folding does not look into the
 *    callee; each function's body is simplified like an entry point's.
 *  - Dead code: a statement whose results are unused is removed unless it
 *    contains an assertion (an error the program must report). Unused map
 *    outputs, scans and reductions of a Screma (when their operator has no
 *    assertion), unused lambda parameters with their input arrays, unused
 *    if results, and loop parameters that neither the loop's users nor any
 *    live computation of the body need are removed.
 *  - A scan whose result only the total of lower_scan_total reads (`if w
 *    == 0 then ne else s[w-1]`, ne its neutral element) becomes a
 *    reduction with the same operator: the count of a filter whose
 *    elements are dead, the total of an irregular array's rows inside a
 *    map (a segmented reduction instead of a scan into an array each
 *    element allocates). The sweep sees the if before the Screma and
 *    its use counts are exact.
 *  - Hoisting: a statement of a loop body or SOAC (map/scatter/hist)
 *    lambda that mentions no variable bound in that body moves in front of
 *    the loop or SOAC. Only statements that are safe to run speculatively
 *    move (the loop may run zero times): no assertions, no index unless
 *    the range rule proves it in bounds, no update, no integer division by a non-constant (or zero),
 *    no integer pow, no while loop (it might not terminate), and arrays
 *    only under the read-only condition of CSE. Size computations are
 *    ordinary i64 ops, so they are hoisted by this rule.
 * Invariants kept: SSA (no Var is bound twice; substitutions only replace
 * a Var by one bound before it, hoisting only moves a statement to where
 * all it mentions is in scope); types' shapes are substituted along with
 * operands. */
#include "passes.h"

#include <string.h>

/* Rounds of (rewrite, dead-code sweep): each round handles one more level
 * of hoisting and the chains one round uncovers; real programs settle in
 * 3-5 rounds, and the bound keeps compile time linear on pathological ones. */
enum { SIMP_MAX_ROUNDS = 16 };
/* Buckets of the available-expression table (a power of two): chains stay
 * short for bodies of thousands of statements, and it costs 16 KiB. */
enum { SIMP_CSE_BUCKETS = 4096 };


/* An available expression: a statement whose results can replace those of
 * a later identical statement; next chains entries of one bucket. */
typedef struct CseEntry {
    unsigned hash;
    Stm *stm;
    int next, bucket;
} CseEntry;

/* Pass state; the per-variable arrays are indexed by Var id. */
typedef struct Simp {
    Prog *p;
    int nvars;
    SubExp *subst;      /* replacement of a removed variable */
    char *has_subst;
    Stm **def;          /* the statement binding a variable (or NULL) */
    int *level;         /* nesting depth of the body binding a variable */
    SubExp *ub;         /* exclusive upper bound of a variable in [0, ub) */
    char *has_ub;
    char *nonneg;       /* a variable known to be >= 0 (without a bound) */
    int *uses;          /* use counts (operands, results, type shapes) */
    char *not_ro;       /* used other than IR_USE_READ */
    int *eqmap;         /* alpha-equivalence: bound var id of b -> var id of a */
    int *live;          /* liveness marks (generation numbers) */
    int live_gen;
    Stm **total_if;     /* the if taking a scan result's total (scan_total_if) */
    int *total_gen;     /* ... recorded in sweep total_gen[] == sweep */
    int sweep;
    VEC(CseEntry) cse;
    int buckets[SIMP_CSE_BUCKETS];
    int depth;
    StmVec *hoist_to;   /* the body a loop/lambda body's statements may move to */
    int hoist_depth;    /* the depth of the body being hoisted from */
    bool inv_found;     /* hoistable: a variable of hoist_depth was used */
    bool changed;
} Simp;

/* ---- Use callbacks -------------------------------------------------------------- */

static Var *use_var(SubExp *se, Var **v) { return se ? se->v : *v; }

static void count_use(void *ctx, SubExp *se, Var **v, IrUseKind k) {
    Simp *s = ctx;
    Var *x = use_var(se, v);
    s->uses[x->id]++;
    if (k != IR_USE_READ) s->not_ro[x->id] = 1;
}

static void uncount_use(void *ctx, SubExp *se, Var **v, IrUseKind k) {
    Simp *s = ctx;
    (void)k;
    s->uses[use_var(se, v)->id]--;
}

/* The final replacement of se under the substitution. */
static SubExp resolve(Simp *s, SubExp se) {
    while (se.is_var && s->has_subst[se.v->id]) se = s->subst[se.v->id];
    return se;
}

static void subst_use(void *ctx, SubExp *se, Var **v, IrUseKind k) {
    Simp *s = ctx;
    (void)k;
    if (se) {
        *se = resolve(s, *se);
        return;
    }
    SubExp r = resolve(s, se_var(*v));
    if (r.is_var) *v = r.v;
}

static void mark_live(void *ctx, SubExp *se, Var **v, IrUseKind k) {
    Simp *s = ctx;
    (void)k;
    s->live[use_var(se, v)->id] = s->live_gen;
}

/* Records that x is replaced by r from now on. */
static void set_subst(Simp *s, Var *x, SubExp r) {
    r = resolve(s, r);
    if (r.is_var && r.v == x) return;
    s->subst[x->id] = r;
    s->has_subst[x->id] = 1;
    s->changed = true;
}

static bool body_speculable(const Simp *s, const Body *b);
static bool range_lt(const Simp *s, SubExp x, SubExp n);
static SubExp resolve(Simp *s, SubExp se);

/* An index of a scalar whose indices are all proven in bounds (the range
 * rule): it reads nothing outside the array wherever it runs. */
static bool index_in_bounds(const Simp *s, const IrExp *e) {
    if (!ir_is_scalar_index(e)) return false;
    for (int d = 0; d < e->nslice; d++)
        if (!range_lt(s, e->slice[d].index, resolve((Simp *)s, e->arr->type.shape[d]))) return false;
    return true;
}

static bool segops_speculable(const Simp *s, const SegOp *ops, int n) {
    for (int i = 0; i < n; i++)
        if (!body_speculable(s, ops[i].op->body)) return false;
    return true;
}

/* Whether e may run even where the program would not run it. */
static bool exp_speculable(const Simp *s, const IrExp *e) {
    if (ir_exp_speculable_leaf(e)) return true;
    switch (e->kind) {
    case IE_INDEX: return index_in_bounds(s, e);
    case IE_IF: return body_speculable(s, e->tbody) && body_speculable(s, e->fbody);
    case IE_LOOP: return e->loop.kind == IR_LOOP_FOR && body_speculable(s, e->loop.body);
    case IE_APPLY: return body_speculable(s, e->fn->body);
    case IE_SCREMA:
        return body_speculable(s, e->screma.map->body) &&
               segops_speculable(s, e->screma.scans, e->screma.nscans) &&
               segops_speculable(s, e->screma.reds, e->screma.nreds);
    default: return false;
    }
}

static bool body_speculable(const Simp *s, const Body *b) {
    for (int i = 0; i < b->nstms; i++)
        if (!exp_speculable(s, b->stms[i]->e)) return false;
    return true;
}

/* Array results of st are only read, so st may be merged or moved. */
static bool results_read_only(const Simp *s, const Stm *st) {
    for (int i = 0; i < st->npat; i++)
        if (st->pat[i]->type.kind == TK_ARRAY && s->not_ro[st->pat[i]->id]) return false;
    return true;
}

/* ---- Equality of expressions ----------------------------------------------------- */

/* a and b denote the same value (b's bound variables renamed by eqmap). */
static bool se_eq(const Simp *s, SubExp a, SubExp b) {
    if (a.is_var != b.is_var) return false;
    if (!a.is_var) return se_same(a, b);
    int bid = s->eqmap[b.v->id] ? s->eqmap[b.v->id] : b.v->id;
    return a.v->id == bid;
}

static bool ses_eq(const Simp *s, const SubExp *a, const SubExp *b, int n) {
    for (int i = 0; i < n; i++)
        if (!se_eq(s, a[i], b[i])) return false;
    return true;
}

static bool var_eq(const Simp *s, const Var *a, const Var *b) { return se_eq(s, se_var((Var *)a), se_var((Var *)b)); }

static bool type_eq(const Simp *s, Type a, Type b) {
    if (a.kind != b.kind || a.elem != b.elem) return false;
    return a.kind != TK_ARRAY || (a.rank == b.rank && ses_eq(s, a.shape, b.shape, a.rank));
}

/* Binds the variables of b to those of a for the comparison. */
static bool bind_eq(Simp *s, Var *const *a, Var *const *b, int n) {
    for (int i = 0; i < n; i++) {
        if (!type_eq(s, a[i]->type, b[i]->type)) return false;
        s->eqmap[b[i]->id] = a[i]->id;
    }
    return true;
}

static bool exp_eq(Simp *s, const IrExp *a, const IrExp *b);

static bool body_eq(Simp *s, const Body *a, const Body *b) {
    if (a->nstms != b->nstms || a->nres != b->nres) return false;
    for (int i = 0; i < a->nstms; i++) {
        const Stm *x = a->stms[i], *y = b->stms[i];
        if (x->npat != y->npat || !exp_eq(s, x->e, y->e) || !bind_eq(s, x->pat, y->pat, x->npat)) return false;
    }
    return ses_eq(s, a->res, b->res, a->nres);
}

static bool lambda_eq(Simp *s, const Lambda *a, const Lambda *b) {
    if (a->nparams != b->nparams || a->nret != b->nret) return false;
    if (!bind_eq(s, a->params, b->params, a->nparams)) return false;
    for (int i = 0; i < a->nret; i++)
        if (!type_eq(s, a->ret[i], b->ret[i])) return false;
    return body_eq(s, a->body, b->body);
}

static bool segops_eq(Simp *s, const SegOp *a, const SegOp *b, int n) {
    for (int i = 0; i < n; i++)
        if (a[i].k != b[i].k || a[i].commutative != b[i].commutative ||
            !ses_eq(s, a[i].neutral, b[i].neutral, a[i].k) || !lambda_eq(s, a[i].op, b[i].op))
            return false;
    return true;
}

static bool slices_eq(const Simp *s, const DimSlice *a, const DimSlice *b, int n) {
    for (int i = 0; i < n; i++) {
        if (a[i].is_slice != b[i].is_slice) return false;
        if (!a[i].is_slice && !se_eq(s, a[i].index, b[i].index)) return false;
        if (a[i].is_slice && !(se_eq(s, a[i].start, b[i].start) && se_eq(s, a[i].len, b[i].len) &&
                               se_eq(s, a[i].stride, b[i].stride)))
            return false;
    }
    return true;
}

static bool screma_eq(Simp *s, const Screma *a, const Screma *b) {
    if (a->narrs != b->narrs || a->nscans != b->nscans || a->nreds != b->nreds || !se_eq(s, a->w, b->w))
        return false;
    for (int i = 0; i < a->narrs; i++)
        if (!var_eq(s, a->arrs[i], b->arrs[i])) return false;
    return lambda_eq(s, a->map, b->map) && segops_eq(s, a->scans, b->scans, a->nscans) &&
           segops_eq(s, a->reds, b->reds, a->nreds);
}

/* Structural equality of the expressions this pass compares; false for
 * the others (never merged). */
static bool exp_eq(Simp *s, const IrExp *a, const IrExp *b) {
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case IE_SUBEXP: return se_eq(s, a->se, b->se);
    case IE_OP: return a->op == b->op && a->t == b->t && ses_eq(s, a->args, b->args, a->nargs);
    case IE_CONV: return a->t == b->t && a->to == b->to && se_eq(s, a->args[0], b->args[0]);
    case IE_INDEX:
        return var_eq(s, a->arr, b->arr) && a->nslice == b->nslice && slices_eq(s, a->slice, b->slice, a->nslice);
    case IE_IOTA:
        return a->t == b->t && se_eq(s, a->n, b->n) && se_eq(s, a->start, b->start) && se_eq(s, a->step, b->step);
    case IE_REPLICATE:
        return a->nshape == b->nshape && ses_eq(s, a->shape, b->shape, a->nshape) && se_eq(s, a->se, b->se);
    case IE_RESHAPE:
        return var_eq(s, a->arr, b->arr) && a->nshape == b->nshape && ses_eq(s, a->shape, b->shape, a->nshape);
    case IE_REARRANGE:
        return var_eq(s, a->arr, b->arr) && !memcmp(a->perm, b->perm, sizeof(int) * (size_t)a->arr->type.rank);
    case IE_IF:
        return se_eq(s, a->cond, b->cond) && a->nret == b->nret && body_eq(s, a->tbody, b->tbody) &&
               body_eq(s, a->fbody, b->fbody);
    case IE_SCREMA: return screma_eq(s, &a->screma, &b->screma);
    case IE_APPLY: return a->fn == b->fn && ses_eq(s, a->args, b->args, a->nargs);
    default: return false;
    }
}

/* ---- The available-expression table ---------------------------------------------- */

static unsigned hash_mix(unsigned h, unsigned x) { return (h ^ x) * 16777619u; }

static unsigned hash_se(unsigned h, SubExp se) {
    if (se.is_var) return hash_mix(h, (unsigned)se.v->id);
    return hash_mix(hash_mix(h, (unsigned)se.c.type), (unsigned)se.c.v.i ^ (unsigned)((uint64_t)se.c.v.i >> 32));
}

/* A hash consistent with exp_eq on the operands at the top level. */
static unsigned hash_exp(const IrExp *e) {
    unsigned h = hash_mix(2166136261u, (unsigned)e->kind);
    switch (e->kind) {
    case IE_OP:
        h = hash_mix(hash_mix(h, (unsigned)e->op), (unsigned)e->t);
        for (int i = 0; i < e->nargs; i++) h = hash_se(h, e->args[i]);
        return h;
    case IE_APPLY:
        for (int i = 0; i < e->nargs; i++) h = hash_se(h, e->args[i]);
        return h;
    case IE_CONV: return hash_se(hash_mix(hash_mix(h, (unsigned)e->t), (unsigned)e->to), e->args[0]);
    case IE_INDEX:
    case IE_RESHAPE:
    case IE_REARRANGE: return hash_mix(h, (unsigned)e->arr->id);
    case IE_IOTA: return hash_se(hash_se(h, e->n), e->start);
    case IE_REPLICATE: return hash_se(h, e->se);
    case IE_ASSERT:
    case IE_IF: return hash_se(h, e->cond);
    case IE_SCREMA: return hash_se(hash_mix(h, (unsigned)e->screma.narrs), e->screma.w);
    default: return h;
    }
}

static bool cse_candidate(const Simp *s, const Stm *st) {
    switch (st->e->kind) {
    case IE_OP:
    case IE_CONV:
    case IE_INDEX:
    case IE_IOTA:
    case IE_REPLICATE:
    case IE_RESHAPE:
    case IE_REARRANGE:
    case IE_SCREMA: return results_read_only(s, st) && !ir_exp_has_assert(st->e);
    case IE_IF: return results_read_only(s, st) && !ir_exp_has_assert(st->e);
    case IE_APPLY:
    case IE_ASSERT: return true;
    default: return false;
    }
}

/* The earlier statement equal to st, or NULL. */
static Stm *cse_find(Simp *s, const Stm *st, unsigned h) {
    for (int i = s->buckets[h % SIMP_CSE_BUCKETS]; i >= 0; i = s->cse.items[i].next) {
        Stm *o = s->cse.items[i].stm;
        if (s->cse.items[i].hash != h || o->npat != st->npat) continue;
        if (st->e->kind == IE_ASSERT) {
            if (se_eq(s, o->e->cond, st->e->cond)) return o;
            continue;
        }
        if (exp_eq(s, o->e, st->e)) return o;
    }
    return NULL;
}

static void cse_add(Simp *s, Stm *st, unsigned h) {
    CseEntry e = {h, st, s->buckets[h % SIMP_CSE_BUCKETS], (int)(h % SIMP_CSE_BUCKETS)};
    s->buckets[e.bucket] = s->cse.len;
    vec_push(&s->cse, e);
}

/* Forgets the entries added since mark (leaving a body). */
static void cse_pop(Simp *s, int mark) {
    while (s->cse.len > mark) {
        CseEntry *e = &s->cse.items[--s->cse.len];
        s->buckets[e->bucket] = e->next;
    }
}

/* ---- Rewriting scalar operations ------------------------------------------------- */

static bool se_is_const(SubExp se, int64_t v) {
    if (se.is_var) return false;
    if (prim_is_int(se.c.type)) return se.c.v.i == v;
    if (prim_is_float(se.c.type)) return se.c.v.f == (double)v;
    return false;
}

static bool se_is_bool(SubExp se, bool b) { return !se.is_var && se.c.type == PT_BOOL && se.c.v.b == b; }

/* The statement binding se's variable when it is the op `op`, else NULL. */
static IrExp *def_op(const Simp *s, SubExp se, Op op) {
    if (!se.is_var || !s->def[se.v->id]) return NULL;
    IrExp *e = s->def[se.v->id]->e;
    return e->kind == IE_OP && e->op == op ? e : NULL;
}

/* x < n (x in [0, ub)) or 0 <= x is known: the range rule. */
/* An i64 value as base + off: base the variable it adds a constant to
 * (through add and sub of constants; NULL for a constant), off the sum of
 * those constants. Offsets stay far from overflow: at most
 * RANGE_OFFSET_MAX in size, else the value is its own base. */
#define RANGE_OFFSET_MAX (INT64_C(1) << 40)
typedef struct Linear {
    Var *base;
    int64_t off;
} Linear;

static Linear linear_of(const Simp *s, SubExp se) {
    se = resolve((Simp *)s, se);
    if (!se.is_var) return (Linear){NULL, se.c.type == PT_I64 ? se.c.v.i : 0};
    const Stm *d = s->def[se.v->id];
    const IrExp *e = d ? d->e : NULL;
    if (e && e->kind == IE_OP && e->t == PT_I64 && (e->op == OP_ADD || e->op == OP_SUB)) {
        SubExp a = resolve((Simp *)s, e->args[0]), b = resolve((Simp *)s, e->args[1]);
        bool ca = !a.is_var && e->op == OP_ADD, cb = !b.is_var;
        int64_t c = cb ? b.c.v.i : ca ? a.c.v.i : 0;
        if ((ca || cb) && c > -RANGE_OFFSET_MAX && c < RANGE_OFFSET_MAX) {
            Linear l = linear_of(s, cb ? a : b);
            int64_t off = e->op == OP_SUB ? l.off - c : l.off + c;
            if (off > -RANGE_OFFSET_MAX && off < RANGE_OFFSET_MAX) return (Linear){l.base, off};
        }
    }
    return (Linear){se.v, 0};
}

/* How deep range_lt and range_nonneg look through mins and maxes. */
#define RANGE_DEPTH 8

/* The min or max (op) of two i64 values that x is, else NULL. */
static const IrExp *range_minmax(const Simp *s, SubExp x, Op op) {
    const IrExp *e = def_op(s, resolve((Simp *)s, x), op);
    return e && e->t == PT_I64 ? e : NULL;
}

/* Whether constant c < n, known from a variable y in [0, ub) in scope
 * that x is based on (directly, or through mins and maxes): ub >= 1
 * there, so ub + k = n gives n >= 1 + k. */
static bool range_const_lt(const Simp *s, SubExp c, SubExp x, SubExp n, int depth) {
    if (c.is_var || c.c.type != PT_I64) return false;
    Linear lx = linear_of(s, x);
    if (lx.base && s->has_ub[lx.base->id]) {
        Linear lu = linear_of(s, s->ub[lx.base->id]), ln = linear_of(s, n);
        if (lu.base == ln.base && c.c.v.i <= ln.off - lu.off) return true;
    }
    if (depth >= RANGE_DEPTH) return false;
    const IrExp *e = range_minmax(s, x, OP_MIN);
    if (!e) e = range_minmax(s, x, OP_MAX);
    return e && (range_const_lt(s, c, e->args[0], n, depth + 1) || range_const_lt(s, c, e->args[1], n, depth + 1));
}

static bool range_lt_at(const Simp *s, SubExp x, SubExp n, int depth);

/* Whether one operand a of a max is below n, knowing the other is b. */
static bool range_max_lt(const Simp *s, SubExp a, SubExp b, SubExp n, int depth) {
    return range_lt_at(s, a, n, depth) || range_const_lt(s, resolve((Simp *)s, a), b, n, depth);
}

/* Whether x < n: x is y + c with y in [0, ub) and ub + c <= n, comparing
 * ub + c and n as the same base plus constants (an iota over n - 1 gives
 * indices i and i + 1 below n); or x is n - c (c > 0) for n >= 0; or x
 * is a min with an operand below n, or a max with both below n (a clamp:
 * max (i - 1) 0 < n, as 0 <= i < n there). */
static bool range_lt_at(const Simp *s, SubExp x, SubExp n, int depth) {
    if (n.is_var ? false : n.c.type != PT_I64) return false;
    Linear lx = linear_of(s, x), ln = linear_of(s, n);
    if (lx.base && lx.base == ln.base && lx.off < ln.off && (s->nonneg[lx.base->id] || s->has_ub[lx.base->id]))
        return true;
    if (lx.base && s->has_ub[lx.base->id]) {
        Linear lu = linear_of(s, s->ub[lx.base->id]);
        if (lu.base == ln.base && lu.off + lx.off <= ln.off) return true;
    }
    if (depth >= RANGE_DEPTH) return false;
    const IrExp *e = range_minmax(s, x, OP_MIN);
    if (e) return range_lt_at(s, e->args[0], n, depth + 1) || range_lt_at(s, e->args[1], n, depth + 1);
    e = range_minmax(s, x, OP_MAX);
    return e && range_max_lt(s, e->args[0], e->args[1], n, depth + 1) &&
           range_max_lt(s, e->args[1], e->args[0], n, depth + 1);
}

static bool range_lt(const Simp *s, SubExp x, SubExp n) { return range_lt_at(s, x, n, 0); }

static bool range_nonneg_at(const Simp *s, SubExp x, int depth);

/* Whether operand a of a min is >= 0, knowing the other is b: a is ub - c
 * (0 <= c <= 1) for a variable y in [0, ub) that b is based on (ub >= 1
 * there: min (i + 1) (n - 1) >= 0 for i < n). */
static bool range_min_nonneg(const Simp *s, SubExp a, SubExp b, int depth) {
    if (range_nonneg_at(s, a, depth)) return true;
    Linear la = linear_of(s, a), lb = linear_of(s, b);
    if (!la.base || !lb.base || !s->has_ub[lb.base->id] || la.off > 0) return false;
    Linear lu = linear_of(s, s->ub[lb.base->id]);
    return lu.base == la.base && la.off >= lu.off - 1;
}

/* Whether 0 <= x: x is a constant >= 0, or y + c with y in [0, ub) or
 * otherwise >= 0 and c >= 0, or a max with an operand >= 0 or a min of
 * two (range_min_nonneg). */
static bool range_nonneg_at(const Simp *s, SubExp x, int depth) {
    x = resolve((Simp *)s, x);
    if (!x.is_var) return x.c.type == PT_I64 && x.c.v.i >= 0;
    Linear lx = linear_of(s, x);
    if (lx.base && (s->has_ub[lx.base->id] || s->nonneg[lx.base->id]) && lx.off >= 0) return true;
    if (depth >= RANGE_DEPTH) return false;
    const IrExp *e = range_minmax(s, x, OP_MAX);
    if (e) return range_nonneg_at(s, e->args[0], depth + 1) || range_nonneg_at(s, e->args[1], depth + 1);
    e = range_minmax(s, x, OP_MIN);
    return e && range_min_nonneg(s, e->args[0], e->args[1], depth + 1) &&
           range_min_nonneg(s, e->args[1], e->args[0], depth + 1);
}

static bool range_nonneg(const Simp *s, SubExp x) { return range_nonneg_at(s, x, 0); }

/* Comparisons decided by ranges: 0 <= x, x < n, n > x, x >= 0. */
static bool fold_range(const Simp *s, const IrExp *e, SubExp *out) {
    if (e->t != PT_I64) return false;
    SubExp a = e->args[0], b = e->args[1];
    bool yes = (e->op == OP_LE && se_is_const(a, 0) && range_nonneg(s, b)) ||
               (e->op == OP_GE && se_is_const(b, 0) && range_nonneg(s, a)) ||
               (e->op == OP_LT && range_lt(s, a, b)) || (e->op == OP_GT && range_lt(s, b, a));
    if (yes) *out = se_bool(true);
    return yes;
}

/* Rules on an operand with itself (x op x). */
static bool fold_self(const IrExp *e, SubExp *out) {
    SubExp x = e->args[0];
    bool exact = prim_is_int(e->t) || e->t == PT_BOOL;
    switch (e->op) {
    case OP_MIN:
    case OP_MAX:
    case OP_AND:
    case OP_OR:
    case OP_LAND:
    case OP_LOR: *out = x; return true;
    case OP_SUB:
    case OP_XOR:
        if (!prim_is_int(e->t)) return false;
        *out = se_const(prim_int(e->t, 0));
        return true;
    case OP_EQ:
    case OP_LE:
    case OP_GE: *out = se_bool(true); return exact;
    case OP_NE:
    case OP_LT:
    case OP_GT: *out = se_bool(false); return exact;
    default: return false;
    }
}

/* Identities with a constant operand (x+0, x*1, c && x, ...). */
static bool fold_identity(const IrExp *e, SubExp *out) {
    SubExp a = e->args[0], b = e->args[1];
    bool isint = prim_is_int(e->t);
    SubExp zero = se_const(isint ? prim_int(e->t, 0) : prim_bool(false));
    switch (e->op) {
    case OP_ADD:
        if (isint && se_is_const(b, 0)) return *out = a, true;
        if (isint && se_is_const(a, 0)) return *out = b, true;
        return false;
    case OP_SUB: return isint && se_is_const(b, 0) ? (*out = a, true) : false;
    case OP_MUL:
        if (se_is_const(b, 1)) return *out = a, true;
        if (se_is_const(a, 1)) return *out = b, true;
        if (isint && (se_is_const(a, 0) || se_is_const(b, 0))) return *out = zero, true;
        return false;
    case OP_DIV:
    case OP_QUOT: return se_is_const(b, 1) ? (*out = a, true) : false;
    case OP_MOD:
    case OP_REM: return isint && se_is_const(b, 1) ? (*out = zero, true) : false;
    case OP_LAND:
        if (se_is_bool(a, true)) return *out = b, true;
        if (se_is_bool(b, true)) return *out = a, true;
        if (se_is_bool(a, false) || se_is_bool(b, false)) return *out = se_bool(false), true;
        return false;
    case OP_LOR:
        if (se_is_bool(a, false)) return *out = b, true;
        if (se_is_bool(b, false)) return *out = a, true;
        if (se_is_bool(a, true) || se_is_bool(b, true)) return *out = se_bool(true), true;
        return false;
    default: return false;
    }
}

/* Integer sums that cancel (exact, as integers wrap): a + (b - a) and
 * (b - a) + a are b, (a + b) - a is b and (a + b) - b is a. Offsets
 * taken from a position and added back (the element of an irregular
 * array's row at the row's offset plus the position's distance from it)
 * become the position. */
static bool fold_cancel(const Simp *s, const IrExp *e, SubExp *out) {
    if (!prim_is_int(e->t)) return false;
    SubExp a = resolve((Simp *)s, e->args[0]), b = resolve((Simp *)s, e->args[1]);
    if (e->op == OP_ADD) {
        for (int k = 0; k < 2; k++) {
            const IrExp *d = def_op(s, k ? a : b, OP_SUB);
            if (d && d->t == e->t && se_same(resolve((Simp *)s, d->args[1]), k ? b : a))
                return *out = d->args[0], true;
        }
        return false;
    }
    if (e->op != OP_SUB) return false;
    const IrExp *d = def_op(s, a, OP_ADD);
    if (!d || d->t != e->t) return false;
    SubExp x = resolve((Simp *)s, d->args[0]), y = resolve((Simp *)s, d->args[1]);
    if (se_same(x, b)) return *out = y, true;
    if (se_same(y, b)) return *out = x, true;
    return false;
}

/* Simplifies an op to a SubExp when a rule applies. */
static bool simplify_op(Simp *s, const IrExp *e, SubExp *out) {
    bool all_const = true;
    for (int i = 0; i < e->nargs; i++) all_const &= !e->args[i].is_var;
    if (all_const) {
        PrimValue vals[3], r;
        for (int i = 0; i < e->nargs && i < 3; i++) vals[i] = e->args[i].c;
        if (e->nargs <= 3 && prim_eval(e->op, vals, &r)) return *out = se_const(r), true;
        return false;
    }
    if (e->nargs == 1) {
        if (e->op != OP_NEG && e->op != OP_NOT) return false;
        IrExp *inner = def_op(s, e->args[0], e->op);
        if (inner && inner->t == e->t) return *out = inner->args[0], true;
        return false;
    }
    if (se_same(e->args[0], e->args[1]) && fold_self(e, out)) return true;
    return fold_identity(e, out) || fold_cancel(s, e, out) || fold_range(s, e, out);
}

/* ---- The forward walk ------------------------------------------------------------- */

static void simp_body(Simp *s, Body *b, StmVec *out);

/* Notes a use of a variable bound in the body being hoisted from. */
static void check_level(void *ctx, SubExp *se, Var **v, IrUseKind k) {
    Simp *s = ctx;
    (void)k;
    if (s->level[use_var(se, v)->id] == s->hoist_depth) s->inv_found = true;
}

/* st may move out of the loop or lambda body being simplified. */
static bool hoistable(Simp *s, Stm *st) {
    if (!s->hoist_to || s->depth != s->hoist_depth || st->e->kind == IE_SUBEXP || st->npat == 0) return false;
    if (!exp_speculable(s, st->e) || !results_read_only(s, st)) return false;
    s->inv_found = false;
    ir_uses_stm(st, check_level, s);
    return !s->inv_found;
}

/* Appends st to out (or to the hoisting target) and records its bindings. */
static void emit(Simp *s, Stm *st, StmVec *out) {
    int lvl = s->depth;
    if (hoistable(s, st)) {
        out = s->hoist_to;
        lvl = s->depth - 1;
        s->changed = true;
    } else if (cse_candidate(s, st)) {
        cse_add(s, st, hash_exp(st->e));
    }
    for (int i = 0; i < st->npat; i++) {
        s->level[st->pat[i]->id] = lvl;
        s->def[st->pat[i]->id] = st;
    }
    vec_push(out, st);
}

/* Binds params at the current depth + 1 (the body about to be entered). */
static void enter_params(Simp *s, Var **ps, int n) {
    for (int i = 0; i < n; i++) s->level[ps[i]->id] = s->depth + 1, s->def[ps[i]->id] = NULL;
}

/* Simplifies a nested body one level deeper; hoist tells whether its
 * statements may move into out (the body holding its statement). */
static void simp_nested(Simp *s, Body *b, StmVec *out, bool hoist) {
    StmVec *save_to = s->hoist_to;
    int save_depth = s->hoist_depth, mark = s->cse.len;
    s->hoist_to = hoist ? out : NULL;
    s->depth++;
    s->hoist_depth = s->depth;
    StmVec stms = {0};
    simp_body(s, b, &stms);
    b->stms = vec_to_arena(s->p->arena, &stms);
    b->nstms = stms.len;
    vec_free(&stms);
    s->depth--;
    cse_pop(s, mark);
    s->hoist_to = save_to;
    s->hoist_depth = save_depth;
}

/* Gives lambda parameters fed by iota(n, 0, 1) the range [0, n). */
static void iota_ranges(Simp *s, Var **arrs, int narrs, Lambda *l) {
    for (int i = 0; i < narrs && i < l->nparams; i++) {
        Stm *d = s->def[arrs[i]->id];
        if (!d || d->e->kind != IE_IOTA || d->e->t != PT_I64) continue;
        if (!se_is_const(d->e->start, 0) || !se_is_const(d->e->step, 1)) continue;
        s->ub[l->params[i]->id] = d->e->n;
        s->has_ub[l->params[i]->id] = 1;
    }
}

/* SOAC inputs that replicate a scalar become that scalar in the lambda:
 * the element parameter is bound to it at the top of the body, and the
 * replicated array need not exist (`hist (+) 0 k is (replicate n 1)`,
 * `i32.sum (replicate m x)`, whose Screma is then left with no input). */
static void replicate_inputs(Simp *s, Var **arrs, int *narrs, Lambda *l, SrcLoc loc) {
    for (int i = 0; i < *narrs && i < l->nparams;) {
        Stm *d = s->def[arrs[i]->id];
        bool scalar = d && d->e->kind == IE_REPLICATE && d->e->nshape == 1 &&
                      !(d->e->se.is_var && d->e->se.v->type.kind != TK_PRIM);
        if (!scalar) {
            i++;
            continue;
        }
        Stm *bind = ir_copy_stm(s->p->arena, l->params[i], d->e->se, loc);
        Stm **stms = NEW_ARRAY(s->p->arena, Stm *, l->body->nstms + 1);
        stms[0] = bind;
        COPY_ARRAY(stms + 1, l->body->stms, l->body->nstms);
        l->body->stms = stms;
        l->body->nstms++;
        s->uses[arrs[i]->id]--;
        if (bind->e->se.is_var) s->uses[bind->e->se.v->id]++;
        for (int j = i; j + 1 < *narrs; j++) arrs[j] = arrs[j + 1];
        for (int j = i; j + 1 < l->nparams; j++) l->params[j] = l->params[j + 1];
        (*narrs)--;
        l->nparams--;
        s->changed = true;
    }
}

static void simp_lambda(Simp *s, Lambda *l, StmVec *out, bool hoist) {
    enter_params(s, l->params, l->nparams);
    simp_nested(s, l->body, out, hoist);
}

static void simp_segops(Simp *s, SegOp *ops, int n, StmVec *out) {
    for (int i = 0; i < n; i++) simp_lambda(s, ops[i].op, out, false);
}

/* Drops loop parameter i (its value is init throughout). */
static void loop_drop_param(Loop *l, Body *b, Stm *st, int i) {
    for (int j = i; j + 1 < l->nparams; j++) {
        l->params[j] = l->params[j + 1];
        l->inits[j] = l->inits[j + 1];
        b->res[j] = b->res[j + 1];
        st->pat[j] = st->pat[j + 1];
    }
    l->nparams--, b->nres--, st->npat--;
}

/* Loop parameters the body returns unchanged are their initial value. */
static void loop_invariant_params(Simp *s, Stm *st) {
    Loop *l = &st->e->loop;
    bool keep_one = ir_body_has_assert(l->body);
    for (int i = l->nparams - 1; i >= 0 && (l->nparams > 1 || !keep_one); i--) {
        SubExp r = resolve(s, l->body->res[i]);
        if (!r.is_var || r.v != l->params[i] || l->params[i] == l->cond) continue;
        SubExp init = resolve(s, l->inits[i]);
        set_subst(s, l->params[i], init);
        set_subst(s, st->pat[i], init);
        loop_drop_param(l, l->body, st, i);
    }
}

static void simp_loop(Simp *s, Stm *st, StmVec *out) {
    Loop *l = &st->e->loop;
    loop_invariant_params(s, st);
    ir_uses_stm(st, subst_use, s);
    enter_params(s, l->params, l->nparams);
    if (l->kind == IR_LOOP_FOR) {
        s->level[l->i->id] = s->depth + 1;
        s->ub[l->i->id] = l->bound;
        s->has_ub[l->i->id] = 1;
    }
    simp_nested(s, l->body, out, true);
}

/* Removes if-result i. */
static void if_drop_result(Stm *st, int i) {
    IrExp *e = st->e;
    for (int j = i; j + 1 < e->nret; j++) {
        e->ret[j] = e->ret[j + 1];
        e->tbody->res[j] = e->tbody->res[j + 1];
        e->fbody->res[j] = e->fbody->res[j + 1];
        st->pat[j] = st->pat[j + 1];
    }
    e->nret--, e->tbody->nres--, e->fbody->nres--, st->npat--;
}

/* If results equal in both branches and bound outside are propagated. */
static void if_same_results(Simp *s, Stm *st) {
    IrExp *e = st->e;
    bool keep_one = ir_exp_has_assert(e);
    for (int i = e->nret - 1; i >= 0 && (e->nret > 1 || !keep_one); i--) {
        SubExp a = resolve(s, e->tbody->res[i]), b = resolve(s, e->fbody->res[i]);
        if (!se_same(a, b) || (a.is_var && s->level[a.v->id] > s->depth)) continue;
        set_subst(s, st->pat[i], a);
        if_drop_result(st, i);
    }
}

/* An if choosing between constants is an op on its condition:
 * c ? true : false = c, c ? false : true = !c, c ? 1 : 0 = bool->int. */
static bool if_to_op(Simp *s, Stm *st) {
    IrExp *e = st->e;
    if (e->nret != 1 || e->tbody->nstms || e->fbody->nstms || e->ret[0].kind != TK_PRIM) return false;
    SubExp a = e->tbody->res[0], b = e->fbody->res[0];
    if (se_is_bool(a, true) && se_is_bool(b, false)) return set_subst(s, st->pat[0], e->cond), true;
    IrExp *n = NEW(s->p->arena, IrExp);
    n->args = NEW_ARRAY(s->p->arena, SubExp, 1);
    n->args[0] = e->cond;
    n->nargs = 1;
    if (se_is_bool(a, false) && se_is_bool(b, true)) {
        n->kind = IE_OP, n->op = OP_NOT, n->t = PT_BOOL;
    } else if (prim_is_int(e->ret[0].elem) && se_is_const(a, 1) && se_is_const(b, 0)) {
        n->kind = IE_CONV, n->t = PT_BOOL, n->to = e->ret[0].elem;
    } else {
        return false;
    }
    st->e = n;
    s->changed = true;
    return false;
}

/* An if: a constant condition splices the branch into out; returns true
 * when st itself is gone. */
static bool simp_if(Simp *s, Stm *st, StmVec *out) {
    IrExp *e = st->e;
    if (!e->cond.is_var) {
        Body *b = e->cond.c.v.b ? e->tbody : e->fbody;
        simp_body(s, b, out);
        for (int i = 0; i < st->npat; i++) set_subst(s, st->pat[i], b->res[i]);
        s->changed = true;
        return true;
    }
    simp_nested(s, e->tbody, out, false);
    simp_nested(s, e->fbody, out, false);
    if_same_results(s, st);
    return if_to_op(s, st);
}

/* reshape(S, reshape(S', x)) becomes reshape(S, x), and reshape(S, x)
 * with x of shape S becomes x; true when st is replaced. */
static bool simp_reshape(Simp *s, Stm *st) {
    IrExp *e = st->e;
    Stm *d = s->def[e->arr->id];
    if (d && d->e->kind == IE_RESHAPE) {
        s->uses[e->arr->id]--;
        e->arr = d->e->arr;
        s->uses[e->arr->id]++;
        s->not_ro[e->arr->id] = 1;
        s->changed = true;
    }
    Type t = e->arr->type;
    if (t.kind != TK_ARRAY || t.rank != e->nshape) return false;
    for (int i = 0; i < t.rank; i++)
        if (!se_same(resolve(s, t.shape[i]), e->shape[i])) return false;
    set_subst(s, st->pat[0], se_var(e->arr));
    return true;
}

/* replicate(S, replicate(S', x)) becomes replicate(S ++ S', x): one fill
 * of the whole array instead of the inner array made and then copied S
 * times (the inner one goes when nothing else uses it). */
static void simp_replicate(Simp *s, Stm *st) {
    IrExp *e = st->e;
    Stm *d = e->se.is_var ? s->def[e->se.v->id] : NULL;
    if (!d || d->e->kind != IE_REPLICATE) return;
    const IrExp *in = d->e;
    SubExp *shape = NEW_ARRAY(s->p->arena, SubExp, e->nshape + in->nshape);
    COPY_ARRAY(shape, e->shape, e->nshape);
    COPY_ARRAY(shape + e->nshape, in->shape, in->nshape);
    s->uses[e->se.v->id]--;
    e->se = in->se;
    if (e->se.is_var) s->uses[e->se.v->id]++, s->not_ro[e->se.v->id] = 1;
    e->shape = shape;
    e->nshape += in->nshape;
    s->changed = true;
}

/* Rewrites of one statement; returns true when st is replaced entirely
 * (by substitutions or spliced statements). */
static bool simp_exp(Simp *s, Stm *st, StmVec *out) {
    IrExp *e = st->e;
    SubExp r;
    switch (e->kind) {
    case IE_SUBEXP: return set_subst(s, st->pat[0], e->se), true;
    case IE_OP:
        if (simplify_op(s, e, &r)) return set_subst(s, st->pat[0], r), true;
        return false;
    case IE_CONV:
        if (!e->args[0].is_var) return set_subst(s, st->pat[0], se_const(prim_convert(e->args[0].c, e->to))), true;
        if (e->t == e->to) return set_subst(s, st->pat[0], e->args[0]), true;
        return false;
    case IE_ASSERT:
        if (se_is_bool(e->cond, true)) return s->changed = true, true;
        return false;
    case IE_IF: return simp_if(s, st, out);
    case IE_RESHAPE: return simp_reshape(s, st);
    case IE_REPLICATE: simp_replicate(s, st); return false;
    case IE_LOOP: simp_loop(s, st, out); return false;
    case IE_SCREMA:
        replicate_inputs(s, e->screma.arrs, &e->screma.narrs, e->screma.map, st->loc);
        iota_ranges(s, e->screma.arrs, e->screma.narrs, e->screma.map);
        simp_lambda(s, e->screma.map, out, true);
        simp_segops(s, e->screma.scans, e->screma.nscans, out);
        simp_segops(s, e->screma.reds, e->screma.nreds, out);
        return false;
    case IE_SCATTER:
        replicate_inputs(s, e->scatter.arrs, &e->scatter.narrs, e->scatter.lam, st->loc);
        iota_ranges(s, e->scatter.arrs, e->scatter.narrs, e->scatter.lam);
        simp_lambda(s, e->scatter.lam, out, true);
        return false;
    case IE_HIST:
        replicate_inputs(s, e->hist.arrs, &e->hist.narrs, e->hist.lam, st->loc);
        iota_ranges(s, e->hist.arrs, e->hist.narrs, e->hist.lam);
        simp_lambda(s, e->hist.lam, out, true);
        simp_segops(s, &e->hist.op, 1, out);
        return false;
    default: return false;
    }
}

/* Simplifies st and appends what replaces it to out. */
static void simp_stm(Simp *s, Stm *st, StmVec *out) {
    ir_uses_stm(st, subst_use, s);
    if (simp_exp(s, st, out)) return;
    ir_uses_stm(st, subst_use, s);
    if (cse_candidate(s, st)) {
        unsigned h = hash_exp(st->e);
        Stm *o = cse_find(s, st, h);
        if (o) {
            for (int i = 0; i < st->npat; i++) set_subst(s, st->pat[i], se_var(o->pat[i]));
            s->changed = true;
            return;
        }
    }
    emit(s, st, out);
}

static void simp_body(Simp *s, Body *b, StmVec *out) {
    for (int i = 0; i < b->nstms; i++) simp_stm(s, b->stms[i], out);
    for (int i = 0; i < b->nres; i++) ir_uses_se(&b->res[i], subst_use, s);
}

/* ---- The dead-code sweep ------------------------------------------------------------ */

static void dce_body(Simp *s, Body *b);

static void uncount_lambda(Simp *s, Lambda *l) { ir_uses_lambda(l, uncount_use, s); }

static void drop_pat(Stm *st, int from, int n) {
    for (int j = from; j + n < st->npat; j++) st->pat[j] = st->pat[j + n];
    st->npat -= n;
}

/* Removes n results of a lambda starting at from. */
static void drop_lambda_results(Simp *s, Lambda *l, int from, int n) {
    for (int j = from; j < from + n; j++) ir_uses_se(&l->body->res[j], uncount_use, s);
    for (int j = from; j + n < l->nret; j++) l->ret[j] = l->ret[j + n], l->body->res[j] = l->body->res[j + n];
    l->nret -= n, l->body->nres -= n;
}

static bool pats_unused(const Simp *s, const Stm *st, int from, int n) {
    for (int j = from; j < from + n; j++)
        if (s->uses[st->pat[j]->id] > 0) return false;
    return true;
}

/* Removes unused scans (results from pos on) or reductions of a Screma
 * whose operator has no assertion; returns the position after them. */
static int prune_segops(Simp *s, Stm *st, SegOp *ops, int *nops, int pos) {
    Screma *sc = &st->e->screma;
    for (int i = 0; i < *nops;) {
        int k = ops[i].k;
        if (!pats_unused(s, st, pos, k) || ir_lambda_has_assert(ops[i].op) || st->npat <= k) {
            pos += k, i++;
            continue;
        }
        ir_uses_ses(ops[i].neutral, k, uncount_use, s);
        uncount_lambda(s, ops[i].op);
        drop_lambda_results(s, sc->map, pos, k);
        drop_pat(st, pos, k);
        for (int j = i; j + 1 < *nops; j++) ops[j] = ops[j + 1];
        (*nops)--;
        s->changed = true;
    }
    return pos;
}

/* Unused map outputs, scans and reductions of a Screma. */
static void prune_screma(Simp *s, Stm *st) {
    Screma *sc = &st->e->screma;
    int pos = prune_segops(s, st, sc->scans, &sc->nscans, 0);
    pos = prune_segops(s, st, sc->reds, &sc->nreds, pos);
    bool keep_one = ir_exp_has_assert(st->e);
    for (int i = st->npat - 1; i >= pos; i--) {
        if (s->uses[st->pat[i]->id] > 0 || (keep_one && st->npat == 1)) continue;
        drop_lambda_results(s, sc->map, i, 1);
        drop_pat(st, i, 1);
        s->changed = true;
    }
}

/* Unused parameters of a SOAC lambda and their input arrays (one stays). */
static void prune_inputs(Simp *s, Lambda *l, Var **arrs, int *narrs) {
    for (int i = l->nparams - 1; i >= 0 && *narrs > 1; i--) {
        if (s->uses[l->params[i]->id] > 0 || i >= *narrs) continue;
        s->uses[arrs[i]->id]--;
        ir_uses_type(&l->params[i]->type, uncount_use, s);
        for (int j = i; j + 1 < l->nparams; j++) l->params[j] = l->params[j + 1], arrs[j] = arrs[j + 1];
        l->nparams--, (*narrs)--;
        s->changed = true;
    }
}

/* Unused if results (one stays when a branch asserts). */
static void prune_if(Simp *s, Stm *st) {
    IrExp *e = st->e;
    bool keep_one = ir_exp_has_assert(e);
    for (int i = e->nret - 1; i >= 0; i--) {
        if (s->uses[st->pat[i]->id] > 0 || (keep_one && e->nret == 1)) continue;
        ir_uses_se(&e->tbody->res[i], uncount_use, s);
        ir_uses_se(&e->fbody->res[i], uncount_use, s);
        ir_uses_type(&e->ret[i], uncount_use, s);
        if_drop_result(st, i);
        s->changed = true;
    }
}

/* Marks the live variables of a loop body given which results are needed:
 * results, statements with assertions and everything they use. */
static void loop_liveness(Simp *s, Loop *l, const char *needed) {
    s->live_gen++;
    Body *b = l->body;
    for (int i = 0; i < l->nparams; i++) {
        if (!needed[i]) continue;
        ir_uses_se(&b->res[i], mark_live, s);
        ir_uses_type(&l->params[i]->type, mark_live, s);
    }
    for (int i = b->nstms - 1; i >= 0; i--) {
        Stm *st = b->stms[i];
        bool live = ir_exp_has_assert(st->e);
        for (int j = 0; j < st->npat && !live; j++) live = s->live[st->pat[j]->id] == s->live_gen;
        if (live) ir_uses_stm(st, mark_live, s);
    }
}

/* Loop parameters that nothing needs: not used after the loop, not the
 * condition, not used by a live computation of the body. */
static void prune_loop(Simp *s, Stm *st) {
    Loop *l = &st->e->loop;
    char *needed = arena_alloc(s->p->arena, (size_t)l->nparams + 1);
    bool any = false, grew = true;
    for (int i = 0; i < l->nparams; i++)
        any |= needed[i] = s->uses[st->pat[i]->id] > 0 || l->params[i] == l->cond;
    if (!any && l->nparams > 0 && ir_body_has_assert(l->body)) needed[0] = 1;
    while (grew) {
        grew = false;
        loop_liveness(s, l, needed);
        for (int i = 0; i < l->nparams; i++)
            if (!needed[i] && s->live[l->params[i]->id] == s->live_gen) needed[i] = 1, grew = true;
    }
    for (int i = l->nparams - 1; i >= 0; i--) {
        if (needed[i]) continue;
        ir_uses_se(&l->inits[i], uncount_use, s);
        ir_uses_se(&l->body->res[i], uncount_use, s);
        ir_uses_type(&l->params[i]->type, uncount_use, s);
        loop_drop_param(l, l->body, st, i);
        s->changed = true;
    }
}

/* The array whose total st takes, in the form lower_scan_total writes:
 * `if w == 0 then c else a[w - 1]` of a one-dimensional a (NULL when st
 * is something else). */
static Var *scan_total_if(const Simp *s, const Stm *st) {
    const IrExp *e = st->e;
    if (e->nret != 1 || e->tbody->nstms || !e->cond.is_var || !e->fbody->nres) return NULL;
    const Stm *c = s->def[e->cond.v->id];
    if (!c || c->e->kind != IE_OP || c->e->op != OP_EQ || !se_is_const(c->e->args[1], 0)) return NULL;
    const Body *f = e->fbody;
    const Stm *ix = NULL;
    for (int i = 0; i < f->nstms; i++) {
        const IrExp *fe = f->stms[i]->e;
        if (fe->kind == IE_INDEX && !ix && f->res[0].is_var && f->stms[i]->pat[0] == f->res[0].v) ix = f->stms[i];
        else if (fe->kind != IE_OP) return NULL;
    }
    if (!ix || ix->e->nslice != 1 || ix->e->slice[0].is_slice || ix->e->arr->type.rank != 1) return NULL;
    SubExp i = ix->e->slice[0].index;
    const Stm *last = i.is_var ? s->def[i.v->id] : NULL;
    if (!last || last->e->kind != IE_OP || last->e->op != OP_SUB || !se_is_const(last->e->args[1], 1) ||
        !se_same(last->e->args[0], c->e->args[0]))
        return NULL;
    return ix->e->arr;
}

/* A scan of a Screma whose result is used only by the if that takes its
 * total (scan_total_if; the sweep meets the if first) becomes a reduction
 * with the same operator and neutral element, and the if its result:
 * the scanned array is never made. On `w == 0` the if gives c, the
 * reduction the neutral element, so they must be the same. */
static void scan_to_reduce(Simp *s, Stm *st) {
    Screma *sc = &st->e->screma;
    for (int j = 0, pos = 0; j < sc->nscans; pos += sc->scans[j++].k) {
        Var *a = st->pat[pos];
        Stm *tif = s->total_gen[a->id] == s->sweep ? s->total_if[a->id] : NULL;
        if (sc->scans[j].k != 1 || s->uses[a->id] != 1 || !tif || tif->e->kind != IE_IF ||
            !se_same(sc->w, s->def[tif->e->cond.v->id]->e->args[0]) || !se_same(tif->e->tbody->res[0], sc->scans[j].neutral[0]))
            continue;
        int nscanned = 0;
        for (int i = 0; i < sc->nscans; i++) nscanned += sc->scans[i].k;
        /* The scan's result moves to the last scan position, the first reduction's. */
        Lambda *m = sc->map;
        SubExp res = m->body->res[pos];
        Type ret = m->ret[pos];
        for (int i = pos; i + 1 < nscanned; i++) st->pat[i] = st->pat[i + 1], m->body->res[i] = m->body->res[i + 1], m->ret[i] = m->ret[i + 1];
        st->pat[nscanned - 1] = a, m->body->res[nscanned - 1] = res, m->ret[nscanned - 1] = ret;
        SegOp *reds = NEW_ARRAY(s->p->arena, SegOp, sc->nreds + 1);
        reds[0] = sc->scans[j];
        COPY_ARRAY(reds + 1, sc->reds, sc->nreds);
        sc->reds = reds, sc->nreds++;
        for (int i = j; i + 1 < sc->nscans; i++) sc->scans[i] = sc->scans[i + 1];
        sc->nscans--;
        a->type = type_prim(a->type.elem);
        ir_uses_stm(tif, uncount_use, s);
        tif->e = ir_copy_stm(s->p->arena, tif->pat[0], se_var(a), tif->loc)->e;
        s->uses[a->id]++;
        s->changed = true;
        return; /* the positions moved: the next round looks again */
    }
}

/* Prunes unused results of st and sweeps its nested bodies. */
static void dce_stm(Simp *s, Stm *st) {
    IrExp *e = st->e;
    Var *totalled;
    switch (e->kind) {
    case IE_IF:
        if ((totalled = scan_total_if(s, st))) s->total_if[totalled->id] = st, s->total_gen[totalled->id] = s->sweep;
        prune_if(s, st);
        dce_body(s, e->tbody);
        dce_body(s, e->fbody);
        break;
    case IE_LOOP:
        prune_loop(s, st);
        dce_body(s, e->loop.body);
        break;
    case IE_SCREMA:
        scan_to_reduce(s, st);
        prune_screma(s, st);
        dce_body(s, e->screma.map->body);
        for (int i = 0; i < e->screma.nscans; i++) dce_body(s, e->screma.scans[i].op->body);
        for (int i = 0; i < e->screma.nreds; i++) dce_body(s, e->screma.reds[i].op->body);
        prune_inputs(s, e->screma.map, e->screma.arrs, &e->screma.narrs);
        break;
    case IE_SCATTER:
        dce_body(s, e->scatter.lam->body);
        prune_inputs(s, e->scatter.lam, e->scatter.arrs, &e->scatter.narrs);
        break;
    case IE_HIST:
        dce_body(s, e->hist.lam->body);
        dce_body(s, e->hist.op.op->body);
        prune_inputs(s, e->hist.lam, e->hist.arrs, &e->hist.narrs);
        break;
    default: break;
    }
}

/* Removes dead statements, last first so that their operands' counts
 * drop before the operands' own statements are considered. */
static void dce_body(Simp *s, Body *b) {
    int n = b->nstms;
    for (int i = n - 1; i >= 0; i--) {
        Stm *st = b->stms[i];
        if (st->e->kind != IE_ASSERT && pats_unused(s, st, 0, st->npat) && !ir_exp_has_assert(st->e)) {
            ir_uses_stm(st, uncount_use, s);
            b->stms[i] = NULL;
            s->changed = true;
            continue;
        }
        dce_stm(s, st);
    }
    int k = 0;
    for (int i = 0; i < n; i++)
        if (b->stms[i]) b->stms[k++] = b->stms[i];
    b->nstms = k;
}

/* ---- Driver ----------------------------------------------------------------------- */

static void count_fun(Simp *s, Fun *f) {
    memset(s->uses, 0, sizeof(int) * (size_t)s->nvars);
    memset(s->not_ro, 0, (size_t)s->nvars);
    ir_uses_body(f->body, count_use, s);
    for (int i = 0; i < f->nret; i++) ir_uses_type(&f->ret[i], count_use, s);
}

/* One round on one entry point: the forward rewrite, then the sweep. */
static void simp_fun(Simp *s, Fun *f) {
    count_fun(s, f);
    for (int i = 0; i < f->nparams; i++) {
        Type t = f->params[i]->type;
        s->level[f->params[i]->id] = 0, s->def[f->params[i]->id] = NULL;
        for (int d = 0; t.kind == TK_ARRAY && f->param_ext && d < t.rank; d++) /* an entry point's */
            if (t.shape[d].is_var) s->nonneg[t.shape[d].v->id] = 1;
    }
    s->depth = 0;
    s->hoist_to = NULL;
    StmVec stms = {0};
    simp_body(s, f->body, &stms);
    f->body->stms = vec_to_arena(s->p->arena, &stms);
    f->body->nstms = stms.len;
    vec_free(&stms);
    cse_pop(s, 0);
    for (int i = 0; i < f->nret; i++) ir_uses_type(&f->ret[i], subst_use, s);
    count_fun(s, f);
    s->sweep++;
    dce_body(s, f->body);
}

static void *simp_calloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size);
    if (!p) ICE("out of memory in the simplifier");
    return p;
}

/* Removes the functions that dead code removal left without a call. */
static void drop_uncalled(Prog *p) {
    int *calls = simp_calloc((size_t)p->ndefs, sizeof *calls);
    ir_count_calls(p, calls);
    int n = 0;
    for (int i = 0; i < p->ndefs; i++)
        if (calls[i] > 0) p->defs[n++] = p->defs[i];
    p->ndefs = n;
    free(calls);
}

void pass_simplify(Prog *p) {
    Simp s = {0};
    s.p = p;
    s.nvars = p->next_var_id > 0 ? p->next_var_id : 1;
    size_t n = (size_t)s.nvars;
    s.subst = simp_calloc(n, sizeof *s.subst);
    s.has_subst = simp_calloc(n, 1);
    s.def = simp_calloc(n, sizeof *s.def);
    s.level = simp_calloc(n, sizeof *s.level);
    s.ub = simp_calloc(n, sizeof *s.ub);
    s.has_ub = simp_calloc(n, 1);
    s.nonneg = simp_calloc(n, 1);
    s.uses = simp_calloc(n, sizeof *s.uses);
    s.not_ro = simp_calloc(n, 1);
    s.eqmap = simp_calloc(n, sizeof *s.eqmap);
    s.live = simp_calloc(n, sizeof *s.live);
    s.total_if = simp_calloc(n, sizeof *s.total_if);
    s.total_gen = simp_calloc(n, sizeof *s.total_gen);
    for (int i = 0; i < SIMP_CSE_BUCKETS; i++) s.buckets[i] = -1;
    for (int round = 0; round < SIMP_MAX_ROUNDS; round++) {
        s.changed = false;
        for (int i = 0; i < p->ndefs; i++) simp_fun(&s, p->defs[i]);
        for (int i = 0; i < p->nfuns; i++) simp_fun(&s, p->funs[i]);
        if (!s.changed) break;
    }
    drop_uncalled(p);
    free(s.subst), free(s.has_subst), free(s.def), free(s.level), free(s.ub), free(s.has_ub), free(s.nonneg);
    free(s.uses), free(s.not_ro), free(s.eqmap), free(s.live), free(s.total_if), free(s.total_gen);
    vec_free(&s.cse);
}
