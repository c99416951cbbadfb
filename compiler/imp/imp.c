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
    static const int arity[] = {0, 1, 2, 3, 3, 2, 0};
    return arity[t];
}

const char *imp_tune_name(ImpTune t) {
    static const char *const names[] = {"group_size", "group_size", "num_groups", "lanes", "groups_per_segment",
                                        "group_size", "variant"};
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

ImpExp *imp_threshold(Arena *a, const Threshold *thr, ImpExp *p) {
    ImpExp *e = exp_new(a, IX_THRESHOLD, PT_BOOL);
    e->thr = thr;
    e->args = NEW_ARRAY(a, ImpExp *, 1);
    e->args[0] = p;
    return e;
}

int imp_exp_nargs(const ImpExp *e) {
    switch (e->kind) {
    case IX_OP: return op_arity(e->op);
    case IX_CONV:
    case IX_THRESHOLD: return 1;
    case IX_TUNING: return imp_tune_arity(e->tune);
    default: return 0;
    }
}

ImpExp *imp_local_budget(Arena *a) { return exp_new(a, IX_LOCAL_BUDGET, PT_I64); }

ImpExp *imp_max_group(Arena *a) { return exp_new(a, IX_MAX_GROUP, PT_I64); }
ImpExp *imp_num_threads(Arena *a) { return exp_new(a, IX_NUM_THREADS, PT_I64); }

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
    case IX_LOCAL_BUDGET:
    case IX_MAX_GROUP:
    case IX_NUM_THREADS: return PT_I64;
    case IX_THRESHOLD: return PT_BOOL;
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

/* ---- Failures ---- */

const char *imp_loc(Arena *a, SrcLoc loc) {
    if (!loc.file) return "";
    return arena_printf(a, "%s:%d:%d: ", loc.file, loc.line, loc.col);
}

/* Appends text to a printf format (each % doubled). */
static void format_text(Buf *fmt, const char *text) {
    for (; *text; text++) buf_puts(fmt, *text == '%' ? "%%" : (char[2]){*text, 0});
}

int imp_message_format(Arena *a, const ImpStm *s, int max, Buf *fmt) {
    format_text(fmt, imp_loc(a, s->loc));
    int used = 0;
    for (const char *q = s->msg; *q; q++) {
        if (q[0] == '{' && q[1] == '}' && used < s->nargs && used < max) {
            buf_puts(fmt, "%lld");
            used++;
            q++;
            continue;
        }
        format_text(fmt, (char[2]){*q, 0});
    }
    return used;
}

/* ---- Free variables ---- */

typedef struct FreeWalk {
    char *declared, *seen; /* by id */
    int n;
    void (*fn)(int id, void *ctx);
    void *ctx;
    bool reads; /* imp_free_reads */
} FreeWalk;

static void fw_use(int id, void *ctx) {
    FreeWalk *w = ctx;
    if (id < 0 || id >= w->n) ICE("imp_free_vars: variable %d out of range", id);
    if (w->declared[id] || w->seen[id]) return;
    w->seen[id] = 1;
    w->fn(id, w->ctx);
}

static void fw_var(FreeWalk *w, const ImpVar *v) {
    if (v) fw_use(v->id, w);
}

static void fw_decl(FreeWalk *w, const ImpVar *v) {
    if (v) w->declared[v->id] = 1;
}

static void fw_exp(FreeWalk *w, const ImpExp *e) {
    if (!e) return;
    if (e->kind == IX_VAR || e->kind == IX_LOAD || e->kind == IX_MEMSIZE) fw_var(w, e->var);
    if (e->kind == IX_SYM) sym_vars(e->sym, fw_use, w);
    for (int i = 0; i < imp_exp_nargs(e); i++) fw_exp(w, e->args[i]);
    fw_exp(w, e->index);
}

static void fw_lmad(FreeWalk *w, const Lmad *l) {
    if (!l) return;
    sym_vars(l->offset, fw_use, w);
    for (int d = 0; d < l->rank; d++) {
        sym_vars(l->dims[d].shape, fw_use, w);
        sym_vars(l->dims[d].stride, fw_use, w);
    }
}

static void fw_code(FreeWalk *w, const ImpCode *c);

static void fw_stm(FreeWalk *w, const ImpStm *s) {
    fw_exp(w, s->init);
    fw_exp(w, s->offset);
    fw_exp(w, s->value);
    fw_exp(w, s->index);
    fw_exp(w, s->size);
    fw_exp(w, s->bound);
    fw_exp(w, s->cond);
    fw_exp(w, s->step);
    fw_exp(w, s->expected);
    fw_exp(w, s->groups);
    fw_exp(w, s->group_size);
    for (int i = 0; i < s->nargs; i++) fw_exp(w, s->args[i]);
    for (int i = 0; s->kind == IMP_RESULT && i < s->rank; i++) fw_exp(w, s->shape[i]);
    fw_lmad(w, s->dst_lmad);
    fw_lmad(w, s->src_lmad);
    fw_lmad(w, s->lmad);
    fw_var(w, s->dst);
    fw_var(w, s->src);
    switch (s->kind) {
    case IMP_DECL:
    case IMP_FOR:
    case IMP_PARFOR:
    case IMP_AWAIT:
    case IMP_ATOMIC: fw_decl(w, s->var); break;
    case IMP_ARG:
        fw_decl(w, s->var);
        fw_decl(w, s->mem);
        for (int d = 0; s->rank && d < s->rank; d++) fw_decl(w, s->dims[d]);
        break;
    case IMP_MAP: fw_decl(w, s->mem); break;
    case IMP_CALL:
        for (int i = 0; i < s->nresults; i++) fw_decl(w, s->results[i]);
        break;
    default: fw_var(w, s->var); break;
    }
    if (s->kind != IMP_ARG && s->kind != IMP_MAP && !(w->reads && s->kind == IMP_STORE)) fw_var(w, s->mem);
    fw_code(w, &s->body);
    fw_code(w, &s->orelse);
}

static void fw_code(FreeWalk *w, const ImpCode *c) {
    for (int i = 0; i < c->n; i++) fw_stm(w, c->stms[i]);
}

bool imp_exp_varies(const ImpExp *e, const char *set) {
    switch (e->kind) {
    case IX_CONST: return false;
    case IX_VAR: return set[e->var->id];
    case IX_SYM: return sym_reads_any(e->sym, set);
    case IX_OP:
    case IX_CONV:
        for (int i = 0; i < imp_exp_nargs(e); i++)
            if (imp_exp_varies(e->args[i], set)) return true;
        return false;
    default: return true;
    }
}

void imp_mark_vars(const ImpCode *c, bool decls, bool assigns, char *set) {
    for (int i = 0; i < c->n; i++) {
        const ImpStm *s = c->stms[i];
        bool decl = s->kind == IMP_DECL || s->kind == IMP_FOR || s->kind == IMP_AWAIT;
        if (s->var && ((decls && decl) || (assigns && s->kind == IMP_ASSIGN))) set[s->var->id] = 1;
        imp_mark_vars(&s->body, decls, assigns, set);
        imp_mark_vars(&s->orelse, decls, assigns, set);
    }
}

static void free_walk(const ImpCode *c, int next_id, void (*fn)(int id, void *ctx), void *ctx, bool reads) {
    FreeWalk w = {calloc((size_t)next_id + 1, 1), calloc((size_t)next_id + 1, 1), next_id, fn, ctx, reads};
    if (!w.declared || !w.seen) ICE("out of memory");
    fw_code(&w, c);
    free(w.declared);
    free(w.seen);
}

void imp_free_vars(const ImpCode *c, int next_id, void (*fn)(int id, void *ctx), void *ctx) {
    free_walk(c, next_id, fn, ctx, false);
}

void imp_free_reads(const ImpCode *c, int next_id, void (*fn)(int id, void *ctx), void *ctx) {
    free_walk(c, next_id, fn, ctx, true);
}
