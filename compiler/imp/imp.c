/* Imp's constructors: variables, expressions, the builder of code blocks
 * (imp.h). Constructors assert what they can check locally; imp_check
 * checks whole programs. */
#include "imp.h"

ImpVar *imp_var(ImpProg *p, const char *name, ImpVarKind kind, PrimType t) {
    ImpVar *v = NEW(p->arena, ImpVar);
    v->id = p->next_id++;
    v->name = name;
    v->kind = kind;
    v->t = t;
    v->space = IMP_SPACE_HOST;
    return v;
}

ImpVar *imp_block(ImpProg *p, const char *name, ImpSpace space) {
    ImpVar *v = imp_var(p, name, IMP_MEM, PT_U8);
    v->space = space;
    return v;
}

ImpKernel *imp_kernel(ImpProg *p, const char *name) {
    ImpKernel *k = NEW(p->arena, ImpKernel);
    k->name = name;
    k->index = p->nkernels;
    ImpKernel **ks = NEW_ARRAY(p->arena, ImpKernel *, p->nkernels + 1);
    COPY_ARRAY(ks, p->kernels, p->nkernels);
    ks[p->nkernels++] = k;
    p->kernels = ks;
    return k;
}

static ImpExp *exp_new(Arena *a, ImpExpKind k, PrimType t) {
    ImpExp *e = NEW(a, ImpExp);
    e->kind = k;
    e->t = t;
    return e;
}

ImpExp *imp_const(Arena *a, PrimValue c) {
    ImpExp *e = exp_new(a, IX_CONST, c.type);
    e->c = c;
    return e;
}

ImpExp *imp_i64(Arena *a, int64_t c) { return imp_const(a, prim_int(PT_I64, c)); }

ImpExp *imp_read(Arena *a, ImpVar *v) {
    ImpExp *e = exp_new(a, IX_VAR, v->t);
    e->var = v;
    return e;
}

ImpExp *imp_op(Arena *a, Op op, PrimType t, ImpExp **args) {
    if (!op_accepts(op, t)) ICE("imp_op: %s does not take %s", op_name(op), prim_name(t));
    ImpExp *e = exp_new(a, IX_OP, t);
    e->op = op;
    int n = op_arity(op);
    e->args = NEW_ARRAY(a, ImpExp *, n);
    COPY_ARRAY(e->args, args, n);
    return e;
}

ImpExp *imp_op2(Arena *a, Op op, PrimType t, ImpExp *x, ImpExp *y) {
    ImpExp *args[2] = {x, y};
    return imp_op(a, op, t, args);
}

ImpExp *imp_conv(Arena *a, PrimType from, PrimType to, ImpExp *x) {
    ImpExp *e = exp_new(a, IX_CONV, from);
    e->to = to;
    e->args = NEW_ARRAY(a, ImpExp *, 1);
    e->args[0] = x;
    return e;
}

ImpExp *imp_load(Arena *a, ImpVar *mem, PrimType t, ImpExp *index) {
    if (mem->kind != IMP_MEM) ICE("imp_load: %s_%d is not a block", mem->name, mem->id);
    ImpExp *e = exp_new(a, IX_LOAD, t);
    e->var = mem;
    e->index = index;
    return e;
}

ImpExp *imp_sym(Arena *a, Sym *sym) {
    int64_t c;
    if (sym_is_const(sym, &c)) return imp_i64(a, c);
    ImpExp *e = exp_new(a, IX_SYM, PT_I64);
    e->sym = sym;
    return e;
}

ImpExp *imp_sym32(Arena *a, Sym *sym) {
    ImpExp *e = exp_new(a, IX_SYM, PT_I32);
    e->sym = sym;
    return e;
}

ImpExp *imp_thread(Arena *a, ImpThread t) {
    ImpExp *e = exp_new(a, IX_THREAD, PT_I64);
    e->thread = t;
    return e;
}

int imp_tune_arity(ImpTune t) {
    static const int arity[] = {0, 1, 2, 3, 3};
    return arity[t];
}

const char *imp_tune_name(ImpTune t) {
    static const char *const names[] = {"group_size", "group_size", "num_groups", "lanes", "groups_per_segment"};
    return names[t];
}

ImpExp *imp_tuning(Arena *a, ImpKernel *k, ImpTune tune, ImpExp **args) {
    ImpExp *e = exp_new(a, IX_TUNING, PT_I64);
    e->kernel = k;
    e->tune = tune;
    int n = imp_tune_arity(tune);
    e->args = NEW_ARRAY(a, ImpExp *, n + 1);
    COPY_ARRAY(e->args, args, n);
    return e;
}

ImpExp *imp_local_budget(Arena *a) { return exp_new(a, IX_LOCAL_BUDGET, PT_I64); }

ImpExp *imp_memsize(Arena *a, ImpVar *mem) {
    if (mem->kind != IMP_MEM) ICE("imp_memsize: %s_%d is not a block", mem->name, mem->id);
    ImpExp *e = exp_new(a, IX_MEMSIZE, PT_I64);
    e->var = mem;
    return e;
}

PrimType imp_exp_type(const ImpExp *e) {
    switch (e->kind) {
    case IX_OP: return op_result(e->op, e->t);
    case IX_CONV: return e->to;
    case IX_THREAD:
    case IX_TUNING:
    case IX_MEMSIZE:
    case IX_LOCAL_BUDGET: return PT_I64;
    case IX_SYM:
    case IX_CONST:
    case IX_VAR:
    case IX_LOAD: break;
    }
    return e->t;
}

/* ---- The builder ---------------------------------------------------------- */

ImpStm *imp_add(ImpBuilder *b, ImpStmKind k) {
    ImpStm *s = NEW(b->a, ImpStm);
    s->kind = k;
    vec_push(&b->stms, s);
    return s;
}

void imp_decl(ImpBuilder *b, ImpVar *v, ImpExp *init) {
    ImpStm *s = imp_add(b, IMP_DECL);
    s->var = v;
    s->init = init;
}

void imp_assign(ImpBuilder *b, ImpVar *v, ImpExp *value) {
    ImpStm *s = imp_add(b, IMP_ASSIGN);
    s->var = v;
    s->value = value;
}

void imp_store(ImpBuilder *b, ImpVar *mem, PrimType t, ImpExp *index, ImpExp *value) {
    if (mem->kind != IMP_MEM) ICE("imp_store: %s_%d is not a block", mem->name, mem->id);
    ImpStm *s = imp_add(b, IMP_STORE);
    s->mem = mem;
    s->t = t;
    s->index = index;
    s->value = value;
}

ImpCode imp_finish(ImpBuilder *b) {
    ImpCode c = {vec_to_arena(b->a, &b->stms), b->stms.len};
    vec_free(&b->stms);
    return c;
}
