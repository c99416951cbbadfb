/* The lowering of functions (Prog.defs, scalar code that cannot fail) to
 * ImpFuns and of entry points to ImpEntries, and imp_lower itself.
 *
 * An entry point binds its arguments (IMP_ARG): a scalar, or an array's
 * block and its dimensions. A dimension whose size variable an earlier
 * argument (or dimension) bound, or whose size is a constant, is bound to
 * a fresh variable instead and checked against it (an IMP_ASSERT with no
 * location: "Entry point arguments have invalid sizes: ..."). The body
 * follows, then the results (IMP_RESULT), then the last releases. At
 * STAGE_GPU, and for the multicore backend, an array result that is not
 * row-major is first copied into a dense (device) block of its own
 * before any result is set, so that the entry's time, which leaves out
 * the writing of results, includes the copies; it is released after its
 * IMP_RESULT. */
#include "lower.h"

/* ---- Functions ------------------------------------------------------------------ */

static void res_return(ImpLower *L, const Body *b, void *ctx) {
    ImpStm *st = imp_add(L->b, IMP_RETURN);
    st->nargs = b->nres;
    st->args = NEW_ARRAY(L->a, ImpExp *, b->nres + 1);
    for (int k = 0; k < b->nres; k++) st->args[k] = lw_se(L, b->res[k]);
}

static ImpFun *lower_fun(ImpLower *L, int idx) {
    const Fun *f = L->p->defs[idx];
    ImpFun *fn = NEW(L->a, ImpFun);
    fn->name = f->name;
    fn->index = idx;
    fn->nparams = f->nparams;
    fn->params = NEW_ARRAY(L->a, ImpVar *, f->nparams + 1);
    for (int i = 0; i < f->nparams; i++) fn->params[i] = lw_var(L, f->params[i]);
    fn->nrets = f->nret;
    fn->rets = NEW_ARRAY(L->a, PrimType, f->nret + 1);
    for (int k = 0; k < f->nret; k++) fn->rets[k] = f->ret[k].elem;
    L->seq++; /* scalar code, which kernels call too */
    fn->body = lw_code(L, f->body, res_return, NULL);
    L->seq--;
    return fn;
}

/* ---- Entry points ------------------------------------------------------------------ */

/* Checks that dimension d of argument k (the fresh variable got) has the
 * size want. */
static void check_dim(ImpLower *L, const Fun *f, int k, int d, ImpVar *got, SubExp want) {
    ImpStm *st = imp_add(L->b, IMP_ASSERT);
    st->cond = imp_op2(L->a, OP_EQ, PT_I64, imp_read(L->a, got), lw_se(L, want));
    st->msg = arena_printf(L->a,
                           "Entry point arguments have invalid sizes: argument %d of %s has size {} in dimension %d, "
                           "but {} was expected.",
                           k + 1, f->name, d + 1);
    st->nargs = 2;
    st->args = NEW_ARRAY(L->a, ImpExp *, 2);
    st->args[0] = imp_read(L->a, got);
    st->args[1] = lw_se(L, want);
}

/* Binds parameter k: sizes (checked where already bound), then the value. */
static void lower_param(ImpLower *L, const Fun *f, int k, char *bound) {
    Var *v = f->params[k];
    ImpStm *st = imp_add(L->b, IMP_ARG);
    st->k = k;
    st->t = v->type.elem;
    if (v->type.kind != TK_ARRAY) {
        st->var = lw_var(L, v);
        return;
    }
    int r = v->type.rank;
    st->rank = r;
    st->mem = lw_var(L, v->mem->mem);
    st->unique = v->type.unique || (f->param_ext && f->param_ext[k].unique);
    st->dims = NEW_ARRAY(L->a, ImpVar *, r + 1);
    bool *check = NEW_ARRAY(L->a, bool, r + 1);
    for (int d = 0; d < r; d++) {
        SubExp s = v->type.shape[d];
        if (s.is_var && !bound[s.v->id]) {
            bound[s.v->id] = 1;
            st->dims[d] = lw_var(L, s.v);
            continue;
        }
        st->dims[d] = lw_fresh(L, "dim", IMP_SCALAR, PT_I64);
        check[d] = true;
    }
    for (int d = 0; d < r; d++)
        if (check[d]) check_dim(L, f, k, d, st->dims[d], v->type.shape[d]);
}

/* Copies array v (a result of entry f) into a new dense block (a device
 * block at STAGE_GPU), which *lmad gets the layout of. */
static ImpVar *manifest(ImpLower *L, const Fun *f, const Var *v, Lmad **lmad) {
    const Lmad *l = v->mem->ixfun;
    Sym **shape = NEW_ARRAY(L->a, Sym *, l->rank + 1);
    ImpExp *size = imp_i64(L->a, prim_size(v->type.elem));
    for (int d = 0; d < l->rank; d++) {
        shape[d] = l->dims[d].shape;
        size = imp_op2(L->a, OP_SIZE_MUL, PT_I64, size, imp_sym(L->a, shape[d]));
    }
    ImpVar *bytes = lw_fresh(L, "result_bytes", IMP_SCALAR, PT_I64);
    imp_decl(L->b, bytes, size);
    ImpVar *m = imp_block(L->ip, "result", L->space);
    imp_decl(L->b, m, NULL);
    ImpStm *al = imp_add(L->b, IMP_ALLOC);
    al->mem = m;
    al->size = imp_read(L->a, bytes);
    al->loc = f->loc;
    *lmad = lmad_row_major(L->a, l->rank, shape);
    ImpStm *cp = imp_add(L->b, IMP_COPY);
    cp->dst = m;
    cp->dst_lmad = *lmad;
    cp->src = lw_var(L, v->mem->mem);
    cp->src_lmad = (Lmad *)l;
    cp->t = v->type.elem;
    return m;
}

/* Sets the entry's results (ctx: its Fun): scalars, or arrays at their
 * blocks and LMADs (dense copies of device arrays that are not
 * row-major). */
static void res_outputs(ImpLower *L, const Body *b, void *ctx) {
    ImpVar **dense = NEW_ARRAY(L->a, ImpVar *, b->nres + 1);
    Lmad **dense_lmad = NEW_ARRAY(L->a, Lmad *, b->nres + 1);
    for (int k = 0; k < b->nres; k++) {
        SubExp r = b->res[k];
        if ((L->gpu || L->parallel) && r.is_var && r.v->type.kind == TK_ARRAY && !lmad_is_row_major(r.v->mem->ixfun))
            dense[k] = manifest(L, ctx, r.v, &dense_lmad[k]);
    }
    for (int k = 0; k < b->nres; k++) {
        SubExp r = b->res[k];
        Type t = subexp_type(r);
        ImpStm *st = imp_add(L->b, IMP_RESULT);
        st->k = k;
        st->t = t.elem;
        if (t.kind != TK_ARRAY) {
            st->value = lw_se(L, r);
            continue;
        }
        const Lmad *l = r.v->mem->ixfun;
        st->rank = t.rank;
        st->mem = dense[k] ? dense[k] : lw_var(L, r.v->mem->mem);
        st->lmad = dense[k] ? dense_lmad[k] : (Lmad *)l;
        st->shape = NEW_ARRAY(L->a, ImpExp *, t.rank + 1);
        for (int d = 0; d < t.rank; d++) st->shape[d] = imp_sym(L->a, l->dims[d].shape);
        if (dense[k]) imp_add(L->b, IMP_RELEASE)->mem = dense[k];
    }
}

static ImpEntry *lower_entry(ImpLower *L, const Fun *f) {
    ImpEntry *e = NEW(L->a, ImpEntry);
    e->src = f;
    LwNest n;
    lw_enter(L, &n);
    char *bound = arena_alloc(L->a, (size_t)L->p->next_var_id + 1);
    VEC(Var *) mems = {0};
    for (int k = 0; k < f->nparams; k++) {
        lower_param(L, f, k, bound);
        if (f->params[k]->type.kind == TK_ARRAY) vec_push(&mems, f->params[k]->mem->mem);
    }
    lw_body(L, f->body, res_outputs, (void *)f, mems.items, mems.len);
    vec_free(&mems);
    e->body = lw_leave(L, &n);
    return e;
}

ImpProg *imp_lower(const Prog *p, bool parallel) {
    if (p->stage != STAGE_MEM && p->stage != STAGE_GPU) ICE("imp_lower: the program must be at STAGE_MEM or STAGE_GPU");
    Arena *a = p->arena;
    ImpProg *ip = NEW(a, ImpProg);
    ip->arena = a;
    ip->next_id = p->next_var_id;
    bool gpu = p->stage == STAGE_GPU;
    if (gpu && parallel) ICE("imp_lower: parallel loops for a program at STAGE_GPU");
    ImpLower L = {.p = p, .ip = ip, .a = a, .gpu = gpu, .parallel = parallel,
                  .space = gpu ? IMP_SPACE_DEVICE : IMP_SPACE_HOST};
    L.vars = NEW_ARRAY(a, ImpVar *, p->next_var_id + 1);
    L.alloc_of = NEW_ARRAY(a, const Stm *, p->next_var_id + 1);
    L.thr_of = NEW_ARRAY(a, const Threshold *, p->next_var_id + 1);
    L.mark = calloc((size_t)p->next_var_id + 1, sizeof(int));
    if (!L.mark) ICE("out of memory");
    L.funs = NEW_ARRAY(a, ImpFun *, p->ndefs + 1);
    for (int i = 0; i < p->ndefs; i++) L.funs[i] = lower_fun(&L, i);
    ip->funs = L.funs;
    ip->nfuns = p->ndefs;
    ip->nentries = p->nfuns;
    ip->entries = NEW_ARRAY(a, ImpEntry *, p->nfuns + 1);
    for (int i = 0; i < p->nfuns; i++) {
        L.entry = p->funs[i];
        ip->entries[i] = lower_entry(&L, p->funs[i]);
    }
    free(L.mark);
    imp_narrow(ip);
    if (parallel) imp_jam(ip);
    imp_half(ip);
    imp_regcache(ip);
    return ip;
}
