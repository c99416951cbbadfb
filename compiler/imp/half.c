/* Half precision (imp_half, imp.h): the last step of the lowering, after
 * which no backend sees f16 arithmetic.
 *
 * An f16 is stored as its binary16 bits: in blocks (loads, stores,
 * copies, fills and local arrays of element type f16 move uint16_t
 * values), in entry arguments and results, and at the C API. Everything
 * else computes with the float of the same value:
 *   - a scalar variable of type f16 becomes an f32 variable, and an f16
 *     constant the f32 constant of its value;
 *   - an operation on f16 operands becomes the f32 operation, and a float
 *     result is rounded to half precision (converted to the half's bits
 *     and back, runtime/scalar.h). For +, -, *, / and sqrt this is exactly
 *     binary16 arithmetic: a float carries more than twice the half's
 *     significand bits plus two, so rounding twice loses nothing; the
 *     other functions are the float ones, rounded once more;
 *   - a load of an f16 element converts its bits to the float, a store
 *     converts the float back (exactly: the value is a half's already);
 *   - conversions to f16 round once, from f64 directly (through f32 a
 *     value could round twice); from integers and bools through f32,
 *     exact below 2^24 and infinite above 65519 either way;
 *   - to_bits and from_bits are those conversions' bits.
 * The constant folder computes f16 operations the same way (ir/prim.c). */
#include "imp.h"

typedef struct Half {
    ImpProg *p;
    Arena *a;
} Half;

/* Variable v, when it is an f16 scalar, as the f32 scalar it becomes. */
static void widen_var(ImpVar *v) {
    if (v && v->kind == IMP_SCALAR && v->t == PT_F16) v->t = PT_F32;
}

/* x (the f32 of an f16 value or of a wider one of type from), rounded to
 * half precision, as an f32. */
static ImpExp *round_half(Arena *a, PrimType from, ImpExp *x) {
    if (from != PT_F64 && from != PT_F32) {
        x = imp_conv(a, from, PT_F32, x);
        from = PT_F32;
    }
    return imp_conv(a, PT_F16, PT_F32, imp_conv(a, from, PT_F16, x));
}

static ImpExp *half_exp(Half *H, ImpExp *e);

/* An operation e on f16 operands (already rewritten: f32 values). */
static ImpExp *half_op(Half *H, ImpExp *e, ImpExp **args) {
    Arena *a = H->a;
    if (e->op == OP_TO_BITS) {
        ImpExp *bits = imp_conv(a, PT_F32, PT_F16, args[0]);
        return imp_op(a, OP_TO_BITS, PT_F16, &bits);
    }
    ImpExp *r = imp_op(a, e->op, PT_F32, args);
    r->reassoc = e->reassoc;
    return op_result(e->op, PT_F32) == PT_F32 ? round_half(a, PT_F32, r) : r;
}

/* e rewritten; an expression with no half in it is returned as it is,
 * not copied. */
static ImpExp *half_exp(Half *H, ImpExp *e) {
    if (!e) return NULL;
    Arena *a = H->a;
    switch (e->kind) {
    case IX_CONST:
        return e->c.type == PT_F16 ? imp_const(a, prim_float(PT_F32, e->c.v.f)) : e;
    case IX_VAR: widen_var(e->var); return e;
    case IX_OP: {
        int n = op_arity(e->op);
        ImpExp **args = NEW_ARRAY(a, ImpExp *, n);
        bool same = true;
        for (int i = 0; i < n; i++) same &= (args[i] = half_exp(H, e->args[i])) == e->args[i];
        if (e->t == PT_F16) return half_op(H, e, args);
        if (same && op_result(e->op, e->t) != PT_F16) return e; /* no half in it */
        ImpExp *r = imp_op(a, e->op, e->t, args);
        r->reassoc = e->reassoc;
        /* from_bits of a u16 gives an f16's bits */
        return op_result(e->op, e->t) == PT_F16 ? imp_conv(a, PT_F16, PT_F32, r) : r;
    }
    case IX_CONV: {
        ImpExp *x = half_exp(H, e->args[0]);
        if (e->t == PT_F16 && e->to == PT_F16) return x;
        if (e->t == PT_F16) return imp_conv(a, PT_F32, e->to, x);
        if (e->to == PT_F16) return round_half(a, e->t, x);
        return x == e->args[0] ? e : imp_conv(a, e->t, e->to, x);
    }
    case IX_LOAD: {
        ImpExp *index = half_exp(H, e->index);
        if (e->t != PT_F16) return index == e->index ? e : imp_load(a, e->var, e->t, index);
        return imp_conv(a, PT_F16, PT_F32, imp_load(a, e->var, e->t, index));
    }
    default: return e; /* i64 expressions */
    }
}

/* Value v (rewritten) to be stored as an element or result of type t. */
static ImpExp *stored(Half *H, PrimType t, ImpExp *v) {
    return t == PT_F16 ? imp_conv(H->a, PT_F32, PT_F16, v) : v;
}

static ImpCode half_code(Half *H, ImpCode c);

/* Appends statement s, rewritten, to b. */
static void half_stm(Half *H, ImpBuilder *b, ImpStm *s) {
    Arena *a = H->a;
    /* a load of a half as a whole value (in host code, the only place a
     * device element may be read) is read into a bits variable first */
    ImpExp *whole = s->kind == IMP_DECL ? s->init : s->kind == IMP_ASSIGN ? s->value : NULL;
    if (whole && whole->kind == IX_LOAD && whole->t == PT_F16) {
        ImpVar *bits = imp_var(H->p, "half", IMP_SCALAR, PT_F16);
        imp_decl(b, bits, imp_load(a, whole->var, PT_F16, half_exp(H, whole->index)));
        widen_var(s->var);
        ImpExp *v = imp_conv(a, PT_F16, PT_F32, imp_read(a, bits));
        if (s->kind == IMP_DECL) s->init = v;
        else s->value = v;
        vec_push(&b->stms, s);
        return;
    }
    if (s->kind == IMP_ARG && s->rank == 0 && s->var->t == PT_F16) {
        /* the argument's bits, then the variable as their float */
        ImpVar *v = s->var, *bits = imp_var(H->p, v->name, IMP_SCALAR, PT_F16);
        s->var = bits;
        vec_push(&b->stms, s);
        v->t = PT_F32;
        imp_decl(b, v, imp_conv(a, PT_F16, PT_F32, imp_read(a, bits)));
        return;
    }
    widen_var(s->var);
    s->init = half_exp(H, s->init);
    s->offset = half_exp(H, s->offset);
    s->value = half_exp(H, s->value);
    s->index = half_exp(H, s->index);
    s->size = half_exp(H, s->size);
    s->bound = half_exp(H, s->bound);
    s->cond = half_exp(H, s->cond);
    s->step = half_exp(H, s->step);
    s->expected = half_exp(H, s->expected);
    s->groups = half_exp(H, s->groups);
    s->group_size = half_exp(H, s->group_size);
    for (int i = 0; i < s->nargs; i++) s->args[i] = half_exp(H, s->args[i]);
    for (int i = 0; i < s->nresults; i++) widen_var(s->results[i]);
    for (int i = 0; s->kind == IMP_RESULT && i < s->rank; i++) s->shape[i] = half_exp(H, s->shape[i]);
    if (s->kind == IMP_STORE || s->kind == IMP_FILL || (s->kind == IMP_RESULT && s->rank == 0))
        s->value = stored(H, s->t, s->value);
    s->body = half_code(H, s->body);
    s->orelse = half_code(H, s->orelse);
    vec_push(&b->stms, s);
}

static ImpCode half_code(Half *H, ImpCode c) {
    if (!c.n) return c;
    ImpBuilder b = {.a = H->a};
    for (int i = 0; i < c.n; i++) half_stm(H, &b, c.stms[i]);
    return imp_finish(&b);
}

void imp_half(ImpProg *p) {
    Half H = {.p = p, .a = p->arena};
    for (int i = 0; i < p->nfuns; i++) {
        ImpFun *f = p->funs[i];
        for (int j = 0; j < f->nparams; j++) widen_var(f->params[j]);
        for (int j = 0; j < f->nrets; j++)
            if (f->rets[j] == PT_F16) f->rets[j] = PT_F32;
        f->body = half_code(&H, f->body);
    }
    for (int i = 0; i < p->nkernels; i++) {
        ImpKernel *k = p->kernels[i];
        for (int j = 0; j < k->nparams; j++) widen_var(k->params[j]);
        k->body = half_code(&H, k->body);
    }
    for (int i = 0; i < p->nentries; i++) p->entries[i]->body = half_code(&H, p->entries[i]->body);
}
