/* Multicore: the host-level SOACs of an entry point as parallel loops
 * (IMP_PARFOR) over chunks of their iterations, for the LLVM backend.
 *
 * A SOAC of w iterations becomes ntasks tasks of chunk consecutive
 * iterations each, a few tasks per thread (MC_TASKS_PER_THREAD) so that
 * the runtime's dynamic assignment evens out uneven work. A task runs the
 * iterations of its chunk as the sequential lowering does (soac.c), SOACs
 * nested in them included; the blocks that the memory pass hoisted out of
 * the SOAC's lambdas for each element to use by itself (per-element
 * allocations) are allocated again by each task, which then owns them.
 *
 * - A map (the map outputs of a Screma) and a Scatter need nothing more:
 *   their tasks write disjoint elements (a Scatter's duplicate indices
 *   write in an unspecified order, as Futhark allows). A map whose
 *   elements reduce rows of varying length leaves its long rows to tasks
 *   that split them (par_rows).
 * - A reduction keeps a task's accumulators in scalars and stores them in
 *   the task's element of a block of partial results; after the loop the
 *   partials are combined in task order, so that an operator need only
 *   be associative.
 * - A scan is one parallel loop over chunks small enough to stay in a
 *   core's cache (MC_SCAN_CHUNK), whose tasks pass running totals on in
 *   the order the runtime starts them (chain_in): each task but the last
 *   reduces its chunk's scan inputs (its map body, run for that) and
 *   publishes that fold (IMP_SIGNAL); it then folds the published values
 *   of the tasks before it until it meets a running total (IMP_AWAIT),
 *   publishes its own, and runs its chunk again from the total before
 *   it, writing the scan's outputs, and the map outputs and reductions as
 *   above. The input is read from memory once, and no task waits for all
 *   the others. On one thread it is one task, one pass.
 * - A histogram gives each task a private copy of the buckets, filled
 *   with the neutral element (a task per thread, up to
 *   MC_TASKS_PER_THREAD where the copies are cheap against the elements'
 *   updates, so that a late thread's task goes to another); after the
 *   loop a second parallel loop, over the buckets, combines the copies
 *   into the destination in task order.
 *   Where the copies would take too much memory, fewer tasks share the
 *   work (MC_HIST_ELEMS); a histogram of few buckets gets several copies a
 *   task, which consecutive elements update in turn (their operator is
 *   commutative, as Futhark requires of histograms), four at a time with
 *   their copies as constants where the function is short. Buckets that
 *   are rows combined by an elementwise operator (hist (map2 (+))) are
 *   rows of the task's copy. On one thread it is the sequential loop.
 * Other SOACs whose operators take arrays run sequentially.
 *
 * A map's task stores its outputs by streaming stores (ImpStm.stream)
 * when the map stores MC_STREAM_BYTES or more in all: they would not
 * stay in the cache anyway, and a store that misses it otherwise reads
 * the line from memory first (a third more traffic for a map of two
 * inputs, half as much again for a scan). Only a short loop without
 * loops of its own (MC_STREAM_STMS), whose time goes into memory traffic
 * rather than arithmetic, and only stores into blocks made outside the
 * task that the loop does not read nor pass on; the map runs a copy of
 * its parallel loop with ordinary stores when it stores less. */
#include <stdlib.h>

#include "lower.h"

/* Bytes a map's parallel loop stores from which its stores stream. */
#define MC_STREAM_BYTES ((int64_t)32 << 20)
/* The most statements of a task's loop whose stores stream. */
#define MC_STREAM_STMS 64
/* Iterations of a scan's task, at most (unless a thread would get no
 * task): its inputs stay in the cache between its two passes. */
#define MC_SCAN_CHUNK 16384
/* Tasks per thread of a parallel loop. */
#define MC_TASKS_PER_THREAD 8
/* The fewest iterations of a task (unless the loop has fewer): enough
 * for vector code's lanes, and to make a task worth handing out. */
#define MC_MIN_CHUNK 32
/* The most elements the private buckets of a histogram's tasks take. */
#define MC_HIST_ELEMS (1 << 25)
/* Histograms of at most MC_HIST_FEW buckets keep 2^MC_HIST_LOG_COPIES
 * copies of them a task. */
#define MC_HIST_FEW 4096
#define MC_HIST_LOG_COPIES 2
/* Elements between two tasks' buckets (64 bytes at least), so that no
 * cache line holds buckets of two tasks, wherever the block starts. */
#define MC_HIST_PAD 64
/* A histogram gets more tasks than threads only while filling and
 * combining their copies costs at most 1 / MC_HIST_SETUP_SHARE of the
 * elements' updates. */
#define MC_HIST_SETUP_SHARE 8

/* ---- Chunks and tasks ---- */

static ImpExp *op2(ImpLower *L, Op op, ImpExp *x, ImpExp *y) { return imp_op2(L->a, op, PT_I64, x, y); }
static ImpExp *rd(ImpLower *L, ImpVar *v) { return imp_read(L->a, v); }

/* A fresh i64 variable declared to e. */
static ImpVar *let(ImpLower *L, const char *name, ImpExp *e) {
    ImpVar *v = lw_fresh(L, name, IMP_SCALAR, PT_I64);
    imp_decl(L->b, v, e);
    return v;
}

/* How the w iterations of a SOAC are split. */
typedef struct Chunks {
    ImpVar *w, *chunk, *ntasks;
} Chunks;

/* At most max_tasks tasks (NULL: MC_TASKS_PER_THREAD per thread) of
 * MC_MIN_CHUNK iterations or more, none empty but when w is 0 (then one):
 * chunk = ceil(w / tasks), ntasks = ceil(w / chunk). */
static Chunks chunks(ImpLower *L, ImpExp *w, ImpExp *max_tasks) {
    Chunks c;
    c.w = let(L, "w", w);
    ImpExp *most = max_tasks ? max_tasks : op2(L, OP_MUL, imp_num_threads(L->a), imp_i64(L->a, MC_TASKS_PER_THREAD));
    ImpExp *by_size = op2(L, OP_DIV, rd(L, c.w), imp_i64(L->a, MC_MIN_CHUNK));
    ImpVar *tasks = let(L, "tasks", op2(L, OP_MAX, op2(L, OP_MIN, by_size, most), imp_i64(L->a, 1)));
    ImpExp *up = op2(L, OP_SUB, op2(L, OP_ADD, rd(L, c.w), rd(L, tasks)), imp_i64(L->a, 1));
    c.chunk = let(L, "chunk", op2(L, OP_MAX, op2(L, OP_DIV, up, rd(L, tasks)), imp_i64(L->a, 1)));
    ImpExp *up2 = op2(L, OP_SUB, op2(L, OP_ADD, rd(L, c.w), rd(L, c.chunk)), imp_i64(L->a, 1));
    c.ntasks = let(L, "ntasks", op2(L, OP_MAX, op2(L, OP_DIV, up2, rd(L, c.chunk)), imp_i64(L->a, 1)));
    return c;
}

/* A block of n elements of type t, allocated at loc (released by the caller). */
static ImpVar *alloc_block(ImpLower *L, const char *name, ImpExp *n, PrimType t, SrcLoc loc) {
    ImpVar *m = imp_block(L->ip, name, IMP_SPACE_HOST);
    imp_decl(L->b, m, NULL);
    ImpStm *st = imp_add(L->b, IMP_ALLOC);
    st->mem = m;
    st->size = op2(L, OP_SIZE_MUL, n, imp_i64(L->a, prim_size(t)));
    st->loc = loc;
    return m;
}

static void release(ImpLower *L, ImpVar *m) { imp_add(L->b, IMP_RELEASE)->mem = m; }

/* The blocks of per-element allocations (lw_alloc recorded them) that
 * statement s uses for arrays of its own: those of arrays bound inside s,
 * its temporaries, which each task gets a copy of. A block that also holds
 * an array s reads from outside (a scan's accumulator, made before s) or
 * one s binds (its result) stays shared: a task's copy would hold garbage,
 * or its writes would be lost. */
typedef struct Private {
    ImpLower *L;
    char *seen, *bound, *shared; /* by Var id */
    VEC(const Stm *) allocs;
} Private;

/* Block m, if per-element, becomes a candidate. */
static void private_check(Private *pv, const Var *m) {
    if (!m || m->type.kind != TK_MEM || pv->seen[m->id] || pv->bound[m->id]) return;
    pv->seen[m->id] = 1;
    const Stm *al = pv->L->alloc_of[m->id];
    if (al && al->e->per_iter) vec_push(&pv->allocs, al);
}

/* The block of array v stays shared. (A use of a block variable itself
 * shares nothing: a hoisted per-element allocation is bound outside the
 * statements that use it, and such a use, the initial block of a loop
 * that double-buffers, makes it a candidate.) */
static void private_share(Private *pv, const Var *v) {
    if (v->mem) pv->shared[v->mem->mem->id] = 1;
}

static void private_use(IrWalk *w, Var *v) {
    Private *pv = w->ctx;
    if (v->type.kind == TK_MEM) private_check(pv, v); /* a loop's spare block, say */
    else if (!pv->bound[v->id]) private_share(pv, v); /* an array made outside s */
}

static void private_bind(IrWalk *w, Var *v) {
    Private *pv = w->ctx;
    pv->bound[v->id] = 1;
    if (v->mem) private_check(pv, v->mem->mem);
}

/* A task's parallel loop over c (over its first ntasks tasks when not
 * NULL), its body opened: the task's first iteration start and count n,
 * and its own copies of the per-element blocks that SOAC s (or NULL)
 * uses (allocated here; the old variables are kept in *saved). */
typedef struct Task {
    LwNest nest;
    ImpStm *loop;
    ImpVar *start, *n;
    Private priv;
    ImpVar **saved;
} Task;

/* The per-element blocks that s uses for its own arrays, in pv (made here). */
static void private_blocks(ImpLower *L, const Stm *s, Private *pv) {
    size_t nv = (size_t)L->p->next_var_id + 1;
    *pv = (Private){L, arena_alloc(L->a, nv), arena_alloc(L->a, nv), arena_alloc(L->a, nv), {0}};
    IrWalk w = {private_bind, private_use, NULL, pv};
    if (!s) return;
    ir_walk_stm(&w, (Stm *)s);
    for (int i = 0; i < s->npat; i++) private_share(pv, s->pat[i]);
    int k = 0;
    for (int i = 0; i < pv->allocs.len; i++)
        if (!pv->shared[pv->allocs.items[i]->pat[0]->id]) pv->allocs.items[k++] = pv->allocs.items[i];
    pv->allocs.len = k;
}

bool lw_uses_private(ImpLower *L, const Stm *s) {
    Private pv;
    private_blocks(L, s, &pv);
    bool any = pv.allocs.len > 0;
    vec_free(&pv.allocs);
    return any;
}

static void task_open(ImpLower *L, Task *t, const Chunks *c, const Stm *s, const char *kind, ImpExp *ntasks) {
    t->loop = imp_add(L->b, IMP_PARFOR);
    t->loop->var = lw_fresh(L, "task", IMP_SCALAR, PT_I64);
    t->loop->bound = ntasks ? ntasks : rd(L, c->ntasks);
    lw_enter(L, &t->nest);
    t->start = let(L, "start", op2(L, OP_MUL, rd(L, t->loop->var), rd(L, c->chunk)));
    t->n = let(L, "n", op2(L, OP_MIN, rd(L, c->chunk), op2(L, OP_SUB, rd(L, c->w), rd(L, t->start))));
    private_blocks(L, s, &t->priv);
    t->saved = NEW_ARRAY(L->a, ImpVar *, t->priv.allocs.len + 1);
    for (int i = 0; i < t->priv.allocs.len; i++) {
        const Stm *al = t->priv.allocs.items[i];
        const Var *m = al->pat[0];
        t->saved[i] = lw_var(L, m);
        ImpVar *own = imp_block(L->ip, arena_printf(L->a, "%s_%s", m->name, kind), IMP_SPACE_HOST);
        imp_decl(L->b, own, NULL);
        ImpStm *st = imp_add(L->b, IMP_ALLOC);
        st->mem = own;
        st->size = lw_se(L, al->e->size);
        st->loc = al->loc;
        L->vars[m->id] = own;
    }
    L->seq++;
}

/* Opens `for j < n` over the task's iterations, binding iter to start + j;
 * vector: they are independent (a map's, a scatter's), and use no blocks
 * of the task's own, which they would share. */
static ImpStm *task_iterations(ImpLower *L, Task *t, LwNest *n, const Var *iter, bool vector) {
    ImpStm *f = lw_for(L, n, lw_fresh(L, "j", IMP_SCALAR, PT_I64), rd(L, t->n));
    f->vector = vector && t->priv.allocs.len == 0; /* lanes would share the task's blocks */
    imp_decl(L->b, lw_var(L, iter), op2(L, OP_ADD, rd(L, t->start), rd(L, f->var)));
    return f;
}

static void task_close(ImpLower *L, Task *t) {
    L->seq--;
    for (int i = 0; i < t->priv.allocs.len; i++) {
        const Var *m = t->priv.allocs.items[i]->pat[0];
        release(L, L->vars[m->id]);
        L->vars[m->id] = t->saved[i];
    }
    vec_free(&t->priv.allocs);
    t->loop->body = lw_leave(L, &t->nest);
}

/* ---- Screma ---- */

/* Whether every operator of ops keeps its accumulators in scalars. */
static bool scalar_ops(const SegOp *ops, int n) {
    for (int j = 0; j < n; j++)
        for (int k = 0; k < ops[j].k; k++)
            if (ops[j].op->params[k]->type.kind == TK_ARRAY) return false;
    return true;
}

static int acc_count(const SegOp *ops, int n) {
    int c = 0;
    for (int j = 0; j < n; j++) c += ops[j].k;
    return c;
}

/* The element type of accumulator k of ops. */
static PrimType acc_type(const SegOp *ops, int n, int k) {
    for (int j = 0; j < n; j++) {
        if (k < ops[j].k) return subexp_type(ops[j].neutral[k]).elem;
        k -= ops[j].k;
    }
    ICE("imp_lower: no accumulator %d", k);
}

/* Stores the accumulators accs of ops into element task of parts. */
static void store_accs(ImpLower *L, const SegOp *ops, int nops, const Acc *accs, ImpVar **parts, ImpVar *task) {
    for (int k = 0; k < acc_count(ops, nops); k++)
        imp_store(L->b, parts[k], acc_type(ops, nops, k), rd(L, task), imp_read(L->a, accs[k].var));
}

/* Blocks of ntasks partial results, one per accumulator of ops. */
static ImpVar **partials(ImpLower *L, const SegOp *ops, int nops, const Chunks *c, SrcLoc loc) {
    int n = acc_count(ops, nops);
    ImpVar **parts = NEW_ARRAY(L->a, ImpVar *, n + 1);
    for (int k = 0; k < n; k++) parts[k] = alloc_block(L, "partial", rd(L, c->ntasks), acc_type(ops, nops, k), loc);
    return parts;
}

/* Folds the values vals (one per accumulator) into accs by the operators
 * ops, in order: acc = op(acc, val). */
static void fold_values(ImpLower *L, const SegOp *ops, int nops, const Acc *accs, ImpExp **vals) {
    for (int j = 0, pos = 0; j < nops; pos += ops[j].k, j++) lw_segop(L, &ops[j], accs + pos, NULL, vals + pos);
}

/* Loads element i of the blocks parts, one per accumulator of ops, into
 * fresh variables; their values. */
static ImpExp **load_parts(ImpLower *L, const SegOp *ops, int nops, ImpVar **parts, ImpExp *i) {
    int n = acc_count(ops, nops);
    ImpExp **vals = NEW_ARRAY(L->a, ImpExp *, n + 1);
    for (int k = 0; k < n; k++) {
        PrimType t = acc_type(ops, nops, k);
        ImpVar *v = lw_fresh(L, "part", IMP_SCALAR, t);
        imp_decl(L->b, v, imp_load(L->a, parts[k], t, i));
        vals[k] = rd(L, v);
    }
    return vals;
}

/* Folds the partials of ops, task by task, into accs. */
static void fold_partials(ImpLower *L, const SegOp *ops, int nops, const Acc *accs, ImpVar **parts, const Chunks *c) {
    LwNest n;
    ImpStm *f = lw_for(L, &n, lw_fresh(L, "t", IMP_SCALAR, PT_I64), rd(L, c->ntasks));
    fold_values(L, ops, nops, accs, load_parts(L, ops, nops, parts, rd(L, f->var)));
    f->body = lw_leave(L, &n);
}

/* The scan inputs of the map body, reduced by the scan operators (an
 * LwResFn; ctx the ScremaCtx). */
static void res_scan_inputs(ImpLower *L, const Body *b, void *ctx) {
    const ScremaCtx *x = ctx;
    const Screma *sc = &x->s->e->screma;
    int pos = 0;
    for (int j = 0; j < sc->nscans; j++) {
        lw_segop(L, &sc->scans[j], x->scan_accs + pos, b->res + pos, NULL);
        pos += sc->scans[j].k;
    }
}

/* Streaming stores (see the top of this file): the blocks (by id) that a
 * parallel loop reads, passes on or makes itself (its tasks' own blocks
 * among them). */
typedef struct Streams {
    char *busy;
    int64_t bytes; /* stored by streaming stores in an iteration, at most */
} Streams;

static void busy_block(int id, void *ctx) { ((Streams *)ctx)->busy[id] = 1; }

/* Makes the stores of c into blocks not busy streaming ones. */
static void mark_streams(Streams *st, const ImpCode *c) {
    for (int i = 0; i < c->n; i++) {
        ImpStm *s = c->stms[i];
        if (s->kind == IMP_STORE && !st->busy[s->mem->id]) {
            s->stream = true;
            st->bytes += prim_size(s->t);
        }
        mark_streams(st, &s->body);
        mark_streams(st, &s->orelse);
    }
}

/* Whether c runs no loops and at most MC_STREAM_STMS statements: a loop
 * whose time goes into memory traffic, not arithmetic. */
static bool short_code(const ImpCode *c, int *left) {
    for (int i = 0; i < c->n; i++) {
        const ImpStm *s = c->stms[i];
        if (--*left < 0 || s->kind == IMP_FOR || s->kind == IMP_WHILE) return false;
        if (!short_code(&s->body, left) || !short_code(&s->orelse, left)) return false;
    }
    return true;
}

/* A scan's running totals, which its tasks pass on in task order by a
 * decoupled look-back: task t publishes the fold of its own chunk's scan
 * inputs as element t of aggs[k] (one block per accumulator) with flag 1,
 * then the fold of all chunks up to its own as element t of incs[k] with
 * flag 2 (element t of flags). */
typedef struct Chain {
    ImpVar **aggs, **incs, *flags;
} Chain;

static ImpStm *if_open(ImpLower *L, LwNest *n, ImpExp *cond) {
    ImpStm *s = imp_add(L->b, IMP_IF);
    s->cond = cond;
    lw_enter(L, n);
    return s;
}

/* Fresh variables set to the values vals, as accumulators. */
static Acc *acc_copies(ImpLower *L, const SegOp *ops, int nops, ImpExp **vals, const char *name) {
    int n = acc_count(ops, nops);
    Acc *accs = NEW_ARRAY(L->a, Acc, n + 1);
    for (int k = 0; k < n; k++) {
        accs[k].var = lw_fresh(L, name, IMP_SCALAR, acc_type(ops, nops, k));
        imp_decl(L->b, accs[k].var, vals[k]);
    }
    return accs;
}

static ImpExp **acc_reads(ImpLower *L, const Acc *accs, int n) {
    ImpExp **vals = NEW_ARRAY(L->a, ImpExp *, n + 1);
    for (int k = 0; k < n; k++) vals[k] = rd(L, accs[k].var);
    return vals;
}

/* Publishes the values of accs as element task of the blocks parts with
 * flag value. */
static void publish(ImpLower *L, const SegOp *ops, int nops, const Acc *accs, ImpVar **parts, ImpVar *flags,
                    ImpVar *task, int value) {
    store_accs(L, ops, nops, accs, parts, task);
    ImpStm *sg = imp_add(L->b, IMP_SIGNAL);
    sg->mem = flags;
    sg->index = rd(L, task);
    sg->value = imp_const(L->a, prim_int(PT_I32, value));
}

/* The start of a scan's task t: unless t is the last, it reduces its
 * chunk's scan inputs (the map body, run for them alone) and publishes
 * that fold; it then looks back, from task t - 1 down, folding the
 * published folds of chunks until it meets a running total, and
 * publishes its own. Returns the scan's accumulators set to the running
 * total before its chunk, from which the task's pass over the chunk
 * starts. A task waits only for tasks before it to publish their own
 * chunk's fold, which they do as soon as they have reduced it, not for
 * the running totals to travel along all tasks before it. */
static Acc *chain_in(ImpLower *L, const Stm *s, Task *t, const Chunks *c, const Chain *ch) {
    const Screma *sc = &s->e->screma;
    const SegOp *ops = sc->scans;
    int nops = sc->nscans, nacc = acc_count(ops, nops);
    ImpVar *task = t->loop->var;
    ImpExp *last = op2(L, OP_SUB, rd(L, c->ntasks), imp_i64(L->a, 1));
    ScremaCtx x = {s, lw_declare_accs(L, ops, nops, NULL, true), NULL, NULL};
    LwNest n, m;
    ImpStm *own = if_open(L, &n, imp_op2(L->a, OP_LT, PT_I64, rd(L, task), last));
    ImpStm *f = task_iterations(L, t, &m, sc->iter, false);
    lw_bind_rows(L, sc->map, sc->arrs, sc->iter);
    lw_body(L, sc->map->body, res_scan_inputs, &x, NULL, 0);
    f->body = lw_leave(L, &m);
    publish(L, ops, nops, x.scan_accs, ch->aggs, ch->flags, task, 1);
    own->body = lw_leave(L, &n);
    Acc *before = lw_declare_accs(L, ops, nops, NULL, true);
    ImpStm *back = if_open(L, &n, imp_op2(L->a, OP_GT, PT_I64, rd(L, task), imp_i64(L->a, 0)));
    ImpVar *j = let(L, "look", op2(L, OP_SUB, rd(L, task), imp_i64(L->a, 1)));
    ImpVar *more = lw_fresh(L, "more", IMP_SCALAR, PT_BOOL);
    imp_decl(L->b, more, imp_const(L->a, prim_bool(true)));
    ImpStm *w = imp_add(L->b, IMP_WHILE);
    w->cond = rd(L, more);
    lw_enter(L, &m);
    ImpStm *aw = imp_add(L->b, IMP_AWAIT);
    aw->var = lw_fresh(L, "flag", IMP_SCALAR, PT_I32);
    aw->mem = ch->flags;
    aw->index = rd(L, j);
    /* a running total (flag 2), which ends the look-back */
    ImpVar *total = lw_fresh(L, "total", IMP_SCALAR, PT_BOOL);
    imp_decl(L->b, total, imp_op2(L->a, OP_EQ, PT_I32, rd(L, aw->var), imp_const(L->a, prim_int(PT_I32, 2))));
    Acc *part = lw_declare_accs(L, ops, nops, NULL, true);
    LwNest q;
    ImpStm *which = if_open(L, &q, rd(L, total));
    ImpExp **inc = load_parts(L, ops, nops, ch->incs, rd(L, j));
    for (int k = 0; k < nacc; k++) imp_assign(L->b, part[k].var, inc[k]);
    which->body = lw_leave(L, &q);
    lw_enter(L, &q);
    ImpExp **agg = load_parts(L, ops, nops, ch->aggs, rd(L, j));
    for (int k = 0; k < nacc; k++) imp_assign(L->b, part[k].var, agg[k]);
    which->orelse = lw_leave(L, &q);
    fold_values(L, ops, nops, part, acc_reads(L, before, nacc));
    for (int k = 0; k < nacc; k++) imp_assign(L->b, before[k].var, rd(L, part[k].var));
    ImpExp *on = imp_op2(L->a, OP_GT, PT_I64, rd(L, j), imp_i64(L->a, 0));
    ImpExp *fold_only = imp_op(L->a, OP_NOT, PT_BOOL, (ImpExp *[]){rd(L, total)});
    imp_assign(L->b, more, imp_op2(L->a, OP_LAND, PT_BOOL, fold_only, on));
    imp_assign(L->b, j, op2(L, OP_SUB, rd(L, j), imp_i64(L->a, 1)));
    w->body = lw_leave(L, &m);
    back->body = lw_leave(L, &n);
    ImpStm *pub = if_open(L, &n, imp_op2(L->a, OP_LT, PT_I64, rd(L, task), last));
    Acc *sum = acc_copies(L, ops, nops, acc_reads(L, before, nacc), "total");
    fold_values(L, ops, nops, sum, acc_reads(L, x.scan_accs, nacc));
    publish(L, ops, nops, sum, ch->incs, ch->flags, task, 2);
    pub->body = lw_leave(L, &n);
    return before;
}

/* One parallel loop over the Screma's iterations, each task running the
 * whole body over its chunk; a scan's tasks start from the running total
 * of the chunks before theirs (chain_in). Each task leaves its reduction
 * accumulators in red_parts. Returns the loop over a task's iterations. */
static ImpStm *pass_tasks(ImpLower *L, const Stm *s, const Chunks *c, const Chain *ch, ImpVar **red_parts) {
    const Screma *sc = &s->e->screma;
    Task t;
    task_open(L, &t, c, s, "task", NULL);
    ScremaCtx x = {s, NULL, NULL, lw_dead_results(L, s, acc_count(sc->scans, sc->nscans))};
    x.scan_accs = ch ? chain_in(L, s, &t, c, ch) : NULL;
    x.red_accs = lw_declare_accs(L, sc->reds, sc->nreds, NULL, true);
    LwNest n;
    ImpStm *f = task_iterations(L, &t, &n, sc->iter, !sc->nscans && !sc->nreds);
    lw_bind_rows(L, sc->map, sc->arrs, sc->iter);
    lw_body(L, sc->map->body, lw_res_screma, &x, NULL, 0);
    f->body = lw_leave(L, &n);
    store_accs(L, sc->reds, sc->nreds, x.red_accs, red_parts, t.loop->var);
    task_close(L, &t);
    return f;
}

/* pass_tasks, when its tasks' loop is short and some of its stores may
 * stream, in two versions: with streaming stores when they store
 * MC_STREAM_BYTES or more in all (the width times the bytes an
 * iteration's streaming stores write at most), else with ordinary ones;
 * each a parallel loop (a function of its own for the LLVM backend). */
static void screma_pass(ImpLower *L, const Stm *s, const Chunks *c, const Chain *ch, ImpVar **red_parts) {
    LwNest n;
    lw_enter(L, &n);
    ImpStm *loop = pass_tasks(L, s, c, ch, red_parts);
    ImpCode streaming = lw_leave(L, &n);
    int left = MC_STREAM_STMS;
    Streams st = {NULL, 0};
    if (short_code(&loop->body, &left)) {
        st.busy = calloc((size_t)L->ip->next_id + 1, 1);
        if (!st.busy) ICE("out of memory");
        imp_free_reads(&streaming, L->ip->next_id, busy_block, &st);
        imp_mark_vars(&streaming, true, false, st.busy);
        mark_streams(&st, &loop->body);
        free(st.busy);
    }
    if (!st.bytes) {
        for (int i = 0; i < streaming.n; i++) vec_push(&L->b->stms, streaming.stms[i]);
        return;
    }
    ImpStm *big = imp_add(L->b, IMP_IF);
    ImpExp *written = op2(L, OP_MUL, rd(L, c->w), imp_i64(L->a, st.bytes));
    big->cond = imp_op2(L->a, OP_GE, PT_I64, written, imp_i64(L->a, MC_STREAM_BYTES));
    big->body = streaming;
    lw_enter(L, &n);
    pass_tasks(L, s, c, ch, red_parts);
    big->orelse = lw_leave(L, &n);
}

/* The most tasks of a scan of w iterations: one on one thread (a single
 * pass, no running totals), else one per thread or one per
 * MC_SCAN_CHUNK iterations, whichever is more. */
static ImpExp *scan_tasks(ImpLower *L, ImpExp *w) {
    ImpExp *threads = imp_num_threads(L->a);
    ImpExp *by_chunk = op2(L, OP_DIV, op2(L, OP_ADD, w, imp_i64(L->a, MC_SCAN_CHUNK - 1)), imp_i64(L->a, MC_SCAN_CHUNK));
    ImpExp *many = op2(L, OP_MIN, op2(L, OP_SUB, imp_num_threads(L->a), imp_i64(L->a, 1)), imp_i64(L->a, 1));
    return op2(L, OP_MAX, threads, op2(L, OP_MUL, by_chunk, many));
}

static void par_screma(ImpLower *L, const Stm *s) {
    const Screma *sc = &s->e->screma;
    Chunks c = chunks(L, lw_se(L, sc->w), sc->nscans ? scan_tasks(L, lw_se(L, sc->w)) : NULL);
    Chain ch = {NULL, NULL, NULL};
    if (sc->nscans) {
        ch.aggs = partials(L, sc->scans, sc->nscans, &c, s->loc);
        ch.incs = partials(L, sc->scans, sc->nscans, &c, s->loc);
        ch.flags = alloc_block(L, "published", rd(L, c.ntasks), PT_I32, s->loc);
        LwNest n;
        ImpStm *f = lw_for(L, &n, lw_fresh(L, "t", IMP_SCALAR, PT_I64), rd(L, c.ntasks));
        imp_store(L->b, ch.flags, PT_I32, rd(L, f->var), imp_const(L->a, prim_int(PT_I32, 0)));
        f->body = lw_leave(L, &n);
    }
    ImpVar **red_parts = partials(L, sc->reds, sc->nreds, &c, s->loc);
    screma_pass(L, s, &c, sc->nscans ? &ch : NULL, red_parts);
    int nscan = acc_count(sc->scans, sc->nscans);
    Acc *accs = lw_declare_accs(L, sc->reds, sc->nreds, s->pat + nscan, false);
    if (sc->nreds) fold_partials(L, sc->reds, sc->nreds, accs, red_parts, &c);
    for (int k = 0; k < nscan; k++) release(L, ch.aggs[k]), release(L, ch.incs[k]);
    if (sc->nscans) release(L, ch.flags);
    for (int k = 0; k < acc_count(sc->reds, sc->nreds); k++) release(L, red_parts[k]);
}

/* ---- Scatter ---- */

static void par_scatter(ImpLower *L, const Stm *s) {
    const Scatter *sc = &s->e->scatter;
    Chunks c = chunks(L, lw_se(L, sc->w), NULL);
    Task t;
    task_open(L, &t, &c, s, "task", NULL);
    LwNest n;
    ImpStm *f = task_iterations(L, &t, &n, sc->iter, true);
    lw_map_iteration(L, s);
    f->body = lw_leave(L, &n);
    task_close(L, &t);
}

/* ---- Hist ---- */

/* A task's buckets: element base + c * elems + b of block priv[j] is
 * bucket b of destination j in the task's copy c (for rows, element
 * base + b * row_len + i is element i of bucket b). */
typedef struct HistCtx {
    const Hist *h;
    const Screma *rows; /* the elementwise operator's map, or NULL */
    ImpVar **priv;
    ImpVar *base, *dw, *row_len, *elems;
    int lg;             /* log2 of the copies a task */
    ImpExp *copy;       /* where the copy an element updates starts (lg > 0) */
    SubExp ix;          /* an elementwise operator's bucket */
} HistCtx;

/* With an elementwise operator, element j of bucket ix of the task's
 * copy is element base + ix * row_len + j of its block. */
static ImpExp *task_row_acc(ImpLower *L, int q, Sym *j, void *ctx) {
    (void)q;
    const HistCtx *x = ctx;
    ImpExp *row = op2(L, OP_MUL, lw_se(L, x->ix), rd(L, x->row_len));
    return op2(L, OP_ADD, op2(L, OP_ADD, rd(L, x->base), row), imp_sym(L->a, j));
}

/* The body's results (an LwResFn): the values combined into the task's
 * bucket when in bounds. */
static void res_hist_task(ImpLower *L, const Body *b, void *ctx) {
    HistCtx *x = ctx;
    LwNest n;
    ImpStm *st = lw_in_bounds(L, &n, b->res[0], rd(L, x->dw));
    if (x->rows) {
        x->ix = b->res[0];
        LwRows r = {x->priv, task_row_acc, b->res + 1, NULL, x};
        lw_segop_rows(L, &x->h->op, x->rows, &r, rd(L, x->row_len));
        st->body = lw_leave(L, &n);
        return;
    }
    Acc *accs = NEW_ARRAY(L->a, Acc, x->h->op.k + 1);
    for (int j = 0; j < x->h->op.k; j++) {
        accs[j].mem = x->priv[j];
        ImpExp *at = lw_se(L, b->res[0]);
        if (x->copy) at = op2(L, OP_ADD, at, x->copy);
        accs[j].index = op2(L, OP_ADD, rd(L, x->base), at);
    }
    lw_segop(L, &x->h->op, accs, b->res + 1, NULL);
    st->body = lw_leave(L, &n);
}

/* Element iter (the task's element j) of the histogram, updating copy
 * copy (NULL: the only one). */
static void hist_element(ImpLower *L, HistCtx *x, ImpExp *j, ImpExp *copy) {
    const Hist *h = x->h;
    x->copy = copy ? op2(L, OP_MUL, copy, rd(L, x->elems)) : NULL;
    imp_decl(L->b, lw_var(L, h->iter), j);
    lw_bind_rows(L, h->lam, h->arrs, h->iter);
    lw_body(L, h->lam->body, res_hist_task, x, NULL, 0);
}

/* The most statements of a histogram's function that its tasks' loops
 * run several times over (unrolled by the copies). */
#define MC_HIST_UNROLL_STMS 16

static bool small_body(const Body *b) {
    if (b->nstms > MC_HIST_UNROLL_STMS) return false;
    for (int i = 0; i < b->nstms; i++) {
        IrExpKind k = b->stms[i]->e->kind;
        if (k == IE_LOOP || k == IE_SCREMA || k == IE_SCATTER || k == IE_HIST || k == IE_IF || k == IE_APPLY)
            return false;
    }
    return true;
}

/* The task's elements, each updating copy j mod 2^lg of the buckets.
 * With copies and a small function, by groups of 2^lg elements, each
 * with its copy as a constant, then the elements left over. */
static void hist_elements(ImpLower *L, Task *t, HistCtx *x) {
    LwNest n;
    int copies = 1 << x->lg;
    if (x->lg && small_body(x->h->lam->body)) {
        ImpStm *g = lw_for(L, &n, lw_fresh(L, "g", IMP_SCALAR, PT_I64),
                           op2(L, OP_SHR, rd(L, t->n), imp_i64(L->a, x->lg)));
        ImpExp *first = op2(L, OP_ADD, rd(L, t->start), op2(L, OP_SHL, rd(L, g->var), imp_i64(L->a, x->lg)));
        ImpVar *g0 = let(L, "first", first);
        for (int u = 0; u < copies; u++) {
            LwNest nu;
            ImpStm *sc = imp_add(L->b, IMP_SCOPE);
            lw_enter(L, &nu);
            hist_element(L, x, op2(L, OP_ADD, rd(L, g0), imp_i64(L->a, u)), u ? imp_i64(L->a, u) : NULL);
            sc->body = lw_leave(L, &nu);
        }
        g->body = lw_leave(L, &n);
        ImpVar *done = let(L, "done", op2(L, OP_AND, rd(L, t->n), imp_i64(L->a, ~(int64_t)(copies - 1))));
        ImpStm *r = lw_for(L, &n, lw_fresh(L, "r", IMP_SCALAR, PT_I64), op2(L, OP_SUB, rd(L, t->n), rd(L, done)));
        hist_element(L, x, op2(L, OP_ADD, op2(L, OP_ADD, rd(L, t->start), rd(L, done)), rd(L, r->var)), NULL);
        r->body = lw_leave(L, &n);
        return;
    }
    ImpStm *f = lw_for(L, &n, lw_fresh(L, "j", IMP_SCALAR, PT_I64), rd(L, t->n));
    ImpExp *copy = x->lg ? op2(L, OP_AND, rd(L, f->var), imp_i64(L->a, copies - 1)) : NULL;
    hist_element(L, x, op2(L, OP_ADD, rd(L, t->start), rd(L, f->var)), copy);
    f->body = lw_leave(L, &n);
}

/* Combining the tasks' rows: element j of bucket row `bucket` of
 * destination q, and of that bucket in the copy of task t. */
typedef struct CombineRows {
    const Hist *h;
    ImpVar **priv;
    ImpVar *t, *per_task, *row_len;
    Sym *bucket;
} CombineRows;

static ImpExp *combine_row_acc(ImpLower *L, int q, Sym *j, void *ctx) {
    const CombineRows *x = ctx;
    Sym *ix[2] = {x->bucket, j};
    return lw_offset(L, x->h->dests[q]->mem->ixfun, ix);
}

static ImpExp *combine_row_val(ImpLower *L, int q, Sym *j, void *ctx) {
    const CombineRows *x = ctx;
    ImpExp *row = op2(L, OP_MUL, imp_sym(L->a, x->bucket), rd(L, x->row_len));
    ImpExp *ix = op2(L, OP_ADD, op2(L, OP_MUL, rd(L, x->t), rd(L, x->per_task)), op2(L, OP_ADD, row, imp_sym(L->a, j)));
    return imp_load(L->a, x->priv[q], x->h->dests[q]->type.elem, ix);
}

/* Fills the task's copy of the buckets (from element base of the blocks
 * priv) with the neutral elements: count elements, or for an elementwise
 * operator count rows of row_len elements. */
static void fill_buckets(ImpLower *L, const Hist *h, bool rows, ImpVar **priv, ImpVar *base, ImpVar *count,
                         ImpVar *row_len) {
    LwNest n, nj;
    ImpStm *f = lw_for(L, &n, lw_fresh(L, "b", IMP_SCALAR, PT_I64), rd(L, count));
    ImpVar *start = let(L, "at", op2(L, OP_ADD, rd(L, base), op2(L, OP_MUL, rd(L, f->var), rd(L, row_len))));
    ImpStm *fj = rows ? lw_for(L, &nj, lw_fresh(L, "j", IMP_SCALAR, PT_I64), rd(L, row_len)) : NULL;
    for (int q = 0; q < h->op.k; q++) {
        ImpExp *at = rd(L, start), *ne;
        if (rows) {
            Sym *j = sym_var(L->a, fj->var->id);
            at = op2(L, OP_ADD, at, rd(L, fj->var));
            ne = lw_elem(L, h->op.neutral[q].v, &j);
        } else {
            ne = lw_se(L, h->op.neutral[q]);
        }
        imp_store(L->b, priv[q], h->dests[q]->type.elem, at, ne);
    }
    if (rows) fj->body = lw_leave(L, &nj);
    f->body = lw_leave(L, &n);
}

static void par_hist(ImpLower *L, const Stm *s) {
    const Hist *h = &s->e->hist;
    const Screma *rows = ir_elementwise(&h->op);
    int k = h->op.k;
    /* On one thread, the sequential loop into the destination. */
    ImpStm *one = imp_add(L->b, IMP_IF);
    one->cond = op2(L, OP_GT, imp_num_threads(L->a), imp_i64(L->a, 1));
    LwNest branch;
    lw_enter(L, &branch);
    ImpVar *dw = let(L, "buckets", lw_se(L, h->dest_w));
    /* An elementwise operator's buckets are rows of row_len elements. */
    ImpVar *row_len = let(L, "row_len", rows ? lw_se(L, h->op.op->params[0]->type.shape[0]) : imp_i64(L->a, 1));
    ImpVar *elems = let(L, "elems", op2(L, OP_MUL, rd(L, dw), rd(L, row_len)));
    /* Few scalar buckets: 2^MC_HIST_LOG_COPIES copies a task, one after
     * the other, element j updating copy j mod copies, so that updates of
     * one bucket in a row do not wait for each other. Rows keep one copy:
     * an update is a loop over the row. */
    ImpExp *few = imp_conv(L->a, PT_BOOL, PT_I64, op2(L, OP_LE, rd(L, dw), imp_i64(L->a, MC_HIST_FEW)));
    ImpVar *lg = let(L, "lg_copies", rows ? imp_i64(L->a, 0) : op2(L, OP_MUL, few, imp_i64(L->a, MC_HIST_LOG_COPIES)));
    ImpVar *copies = let(L, "copies", op2(L, OP_SHL, imp_i64(L->a, 1), rd(L, lg)));
    ImpVar *per_task =
        let(L, "per_task", op2(L, OP_ADD, op2(L, OP_MUL, rd(L, copies), rd(L, elems)), imp_i64(L->a, MC_HIST_PAD)));
    /* A task per thread at least, and up to MC_TASKS_PER_THREAD while
     * the copies are cheap (MC_HIST_SETUP_SHARE); never more copies than
     * MC_HIST_ELEMS elements. */
    ImpExp *threads = imp_num_threads(L->a);
    ImpExp *cheap =
        op2(L, OP_DIV, lw_se(L, h->w), op2(L, OP_MUL, rd(L, per_task), imp_i64(L->a, MC_HIST_SETUP_SHARE)));
    ImpExp *most = op2(L, OP_MAX, threads,
                       op2(L, OP_MIN, cheap, op2(L, OP_MUL, imp_num_threads(L->a), imp_i64(L->a, MC_TASKS_PER_THREAD))));
    ImpExp *room = op2(L, OP_DIV, imp_i64(L->a, MC_HIST_ELEMS), op2(L, OP_MAX, rd(L, elems), imp_i64(L->a, 1)));
    Chunks c = chunks(L, lw_se(L, h->w), op2(L, OP_MIN, most, room));
    ImpVar **priv = NEW_ARRAY(L->a, ImpVar *, k + 1);
    for (int j = 0; j < k; j++)
        priv[j] = alloc_block(L, "buckets", op2(L, OP_SIZE_MUL, rd(L, c.ntasks), rd(L, per_task)),
                              h->dests[j]->type.elem, s->loc);
    Task t;
    task_open(L, &t, &c, s, "task", NULL);
    ImpVar *base = let(L, "base", op2(L, OP_MUL, rd(L, t.loop->var), rd(L, per_task)));
    fill_buckets(L, h, rows, priv, base, rows ? dw : per_task, row_len);
    HistCtx x = {h, rows, priv, base, dw, row_len, elems, 0, NULL, {0}};
    if (rows) {
        hist_elements(L, &t, &x);
    } else {
        ImpStm *split = imp_add(L->b, IMP_IF);
        split->cond = op2(L, OP_NE, rd(L, lg), imp_i64(L->a, 0));
        LwNest nb;
        lw_enter(L, &nb);
        x.lg = MC_HIST_LOG_COPIES;
        hist_elements(L, &t, &x);
        split->body = lw_leave(L, &nb);
        lw_enter(L, &nb);
        x.lg = 0;
        hist_elements(L, &t, &x);
        split->orelse = lw_leave(L, &nb);
    }
    task_close(L, &t);
    LwNest n;

    /* The tasks' buckets, combined into the destinations bucket by bucket. */
    Chunks cb = chunks(L, rd(L, dw), NULL);
    Task tb;
    task_open(L, &tb, &cb, NULL, "combine", NULL);
    ImpStm *fb = lw_for(L, &n, lw_fresh(L, "j", IMP_SCALAR, PT_I64), rd(L, tb.n));
    Sym *bucket = sym_add(L->a, sym_var(L->a, tb.start->id), sym_var(L->a, fb->var->id));
    LwNest nt, nc;
    ImpStm *ft = lw_for(L, &nt, lw_fresh(L, "t", IMP_SCALAR, PT_I64), rd(L, c.ntasks));
    if (rows) {
        CombineRows cr = {h, priv, ft->var, per_task, row_len, bucket};
        LwRows r = {NEW_ARRAY(L->a, ImpVar *, k + 1), combine_row_acc, NULL, combine_row_val, &cr};
        for (int j = 0; j < k; j++) r.mems[j] = lw_var(L, h->dests[j]->mem->mem);
        lw_segop_rows(L, &h->op, rows, &r, rd(L, row_len));
    } else {
        Acc *accs = NEW_ARRAY(L->a, Acc, k + 1);
        for (int j = 0; j < k; j++) {
            accs[j].mem = lw_var(L, h->dests[j]->mem->mem);
            accs[j].index = lw_offset(L, h->dests[j]->mem->ixfun, &bucket);
        }
        ImpStm *fc = lw_for(L, &nc, lw_fresh(L, "c", IMP_SCALAR, PT_I64), rd(L, copies));
        ImpExp **vals = NEW_ARRAY(L->a, ImpExp *, k + 1);
        for (int j = 0; j < k; j++) {
            ImpExp *at = op2(L, OP_ADD, imp_sym(L->a, bucket), op2(L, OP_MUL, rd(L, fc->var), rd(L, elems)));
            ImpExp *ix = op2(L, OP_ADD, op2(L, OP_MUL, rd(L, ft->var), rd(L, per_task)), at);
            ImpVar *v = lw_fresh(L, "part", IMP_SCALAR, h->dests[j]->type.elem);
            imp_decl(L->b, v, imp_load(L->a, priv[j], h->dests[j]->type.elem, ix));
            vals[j] = rd(L, v);
        }
        lw_segop(L, &h->op, accs, NULL, vals);
        fc->body = lw_leave(L, &nc);
    }
    ft->body = lw_leave(L, &nt);
    fb->body = lw_leave(L, &n);
    task_close(L, &tb);
    for (int j = 0; j < k; j++) release(L, priv[j]);
    one->body = lw_leave(L, &branch);
    lw_enter(L, &branch);
    lw_hist(L, s);
    one->orelse = lw_leave(L, &branch);
}

/* ---- Maps of reductions over rows of varying length ---- */

/* Rows of more elements than this are reduced apart from the map's
 * tasks (par_rows), in chunks of MC_ROW_CHUNK elements. */
#define MC_LONG_ROW ((int64_t)1 << 16)
#define MC_ROW_CHUNK ((int64_t)1 << 14)

/* The reduction of map s when its width varies between s's elements (the
 * rows of an irregular array, CSR rows), else NULL: s has no scans nor
 * reductions of its own, its body is cheap scalar code around one
 * reduction with scalar operators and no map outputs, whose width the
 * body binds, and its results are scalars. */
static const Stm *row_reduction(const Stm *s) {
    const Screma *sc = &s->e->screma;
    if (sc->nscans || sc->nreds) return NULL;
    const Body *b = sc->map->body;
    const Stm *red = NULL;
    for (int i = 0; i < b->nstms; i++) {
        const Stm *x = b->stms[i];
        if (ir_stm_cheap(x)) continue;
        const IrExp *e = x->e;
        if (red || e->kind != IE_SCREMA || e->screma.nscans || !e->screma.nreds ||
            !ir_segops_scalar(e->screma.reds, e->screma.nreds))
            return NULL;
        red = x;
    }
    if (!red || red->npat != acc_count(red->e->screma.reds, red->e->screma.nreds)) return NULL;
    for (int i = 0; i < b->nres; i++)
        if (subexp_type(b->res[i]).kind != TK_PRIM) return NULL;
    SubExp w = red->e->screma.w;
    return w.is_var && ir_lambda_binds(sc->map, w.v) ? red : NULL;
}

/* Row `iter` (declared by the caller) of map s: binds its lambda's rows
 * and lowers the body's statements before its reduction red; red's index
 * in the body. */
static int row_prefix(ImpLower *L, const Stm *s, const Stm *red) {
    const Screma *sc = &s->e->screma;
    lw_bind_rows(L, sc->map, sc->arrs, sc->iter);
    const Body *b = sc->map->body;
    int at = 0;
    while (b->stms[at] != red) lw_stm(L, b->stms[at++]);
    return at;
}

/* The statements of map s's body from index from, and its results
 * written at row iter of s's outputs. */
static void row_suffix(ImpLower *L, const Stm *s, int from) {
    const Body *b = s->e->screma.map->body;
    for (int i = from; i < b->nstms; i++) lw_stm(L, b->stms[i]);
    lw_map_outputs(L, s, b, 0);
}

/* A parallel loop of n tasks of one iteration each (its index t->start). */
static void each_task(ImpLower *L, Task *t, const Stm *s, ImpVar *n, const char *kind) {
    Chunks c = {n, let(L, "one", imp_i64(L->a, 1)), n};
    task_open(L, t, &c, s, kind, NULL);
}

/* The long rows of par_rows, in order: the rows (rows[r]), the first of
 * their chunks (first[r], first[count] the number of chunks) and, by
 * chunk, its row's number r (row_of). */
typedef struct LongRows {
    ImpVar *count, *rows, *first, *chunks, *row_of;
} LongRows;

/* The chunks of long row r: the first (declared) and their count. */
static ImpExp *row_chunks(ImpLower *L, const LongRows *lr, ImpExp *r, ImpVar **first) {
    Arena *a = L->a;
    *first = let(L, "c0", imp_load(a, lr->first, PT_I64, r));
    return op2(L, OP_SUB, imp_load(a, lr->first, PT_I64, op2(L, OP_ADD, r, imp_i64(a, 1))), rd(L, *first));
}

/* Host, after the map's tasks marked their long rows (marks, by row) and
 * counted them (counts, by task of c; count in all): the long rows and
 * their chunks. */
static LongRows long_rows(ImpLower *L, const Stm *s, const Stm *red, const Chunks *c, ImpVar *marks, ImpVar *counts,
                          ImpVar *count) {
    Arena *a = L->a;
    LongRows lr;
    lr.count = count;
    LwNest n, m, k;
    lr.rows = alloc_block(L, "long_row", rd(L, lr.count), PT_I64, s->loc);
    lr.first = alloc_block(L, "long_first", op2(L, OP_ADD, rd(L, lr.count), imp_i64(a, 1)), PT_I64, s->loc);
    /* the rows of the tasks that have any, in order */
    ImpVar *r = let(L, "r", imp_i64(a, 0));
    ImpStm *f = lw_for(L, &n, lw_fresh(L, "t", IMP_SCALAR, PT_I64), rd(L, c->ntasks));
    ImpStm *any = if_open(L, &m, imp_op2(a, OP_GT, PT_I64, imp_load(a, counts, PT_I64, rd(L, f->var)), imp_i64(a, 0)));
    ImpVar *start = let(L, "start", op2(L, OP_MUL, rd(L, f->var), rd(L, c->chunk)));
    ImpExp *len = op2(L, OP_MIN, rd(L, c->chunk), op2(L, OP_SUB, rd(L, c->w), rd(L, start)));
    ImpStm *g = lw_for(L, &k, lw_fresh(L, "j", IMP_SCALAR, PT_I64), len);
    ImpVar *i = let(L, "i", op2(L, OP_ADD, rd(L, start), rd(L, g->var)));
    LwNest q;
    ImpStm *is = if_open(L, &q, imp_load(a, marks, PT_BOOL, rd(L, i)));
    imp_store(L->b, lr.rows, PT_I64, rd(L, r), rd(L, i));
    imp_assign(L->b, r, op2(L, OP_ADD, rd(L, r), imp_i64(a, 1)));
    is->body = lw_leave(L, &q);
    g->body = lw_leave(L, &k);
    any->body = lw_leave(L, &m);
    f->body = lw_leave(L, &n);
    /* each row's chunks */
    lr.chunks = let(L, "long_chunks", imp_i64(a, 0));
    f = lw_for(L, &n, lw_fresh(L, "r", IMP_SCALAR, PT_I64), rd(L, lr.count));
    imp_decl(L->b, lw_var(L, s->e->screma.iter), imp_load(a, lr.rows, PT_I64, rd(L, f->var)));
    row_prefix(L, s, red);
    ImpExp *up = op2(L, OP_ADD, lw_se(L, red->e->screma.w), imp_i64(a, MC_ROW_CHUNK - 1));
    imp_store(L->b, lr.first, PT_I64, rd(L, f->var), rd(L, lr.chunks));
    imp_assign(L->b, lr.chunks, op2(L, OP_ADD, rd(L, lr.chunks), op2(L, OP_DIV, up, imp_i64(a, MC_ROW_CHUNK))));
    f->body = lw_leave(L, &n);
    imp_store(L->b, lr.first, PT_I64, rd(L, lr.count), rd(L, lr.chunks));
    lr.row_of = alloc_block(L, "chunk_row", rd(L, lr.chunks), PT_I64, s->loc);
    f = lw_for(L, &n, lw_fresh(L, "r", IMP_SCALAR, PT_I64), rd(L, lr.count));
    ImpVar *c0;
    ImpExp *nc = row_chunks(L, &lr, rd(L, f->var), &c0);
    g = lw_for(L, &k, lw_fresh(L, "k", IMP_SCALAR, PT_I64), nc);
    imp_store(L->b, lr.row_of, PT_I64, op2(L, OP_ADD, rd(L, c0), rd(L, g->var)), rd(L, f->var));
    g->body = lw_leave(L, &k);
    f->body = lw_leave(L, &n);
    return lr;
}

/* A parallel loop over the chunks of the long rows: each task reduces
 * its chunk's elements (the reduction's body run for them) into its
 * element of parts. */
static void reduce_chunks(ImpLower *L, const Stm *s, const Stm *red, const LongRows *lr, ImpVar **parts) {
    Arena *a = L->a;
    const Screma *rc = &red->e->screma;
    Task t;
    each_task(L, &t, s, lr->chunks, "chunk");
    ImpVar *r = let(L, "r", imp_load(a, lr->row_of, PT_I64, rd(L, t.start)));
    imp_decl(L->b, lw_var(L, s->e->screma.iter), imp_load(a, lr->rows, PT_I64, rd(L, r)));
    row_prefix(L, s, red);
    ImpExp *k = op2(L, OP_SUB, rd(L, t.start), imp_load(a, lr->first, PT_I64, rd(L, r)));
    ImpVar *lo = let(L, "lo", op2(L, OP_MUL, k, imp_i64(a, MC_ROW_CHUNK)));
    ImpExp *hi = op2(L, OP_MIN, op2(L, OP_ADD, rd(L, lo), imp_i64(a, MC_ROW_CHUNK)), lw_se(L, rc->w));
    ScremaCtx x = {red, NULL, lw_declare_accs(L, rc->reds, rc->nreds, NULL, true), NULL};
    LwNest n;
    ImpStm *f = lw_for(L, &n, lw_fresh(L, "j", IMP_SCALAR, PT_I64), op2(L, OP_SUB, hi, rd(L, lo)));
    imp_decl(L->b, lw_var(L, rc->iter), op2(L, OP_ADD, rd(L, lo), rd(L, f->var)));
    lw_bind_rows(L, rc->map, rc->arrs, rc->iter);
    lw_body(L, rc->map->body, lw_res_screma, &x, NULL, 0);
    f->body = lw_leave(L, &n);
    store_accs(L, rc->reds, rc->nreds, x.red_accs, parts, t.start);
    task_close(L, &t);
}

/* A parallel loop over the long rows: each task folds its row's chunks'
 * parts in order and runs the rest of the row's body. */
static void finish_rows(ImpLower *L, const Stm *s, const Stm *red, const LongRows *lr, ImpVar **parts) {
    Arena *a = L->a;
    const Screma *rc = &red->e->screma;
    Task t;
    each_task(L, &t, s, lr->count, "row");
    imp_decl(L->b, lw_var(L, s->e->screma.iter), imp_load(a, lr->rows, PT_I64, rd(L, t.start)));
    int at = row_prefix(L, s, red);
    Acc *accs = lw_declare_accs(L, rc->reds, rc->nreds, NULL, true);
    ImpVar *c0;
    ImpExp *nc = row_chunks(L, lr, rd(L, t.start), &c0);
    LwNest n;
    ImpStm *f = lw_for(L, &n, lw_fresh(L, "k", IMP_SCALAR, PT_I64), nc);
    L->reassoc++;
    fold_values(L, rc->reds, rc->nreds, accs, load_parts(L, rc->reds, rc->nreds, parts, op2(L, OP_ADD, rd(L, c0), rd(L, f->var))));
    L->reassoc--;
    f->body = lw_leave(L, &n);
    for (int v = 0; v < red->npat; v++) lw_declare(L, red->pat[v], rd(L, accs[v].var));
    row_suffix(L, s, at + 1);
    task_close(L, &t);
}

/* Map s whose elements reduce rows of varying length (red: the
 * reduction, row_reduction). The map's tasks (chunks of its elements)
 * reduce the rows of at most MC_LONG_ROW elements and mark and count the
 * longer ones. When there are
 * long rows, the host lists them and their chunks of MC_ROW_CHUNK
 * elements, a parallel loop reduces the chunks, and a last one folds
 * each long row's chunks in order and finishes the row. So one long row
 * among short ones is not one task's sequential work, and its sum is
 * the fold of partial sums. A task takes its rows one at a time (no
 * vector lanes): LLVM vectorises a row's reduction over its contiguous
 * elements, where lanes taking a row each would gather across rows (16
 * threads: trmv_packed 0.96 ms against 1.86, 10^5 rows of up to 1,000
 * elements 2.0 against 2.9). */
static void par_rows(ImpLower *L, const Stm *s, const Stm *red) {
    const Screma *sc = &s->e->screma;
    const Screma *rc = &red->e->screma;
    Arena *a = L->a;
    Chunks c = chunks(L, lw_se(L, sc->w), NULL);
    ImpVar *marks = alloc_block(L, "long", rd(L, c.w), PT_BOOL, s->loc);
    ImpVar *counts = alloc_block(L, "long_count", rd(L, c.ntasks), PT_I64, s->loc);
    Task t;
    task_open(L, &t, &c, s, "task", NULL);
    ImpVar *cnt = let(L, "count", imp_i64(a, 0));
    LwNest n, m;
    ImpStm *f = task_iterations(L, &t, &n, sc->iter, false);
    int at = row_prefix(L, s, red);
    ImpVar *is_long = lw_fresh(L, "is_long", IMP_SCALAR, PT_BOOL);
    imp_decl(L->b, is_long, imp_op2(a, OP_GT, PT_I64, lw_se(L, rc->w), imp_i64(a, MC_LONG_ROW)));
    imp_store(L->b, marks, PT_BOOL, rd(L, lw_var(L, sc->iter)), rd(L, is_long));
    imp_assign(L->b, cnt, op2(L, OP_ADD, rd(L, cnt), imp_conv(a, PT_BOOL, PT_I64, rd(L, is_long))));
    ImpStm *other = if_open(L, &m, imp_op(a, OP_NOT, PT_BOOL, (ImpExp *[]){rd(L, is_long)}));
    row_suffix(L, s, at);
    other->body = lw_leave(L, &m);
    f->body = lw_leave(L, &n);
    imp_store(L->b, counts, PT_I64, rd(L, t.loop->var), rd(L, cnt));
    task_close(L, &t);

    ImpVar *count = let(L, "long_rows", imp_i64(a, 0));
    f = lw_for(L, &n, lw_fresh(L, "t", IMP_SCALAR, PT_I64), rd(L, c.ntasks));
    imp_assign(L->b, count, op2(L, OP_ADD, rd(L, count), imp_load(a, counts, PT_I64, rd(L, f->var))));
    f->body = lw_leave(L, &n);
    ImpStm *any = if_open(L, &m, imp_op2(a, OP_GT, PT_I64, rd(L, count), imp_i64(a, 0)));
    LongRows lr = long_rows(L, s, red, &c, marks, counts, count);
    Chunks cc = {lr.chunks, NULL, lr.chunks};
    ImpVar **parts = partials(L, rc->reds, rc->nreds, &cc, s->loc);
    reduce_chunks(L, s, red, &lr, parts);
    finish_rows(L, s, red, &lr, parts);
    for (int k = 0; k < acc_count(rc->reds, rc->nreds); k++) release(L, parts[k]);
    release(L, lr.rows), release(L, lr.first), release(L, lr.row_of);
    any->body = lw_leave(L, &m);
    release(L, counts), release(L, marks);
}

/* ---- Dispatch ---- */

void lw_par_soac(ImpLower *L, const Stm *s) {
    const IrExp *e = s->e;
    const Stm *red = e->kind == IE_SCREMA ? row_reduction(s) : NULL;
    if (red) par_rows(L, s, red);
    else if (e->kind == IE_SCREMA && scalar_ops(e->screma.reds, e->screma.nreds) &&
        scalar_ops(e->screma.scans, e->screma.nscans))
        par_screma(L, s);
    else if (e->kind == IE_SCATTER) par_scatter(L, s);
    else if (e->kind == IE_HIST && (scalar_ops(&e->hist.op, 1) || ir_elementwise(&e->hist.op))) par_hist(L, s);
    else lw_soac(L, s);
}
