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
 *    negative strides included), IE_REARRANGE and IE_RESHAPE share the block
 *    of their source with a transformed LMAD. A reshape that one LMAD cannot
 *    express (lmad_reshape gives NULL) first copies its source into a fresh
 *    row-major block.
 *  - Consumers write in place: IE_UPDATE, Scatter and Hist results share the
 *    block and LMAD of the consumed array.
 *  - Merges use existential memory (Futhark's approach, simplified): each
 *    array result of an IE_IF gets an extra TK_MEM pattern Var (and TK_MEM
 *    entry in ret, and branch result) and the row-major LMAD of its pattern
 *    type; each array parameter of an IE_LOOP gets an extra TK_MEM loop
 *    parameter (appended after the others, with its init, body result and
 *    pattern Var appended in the same order) and the row-major LMAD of its
 *    type. A branch or loop result (or loop init) that is already row-major
 *    at offset 0 passes its own block: no copy. Only a result that is not
 *    (a slice, a transposition) is copied into a fresh block first. A loop
 *    that updates its parameter in place thus never copies. The offset and
 *    strides are not made existential: that is the simple, sound strategy.
 *  - SOAC lambdas (Screma map, Scatter, Hist): an array parameter p is a row
 *    of its input array a, so it lives in a's block with a's LMAD indexed at
 *    the iteration. The IR has no Var for the iteration index, so by
 *    convention the index is written as the Sym variable p->id (the
 *    parameter's own id): the C backend binds that id to its loop counter.
 *    (A Var field for the iteration index in Screma/Scatter/Hist would be
 *    cleaner; see the report to the lead.)
 *  - Entry parameters get a block each (bound implicitly with the parameter)
 *    and the row-major LMAD of their type; entry results may have any LMAD:
 *    the backend writes them out row-major.
 *
 * Not supported yet: scan, reduce and histogram operators on arrays (the
 * operators' parameters must be scalars); such programs stop with an ICE.
 */
#include "passes.h"

#include <stdlib.h>
#include <string.h>

typedef VEC(Stm *) StmVec;

/* The pass state: the program (for fresh Vars) and its arena. */
typedef struct MemCtx {
    Prog *p;
    Arena *a;
} MemCtx;

static void mem_body(MemCtx *m, Body *b);

/* ---- Small helpers -------------------------------------------------------- */

static Sym *se_sym(MemCtx *m, SubExp se) {
    if (se.is_var) return sym_var(m->a, se.v->id);
    return sym_const(m->a, se.c.v.i);
}

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
    Stm *s = NEW(m->a, Stm);
    if (pat) {
        s->pat = NEW_ARRAY(m->a, Var *, 1);
        s->pat[0] = pat;
        s->npat = 1;
    }
    s->e = e;
    s->loc = loc;
    vec_push(out, s);
}

/* x * y as a SubExp, folding constants, emitting a multiplication otherwise. */
static SubExp emit_mul(MemCtx *m, StmVec *out, SubExp x, SubExp y, SrcLoc loc) {
    if (!x.is_var && !y.is_var) return se_i64(x.c.v.i * y.c.v.i);
    if (!x.is_var && x.c.v.i == 1) return y;
    if (!y.is_var && y.c.v.i == 1) return x;
    IrExp *e = new_exp(m, IE_OP);
    e->op = OP_MUL;
    e->t = PT_I64;
    e->nargs = 2;
    e->args = NEW_ARRAY(m->a, SubExp, 2);
    e->args[0] = x;
    e->args[1] = y;
    Var *v = ir_var(m->p, "bytes", type_prim(PT_I64));
    push_stm(m, out, v, e, loc);
    return se_var(v);
}

/* Emits the byte size of an array of type t. */
static SubExp emit_bytes(MemCtx *m, StmVec *out, Type t, SrcLoc loc) {
    SubExp n = se_i64(prim_size(t.elem));
    for (int i = 0; i < t.rank; i++) n = emit_mul(m, out, n, t.shape[i], loc);
    return n;
}

/* Emits an IE_ALLOC for an array of type t and returns the block. */
static Var *emit_alloc(MemCtx *m, StmVec *out, Type t, const char *base, SrcLoc loc) {
    IrExp *e = new_exp(m, IE_ALLOC);
    e->size = emit_bytes(m, out, t, loc);
    Var *mem = new_mem_var(m, base);
    push_stm(m, out, mem, e, loc);
    return mem;
}

/* Gives v a fresh row-major block allocated before the statement at loc. */
static void give_fresh(MemCtx *m, StmVec *out, Var *v, SrcLoc loc) {
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
    if (n) memcpy(p, items, sz * (size_t)n);
    memcpy(p + sz * (size_t)n, item, sz);
    return p;
}

/* Appends one item to an arena array field and bumps its count. */
#define APPEND(m, arr, n, item) ((arr) = append((m)->a, (arr), (n)++, sizeof *(arr), &(item)))

/* ---- Views ---------------------------------------------------------------- */

static LmadSlice *lmad_slices(MemCtx *m, const DimSlice *sl, int n) {
    LmadSlice *ls = NEW_ARRAY(m->a, LmadSlice, n + 1);
    for (int i = 0; i < n; i++) {
        ls[i].is_index = !sl[i].is_slice;
        if (ls[i].is_index) {
            ls[i].index = se_sym(m, sl[i].index);
            continue;
        }
        ls[i].start = se_sym(m, sl[i].start);
        ls[i].len = se_sym(m, sl[i].len);
        ls[i].stride = se_sym(m, sl[i].stride);
    }
    return ls;
}

static void mem_index(MemCtx *m, Stm *s) {
    IrExp *e = s->e;
    if (!is_array(s->pat[0])) return;
    Lmad *l = lmad_slice(m->a, e->arr->mem->ixfun, lmad_slices(m, e->slice, e->nslice), e->nslice);
    s->pat[0]->mem = mem_info(m, e->arr->mem->mem, l);
}

/* A reshape is a view when one LMAD expresses it, else a copy then a view. */
static void mem_reshape(MemCtx *m, StmVec *out, Stm *s) {
    IrExp *e = s->e;
    Sym **shape = NEW_ARRAY(m->a, Sym *, e->nshape + 1);
    for (int i = 0; i < e->nshape; i++) shape[i] = se_sym(m, e->shape[i]);
    Lmad *l = lmad_reshape(m->a, e->arr->mem->ixfun, e->nshape, shape);
    if (!l) {
        e->arr = emit_copy(m, out, e->arr, s->loc);
        l = lmad_reshape(m->a, e->arr->mem->ixfun, e->nshape, shape);
        if (!l) ICE("memory: reshape of a row-major array is not expressible");
    }
    s->pat[0]->mem = mem_info(m, e->arr->mem->mem, l);
}

/* ---- SOACs ---------------------------------------------------------------- */

/* An array parameter of a SOAC lambda is row p->id of its input array. */
static void mem_soac_lambda(MemCtx *m, Lambda *lam, Var **arrs, int narrs) {
    for (int i = 0; i < lam->nparams && i < narrs; i++) {
        Var *p = lam->params[i];
        if (!is_array(p)) continue;
        LmadSlice fix = {0};
        fix.is_index = true;
        fix.index = sym_var(m->a, p->id);
        p->mem = mem_info(m, arrs[i]->mem->mem, lmad_slice(m->a, arrs[i]->mem->ixfun, &fix, 1));
    }
    mem_body(m, lam->body);
}

static void check_scalar_op(const SegOp *op, const char *what) {
    for (int i = 0; i < op->op->nparams; i++)
        if (op->op->params[i]->type.kind != TK_PRIM)
            ICE("memory: %s operators on arrays are not supported yet", what);
    mem_body(NULL, op->op->body);
}

static void mem_screma(MemCtx *m, StmVec *out, Stm *s) {
    Screma *sc = &s->e->screma;
    mem_soac_lambda(m, sc->map, sc->arrs, sc->narrs);
    int nscan = 0, nred = 0;
    for (int i = 0; i < sc->nscans; i++) {
        check_scalar_op(&sc->scans[i], "scan");
        nscan += sc->scans[i].k;
    }
    for (int i = 0; i < sc->nreds; i++) {
        check_scalar_op(&sc->reds[i], "reduce");
        nred += sc->reds[i].k;
    }
    for (int i = 0; i < s->npat; i++) {
        bool red = i >= nscan && i < nscan + nred;
        if (!red) give_fresh(m, out, s->pat[i], s->loc);
    }
}

static void mem_scatter(MemCtx *m, Stm *s) {
    Scatter *sc = &s->e->scatter;
    mem_soac_lambda(m, sc->lam, sc->arrs, sc->narrs);
    for (int i = 0; i < s->npat && i < sc->ndests; i++) s->pat[i]->mem = sc->dests[i]->mem;
}

static void mem_hist(MemCtx *m, Stm *s) {
    Hist *h = &s->e->hist;
    mem_soac_lambda(m, h->lam, h->arrs, h->narrs);
    for (int i = 0; i < h->op.k; i++)
        if (h->dests[i]->type.rank != 1) ICE("memory: histograms of arrays are not supported yet");
    check_scalar_op(&h->op, "histogram");
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

static void mem_if(MemCtx *m, Stm *s) {
    IrExp *e = s->e;
    mem_body(m, e->tbody);
    mem_body(m, e->fbody);
    int n = e->nret;
    Type memt = {0};
    memt.kind = TK_MEM;
    for (int k = 0; k < n; k++) {
        if (e->ret[k].kind != TK_ARRAY) continue;
        SubExp tm = result_block(m, e->tbody, k, s->loc);
        SubExp fm = result_block(m, e->fbody, k, s->loc);
        APPEND(m, e->tbody->res, e->tbody->nres, tm);
        APPEND(m, e->fbody->res, e->fbody->nres, fm);
        APPEND(m, e->ret, e->nret, memt);
        add_pattern_mem(m, s, s->pat[k]);
    }
}

static void mem_loop(MemCtx *m, StmVec *out, Stm *s) {
    Loop *l = &s->e->loop;
    int n = l->nparams;
    for (int k = 0; k < n; k++) {
        Var *p = l->params[k];
        if (!is_array(p)) continue;
        Var *mp = new_mem_var(m, p->name);
        p->mem = mem_info(m, mp, row_major_of(m, p->type));
        Var *init = l->inits[k].v;
        if (!in_row_major(init)) {
            init = emit_copy(m, out, init, s->loc);
            l->inits[k] = se_var(init);
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
}

/* ---- Statements and bodies ------------------------------------------------ */

static void mem_stm(MemCtx *m, StmVec *out, Stm *s) {
    IrExp *e = s->e;
    Var *pat0 = s->npat > 0 ? s->pat[0] : NULL;
    switch (e->kind) {
    case IE_SUBEXP:
        if (is_array(pat0) && e->se.is_var) pat0->mem = e->se.v->mem;
        break;
    case IE_INDEX: mem_index(m, s); break;
    case IE_REARRANGE:
        pat0->mem = mem_info(m, e->arr->mem->mem, lmad_permute(m->a, e->arr->mem->ixfun, e->perm));
        break;
    case IE_RESHAPE: mem_reshape(m, out, s); break;
    case IE_UPDATE: pat0->mem = e->arr->mem; break;
    case IE_IOTA:
    case IE_REPLICATE:
    case IE_SCRATCH:
    case IE_CONCAT:
    case IE_COPY:
    case IE_ARRAYLIT: give_fresh(m, out, pat0, s->loc); break;
    case IE_SCREMA: mem_screma(m, out, s); break;
    case IE_SCATTER: mem_scatter(m, s); break;
    case IE_HIST: mem_hist(m, s); break;
    case IE_IF: mem_if(m, s); break;
    case IE_LOOP: mem_loop(m, out, s); break;
    case IE_ALLOC: ICE("memory: the program already has memory blocks");
    default: break;
    }
    vec_push(out, s);
}

/* Rewrites b's statements in place (m NULL: a scalar operator body, which
 * has nothing to do unless it holds arrays). */
static void mem_body(MemCtx *m, Body *b) {
    if (!m) {
        for (int i = 0; i < b->nstms; i++)
            for (int j = 0; j < b->stms[i]->npat; j++)
                if (is_array(b->stms[i]->pat[j])) ICE("memory: arrays inside scan/reduce operators are not supported yet");
        return;
    }
    StmVec out = {0};
    for (int i = 0; i < b->nstms; i++) mem_stm(m, &out, b->stms[i]);
    b->stms = vec_to_arena(m->a, &out);
    b->nstms = out.len;
    vec_free(&out);
}

static void mem_fun(MemCtx *m, Fun *f) {
    for (int i = 0; i < f->nparams; i++) {
        Var *v = f->params[i];
        if (!is_array(v)) continue;
        v->mem = mem_info(m, new_mem_var(m, v->name), row_major_of(m, v->type));
    }
    mem_body(m, f->body);
}

void pass_memory(Prog *p) {
    if (p->stage != STAGE_SOACS) ICE("pass_memory: expected a program at STAGE_SOACS");
    MemCtx m = {p, p->arena};
    for (int i = 0; i < p->nfuns; i++) mem_fun(&m, p->funs[i]);
    p->stage = STAGE_MEM;
}
