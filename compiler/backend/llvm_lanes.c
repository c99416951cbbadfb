/* The loops of vector code (llvm_simd.h): a loop whose iterations go in
 * lanes runs 4 or 2 x L.lanes of them at once (simd_regs), then L.lanes,
 * then one at a time; unroll and jam with blocking for matrix products;
 * the choice of which loops go in lanes (l_simd_for). */
#include <string.h>

#include "llvm_simd.h"

/* ---- The loop ---- */

/* Forgets the slots of the variables the body declares, which the next
 * loop over it (of another width, or scalar) makes again. */
static void forget(V *v) {
    for (int id = 0; id < v->l->vars.len && id <= v->l->next_id; id++)
        if (v->inside[id]) {
            if (v->l->vars.items[id]) *v->l->vars.items[id] = (LVar){0};
            memset(&v->rowslot[(size_t)id * MAX_ROWS], 0, MAX_ROWS * sizeof(LLVMValueRef));
        }
}

typedef struct Lanes {
    V *v;
    const ImpStm *s;
    LLVMValueRef jb;
    LVar *jv;
} Lanes;

/* Sets the counter of loop s to jb, jb + 1, ..., jb + lanes - 1. */
static void lanes_set(L *l, const Lanes *x) {
    V *v = x->v;
    LLVMValueRef steps[MAX_LANES];
    for (int k = 0; k < v->lanes; k++) steps[k] = l_i64(l, k);
    LLVMValueRef jb = splat(v, l_load(l, l->i64, x->jb));
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, jb, LLVMConstVector(steps, (unsigned)v->lanes), ""), x->jv->slot);
}

/* Iterations jb, jb + 1, ..., jb + lanes - 1 of loop s at once. */
static void lanes_body(L *l, const void *arg) {
    const Lanes *x = arg;
    lanes_set(l, x);
    vcode(x->v, &x->s->body);
}

/* Loop s's lanes from slot jb at v->lanes lanes: its body's slots made
 * again, its counter declared. */
static Lanes lanes_begin(V *v, const ImpStm *s, LLVMValueRef jb) {
    forget(v);
    return (Lanes){v, s, jb, vdeclare(v, s->var->id, v->l->i64, s->var->name)};
}

/* Loop s from the value of slot jb, lanes iterations at a time while they
 * are all below bound (jb holds where it stopped). */
static void lanes_loop(V *v, const ImpStm *s, LLVMValueRef jb, LLVMValueRef bound) {
    Lanes x = lanes_begin(v, s, jb);
    l_loop(v->l, v->l->i64, jb, NULL, bound, v->lanes, lanes_body, &x);
}

/* Regs vector registers' worth of lanes at once (their operations are
 * independent, which hides the latency of each), then one register's
 * worth for the rest. */
static void simd_loops(V *v, const ImpStm *s, LLVMValueRef jb, LLVMValueRef bound, int regs) {
    v->lanes = regs * v->l->lanes;
    lanes_loop(v, s, jb, bound);
    v->lanes = v->l->lanes;
    lanes_loop(v, s, jb, bound);
}

static void code_body(L *l, const void *c) { l_code(l, c); }

/* Loop s from start to bound, one iteration at a time, with scalar
 * variables of its own. */
static void scalar_loop(V *v, const ImpStm *s, LLVMValueRef start, LLVMValueRef bound) {
    forget(v);
    LVar *lv = l_declare(v->l, s->var);
    l_loop(v->l, v->l->i64, lv->slot, start, bound, 1, code_body, &s->body);
}

/* ---- Unroll and jam ----
 *
 * A map whose body is a vector loop (the innermost map) with a loop of
 * its own (a reduction, as in matrix multiplication) runs several of its
 * iterations (rows) together: the inner loop's statements that are the
 * same in every row (loads of the other operand) are made once, the
 * others once per row, so each value loaded serves every row and the
 * rows' independent operations hide each other's latency. Control flow
 * must be the same in every row. */

static void mark_stored(V *v, const ImpCode *c) {
    for (int i = 0; i < c->n; i++) {
        const ImpStm *s = c->stms[i];
        if (s->kind == IMP_STORE) v->stored[s->mem->id] = 1;
        mark_stored(v, &s->body);
        mark_stored(v, &s->orelse);
    }
}

/* Marks the variables of c set to a value that differs between rows;
 * true when it marked one. */
static bool mark_rows(V *v, const ImpCode *c) {
    bool more = false;
    for (int i = 0; i < c->n; i++) {
        const ImpStm *s = c->stms[i];
        const ImpExp *x = s->kind == IMP_DECL ? s->init : s->kind == IMP_ASSIGN ? s->value : NULL;
        if (x && !v->rowvar[s->var->id] && exp_rowvar(v, x)) {
            v->rowvar[s->var->id] = 1;
            more = true;
        }
        more |= mark_rows(v, &s->body);
        more |= mark_rows(v, &s->orelse);
    }
    return more;
}

typedef struct Reuse {
    int shared;  /* loads in inner loops that are the same in every row */
    int carried; /* assignments to a row's variables in inner loops */
    bool ok;     /* control flow is the same in every row */
} Reuse;

static void shared_loads(const V *v, const ImpExp *e, Reuse *r) {
    if (!e) return;
    if (e->kind == IX_LOAD) {
        if (!exp_rowvar(v, e)) r->shared++;
        shared_loads(v, e->index, r);
    }
    for (int i = 0; (e->kind == IX_OP && i < op_arity(e->op)) || (e->kind == IX_CONV && i < 1); i++)
        shared_loads(v, e->args[i], r);
}

static void rows_cost(const V *v, const ImpCode *c, bool in_loop, Reuse *r) {
    for (int i = 0; i < c->n; i++) {
        const ImpStm *s = c->stms[i];
        const ImpExp *control = s->kind == IMP_IF || s->kind == IMP_WHILE ? s->cond
                                : s->kind == IMP_FOR                      ? s->bound
                                                                          : NULL;
        if (control && exp_rowvar(v, control)) r->ok = false;
        if (in_loop) {
            if (s->kind == IMP_ASSIGN && v->rowvar[s->var->id]) r->carried++;
            const ImpExp *es[] = {s->init, s->value, s->index, s->cond, s->bound};
            for (size_t k = 0; k < sizeof es / sizeof *es; k++) shared_loads(v, es[k], r);
        }
        rows_cost(v, &s->body, in_loop || s->kind == IMP_FOR || s->kind == IMP_WHILE, r);
        rows_cost(v, &s->orelse, in_loop, r);
    }
}

/* Blocks of rows per super-block: those that run through a block of the
 * shared operand while it is in cache. */
#define JAM_BLOCKS 8
/* Bytes of the shared operand per block of k: L1's (32 KiB at least). */
#define JAM_L1 32768

typedef struct Jam {
    V *v;
    const ImpStm *outer, *inner;
    ImpCode pre; /* the outer body's declarations before the inner loop */
    /* The inner body split at its loop over k, kloop (NULL: not split):
     * declarations before it, the rest after it; the variables declared
     * before it that it assigns (carried) are kept in buf (by carried
     * variable, an array of a value per row of a super-block) between
     * blocks of k. */
    ImpCode before, after;
    const ImpStm *kloop;
    int *carried, ncarried;
    LLVMValueRef *buf;
    int64_t kc; /* iterations of kloop per block */
    /* The loads of the shared operand that kloop's body makes at every
     * iteration (the values of its declarations), each by a vector load
     * at an index that reads only kloop's and the inner loop's counters
     * and variables from outside: copied for each block of k, before its
     * rows run, into a buffer of their own (read through V.buffered). */
    int npack;
    const ImpExp **pack;
    LLVMValueRef *pack_buf;
    Lanes lanes;
    /* Slots: super-block, first row of a block, lanes, block of k, row. */
    LLVMValueRef q, ob, jb, kq, r;
    /* Values: the outer loop's bound, the end of its rows in blocks, the
     * inner loop's bound, kloop's bound and its blocks; in the loops: the
     * super-block's first row and end, the block of k's first and end. */
    LLVMValueRef rows_end, full_end, inner_end, k_end, nkb, sb, sb_end, kb, kb_end;
} Jam;

/* The carried variables of each row from buf (save: to buf). */
static void carry(L *l, Jam *j, bool save) {
    V *v = j->v;
    LLVMValueRef base = LLVMBuildSub(l->b, l_load(l, l->i64, j->ob), j->sb, "");
    for (int c = 0; c < j->ncarried; c++) {
        int id = j->carried[c];
        LLVMTypeRef ty = l_lookup(l, id)->ty;
        for (v->row = 0; v->row < (v->rowvar[id] ? v->rows : 1); v->row++) {
            LLVMValueRef ix[] = {l_i64(l, 0), LLVMBuildAdd(l->b, base, l_i64(l, v->row), "")};
            LLVMValueRef p = LLVMBuildGEP2(l->b, LLVMArrayType(ty, JAM_BLOCKS * MAX_ROWS), j->buf[c], ix, 2, "");
            if (save) LLVMBuildStore(l->b, l_load(l, ty, var_slot(v, id)), p);
            else LLVMBuildStore(l->b, l_load(l, ty, p), var_slot(v, id));
        }
        v->row = 0;
    }
}
static void jam_restore(L *l, const void *j) { carry(l, (Jam *)j, false); }
static void jam_save(L *l, const void *j) { carry(l, (Jam *)j, true); }
static void jam_after(L *l, const void *j) { vcode(((const Jam *)j)->v, &((const Jam *)j)->after); }
static void jam_k(L *l, const void *j) { vcode(((const Jam *)j)->v, &((const Jam *)j)->kloop->body); }

/* Rows ob, ob + 1, ..., ob + rows - 1 of the outer loop together, for
 * the inner loop's lanes from jb (and the block of k from kb). */
static void jam_block(L *l, const void *arg) {
    Jam *j = (Jam *)arg;
    V *v = j->v;
    int o = j->outer->var->id;
    for (v->row = 0; v->row < v->rows; v->row++) {
        vdeclare(v, o, l->i64, j->outer->var->name);
        LLVMBuildStore(l->b, LLVMBuildAdd(l->b, l_load(l, l->i64, j->ob), l_i64(l, v->row), ""), var_slot(v, o));
    }
    v->row = 0;
    vcode(v, &j->pre);
    lanes_set(l, &j->lanes);
    if (!j->kloop) {
        vcode(v, &j->inner->body);
        return;
    }
    vcode(v, &j->before);
    for (int c = 0; c < j->ncarried; c++)
        j->buf[c] = l_slot(l, LLVMArrayType(l_lookup(l, j->carried[c])->ty, JAM_BLOCKS * MAX_ROWS), "carried");
    l_branch(l, LLVMBuildICmp(l->b, LLVMIntSGT, j->kb, l_i64(l, 0), ""), jam_restore, NULL, j);
    LVar *kv = vdeclare(v, j->kloop->var->id, l->i64, j->kloop->var->name);
    l_loop(l, l->i64, kv->slot, j->kb, j->kb_end, 1, jam_k, j);
    l_branch(l, LLVMBuildICmp(l->b, LLVMIntEQ, j->kb_end, j->k_end, ""), jam_after, jam_save, j);
}

static LLVMValueRef smin(L *l, LLVMValueRef x, LLVMValueRef y) {
    return LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, x, y, ""), x, y, "");
}

/* Iteration k of the block of k: its loads of the shared operand into
 * their buffers. */
static void jam_pack(L *l, const void *arg) {
    const Jam *j = arg;
    V *v = j->v;
    LLVMValueRef k = l_load(l, l->i64, l_lookup(l, j->kloop->var->id)->slot);
    LLVMValueRef ix[] = {l_i64(l, 0), LLVMBuildSub(l->b, k, j->kb, "")};
    for (int i = 0; i < j->npack; i++) {
        const ImpExp *e = j->pack[i];
        LLVMValueRef p = LLVMBuildGEP2(l->b, LLVMGetAllocatedType(j->pack_buf[i]), j->pack_buf[i], ix, 2, "");
        LLVMBuildStore(l->b, vload(v, e->var, e->t, e->index), p);
    }
}

/* The blocks of rows of the super-block, for the block of k kq (its part
 * of the shared operand packed first). */
static void jam_kblock(L *l, const void *arg) {
    Jam *j = (Jam *)arg;
    V *v = j->v;
    if (j->kloop) { /* (without a loop over k split into blocks, one block of everything) */
        j->kb = LLVMBuildMul(l->b, l_load(l, l->i64, j->kq), l_i64(l, j->kc), "");
        j->kb_end = smin(l, LLVMBuildAdd(l->b, j->kb, l_i64(l, j->kc), ""), j->k_end);
    }
    if (j->npack) {
        for (int i = 0; i < j->npack; i++)
            j->pack_buf[i] = l_slot(l, LLVMArrayType(vec_type(v, l_mem_type(l, j->pack[i]->t)), (unsigned)j->kc), "packed");
        lanes_set(l, &j->lanes);
        LVar *kv = vdeclare(v, j->kloop->var->id, l->i64, j->kloop->var->name);
        l_loop(l, l->i64, kv->slot, j->kb, j->kb_end, 1, jam_pack, j);
        for (int i = 0; i < j->npack; i++)
            v->buffered[v->nbuffered++] = (Buffered){j->pack[i], j->pack_buf[i], j->kb, j->kloop->var->id};
    }
    l_loop(l, l->i64, j->ob, j->sb, j->sb_end, v->rows, jam_block, j);
    v->nbuffered -= j->npack;
}

/* The lanes from jb for every block of k (one when kloop is NULL). */
static void jam_strip(L *l, const void *arg) {
    Jam *j = (Jam *)arg;
    l_loop(l, l->i64, j->kq, l_i64(l, 0), j->nkb, 1, jam_kblock, j);
}

/* Super-block q: strips of the inner loop's lanes, at 2 x L.lanes, then
 * at L.lanes. */
static void jam_super(L *l, const void *arg) {
    Jam *j = (Jam *)arg;
    V *v = j->v;
    int64_t rows = (int64_t)v->rows * JAM_BLOCKS;
    j->sb = LLVMBuildMul(l->b, l_load(l, l->i64, j->q), l_i64(l, rows), "");
    j->sb_end = smin(l, LLVMBuildAdd(l->b, j->sb, l_i64(l, rows), ""), j->full_end);
    LLVMBuildStore(l->b, l_i64(l, 0), j->jb);
    for (int width = 2 * l->lanes; width >= l->lanes; width -= l->lanes) {
        v->lanes = width;
        j->lanes = lanes_begin(v, j->inner, j->jb);
        l_loop(l, l->i64, j->jb, NULL, j->inner_end, width, jam_strip, j);
    }
}

/* The inner loop's last iterations, one at a time, for row ob + r. */
static void jam_rest(L *l, const void *arg) {
    const Jam *j = arg;
    LLVMValueRef row = LLVMBuildAdd(l->b, l_load(l, l->i64, j->ob), l_load(l, l->i64, j->r), "");
    LLVMBuildStore(l->b, row, l_declare(l, j->outer->var)->slot);
    l_code(l, &j->pre);
    scalar_loop(j->v, j->inner, l_load(l, l->i64, j->jb), j->inner_end);
}

static void jam_rest_rows(L *l, const void *arg) {
    const Jam *j = arg;
    l_loop(l, l->i64, j->r, l_i64(l, 0), l_i64(l, j->v->rows), 1, jam_rest, j);
}

/* Splits the inner body at its loop over k where its blocks can run
 * apart: declarations before it, its bound the same in every row and
 * lane and known before the rows (it reads none of vars, the rows'
 * variables, nor the body's). */
static void split_k(Jam *j, const char *vars, int64_t kc) {
    V *v = j->v;
    L *l = v->l;
    const ImpCode *b = &j->inner->body;
    int k = 0;
    while (k < b->n && b->stms[k]->kind == IMP_DECL) k++;
    const ImpStm *f = k < b->n ? b->stms[k] : NULL;
    if (!f || f->kind != IMP_FOR || f->var->t != PT_I64 || exp_reads(f->bound, vars, v->stored) ||
        exp_reads(f->bound, v->inside, NULL))
        return;
    char *set = arena_alloc(l->a, (size_t)l->next_id + 1);
    imp_mark_vars(&f->body, false, true, set);
    j->carried = NEW_ARRAY(l->a, int, k);
    for (int i = 0; i < k; i++)
        if (set[b->stms[i]->var->id]) j->carried[j->ncarried++] = b->stms[i]->var->id;
    j->buf = NEW_ARRAY(l->a, LLVMValueRef, j->ncarried);
    char *other = arena_alloc(l->a, (size_t)l->next_id + 1);
    for (int id = 0; id <= l->next_id; id++) other[id] = v->inside[id] || vars[id];
    other[f->var->id] = other[j->inner->var->id] = 0;
    j->pack = NEW_ARRAY(l->a, const ImpExp *, f->body.n);
    j->pack_buf = NEW_ARRAY(l->a, LLVMValueRef, f->body.n);
    for (int i = 0; i < f->body.n; i++) {
        const ImpExp *e = f->body.stms[i]->kind == IMP_DECL ? f->body.stms[i]->init : NULL;
        if (e && e->kind == IX_LOAD && e->t != PT_BOOL && !exp_rowvar(v, e) && !exp_reads(e->index, other, v->stored) &&
            exp_stride(v, e->index) == 1 && j->npack < MAX_BUFFERED)
            j->pack[j->npack++] = e;
    }
    j->before = (ImpCode){b->stms, k};
    j->after = (ImpCode){b->stms + k + 1, b->n - k - 1};
    j->kloop = f;
    j->kc = kc;
}

/* Loop s with its rows unrolled and jammed into its inner vector loop,
 * the rest of its rows after; false, having made nothing, where that
 * does not apply or would not pay.
 *
 * The rows in blocks of v.rows go by super-blocks of JAM_BLOCKS blocks;
 * for each, strips of the inner loop's lanes; for each strip, blocks of
 * the inner body's loop over k (when it splits there) small enough that
 * the part of the shared operand they read stays in L1 while every
 * block of rows of the super-block runs through it (the loop order of a
 * blocked matrix product; each element still adds its terms in order).
 * The inner loop's last iterations for the rows in blocks, one at a
 * time, come after, then the rows after the last block. */
static bool jam_for(L *l, const ImpStm *s) {
    const ImpCode *b = &s->body;
    const ImpStm *in = b->n ? b->stms[b->n - 1] : NULL;
    if (!in || in->kind != IMP_FOR || !in->vector || in->var->t != PT_I64) return false;
    Jam j = {.outer = s, .inner = in, .pre = {b->stms, b->n - 1}};
    V v = new_v(l);
    for (int i = 0; i < j.pre.n; i++) {
        const ImpStm *d = j.pre.stms[i];
        if (d->kind != IMP_DECL || d->var->kind != IMP_SCALAR || !d->init) return false;
        scan_exp(&v, d->init);
    }
    scan(&v, &in->body);
    if (!v.ok) return false;
    v.inside[in->var->id] = 1;
    v.stride[in->var->id] = 1;
    v.rowvar[s->var->id] = 1;
    mark_stored(&v, &in->body);
    while (mark_rows(&v, &j.pre) | mark_rows(&v, &in->body)) continue;
    /* The inner loop's bound is evaluated once, before the rows: it must
     * not read the rows' counter or declarations, or what the rows store. */
    char *pre_vars = arena_alloc(l->a, (size_t)l->next_id + 1);
    pre_vars[s->var->id] = 1;
    for (int i = 0; i < j.pre.n; i++) pre_vars[j.pre.stms[i]->var->id] = 1;
    Reuse r = {0, 0, !exp_reads(in->bound, pre_vars, v.stored)};
    rows_cost(&v, &in->body, false, &r);
    /* The variables inner loops carry stay in registers, two for each at
     * 2 x L.lanes, for every row: as many rows as leave 8 registers of
     * AVX-512's 32 (AVX's 16) for the rest. */
    int regs = l->lanes >= 16 ? 32 : 16;
    v.rows = r.carried ? (regs - 8) / (2 * r.carried) : 0;
    if (v.rows > MAX_ROWS) v.rows = MAX_ROWS;
    if (!r.ok || !r.shared || v.rows < 2) return false;
    j.v = &v;
    /* A block of k reads about r.shared elements (4 bytes, say) in each of
     * 2 x L.lanes lanes per iteration. */
    int64_t kc = JAM_L1 / (r.shared * 2 * l->lanes * 4);
    split_k(&j, pre_vars, kc < 16 ? 16 : kc);
    j.q = l_slot(l, l->i64, "super");
    j.ob = l_slot(l, l->i64, "ob");
    j.jb = l_slot(l, l->i64, "jb");
    j.kq = l_slot(l, l->i64, "kq");
    j.r = l_slot(l, l->i64, "row");
    j.rows_end = l_exp(l, s->bound);
    j.inner_end = l_exp(l, in->bound);
    j.full_end = LLVMBuildSub(l->b, j.rows_end, LLVMBuildSRem(l->b, j.rows_end, l_i64(l, v.rows), ""), "");
    j.nkb = l_i64(l, 1);
    if (j.kloop) { /* at least one block, for the statements after kloop */
        j.k_end = l_exp(l, j.kloop->bound);
        LLVMValueRef n = LLVMBuildSDiv(l->b, LLVMBuildAdd(l->b, j.k_end, l_i64(l, j.kc - 1), ""), l_i64(l, j.kc), "");
        j.nkb = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSGT, n, j.nkb, ""), n, j.nkb, "");
    }
    int64_t rows = (int64_t)v.rows * JAM_BLOCKS;
    LLVMValueRef nsb = LLVMBuildSDiv(l->b, LLVMBuildAdd(l->b, j.full_end, l_i64(l, rows - 1), ""), l_i64(l, rows), "");
    l_loop(l, l->i64, j.q, l_i64(l, 0), nsb, 1, jam_super, &j);
    l_loop(l, l->i64, j.ob, l_i64(l, 0), j.full_end, v.rows, jam_rest_rows, &j);
    v.rows = 1;
    scalar_loop(&v, s, l_load(l, l->i64, j.ob), j.rows_end);
    return true;
}

/* ---- Whether lanes pay ---- */

/* Sets the strides of the variables c declares (as vstm will), to judge
 * its loads before any code is made. */
static void guess_strides(V *v, const ImpCode *c) {
    for (int i = 0; i < c->n; i++) {
        const ImpStm *s = c->stms[i];
        if (s->kind == IMP_DECL && s->init && !v->assigned[s->var->id]) v->stride[s->var->id] = exp_stride(v, s->init);
        guess_strides(v, &s->body);
        guess_strides(v, &s->orelse);
    }
}

static bool row_gathers(V *v, const ImpExp *e, int k);

/* Whether code c, in an inner loop g (NULL: none; f: the loop around it,
 * or NULL), loads by a gather an element whose index steps by one with
 * g's counter and by a fixed amount (not known when the code is made)
 * from lane to lane: each lane reads a row of its own of a dense matrix
 * (a matrix times a vector), not a stretch that data chose (a sparse
 * matrix's row, often short). Loads hoisted out of f do not count: they
 * are made once for all of f's iterations. */
static bool lanes_read_rows(V *v, const ImpCode *c, const ImpStm *f, const ImpStm *g) {
    const ImpExp *hoisted[MAX_BUFFERED];
    const ImpStm *hg = NULL;
    int nh = f && c == &g->body ? hoist_of(v, f, &hg, hoisted) : 0;
    if (hg != g) nh = 0;
    for (int i = 0; i < c->n; i++) {
        const ImpStm *s = c->stms[i];
        const ImpExp *es[] = {s->init, s->value, s->index, s->cond};
        for (size_t j = 0; g && j < sizeof es / sizeof *es; j++) {
            bool skip = false;
            for (int h = 0; h < nh; h++) skip |= es[j] == hoisted[h];
            if (es[j] && !skip && row_gathers(v, es[j], g->var->id)) return true;
        }
        bool loop = s->kind == IMP_FOR;
        if (lanes_read_rows(v, &s->body, loop ? g : f, loop ? s : g) || lanes_read_rows(v, &s->orelse, f, g))
            return true;
    }
    return false;
}

typedef struct Affine {
    V *v;
    bool ok;
} Affine;
static void affine_var(int id, void *ctx) {
    Affine *a = ctx;
    if (varying(a->v, id) && !a->v->stride[id]) a->ok = false;
}

static bool row_gathers(V *v, const ImpExp *e, int k) {
    Affine aff = {v, true};
    if (e->kind == IX_LOAD && e->index->kind == IX_SYM) sym_vars(e->index->sym, affine_var, &aff);
    if (e->kind == IX_LOAD && e->index->kind == IX_SYM && aff.ok && exp_varying(v, e->index) &&
        exp_stride(v, e->index) != 1) {
        Arena *a = v->l->a;
        const Sym *next = sym_subst(a, e->index->sym, k, sym_add(a, sym_var(a, k), sym_const(a, 1)));
        int64_t d;
        if (sym_is_const(sym_sub(a, next, e->index->sym), &d) && d == 1) return true;
    }
    for (int i = 0; (e->kind == IX_OP && i < op_arity(e->op)) || (e->kind == IX_CONV && i < 1); i++)
        if (row_gathers(v, e->args[i], k)) return true;
    return e->kind == IX_LOAD && row_gathers(v, e->index, k);
}

/* Whether e loads from memory. */
static bool exp_loads(const ImpExp *e) {
    if (!e) return false;
    if (e->kind == IX_LOAD) return true;
    for (int i = 0; i < imp_exp_nargs(e); i++)
        if (exp_loads(e->args[i])) return true;
    return false;
}

/* Whether code c has an inner loop (looped: c is in one) that loads or
 * stores; *loops is set when it has an inner loop. */
static bool loop_memory(const ImpCode *c, bool looped, bool *loops) {
    for (int i = 0; i < c->n; i++) {
        const ImpStm *s = c->stms[i];
        const ImpExp *es[] = {s->init, s->value, s->index, s->cond, s->bound};
        for (size_t j = 0; looped && j < sizeof es / sizeof *es; j++)
            if (exp_loads(es[j])) return true;
        if (looped && s->kind == IMP_STORE) return true;
        bool loop = s->kind == IMP_FOR || s->kind == IMP_WHILE;
        *loops |= loop;
        if (loop_memory(&s->body, looped || loop, loops) || loop_memory(&s->orelse, looped, loops)) return true;
    }
    return false;
}

/* How many vector registers' worth of iterations run at once: four where
 * the body loops over values in registers alone, with AVX-512 (Mandelbrot's
 * escape loop: a chain of dependent operations per lane in every
 * iteration, whose latency two registers' worth leaves exposed; one
 * thread: 39.8 -> 32.5 ms), else two. A loop that reads memory keeps more
 * values live (n-body's sum over the bodies: 140 ms either way with a
 * square root and a division, 111 -> 147 ms with f32.rsqrt, whose
 * estimate takes more registers: spills), and where each lane reads a row
 * of its own (trmv, spmv) four loses more: more streams than the
 * prefetchers follow (measured on the device, 16 cores, AVX-512). Without
 * AVX-512 (16 registers, not 32) always two: four spill (Mandelbrot for
 * Haswell 89.7 -> 94.0 ms). */
static int simd_regs(V *v, const ImpStm *s) {
    bool loops = false;
    return v->l->lanes >= 16 && !loop_memory(&s->body, false, &loops) && loops ? 4 : 2;
}

bool l_simd_for(L *l, const ImpStm *s) {
    if (s->var->t != PT_I64) return false;
    if (jam_for(l, s)) return true;
    V v = new_v(l);
    /* The innermost map's iterations go in lanes (neighbours in memory),
     * but for a map whose body loops besides its inner maps (k-means: the
     * loop over the centres, then the point's slots): its own. */
    for (int i = 0; i < s->body.n; i++)
        v.outer_lanes |= (s->body.stms[i]->kind == IMP_FOR && !s->body.stms[i]->vector) ||
                         s->body.stms[i]->kind == IMP_WHILE;
    scan(&v, &s->body);
    if (!v.ok) return false;
    v.inside[s->var->id] = 1;
    v.stride[s->var->id] = 1;
    mark_stored(&v, &s->body);
    /* Where each lane would read a dense row of its own along an inner
     * loop, the scalar loop is better: LLVM makes vector code of the inner
     * loop (a reduction along the row) instead of gathering from many rows
     * at once (on 2 local cores: k-means' assignment alone 68 -> 21 ms,
     * trmv 7.3 -> 3.0 ms). */
    guess_strides(&v, &s->body);
    if (lanes_read_rows(&v, &s->body, NULL, NULL)) return false;
    int regs = simd_regs(&v, s);
    find_uniform(&v, &s->body);
    memset(v.stride, 0, ((size_t)l->next_id + 1) * sizeof(int64_t));
    v.stride[s->var->id] = 1;
    LLVMValueRef bound = l_exp(l, s->bound), jb = l_slot(l, l->i64, "jb");
    LLVMBuildStore(l->b, l_i64(l, 0), jb);
    simd_loops(&v, s, jb, bound, regs);
    scalar_loop(&v, s, l_load(l, l->i64, jb), bound);
    return true;
}
