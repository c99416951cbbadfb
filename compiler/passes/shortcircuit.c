/* Array short-circuiting (Munksgaard's thesis ch. 6,
 * ../shared/reference/seed-002-funmem.md §3): a fresh array whose only
 * fate is to be copied into a region of another array is built in that
 * region instead, and the copy disappears (Imp skips a copy whose source
 * and destination are one place).
 *
 * This pass plans, body by body, before the memory pass gives the program
 * memory (which then builds each planned array in its place). Its
 * short-circuit points are
 *  - an update  x' = x with [S] = b : b is built in x[S];
 *  - a concatenation  r = concat a_1 ... a_k : a_i is built in
 *    r[o_i : o_i + len_i], and r's block is allocated before the first
 *    such a_i is made (r may itself be built in an update's region, so
 *    chains such as  x with [i] = concat (map f y) z  copy nothing); an
 *    array literal of arrays  r = [a_1, ..., a_k]  likewise, a_i in r[i];
 *  - a map over an owned array it reads element by element (in-place
 *    maps, below).
 * The memory pass looks up p->shortcircuit for each array it would give a
 * fresh block.
 *
 * A source b made at statement c (its creation: a map or scan result,
 * replicate, iota, copy, concat, scratch or array literal; for a planned
 * concatenation the first of its planned inputs' creations) is built at a
 * short-circuit point p of the same body when
 *  1. b and its views are not used after p, nor returned;
 *  2. the destination's root (x, through the chain of updates that made
 *     it) is bound before c, and the scalars of S (and of a
 *     concatenation's sizes) are too, or are computed between c and p by
 *     scalar statements that can move above c;
 *  3. every assertion between c and p moves above c with what it reads
 *     (the update's bounds check among them): b's elements are written at
 *     c, so the checks that guard the region must come first;
 *  4. between c and p no statement touches the root's block where b goes:
 *     each use of the root or of a view of it (slices, transpositions,
 *     reshapes, earlier updates, arrays built there by earlier plans) is a
 *     region of the root's index space that the LMAD prover
 *     (lmad_disjoint) shows disjoint from S. A use inside a nested body
 *     reads the whole view it uses; results of ifs and loops that read a
 *     view may alias all of the root. Sizes of arrays and for-loop indices
 *     are >= 0, and the root's own sizes >= 1 (an empty root has no
 *     element to overlap).
 * Otherwise the copy stays: the analysis fails safe. */
#include "passes.h"

#include <stdlib.h>
#include <string.h>

typedef struct Sc {
    Arena *a;
    int n;              /* variable ids are below n */
    ScTarget **plan;    /* by Var id */
    const Body **def_body; /* by Var id: the body of the statement binding it */
    int *def_pos;       /* its index there */
    int *last_use;      /* by Var id: the last statement of the body being planned using it */
    char *nonneg;       /* sizes and loop indices */
    char *owned;        /* unique entry parameters and owned loop parameters (owned()) */
    Stm **arith;        /* by Var id: its statement when an i64 +, - or * defines it */
    Lmad **region;      /* by Var id, during one check: its region of the root's index space, or NULL */
} Sc;

static bool is_array(const Var *v) { return v && v->type.kind == TK_ARRAY; }

/* ---- Positions and uses in one body ---------------------------------------- */

static void lu_use(IrWalk *w, Var *v) {
    Sc *s = ((void **)w->ctx)[0];
    s->last_use[v->id] = *(int *)((void **)w->ctx)[1];
}

static void index_body(Sc *s, Body *b) {
    for (int j = 0; j < b->nstms; j++)
        for (int k = 0; k < b->stms[j]->npat; k++) {
            Var *v = b->stms[j]->pat[k];
            s->def_body[v->id] = b, s->def_pos[v->id] = j;
        }
    memset(s->last_use, 0xff, sizeof(int) * (size_t)s->n);
    int j = 0;
    void *ctx[2] = {s, &j};
    IrWalk w = {NULL, lu_use, NULL, ctx};
    for (; j < b->nstms; j++) ir_walk_stm(&w, b->stms[j]);
    for (int r = 0; r < b->nres; r++)
        if (b->res[r].is_var) s->last_use[b->res[r].v->id] = b->nstms;
}

/* Whether v (a variable of the body) exists before statement c. */
static bool bound_before(const Sc *s, const Body *b, const Var *v, int c) {
    return s->def_body[v->id] != b || s->def_pos[v->id] < c;
}

/* ---- Moving scalar statements above the creation point ------------------- */

static bool movable(const Stm *st) {
    const IrExp *e = st->e;
    if (e->kind == IE_ASSERT || e->kind == IE_OP || e->kind == IE_CONV) return true;
    if (e->kind == IE_SUBEXP || e->kind == IE_INDEX) return st->npat == 1 && !is_array(st->pat[0]);
    return false;
}

typedef struct Need {
    Sc *s;
    const Body *b;
    int c, p;
    char *mark; /* by statement index in (c, p): must move */
    bool ok;
} Need;

static void need_var(Need *n, const Var *v);

static void need_use(IrWalk *w, Var *v) { need_var(w->ctx, v); }

/* Statement j must move above c, and what it reads. */
static void need_stm(Need *n, int j) {
    if (n->mark[j]) return;
    Stm *st = n->b->stms[j];
    if (!movable(st)) {
        n->ok = false;
        return;
    }
    n->mark[j] = 1;
    IrWalk w = {NULL, need_use, NULL, n};
    ir_walk_stm(&w, st);
}

static void need_var(Need *n, const Var *v) {
    if (bound_before(n->s, n->b, v, n->c)) return;
    int j = n->s->def_pos[v->id];
    if (j <= n->c || j >= n->p) n->ok = false;
    else need_stm(n, j);
}

static void need_sym(int id, void *ctx) {
    Need *n = ctx;
    if (id < n->s->n && n->s->def_body[id] == n->b) need_var(n, n->b->stms[n->s->def_pos[id]]->pat[0]);
}

/* Moves the assertions between c and p, and the scalar statements they and
 * the Syms need[0..nneed) read, above c (keeping their order); false (and
 * nothing moved) when one of them cannot move. */
static bool hoist_checks(Sc *s, Body *b, int c, int p, Sym *const *need, int nneed) {
    Need n = {s, b, c, p, arena_alloc(s->a, (size_t)b->nstms + 1), true};
    for (int j = c + 1; j < p && n.ok; j++)
        if (b->stms[j]->e->kind == IE_ASSERT) need_stm(&n, j);
    for (int i = 0; i < nneed && n.ok; i++) sym_vars(need[i], need_sym, &n);
    if (!n.ok) return false;
    Stm **out = NEW_ARRAY(s->a, Stm *, b->nstms + 1);
    int k = 0;
    for (int j = 0; j < c; j++) out[k++] = b->stms[j];
    for (int j = c + 1; j < p; j++)
        if (n.mark[j]) out[k++] = b->stms[j];
    out[k++] = b->stms[c];
    for (int j = c + 1; j < b->nstms; j++)
        if (!n.mark[j]) out[k++] = b->stms[j];
    b->stms = out;
    index_body(s, b);
    return true;
}

/* ---- Regions of the root's index space --------------------------------------- */

typedef struct Check {
    Sc *s;
    const Body *b;
    Var *root;
    const Var *source;
    Lmad *dest; /* the source's region */
    SymFacts facts;
    int c;
    bool ok;
    bool live; /* the statement being checked is at or after c */
    bool hit;  /* it reads a view of the root */
} Check;

static Lmad *whole(Sc *s, const Var *v) {
    Sym **shape = NEW_ARRAY(s->a, Sym *, v->type.rank + 1);
    for (int d = 0; d < v->type.rank; d++) shape[d] = ir_se_sym(s->a, v->type.shape[d]);
    return lmad_row_major(s->a, v->type.rank, shape);
}

static void set_region(Check *k, const Var *v, Lmad *l) {
    k->s->region[v->id] = l;
}

/* Whether v's planned place leads to the source (it is part of what is
 * being built), and its region when its place is in the root. */
static Lmad *planned_region(Check *k, const Var *v, bool *of_source) {
    ScTarget *t = k->s->plan[v->id];
    if (!t) return NULL;
    if (t->dest == k->source) {
        *of_source = true;
        return NULL;
    }
    Lmad *d = t->dest == k->root ? k->s->region[k->root->id] : planned_region(k, t->dest, of_source);
    return d ? sc_region(k->s->a, d, t) : NULL;
}

/* l with the variables that i64 arithmetic defines replaced by their
 * definitions (a few levels deep), so that the prover sees i + 1 where
 * the program names it. */
typedef struct Expand {
    Sc *s;
    Lmad *l;
    bool changed;
} Expand;

static void expand_var(int id, void *ctx) {
    Expand *x = ctx;
    Stm *st = id < x->s->n ? x->s->arith[id] : NULL;
    if (!st) return;
    Arena *a = x->s->a;
    Sym *l = ir_se_sym(a, st->e->args[0]), *r = ir_se_sym(a, st->e->args[1]);
    Sym *def = st->e->op == OP_ADD ? sym_add(a, l, r) : st->e->op == OP_SUB ? sym_sub(a, l, r) : sym_mul(a, l, r);
    x->l = lmad_subst(a, x->l, id, def);
    x->changed = true;
}

static Lmad *expand(Sc *s, Lmad *l) {
    Expand x = {s, l, true};
    for (int round = 0; round < 8 && x.changed; round++) {
        x.changed = false;
        Lmad *cur = x.l;
        sym_vars(cur->offset, expand_var, &x);
        for (int d = 0; d < cur->rank; d++) {
            sym_vars(cur->dims[d].stride, expand_var, &x);
            sym_vars(cur->dims[d].shape, expand_var, &x);
        }
    }
    return x.l;
}

/* Whether a flat update's region r has one element per index: else the
 * source, built there, could overwrite elements of its own that it still
 * reads. Its strides expanded; its lengths, as given, are >= 1 (an empty
 * region has no two elements). */
static bool region_injective(Sc *s, const IrExp *e, Lmad *r) {
    char *pos = arena_alloc(s->a, (size_t)s->n);
    for (int d = 0; d < e->nslice; d++)
        if (e->slice[d].len.is_var) pos[e->slice[d].len.v->id] = 1;
    Lmad *x = expand(s, r), *y = NEW(s->a, Lmad);
    *y = *x;
    y->dims = NEW_ARRAY(s->a, LmadDim, x->rank + 1);
    for (int d = 0; d < x->rank; d++) y->dims[d] = (LmadDim){x->dims[d].stride, r->dims[d].shape};
    SymFacts k = {s->nonneg, pos, s->n};
    return lmad_injective(s->a, y, &k);
}

/* Whether array v has the shape of region r (both expanded): only then
 * may a part of a concatenation or literal be built there. A size that
 * merely equals at run time is checked by an assertion that may come
 * after v's elements are written (inside the map that makes v). */
static bool fits(Sc *s, const Var *v, Lmad *r) {
    Lmad *vl = expand(s, whole(s, v)), *rl = expand(s, r);
    if (vl->rank != rl->rank) return false;
    for (int d = 0; d < vl->rank; d++)
        if (!sym_equal(vl->dims[d].shape, rl->dims[d].shape)) return false;
    return true;
}

/* A statement in [c, p) touches region r of the root. */
static void touch(Check *k, Lmad *r) {
    if (k->ok && !lmad_disjoint(k->s->a, expand(k->s, r), k->dest, &k->facts)) k->ok = false;
}

static void ck_use(IrWalk *w, Var *v) {
    Check *k = w->ctx;
    if (!k->s->region[v->id]) return;
    k->hit = true;
    if (k->live) touch(k, k->s->region[v->id]);
}

/* A view or update of a view of the root: the region it takes (the
 * slice of an index or update, the same elements for the others) and,
 * from c on, what it touches (an element read, an update's region). */
static void check_view(Check *k, Stm *st) {
    Sc *s = k->s;
    IrExp *e = st->e;
    Var *pat0 = st->pat[0];
    Lmad *r = s->region[e->arr->id], *part = r;
    if (ir_is_index(e) || ir_is_update(e)) part = ir_region(s->a, r, e);
    if (k->live && (ir_is_update(e) || !is_array(pat0))) touch(k, part);
    if (k->live && ir_is_update(e) && e->se.is_var && s->region[e->se.v->id]) touch(k, s->region[e->se.v->id]);
    if (is_array(pat0)) set_region(k, pat0, ir_is_update(e) ? r : part);
}

/* Whether the map st reads its input a only there and element by element
 * while making result r of its lambda: a scalar parameter, or rows that a
 * nest of maps reads element by element (each element read by the
 * work-item that writes the same place of r, before it writes it). */
static bool reads_elementwise(Stm *st, int a, SubExp r) {
    const Screma *sc = &st->e->screma;
    if (ir_stm_uses(st, sc->arrs[a]) != 1) return false;
    const Var *p = sc->map->params[a];
    return !is_array(p) || (r.is_var && mem_inplace_ok(sc->map->body, p, r.v));
}

/* The input of the map st that makes the source (at c) which that map
 * may read where the source is built: a view of the root whose region is
 * the destination's, read element by element (reads_elementwise; the
 * in-place map of §6.9, into a region), so that let a[i] = map f a[i]
 * copies nothing. NULL when there is none. */
static Var *inplace_input(Check *k, Stm *st) {
    IrExp *e = st->e;
    if (e->kind != IE_SCREMA || e->screma.nscans || e->screma.nreds) return NULL;
    Screma *sc = &e->screma;
    int i = 0;
    while (i < st->npat && st->pat[i] != k->source) i++;
    if (i == st->npat) return NULL;
    SubExp r = sc->map->body->res[i];
    for (int a = 0; a < sc->narrs; a++) {
        Var *xs = sc->arrs[a];
        Lmad *reg = k->s->region[xs->id];
        if (reg && lmad_equal(expand(k->s, reg), k->dest) && reads_elementwise(st, a, r)) return xs;
    }
    return NULL;
}

/* Statement j (before p): the regions its views, updates and planned
 * results take, and, from c on, what it touches. */
static void check_stm(Check *k, int j) {
    Sc *s = k->s;
    Stm *st = k->b->stms[j];
    IrExp *e = st->e;
    k->live = j >= k->c;
    bool view = ir_is_index(e) || ir_is_update(e) || e->kind == IE_REARRANGE || e->kind == IE_RESHAPE;
    if (view && s->region[e->arr->id]) {
        check_view(k, st);
        return;
    }
    k->hit = false;
    IrWalk w = {NULL, ck_use, NULL, k};
    Var *own = j == k->c ? inplace_input(k, st) : NULL;
    Lmad *own_region = own ? s->region[own->id] : NULL;
    if (own) s->region[own->id] = NULL; /* its reads are the source's own */
    ir_walk_stm(&w, st);
    if (own) s->region[own->id] = own_region;
    /* Arrays that a copy of a name, an if, a loop, a scatter or a
     * histogram returns may be views of what it reads. */
    bool may_alias = k->hit && (e->kind == IE_SUBEXP || e->kind == IE_IF || e->kind == IE_LOOP ||
                                e->kind == IE_SCATTER || e->kind == IE_HIST);
    for (int i = 0; i < st->npat; i++) {
        Var *v = st->pat[i];
        if (!is_array(v)) continue;
        bool of_source = false;
        Lmad *r = planned_region(k, v, &of_source);
        if (r) {
            set_region(k, v, r);
            if (k->live) touch(k, r);
        } else if (may_alias && !of_source) set_region(k, v, s->region[k->root->id]);
    }
}

/* Condition 4 for source b at c, built at region dest of root (p). */
static bool no_conflict(Sc *s, const Body *b, Var *root, const Var *src, Lmad *dest, int c, int p) {
    char *pos = arena_alloc(s->a, (size_t)s->n); /* only the root's sizes are >= 1 */
    for (int d = 0; d < root->type.rank; d++)
        if (root->type.shape[d].is_var) pos[root->type.shape[d].v->id] = 1;
    Check k = {s, b, root, src, expand(s, dest), {s->nonneg, pos, s->n}, c, true, false, false};
    memset(s->region, 0, sizeof *s->region * (size_t)s->n);
    set_region(&k, root, whole(s, root));
    for (int j = 0; j < p && k.ok; j++) check_stm(&k, j);
    return k.ok;
}

/* ---- Candidates ------------------------------------------------------------------ */

/* Whether statement st makes v as a fresh array in a block of its own. */
static bool creates(const Stm *st, const Var *v) {
    const IrExp *e = st->e;
    switch (e->kind) {
    case IE_REPLICATE:
    case IE_IOTA:
    case IE_COPY:
    case IE_CONCAT:
    case IE_SCRATCH:
    case IE_ARRAYLIT: return true;
    case IE_SCREMA: {
        int nred = 0;
        for (int i = 0; i < e->screma.nreds; i++) nred += e->screma.reds[i].k;
        int scans = 0;
        for (int i = 0; i < e->screma.nscans; i++) scans += e->screma.scans[i].k;
        for (int i = 0; i < st->npat; i++)
            if (st->pat[i] == v) return i < scans || i >= scans + nred;
        return false;
    }
    default: return false;
    }
}

/* The array st makes a view of (an index, a rearrangement, a reshape or
 * another name), or NULL. */
static const Var *viewed(const Stm *st) {
    const IrExp *e = st->e;
    if (st->npat != 1 || !is_array(st->pat[0])) return NULL;
    if (ir_is_index(e) || e->kind == IE_REARRANGE || e->kind == IE_RESHAPE) return e->arr;
    return e->kind == IE_SUBEXP && e->se.is_var ? e->se.v : NULL;
}

static bool dead_after(Sc *s, const Body *b, const Var *v, int p);

/* Whether the views of v made in b (and theirs) are not used after p. */
static bool views_dead_after(Sc *s, const Body *b, const Var *v, int p) {
    for (int j = s->def_body[v->id] == b ? s->def_pos[v->id] + 1 : 0; j < b->nstms; j++)
        if (viewed(b->stms[j]) == v && !dead_after(s, b, b->stms[j]->pat[0], p)) return false;
    return true;
}

/* Whether v and the views of v made in b are not used after p. */
static bool dead_after(Sc *s, const Body *b, const Var *v, int p) {
    return s->last_use[v->id] <= p && views_dead_after(s, b, v, p);
}

/* The number of parts of a concatenation or array literal, and part i:
 * an array made in some body, or NULL (a scalar element). */
static int nparts(const IrExp *e) {
    return e->kind == IE_CONCAT ? e->narrs : e->kind == IE_ARRAYLIT ? e->nargs : 0;
}

static Var *part(const IrExp *e, int i) {
    if (e->kind == IE_CONCAT) return e->arrs[i];
    return e->args[i].is_var && is_array(e->args[i].v) ? e->args[i].v : NULL;
}

/* Where v (made in b) is first written: its statement, or for a
 * concatenation the first creation of an operand built in its block. */
static int creation_point(const Sc *s, const Body *b, const Var *v) {
    int j = s->def_pos[v->id];
    const IrExp *e = b->stms[j]->e;
    for (int i = 0; i < nparts(e); i++) {
        Var *a = part(e, i);
        if (a && s->plan[a->id] && s->plan[a->id]->dest == v) {
            int c = creation_point(s, b, a);
            if (c < j) j = c;
        }
    }
    return j;
}

/* Condition 1 and a creation in b: the source's creation point, or -1. */
static int source_at(Sc *s, const Body *b, const Var *v, int p) {
    if (s->def_body[v->id] != b || s->plan[v->id] || !dead_after(s, b, v, p)) return -1;
    if (!creates(b->stms[s->def_pos[v->id]], v)) return -1;
    return creation_point(s, b, v);
}

/* The array an update chain in b starts from: x' = x with ... back to the
 * first x not made by an update in b. */
static Var *chain_root(Sc *s, const Body *b, Var *x) {
    while (s->def_body[x->id] == b && ir_is_update(b->stms[s->def_pos[x->id]]->e))
        x = b->stms[s->def_pos[x->id]]->e->arr;
    return x;
}

/* The scalars an update's region is made of (its offset and slice). */
static Sym **slice_syms(Sc *s, const IrExp *e, int *count) {
    Sym **out = NEW_ARRAY(s->a, Sym *, 3 * e->nslice + 2);
    int k = 0;
    if (e->kind == IE_FLAT_UPDATE) out[k++] = ir_se_sym(s->a, e->start);
    for (int i = 0; i < e->nslice; i++) {
        const DimSlice *d = &e->slice[i];
        if (!d->is_slice) out[k++] = ir_se_sym(s->a, d->index);
        else
            out[k++] = ir_se_sym(s->a, d->start), out[k++] = ir_se_sym(s->a, d->len),
            out[k++] = ir_se_sym(s->a, d->stride);
    }
    *count = k;
    return out;
}

static void plan(Sc *s, const Var *v, Var *dest, const IrExp *upd, LmadSlice *sl, int n) {
    ScTarget *t = NEW(s->a, ScTarget);
    t->dest = dest;
    t->upd = upd;
    t->slice = sl;
    t->nslice = n;
    s->plan[v->id] = t;
}

Lmad *sc_region(Arena *a, const Lmad *l, const ScTarget *t) {
    return t->upd ? ir_region(a, l, t->upd) : lmad_slice(a, l, t->slice, t->nslice);
}

/* x' = x with [S] = v (or a flat slice S) at statement p of b. */
static void try_update(Sc *s, Body *b, int p) {
    IrExp *e = b->stms[p]->e;
    if (!e->se.is_var || !is_array(e->se.v)) return;
    Var *v = e->se.v;
    int c = source_at(s, b, v, p);
    Var *root = chain_root(s, b, e->arr);
    if (c < 0 || !bound_before(s, b, root, c)) return;
    int nsyms;
    Sym **syms = slice_syms(s, e, &nsyms);
    Lmad *dest = ir_region(s->a, whole(s, root), e);
    if (e->kind == IE_FLAT_UPDATE && !region_injective(s, e, dest)) return;
    /* The update's own shape check (when the shapes are not the same
     * names) is between c and p, so it moves above c with the others. */
    if (!no_conflict(s, b, root, v, dest, c, p)) return;
    /* The chain's earlier updates between c and p were checked as
     * touches; the destination's block is the root's. */
    if (!hoist_checks(s, b, c, p, syms, nsyms)) return;
    plan(s, v, root, e, NULL, 0);
}

/* r = concat a_1 ... a_k, or r = [a_1, ..., a_k] of arrays, at statement
 * p of b: each a_i that can be is built in its part of r (rows
 * o_i .. o_i + len_i of a concatenation, row i of a literal). */
static void try_parts(Sc *s, Body *b, int p) {
    IrExp *e = b->stms[p]->e;
    Var *r = b->stms[p]->pat[0];
    int c0 = p, n = nparts(e);
    bool *take = NEW_ARRAY(s->a, bool, n + 1);
    LmadSlice *sl = NEW_ARRAY(s->a, LmadSlice, n + 1);
    Sym **need = NEW_ARRAY(s->a, Sym *, n + r->type.rank + 1);
    int nneed = 0;
    Sym *off = sym_const(s->a, 0);
    for (int i = 0; i < n; i++) {
        if (e->kind == IE_ARRAYLIT) sl[i] = (LmadSlice){.is_index = true, .index = sym_const(s->a, i)};
        else {
            Sym *len = ir_se_sym(s->a, e->arrs[i]->type.shape[0]);
            sl[i] = (LmadSlice){.start = off, .len = len, .stride = sym_const(s->a, 1)};
            off = sym_add(s->a, off, len);
            need[nneed++] = len;
        }
        int dup = 0;
        for (int j = 0; j < n; j++) dup += part(e, j) == part(e, i);
        int c = part(e, i) && dup == 1 ? source_at(s, b, part(e, i), p) : -1;
        if (c < 0 || !fits(s, part(e, i), lmad_slice(s->a, whole(s, r), &sl[i], 1))) continue;
        take[i] = true;
        if (c < c0) c0 = c;
    }
    if (c0 == p) return;
    for (int d = 0; d < r->type.rank; d++) need[nneed++] = ir_se_sym(s->a, r->type.shape[d]);
    if (!hoist_checks(s, b, c0, p, need, nneed)) return;
    for (int i = 0; i < n; i++)
        if (take[i]) plan(s, part(e, i), r, NULL, &sl[i], 1);
}

/* Whether xs's block is the program's to reuse: xs is a unique entry
 * parameter, a loop parameter whose initial value is owned and dies
 * with the loop, or made in b as a fresh array or by consuming one (an
 * update, scatter or histogram: the checker lets only consumable arrays
 * be consumed). */
static bool owned(const Sc *s, const Body *b, const Var *xs) {
    if (s->owned[xs->id]) return true;
    if (s->def_body[xs->id] != b) return false;
    const Stm *st = b->stms[s->def_pos[xs->id]];
    IrExpKind k = st->e->kind;
    return creates(st, xs) || ir_is_update(st->e) || k == IE_SCATTER || k == IE_HIST;
}

/* Marks the array parameters of b's loops that are owned (above), before
 * the loops' bodies are planned: the initial value, and the views of it,
 * are used neither after the loop nor inside it (where the parameter's
 * block, being updated, would no longer hold the value). */
static void own_loop_params(Sc *s, const Body *b) {
    for (int j = 0; j < b->nstms; j++) {
        const IrExp *e = b->stms[j]->e;
        for (int k = 0; e->kind == IE_LOOP && k < e->loop.nparams; k++) {
            SubExp init = e->loop.inits[k];
            if (is_array(e->loop.params[k]) && init.is_var && owned(s, b, init.v) && dead_after(s, b, init.v, j) &&
                views_dead_after(s, b, init.v, j - 1) && !ir_body_uses(e->loop.body, init.v))
                s->owned[e->loop.params[k]->id] = 1;
        }
    }
}

/* An in-place map (thesis §6.9): a map at statement j of b whose result o
 * has the shape and element type of an input xs that it reads element by
 * element (a scalar parameter, or rows that a nest of maps reads element
 * by element) is built in xs's memory when xs is owned, read nowhere else
 * in the map, and neither xs nor a view of it is used after. */
static void try_inplace_map(Sc *s, Body *b, int j) {
    Stm *st = b->stms[j];
    Screma *sc = &st->e->screma;
    if (sc->nscans || sc->nreds) return;
    for (int i = 0; i < st->npat; i++) {
        Var *o = st->pat[i];
        SubExp r = sc->map->body->res[i];
        if (!is_array(o) || s->plan[o->id]) continue;
        for (int a = 0; a < sc->narrs; a++) {
            Var *xs = sc->arrs[a];
            bool same = xs->type.kind == TK_ARRAY && xs->type.elem == o->type.elem && xs->type.rank == o->type.rank;
            for (int d = 0; same && d < o->type.rank; d++) same = se_same(xs->type.shape[d], o->type.shape[d]);
            if (!same || !owned(s, b, xs) || !dead_after(s, b, xs, j) || !reads_elementwise(st, a, r)) continue;
            bool taken = false;
            for (int k = 0; k < i; k++) taken |= s->plan[st->pat[k]->id] && s->plan[st->pat[k]->id]->dest == xs;
            if (taken || !views_dead_after(s, b, xs, j - 1)) continue;
            plan(s, o, xs, NULL, NULL, 0);
            break;
        }
    }
}

/* ---- Bodies ------------------------------------------------------------------------- */

static void plan_body(Sc *s, Body *b);

static void plan_lambda(Sc *s, Lambda *l) { plan_body(s, l->body); }

static void plan_segops(Sc *s, SegOp *ops, int n) {
    for (int i = 0; i < n; i++) plan_lambda(s, ops[i].op);
}

/* The short-circuit points of b in order (a plan may move scalar
 * statements up, never past the point being planned), then the bodies
 * nested in its statements. */
static void plan_body(Sc *s, Body *b) {
    index_body(s, b);
    for (int j = 0; j < b->nstms; j++) {
        IrExp *e = b->stms[j]->e;
        if (ir_is_update(e)) try_update(s, b, j);
        if (e->kind == IE_CONCAT || e->kind == IE_ARRAYLIT) try_parts(s, b, j);
        if (e->kind == IE_SCREMA) try_inplace_map(s, b, j);
    }
    own_loop_params(s, b);
    for (int j = 0; j < b->nstms; j++) {
        IrExp *e = b->stms[j]->e;
        switch (e->kind) {
        case IE_IF: plan_body(s, e->tbody), plan_body(s, e->fbody); break;
        case IE_LOOP: plan_body(s, e->loop.body); break;
        case IE_SCREMA:
            plan_lambda(s, e->screma.map);
            plan_segops(s, e->screma.scans, e->screma.nscans);
            plan_segops(s, e->screma.reds, e->screma.nreds);
            break;
        case IE_SCATTER: plan_lambda(s, e->scatter.lam); break;
        case IE_HIST: plan_lambda(s, e->hist.lam), plan_segops(s, &e->hist.op, 1); break;
        default: break;
        }
    }
}

/* Sizes of arrays and for-loop indices are >= 0. */
static void mark_sizes(char *nonneg, const Var *v) {
    for (int d = 0; is_array(v) && d < v->type.rank; d++)
        if (v->type.shape[d].is_var) nonneg[v->type.shape[d].v->id] = 1;
}

static void nn_stm(IrWalk *w, Stm *st) {
    Sc *s = w->ctx;
    const IrExp *e = st->e;
    if (e->kind == IE_LOOP && e->loop.kind == IR_LOOP_FOR) s->nonneg[e->loop.i->id] = 1;
    if (e->kind == IE_OP && e->t == PT_I64 && (e->op == OP_ADD || e->op == OP_SUB || e->op == OP_MUL))
        s->arith[st->pat[0]->id] = st;
}

static void nn_bind(IrWalk *w, Var *v) { mark_sizes(((Sc *)w->ctx)->nonneg, v); }

/* Plans the short-circuit points of f into plan. */
static void plan_fun(Prog *p, Fun *f, ScTarget **plan) {
    Sc s = {.a = p->arena, .n = p->next_var_id + 1, .plan = plan, .owned = p->owned};
    size_t n = (size_t)s.n;
    s.def_body = NEW_ARRAY(s.a, const Body *, n);
    s.def_pos = NEW_ARRAY(s.a, int, n);
    s.last_use = NEW_ARRAY(s.a, int, n);
    s.nonneg = arena_alloc(s.a, n);
    s.region = NEW_ARRAY(s.a, Lmad *, n);
    s.arith = NEW_ARRAY(s.a, Stm *, n);
    for (int i = 0; i < f->nparams; i++) {
        mark_sizes(s.nonneg, f->params[i]);
        s.owned[f->params[i]->id] = is_array(f->params[i]) && f->params[i]->type.unique;
    }
    IrWalk w = {nn_bind, NULL, nn_stm, &s};
    ir_walk_body(&w, f->body);
    plan_body(&s, f->body);
}

void pass_shortcircuit(Prog *p) {
    p->nshortcircuit = p->next_var_id + 1;
    p->shortcircuit = NEW_ARRAY(p->arena, ScTarget *, p->nshortcircuit);
    p->owned = arena_alloc(p->arena, (size_t)p->nshortcircuit);
    for (int i = 0; i < p->nfuns; i++) plan_fun(p, p->funs[i], p->shortcircuit);
}
