/* The lowering of the host-level SOACs of a program at STAGE_GPU (lower.h)
 * as their SegInfo (compiler/passes/kernels.c) says:
 *   SegMap   a kernel of one work-item per point of the flattened map
 *            nest, its level iterators from the work-item's number,
 *            innermost fastest;
 *   SegSeq   a kernel of one work-item that runs the SOAC as loops; its
 *            scalar results travel back through a small device block;
 *   SegHost  the SOAC as loops in host code over its blocks lent to the
 *            host (IMP_MAP): SOACs that allocate;
 *   SegRed, SegScan, SegHist and the block-tiled SegMap: IMP_LEGACY, which
 *            the OpenCL backend prints from the memory IR (issue 13, step
 *            2b lowers them).
 * A kernel's parameters are the statement's free variables (SegInfo.free):
 * scalars and blocks as they are, and blocks that every work-item needs a
 * copy of (SegInfo.private_mem: the memory pass hoisted their allocations
 * out of the SOAC) as new blocks of one copy per work-item of the launch,
 * interleaved (the LMADs of the arrays in them say where a work-item's
 * elements are, in terms of SegInfo.tid and nthreads, which the kernel
 * binds) or sliced (a work-item's copy is contiguous, at its number times
 * the size of a copy). A kernel's body is lowered with a table of
 * variables of its own, the kernel's view of the same IR Vars. */
#include "lower.h"

#include <string.h>

/* ---- Kernels -------------------------------------------------------------------- */

/* A kernel being built: its parameters with the host expressions that set
 * them, and while its body is lowered, the host's state. */
typedef struct Kb {
    ImpKernel *k;
    ImpVar **vars; /* the kernel's variables, by IR Var id */
    VEC(ImpVar *) params;
    VEC(ImpExp *) args;
    ImpVar **host_vars;
    ImpSpace host_space;
    LwNest body;
} Kb;

static void kb_begin(ImpLower *L, Kb *kb, const char *name) {
    memset(kb, 0, sizeof *kb);
    kb->k = imp_kernel(L->ip, name);
    kb->vars = NEW_ARRAY(L->a, ImpVar *, L->p->next_var_id + 1);
}

/* The kernel's variable of IR Var v (its blocks are device blocks). */
static ImpVar *kb_var(ImpLower *L, Kb *kb, const Var *v) {
    if (!kb->vars[v->id]) kb->vars[v->id] = lw_new_var(L, v, IMP_SPACE_DEVICE);
    return kb->vars[v->id];
}

/* Adds parameter p, which the launch sets to arg (a host expression). */
static void kb_param(Kb *kb, ImpVar *p, ImpExp *arg) {
    vec_push(&kb->params, p);
    vec_push(&kb->args, arg);
}

/* A new i64 parameter set to arg. */
static ImpVar *kb_i64(ImpLower *L, Kb *kb, const char *name, ImpExp *arg) {
    ImpVar *p = lw_fresh(L, name, IMP_SCALAR, PT_I64);
    kb_param(kb, p, arg);
    return p;
}

/* Makes the kernel's body the code being lowered. */
static void kb_enter(ImpLower *L, Kb *kb) {
    kb->host_vars = L->vars;
    kb->host_space = L->space;
    L->vars = kb->vars;
    L->space = IMP_SPACE_DEVICE;
    L->kernel = true;
    L->seq++;
    lw_enter(L, &kb->body);
}

static void kb_leave(ImpLower *L, Kb *kb) {
    kb->k->body = lw_leave(L, &kb->body);
    L->vars = kb->host_vars;
    L->space = kb->host_space;
    L->kernel = false;
    L->seq--;
}

/* Host: launches the kernel on groups work-groups of size work-items. */
static void kb_launch(ImpLower *L, Kb *kb, ImpExp *groups, ImpExp *size) {
    ImpKernel *k = kb->k;
    k->nparams = kb->params.len;
    k->params = vec_to_arena(L->a, &kb->params);
    ImpStm *st = imp_add(L->b, IMP_LAUNCH);
    st->kernel = k;
    st->groups = groups;
    st->group_size = size;
    st->nargs = kb->args.len;
    st->args = vec_to_arena(L->a, &kb->args);
    vec_free(&kb->params);
    vec_free(&kb->args);
}

/* Host: a new i64 variable set to value. */
static ImpVar *host_i64(ImpLower *L, const char *name, ImpExp *value) {
    ImpVar *v = lw_fresh(L, name, IMP_SCALAR, PT_I64);
    imp_decl(L->b, v, value);
    return v;
}

/* ---- Private blocks ---------------------------------------------------------------- */

/* By free variable of a SegInfo, for its private blocks: the size of one
 * copy and the block of all copies (host), and a sliced block's base and
 * copy size (kernel parameters). */
typedef struct Priv {
    ImpVar **bytes, **copies;
    ImpVar **base, **kbytes;
} Priv;

static bool is_private(const SegInfo *g, int i) { return g->free[i]->type.kind == TK_MEM && g->private_mem[i]; }

/* Host: the size of one copy of each private block (its block's size). */
static void priv_sizes(ImpLower *L, const SegInfo *g, Priv *pv) {
    int n = g->nfree + 1;
    pv->bytes = NEW_ARRAY(L->a, ImpVar *, n);
    pv->copies = NEW_ARRAY(L->a, ImpVar *, n);
    pv->base = NEW_ARRAY(L->a, ImpVar *, n);
    pv->kbytes = NEW_ARRAY(L->a, ImpVar *, n);
    for (int i = 0; i < g->nfree; i++)
        if (is_private(g, i)) pv->bytes[i] = host_i64(L, "priv_bytes", imp_memsize(L->a, lw_var(L, g->free[i])));
}

/* Host: nthreads copies of each private block (a failure reported at loc). */
static void priv_alloc(ImpLower *L, const SegInfo *g, Priv *pv, ImpExp *nthreads, SrcLoc loc) {
    for (int i = 0; i < g->nfree; i++) {
        if (!is_private(g, i)) continue;
        ImpVar *m = pv->copies[i] = imp_block(L->ip, "priv", IMP_SPACE_DEVICE);
        imp_decl(L->b, m, NULL);
        ImpStm *al = imp_add(L->b, IMP_ALLOC);
        al->mem = m;
        al->size = imp_op2(L->a, OP_SIZE_MUL, PT_I64, imp_read(L->a, pv->bytes[i]), nthreads);
        al->loc = loc;
    }
}

static void priv_release(ImpLower *L, const SegInfo *g, const Priv *pv) {
    for (int i = 0; i < g->nfree; i++)
        if (pv->copies[i]) imp_add(L->b, IMP_RELEASE)->mem = pv->copies[i];
}

/* The free variables of g as parameters of kb (a private block: its
 * copies, and a sliced one's size of a copy), then SegInfo.nthreads set
 * to nthreads when the statement has interleaved blocks. */
static void free_params(ImpLower *L, Kb *kb, const SegInfo *g, Priv *pv, ImpExp *nthreads) {
    for (int i = 0; i < g->nfree; i++) {
        Var *v = g->free[i];
        if (v->type.kind == TK_ARRAY || v == g->tid || v == g->nthreads) continue;
        if (!is_private(g, i)) {
            kb_param(kb, kb_var(L, kb, v), imp_read(L->a, lw_var(L, v)));
            continue;
        }
        ImpExp *copies = imp_read(L->a, pv->copies[i]);
        if (g->private_mem[i] == PRIV_INTERLEAVED) {
            kb_param(kb, kb_var(L, kb, v), copies);
            continue;
        }
        pv->base[i] = imp_block(L->ip, arena_printf(L->a, "%s_base", v->name), IMP_SPACE_DEVICE);
        kb_param(kb, pv->base[i], copies);
        pv->kbytes[i] = kb_i64(L, kb, arena_printf(L->a, "%s_bytes", v->name), imp_read(L->a, pv->bytes[i]));
    }
    if (g->nthreads) kb_param(kb, kb_var(L, kb, g->nthreads), nthreads);
}

/* Kernel: binds SegInfo.tid to the work-item's number tid, and each sliced
 * private block to the work-item's copy. */
static void prologue(ImpLower *L, const SegInfo *g, const Priv *pv, Sym *tid) {
    if (g->tid) lw_declare(L, g->tid, imp_sym(L->a, tid));
    for (int i = 0; i < g->nfree; i++) {
        if (!pv->base[i]) continue;
        ImpStm *d = imp_add(L->b, IMP_DECL);
        d->var = lw_var(L, g->free[i]);
        d->init = imp_read(L->a, pv->base[i]);
        ImpExp *off = imp_sym(L->a, sym_mul(L->a, tid, sym_var(L->a, pv->kbytes[i]->id)));
        if (off->kind != IX_CONST || off->c.v.i != 0) d->offset = off;
    }
}

/* ---- SegMap ------------------------------------------------------------------------- */

static SubExp level_width(const Stm *s) { return s->e->kind == IE_SCATTER ? s->e->scatter.w : s->e->screma.w; }

static const Var *level_iter(const Stm *s) {
    return s->e->kind == IE_SCATTER ? s->e->scatter.iter : s->e->screma.iter;
}

/* Kernel: the iterators of g's levels from the flat index x (a Sym),
 * innermost fastest. */
static void level_iters(ImpLower *L, const SegInfo *g, Sym *x) {
    Arena *a = L->a;
    for (int l = g->depth - 1; l > 0; l--) {
        Sym *w = ir_se_sym(a, level_width(g->levels[l]));
        ImpVar *q = lw_fresh(L, "q", IMP_SCALAR, PT_I64);
        imp_decl(L->b, q, imp_sym(a, sym_div(a, x, w)));
        Sym *qs = sym_var(a, q->id);
        lw_declare(L, level_iter(g->levels[l]), imp_sym(a, sym_sub(a, x, sym_mul(a, qs, w))));
        x = qs;
    }
    lw_declare(L, level_iter(g->levels[0]), imp_sym(a, x));
}

/* Kernel: the outer levels of g around the innermost: each binds its rows
 * and runs its code before the next level (its last statement). */
static void outer_levels(ImpLower *L, const SegInfo *g) {
    for (int l = 0; l + 1 < g->depth; l++) {
        const Screma *sc = &g->levels[l]->e->screma;
        lw_bind_rows(L, sc->map, sc->arrs, sc->iter);
        for (int i = 0; i + 1 < sc->map->body->nstms; i++) lw_stm(L, sc->map->body->stms[i]);
    }
}

/* One work-item per point of the nest, in groups of the tuned size. */
static void seg_map(ImpLower *L, const Stm *s) {
    const SegInfo *g = s->e->seg;
    Arena *a = L->a;
    Kb kb;
    kb_begin(L, &kb, "segmap");
    Priv pv;
    priv_sizes(L, g, &pv);
    Sym *points = sym_const(a, 1);
    for (int l = 0; l < g->depth; l++) points = sym_mul(a, points, ir_se_sym(a, level_width(g->levels[l])));
    ImpVar *n = host_i64(L, "n", imp_sym(a, points));
    ImpVar *size = host_i64(L, "group_size", imp_tuning(a, kb.k, IMP_TUNE_GROUP_SIZE));
    Sym *gs = sym_var(a, size->id);
    Sym *round_up = sym_add(a, sym_var(a, n->id), sym_sub(a, gs, sym_const(a, 1)));
    ImpVar *groups = host_i64(L, "groups", imp_sym(a, sym_div(a, round_up, gs)));
    ImpExp *nthreads = imp_sym(a, sym_mul(a, sym_var(a, groups->id), gs));
    priv_alloc(L, g, &pv, nthreads, s->loc);
    free_params(L, &kb, g, &pv, nthreads);
    ImpVar *kn = kb_i64(L, &kb, "n", imp_read(a, n));

    kb_enter(L, &kb);
    ImpVar *gtid = lw_fresh(L, "gtid", IMP_SCALAR, PT_I64);
    imp_decl(L->b, gtid, imp_thread(a, IMP_GLOBAL_ID));
    ImpStm *guard = imp_add(L->b, IMP_IF);
    guard->cond = imp_op2(a, OP_LT, PT_I64, imp_read(a, gtid), imp_read(a, kn));
    LwNest in;
    lw_enter(L, &in);
    Sym *tid = sym_var(a, gtid->id);
    prologue(L, g, &pv, tid);
    level_iters(L, g, tid);
    outer_levels(L, g);
    lw_map_iteration(L, g->levels[g->depth - 1]);
    guard->body = lw_leave(L, &in);
    kb_leave(L, &kb);

    kb_launch(L, &kb, imp_read(a, groups), imp_read(a, size));
    priv_release(L, g, &pv);
}

/* ---- SegSeq and SegHost --------------------------------------------------------------- */

/* Where scalar result k of a SegSeq travels: 8 bytes each, as an element
 * of type t. */
static ImpExp *result_slot(Arena *a, int k, PrimType t) { return imp_i64(a, 8 * k / prim_size(t)); }

/* One work-item runs the SOAC as loops; its scalar results go back to the
 * host through the device block res. */
static void seg_seq(ImpLower *L, const Stm *s) {
    const SegInfo *g = s->e->seg;
    Arena *a = L->a;
    Kb kb;
    kb_begin(L, &kb, "segseq");
    Priv pv;
    priv_sizes(L, g, &pv);
    priv_alloc(L, g, &pv, imp_i64(a, 1), s->loc);
    free_params(L, &kb, g, &pv, imp_i64(a, 1));
    int nres = 0;
    for (int j = 0; j < s->npat; j++) nres += s->pat[j]->type.kind == TK_PRIM;
    ImpVar *res = NULL, *kres = NULL;
    if (nres) {
        res = imp_block(L->ip, "res", IMP_SPACE_DEVICE);
        imp_decl(L->b, res, NULL);
        ImpStm *al = imp_add(L->b, IMP_ALLOC);
        al->mem = res;
        al->size = imp_i64(a, 8 * nres);
        al->loc = s->loc;
        kres = imp_block(L->ip, "res", IMP_SPACE_DEVICE);
        kb_param(&kb, kres, imp_read(a, res));
    }

    kb_enter(L, &kb);
    prologue(L, g, &pv, sym_const(a, 0));
    lw_soac(L, s);
    for (int j = 0, k = 0; j < s->npat; j++) {
        const Var *v = s->pat[j];
        if (v->type.kind == TK_PRIM)
            imp_store(L->b, kres, v->type.elem, result_slot(a, k++, v->type.elem), imp_read(a, lw_var(L, v)));
    }
    kb_leave(L, &kb);

    kb_launch(L, &kb, imp_i64(a, 1), imp_i64(a, 1));
    for (int j = 0, k = 0; j < s->npat; j++) {
        const Var *v = s->pat[j];
        if (v->type.kind == TK_PRIM) lw_declare(L, v, imp_load(a, res, v->type.elem, result_slot(a, k++, v->type.elem)));
    }
    if (res) imp_add(L->b, IMP_RELEASE)->mem = res;
    priv_release(L, g, &pv);
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

/* ---- Not lowered yet ----------------------------------------------------------------- */

/* s for the OpenCL backend's emitter of the memory IR (IMP_LEGACY): its
 * free variables (for the checker) and the scalars it binds. */
static void legacy(ImpLower *L, const Stm *s) {
    const SegInfo *g = s->e->seg;
    ImpStm *st = imp_add(L->b, IMP_LEGACY);
    st->legacy = s;
    st->args = NEW_ARRAY(L->a, ImpExp *, g->nfree + 1);
    for (int i = 0; i < g->nfree; i++) {
        Var *v = g->free[i];
        if (v->type.kind != TK_ARRAY && v != g->tid && v != g->nthreads)
            st->args[st->nargs++] = imp_read(L->a, lw_var(L, v));
    }
    st->results = NEW_ARRAY(L->a, ImpVar *, s->npat + 1);
    for (int j = 0; j < s->npat; j++)
        if (s->pat[j]->type.kind == TK_PRIM) st->results[st->nresults++] = lw_var(L, s->pat[j]);
}

void lw_seg(ImpLower *L, const Stm *s) {
    const SegInfo *g = s->e->seg;
    if (!g) ICE("imp_lower: a host-level SOAC without a SegInfo");
    switch (g->kind) {
    case SEG_MAP:
        if (g->tile) legacy(L, s);
        else seg_map(L, s);
        return;
    case SEG_SEQ: seg_seq(L, s); return;
    case SEG_HOST: seg_host(L, s); return;
    case SEG_RED:
    case SEG_SCAN:
    case SEG_HIST: legacy(L, s); return;
    }
}
