/* The IR verifier (ir_verify, ir.h): every Var bound once before use,
 * operand and result types that agree, lambdas of the right arities, and
 * MemInfo at STAGE_MEM. A violation is an internal compiler error naming
 * the pass after which it was found. */
#include "ir.h"

/* ---- Verification --------------------------------------------------------- */

/* Checker state: which Var ids have been bound (ever) and which are in scope
 * now; scope is a stack of ids so bodies can pop what they bound. */
typedef struct Verifier {
    const Prog *p;
    const char *pass;
    const char *fun;
    char *bound;    /* by id */
    char *in_scope; /* by id */
    const Var **var_of; /* by id: the bound Var */
    VEC(int) stack;
    const Var *checking; /* the array whose index function is being checked */
    int ncallable;       /* calls may go to p->defs[0 .. ncallable) */
} Verifier;

#define VFAIL(vf, ...)                                                                              \
    ICE("IR check failed after pass '%s' in entry '%s': %s", (vf)->pass, (vf)->fun,                 \
        arena_printf((vf)->p->arena, __VA_ARGS__))

static const char *vname(const Verifier *vf, const Var *v) {
    return v ? arena_printf(vf->p->arena, "%s_%d", v->name, v->id) : "<null>";
}

static void check_id(Verifier *vf, const Var *v) {
    if (!v) VFAIL(vf, "null variable");
    if (v->id <= 0 || v->id >= vf->p->next_var_id)
        VFAIL(vf, "variable %s has id outside 1..%d", vname(vf, v), vf->p->next_var_id - 1);
}

static void check_mem_info(Verifier *vf, const Var *v);

/* Binds v: it must not have been bound before anywhere in the program. */
static void bind(Verifier *vf, Var *v) {
    check_id(vf, v);
    if (vf->bound[v->id]) VFAIL(vf, "variable %s is bound twice", vname(vf, v));
    vf->bound[v->id] = 1;
    vf->in_scope[v->id] = 1;
    vf->var_of[v->id] = v;
    vec_push(&vf->stack, v->id);
}

/* Binds an implicitly bound Var (entry parameter sizes and memory) unless it
 * is already in scope. */
static void bind_implicit(Verifier *vf, Var *v) {
    check_id(vf, v);
    if (!vf->in_scope[v->id]) bind(vf, v);
}

static void pop_scope(Verifier *vf, int mark) {
    while (vf->stack.len > mark) vf->in_scope[vf->stack.items[--vf->stack.len]] = 0;
}

static void use_var(Verifier *vf, const Var *v) {
    check_id(vf, v);
    if (!vf->in_scope[v->id]) VFAIL(vf, "variable %s used out of scope", vname(vf, v));
}

static void use_se(Verifier *vf, SubExp se) {
    if (se.is_var) use_var(vf, se.v);
}

static const char *tname(const Verifier *vf, Type t) {
    Buf b = {0};
    ir_print_type(&b, t);
    const char *s = arena_strdup(vf->p->arena, b.data ? b.data : "");
    buf_free(&b);
    return s;
}

/* Types agree in kind, element type and rank (shapes are not compared:
 * they may be existential). */
static bool type_compat(Type a, Type b) {
    if (a.kind != b.kind) return false;
    if (a.kind == TK_MEM) return true;
    if (a.elem != b.elem) return false;
    return a.kind == TK_PRIM || a.rank == b.rank;
}

static void expect_type(Verifier *vf, Type got, Type want, const char *what) {
    if (!type_compat(got, want))
        VFAIL(vf, "%s has type %s, expected %s", what, tname(vf, got), tname(vf, want));
}

static void expect_prim(Verifier *vf, SubExp se, PrimType t, const char *what) {
    use_se(vf, se);
    expect_type(vf, subexp_type(se), type_prim(t), what);
}

static void expect_array(Verifier *vf, const Var *v, const char *what) {
    use_var(vf, v);
    if (v->type.kind != TK_ARRAY) VFAIL(vf, "%s %s is not an array", what, vname(vf, v));
}

/* A variable of the index function of vf->checking: an i64 Var in scope. */
static void check_lmad_var(int id, void *ctx) {
    Verifier *vf = ctx;
    const Var *v = vf->checking;
    if (id <= 0 || id >= vf->p->next_var_id || !vf->in_scope[id])
        VFAIL(vf, "index function of %s mentions v%d, which is not a variable in scope", vname(vf, v), id);
    Type t = vf->var_of[id]->type;
    if (t.kind != TK_PRIM || t.elem != PT_I64)
        VFAIL(vf, "index function of %s mentions %s, which is not an i64", vname(vf, v),
              vname(vf, vf->var_of[id]));
}

/* Every Sym variable of v's index function (offset, strides, shape). */
static void check_lmad_vars(Verifier *vf, const Var *v) {
    const Lmad *l = v->mem->ixfun;
    vf->checking = v;
    sym_vars(l->offset, check_lmad_var, vf);
    for (int k = 0; k < l->rank; k++) {
        sym_vars(l->dims[k].stride, check_lmad_var, vf);
        sym_vars(l->dims[k].shape, check_lmad_var, vf);
    }
}

/* At STAGE_MEM an array Var needs a MemInfo whose block is a mem Var in scope. */
static void check_mem_info(Verifier *vf, const Var *v) {
    if (vf->p->stage < STAGE_MEM || v->type.kind != TK_ARRAY) return;
    if (!v->mem || !v->mem->mem || !v->mem->ixfun)
        VFAIL(vf, "array %s has no memory information", vname(vf, v));
    if (v->mem->mem->type.kind != TK_MEM)
        VFAIL(vf, "memory of %s, %s, is not a memory block", vname(vf, v), vname(vf, v->mem->mem));
    use_var(vf, v->mem->mem);
    if (v->mem->ixfun->rank != v->type.rank)
        VFAIL(vf, "index function of %s has rank %d, the array %d", vname(vf, v),
              v->mem->ixfun->rank, v->type.rank);
    check_lmad_vars(vf, v);
}

static void verify_body(Verifier *vf, const Body *b, const Type *ret, int nret, const char *what);

/* Binds a lambda's parameters, checks its body against its return types and
 * its parameter types against the expected ones (NULL: unchecked). */
static void verify_lambda(Verifier *vf, const Lambda *l, const Type *params, int nparams,
                          const char *what) {
    if (!l) VFAIL(vf, "%s: missing lambda", what);
    if (l->nparams != nparams)
        VFAIL(vf, "%s: lambda has %d parameters, expected %d", what, l->nparams, nparams);
    int mark = vf->stack.len;
    for (int i = 0; i < l->nparams; i++) {
        bind(vf, l->params[i]);
        if (params) expect_type(vf, l->params[i]->type, params[i], "lambda parameter");
    }
    for (int i = 0; i < l->nparams; i++) check_mem_info(vf, l->params[i]);
    verify_body(vf, l->body, l->ret, l->nret, what);
    pop_scope(vf, mark);
}

static Type *row_types(Verifier *vf, Var *const *arrs, int n) {
    Type *ts = NEW_ARRAY(vf->p->arena, Type, n ? n : 1);
    for (int i = 0; i < n; i++) {
        expect_array(vf, arrs[i], "SOAC input");
        ts[i] = type_row(arrs[i]->type);
    }
    return ts;
}

/* A scan/reduce operator: 2k parameters, k results, k neutral elements. */
static void verify_segop(Verifier *vf, const SegOp *op, const Type *elems, const char *what) {
    if (!op->op || op->op->nret != op->k)
        VFAIL(vf, "%s operator must return %d values", what, op->k);
    Type *ps = NEW_ARRAY(vf->p->arena, Type, 2 * op->k + 1);
    for (int i = 0; i < op->k; i++) {
        use_se(vf, op->neutral[i]);
        ps[i] = ps[op->k + i] = elems ? elems[i] : subexp_type(op->neutral[i]);
        expect_type(vf, subexp_type(op->neutral[i]), ps[i], "neutral element");
        expect_type(vf, op->op->ret[i], ps[i], "operator result");
    }
    verify_lambda(vf, op->op, ps, 2 * op->k, what);
}

static void expect_npat(Verifier *vf, const Stm *s, int n) {
    if (s->npat != n) VFAIL(vf, "statement binds %d variables, expected %d", s->npat, n);
}

/* Brings a SOAC's iteration index into scope (required at STAGE_MEM);
 * returns the scope mark to pop to after the SOAC's lambdas. */
static int bind_iter(Verifier *vf, Var *iter) {
    int mark = vf->stack.len;
    if (vf->p->stage >= STAGE_MEM && !iter) VFAIL(vf, "SOAC without an iteration index");
    if (!iter) return mark;
    bind(vf, iter);
    expect_type(vf, iter->type, type_prim(PT_I64), "SOAC iteration index");
    return mark;
}

static void verify_screma(Verifier *vf, const Stm *s) {
    const Screma *sc = &s->e->screma;
    expect_prim(vf, sc->w, PT_I64, "screma width");
    Type *rows = row_types(vf, sc->arrs, sc->narrs);
    int mark = bind_iter(vf, sc->iter);
    const Lambda *m = sc->map;
    verify_lambda(vf, m, rows, sc->narrs, "screma map");
    int pos = 0;
    for (int i = 0; i < sc->nscans; i++) {
        if (pos + sc->scans[i].k > m->nret) VFAIL(vf, "screma map returns too few values");
        verify_segop(vf, &sc->scans[i], m->ret + pos, "scan");
        pos += sc->scans[i].k;
    }
    for (int i = 0; i < sc->nreds; i++) {
        if (pos + sc->reds[i].k > m->nret) VFAIL(vf, "screma map returns too few values");
        verify_segop(vf, &sc->reds[i], m->ret + pos, "reduce");
        pos += sc->reds[i].k;
    }
    pop_scope(vf, mark);
    int scan_end = 0;
    for (int j = 0; j < sc->nscans; j++) scan_end += sc->scans[j].k;
    expect_npat(vf, s, m->nret);
    for (int i = 0; i < m->nret; i++) {
        Type r = m->ret[i];
        bool red = i >= scan_end && i < pos;
        Type got = s->pat[i]->type;
        if (red) expect_type(vf, got, r, "reduction result");
        else if (got.kind != TK_ARRAY || got.elem != r.elem ||
                 got.rank != (r.kind == TK_ARRAY ? r.rank : 0) + 1)
            VFAIL(vf, "screma result %s has type %s for lambda result %s", vname(vf, s->pat[i]),
                  tname(vf, got), tname(vf, r));
    }
}

static void verify_scatter(Verifier *vf, const Stm *s) {
    const Scatter *sc = &s->e->scatter;
    expect_prim(vf, sc->w, PT_I64, "scatter width");
    Type *rows = row_types(vf, sc->arrs, sc->narrs);
    int mark = bind_iter(vf, sc->iter);
    verify_lambda(vf, sc->lam, rows, sc->narrs, "scatter");
    pop_scope(vf, mark);
    if (sc->lam->nret != 2 * sc->ndests) VFAIL(vf, "scatter lambda must return 2*%d values", sc->ndests);
    expect_npat(vf, s, sc->ndests);
    for (int i = 0; i < sc->ndests; i++) {
        expect_array(vf, sc->dests[i], "scatter destination");
        expect_type(vf, sc->lam->ret[i], type_prim(PT_I64), "scatter index");
        expect_type(vf, sc->lam->ret[sc->ndests + i], type_row(sc->dests[i]->type), "scatter value");
        expect_type(vf, s->pat[i]->type, sc->dests[i]->type, "scatter result");
    }
}

static void verify_hist(Verifier *vf, const Stm *s) {
    const Hist *h = &s->e->hist;
    expect_prim(vf, h->w, PT_I64, "hist width");
    expect_prim(vf, h->dest_w, PT_I64, "hist destination width");
    Type *rows = row_types(vf, h->arrs, h->narrs);
    int mark = bind_iter(vf, h->iter);
    verify_lambda(vf, h->lam, rows, h->narrs, "hist");
    if (h->lam->nret != 1 + h->op.k) VFAIL(vf, "hist lambda must return 1+%d values", h->op.k);
    expect_type(vf, h->lam->ret[0], type_prim(PT_I64), "hist bucket");
    Type *elems = NEW_ARRAY(vf->p->arena, Type, h->op.k + 1);
    expect_npat(vf, s, h->op.k);
    for (int i = 0; i < h->op.k; i++) {
        expect_array(vf, h->dests[i], "hist destination");
        elems[i] = type_row(h->dests[i]->type);
        expect_type(vf, h->lam->ret[1 + i], elems[i], "hist value");
        expect_type(vf, s->pat[i]->type, h->dests[i]->type, "hist result");
    }
    verify_segop(vf, &h->op, elems, "hist operator");
    pop_scope(vf, mark);
}

static void verify_loop(Verifier *vf, const Stm *s) {
    const Loop *l = &s->e->loop;
    expect_npat(vf, s, l->nparams);
    for (int i = 0; i < l->nparams; i++) {
        use_se(vf, l->inits[i]);
        expect_type(vf, subexp_type(l->inits[i]), l->params[i]->type, "loop initial value");
        expect_type(vf, s->pat[i]->type, l->params[i]->type, "loop result");
    }
    if (l->kind == IR_LOOP_FOR) expect_prim(vf, l->bound, PT_I64, "loop bound");
    int mark = vf->stack.len;
    for (int i = 0; i < l->nparams; i++) bind(vf, l->params[i]);
    for (int i = 0; i < l->nparams; i++) check_mem_info(vf, l->params[i]);
    if (l->kind == IR_LOOP_FOR) {
        bind(vf, l->i);
        expect_type(vf, l->i->type, type_prim(PT_I64), "loop index");
    } else {
        use_var(vf, l->cond);
        expect_type(vf, l->cond->type, type_prim(PT_BOOL), "loop condition");
        bool found = false;
        for (int i = 0; i < l->nparams; i++) found |= l->params[i] == l->cond;
        if (!found) VFAIL(vf, "while-loop condition %s is not a loop parameter", vname(vf, l->cond));
    }
    Type *ts = NEW_ARRAY(vf->p->arena, Type, l->nparams + 1);
    for (int i = 0; i < l->nparams; i++) ts[i] = l->params[i]->type;
    verify_body(vf, l->body, ts, l->nparams, "loop body");
    pop_scope(vf, mark);
}

static void verify_if(Verifier *vf, const Stm *s) {
    const IrExp *e = s->e;
    expect_prim(vf, e->cond, PT_BOOL, "if condition");
    expect_npat(vf, s, e->nret);
    for (int i = 0; i < e->nret; i++) expect_type(vf, s->pat[i]->type, e->ret[i], "if result");
    int mark = vf->stack.len;
    verify_body(vf, e->tbody, e->ret, e->nret, "then branch");
    pop_scope(vf, mark);
    verify_body(vf, e->fbody, e->ret, e->nret, "else branch");
    pop_scope(vf, mark);
}

/* Checks an index or update slice against arr; returns the rank left. */
static int verify_slice(Verifier *vf, const Var *arr, const DimSlice *sl, int n) {
    expect_array(vf, arr, "indexed");
    if (n > arr->type.rank) VFAIL(vf, "%d indices for array %s of rank %d", n, vname(vf, arr), arr->type.rank);
    int rank = arr->type.rank;
    for (int i = 0; i < n; i++) {
        if (!sl[i].is_slice) {
            expect_prim(vf, sl[i].index, PT_I64, "index");
            rank--;
            continue;
        }
        expect_prim(vf, sl[i].start, PT_I64, "slice start");
        expect_prim(vf, sl[i].len, PT_I64, "slice length");
        expect_prim(vf, sl[i].stride, PT_I64, "slice stride");
    }
    return rank;
}

static void expect_shape(Verifier *vf, const Stm *s, PrimType elem, int rank, const char *what) {
    expect_npat(vf, s, 1);
    Type t = s->pat[0]->type;
    if (rank == 0) {
        expect_type(vf, t, type_prim(elem), what);
        return;
    }
    if (t.kind != TK_ARRAY || t.elem != elem || t.rank != rank)
        VFAIL(vf, "%s: result %s has type %s, expected %d-dimensional %s", what, vname(vf, s->pat[0]),
              tname(vf, t), rank, prim_name(elem));
}

static int se_rank(SubExp se) { return se.is_var && se.v->type.kind == TK_ARRAY ? se.v->type.rank : 0; }

/* A flat slice: k slices of a non-empty array's outer dimension, from an
 * i64 offset; an update's value has k + rank - 1 dimensions. */
static void verify_flat(Verifier *vf, const Stm *s) {
    const IrExp *e = s->e;
    expect_array(vf, e->arr, "flat-sliced");
    expect_prim(vf, e->start, PT_I64, "flat slice offset");
    if (e->nslice < 1) VFAIL(vf, "a flat slice of no dimensions");
    for (int i = 0; i < e->nslice; i++) {
        if (!e->slice[i].is_slice) VFAIL(vf, "a flat slice dimension is an index");
        expect_prim(vf, e->slice[i].len, PT_I64, "flat slice length");
        expect_prim(vf, e->slice[i].stride, PT_I64, "flat slice stride");
    }
    int r = e->nslice + e->arr->type.rank - 1;
    if (e->kind == IE_FLAT_INDEX) {
        expect_shape(vf, s, e->arr->type.elem, r, "flat index");
        return;
    }
    use_se(vf, e->se);
    if (se_rank(e->se) != r) VFAIL(vf, "flat update value has rank %d, expected %d", se_rank(e->se), r);
    expect_type(vf, type_prim(subexp_type(e->se).elem), type_prim(e->arr->type.elem), "flat update value");
    expect_npat(vf, s, 1);
    expect_type(vf, s->pat[0]->type, e->arr->type, "flat update result");
}

static void verify_op(Verifier *vf, const Stm *s) {
    const IrExp *e = s->e;
    if (e->nargs != op_arity(e->op)) VFAIL(vf, "%s takes %d operands", op_name(e->op), op_arity(e->op));
    if (!op_accepts(e->op, e->t)) VFAIL(vf, "%s does not accept %s", op_name(e->op), prim_name(e->t));
    for (int i = 0; i < e->nargs; i++) expect_prim(vf, e->args[i], e->t, "operand");
    expect_shape(vf, s, op_result(e->op, e->t), 0, op_name(e->op));
}

/* Array construction and transformation expressions. */
static void verify_array_exp(Verifier *vf, const Stm *s) {
    const IrExp *e = s->e;
    switch (e->kind) {
    case IE_IOTA:
        if (!prim_is_int(e->t)) VFAIL(vf, "iota of non-integer type %s", prim_name(e->t));
        expect_prim(vf, e->n, PT_I64, "iota length");
        expect_prim(vf, e->start, e->t, "iota start");
        expect_prim(vf, e->step, e->t, "iota step");
        expect_shape(vf, s, e->t, 1, "iota");
        break;
    case IE_REPLICATE:
        for (int i = 0; i < e->nshape; i++) expect_prim(vf, e->shape[i], PT_I64, "replicate size");
        use_se(vf, e->se);
        expect_shape(vf, s, subexp_type(e->se).elem, e->nshape + se_rank(e->se), "replicate");
        break;
    case IE_SCRATCH:
        for (int i = 0; i < e->type.rank; i++) use_se(vf, e->type.shape[i]);
        expect_shape(vf, s, e->type.elem, e->type.rank, "scratch");
        break;
    case IE_RESHAPE:
        expect_array(vf, e->arr, "reshaped");
        for (int i = 0; i < e->nshape; i++) expect_prim(vf, e->shape[i], PT_I64, "reshape size");
        expect_shape(vf, s, e->arr->type.elem, e->nshape, "reshape");
        break;
    case IE_REARRANGE: {
        expect_array(vf, e->arr, "rearranged");
        int r = e->arr->type.rank;
        char *seen = arena_alloc(vf->p->arena, (size_t)r + 1);
        for (int i = 0; i < r; i++) {
            if (e->perm[i] < 0 || e->perm[i] >= r || seen[e->perm[i]]) VFAIL(vf, "rearrange: bad permutation");
            seen[e->perm[i]] = 1;
        }
        expect_shape(vf, s, e->arr->type.elem, r, "rearrange");
        break;
    }
    case IE_CONCAT:
        if (e->narrs < 1) VFAIL(vf, "concat of no arrays");
        expect_prim(vf, e->len, PT_I64, "concat length");
        for (int i = 0; i < e->narrs; i++) {
            expect_array(vf, e->arrs[i], "concatenated");
            expect_type(vf, e->arrs[i]->type, e->arrs[0]->type, "concat operand");
        }
        expect_shape(vf, s, e->arrs[0]->type.elem, e->arrs[0]->type.rank, "concat");
        break;
    case IE_COPY:
        expect_array(vf, e->arr, "copied");
        expect_shape(vf, s, e->arr->type.elem, e->arr->type.rank, "copy");
        break;
    case IE_ARRAYLIT:
        for (int i = 0; i < e->nargs; i++) {
            use_se(vf, e->args[i]);
            expect_type(vf, subexp_type(e->args[i]), e->type, "array literal element");
        }
        expect_shape(vf, s, e->type.elem, (e->type.kind == TK_ARRAY ? e->type.rank : 0) + 1, "array literal");
        break;
    default: ICE("verify_array_exp: unexpected kind %d", (int)e->kind);
    }
}

/* A call: of an earlier function (no recursion), scalars in and out. */
static void verify_apply(Verifier *vf, const Stm *s) {
    const IrExp *e = s->e;
    const Fun *f = e->fn;
    int k = f ? ir_def_index(vf->p, f) : -1;
    if (k < 0 || k >= vf->ncallable) VFAIL(vf, "call of %s, which is not a function defined before", f ? f->name : "?");
    if (e->nargs != f->nparams) VFAIL(vf, "call of %s with %d arguments, expected %d", f->name, e->nargs, f->nparams);
    for (int i = 0; i < e->nargs; i++) {
        if (f->params[i]->type.kind != TK_PRIM) VFAIL(vf, "function %s has a non-scalar parameter", f->name);
        expect_prim(vf, e->args[i], f->params[i]->type.elem, "argument");
    }
    expect_npat(vf, s, f->nret);
    for (int i = 0; i < f->nret; i++) {
        if (f->ret[i].kind != TK_PRIM) VFAIL(vf, "function %s has a non-scalar result", f->name);
        expect_type(vf, s->pat[i]->type, f->ret[i], "call result");
    }
}

static void verify_exp(Verifier *vf, const Stm *s) {
    const IrExp *e = s->e;
    switch (e->kind) {
    case IE_SUBEXP:
        use_se(vf, e->se);
        expect_npat(vf, s, 1);
        expect_type(vf, s->pat[0]->type, subexp_type(e->se), "copy of a value");
        break;
    case IE_OP: verify_op(vf, s); break;
    case IE_CONV:
        if (e->nargs != 1) VFAIL(vf, "conversion takes one operand");
        expect_prim(vf, e->args[0], e->t, "conversion operand");
        expect_shape(vf, s, e->to, 0, "conversion");
        break;
    case IE_IF: verify_if(vf, s); break;
    case IE_LOOP: verify_loop(vf, s); break;
    case IE_INDEX: {
        int r = verify_slice(vf, e->arr, e->slice, e->nslice);
        expect_shape(vf, s, e->arr->type.elem, r, "index");
        break;
    }
    case IE_UPDATE: {
        int r = verify_slice(vf, e->arr, e->slice, e->nslice);
        use_se(vf, e->se);
        if (se_rank(e->se) != r && se_rank(e->se) != 0) VFAIL(vf, "update value has the wrong rank");
        expect_type(vf, type_prim(subexp_type(e->se).elem), type_prim(e->arr->type.elem), "update value");
        expect_npat(vf, s, 1);
        expect_type(vf, s->pat[0]->type, e->arr->type, "update result");
        break;
    }
    case IE_FLAT_INDEX:
    case IE_FLAT_UPDATE: verify_flat(vf, s); break;
    case IE_ASSERT:
        expect_npat(vf, s, 0);
        expect_prim(vf, e->cond, PT_BOOL, "assertion condition");
        for (int i = 0; i < e->nargs; i++) expect_prim(vf, e->args[i], PT_I64, "assertion argument");
        break;
    case IE_SCREMA: verify_screma(vf, s); break;
    case IE_SCATTER: verify_scatter(vf, s); break;
    case IE_HIST: verify_hist(vf, s); break;
    case IE_ALLOC:
        if (vf->p->stage < STAGE_MEM) VFAIL(vf, "alloc before the memory pass");
        expect_prim(vf, e->size, PT_I64, "allocation size");
        expect_npat(vf, s, 1);
        if (s->pat[0]->type.kind != TK_MEM) VFAIL(vf, "alloc must bind a memory block");
        break;
    case IE_APPLY: verify_apply(vf, s); break;
    case IE_THRESHOLD:
        if (!e->thr || e->nargs != 1) VFAIL(vf, "a threshold compares one value with a named threshold");
        expect_prim(vf, e->args[0], PT_I64, "threshold operand");
        expect_shape(vf, s, PT_BOOL, 0, "threshold");
        break;
    default: verify_array_exp(vf, s); break;
    }
}

static void verify_stm(Verifier *vf, const Stm *s) {
    if (!s || !s->e) VFAIL(vf, "null statement");
    if (s->npat > 0 && !s->pat) VFAIL(vf, "statement without pattern");
    const SegInfo *g = s->e->seg;
    if (g && g->tid) { /* bound by the statement's kernels */
        int mark = vf->stack.len;
        bind(vf, g->tid);
        bind(vf, g->nthreads);
        verify_exp(vf, s);
        pop_scope(vf, mark);
    } else {
        verify_exp(vf, s);
    }
    for (int i = 0; i < s->npat; i++) bind(vf, s->pat[i]);
    for (int i = 0; i < s->npat; i++) {
        if (s->pat[i]->type.kind == TK_MEM && vf->p->stage < STAGE_MEM)
            VFAIL(vf, "memory block %s before the memory pass", vname(vf, s->pat[i]));
        check_mem_info(vf, s->pat[i]);
    }
}

/* Checks stms and results; the body's bindings stay in scope (callers pop). */
static void verify_body(Verifier *vf, const Body *b, const Type *ret, int nret, const char *what) {
    if (!b) VFAIL(vf, "%s: missing body", what);
    for (int i = 0; i < b->nstms; i++) verify_stm(vf, b->stms[i]);
    if (b->nres != nret) VFAIL(vf, "%s returns %d values, expected %d", what, b->nres, nret);
    for (int i = 0; i < b->nres; i++) {
        use_se(vf, b->res[i]);
        if (ret) expect_type(vf, subexp_type(b->res[i]), ret[i], what);
    }
}

static void verify_fun(Verifier *vf, const Fun *f) {
    vf->fun = f->name ? f->name : "?";
    int mark = vf->stack.len;
    for (int i = 0; i < f->nparams; i++) {
        Var *v = f->params[i];
        bind(vf, v);
        for (int d = 0; v->type.kind == TK_ARRAY && d < v->type.rank; d++)
            if (v->type.shape[d].is_var) bind_implicit(vf, v->type.shape[d].v);
        if (vf->p->stage >= STAGE_MEM && v->mem && v->mem->mem) bind_implicit(vf, v->mem->mem);
        check_mem_info(vf, v);
    }
    verify_body(vf, f->body, f->ret, f->nret, "function body");
    pop_scope(vf, mark);
}

void ir_verify(const Prog *p, const char *after_pass) {
    Verifier vf = {0};
    vf.p = p;
    vf.pass = after_pass ? after_pass : "?";
    vf.fun = "?";
    size_t n = (size_t)(p->next_var_id > 0 ? p->next_var_id : 1);
    vf.bound = calloc(n, 1);
    vf.in_scope = calloc(n, 1);
    vf.var_of = calloc(n, sizeof *vf.var_of);
    if (!vf.bound || !vf.in_scope || !vf.var_of) ICE("out of memory in ir_verify");
    for (int i = 0; i < p->ndefs; i++) {
        vf.ncallable = i;
        verify_fun(&vf, p->defs[i]);
    }
    vf.ncallable = p->ndefs;
    for (int i = 0; i < p->nfuns; i++) verify_fun(&vf, p->funs[i]);
    free(vf.bound);
    free(vf.in_scope);
    free(vf.var_of);
    vec_free(&vf.stack);
}
