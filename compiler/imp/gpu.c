/* The lowering of the host-level SOACs of a program at STAGE_GPU (lower.h)
 * as their SegInfo (compiler/passes/kernels.c) says:
 *   SegMap   a kernel of one work-item per point of the flattened map
 *            nest, its level iterators from the work-item's number,
 *            innermost fastest;
 *   SegSeq   a kernel of one work-item that runs the SOAC as loops; its
 *            scalar results travel back through a small device block;
 *   SegHost  the SOAC as loops in host code over its blocks lent to the
 *            host (IMP_MAP): SOACs that allocate;
 *   SegRed, SegScan, SegHist and the block-tiled SegMap: gpu_red.c,
 *            gpu_scan.c, gpu_hist.c and gpu_tiled.c.
 * A kernel's parameters are the statement's free variables (SegInfo.free):
 * scalars and blocks as they are, and blocks that every work-item needs a
 * copy of (SegInfo.private_mem: the memory pass hoisted their allocations
 * out of the SOAC) as new blocks of one copy per work-item of the launch,
 * interleaved (the LMADs of the arrays in them say where a work-item's
 * elements are, in terms of SegInfo.tid and nthreads, which the kernel
 * binds) or sliced (a work-item's copy is contiguous, at its number times
 * the size of a copy). A kernel's body is lowered with a table of
 * variables of its own, the kernel's view of the same IR Vars. */
#include "gpu.h"

#include <string.h>

/* ---- Kernels -------------------------------------------------------------------- */

void kb_begin(ImpLower *L, Kb *kb, const char *name, const SegInfo *g) {
    memset(kb, 0, sizeof *kb);
    kb->k = imp_kernel(L->ip, name);
    kb->g = g;
    kb->vars = NEW_ARRAY(L->a, ImpVar *, L->p->next_var_id + 1);
}

/* The kernel's variable of IR Var v (its blocks are device blocks). */
static ImpVar *kb_var(ImpLower *L, Kb *kb, const Var *v) {
    if (!kb->vars[v->id]) kb->vars[v->id] = lw_new_var(L, v, IMP_SPACE_DEVICE);
    return kb->vars[v->id];
}

void kb_param(Kb *kb, ImpVar *p, ImpExp *arg) {
    vec_push(&kb->params, p);
    vec_push(&kb->args, arg);
}

ImpVar *kb_scalar(ImpLower *L, Kb *kb, const char *name, PrimType t, ImpExp *arg) {
    ImpVar *p = lw_fresh(L, name, IMP_SCALAR, t);
    kb_param(kb, p, arg);
    return p;
}

ImpVar *kb_block(ImpLower *L, Kb *kb, const char *name, ImpVar *mem) {
    ImpVar *p = imp_block(L->ip, name, IMP_SPACE_DEVICE);
    kb_param(kb, p, imp_read(L->a, mem));
    return p;
}

ImpVar *kb_local(ImpLower *L, Kb *kb, const char *name, PrimType t, ImpExp *count) {
    ImpVar *m = imp_block(L->ip, name, IMP_SPACE_LOCAL);
    ImpLocal l = {m, t, count};
    vec_push(&kb->locals, l);
    return m;
}

ImpVar **gl_locals(ImpLower *L, Kb *kb, const char *name, const PrimType *ts, int n, ImpExp *count) {
    ImpVar **ms = NEW_ARRAY(L->a, ImpVar *, n + 1);
    for (int j = 0; j < n; j++) ms[j] = kb_local(L, kb, arena_printf(L->a, "%s%d", name, j), ts[j], count);
    return ms;
}

void kb_enter(ImpLower *L, Kb *kb) {
    kb->host_vars = L->vars;
    kb->host_space = L->space;
    L->vars = kb->vars;
    L->space = IMP_SPACE_DEVICE;
    L->kernel = true;
    L->seq++;
    lw_enter(L, &kb->body);
}

void kb_leave(ImpLower *L, Kb *kb) {
    kb->k->body = lw_leave(L, &kb->body);
    L->vars = kb->host_vars;
    L->space = kb->host_space;
    L->kernel = false;
    L->seq--;
}

void kb_launch(ImpLower *L, Kb *kb, ImpExp *groups, ImpExp *size) {
    ImpKernel *k = kb->k;
    k->nparams = kb->params.len;
    k->params = vec_to_arena(L->a, &kb->params);
    k->nlocals = kb->locals.len;
    k->locals = vec_to_arena(L->a, &kb->locals);
    ImpStm *st = imp_add(L->b, IMP_LAUNCH);
    st->kernel = k;
    st->groups = groups;
    st->group_size = size;
    st->nargs = kb->args.len;
    st->args = vec_to_arena(L->a, &kb->args);
    vec_free(&kb->params);
    vec_free(&kb->args);
    vec_free(&kb->locals);
}

/* ---- Private blocks ---------------------------------------------------------------- */

static bool is_private(const SegInfo *g, int i) { return g->free[i]->type.kind == TK_MEM && g->private_mem[i]; }

void kb_free_vars(ImpLower *L, Kb *kb, ImpExp *nthreads, SrcLoc loc) {
    const SegInfo *g = kb->g;
    Arena *a = L->a;
    int n = g->nfree + 1;
    kb->priv_bytes = NEW_ARRAY(a, ImpVar *, n);
    kb->priv_copies = NEW_ARRAY(a, ImpVar *, n);
    kb->priv_base = NEW_ARRAY(a, ImpVar *, n);
    kb->priv_kbytes = NEW_ARRAY(a, ImpVar *, n);
    kb->priv_local = NEW_ARRAY(a, ImpVar *, n);
    for (int i = 0; i < g->nfree; i++) {
        Var *v = g->free[i];
        if (v->type.kind == TK_ARRAY || v == g->tid || v == g->nthreads) continue;
        if (!is_private(g, i)) {
            kb_param(kb, kb_var(L, kb, v), imp_read(a, lw_var(L, v)));
            continue;
        }
        ImpVar *bytes = kb->priv_bytes[i] = gl_let(L, "priv_bytes", PT_I64, imp_memsize(a, lw_var(L, v)));
        if (!nthreads) { /* one copy per work-group, in local memory (8-byte aligned) */
            ImpExp *words = gl_div_up(L, imp_read(a, bytes), gl_i64(L, 8)); /* at least one: OpenCL has no empty ones */
            kb->priv_local[i] = kb_local(L, kb, v->name, PT_I64, imp_op2(a, OP_MAX, PT_I64, words, gl_i64(L, 1)));
            continue;
        }
        /* nthreads copies of the block, one per work-item */
        ImpVar *m = kb->priv_copies[i] = imp_block(L->ip, "priv", IMP_SPACE_DEVICE);
        imp_decl(L->b, m, NULL);
        ImpStm *al = imp_add(L->b, IMP_ALLOC);
        al->mem = m;
        al->size = imp_op2(a, OP_SIZE_MUL, PT_I64, imp_read(a, bytes), nthreads);
        al->loc = loc;
        if (g->private_mem[i] == PRIV_INTERLEAVED) {
            kb_param(kb, kb_var(L, kb, v), imp_read(a, m));
            continue;
        }
        kb->priv_base[i] = kb_block(L, kb, arena_printf(a, "%s_base", v->name), m);
        kb->priv_kbytes[i] = kb_scalar(L, kb, arena_printf(a, "%s_bytes", v->name), PT_I64, imp_read(a, bytes));
    }
    if (g->nthreads) kb_param(kb, kb_var(L, kb, g->nthreads), nthreads);
}

void kb_release(ImpLower *L, Kb *kb) {
    for (int i = 0; i < kb->g->nfree; i++)
        if (kb->priv_copies[i]) imp_add(L->b, IMP_RELEASE)->mem = kb->priv_copies[i];
}

void kb_prologue(ImpLower *L, Kb *kb, Sym *tid) {
    const SegInfo *g = kb->g;
    if (g->tid) lw_declare(L, g->tid, imp_sym(L->a, tid));
    for (int i = 0; i < g->nfree; i++) {
        if (kb->priv_local[i]) {
            L->vars[g->free[i]->id] = lw_new_var(L, g->free[i], IMP_SPACE_LOCAL);
            lw_declare(L, g->free[i], imp_read(L->a, kb->priv_local[i]));
        }
        if (!kb->priv_base[i]) continue;
        ImpStm *d = imp_add(L->b, IMP_DECL);
        d->var = lw_var(L, g->free[i]);
        d->init = imp_read(L->a, kb->priv_base[i]);
        ImpExp *off = imp_sym(L->a, sym_mul(L->a, tid, gl_sym(L, kb->priv_kbytes[i])));
        if (off->kind != IX_CONST || off->c.v.i != 0) d->offset = off;
    }
}

/* ---- Small code ------------------------------------------------------------------------ */

ImpExp *gl_threshold(ImpLower *L, const char *name, int64_t dflt, ImpExp *p, const Threshold **made) {
    Threshold *t = ir_threshold(L->a, L->entry->name, name, L->nthresholds++, dflt, L->thr_parent, L->thr_branch);
    if (made) *made = t;
    return imp_threshold(L->a, t, p);
}

ImpVar *gl_let(ImpLower *L, const char *name, PrimType t, ImpExp *value) {
    ImpVar *v = lw_fresh(L, name, IMP_SCALAR, t);
    imp_decl(L->b, v, value);
    return v;
}

ImpVar **gl_lets(ImpLower *L, const char *name, const PrimType *ts, int n, ImpExp **init) {
    ImpVar **vs = NEW_ARRAY(L->a, ImpVar *, n + 1);
    for (int j = 0; j < n; j++) vs[j] = gl_let(L, arena_printf(L->a, "%s%d", name, j), ts[j], init ? init[j] : NULL);
    return vs;
}

Sym *gl_sym(ImpLower *L, const ImpVar *v) { return sym_var(L->a, v->id); }

ImpExp *gl_i64(ImpLower *L, int64_t c) { return imp_i64(L->a, c); }

/* e as a Sym when it is an i64 constant, variable or Sym, else NULL. */
static Sym *as_sym(ImpLower *L, const ImpExp *e) {
    if (imp_exp_type(e) != PT_I64) return NULL;
    switch (e->kind) {
    case IX_CONST: return sym_const(L->a, e->c.v.i);
    case IX_VAR: return gl_sym(L, e->var);
    case IX_SYM: return e->sym;
    default: return NULL;
    }
}

ImpExp *gl_op(ImpLower *L, Op op, ImpExp *x, ImpExp *y) {
    Sym *sx = as_sym(L, x), *sy = as_sym(L, y);
    if (sx && sy) switch (op) {
        case OP_ADD: return imp_sym(L->a, sym_add(L->a, sx, sy));
        case OP_SUB: return imp_sym(L->a, sym_sub(L->a, sx, sy));
        case OP_MUL: return imp_sym(L->a, sym_mul(L->a, sx, sy));
        case OP_DIV: return imp_sym(L->a, sym_div(L->a, sx, sy));
        case OP_MOD: return imp_sym(L->a, sym_sub(L->a, sx, sym_mul(L->a, sym_div(L->a, sx, sy), sy)));
        default: break;
        }
    return imp_op2(L->a, op, PT_I64, x, y);
}

ImpExp *gl_div_up(ImpLower *L, ImpExp *x, ImpExp *y) {
    return gl_op(L, OP_DIV, gl_op(L, OP_ADD, x, gl_op(L, OP_SUB, y, gl_i64(L, 1))), y);
}

ImpExp **gl_reads(ImpLower *L, ImpVar **vs, int n) {
    ImpExp **r = NEW_ARRAY(L->a, ImpExp *, n + 1);
    for (int j = 0; j < n; j++) r[j] = imp_read(L->a, vs[j]);
    return r;
}

ImpExp **gl_loads(ImpLower *L, ImpVar **mems, const PrimType *ts, int n, ImpExp *index) {
    ImpExp **r = NEW_ARRAY(L->a, ImpExp *, n + 1);
    for (int j = 0; j < n; j++) r[j] = imp_load(L->a, mems[j], ts[j], index);
    return r;
}

void gl_stores(ImpLower *L, ImpVar **mems, const PrimType *ts, int n, ImpExp *index, ImpExp **vals) {
    for (int j = 0; j < n; j++) imp_store(L->b, mems[j], ts[j], index, vals[j]);
}

ImpStm *gl_if(ImpLower *L, LwNest *n, ImpExp *cond) {
    ImpStm *st = imp_add(L->b, IMP_IF);
    st->cond = cond;
    lw_enter(L, n);
    return st;
}

ImpStm *gl_while(ImpLower *L, LwNest *n, ImpExp *cond) {
    ImpStm *w = imp_add(L->b, IMP_WHILE);
    w->cond = cond;
    lw_enter(L, n);
    return w;
}

ImpStm *gl_scope(ImpLower *L, LwNest *n) {
    ImpStm *st = imp_add(L->b, IMP_SCOPE);
    lw_enter(L, n);
    return st;
}

ImpStm *gl_region(ImpLower *L, LwNest *n) {
    ImpStm *st = gl_scope(L, n);
    st->keep = true;
    return st;
}

void gl_barrier(ImpLower *L) { imp_add(L->b, IMP_BARRIER); }

/* ---- Operators ------------------------------------------------------------------------------ */

PrimType *gl_op_types(ImpLower *L, const SegOp *ops, int nops, int *total) {
    int n = 0;
    for (int j = 0; j < nops; j++) n += ops[j].k;
    PrimType *ts = NEW_ARRAY(L->a, PrimType, n + 1);
    n = 0;
    for (int j = 0; j < nops; j++)
        for (int i = 0; i < ops[j].k; i++) ts[n++] = ops[j].op->params[i]->type.elem;
    *total = n;
    return ts;
}

ImpExp **gl_neutrals(ImpLower *L, const SegOp *ops, int nops, int nv) {
    ImpExp **r = NEW_ARRAY(L->a, ImpExp *, nv + 1);
    for (int j = 0, v = 0; j < nops; j++)
        for (int i = 0; i < ops[j].k; i++) r[v++] = lw_se(L, ops[j].neutral[i]);
    return r;
}

bool gl_commutative(const SegOp *ops, int n) {
    for (int i = 0; i < n; i++)
        if (!ops[i].commutative && !ir_segop_known_commutative(&ops[i])) return false;
    return true;
}

static void res_assign(ImpLower *L, const Body *b, void *ctx) {
    ImpVar **dst = ctx;
    for (int i = 0; i < b->nres; i++) imp_assign(L->b, dst[i], lw_se(L, b->res[i]));
}

void gl_apply(ImpLower *L, const SegOp *ops, int nops, ImpExp **xs, ImpExp **ys, ImpVar **dst) {
    for (int j = 0, v = 0; j < nops; v += ops[j++].k) {
        const SegOp *op = &ops[j];
        LwNest n;
        ImpStm *sc = gl_scope(L, &n);
        for (int i = 0; i < op->k; i++) {
            lw_declare(L, op->op->params[i], xs[v + i]);
            lw_declare(L, op->op->params[op->k + i], ys[v + i]);
        }
        lw_body(L, op->op->body, res_assign, dst + v, NULL, 0);
        sc->body = lw_leave(L, &n);
    }
}

/* ---- Group-wide pieces ------------------------------------------------------------------------ */

void gl_tree_step(ImpLower *L, const SegOp *ops, int nops, ImpVar **locs, const PrimType *ts, int nv, GlTree t,
                  ImpVar *s) {
    Arena *a = L->a;
    ImpExp *sv = imp_read(a, s);
    ImpExp *mask = gl_op(L, OP_SUB, gl_op(L, OP_MUL, gl_i64(L, 2), sv), gl_i64(L, 1));
    ImpExp *first = imp_op2(a, OP_EQ, PT_I64, gl_op(L, OP_AND, t.pos, mask), gl_i64(L, 0));
    ImpExp *inside = imp_op2(a, OP_LT, PT_I64, gl_op(L, OP_ADD, t.pos, sv), t.size);
    LwNest n;
    ImpStm *st = gl_if(L, &n, imp_op2(a, OP_LAND, PT_BOOL, first, inside));
    ImpVar **r = gl_lets(L, "r", ts, nv, NULL);
    gl_apply(L, ops, nops, gl_loads(L, locs, ts, nv, t.ix), gl_loads(L, locs, ts, nv, gl_op(L, OP_ADD, t.ix, sv)), r);
    gl_stores(L, locs, ts, nv, t.ix, gl_reads(L, r, nv));
    st->body = lw_leave(L, &n);
}

void gl_tree(ImpLower *L, const SegOp *ops, int nops, ImpVar **locs, const PrimType *ts, int nv, GlTree t) {
    gl_barrier(L);
    ImpVar *s = gl_let(L, "s", PT_I64, gl_i64(L, 1));
    LwNest n;
    ImpStm *w = gl_while(L, &n, imp_op2(L->a, OP_LT, PT_I64, imp_read(L->a, s), t.size));
    gl_tree_step(L, ops, nops, locs, ts, nv, t, s);
    gl_barrier(L);
    imp_assign(L->b, s, gl_op(L, OP_MUL, imp_read(L->a, s), gl_i64(L, 2)));
    w->body = lw_leave(L, &n);
}

ImpVar *gl_results(ImpLower *L, int n, SrcLoc loc) {
    ImpVar *res = imp_block(L->ip, "res", IMP_SPACE_DEVICE);
    imp_decl(L->b, res, NULL);
    ImpStm *al = imp_add(L->b, IMP_ALLOC);
    al->mem = res;
    al->size = gl_i64(L, 8 * (n > 0 ? n : 1));
    al->loc = loc;
    return res;
}

ImpExp *gl_result_slot(ImpLower *L, int k, PrimType t) { return gl_i64(L, 8 * k / prim_size(t)); }

ImpVar **gl_blocks(ImpLower *L, const char *name, const PrimType *ts, int n, ImpExp *count, SrcLoc loc) {
    ImpVar **ms = NEW_ARRAY(L->a, ImpVar *, n + 1);
    for (int j = 0; j < n; j++) {
        ms[j] = imp_block(L->ip, arena_printf(L->a, "%s%d", name, j), IMP_SPACE_DEVICE);
        imp_decl(L->b, ms[j], NULL);
        ImpStm *al = imp_add(L->b, IMP_ALLOC);
        al->mem = ms[j];
        al->size = imp_op2(L->a, OP_SIZE_MUL, PT_I64, count, gl_i64(L, prim_size(ts[j])));
        al->loc = loc;
    }
    return ms;
}

void gl_release(ImpLower *L, ImpVar **mems, int n) {
    for (int j = 0; j < n; j++) imp_add(L->b, IMP_RELEASE)->mem = mems[j];
}

/* ---- SegMap ------------------------------------------------------------------------- */

SubExp gl_level_width(const Stm *s) { return s->e->kind == IE_SCATTER ? s->e->scatter.w : s->e->screma.w; }

const Var *gl_level_iter(const Stm *s) { return s->e->kind == IE_SCATTER ? s->e->scatter.iter : s->e->screma.iter; }

Sym *gl_space(ImpLower *L, const SegInfo *g, int depth) {
    Sym *points = sym_const(L->a, 1);
    for (int l = 0; l < depth; l++) points = sym_mul(L->a, points, ir_se_sym(L->a, gl_level_width(g->levels[l])));
    return points;
}

void gl_level_iters(ImpLower *L, const SegInfo *g, int depth, Sym *x) {
    Arena *a = L->a;
    for (int l = depth - 1; l > 0; l--) {
        Sym *w = ir_se_sym(a, gl_level_width(g->levels[l]));
        Sym *q = gl_sym(L, gl_let(L, "q", PT_I64, imp_sym(a, sym_div(a, x, w))));
        lw_declare(L, gl_level_iter(g->levels[l]), imp_sym(a, sym_sub(a, x, sym_mul(a, q, w))));
        x = q;
    }
    lw_declare(L, gl_level_iter(g->levels[0]), imp_sym(a, x));
}

void gl_outer_levels(ImpLower *L, const SegInfo *g, int n) {
    for (int l = 0; l < n; l++) {
        const Screma *sc = &g->levels[l]->e->screma;
        lw_bind_rows(L, sc->map, sc->arrs, sc->iter);
        /* the code before the next level (views of its results may follow) */
        const Body *b = sc->map->body;
        for (int i = 0; i < b->nstms && b->stms[i] != g->levels[l + 1]; i++) lw_stm(L, b->stms[i]);
    }
}

/* One work-item per point of the nest's first depth levels, in groups of
 * the tuned size. */
void gl_seg_map(ImpLower *L, const Stm *s, int depth) {
    const SegInfo *g = s->e->seg;
    Arena *a = L->a;
    Kb kb;
    kb_begin(L, &kb, "segmap", g);
    ImpVar *n = gl_let(L, "n", PT_I64, imp_sym(a, gl_space(L, g, depth)));
    ImpVar *size = gl_let(L, "group_size", PT_I64, imp_tuning(a, kb.k, IMP_TUNE_GROUP_SIZE, NULL));
    ImpVar *groups = gl_let(L, "groups", PT_I64, gl_div_up(L, imp_read(a, n), imp_read(a, size)));
    ImpExp *nthreads = gl_op(L, OP_MUL, imp_read(a, groups), imp_read(a, size));
    kb_free_vars(L, &kb, nthreads, s->loc);
    ImpVar *kn = kb_scalar(L, &kb, "n", PT_I64, imp_read(a, n));

    kb_enter(L, &kb);
    ImpVar *gtid = gl_let(L, "gtid", PT_I64, imp_thread(a, IMP_GLOBAL_ID));
    LwNest in;
    ImpStm *guard = gl_if(L, &in, imp_op2(a, OP_LT, PT_I64, imp_read(a, gtid), imp_read(a, kn)));
    Sym *tid = gl_sym(L, gtid);
    kb_prologue(L, &kb, tid);
    gl_level_iters(L, g, depth, tid);
    gl_outer_levels(L, g, depth - 1);
    lw_map_iteration(L, g->levels[depth - 1]);
    guard->body = lw_leave(L, &in);
    kb_leave(L, &kb);

    kb_launch(L, &kb, imp_read(a, groups), imp_read(a, size));
    kb_release(L, &kb);
}

/* ---- SegSeq and SegHost --------------------------------------------------------------- */

/* One work-item runs the SOAC as loops; its scalar results go back to the
 * host through a small device block. */
static void seg_seq(ImpLower *L, const Stm *s) {
    const SegInfo *g = s->e->seg;
    Arena *a = L->a;
    Kb kb;
    kb_begin(L, &kb, "segseq", g);
    kb_free_vars(L, &kb, gl_i64(L, 1), s->loc);
    int nres = 0;
    for (int j = 0; j < s->npat; j++) nres += s->pat[j]->type.kind == TK_PRIM;
    ImpVar *res = NULL, *kres = NULL;
    if (nres) {
        res = gl_results(L, nres, s->loc);
        kres = kb_block(L, &kb, "res", res);
    }

    kb_enter(L, &kb);
    kb_prologue(L, &kb, sym_const(a, 0));
    lw_soac(L, s);
    for (int j = 0, k = 0; j < s->npat; j++) {
        const Var *v = s->pat[j];
        if (v->type.kind == TK_PRIM)
            imp_store(L->b, kres, v->type.elem, gl_result_slot(L, k++, v->type.elem), imp_read(a, lw_var(L, v)));
    }
    kb_leave(L, &kb);

    kb_launch(L, &kb, gl_i64(L, 1), gl_i64(L, 1));
    gl_read_results(L, s, res);
    kb_release(L, &kb);
}

void gl_read_results(ImpLower *L, const Stm *s, ImpVar *res) {
    for (int j = 0, k = 0; j < s->npat; j++) {
        const Var *v = s->pat[j];
        if (v->type.kind == TK_PRIM)
            lw_declare(L, v, imp_load(L->a, res, v->type.elem, gl_result_slot(L, k++, v->type.elem)));
    }
    if (res) imp_add(L->b, IMP_RELEASE)->mem = res;
}

/* The SOAC as loops in host code, its blocks lent to the host meanwhile
 * (the blocks it allocates are host blocks). */
static void seg_host(ImpLower *L, const Stm *s) {
    const SegInfo *g = s->e->seg;
    ImpVar **dev = NEW_ARRAY(L->a, ImpVar *, g->nfree + 1), **host = NEW_ARRAY(L->a, ImpVar *, g->nfree + 1);
    for (int i = 0; i < g->nfree; i++) {
        const Var *v = g->free[i];
        if (v->type.kind != TK_MEM) continue;
        dev[i] = lw_var(L, v);
        host[i] = imp_block(L->ip, "host", IMP_SPACE_HOST);
        ImpStm *m = imp_add(L->b, IMP_MAP);
        m->mem = host[i];
        m->src = dev[i];
        L->vars[v->id] = host[i];
    }
    ImpSpace space = L->space;
    L->space = IMP_SPACE_HOST;
    L->seq++;
    lw_soac(L, s);
    L->seq--;
    L->space = space;
    for (int i = 0; i < g->nfree; i++) {
        if (!dev[i]) continue;
        L->vars[g->free[i]->id] = dev[i];
        ImpStm *m = imp_add(L->b, IMP_UNMAP);
        m->mem = host[i];
        m->src = dev[i];
    }
}

void lw_seg(ImpLower *L, const Stm *s) {
    const SegInfo *g = s->e->seg;
    if (!g) ICE("imp_lower: a host-level SOAC without a SegInfo");
    switch (g->kind) {
    case SEG_MAP:
        if (g->tile && g->depth == 1) gl_seg_map_tile1(L, s);
        else if (g->tile) gl_seg_map_tiled(L, s);
        else gl_seg_map(L, s, g->depth);
        return;
    case SEG_SEQ: seg_seq(L, s); return;
    case SEG_HOST: seg_host(L, s); return;
    case SEG_RED: gl_seg_red(L, s); return;
    case SEG_SCAN: gl_seg_scan(L, s); return;
    case SEG_HIST: gl_seg_hist(L, s); return;
    case SEG_GROUP: gl_seg_group(L, s); return;
    }
}
