/* The core IR's constructors, its printer (a stable readable text form) and
 * its invariant checker (ir_verify), as declared in ir.h. */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

/* ---- Construction --------------------------------------------------------- */

Var *ir_var(Prog *p, const char *name, Type t) {
    if (p->next_var_id <= 0) p->next_var_id = 1;
    Var *v = NEW(p->arena, Var);
    v->id = p->next_var_id++;
    v->name = name ? name : "v";
    v->type = t;
    return v;
}

SubExp se_var(Var *v) {
    SubExp se = {0};
    se.is_var = true;
    se.v = v;
    return se;
}

SubExp se_const(PrimValue c) {
    SubExp se = {0};
    se.c = c;
    return se;
}

SubExp se_i64(int64_t v) { return se_const(prim_int(PT_I64, v)); }
SubExp se_bool(bool b) { return se_const(prim_bool(b)); }

bool se_same(SubExp a, SubExp b) {
    if (a.is_var || b.is_var) return a.is_var && b.is_var && a.v == b.v;
    if (a.c.type != b.c.type) return false;
    if (prim_is_float(a.c.type)) return memcmp(&a.c.v.f, &b.c.v.f, sizeof a.c.v.f) == 0; /* NaN is itself */
    return a.c.type == PT_BOOL ? a.c.v.b == b.c.v.b : a.c.v.i == b.c.v.i;
}

Stm *ir_stm(Arena *a, Var **pat, int npat, IrExp *e, SrcLoc loc) {
    Stm *s = NEW(a, Stm);
    s->pat = pat;
    s->npat = npat;
    s->e = e;
    s->loc = loc;
    return s;
}

Stm *ir_stm1(Arena *a, Var *v, IrExp *e, SrcLoc loc) {
    Var **pat = NEW_ARRAY(a, Var *, 1);
    pat[0] = v;
    return ir_stm(a, pat, v ? 1 : 0, e, loc);
}

Stm *ir_copy_stm(Arena *a, Var *dst, SubExp src, SrcLoc loc) {
    IrExp *e = NEW(a, IrExp);
    e->kind = IE_SUBEXP;
    e->se = src;
    return ir_stm1(a, dst, e, loc);
}

SubExp ir_size_bytes(Prog *p, StmVec *out, Type t, SrcLoc loc) {
    SubExp n = se_i64(prim_size(t.elem));
    for (int i = 0; i < t.rank; i++) {
        SubExp d = t.shape[i];
        if (!n.is_var && !d.is_var) {
            n = se_i64(prim_size_mul(n.c.v.i, d.c.v.i));
            continue;
        }
        if (!d.is_var && d.c.v.i == 1) continue;
        if (!n.is_var && n.c.v.i == 1) {
            n = d;
            continue;
        }
        IrExp *e = NEW(p->arena, IrExp);
        e->kind = IE_OP;
        e->op = OP_SIZE_MUL;
        e->t = PT_I64;
        e->nargs = 2;
        e->args = NEW_ARRAY(p->arena, SubExp, 2);
        e->args[0] = n;
        e->args[1] = d;
        Var *v = ir_var(p, "bytes", type_prim(PT_I64));
        vec_push(out, ir_stm1(p->arena, v, e, loc));
        n = se_var(v);
    }
    return n;
}

Type type_prim(PrimType t) {
    Type ty = {0};
    ty.kind = TK_PRIM;
    ty.elem = t;
    return ty;
}

Type type_array(Arena *a, PrimType elem, int rank, const SubExp *shape) {
    if (rank <= 0) return type_prim(elem);
    Type ty = {0};
    ty.kind = TK_ARRAY;
    ty.elem = elem;
    ty.rank = rank;
    ty.shape = NEW_ARRAY(a, SubExp, rank);
    COPY_ARRAY(ty.shape, shape, rank);
    return ty;
}

Type subexp_type(SubExp se) {
    if (se.is_var) return se.v->type;
    return type_prim(se.c.type);
}

Type type_row(Type t) {
    if (t.kind != TK_ARRAY || t.rank <= 1) return type_prim(t.elem);
    Type r = t;
    r.rank = t.rank - 1;
    r.shape = t.shape + 1;
    r.unique = false;
    return r;
}

/* ---- Index functions of IR values ------------------------------------------ */

Sym *ir_se_sym(Arena *a, SubExp se) {
    if (se.is_var) return sym_var(a, se.v->id);
    return sym_const(a, se.c.v.i);
}

LmadSlice *ir_lmad_slices(Arena *a, const DimSlice *sl, int n) {
    LmadSlice *ls = NEW_ARRAY(a, LmadSlice, n + 1);
    for (int i = 0; i < n; i++) {
        ls[i].is_index = !sl[i].is_slice;
        if (ls[i].is_index) {
            ls[i].index = ir_se_sym(a, sl[i].index);
            continue;
        }
        ls[i].start = ir_se_sym(a, sl[i].start);
        ls[i].len = ir_se_sym(a, sl[i].len);
        ls[i].stride = ir_se_sym(a, sl[i].stride);
    }
    return ls;
}

Lmad *ir_region(Arena *a, const Lmad *l, const IrExp *e) {
    if (e->kind == IE_INDEX || e->kind == IE_UPDATE) return lmad_slice(a, l, ir_lmad_slices(a, e->slice, e->nslice), e->nslice);
    if (e->kind != IE_FLAT_INDEX && e->kind != IE_FLAT_UPDATE) ICE("ir_region of a statement that slices nothing");
    LmadDim *dims = NEW_ARRAY(a, LmadDim, e->nslice + 1);
    for (int d = 0; d < e->nslice; d++)
        dims[d] = (LmadDim){ir_se_sym(a, e->slice[d].stride), ir_se_sym(a, e->slice[d].len)};
    return lmad_flat_slice(a, l, ir_se_sym(a, e->start), dims, e->nslice);
}

/* ---- Printing ------------------------------------------------------------- */

/* Printer state: the output and the current indentation. */
typedef struct Printer {
    Buf *out;
    int indent;
} Printer;

static void print_body(Printer *pr, const Body *b);

static void print_nl(Printer *pr) {
    buf_putc(pr->out, '\n');
    for (int i = 0; i < pr->indent; i++) buf_puts(pr->out, "  ");
}

static void print_var(Buf *out, const Var *v) {
    if (!v) {
        buf_puts(out, "<null>");
        return;
    }
    buf_printf(out, "%s_%d", v->name, v->id);
}

static void print_se(Buf *out, SubExp se) {
    if (se.is_var) {
        print_var(out, se.v);
        return;
    }
    char tmp[64];
    buf_puts(out, prim_format(se.c, tmp, sizeof tmp));
}

static void print_ses(Buf *out, const SubExp *ses, int n) {
    for (int i = 0; i < n; i++) {
        if (i) buf_puts(out, ", ");
        print_se(out, ses[i]);
    }
}

static void print_vars(Buf *out, Var *const *vs, int n) {
    for (int i = 0; i < n; i++) {
        if (i) buf_puts(out, ", ");
        print_var(out, vs[i]);
    }
}

static void print_type(Buf *out, Type t) {
    if (t.unique) buf_putc(out, '*');
    if (t.kind == TK_MEM) {
        buf_puts(out, "mem");
        return;
    }
    for (int i = 0; t.kind == TK_ARRAY && i < t.rank; i++) {
        buf_putc(out, '[');
        print_se(out, t.shape[i]);
        buf_putc(out, ']');
    }
    buf_puts(out, prim_name(t.elem));
}

static void print_types(Buf *out, const Type *ts, int n) {
    buf_putc(out, '(');
    for (int i = 0; i < n; i++) {
        if (i) buf_puts(out, ", ");
        print_type(out, ts[i]);
    }
    buf_putc(out, ')');
}

/* "x_1 : [n_2]f32 @mem_3 -> lmad" */
static void print_binding(Buf *out, const Var *v) {
    print_var(out, v);
    buf_puts(out, " : ");
    print_type(out, v->type);
    if (v->mem) {
        buf_puts(out, " @");
        print_var(out, v->mem->mem);
        buf_puts(out, " -> ");
        if (v->mem->ixfun) lmad_print(out, v->mem->ixfun);
    }
}

static void print_params(Buf *out, Var *const *ps, int n) {
    buf_putc(out, '(');
    for (int i = 0; i < n; i++) {
        if (i) buf_puts(out, ", ");
        print_binding(out, ps[i]);
    }
    buf_putc(out, ')');
}

static void print_lambda(Printer *pr, const Lambda *l) {
    buf_puts(pr->out, "\\");
    print_params(pr->out, l->params, l->nparams);
    buf_puts(pr->out, " : ");
    print_types(pr->out, l->ret, l->nret);
    buf_puts(pr->out, " ->");
    print_body(pr, l->body);
}

static void print_slice(Buf *out, const DimSlice *s, int n) {
    buf_putc(out, '[');
    for (int i = 0; i < n; i++) {
        if (i) buf_puts(out, ", ");
        if (!s[i].is_slice) {
            print_se(out, s[i].index);
            continue;
        }
        print_se(out, s[i].start);
        buf_puts(out, ":+");
        print_se(out, s[i].len);
        buf_puts(out, "*");
        print_se(out, s[i].stride);
    }
    buf_putc(out, ']');
}

static void print_segops(Printer *pr, const char *what, const SegOp *ops, int n) {
    for (int i = 0; i < n; i++) {
        print_nl(pr);
        buf_printf(pr->out, "%s%s(", what, ops[i].commutative ? " commutative" : "");
        print_ses(pr->out, ops[i].neutral, ops[i].k);
        buf_puts(pr->out, ") ");
        print_lambda(pr, ops[i].op);
    }
}

/* ", iter i_7" when the SOAC has an iteration index (STAGE_MEM). */
static void print_iter(Buf *out, const Var *iter) {
    if (!iter) return;
    buf_puts(out, " iter ");
    print_var(out, iter);
}

static void print_screma(Printer *pr, const Screma *s) {
    buf_puts(pr->out, "screma(");
    print_se(pr->out, s->w);
    buf_puts(pr->out, ", {");
    print_vars(pr->out, s->arrs, s->narrs);
    buf_puts(pr->out, "},");
    print_iter(pr->out, s->iter);
    pr->indent++;
    print_segops(pr, "scan", s->scans, s->nscans);
    print_segops(pr, "reduce", s->reds, s->nreds);
    print_nl(pr);
    buf_puts(pr->out, "map ");
    print_lambda(pr, s->map);
    pr->indent--;
    buf_putc(pr->out, ')');
}

static void print_scatter(Printer *pr, const Scatter *s) {
    buf_puts(pr->out, "scatter(");
    print_se(pr->out, s->w);
    buf_puts(pr->out, ", {");
    print_vars(pr->out, s->arrs, s->narrs);
    buf_puts(pr->out, "}, dests {");
    print_vars(pr->out, s->dests, s->ndests);
    buf_puts(pr->out, "},");
    print_iter(pr->out, s->iter);
    pr->indent++;
    print_nl(pr);
    print_lambda(pr, s->lam);
    pr->indent--;
    buf_putc(pr->out, ')');
}

static void print_hist(Printer *pr, const Hist *h) {
    buf_puts(pr->out, "hist(");
    print_se(pr->out, h->w);
    buf_puts(pr->out, ", {");
    print_vars(pr->out, h->arrs, h->narrs);
    buf_puts(pr->out, "}, dests {");
    print_vars(pr->out, h->dests, h->op.k);
    buf_puts(pr->out, "} of width ");
    print_se(pr->out, h->dest_w);
    buf_puts(pr->out, ",");
    print_iter(pr->out, h->iter);
    pr->indent++;
    print_segops(pr, "op", &h->op, 1);
    print_nl(pr);
    print_lambda(pr, h->lam);
    pr->indent--;
    buf_putc(pr->out, ')');
}

static void print_loop(Printer *pr, const Loop *l) {
    buf_puts(pr->out, "loop (");
    for (int i = 0; i < l->nparams; i++) {
        if (i) buf_puts(pr->out, ", ");
        print_binding(pr->out, l->params[i]);
        buf_puts(pr->out, " = ");
        print_se(pr->out, l->inits[i]);
    }
    buf_puts(pr->out, ") ");
    if (l->kind == IR_LOOP_FOR) {
        buf_puts(pr->out, "for ");
        print_var(pr->out, l->i);
        buf_puts(pr->out, " < ");
        print_se(pr->out, l->bound);
    } else {
        buf_puts(pr->out, "while ");
        print_var(pr->out, l->cond);
    }
    buf_puts(pr->out, " do");
    print_body(pr, l->body);
}

/* Expressions without nested bodies. */
static bool print_simple_exp(Buf *out, const IrExp *e) {
    switch (e->kind) {
    case IE_SUBEXP: print_se(out, e->se); return true;
    case IE_OP:
        buf_printf(out, "%s.%s(", op_name(e->op), prim_name(e->t));
        print_ses(out, e->args, e->nargs);
        buf_putc(out, ')');
        return true;
    case IE_CONV:
        buf_printf(out, "%s->%s(", prim_name(e->t), prim_name(e->to));
        print_ses(out, e->args, e->nargs);
        buf_putc(out, ')');
        return true;
    case IE_INDEX:
        print_var(out, e->arr);
        print_slice(out, e->slice, e->nslice);
        return true;
    case IE_UPDATE:
        print_var(out, e->arr);
        buf_puts(out, " with ");
        print_slice(out, e->slice, e->nslice);
        buf_puts(out, " = ");
        print_se(out, e->se);
        return true;
    case IE_FLAT_INDEX:
    case IE_FLAT_UPDATE:
        print_var(out, e->arr);
        buf_puts(out, e->kind == IE_FLAT_UPDATE ? " with flat[" : "flat[");
        print_se(out, e->start);
        buf_puts(out, "; ");
        for (int i = 0; i < e->nslice; i++) {
            if (i) buf_puts(out, ", ");
            print_se(out, e->slice[i].len);
            buf_puts(out, "*");
            print_se(out, e->slice[i].stride);
        }
        buf_putc(out, ']');
        if (e->kind == IE_FLAT_UPDATE) buf_puts(out, " = "), print_se(out, e->se);
        return true;
    case IE_IOTA:
        buf_printf(out, "iota.%s(", prim_name(e->t));
        print_se(out, e->n);
        buf_puts(out, ", ");
        print_se(out, e->start);
        buf_puts(out, ", ");
        print_se(out, e->step);
        buf_putc(out, ')');
        return true;
    case IE_REPLICATE:
        buf_puts(out, "replicate([");
        print_ses(out, e->shape, e->nshape);
        buf_puts(out, "], ");
        print_se(out, e->se);
        buf_putc(out, ')');
        return true;
    case IE_SCRATCH:
        buf_puts(out, "scratch(");
        print_type(out, e->type);
        buf_putc(out, ')');
        return true;
    case IE_RESHAPE:
        buf_puts(out, "reshape([");
        print_ses(out, e->shape, e->nshape);
        buf_puts(out, "], ");
        print_var(out, e->arr);
        buf_putc(out, ')');
        return true;
    case IE_REARRANGE:
        buf_puts(out, "rearrange((");
        for (int i = 0; e->arr && i < e->arr->type.rank; i++) buf_printf(out, "%s%d", i ? ", " : "", e->perm[i]);
        buf_puts(out, "), ");
        print_var(out, e->arr);
        buf_putc(out, ')');
        return true;
    case IE_CONCAT:
        buf_puts(out, "concat(");
        print_vars(out, e->arrs, e->narrs);
        buf_puts(out, ") : len ");
        print_se(out, e->len);
        return true;
    case IE_COPY:
        buf_puts(out, "copy(");
        print_var(out, e->arr);
        buf_putc(out, ')');
        return true;
    case IE_ARRAYLIT:
        buf_putc(out, '[');
        print_ses(out, e->args, e->nargs);
        buf_puts(out, "] : []");
        print_type(out, e->type);
        return true;
    case IE_ASSERT:
        buf_puts(out, "assert(");
        print_se(out, e->cond);
        buf_printf(out, ", \"%s\"", e->msg ? e->msg : "");
        for (int i = 0; i < e->nargs; i++) {
            buf_puts(out, ", ");
            print_se(out, e->args[i]);
        }
        buf_putc(out, ')');
        return true;
    case IE_ALLOC:
        buf_puts(out, "alloc(");
        print_se(out, e->size);
        buf_putc(out, ')');
        return true;
    case IE_APPLY:
        buf_printf(out, "apply %s(", e->fn->name);
        print_ses(out, e->args, e->nargs);
        buf_putc(out, ')');
        return true;
    default: return false;
    }
}

/* ---- Walking the variables of statements ---------------------------------------- */

static void iw_use(IrWalk *w, Var *v) {
    if (v && w->use) w->use(w, v);
}

static void iw_bind(IrWalk *w, Var *v) {
    if (v && w->bind) w->bind(w, v);
}

static void iw_se(IrWalk *w, SubExp se) {
    if (se.is_var) iw_use(w, se.v);
}

static void iw_ses(IrWalk *w, SubExp *ses, int n) {
    for (int i = 0; i < n; i++) iw_se(w, ses[i]);
}

static void iw_uses(IrWalk *w, Var **vs, int n) {
    for (int i = 0; i < n; i++) iw_use(w, vs[i]);
}

static void iw_binds(IrWalk *w, Var **vs, int n) {
    for (int i = 0; i < n; i++)
        iw_bind(w, vs[i]);
}

void ir_walk_lambda(IrWalk *w, Lambda *l) {
    iw_binds(w, l->params, l->nparams);
    ir_walk_body(w, l->body);
}

static void iw_segops(IrWalk *w, SegOp *ops, int n) {
    for (int i = 0; i < n; i++) {
        iw_ses(w, ops[i].neutral, ops[i].k);
        ir_walk_lambda(w, ops[i].op);
    }
}

static void iw_exp(IrWalk *w, IrExp *e) {
    switch (e->kind) {
    case IE_IF:
        iw_se(w, e->cond);
        ir_walk_body(w, e->tbody);
        ir_walk_body(w, e->fbody);
        return;
    case IE_LOOP:
        iw_ses(w, e->loop.inits, e->loop.nparams);
        iw_binds(w, e->loop.params, e->loop.nparams);
        if (e->loop.kind == IR_LOOP_FOR) {
            iw_se(w, e->loop.bound);
            iw_bind(w, e->loop.i);
        }
        ir_walk_body(w, e->loop.body);
        return;
    case IE_SCREMA:
        iw_se(w, e->screma.w);
        iw_uses(w, e->screma.arrs, e->screma.narrs);
        iw_bind(w, e->screma.iter);
        iw_segops(w, e->screma.scans, e->screma.nscans);
        iw_segops(w, e->screma.reds, e->screma.nreds);
        ir_walk_lambda(w, e->screma.map);
        return;
    case IE_SCATTER:
        iw_se(w, e->scatter.w);
        iw_uses(w, e->scatter.arrs, e->scatter.narrs);
        iw_uses(w, e->scatter.dests, e->scatter.ndests);
        iw_bind(w, e->scatter.iter);
        ir_walk_lambda(w, e->scatter.lam);
        return;
    case IE_HIST:
        iw_se(w, e->hist.w);
        iw_se(w, e->hist.dest_w);
        iw_uses(w, e->hist.arrs, e->hist.narrs);
        iw_uses(w, e->hist.dests, e->hist.op.k);
        iw_bind(w, e->hist.iter);
        iw_segops(w, &e->hist.op, 1);
        ir_walk_lambda(w, e->hist.lam);
        return;
    default:
        iw_se(w, e->se);
        iw_se(w, e->cond);
        iw_ses(w, e->args, e->nargs);
        iw_use(w, e->arr);
        iw_uses(w, e->arrs, e->narrs);
        for (int i = 0; i < e->nslice; i++) {
            iw_se(w, e->slice[i].index);
            iw_se(w, e->slice[i].start);
            iw_se(w, e->slice[i].len);
            iw_se(w, e->slice[i].stride);
        }
        iw_se(w, e->n);
        iw_se(w, e->start);
        iw_se(w, e->step);
        iw_ses(w, e->shape, e->nshape);
        iw_se(w, e->len);
        iw_se(w, e->size);
        if (e->kind == IE_SCRATCH || e->kind == IE_ARRAYLIT) iw_ses(w, e->type.shape, e->type.rank);
        return;
    }
}

void ir_walk_stm(IrWalk *w, Stm *s) {
    if (w->stm) w->stm(w, s);
    iw_exp(w, s->e);
    iw_binds(w, s->pat, s->npat);
}

void ir_walk_body(IrWalk *w, Body *b) {
    for (int i = 0; i < b->nstms; i++) ir_walk_stm(w, b->stms[i]);
    iw_ses(w, b->res, b->nres);
}

/* The uses of one Var counted by a walk. */
typedef struct UseCount {
    const Var *v;
    int n;
} UseCount;

static void uc_use(IrWalk *w, Var *x) {
    UseCount *u = w->ctx;
    u->n += x == u->v;
}

bool ir_at(const Var *v, const MemInfo *dest) {
    return v->mem && v->mem->mem == dest->mem && lmad_equal(v->mem->ixfun, dest->ixfun);
}

int ir_stm_uses(Stm *s, const Var *v) {
    UseCount u = {v, 0};
    IrWalk w = {NULL, uc_use, NULL, &u};
    ir_walk_stm(&w, s);
    return u.n;
}

int ir_body_uses(Body *b, const Var *v) {
    UseCount u = {v, 0};
    IrWalk w = {NULL, uc_use, NULL, &u};
    ir_walk_body(&w, b);
    return u.n;
}

/* ---- Walking the uses of statements, by reference --------------------------------- */

void ir_uses_se(SubExp *se, IrUseFn f, void *ctx) {
    if (se->is_var) f(ctx, se, NULL, IR_USE_OTHER);
}

void ir_uses_ses(SubExp *ses, int n, IrUseFn f, void *ctx) {
    for (int i = 0; i < n; i++) ir_uses_se(&ses[i], f, ctx);
}

void ir_uses_type(Type *t, IrUseFn f, void *ctx) {
    if (t->kind == TK_ARRAY) ir_uses_ses(t->shape, t->rank, f, ctx);
}

static void uses_vars(Var **vs, int n, IrUseKind k, IrUseFn f, void *ctx) {
    for (int i = 0; i < n; i++) f(ctx, NULL, &vs[i], k);
}

void ir_uses_lambda(Lambda *l, IrUseFn f, void *ctx) {
    for (int i = 0; i < l->nparams; i++) ir_uses_type(&l->params[i]->type, f, ctx);
    for (int i = 0; i < l->nret; i++) ir_uses_type(&l->ret[i], f, ctx);
    ir_uses_body(l->body, f, ctx);
}

static void uses_segops(SegOp *ops, int n, IrUseFn f, void *ctx) {
    for (int i = 0; i < n; i++) {
        ir_uses_ses(ops[i].neutral, ops[i].k, f, ctx);
        ir_uses_lambda(ops[i].op, f, ctx);
    }
}

static void uses_slice(DimSlice *sl, int n, IrUseFn f, void *ctx) {
    for (int i = 0; i < n; i++) {
        if (!sl[i].is_slice) ir_uses_se(&sl[i].index, f, ctx);
        else ir_uses_se(&sl[i].start, f, ctx), ir_uses_se(&sl[i].len, f, ctx), ir_uses_se(&sl[i].stride, f, ctx);
    }
}

bool ir_is_update(const IrExp *e) { return e->kind == IE_UPDATE || e->kind == IE_FLAT_UPDATE; }
bool ir_is_index(const IrExp *e) { return e->kind == IE_INDEX || e->kind == IE_FLAT_INDEX; }

bool ir_is_scalar_index(const IrExp *e) {
    if (!e->arr || e->nslice != e->arr->type.rank) return false;
    for (int i = 0; i < e->nslice; i++)
        if (e->slice[i].is_slice) return false;
    return true;
}

/* The uses of constructs with nested bodies. */
static void uses_compound(IrExp *e, IrUseFn f, void *ctx) {
    switch (e->kind) {
    case IE_IF:
        ir_uses_se(&e->cond, f, ctx);
        for (int i = 0; i < e->nret; i++) ir_uses_type(&e->ret[i], f, ctx);
        ir_uses_body(e->tbody, f, ctx);
        ir_uses_body(e->fbody, f, ctx);
        break;
    case IE_LOOP: {
        Loop *l = &e->loop;
        ir_uses_ses(l->inits, l->nparams, f, ctx);
        for (int i = 0; i < l->nparams; i++) ir_uses_type(&l->params[i]->type, f, ctx);
        if (l->kind == IR_LOOP_FOR) ir_uses_se(&l->bound, f, ctx);
        else f(ctx, NULL, &l->cond, IR_USE_OTHER);
        ir_uses_body(l->body, f, ctx);
        break;
    }
    case IE_SCREMA:
        ir_uses_se(&e->screma.w, f, ctx);
        uses_vars(e->screma.arrs, e->screma.narrs, IR_USE_READ, f, ctx);
        uses_segops(e->screma.scans, e->screma.nscans, f, ctx);
        uses_segops(e->screma.reds, e->screma.nreds, f, ctx);
        ir_uses_lambda(e->screma.map, f, ctx);
        break;
    case IE_SCATTER:
        ir_uses_se(&e->scatter.w, f, ctx);
        uses_vars(e->scatter.arrs, e->scatter.narrs, IR_USE_READ, f, ctx);
        uses_vars(e->scatter.dests, e->scatter.ndests, IR_USE_OTHER, f, ctx);
        ir_uses_lambda(e->scatter.lam, f, ctx);
        break;
    case IE_HIST:
        ir_uses_se(&e->hist.w, f, ctx);
        ir_uses_se(&e->hist.dest_w, f, ctx);
        uses_vars(e->hist.arrs, e->hist.narrs, IR_USE_READ, f, ctx);
        uses_vars(e->hist.dests, e->hist.op.k, IR_USE_OTHER, f, ctx);
        uses_segops(&e->hist.op, 1, f, ctx);
        ir_uses_lambda(e->hist.lam, f, ctx);
        break;
    default: ICE("uses_compound: kind %d", (int)e->kind);
    }
}

/* Every use in e, nested bodies included. */
static void uses_exp(IrExp *e, IrUseFn f, void *ctx) {
    switch (e->kind) {
    case IE_SUBEXP: ir_uses_se(&e->se, f, ctx); break;
    case IE_OP:
    case IE_CONV:
    case IE_APPLY: ir_uses_ses(e->args, e->nargs, f, ctx); break;
    case IE_INDEX:
        f(ctx, NULL, &e->arr, ir_is_scalar_index(e) ? IR_USE_READ : IR_USE_OTHER);
        uses_slice(e->slice, e->nslice, f, ctx);
        break;
    case IE_UPDATE:
        f(ctx, NULL, &e->arr, IR_USE_OTHER);
        uses_slice(e->slice, e->nslice, f, ctx);
        ir_uses_se(&e->se, f, ctx);
        break;
    case IE_FLAT_INDEX:
    case IE_FLAT_UPDATE:
        f(ctx, NULL, &e->arr, IR_USE_OTHER);
        ir_uses_se(&e->start, f, ctx);
        uses_slice(e->slice, e->nslice, f, ctx);
        if (e->kind == IE_FLAT_UPDATE) ir_uses_se(&e->se, f, ctx);
        break;
    case IE_IOTA: ir_uses_se(&e->n, f, ctx), ir_uses_se(&e->start, f, ctx), ir_uses_se(&e->step, f, ctx); break;
    case IE_REPLICATE: ir_uses_ses(e->shape, e->nshape, f, ctx), ir_uses_se(&e->se, f, ctx); break;
    case IE_SCRATCH: ir_uses_type(&e->type, f, ctx); break;
    case IE_RESHAPE: f(ctx, NULL, &e->arr, IR_USE_OTHER), ir_uses_ses(e->shape, e->nshape, f, ctx); break;
    case IE_REARRANGE: f(ctx, NULL, &e->arr, IR_USE_OTHER); break;
    case IE_CONCAT: uses_vars(e->arrs, e->narrs, IR_USE_READ, f, ctx), ir_uses_se(&e->len, f, ctx); break;
    case IE_COPY: f(ctx, NULL, &e->arr, IR_USE_READ); break;
    case IE_ARRAYLIT: ir_uses_ses(e->args, e->nargs, f, ctx), ir_uses_type(&e->type, f, ctx); break;
    case IE_ASSERT: ir_uses_se(&e->cond, f, ctx), ir_uses_ses(e->args, e->nargs, f, ctx); break;
    case IE_ALLOC: ir_uses_se(&e->size, f, ctx); break;
    default: uses_compound(e, f, ctx); break;
    }
}

/* Every use of a statement: its expression and its pattern's types. */
void ir_uses_stm(Stm *st, IrUseFn f, void *ctx) {
    for (int i = 0; i < st->npat; i++) ir_uses_type(&st->pat[i]->type, f, ctx);
    uses_exp(st->e, f, ctx);
}

void ir_uses_body(Body *b, IrUseFn f, void *ctx) {
    for (int i = 0; i < b->nstms; i++) ir_uses_stm(b->stms[i], f, ctx);
    ir_uses_ses(b->res, b->nres, f, ctx);
}


static void bodies_of_segops(SegOp *ops, int n, void (*fn)(Body *b, void *ctx), void *ctx) {
    for (int i = 0; i < n; i++) fn(ops[i].op->body, ctx);
}

void ir_exp_bodies(IrExp *e, void (*fn)(Body *b, void *ctx), void *ctx) {
    switch (e->kind) {
    case IE_IF:
        fn(e->tbody, ctx);
        fn(e->fbody, ctx);
        return;
    case IE_LOOP: fn(e->loop.body, ctx); return;
    case IE_SCREMA:
        bodies_of_segops(e->screma.scans, e->screma.nscans, fn, ctx);
        bodies_of_segops(e->screma.reds, e->screma.nreds, fn, ctx);
        fn(e->screma.map->body, ctx);
        return;
    case IE_SCATTER: fn(e->scatter.lam->body, ctx); return;
    case IE_HIST:
        bodies_of_segops(&e->hist.op, 1, fn, ctx);
        fn(e->hist.lam->body, ctx);
        return;
    default: return;
    }
}

int ir_def_index(const Prog *p, const Fun *f) {
    for (int i = 0; i < p->ndefs; i++)
        if (p->defs[i] == f) return i;
    return -1;
}

/* Call counting: the program and the counts by def index. */
typedef struct CallCount {
    const Prog *p;
    int *counts;
} CallCount;

static void count_call(IrWalk *w, Stm *s) {
    CallCount *c = w->ctx;
    if (s->e->kind == IE_APPLY) c->counts[ir_def_index(c->p, s->e->fn)]++;
}

void ir_count_calls(const Prog *p, int *counts) {
    CallCount c = {p, counts};
    IrWalk w = {NULL, NULL, count_call, &c};
    memset(counts, 0, sizeof(int) * (size_t)p->ndefs);
    for (int i = 0; i < p->nfuns; i++) ir_walk_body(&w, p->funs[i]->body);
    /* callers come after their callees: a def's count is final when the
     * walk reaches it going backwards */
    for (int i = p->ndefs - 1; i >= 0; i--)
        if (counts[i] > 0) ir_walk_body(&w, p->defs[i]->body);
}

Op ir_lambda_binop(const Lambda *l, int j, int k) {
    const Body *b = l->body;
    if (l->nparams != 2 * k || j >= b->nres || !b->res[j].is_var) return OP_COUNT;
    const Var *r = b->res[j].v, *x = l->params[j], *y = l->params[k + j];
    for (int i = 0; i < b->nstms; i++) {
        const Stm *s = b->stms[i];
        if (s->npat != 1 || s->pat[0] != r) continue;
        const IrExp *e = s->e;
        if (e->kind != IE_OP || e->nargs != 2 || !e->args[0].is_var || !e->args[1].is_var) return OP_COUNT;
        const Var *a = e->args[0].v, *c = e->args[1].v;
        return (a == x && c == y) || (a == y && c == x) ? e->op : OP_COUNT;
    }
    return OP_COUNT;
}

bool ir_stm_cheap(const Stm *s) {
    switch (s->e->kind) {
    case IE_SUBEXP:
    case IE_OP:
    case IE_CONV:
    case IE_INDEX:
    case IE_FLAT_INDEX:
    case IE_ASSERT:
    case IE_RESHAPE:
    case IE_REARRANGE: return true;
    case IE_APPLY: {
        const Body *b = s->e->fn->body;
        for (int i = 0; i < b->nstms; i++)
            if (!ir_stm_cheap(b->stms[i])) return false;
        return true;
    }
    default: return false;
    }
}

bool ir_segops_scalar(const SegOp *ops, int n) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < ops[i].op->nparams; j++)
            if (ops[i].op->params[j]->type.kind != TK_PRIM) return false;
    return true;
}

bool ir_segop_known_commutative(const SegOp *op) {
    for (int j = 0; j < op->k; j++) {
        switch (ir_lambda_binop(op->op, j, op->k)) {
        case OP_ADD: case OP_MUL: case OP_MIN: case OP_MAX: case OP_AND: case OP_OR: case OP_XOR:
        case OP_LAND: case OP_LOR: case OP_EQ: case OP_NE: break;
        default: return false;
        }
    }
    return true;
}

const char *ir_seg_name(SegKind k) {
    static const char *const names[] = {"SegMap", "SegRed", "SegScan", "SegHist", "SegSeq", "Host"};
    return names[k];
}

static void print_exp(Printer *pr, const IrExp *e) {
    if (e->seg) {
        const SegInfo *g = e->seg;
        buf_printf(pr->out, "%s[%d%s", ir_seg_name(g->kind), g->depth, g->tile ? ", tiled" : g->irregular ? ", irregular" : "");
        if (g->tid) buf_printf(pr->out, "; work-item v%d of v%d", g->tid->id, g->nthreads->id);
        buf_puts(pr->out, "] ");
    }
    if (e->kind == IE_ALLOC && e->per_iter) buf_puts(pr->out, "per-element ");
    if (print_simple_exp(pr->out, e)) return;
    switch (e->kind) {
    case IE_IF:
        buf_puts(pr->out, "if ");
        print_se(pr->out, e->cond);
        buf_puts(pr->out, " : ");
        print_types(pr->out, e->ret, e->nret);
        buf_puts(pr->out, " then");
        print_body(pr, e->tbody);
        buf_puts(pr->out, " else");
        print_body(pr, e->fbody);
        break;
    case IE_LOOP: print_loop(pr, &e->loop); break;
    case IE_SCREMA: print_screma(pr, &e->screma); break;
    case IE_SCATTER: print_scatter(pr, &e->scatter); break;
    case IE_HIST: print_hist(pr, &e->hist); break;
    default: buf_printf(pr->out, "<unknown expression %d>", (int)e->kind); break;
    }
}

static void print_stm(Printer *pr, const Stm *s) {
    print_nl(pr);
    buf_puts(pr->out, "let ");
    if (s->npat != 1) buf_putc(pr->out, '(');
    for (int i = 0; i < s->npat; i++) {
        if (i) buf_puts(pr->out, ", ");
        print_binding(pr->out, s->pat[i]);
    }
    if (s->npat != 1) buf_putc(pr->out, ')');
    buf_puts(pr->out, " = ");
    print_exp(pr, s->e);
}

/* " {" stms "in (res)" "}" */
static void print_body(Printer *pr, const Body *b) {
    buf_puts(pr->out, " {");
    pr->indent++;
    for (int i = 0; i < b->nstms; i++) print_stm(pr, b->stms[i]);
    print_nl(pr);
    buf_puts(pr->out, "in (");
    print_ses(pr->out, b->res, b->nres);
    buf_putc(pr->out, ')');
    pr->indent--;
    print_nl(pr);
    buf_putc(pr->out, '}');
}

static void print_fun(Printer *pr, const Fun *f, const char *what) {
    buf_printf(pr->out, "%s %s ", what, f->name);
    print_params(pr->out, f->params, f->nparams);
    buf_puts(pr->out, " : ");
    print_types(pr->out, f->ret, f->nret);
    buf_puts(pr->out, " =");
    print_body(pr, f->body);
    buf_putc(pr->out, '\n');
}

void ir_print(Buf *out, const Prog *p) {
    Printer pr = {out, 0};
    static const char *const stages[] = {"soacs", "mem", "gpu"};
    buf_printf(out, "-- stage %s\n", stages[p->stage]);
    for (int i = 0; i < p->ndefs; i++) {
        print_fun(&pr, p->defs[i], "fun");
        buf_putc(out, '\n');
    }
    for (int i = 0; i < p->nfuns; i++) {
        if (i) buf_putc(out, '\n');
        print_fun(&pr, p->funs[i], "entry");
    }
}

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
    print_type(&b, t);
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

/* ---- Queries ---------------------------------------------------------------- */

bool ir_lambda_has_assert(const Lambda *l) { return ir_body_has_assert(l->body); }

static bool segops_have_assert(const SegOp *ops, int n) {
    for (int i = 0; i < n; i++)
        if (ir_lambda_has_assert(ops[i].op)) return true;
    return false;
}

bool ir_exp_has_assert(const IrExp *e) {
    switch (e->kind) {
    case IE_ASSERT: return true;
    case IE_IF: return ir_body_has_assert(e->tbody) || ir_body_has_assert(e->fbody);
    case IE_LOOP: return ir_body_has_assert(e->loop.body);
    case IE_SCREMA:
        return ir_lambda_has_assert(e->screma.map) || segops_have_assert(e->screma.scans, e->screma.nscans) ||
               segops_have_assert(e->screma.reds, e->screma.nreds);
    case IE_SCATTER: return ir_lambda_has_assert(e->scatter.lam);
    case IE_HIST: return ir_lambda_has_assert(e->hist.lam) || segops_have_assert(&e->hist.op, 1);
    default: return false;
    }
}

bool ir_body_has_assert(const Body *b) {
    for (int i = 0; i < b->nstms; i++)
        if (ir_exp_has_assert(b->stms[i]->e)) return true;
    return false;
}
