/* The memory pass, STAGE_SOACS -> STAGE_MEM: FunMem's "TransformStm" and
 * "TransformProgram" (../shared/reference/seed-002-funmem.md §2.5).
 *
 * Every array Var gets a MemInfo: a memory block (a TK_MEM Var) and an LMAD
 * index function whose Sym variables are Var ids of i64 Vars in scope.
 *
 *  - Fresh arrays (iota, replicate, scratch, copy, concat, array literals,
 *    Screma scan and map outputs) get a block made by an IE_ALLOC statement
 *    inserted just before the statement that fills it (its byte size is
 *    computed by i64 multiplications inserted before it), with the row-major
 *    LMAD of the array's type.
 *  - Views copy nothing: an array SubExp, a slice (IE_INDEX with slices,
 *    negative strides included; IE_FLAT_INDEX), IE_REARRANGE and IE_RESHAPE share the block
 *    of their source with a transformed LMAD. A reshape that one LMAD cannot
 *    express (lmad_reshape gives NULL) first copies its source into a fresh
 *    row-major block.
 *  - Consumers write in place: IE_UPDATE, IE_FLAT_UPDATE, Scatter and Hist results share the
 *    block and LMAD of the consumed array.
 *  - Fresh arrays whose place is known are built there (hints, a simple
 *    form of FunMem's short-circuiting, §3.3): a map's result is built in
 *    row iter of the map's output (so nested maps write straight into the
 *    outer array), an operator's result in its accumulator (see below).
 *    Arrays that pass shortcircuit planned a place for (p->shortcircuit:
 *    a region of an update's destination or of a concatenation's result)
 *    are built there; a concatenation whose operand comes first gets its
 *    block when that operand is made.
 *  - Merges use existential memory: each array result of an IE_IF gets an
 *    extra TK_MEM pattern Var (and ret entry, and branch result). When both
 *    branches give row-major arrays at offset 0 that is all; otherwise (a
 *    transposition, a slice) the offset and every stride are existential
 *    too (i64 pattern Vars, with branch results computed from the branches'
 *    LMADs), so no branch copies. Each array parameter of an IE_LOOP gets
 *    an extra TK_MEM loop parameter (appended after the others, with its
 *    init, body result and pattern Var appended in the same order) and the
 *    row-major LMAD of its type: a loop that updates its parameter in place
 *    never copies; an init or body result that is not row-major at offset 0
 *    is copied first (existential loop offsets and strides: not yet).
 *  - SOACs get an iteration index Var (Screma/Scatter/Hist.iter, ir.h): an
 *    array lambda parameter is row iter of its input array. An iota used
 *    only as the elements of Scremas is not built: it is dropped from
 *    their inputs and its element bound to start + iter * step at the top
 *    of their lambdas (a map over iota n reads no memory for it).
 *  - Operators on arrays (reduce, scan, hist): each array accumulator is a
 *    block allocated once before the SOAC (a reduction's result block; a
 *    block of its own for a scan or a histogram, whose buckets are copied
 *    in and out). The operator's result is built in the accumulator itself
 *    when the operator is an element-wise map over it (mem_inplace_ok), else in
 *    a scratch block allocated once and copied back. An element parameter
 *    is the map's row view when it can be, else a buffer allocated once.
 *  - Allocations of loop-invariant size inside loop bodies and SOAC lambdas
 *    are hoisted out with their size arithmetic (hoist_allocs), unless a
 *    loop passes the block on to its next iteration.
 *  - Entry parameters get a block each (bound implicitly with the parameter)
 *    and the row-major LMAD of their type; entry results may have any LMAD:
 *    the backend writes them out row-major.
 */
#include "passes.h"

#include <stdlib.h>
#include <string.h>


/* The pass state: the program (for fresh Vars) and its arena. */
typedef struct MemCtx {
    Prog *p;
    Arena *a;
    MemInfo **hints; /* by Var id: where the fresh array should be built */
    int nhints;
    Var **vars; /* by id: the i64 Vars seen, for turning Syms into statements */
    int nvars;
    Stm **elem_iota; /* by Var id: its iota when it is only read as Screma elements */
    int in_lambda;   /* how many SOAC lambdas the body being processed is in */
    const Stm *soac; /* GPU: the host-level Screma whose lambda's allocations are being hoisted */
} MemCtx;

static void mem_body(MemCtx *m, Body *b);

/* ---- Small helpers -------------------------------------------------------- */

/* Records v so that index functions mentioning it can be computed. */
static void note_var(MemCtx *m, Var *v) {
    if (v->id >= m->nvars) {
        int n = 2 * v->id + 64;
        Var **vs = NEW_ARRAY(m->a, Var *, n);
        COPY_ARRAY(vs, m->vars, m->nvars);
        m->vars = vs;
        m->nvars = n;
    }
    m->vars[v->id] = v;
}

static void note_vars(MemCtx *m, Var *const *vs, int n) {
    for (int i = 0; i < n; i++)
        if (vs[i]) note_var(m, vs[i]);
}

static Sym *se_sym(MemCtx *m, SubExp se) { return ir_se_sym(m->a, se); }

static Lmad *row_major_of(MemCtx *m, Type t) {
    Sym **shape = NEW_ARRAY(m->a, Sym *, t.rank + 1);
    for (int i = 0; i < t.rank; i++) shape[i] = se_sym(m, t.shape[i]);
    return lmad_row_major(m->a, t.rank, shape);
}

static bool is_array(const Var *v) { return v && v->type.kind == TK_ARRAY; }

static MemInfo *mem_info(MemCtx *m, Var *mem, Lmad *l) {
    MemInfo *mi = NEW(m->a, MemInfo);
    mi->mem = mem;
    mi->ixfun = l;
    return mi;
}

static Var *new_mem_var(MemCtx *m, const char *base) {
    Type t = {0};
    t.kind = TK_MEM;
    return ir_var(m->p, arena_printf(m->a, "mem_%s", base), t);
}

static IrExp *new_exp(MemCtx *m, IrExpKind k) {
    IrExp *e = NEW(m->a, IrExp);
    e->kind = k;
    return e;
}

/* Appends a statement binding pat (npat 0 or 1 Vars) to out. */
static void push_stm(MemCtx *m, StmVec *out, Var *pat, IrExp *e, SrcLoc loc) {
    vec_push(out, ir_stm1(m->a, pat, e, loc));
}

/* Appends pat = x op y (operands of type t) to out and returns pat. */
static Var *push_op(MemCtx *m, StmVec *out, Var *pat, Op op, PrimType t, SubExp x, SubExp y, SrcLoc loc) {
    vec_push(out, ir_op2_stm(m->a, pat, op, t, x, y, loc));
    return pat;
}

/* Emits an IE_ALLOC for an array of type t and returns the block. */
static Var *emit_alloc(MemCtx *m, StmVec *out, Type t, const char *base, SrcLoc loc) {
    IrExp *e = new_exp(m, IE_ALLOC);
    e->size = ir_size_bytes(m->p, out, t, loc);
    Var *mem = new_mem_var(m, base);
    push_stm(m, out, mem, e, loc);
    return mem;
}

/* Where v should be built (set_hint), or NULL. */
static MemInfo *hint_of(const MemCtx *m, const Var *v) { return v->id < m->nhints ? m->hints[v->id] : NULL; }

/* Gives v a fresh row-major block allocated before the statement at loc,
 * or its hinted place when it has one. */
static void give_fresh(MemCtx *m, StmVec *out, Var *v, SrcLoc loc) {
    if (hint_of(m, v)) {
        v->mem = hint_of(m, v);
        return;
    }
    ScTarget *t = v->id < m->p->nshortcircuit ? m->p->shortcircuit[v->id] : NULL;
    if (t) {
        if (!t->dest->mem) give_fresh(m, out, t->dest, loc); /* a concatenation, placed early */
        v->mem = mem_info(m, t->dest->mem->mem, sc_region(m->a, t->dest->mem->ixfun, t));
        return;
    }
    Var *mem = emit_alloc(m, out, v->type, v->name, loc);
    v->mem = mem_info(m, mem, row_major_of(m, v->type));
}

/* Emits a copy of src into a fresh row-major block; returns the copy. */
static Var *emit_copy(MemCtx *m, StmVec *out, Var *src, SrcLoc loc) {
    Type t = src->type;
    t.unique = false;
    Var *c = ir_var(m->p, arena_printf(m->a, "%s_copy", src->name), t);
    give_fresh(m, out, c, loc);
    IrExp *e = new_exp(m, IE_COPY);
    e->arr = src;
    push_stm(m, out, c, e, loc);
    return c;
}

static bool in_row_major(const Var *v) { return v->mem && lmad_is_row_major(v->mem->ixfun); }

/* Grows an arena array of n elements of size sz by one element. */
static void *append(Arena *a, void *items, int n, size_t sz, const void *item) {
    unsigned char *p = arena_alloc(a, sz * (size_t)(n + 1));
    util_copy(p, items, sz * (size_t)n);
    memcpy(p + sz * (size_t)n, item, sz);
    return p;
}

/* Appends one item to an arena array field and bumps its count. */
#define APPEND(m, arr, n, item) ((arr) = append((m)->a, (arr), (n)++, sizeof *(arr), &(item)))

/* ---- Views ---------------------------------------------------------------- */

static void mem_index(MemCtx *m, Stm *s) {
    IrExp *e = s->e;
    if (!is_array(s->pat[0])) return;
    s->pat[0]->mem = mem_info(m, e->arr->mem->mem, ir_region(m->a, e->arr->mem->ixfun, e));
}

/* A reshape is a view when one LMAD expresses it, else a copy then a view.
 * A reshape between constant shapes of different element counts cannot
 * run (the shape check before it always fails; with --unsafe there is
 * none): its result gets a fresh block of its own size, so that nothing
 * reads past the source. */
static void mem_reshape(MemCtx *m, StmVec *out, Stm *s) {
    IrExp *e = s->e;
    Sym **shape = NEW_ARRAY(m->a, Sym *, e->nshape + 1);
    for (int i = 0; i < e->nshape; i++) shape[i] = se_sym(m, e->shape[i]);
    Lmad *l = lmad_reshape(m->a, e->arr->mem->ixfun, e->nshape, shape);
    if (!l && !in_row_major(e->arr)) {
        e->arr = emit_copy(m, out, e->arr, s->loc);
        l = lmad_reshape(m->a, e->arr->mem->ixfun, e->nshape, shape);
    }
    if (!l) {
        give_fresh(m, out, s->pat[0], s->loc);
        return;
    }
    s->pat[0]->mem = mem_info(m, e->arr->mem->mem, l);
}

/* ---- Uses of a Var ------------------------------------------------------- */

/* The statement of b that binds v, or NULL. */
static Stm *binding_stm(const Body *b, const Var *v) {
    for (int i = 0; i < b->nstms; i++)
        for (int j = 0; j < b->stms[i]->npat; j++)
            if (b->stms[i]->pat[j] == v) return b->stms[i];
    return NULL;
}

bool mem_inplace_ok(const Body *b, const Var *acc, const Var *r) {
    Stm *s = binding_stm(b, r);
    if (!s || s->e->kind != IE_SCREMA || ir_body_uses((Body *)b, acc) != 1) return false;
    const Screma *sc = &s->e->screma;
    if (sc->nscans || sc->nreds) return false;
    int j = 0, k = 0;
    while (j < sc->narrs && sc->arrs[j] != acc) j++;
    while (k < s->npat && s->pat[k] != r) k++;
    if (j == sc->narrs || k == s->npat) return false;
    const Var *row = sc->map->params[j];
    if (!is_array(row)) return true;
    SubExp res = sc->map->body->res[k];
    return res.is_var && mem_inplace_ok(sc->map->body, row, res.v);
}

/* ---- Hints: where a fresh array should be built -------------------------- */

/* Sets v's destination (the first one wins). */
static void set_hint(MemCtx *m, const Var *v, MemInfo *dest) {
    if (v->id < m->nhints && !m->hints[v->id]) m->hints[v->id] = dest;
}

/* Sets the destination of result v of body b, and through what made v
 * of an array t made in b: an update of t (t is built in v's place and
 * updated there), or a transposition (v = rearrange t, t read only
 * there: t is built transposed in v's place with the inverse
 * permutation, FunMem's inversion of a change of layout). */
static void set_result_hint(MemCtx *m, const Body *b, const Var *v, MemInfo *dest) {
    set_hint(m, v, dest);
    Stm *s = m->p->shortcircuit ? binding_stm(b, v) : NULL; /* only with pass shortcircuit */
    if (!s || (s->e->kind != IE_REARRANGE && !ir_is_update(s->e))) return;
    Var *t = s->e->arr;
    if (!binding_stm(b, t)) return;
    if (ir_is_update(s->e)) {
        set_result_hint(m, b, t, dest);
        return;
    }
    if (ir_body_uses((Body *)b, t) != 1) return;
    int r = t->type.rank, *inv = NEW_ARRAY(m->a, int, r + 1);
    for (int d = 0; d < r; d++) inv[s->e->perm[d]] = d;
    set_result_hint(m, b, t, mem_info(m, dest->mem, lmad_permute(m->a, dest->ixfun, inv)));
}

/* ---- Allocation hoisting ---------------------------------------------------- */

/* Whether se is a constant or a Var not marked variant. */
static bool invariant(const char *variant, SubExp se) { return !se.is_var || !variant[se.v->id]; }

/* Marks the memory blocks b passes on (results and loop inits, nested
 * bodies included): a block reused across iterations must not escape one. */
static void mark_escaping(char *esc, const Body *b, bool top);

static void mark_escaping_exp(char *esc, const IrExp *e) {
    if (e->tbody) mark_escaping(esc, e->tbody, false);
    if (e->fbody) mark_escaping(esc, e->fbody, false);
    if (e->kind != IE_LOOP) return;
    for (int i = 0; i < e->loop.nparams; i++)
        if (e->loop.inits[i].is_var && e->loop.inits[i].v->type.kind == TK_MEM) esc[e->loop.inits[i].v->id] = 1;
    mark_escaping(esc, e->loop.body, false);
}

static void mark_escaping(char *esc, const Body *b, bool top) {
    for (int i = 0; i < b->nres; i++) {
        if (!b->res[i].is_var) continue;
        Var *v = b->res[i].v;
        if (v->type.kind == TK_MEM) esc[v->id] = 1;
        if (top && is_array(v)) esc[v->mem->mem->id] = 1;
    }
    for (int i = 0; i < b->nstms; i++) mark_escaping_exp(esc, b->stms[i]->e);
}

/* Whether s only computes an i64 from invariant operands without traps
 * (a division only by a constant other than 0: n / 2 pairs). */
static bool hoistable_arith(const Stm *s, const char *variant) {
    const IrExp *e = s->e;
    if (e->kind != IE_OP || e->t != PT_I64) return false;
    switch (e->op) {
    case OP_ADD:
    case OP_SUB:
    case OP_MUL:
    case OP_SIZE_MUL:
    case OP_MIN:
    case OP_MAX: break;
    case OP_DIV:
    case OP_QUOT:
    case OP_MOD:
    case OP_REM:
        if (ir_op_may_fail(e)) return false;
        break;
    default: return false;
    }
    for (int i = 0; i < e->nargs; i++)
        if (!invariant(variant, e->args[i])) return false;
    return true;
}

static Var *new_iter(MemCtx *m) {
    Var *v = ir_var(m->p, "i", type_prim(PT_I64));
    note_var(m, v);
    return v;
}

/* Whether s computes a scalar by arithmetic that cannot fail. */
static bool safe_arith(const Stm *s) {
    const IrExp *e = s->e;
    if (s->npat != 1 || s->pat[0]->type.kind != TK_PRIM) return false;
    if (e->kind == IE_CONV || e->kind == IE_SUBEXP) return true;
    return e->kind == IE_OP && !ir_op_may_fail(e);
}

/* GPU memory expansion: allocation b->stms[at] in the lambda of m->soac
 * (a host-level Screma), whose size varies between its elements and is
 * computed from the lambda's scalar parameters (and its index) by
 * arithmetic that cannot fail, gets the largest size over the elements,
 * which a reduction before the SOAC computes (into out), and becomes a
 * block each element uses for itself (per_iter): the SOAC then runs as a
 * kernel whose work-items have a block of that size each, instead of on
 * the host. Only at the top of the lambda's body: a branch's size may be
 * anything for the elements that do not take it. */
static bool expand_alloc(MemCtx *m, Body *b, int at, StmVec *out) {
    const Screma *sc = &m->soac->e->screma;
    Stm *al = b->stms[at];
    if (!al->e->size.is_var) return false;
    char *need = arena_alloc(m->a, (size_t)m->p->next_var_id + 1);
    need[al->e->size.v->id] = 1;
    StmVec slice = {0};
    for (int i = at - 1; i >= 0; i--) {
        Stm *s = b->stms[i];
        bool needed = false;
        for (int k = 0; k < s->npat; k++) needed |= need[s->pat[k]->id];
        if (!needed) continue;
        if (!safe_arith(s)) return vec_free(&slice), false;
        vec_push(&slice, s);
        const IrExp *e = s->e;
        const SubExp *args = e->kind == IE_SUBEXP ? &e->se : e->args;
        int n = e->kind == IE_SUBEXP ? 1 : e->nargs;
        for (int k = 0; k < n; k++)
            if (args[k].is_var) need[args[k].v->id] = 1;
    }
    /* the inputs whose elements the size reads (scalars only) */
    Var **arrs = NEW_ARRAY(m->a, Var *, sc->narrs + 1), **from = NEW_ARRAY(m->a, Var *, sc->narrs + 2);
    Var **to = NEW_ARRAY(m->a, Var *, sc->narrs + 2);
    int n = 0;
    for (int k = 0; k < sc->narrs; k++) {
        Var *pk = sc->map->params[k];
        if (!need[pk->id]) continue;
        if (pk->type.kind != TK_PRIM) return vec_free(&slice), false;
        arrs[n] = sc->arrs[k], from[n] = pk, to[n] = ir_var(m->p, pk->name, pk->type);
        n++;
    }
    Var *iter = new_iter(m);
    from[n] = sc->iter, to[n] = iter;
    /* the slice in order, as the reduction's map */
    StmVec stms = {0};
    for (int i = slice.len - 1; i >= 0; i--) vec_push(&stms, slice.items[i]);
    vec_free(&slice);
    Body *sb = ir_body_new(m->a, &stms, &al->e->size, 1);
    vec_free(&stms);
    Lambda *map = ir_lambda_new(m->a, to, n, ir_clone_body_with(m->p, sb, from, to, n + 1));
    Var *ab[2] = {ir_var(m->p, "a", type_prim(PT_I64)), ir_var(m->p, "b", type_prim(PT_I64))};
    Var *mx = ir_var(m->p, "x", type_prim(PT_I64));
    StmVec ops = {0};
    vec_push(&ops, ir_op2_stm(m->a, mx, OP_MAX, PT_I64, se_var(ab[0]), se_var(ab[1]), al->loc));
    SubExp r = se_var(mx);
    Lambda *op = ir_lambda_new(m->a, ab, 2, ir_body_new(m->a, &ops, &r, 1));
    vec_free(&ops);
    IrExp *e = new_exp(m, IE_SCREMA);
    e->screma.w = sc->w;
    e->screma.arrs = arrs;
    e->screma.narrs = n;
    e->screma.iter = iter;
    e->screma.map = map;
    e->screma.reds = NEW(m->a, SegOp);
    e->screma.reds[0] = (SegOp){op, NEW(m->a, SubExp), 1, true, false};
    e->screma.reds[0].neutral[0] = se_i64(0);
    e->screma.nreds = 1;
    Var *largest = ir_var(m->p, "largest", type_prim(PT_I64));
    note_var(m, largest);
    push_stm(m, out, largest, e, al->loc);
    al->e->size = se_var(largest);
    return true;
}

/* Moves allocations of b (a loop body when loop, else a SOAC lambda's body
 * run once per element) whose sizes do not change between iterations, with
 * the size arithmetic, to out (before the loop or SOAC). A loop's block
 * that is passed on to the next iteration stays, as do blocks of
 * statements that mention params (the loop or lambda parameters and
 * indices, which vary). */
static void hoist_from(MemCtx *m, Body *b, StmVec *out, char *variant, const char *esc, bool loop) {
    StmVec keep = {0};
    for (int i = 0; i < b->nstms; i++) {
        Stm *s = b->stms[i];
        bool alloc = s->e->kind == IE_ALLOC && invariant(variant, s->e->size) && !esc[s->pat[0]->id];
        if (!alloc && !loop && s->e->kind == IE_ALLOC && !esc[s->pat[0]->id] && m->soac && m->in_lambda == 0 &&
            b == m->soac->e->screma.map->body)
            alloc = expand_alloc(m, b, i, out);
        if (alloc || hoistable_arith(s, variant)) {
            if (alloc && !loop) s->e->per_iter = true;
            vec_push(out, s);
            continue;
        }
        /* On a GPU, a lambda's branches: their blocks are per element
         * too, needed or not (a branch that allocates would keep the SOAC
         * off the device). A CPU's tasks may allocate, and blocks of their
         * own would keep their elements from running in vector lanes. */
        if (!loop && s->e->kind == IE_IF && m->p->shortcircuit && m->p->gpu) {
            hoist_from(m, s->e->tbody, out, variant, esc, loop);
            hoist_from(m, s->e->fbody, out, variant, esc, loop);
        }
        for (int j = 0; j < s->npat; j++) variant[s->pat[j]->id] = 1;
        vec_push(&keep, s);
    }
    b->stms = vec_to_arena(m->a, &keep);
    b->nstms = keep.len;
    vec_free(&keep);
}

static void hoist_allocs(MemCtx *m, Body *b, StmVec *out, Var *const *params, int nparams, bool loop) {
    char *variant = arena_alloc(m->a, (size_t)m->p->next_var_id + 1);
    char *esc = arena_alloc(m->a, (size_t)m->p->next_var_id + 1);
    for (int i = 0; i < nparams; i++)
        if (params[i]) variant[params[i]->id] = 1;
    if (loop) mark_escaping(esc, b, true);
    hoist_from(m, b, out, variant, esc, loop);
}

/* Processes a SOAC lambda's (or operator's) body and hoists its
 * per-element allocations out before the SOAC. */
static void mem_lambda_body(MemCtx *m, StmVec *out, Lambda *lam, Var *iter) {
    note_vars(m, lam->params, lam->nparams);
    m->in_lambda++;
    mem_body(m, lam->body);
    m->in_lambda--;
    Var **ps = NEW_ARRAY(m->a, Var *, lam->nparams + 2);
    for (int i = 0; i < lam->nparams; i++) ps[i] = lam->params[i];
    ps[lam->nparams] = iter;
    hoist_allocs(m, lam->body, out, ps, lam->nparams + 1, false);
}

/* ---- SOACs ---------------------------------------------------------------- */

static MemInfo *fix_at(MemCtx *m, MemInfo *mi, Var *iter) {
    LmadSlice fix = {0};
    fix.is_index = true;
    fix.index = sym_var(m->a, iter->id);
    return mem_info(m, mi->mem, lmad_slice(m->a, mi->ixfun, &fix, 1));
}

/* An array parameter of a SOAC lambda is row iter of its input array. */
static void mem_soac_params(MemCtx *m, Lambda *lam, Var **arrs, int narrs, Var *iter) {
    for (int i = 0; i < lam->nparams && i < narrs; i++)
        if (is_array(lam->params[i])) lam->params[i]->mem = fix_at(m, arrs[i]->mem, iter);
}

/* Gives array parameter p (an operator's element parameter, fed from result
 * v of lambda lam) a place: v's own when v is a row of an input or comes
 * from outside the lambda, else a buffer allocated before the SOAC in which
 * v is built (hinted) or into which it is copied. */
static void place_elem(MemCtx *m, StmVec *out, Var *p, SubExp v, const Lambda *lam, SrcLoc loc) {
    if (v.is_var && (ir_param_index(lam, v.v) >= 0 || !binding_stm(lam->body, v.v)) && v.v->mem) {
        p->mem = v.v->mem;
        return;
    }
    give_fresh(m, out, p, loc);
    if (v.is_var) set_hint(m, v.v, p->mem);
}

/* The operator of an array reduction, scan or histogram: accumulator
 * parameters take acc[i] (when array-typed: the place of accumulator i),
 * element parameters are placed by place_elem from lam's results vals; the
 * operator's array results are built in their accumulator when mem_inplace_ok,
 * else in a scratch block. Allocations are made before the SOAC. */
static void mem_segop(MemCtx *m, StmVec *out, SegOp *op, MemInfo **acc, const SubExp *vals,
                      const Lambda *lam, Var *iter, SrcLoc loc) {
    Lambda *f = op->op;
    for (int i = 0; i < op->k; i++) {
        Var *pa = f->params[i], *pe = f->params[op->k + i];
        if (!is_array(pa)) continue;
        pa->mem = acc[i];
        place_elem(m, out, pe, vals[i], lam, loc);
        SubExp r = f->body->res[i];
        if (!r.is_var || !binding_stm(f->body, r.v)) continue;
        if (mem_inplace_ok(f->body, pa, r.v)) {
            set_hint(m, r.v, acc[i]);
            continue;
        }
        Var *scratch = ir_var(m->p, "scratch", pa->type);
        give_fresh(m, out, scratch, loc);
        set_hint(m, r.v, scratch->mem);
    }
    mem_lambda_body(m, out, f, iter);
}

/* ---- Iotas read only element by element ------------------------------------- */

typedef struct IotaUses {
    int *uses, *elems; /* by Var id: all uses; uses as a Screma's element input */
    Stm **def;         /* by Var id: its IE_IOTA statement */
} IotaUses;

static void iu_use(IrWalk *w, Var *v) {
    IotaUses *u = w->ctx;
    u->uses[v->id]++;
}

static void iu_inputs(IotaUses *u, Var **arrs, int narrs, const Lambda *l) {
    for (int i = 0; i < narrs; i++)
        if (!is_array(l->params[i])) u->elems[arrs[i]->id]++;
}

static void iu_stm(IrWalk *w, Stm *s) {
    IotaUses *u = w->ctx;
    IrExp *e = s->e;
    if (e->kind == IE_IOTA) u->def[s->pat[0]->id] = s;
    if (e->kind == IE_SCREMA) iu_inputs(u, e->screma.arrs, e->screma.narrs, e->screma.map);
    if (e->kind == IE_SCATTER) iu_inputs(u, e->scatter.arrs, e->scatter.narrs, e->scatter.lam);
    if (e->kind == IE_HIST) iu_inputs(u, e->hist.arrs, e->hist.narrs, e->hist.lam);
}

/* Finds the iotas of f that are used only as inputs of SOACs (Screma,
 * Scatter, Hist) whose lambdas take their elements: they need no memory,
 * since element iter is start + iter * step (elem_inputs binds it in
 * the lambda). */
static void find_elem_iotas(MemCtx *m, Fun *f) {
    size_t n = (size_t)m->p->next_var_id + 1;
    IotaUses u = {NEW_ARRAY(m->a, int, n), NEW_ARRAY(m->a, int, n), NEW_ARRAY(m->a, Stm *, n)};
    IrWalk w = {NULL, iu_use, iu_stm, &u};
    ir_walk_body(&w, f->body);
    m->elem_iota = NEW_ARRAY(m->a, Stm *, n);
    for (size_t i = 0; i < n; i++)
        if (u.def[i] && u.uses[i] > 0 && u.uses[i] == u.elems[i]) m->elem_iota[i] = u.def[i];
}

/* Drops the inputs arrs[0..*narrs) of a SOAC with lambda l and index
 * iter that are iotas found by find_elem_iotas; their lambda parameters
 * are bound to start + iter * step instead. */
static void elem_inputs(MemCtx *m, Var **arrs, int *narrs, Lambda *l, Var *iter, SrcLoc loc) {
    StmVec pre = {0};
    for (int i = 0; i < *narrs;) {
        Stm *d = m->elem_iota[arrs[i]->id];
        if (!d) {
            i++;
            continue;
        }
        const IrExp *io = d->e;
        SubExp x = se_var(iter);
        if (io->t != PT_I64) {
            IrExp *c = new_exp(m, IE_CONV);
            c->t = PT_I64;
            c->to = io->t;
            c->nargs = 1;
            c->args = NEW_ARRAY(m->a, SubExp, 1);
            c->args[0] = x;
            Var *v = ir_var(m->p, "elem", type_prim(io->t));
            push_stm(m, &pre, v, c, loc);
            x = se_var(v);
        }
        x = se_var(push_op(m, &pre, ir_var(m->p, "elem", type_prim(io->t)), OP_MUL, io->t, x, io->step, loc));
        push_op(m, &pre, l->params[i], OP_ADD, io->t, io->start, x, loc);
        for (int j = i; j + 1 < *narrs; j++) arrs[j] = arrs[j + 1], l->params[j] = l->params[j + 1];
        (*narrs)--;
        l->nparams--;
    }
    if (pre.len) {
        Stm **stms = NEW_ARRAY(m->a, Stm *, pre.len + l->body->nstms);
        COPY_ARRAY(stms, pre.items, pre.len);
        COPY_ARRAY(stms + pre.len, l->body->stms, l->body->nstms);
        l->body->stms = stms;
        l->body->nstms += pre.len;
    }
    vec_free(&pre);
}

/* Scan outputs and map outputs get fresh blocks (or their hinted place),
 * array reduction results fresh accumulators; the map's results are built
 * in their output rows; the operators are placed by mem_segop. */
static void mem_screma(MemCtx *m, StmVec *out, Stm *s) {
    Screma *sc = &s->e->screma;
    sc->iter = new_iter(m);
    elem_inputs(m, sc->arrs, &sc->narrs, sc->map, sc->iter, s->loc);
    int nscan = 0, nred = 0;
    for (int i = 0; i < sc->nscans; i++) nscan += sc->scans[i].k;
    for (int i = 0; i < sc->nreds; i++) nred += sc->reds[i].k;
    for (int i = 0; i < s->npat; i++)
        if (is_array(s->pat[i])) give_fresh(m, out, s->pat[i], s->loc);
    mem_soac_params(m, sc->map, sc->arrs, sc->narrs, sc->iter);
    Body *mb = sc->map->body;
    for (int i = 0; i < s->npat; i++) {
        bool mapout = i >= nscan + nred;
        if (mapout && mb->res[i].is_var) set_result_hint(m, mb, mb->res[i].v, fix_at(m, s->pat[i]->mem, sc->iter));
    }
    /* Operators first: they may hint where the map builds its results. */
    int pos = 0;
    for (int j = 0; j < sc->nscans; j++) {
        SegOp *op = &sc->scans[j];
        MemInfo **acc = NEW_ARRAY(m->a, MemInfo *, op->k + 1);
        for (int i = 0; i < op->k; i++) {
            Var *pa = op->op->params[i];
            if (!is_array(pa)) continue;
            give_fresh(m, out, pa, s->loc);
            acc[i] = pa->mem;
        }
        mem_segop(m, out, op, acc, mb->res + pos, sc->map, sc->iter, s->loc);
        pos += op->k;
    }
    for (int j = 0; j < sc->nreds; j++) {
        SegOp *op = &sc->reds[j];
        MemInfo **acc = NEW_ARRAY(m->a, MemInfo *, op->k + 1);
        for (int i = 0; i < op->k; i++) acc[i] = s->pat[pos + i]->mem;
        mem_segop(m, out, op, acc, mb->res + pos, sc->map, sc->iter, s->loc);
        pos += op->k;
    }
    const Stm *outer = m->soac;
    m->soac = m->p->gpu && m->in_lambda == 0 ? s : NULL;
    mem_lambda_body(m, out, sc->map, sc->iter);
    m->soac = outer;
}

static void mem_scatter(MemCtx *m, StmVec *out, Stm *s) {
    Scatter *sc = &s->e->scatter;
    sc->iter = new_iter(m);
    elem_inputs(m, sc->arrs, &sc->narrs, sc->lam, sc->iter, s->loc);
    mem_soac_params(m, sc->lam, sc->arrs, sc->narrs, sc->iter);
    mem_lambda_body(m, out, sc->lam, sc->iter);
    for (int i = 0; i < s->npat && i < sc->ndests; i++) s->pat[i]->mem = sc->dests[i]->mem;
}

/* A histogram whose buckets are arrays combines through accumulator blocks
 * allocated once: the bucket is copied in, combined, and copied back. They
 * and the blocks of the values are per-element blocks: a parallel loop's
 * tasks each need their own. */
static void mem_hist(MemCtx *m, StmVec *out, Stm *s) {
    Hist *h = &s->e->hist;
    h->iter = new_iter(m);
    elem_inputs(m, h->arrs, &h->narrs, h->lam, h->iter, s->loc);
    mem_soac_params(m, h->lam, h->arrs, h->narrs, h->iter);
    int first = out->len;
    MemInfo **acc = NEW_ARRAY(m->a, MemInfo *, h->op.k + 1);
    for (int i = 0; i < h->op.k; i++) {
        Var *pa = h->op.op->params[i];
        if (!is_array(pa)) continue;
        give_fresh(m, out, pa, s->loc);
        acc[i] = pa->mem;
    }
    mem_segop(m, out, &h->op, acc, h->lam->body->res + 1, h->lam, h->iter, s->loc);
    mem_lambda_body(m, out, h->lam, h->iter);
    for (int i = first; i < out->len; i++)
        if (out->items[i]->e->kind == IE_ALLOC) out->items[i]->e->per_iter = true;
    for (int i = 0; i < s->npat && i < h->op.k; i++) s->pat[i]->mem = h->dests[i]->mem;
}

/* ---- Merges: ifs and loops ------------------------------------------------ */

/* The block holding array result v of body b, row-major: v's own block when
 * it is already row-major, else a copy appended to b's statements. */
static SubExp result_block(MemCtx *m, Body *b, int k, SrcLoc loc) {
    Var *v = b->res[k].v;
    if (in_row_major(v)) return se_var(v->mem->mem);
    StmVec out = {0};
    for (int i = 0; i < b->nstms; i++) vec_push(&out, b->stms[i]);
    Var *c = emit_copy(m, &out, v, loc);
    b->stms = vec_to_arena(m->a, &out);
    b->nstms = out.len;
    vec_free(&out);
    b->res[k] = se_var(c);
    return se_var(c->mem->mem);
}

/* Gives array pattern Var v an existential block appended to s's pattern. */
static void add_pattern_mem(MemCtx *m, Stm *s, Var *v) {
    Var *mem = new_mem_var(m, v->name);
    v->mem = mem_info(m, mem, row_major_of(m, v->type));
    APPEND(m, s->pat, s->npat, mem);
}

/* ---- Sym values as statements -------------------------------------------- */

/* Where sym_fold's callbacks append the statements that compute a Sym. */
typedef struct SymEmit {
    MemCtx *m;
    StmVec *out;
    SrcLoc loc;
} SymEmit;

static void *se_box(MemCtx *m, SubExp se) {
    SubExp *p = NEW(m->a, SubExp);
    *p = se;
    return p;
}

static void *sf_konst(int64_t c, void *ctx) { return se_box(((SymEmit *)ctx)->m, se_i64(c)); }

/* A Sym variable is the id of an i64 Var in scope: found among the Vars the
 * pass has seen (by id, in m->vars). */
static void *sf_var(int id, void *ctx) {
    SymEmit *x = ctx;
    if (id >= x->m->nvars || !x->m->vars[id]) ICE("memory: index function variable v%d is unknown", id);
    return se_box(x->m, se_var(x->m->vars[id]));
}

static void *sf_op(SymEmit *x, Op op, void *l, void *r) {
    IrExp *e = new_exp(x->m, IE_OP);
    e->op = op;
    e->t = PT_I64;
    e->nargs = 2;
    e->args = NEW_ARRAY(x->m->a, SubExp, 2);
    e->args[0] = *(SubExp *)l;
    e->args[1] = *(SubExp *)r;
    Var *v = ir_var(x->m->p, "ix", type_prim(PT_I64));
    push_stm(x->m, x->out, v, e, x->loc);
    return se_box(x->m, se_var(v));
}

static void *sf_add(void *l, void *r, void *ctx) { return sf_op(ctx, OP_ADD, l, r); }
static void *sf_mul(void *l, void *r, void *ctx) { return sf_op(ctx, OP_MUL, l, r); }
static void *sf_quot(void *l, void *r, void *ctx) { return sf_op(ctx, OP_QUOT, l, r); }

/* Appends to out the statements computing y; returns its value. */
static SubExp emit_sym(MemCtx *m, StmVec *out, const Sym *y, SrcLoc loc) {
    int64_t c;
    if (sym_is_const(y, &c)) return se_i64(c);
    SymEmit x = {m, out, loc};
    SymFold f = {sf_konst, sf_var, sf_add, sf_mul, sf_quot};
    return *(SubExp *)sym_fold(y, &f, &x);
}

/* ---- Merges: existential index functions ----------------------------------- */

/* Appends to b the results that describe where array result k lives: its
 * block, its offset and its strides (computed by statements appended to
 * b's statements). */
static void add_layout_results(MemCtx *m, Body *b, int k, SrcLoc loc) {
    Var *v = b->res[k].v;
    StmVec out = {0};
    for (int i = 0; i < b->nstms; i++) vec_push(&out, b->stms[i]);
    const Lmad *l = v->mem->ixfun;
    SubExp mem = se_var(v->mem->mem);
    APPEND(m, b->res, b->nres, mem);
    SubExp off = emit_sym(m, &out, l->offset, loc);
    APPEND(m, b->res, b->nres, off);
    for (int d = 0; d < l->rank; d++) {
        SubExp st = emit_sym(m, &out, l->dims[d].stride, loc);
        APPEND(m, b->res, b->nres, st);
    }
    b->stms = vec_to_arena(m->a, &out);
    b->nstms = out.len;
    vec_free(&out);
}

/* Gives if-pattern Var v an existential block, offset and strides appended
 * to s's pattern (and their types to ret). */
static void add_pattern_layout(MemCtx *m, Stm *s, Var *v) {
    IrExp *e = s->e;
    Type memt = {0}, i64 = type_prim(PT_I64);
    memt.kind = TK_MEM;
    Var *mem = new_mem_var(m, v->name);
    APPEND(m, s->pat, s->npat, mem);
    int nret = e->nret;
    APPEND(m, e->ret, nret, memt);
    Var *off = ir_var(m->p, arena_printf(m->a, "%s_off", v->name), i64);
    note_var(m, off);
    nret = e->nret + 1;
    APPEND(m, e->ret, nret, i64);
    APPEND(m, s->pat, s->npat, off);
    Lmad *l = row_major_of(m, v->type);
    l->offset = sym_var(m->a, off->id);
    for (int d = 0; d < v->type.rank; d++) {
        Var *st = ir_var(m->p, arena_printf(m->a, "%s_stride%d", v->name, d), i64);
        note_var(m, st);
        APPEND(m, e->ret, nret, i64);
        APPEND(m, s->pat, s->npat, st);
        l->dims[d].stride = sym_var(m->a, st->id);
    }
    e->nret = nret;
    v->mem = mem_info(m, mem, l);
}

/* Array results of an if: when both branches give row-major arrays at
 * offset 0, only the block is existential; otherwise (a transposition, a
 * slice) the offset and strides are too, so no branch copies. A result
 * with a destination (a map's result, say) has each branch build its
 * result there; when both do, the if's result is simply there, with no
 * memory of its own. */
static void mem_if(MemCtx *m, Stm *s) {
    IrExp *e = s->e;
    int n = e->nret;
    for (int k = 0; k < n; k++) {
        MemInfo *dest = hint_of(m, s->pat[k]);
        if (e->ret[k].kind != TK_ARRAY || !dest || !m->p->shortcircuit) continue;
        set_result_hint(m, e->tbody, e->tbody->res[k].v, dest);
        set_result_hint(m, e->fbody, e->fbody->res[k].v, dest);
    }
    mem_body(m, e->tbody);
    mem_body(m, e->fbody);
    Type memt = {0};
    memt.kind = TK_MEM;
    for (int k = 0; k < n; k++) {
        if (e->ret[k].kind != TK_ARRAY) continue;
        Var *tv = e->tbody->res[k].v, *fv = e->fbody->res[k].v;
        MemInfo *dest = hint_of(m, s->pat[k]);
        if (dest && ir_at(tv, dest) && ir_at(fv, dest)) {
            s->pat[k]->mem = dest;
            continue;
        }
        if (!in_row_major(tv) || !in_row_major(fv)) {
            add_layout_results(m, e->tbody, k, s->loc);
            add_layout_results(m, e->fbody, k, s->loc);
            add_pattern_layout(m, s, s->pat[k]);
            continue;
        }
        SubExp tm = se_var(tv->mem->mem), fm = se_var(fv->mem->mem);
        APPEND(m, e->tbody->res, e->tbody->nres, tm);
        APPEND(m, e->fbody->res, e->fbody->nres, fm);
        APPEND(m, e->ret, e->nret, memt);
        add_pattern_mem(m, s, s->pat[k]);
    }
}

/* ---- Double buffering ---------------------------------------------------------- */

/* Replaces block from by block to in a loop body: in the index functions
 * of the arrays it binds (nested ones included) and in its uses. */
typedef struct Swap {
    MemCtx *m;
    const Var *from;
    Var *to;
} Swap;

static void swap_bind(IrWalk *w, Var *v) {
    Swap *x = w->ctx;
    if (v->mem && v->mem->mem == x->from) v->mem = mem_info(x->m, x->to, v->mem->ixfun);
}

static void swap_use(void *ctx, SubExp *se, Var **v, IrUseKind k) {
    Swap *x = ctx;
    (void)k;
    if (se && se->is_var && se->v == x->from) se->v = x->to;
    if (v && *v == x->from) *v = x->to;
}

/* Whether v is bound by loop l: a parameter, its index or a statement at
 * the top of its body. */
static bool bound_by_loop(const Loop *l, const Var *v) {
    for (int i = 0; i < l->nparams; i++)
        if (l->params[i] == v) return true;
    return v == l->i || binding_stm(l->body, v);
}

/* Array parameter k of loop s (block parameter mp, whose body result is
 * result rk), inside a SOAC's lambda, whose body result is built in a
 * block the body allocates each iteration: that allocation would keep the
 * SOAC off a GPU (its size does not vary, but the block escapes) or
 * allocate per iteration in a CPU task. Instead the loop carries a second
 * block, allocated once before it: each iteration builds its result in
 * that spare block, and the parameter's old block becomes the next spare
 * (double buffering). Needs the old block to be dead after each iteration
 * (no other result lives there) and, in the first one, the initial
 * value's block to be the loop's to overwrite (owned, or a copy mem_loop
 * made for it: fresh; else copied). */
static void double_buffer(MemCtx *m, StmVec *out, Stm *s, int k, Var *mp, int rk, bool fresh) {
    Loop *l = &s->e->loop;
    Body *b = l->body;
    Var *r = b->res[k].v, *mr = r->mem ? r->mem->mem : NULL;
    Stm *al = mr ? binding_stm(b, mr) : NULL;
    if (!al || al->e->kind != IE_ALLOC || (al->e->size.is_var && bound_by_loop(l, al->e->size.v))) return;
    for (int i = 0; i < b->nres; i++) {
        Var *v = b->res[i].is_var && i != k && i != rk ? b->res[i].v : NULL;
        const Var *blk = !v ? NULL : v->type.kind == TK_MEM ? v : is_array(v) ? v->mem->mem : NULL;
        if (blk && (blk == mr || blk == mp)) return;
    }
    if (!fresh && !(m->p->owned && m->p->owned[l->params[k]->id])) {
        Var *init = emit_copy(m, out, l->inits[k].v, s->loc);
        l->inits[k] = se_var(init);
        l->inits[rk] = se_var(init->mem->mem);
    }
    Var *spare0 = new_mem_var(m, "spare");
    IrExp *e = new_exp(m, IE_ALLOC);
    e->size = al->e->size;
    push_stm(m, out, spare0, e, s->loc);
    Var *spare = new_mem_var(m, "spare"), *after = new_mem_var(m, "spare");
    Swap x = {m, mr, spare};
    IrWalk w = {swap_bind, NULL, NULL, &x};
    ir_walk_body(&w, b);
    ir_uses_body(b, swap_use, &x);
    StmVec keep = {0};
    for (int i = 0; i < b->nstms; i++)
        if (b->stms[i] != al) vec_push(&keep, b->stms[i]);
    b->stms = vec_to_arena(m->a, &keep);
    b->nstms = keep.len;
    vec_free(&keep);
    SubExp old = se_var(mp), sp = se_var(spare0);
    int np = l->nparams;
    APPEND(m, l->inits, np, sp);
    APPEND(m, l->params, l->nparams, spare);
    APPEND(m, b->res, b->nres, old);
    APPEND(m, s->pat, s->npat, after);
}

static void mem_loop(MemCtx *m, StmVec *out, Stm *s) {
    Loop *l = &s->e->loop;
    int n = l->nparams;
    Var **mps = NEW_ARRAY(m->a, Var *, n + 1);
    char *fresh = NEW_ARRAY(m->a, char, n + 1); /* the initial value is a copy made here */
    for (int k = 0; k < n; k++) {
        Var *p = l->params[k];
        if (!is_array(p)) continue;
        Var *mp = new_mem_var(m, p->name);
        mps[k] = mp;
        p->mem = mem_info(m, mp, row_major_of(m, p->type));
        Var *init = l->inits[k].v;
        if (!in_row_major(init)) {
            init = emit_copy(m, out, init, s->loc);
            l->inits[k] = se_var(init);
            fresh[k] = 1;
        }
        SubExp im = se_var(init->mem->mem);
        int np = l->nparams;
        APPEND(m, l->inits, np, im);
        APPEND(m, l->params, l->nparams, mp);
    }
    mem_body(m, l->body);
    for (int k = 0; k < n; k++) {
        if (!is_array(l->params[k])) continue;
        SubExp rm = result_block(m, l->body, k, s->loc);
        APPEND(m, l->body->res, l->body->nres, rm);
        add_pattern_mem(m, s, s->pat[k]);
    }
    Var **ps = NEW_ARRAY(m->a, Var *, l->nparams + 2);
    for (int k = 0; k < l->nparams; k++) ps[k] = l->params[k];
    ps[l->nparams] = l->kind == IR_LOOP_FOR ? l->i : NULL;
    hoist_allocs(m, l->body, out, ps, l->nparams + 1, true);
    if (!m->in_lambda || !m->p->shortcircuit) return;
    for (int k = 0, rk = n; k < n; k++)
        if (is_array(l->params[k])) double_buffer(m, out, s, k, mps[k], rk++, fresh[k]);
}

/* ---- Statements and bodies ------------------------------------------------ */

static void mem_stm(MemCtx *m, StmVec *out, Stm *s) {
    IrExp *e = s->e;
    note_vars(m, s->pat, s->npat);
    if (e->kind == IE_LOOP) {
        note_vars(m, e->loop.params, e->loop.nparams);
        if (e->loop.kind == IR_LOOP_FOR) note_var(m, e->loop.i);
    }
    Var *pat0 = s->npat > 0 ? s->pat[0] : NULL;
    switch (e->kind) {
    case IE_SUBEXP:
        if (is_array(pat0) && e->se.is_var) pat0->mem = e->se.v->mem;
        break;
    case IE_INDEX:
    case IE_FLAT_INDEX: mem_index(m, s); break;
    case IE_REARRANGE:
        pat0->mem = mem_info(m, e->arr->mem->mem, lmad_permute(m->a, e->arr->mem->ixfun, e->perm));
        break;
    case IE_RESHAPE: mem_reshape(m, out, s); break;
    case IE_UPDATE:
    case IE_FLAT_UPDATE: pat0->mem = e->arr->mem; break;
    case IE_IOTA:
        if (m->elem_iota[pat0->id]) return; /* its elements are computed where read */
        give_fresh(m, out, pat0, s->loc);
        break;
    case IE_CONCAT:
    case IE_ARRAYLIT:
        if (!pat0->mem) give_fresh(m, out, pat0, s->loc); /* else placed with a short-circuited part */
        break;
    case IE_REPLICATE:
    case IE_SCRATCH:
    case IE_COPY: give_fresh(m, out, pat0, s->loc); break;
    case IE_SCREMA: mem_screma(m, out, s); break;
    case IE_SCATTER: mem_scatter(m, out, s); break;
    case IE_HIST: mem_hist(m, out, s); break;
    case IE_IF: mem_if(m, s); break;
    case IE_LOOP: mem_loop(m, out, s); break;
    case IE_ALLOC: ICE("memory: the program already has memory blocks");
    default: break;
    }
    vec_push(out, s);
}

/* Rewrites b's statements in place. */
static void mem_body(MemCtx *m, Body *b) {
    StmVec out = {0};
    for (int i = 0; i < b->nstms; i++) mem_stm(m, &out, b->stms[i]);
    b->stms = vec_to_arena(m->a, &out);
    b->nstms = out.len;
    vec_free(&out);
}

static void mem_fun(MemCtx *m, Fun *f) {
    for (int i = 0; i < f->nparams; i++) {
        Var *v = f->params[i];
        note_var(m, v);
        for (int d = 0; is_array(v) && d < v->type.rank; d++)
            if (v->type.shape[d].is_var) note_var(m, v->type.shape[d].v);
        if (!is_array(v)) continue;
        v->mem = mem_info(m, new_mem_var(m, v->name), row_major_of(m, v->type));
    }
    find_elem_iotas(m, f);
    mem_body(m, f->body);
}

void pass_memory(Prog *p) {
    if (p->stage != STAGE_SOACS) ICE("pass_memory: expected a program at STAGE_SOACS");
    MemCtx m = {0};
    m.p = p;
    m.a = p->arena;
    m.nhints = p->next_var_id;
    m.hints = NEW_ARRAY(p->arena, MemInfo *, m.nhints + 1);
    for (int i = 0; i < p->nfuns; i++) mem_fun(&m, p->funs[i]);
    p->stage = STAGE_MEM;
    p->shortcircuit = NULL;
    p->owned = NULL;
    p->nshortcircuit = 0;
}
