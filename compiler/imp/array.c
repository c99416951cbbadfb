/* The lowering of array statements through LMADs (FunMem's index
 * functions, compiler/ir/lmad.h): an element is read or written at the
 * element offset its array's LMAD gives; copies between layouts are
 * IMP_COPY; fills (a scalar stored into every element of a region) and
 * iotas are loops, or on a device block of host code IMP_FILL and
 * IMP_IOTA. Views (slices, reshapes, rearranges) were done by the
 * memory pass: they change LMADs, not data, and lower to nothing. */
#include "lower.h"

ImpExp *lw_offset(ImpLower *L, const Lmad *l, Sym *const *idx) { return imp_sym(L->a, lmad_index(L->a, l, idx)); }

ImpExp *lw_elem(ImpLower *L, const Var *arr, Sym *const *idx) {
    const MemInfo *m = arr->mem;
    return imp_load(L->a, lw_var(L, m->mem), arr->type.elem, lw_offset(L, m->ixfun, idx));
}

Lmad *lw_row(ImpLower *L, const Lmad *l, Sym *i) {
    LmadSlice s = {0};
    s.is_index = true;
    s.index = i;
    return lmad_slice(L->a, l, &s, 1);
}

void lw_copy(ImpLower *L, const Var *dmem, const Lmad *dl, const Var *smem, const Lmad *sl, PrimType t) {
    if (smem == dmem && lmad_equal(sl, dl)) return;
    ImpStm *s = imp_add(L->b, IMP_COPY);
    s->dst = lw_var(L, dmem);
    s->src = lw_var(L, smem);
    s->dst_lmad = (Lmad *)dl;
    s->src_lmad = (Lmad *)sl;
    s->t = t;
}

/* Loops over the elements of layout dl of block dmem (dimensions laid
 * out contiguously merged into one loop) that store value into each; a
 * device block is filled on the device. */
static void lw_fill(ImpLower *L, const Var *dmem, const Lmad *dl, ImpExp *value, PrimType t) {
    if (lw_on_device(L, dmem)) {
        ImpStm *s = imp_add(L->b, IMP_FILL);
        s->dst = lw_var(L, dmem);
        s->dst_lmad = (Lmad *)dl;
        s->t = t;
        s->value = value;
        return;
    }
    const Lmad *unused;
    lmad_merge_pair(L->a, dl, dl, &dl, &unused);
    int r = dl->rank;
    Sym **idx = NEW_ARRAY(L->a, Sym *, r + 1);
    LwNest *nests = NEW_ARRAY(L->a, LwNest, r + 1);
    ImpStm **loops = NEW_ARRAY(L->a, ImpStm *, r + 1);
    for (int d = 0; d < r; d++) {
        ImpVar *c = lw_fresh(L, "c", IMP_SCALAR, PT_I64);
        idx[d] = sym_var(L->a, c->id);
        loops[d] = lw_for(L, &nests[d], c, imp_sym(L->a, dl->dims[d].shape));
    }
    imp_store(L->b, lw_var(L, dmem), t, lw_offset(L, dl, idx), value);
    for (int d = r - 1; d >= 0; d--) loops[d]->body = lw_leave(L, &nests[d]);
}

void lw_store(ImpLower *L, const Var *dmem, const Lmad *dl, SubExp se, PrimType t) {
    if (se.is_var && se.v->type.kind == TK_ARRAY) {
        lw_copy(L, dmem, dl, se.v->mem->mem, se.v->mem->ixfun, t);
        return;
    }
    if (dl->rank == 0) {
        imp_store(L->b, lw_var(L, dmem), t, lw_offset(L, dl, NULL), lw_se(L, se));
        return;
    }
    lw_fill(L, dmem, dl, lw_se(L, se), t);
}

static void lw_index(ImpLower *L, const Stm *s) {
    const IrExp *e = s->e;
    if (s->pat[0]->type.kind == TK_ARRAY) return; /* a view: memory.c set its LMAD */
    Sym **idx = NEW_ARRAY(L->a, Sym *, e->nslice + 1);
    for (int i = 0; i < e->nslice; i++) idx[i] = ir_se_sym(L->a, e->slice[i].index);
    lw_declare(L, s->pat[0], lw_elem(L, e->arr, idx));
}

static void lw_update(ImpLower *L, const Stm *s) {
    const IrExp *e = s->e;
    lw_store(L, e->arr->mem->mem, ir_region(L->a, e->arr->mem->ixfun, e), e->se, e->arr->type.elem);
}

/* xs[c] = start + (t)c * step for c < n (on the device for a device block). */
static void lw_iota(ImpLower *L, const Stm *s) {
    const IrExp *e = s->e;
    Var *v = s->pat[0];
    if (lw_on_device(L, v->mem->mem)) {
        ImpStm *st = imp_add(L->b, IMP_IOTA);
        st->dst = lw_var(L, v->mem->mem);
        st->dst_lmad = v->mem->ixfun;
        st->t = e->t;
        st->bound = lw_se(L, e->n);
        st->value = lw_se(L, e->start);
        st->step = lw_se(L, e->step);
        return;
    }
    ImpVar *c = lw_fresh(L, "c", IMP_SCALAR, PT_I64);
    Sym *idx = sym_var(L->a, c->id);
    LwNest n;
    ImpStm *f = lw_for(L, &n, c, lw_se(L, e->n));
    ImpExp *i = imp_read(L->a, c);
    if (e->t != PT_I64) i = imp_conv(L->a, PT_I64, e->t, i);
    ImpExp *x = imp_op2(L->a, OP_ADD, e->t, lw_se(L, e->start), imp_op2(L->a, OP_MUL, e->t, i, lw_se(L, e->step)));
    imp_store(L->b, lw_var(L, v->mem->mem), e->t, lw_offset(L, v->mem->ixfun, &idx), x);
    f->body = lw_leave(L, &n);
}

/* A replicated array is copied from a layout of its source whose leading
 * dimensions (the replicate's shape) have stride 0. */
static void lw_replicate(ImpLower *L, const Stm *s) {
    const IrExp *e = s->e;
    Var *v = s->pat[0];
    if (!e->se.is_var || e->se.v->type.kind != TK_ARRAY) {
        lw_store(L, v->mem->mem, v->mem->ixfun, e->se, v->type.elem);
        return;
    }
    const Var *src = e->se.v;
    const Lmad *sl = src->mem->ixfun, *dl = v->mem->ixfun;
    int lead = dl->rank - sl->rank;
    if (lead < 0) ICE("imp_lower: replicate of rank %d into rank %d", sl->rank, dl->rank);
    Lmad *bl = NEW(L->a, Lmad);
    bl->rank = dl->rank;
    bl->offset = sl->offset;
    bl->dims = NEW_ARRAY(L->a, LmadDim, dl->rank + 1);
    for (int d = 0; d < lead; d++) bl->dims[d] = (LmadDim){sym_const(L->a, 0), dl->dims[d].shape};
    for (int d = 0; d < sl->rank; d++) bl->dims[lead + d] = sl->dims[d];
    lw_copy(L, v->mem->mem, dl, src->mem->mem, bl, v->type.elem);
}

static void lw_concat(ImpLower *L, const Stm *s) {
    const IrExp *e = s->e;
    Var *v = s->pat[0];
    Sym *off = sym_const(L->a, 0);
    for (int i = 0; i < e->narrs; i++) {
        Var *a = e->arrs[i];
        LmadSlice sl = {0};
        sl.start = off;
        sl.len = a->mem->ixfun->dims[0].shape;
        sl.stride = sym_const(L->a, 1);
        lw_copy(L, v->mem->mem, lmad_slice(L->a, v->mem->ixfun, &sl, 1), a->mem->mem, a->mem->ixfun, v->type.elem);
        off = sym_add(L->a, off, sl.len);
    }
}

static void lw_arraylit(ImpLower *L, const Stm *s) {
    const IrExp *e = s->e;
    Var *v = s->pat[0];
    for (int i = 0; i < e->nargs; i++)
        lw_store(L, v->mem->mem, lw_row(L, v->mem->ixfun, sym_const(L->a, i)), e->args[i], v->type.elem);
}

void lw_array_stm(ImpLower *L, const Stm *s) {
    const IrExp *e = s->e;
    switch (e->kind) {
    case IE_INDEX: lw_index(L, s); break;
    case IE_UPDATE:
    case IE_FLAT_UPDATE: lw_update(L, s); break;
    case IE_IOTA: lw_iota(L, s); break;
    case IE_REPLICATE: lw_replicate(L, s); break;
    case IE_COPY: {
        const Var *d = s->pat[0];
        lw_copy(L, d->mem->mem, d->mem->ixfun, e->arr->mem->mem, e->arr->mem->ixfun, e->arr->type.elem);
        break;
    }
    case IE_CONCAT: lw_concat(L, s); break;
    case IE_ARRAYLIT: lw_arraylit(L, s); break;
    default: ICE("imp_lower: not an array statement");
    }
}
