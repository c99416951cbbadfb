/* The core IR's constructors, its printer (a stable readable text form),
 * walkers and queries, as declared in ir.h; the invariant checker
 * (ir_verify) is verify.c. */
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

Stm *ir_op2_stm(Arena *a, Var *pat, Op op, PrimType t, SubExp x, SubExp y, SrcLoc loc) {
    IrExp *e = NEW(a, IrExp);
    e->kind = IE_OP;
    e->op = op;
    e->t = t;
    e->nargs = 2;
    e->args = NEW_ARRAY(a, SubExp, 2);
    e->args[0] = x;
    e->args[1] = y;
    return ir_stm1(a, pat, e, loc);
}

SubExp ir_emit_op2(Prog *p, StmVec *out, Op op, PrimType t, SubExp x, SubExp y, const char *name, SrcLoc loc) {
    Var *v = ir_var(p, name, type_prim(op_result(op, t)));
    vec_push(out, ir_op2_stm(p->arena, v, op, t, x, y, loc));
    return se_var(v);
}

Body *ir_body_new(Arena *a, StmVec *stms, SubExp *res, int nres) {
    Body *b = NEW(a, Body);
    b->nstms = stms ? stms->len : 0;
    b->stms = b->nstms ? vec_to_arena(a, stms) : NEW_ARRAY(a, Stm *, 1);
    b->nres = nres;
    b->res = NEW_ARRAY(a, SubExp, nres + 1);
    COPY_ARRAY(b->res, res, nres);
    return b;
}

Lambda *ir_lambda_new(Arena *a, Var **params, int nparams, Body *body) {
    Lambda *l = NEW(a, Lambda);
    l->nparams = nparams;
    l->params = NEW_ARRAY(a, Var *, nparams + 1);
    COPY_ARRAY(l->params, params, nparams);
    l->body = body;
    l->nret = body->nres;
    l->ret = NEW_ARRAY(a, Type, body->nres + 1);
    for (int i = 0; i < body->nres; i++) l->ret[i] = subexp_type(body->res[i]);
    return l;
}

SegOp ir_segmented_op(Prog *p, SegOp op, SrcLoc loc) {
    Arena *a = p->arena;
    Lambda *l = op.op;
    Var *f1 = ir_var(p, "flag", type_prim(PT_BOOL)), *f2 = ir_var(p, "flag", type_prim(PT_BOOL));
    int k = op.k;
    Var **ps = NEW_ARRAY(a, Var *, 2 * k + 2);
    ps[0] = f1;
    COPY_ARRAY(ps + 1, l->params, k);
    ps[k + 1] = f2;
    COPY_ARRAY(ps + k + 2, l->params + k, k);
    StmVec s = {0};
    SubExp f = ir_emit_op2(p, &s, OP_LOR, PT_BOOL, se_var(f1), se_var(f2), "flag", loc);
    SubExp *bs = NEW_ARRAY(a, SubExp, k);
    for (int i = 0; i < k; i++) bs[i] = se_var(l->params[k + i]);
    IrExp *e = NEW(a, IrExp);
    e->kind = IE_IF;
    e->cond = se_var(f2);
    e->tbody = ir_body_new(a, NULL, bs, k);
    e->fbody = l->body;
    e->nret = k;
    e->ret = l->ret;
    Var **rs = NEW_ARRAY(a, Var *, k);
    SubExp *res = NEW_ARRAY(a, SubExp, k + 1);
    res[0] = f;
    for (int i = 0; i < k; i++) {
        rs[i] = ir_var(p, "x", l->ret[i]);
        res[i + 1] = se_var(rs[i]);
    }
    vec_push(&s, ir_stm(a, rs, k, e, loc));
    SegOp r = {ir_lambda_new(a, ps, 2 * k + 2, ir_body_new(a, &s, res, k + 1)), NEW_ARRAY(a, SubExp, k + 1), k + 1,
               false, true};
    r.neutral[0] = se_bool(false);
    COPY_ARRAY(r.neutral + 1, op.neutral, k);
    vec_free(&s);
    return r;
}

Stm *ir_iota_stm(Prog *p, const char *name, SubExp n, SrcLoc loc) {
    IrExp *e = NEW(p->arena, IrExp);
    *e = (IrExp){.kind = IE_IOTA, .n = n, .start = se_i64(0), .step = se_i64(1), .t = PT_I64};
    return ir_stm1(p->arena, ir_var(p, name, type_array(p->arena, PT_I64, 1, &n)), e, loc);
}

void ir_emit_unflatten(Prog *p, StmVec *out, SubExp t, SubExp d, SubExp *i, SubExp *j, SrcLoc loc) {
    *i = ir_emit_op2(p, out, OP_QUOT, PT_I64, t, d, "i", loc);
    SubExp id = ir_emit_op2(p, out, OP_MUL, PT_I64, *i, d, "j", loc);
    *j = ir_emit_op2(p, out, OP_SUB, PT_I64, t, id, "j", loc);
}

Stm *ir_copy_stm(Arena *a, Var *dst, SubExp src, SrcLoc loc) {
    IrExp *e = NEW(a, IrExp);
    e->kind = IE_SUBEXP;
    e->se = src;
    return ir_stm1(a, dst, e, loc);
}

Stm *ir_index_stm(Arena *a, Var *dst, Var *arr, SubExp i, SrcLoc loc) {
    IrExp *e = NEW(a, IrExp);
    e->kind = IE_INDEX;
    e->arr = arr;
    e->nslice = 1;
    e->slice = NEW(a, DimSlice);
    e->slice->index = i;
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
        n = ir_emit_op2(p, out, OP_SIZE_MUL, PT_I64, n, d, "bytes", loc);
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

void ir_print_type(Buf *out, Type t) {
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
        ir_print_type(out, ts[i]);
    }
    buf_putc(out, ')');
}

/* "x_1 : [n_2]f32 @mem_3 -> lmad" */
static void print_binding(Buf *out, const Var *v) {
    print_var(out, v);
    buf_puts(out, " : ");
    ir_print_type(out, v->type);
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
        ir_print_type(out, e->type);
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
        ir_print_type(out, e->type);
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
    case IE_THRESHOLD:
        buf_printf(out, "threshold %s(", e->thr->name);
        print_ses(out, e->args, e->nargs);
        buf_printf(out, ") /* >= %lld", (long long)e->thr->dflt);
        if (e->thr->parent) buf_printf(out, ", under %s %s", e->thr->parent->name, e->thr->branch ? "true" : "false");
        if (e->thr->fits_group) buf_puts(out, ", fits a work-group");
        buf_puts(out, " */");
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

void ir_each_consumed(const Stm *s, void (*f)(void *ctx, const Var *v), void *ctx) {
    const IrExp *e = s->e;
    if (ir_is_update(e)) f(ctx, e->arr);
    for (int i = 0; e->kind == IE_SCATTER && i < e->scatter.ndests; i++) f(ctx, e->scatter.dests[i]);
    for (int i = 0; e->kind == IE_HIST && i < e->hist.op.k; i++) f(ctx, e->hist.dests[i]);
    for (int i = 0; e->kind == IE_LOOP && i < e->loop.nparams; i++)
        if (e->loop.params[i]->type.unique && e->loop.inits[i].is_var) f(ctx, e->loop.inits[i].v);
}

int ir_body_uses(Body *b, const Var *v) {
    UseCount u = {v, 0};
    IrWalk w = {NULL, uc_use, NULL, &u};
    ir_walk_body(&w, b);
    return u.n;
}

/* Whether a walk binds one Var. */
typedef struct BindsVar {
    const Var *v;
    bool found;
} BindsVar;

static void bv_bind(IrWalk *w, Var *x) {
    BindsVar *b = w->ctx;
    if (x == b->v) b->found = true;
}

bool ir_op_may_fail(const IrExp *e) {
    if (!prim_is_int(e->t)) return false;
    switch (e->op) {
    case OP_DIV:
    case OP_MOD:
    case OP_QUOT:
    case OP_REM: return e->args[1].is_var || e->args[1].c.v.i == 0;
    case OP_POW: return true;
    default: return false;
    }
}

bool ir_exp_speculable_leaf(const IrExp *e) {
    switch (e->kind) {
    case IE_OP: return !ir_op_may_fail(e);
    case IE_SUBEXP:
    case IE_CONV:
    case IE_IOTA:
    case IE_REPLICATE:
    case IE_RESHAPE:
    case IE_REARRANGE:
    case IE_CONCAT:
    case IE_COPY:
    case IE_ARRAYLIT: return true;
    default: return false;
    }
}

bool ir_lambda_binds(Lambda *l, const Var *v) {
    BindsVar bv = {v, false};
    IrWalk w = {bv_bind, NULL, NULL, &bv};
    ir_walk_lambda(&w, l);
    return bv.found;
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
    case IE_APPLY:
    case IE_THRESHOLD: ir_uses_ses(e->args, e->nargs, f, ctx); break;
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

Threshold *ir_threshold(Arena *a, const char *fun, const char *name, int k, int64_t dflt, const Threshold *parent,
                        bool branch) {
    Threshold *t = NEW(a, Threshold);
    t->name = arena_printf(a, "%s.%s_%d", fun, name, k);
    t->dflt = dflt;
    t->parent = parent;
    t->branch = branch;
    return t;
}

bool ir_each_group_soac(const Body *b, bool (*f)(void *ctx, const Stm *s), void *ctx) {
    for (int i = 0; i < b->nstms; i++) {
        const Stm *s = b->stms[i];
        const IrExp *e = s->e;
        bool ok = true;
        if (e->kind == IE_IF) ok = ir_each_group_soac(e->tbody, f, ctx) && ir_each_group_soac(e->fbody, f, ctx);
        else if (e->kind == IE_LOOP) ok = ir_each_group_soac(e->loop.body, f, ctx);
        else if (e->kind == IE_SCREMA || e->kind == IE_SCATTER || e->kind == IE_HIST) ok = f(ctx, s);
        if (!ok) return false;
    }
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
    static const char *const names[] = {"SegMap", "SegRed", "SegScan", "SegHist", "SegSeq", "Host", "SegGroup"};
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
    if (e->intra && !e->seg) buf_puts(pr->out, "intra-group ");
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

int ir_param_index(const Lambda *l, const Var *v) {
    for (int i = 0; i < l->nparams; i++)
        if (l->params[i] == v) return i;
    return -1;
}

const Screma *ir_elementwise(const SegOp *op) {
    Lambda *lam = op->op;
    Body *b = lam->body;
    if (b->nstms != 1 || b->nres != op->k || b->stms[0]->e->kind != IE_SCREMA) return NULL;
    const Stm *s = b->stms[0];
    const Screma *m = &s->e->screma;
    if (m->nscans || m->nreds || s->npat != op->k || m->narrs != lam->nparams) return NULL;
    for (int i = 0; i < lam->nparams; i++)
        if (lam->params[i]->type.kind != TK_ARRAY || lam->params[i]->type.rank != 1 ||
            ir_body_uses(m->map->body, lam->params[i]) || !m->arrs[i] || ir_param_index(lam, m->arrs[i]) < 0)
            return NULL;
    for (int i = 0; i < m->narrs; i++) {
        if (m->map->params[i]->type.kind == TK_ARRAY) return NULL;
        for (int j = 0; j < i; j++)
            if (m->arrs[j] == m->arrs[i]) return NULL;
    }
    for (int q = 0; q < op->k; q++)
        if (!b->res[q].is_var || b->res[q].v != s->pat[q] || m->map->ret[q].kind == TK_ARRAY) return NULL;
    return m;
}
