/* SegGroup (the intra-group version of a map, seed 002 ch. 7) as Imp
 * kernels (gpu.h): a work-group per element of the map, whose work-items
 * run the element's body together. The body's code at the group level
 * (its statements and those of the ifs and loops among them) runs in
 * every work-item alike, but for
 *   - its SOACs, whose elements the work-items share: a map's strided, a
 *     reduction's strided or in chunks and then a tree in local memory
 *     (gpu_red.c), a scan's in chunks, each scanned into the outputs,
 *     then the chunks' totals scanned in local memory and added to the
 *     chunks after the first;
 *   - array statements that write memory (copies, fills, iotas, in-place
 *     updates): a copy's elements and a fill's or an iota's rows are
 *     shared, anything else is done by the group's first work-item;
 * each between barriers, so that what one writes the others read after.
 * Every value the group level binds is the same in all the work-items
 * (reductions leave their results in local memory for all), so that
 * they take the same branches and meet the same barriers.
 *
 * The element's arrays live in the per-element blocks that the memory
 * pass hoisted out of the map (SegInfo.private_mem, sliced): a work-group
 * needs one copy of each, in local memory when they fit (with the trees'
 * local arrays) in the local memory a group may use, else in global
 * memory (a slice per group); a kernel of each kind is built and the
 * host picks one at run time. The group's size is chosen at run time from
 * the width of its widest SOAC and the number of elements
 * (runtime/opencl.h's rt_cl_group_width: a work-item per few elements of
 * the widest SOAC), and is a tuning parameter (<kernel>.group_size). */
#include "gpu.h"

/* A local array of the group's trees and scans, of a group's size of
 * values of type t, which the group-level operations share (each uses it
 * between its barriers): the one using it last is the epoch-th. */
typedef struct GlScratch {
    ImpVar *mem;
    PrimType t;
    int epoch;
} GlScratch;

/* The state of the group level being lowered (ImpLower.group). */
typedef struct GlGroup {
    Kb *kb;
    ImpVar *ltid;      /* kernel: the work-item's number in its group */
    ImpVar *size;      /* kernel: the group's size */
    ImpVar *host_size; /* host: the same (the size of local arrays) */
    VEC(GlScratch) scratch;
    int epoch;         /* the group-level operation being lowered */
} GlGroup;

static ImpExp *ltid(ImpLower *L, const GlGroup *g) { return imp_read(L->a, g->ltid); }

static ImpExp *gsize(ImpLower *L, const GlGroup *g) { return imp_read(L->a, g->size); }

/* A barrier that also orders global memory: the element's arrays may be
 * there (and its results are). */
static void barrier(ImpLower *L) {
    if (L->b->stms.len && L->b->stms.items[L->b->stms.len - 1]->kind == IMP_BARRIER) {
        L->b->stms.items[L->b->stms.len - 1]->global = true; /* one barrier ends an operation and starts the next */
        return;
    }
    imp_add(L->b, IMP_BARRIER)->global = true;
}

/* n local arrays of the group's size, of types ts, for the operation
 * being lowered: arrays of the pool that no other of its calls took. */
static ImpVar **scratch(ImpLower *L, GlGroup *g, const PrimType *ts, int n) {
    ImpVar **r = NEW_ARRAY(L->a, ImpVar *, n + 1);
    for (int j = 0; j < n; j++) {
        GlScratch *x = NULL;
        for (int i = 0; i < g->scratch.len && !x; i++)
            if (g->scratch.items[i].t == ts[j] && g->scratch.items[i].epoch != g->epoch) x = &g->scratch.items[i];
        if (!x) {
            GlScratch fresh = {kb_local(L, g->kb, "scratch", ts[j], imp_read(L->a, g->host_size)), ts[j], 0};
            vec_push(&g->scratch, fresh);
            x = &g->scratch.items[g->scratch.len - 1];
        }
        x->epoch = g->epoch;
        r[j] = x->mem;
    }
    return r;
}

/* Opens `for k < ceil((n - ltid) / size)` (close with lw_leave into the
 * returned statement's body) and gives the element of the iteration, ltid
 * + k * size: a work-item's share of n elements, strided. */
static ImpStm *for_strided(ImpLower *L, const GlGroup *g, LwNest *nest, ImpExp *n, ImpExp **elem) {
    ImpVar *k = lw_fresh(L, "k", IMP_SCALAR, PT_I64);
    ImpStm *f = lw_for(L, nest, k, gl_div_up(L, gl_op(L, OP_SUB, n, ltid(L, g)), gsize(L, g)));
    *elem = gl_op(L, OP_ADD, ltid(L, g), gl_op(L, OP_MUL, imp_read(L->a, k), gsize(L, g)));
    return f;
}

/* ---- Array statements ------------------------------------------------------------------- */

/* Copy c with its elements shared by the group's work-items (the flat
 * element index, innermost dimension fastest). */
static void group_copy(ImpLower *L, const GlGroup *g, const ImpStm *c) {
    Arena *a = L->a;
    const Lmad *dl = c->dst_lmad, *sl = c->src_lmad;
    int r = dl->rank;
    Sym *total = sym_const(a, 1);
    for (int d = 0; d < r; d++) total = sym_mul(a, total, dl->dims[d].shape);
    LwNest n;
    ImpExp *e;
    ImpStm *f = for_strided(L, g, &n, imp_sym(a, total), &e);
    Sym *x = gl_sym(L, gl_let(L, "e", PT_I64, e));
    Sym **idx = NEW_ARRAY(a, Sym *, r + 1);
    for (int d = r - 1; d > 0; d--) {
        Sym *w = dl->dims[d].shape;
        Sym *q = gl_sym(L, gl_let(L, "q", PT_I64, imp_sym(a, sym_div(a, x, w))));
        idx[d] = sym_sub(a, x, sym_mul(a, q, w));
        x = q;
    }
    if (r > 0) idx[0] = x;
    imp_store(L->b, c->dst, c->t, imp_sym(a, lmad_index(a, dl, idx)),
              imp_load(a, c->src, c->t, imp_sym(a, lmad_index(a, sl, idx))));
    f->body = lw_leave(L, &n);
}

/* Loop f (whose iterations are independent: a fill's or an iota's) with
 * its iterations shared by the group's work-items. */
static void group_for(ImpLower *L, const GlGroup *g, const ImpStm *f) {
    LwNest n;
    ImpExp *e;
    ImpStm *loop = for_strided(L, g, &n, f->bound, &e);
    imp_decl(L->b, f->var, e);
    for (int i = 0; i < f->body.n; i++) vec_push(&L->b->stms, f->body.stms[i]);
    loop->body = lw_leave(L, &n);
}

/* Appends code c (an array statement's, lowered as for one work-item)
 * between barriers: its copies and loops shared by the work-items, the
 * rest done by the first. */
static void spread(ImpLower *L, const GlGroup *g, ImpCode c) {
    LwNest one;
    ImpStm *solo = NULL;
    barrier(L);
    for (int i = 0; i < c.n; i++) {
        ImpStm *st = c.stms[i];
        if (st->kind != IMP_COPY && st->kind != IMP_FOR) {
            if (!solo) solo = gl_if(L, &one, imp_op2(L->a, OP_EQ, PT_I64, ltid(L, g), gl_i64(L, 0)));
            vec_push(&L->b->stms, st);
            continue;
        }
        if (solo) solo->body = lw_leave(L, &one);
        solo = NULL;
        if (st->kind == IMP_COPY) group_copy(L, g, st);
        else group_for(L, g, st);
    }
    if (solo) solo->body = lw_leave(L, &one);
    barrier(L);
}

/* The map's results (an LwResFn, ctx the map): written to its outputs at
 * the group's element. */
static void group_results(ImpLower *L, const Body *b, void *ctx) {
    LwNest n;
    lw_enter(L, &n);
    lw_map_outputs(L, ctx, b, 0);
    spread(L, L->group, lw_leave(L, &n));
}

/* ---- SOACs -------------------------------------------------------------------------------- */

static void no_combine(ImpLower *L, ImpExp **vals, void *ctx) {
    (void)L, (void)vals, (void)ctx;
}

/* Stores vals into the first nv outputs of s (its scans') at element i, or
 * loads them. */
static void store_scanned(ImpLower *L, const Stm *s, ImpVar *i, ImpExp **vals, int nv) {
    Sym *ix = gl_sym(L, i);
    for (int j = 0; j < nv; j++) {
        const Var *out = s->pat[j];
        imp_store(L->b, lw_var(L, out->mem->mem), out->type.elem, lw_offset(L, out->mem->ixfun, &ix), vals[j]);
    }
}

static ImpExp **load_scanned(ImpLower *L, const Stm *s, ImpVar *i, int nv) {
    Sym *ix = gl_sym(L, i);
    ImpExp **r = NEW_ARRAY(L->a, ImpExp *, nv + 1);
    for (int j = 0; j < nv; j++)
        r[j] = lw_elem(L, s->pat[j], &ix);
    return r;
}

/* Inclusive scan of the group's values in the local arrays locs with ops:
 * each step combines a value with the one s before it (s doubling) into
 * the other of two arrays, so that a step needs one barrier. Returns the
 * arrays (locs or new ones) that hold the result. */
static ImpVar **scan_locals(ImpLower *L, GlGroup *g, const SegOp *ops, int nops, ImpVar **locs,
                            const PrimType *ts, int nv) {
    Arena *a = L->a;
    ImpVar **other = scratch(L, g, ts, nv);
    ImpVar **cur = NEW_ARRAY(a, ImpVar *, nv + 1), **next = NEW_ARRAY(a, ImpVar *, nv + 1);
    for (int j = 0; j < nv; j++) {
        imp_decl(L->b, cur[j] = imp_block(L->ip, "cur", IMP_SPACE_LOCAL), imp_read(a, locs[j]));
        imp_decl(L->b, next[j] = imp_block(L->ip, "next", IMP_SPACE_LOCAL), imp_read(a, other[j]));
    }
    ImpVar *s = gl_let(L, "s", PT_I64, gl_i64(L, 1));
    LwNest n, in, out;
    gl_barrier(L);
    ImpStm *w = gl_while(L, &n, imp_op2(a, OP_LT, PT_I64, imp_read(a, s), gsize(L, g)));
    ImpVar **t = gl_lets(L, "t", ts, nv, gl_loads(L, cur, ts, nv, ltid(L, g)));
    ImpStm *st = gl_if(L, &in, imp_op2(a, OP_LE, PT_I64, imp_read(a, s), ltid(L, g)));
    gl_apply(L, ops, nops, gl_loads(L, cur, ts, nv, gl_op(L, OP_SUB, ltid(L, g), imp_read(a, s))), gl_reads(L, t, nv), t);
    st->body = lw_leave(L, &in);
    gl_stores(L, next, ts, nv, ltid(L, g), gl_reads(L, t, nv));
    gl_barrier(L);
    st = gl_scope(L, &out);
    for (int j = 0; j < nv; j++) {
        ImpVar *tmp = imp_block(L->ip, "tmp", IMP_SPACE_LOCAL);
        imp_decl(L->b, tmp, imp_read(a, cur[j]));
        imp_assign(L->b, cur[j], imp_read(a, next[j]));
        imp_assign(L->b, next[j], imp_read(a, tmp));
    }
    st->body = lw_leave(L, &out);
    imp_assign(L->b, s, gl_op(L, OP_MUL, imp_read(a, s), gl_i64(L, 2)));
    w->body = lw_leave(L, &n);
    return cur;
}

/* Declares pat (a reduction's nv results, of types ts) in every work-item
 * to the values its tree left at position 0 of locs. */
static void tree_declare(ImpLower *L, Var *const *pat, ImpVar **locs, const PrimType *ts, int nv) {
    for (int j = 0; j < nv; j++) lw_declare(L, pat[j], imp_load(L->a, locs[j], ts[j], gl_i64(L, 0)));
}

/* Reduces the work-items' accumulators accs (nv values of types ts) with
 * ops through a tree in local arrays of the pool, and declares pat (the
 * reduction's results) to the result in every work-item. */
static void tree_results(ImpLower *L, GlGroup *g, const SegOp *ops, int nops, ImpVar **accs, const PrimType *ts, int nv,
                         Var *const *pat) {
    ImpVar **locs = scratch(L, g, ts, nv);
    gl_stores(L, locs, ts, nv, ltid(L, g), gl_reads(L, accs, nv));
    gl_tree(L, ops, nops, locs, ts, nv, (GlTree){ltid(L, g), ltid(L, g), gsize(L, g)});
    tree_declare(L, pat, locs, ts, nv);
}

/* A Screma with scans (and maybe reductions) over the elements of st: each
 * work-item scans its chunk into the outputs (reducing it too), the
 * chunks' totals are scanned, and each chunk but the first combines its
 * outputs with the total before it. */
static void group_scan(ImpLower *L, GlGroup *g, const Stm *s, GlStride st) {
    Arena *a = L->a;
    const Screma *sc = &s->e->screma;
    int nsv, nrv;
    PrimType *sts = gl_op_types(L, sc->scans, sc->nscans, &nsv), *rts = gl_op_types(L, sc->reds, sc->nreds, &nrv);
    PrimType *ts = NEW_ARRAY(a, PrimType, nsv + nrv + 1);
    COPY_ARRAY(ts, sts, nsv);
    COPY_ARRAY(ts + nsv, rts, nrv);
    ImpVar **sacc = gl_lets(L, "sacc", sts, nsv, gl_neutrals(L, sc->scans, sc->nscans, nsv));
    ImpVar **racc = gl_lets(L, "racc", rts, nrv, gl_neutrals(L, sc->reds, sc->nreds, nrv));
    LwNest n;
    ImpExp *i;
    ImpStm *f = gl_for_chunk(L, &n, st, &i);
    ImpVar *iv = gl_let(L, "i", PT_I64, i);
    ImpVar **v = gl_element(L, s, sc->map, sc->arrs, sc->iter, imp_read(a, iv), ts, nsv + nrv);
    gl_apply(L, sc->scans, sc->nscans, gl_reads(L, sacc, nsv), gl_reads(L, v, nsv), sacc);
    store_scanned(L, s, iv, gl_reads(L, sacc, nsv), nsv);
    if (nrv) gl_apply(L, sc->reds, sc->nreds, gl_reads(L, racc, nrv), gl_reads(L, v + nsv, nrv), racc);
    f->body = lw_leave(L, &n);

    ImpVar **tot = scratch(L, g, sts, nsv);
    gl_stores(L, tot, sts, nsv, ltid(L, g), gl_reads(L, sacc, nsv));
    tot = scan_locals(L, g, sc->scans, sc->nscans, tot, sts, nsv);

    LwNest pn;
    ImpStm *p = gl_if(L, &pn, imp_op2(a, OP_LT, PT_I64, gl_i64(L, 0), ltid(L, g)));
    ImpVar **pre = gl_lets(L, "pre", sts, nsv, gl_loads(L, tot, sts, nsv, gl_op(L, OP_SUB, ltid(L, g), gl_i64(L, 1))));
    f = gl_for_chunk(L, &n, st, &i);
    iv = gl_let(L, "i", PT_I64, i);
    ImpVar **r = gl_lets(L, "r", sts, nsv, NULL);
    gl_apply(L, sc->scans, sc->nscans, gl_reads(L, pre, nsv), load_scanned(L, s, iv, nsv), r);
    store_scanned(L, s, iv, gl_reads(L, r, nsv), nsv);
    f->body = lw_leave(L, &n);
    p->body = lw_leave(L, &pn);
    if (nrv) tree_results(L, g, sc->reds, sc->nreds, racc, rts, nrv, s->pat + nsv);
}

/* A Screma at the group level, its elements shared by the work-items
 * (each lowered as a work-item's own code: L->group is NULL meanwhile). */
static void group_screma(ImpLower *L, const Stm *s) {
    const Screma *sc = &s->e->screma;
    GlGroup *g = L->group;
    GlStride st = {ltid(L, g), gsize(L, g), lw_se(L, sc->w)};
    int nrv;
    PrimType *rts = gl_op_types(L, sc->reds, sc->nreds, &nrv);
    L->group = NULL;
    g->epoch++;
    barrier(L);
    if (sc->nscans) {
        group_scan(L, g, s, st);
    } else if (nrv) {
        ImpVar **locs = scratch(L, g, rts, nrv);
        gl_group_reduce(L, s, st, (GlTree){st.start, st.start, st.stride}, locs);
        tree_declare(L, s->pat, locs, rts, nrv);
    } else {
        gl_strided(L, st, s, sc->map, sc->arrs, sc->iter, NULL, 0, no_combine, NULL);
    }
    barrier(L);
    L->group = g;
}

bool lw_group_stm(ImpLower *L, const Stm *s) {
    switch (s->e->kind) {
    case IE_SCREMA: group_screma(L, s); return true;
    case IE_UPDATE:
    case IE_FLAT_UPDATE:
    case IE_IOTA:
    case IE_REPLICATE:
    case IE_COPY:
    case IE_CONCAT:
    case IE_ARRAYLIT: {
        LwNest n;
        lw_enter(L, &n);
        lw_array_stm(L, s);
        spread(L, L->group, lw_leave(L, &n));
        return true;
    }
    default: return false;
    }
}

/* ---- The kernels -------------------------------------------------------------------------- */

/* The blocks of a SegGroup that are local arrays in its local kernel: its
 * private blocks, and the blocks bound inside it (by ifs and loops) that
 * can be nothing else. mixed: a block bound inside may be a local array
 * or a global one, which no one variable of OpenCL C can hold. */
typedef struct Spaces {
    char *local; /* by Var id */
    VEC(Var *) bound; /* the blocks bound inside that are local */
    bool changed, mixed;
} Spaces;

static bool se_local(const Spaces *sp, SubExp se) { return se.is_var && sp->local[se.v->id]; }

/* One source of block v is local (a) and another (b), or not. */
static void join(Spaces *sp, Var *v, bool a, bool b) {
    sp->mixed |= a != b;
    if ((a || b) && !sp->local[v->id]) {
        sp->local[v->id] = 1;
        sp->changed = true;
        vec_push(&sp->bound, v);
    }
}

static void spaces_stm(IrWalk *w, Stm *s) {
    Spaces *sp = w->ctx;
    const IrExp *e = s->e;
    for (int j = 0; j < s->npat; j++) {
        if (s->pat[j]->type.kind != TK_MEM) continue;
        if (e->kind == IE_IF) {
            join(sp, s->pat[j], se_local(sp, e->tbody->res[j]), se_local(sp, e->fbody->res[j]));
        } else if (e->kind == IE_LOOP) {
            bool init = se_local(sp, e->loop.inits[j]), next = se_local(sp, e->loop.body->res[j]);
            join(sp, e->loop.params[j], init, next);
            join(sp, s->pat[j], init, next);
        }
    }
}

static bool local_spaces(ImpLower *L, const Stm *s, Spaces *sp) {
    const SegInfo *g = s->e->seg;
    sp->local = arena_alloc(L->a, (size_t)L->p->next_var_id + 1);
    for (int i = 0; i < g->nfree; i++)
        if (g->free[i]->type.kind == TK_MEM && g->private_mem[i]) sp->local[g->free[i]->id] = 1;
    IrWalk w = {NULL, NULL, spaces_stm, sp};
    do {
        sp->changed = sp->mixed = false;
        ir_walk_stm(&w, (Stm *)s);
    } while (sp->changed);
    return !sp->mixed;
}

/* The group's size (the widest group-level SOAC) and the local arrays of
 * its reductions and scans (the scratch pool): most of each type that one
 * operation uses. */
typedef struct Width {
    ImpLower *L;
    ImpExp *w;
    int most[PT_COUNT];
} Width;

static bool width_of(void *ctx, const Stm *s) {
    Width *x = ctx;
    const Screma *sc = &s->e->screma;
    ImpExp *w = lw_se(x->L, sc->w);
    x->w = x->w ? imp_op2(x->L->a, OP_MAX, PT_I64, x->w, w) : w;
    int ns, nr, uses[PT_COUNT] = {0};
    const PrimType *sts = gl_op_types(x->L, sc->scans, sc->nscans, &ns), *rts = gl_op_types(x->L, sc->reds, sc->nreds, &nr);
    for (int j = 0; j < ns; j++) uses[sts[j]] += 2; /* the chunks' totals, and the other array of their scan */
    for (int j = 0; j < nr; j++) uses[rts[j]]++;
    for (int t = 0; t < PT_COUNT; t++)
        if (uses[t] > x->most[t]) x->most[t] = uses[t];
    return true;
}

/* The kernel over the map's n elements in groups of (about) w work-items,
 * with the private blocks in local memory (sp) or, sp NULL, in global
 * memory. */
static void group_kernel(ImpLower *L, const Stm *s, ImpVar *n, ImpVar *w, const Spaces *sp) {
    const SegInfo *g = s->e->seg;
    const Screma *sc = &s->e->screma;
    Arena *a = L->a;
    Kb kb;
    kb_begin(L, &kb, sp ? "seggroup" : "seggroup_global", g);
    ImpExp *args[] = {imp_read(a, w), imp_read(a, n)};
    ImpVar *size = gl_let(L, "group_size", PT_I64, imp_tuning(a, kb.k, IMP_TUNE_GROUP_WIDTH, args));
    kb_free_vars(L, &kb, sp ? NULL : imp_read(a, n), s->loc);
    ImpVar *ksize = kb_scalar(L, &kb, "group_size", PT_I64, imp_read(a, size));
    kb_enter(L, &kb);
    ImpVar *gid = gl_let(L, "gid", PT_I64, imp_thread(a, IMP_GROUP_ID));
    GlGroup grp = {.kb = &kb, .ltid = gl_let(L, "ltid", PT_I64, imp_thread(a, IMP_LOCAL_ID)), .size = ksize, .host_size = size};
    for (int i = 0; sp && i < sp->bound.len; i++) L->vars[sp->bound.items[i]->id] = lw_new_var(L, sp->bound.items[i], IMP_SPACE_LOCAL);
    kb_prologue(L, &kb, gl_sym(L, gid));
    lw_declare(L, sc->iter, imp_read(a, gid));
    lw_bind_rows(L, sc->map, sc->arrs, sc->iter);
    L->group = &grp;
    lw_body(L, sc->map->body, group_results, (void *)s, NULL, 0);
    L->group = NULL;
    vec_free(&grp.scratch);
    kb_leave(L, &kb);
    kb_launch(L, &kb, imp_read(a, n), imp_read(a, size));
    kb_release(L, &kb);
}

void gl_seg_group(ImpLower *L, const Stm *s) {
    const SegInfo *g = s->e->seg;
    Arena *a = L->a;
    Width x = {L, NULL, {0}};
    ir_each_group_soac(s->e->screma.map->body, width_of, &x);
    ImpVar *n = gl_let(L, "n", PT_I64, lw_se(L, s->e->screma.w));
    ImpVar *w = gl_let(L, "width", PT_I64, imp_op2(a, OP_MAX, PT_I64, x.w, gl_i64(L, 1)));
    Spaces sp = {0};
    if (!local_spaces(L, s, &sp)) {
        group_kernel(L, s, n, w, NULL);
        vec_free(&sp.bound);
        return;
    }
    /* local memory: the private blocks (8-byte aligned) and the trees of
     * the largest group */
    ImpExp *most = imp_op2(a, OP_MIN, PT_I64, imp_read(a, w), imp_max_group(a));
    int64_t per = 0;
    for (int t = 0; t < PT_COUNT; t++) per += (int64_t)x.most[t] * prim_size((PrimType)t);
    ImpExp *bytes = gl_op(L, OP_MUL, most, gl_i64(L, per));
    for (int i = 0; i < g->nfree; i++)
        if (g->free[i]->type.kind == TK_MEM && g->private_mem[i]) {
            ImpExp *words = gl_div_up(L, imp_memsize(a, lw_var(L, g->free[i])), gl_i64(L, 8));
            bytes = gl_op(L, OP_ADD, bytes, gl_op(L, OP_MUL, words, gl_i64(L, 8)));
        }
    LwNest t, f;
    ImpStm *st = gl_if(L, &t, imp_op2(a, OP_LE, PT_I64, bytes, imp_local_budget(a)));
    group_kernel(L, s, n, w, &sp);
    st->body = lw_leave(L, &t);
    lw_enter(L, &f);
    group_kernel(L, s, n, w, NULL);
    st->orelse = lw_leave(L, &f);
    vec_free(&sp.bound);
}
