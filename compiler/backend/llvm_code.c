/* The LLVM backend's translation of Imp code (llvm_internal.h): every
 * variable is a stack slot that LLVM's mem2reg turns into registers; a
 * scalar operation is a call of the runtime bitcode's rt_<op>_<type>
 * (runtime/scalar.h), which LLVM inlines; Syms become i64 arithmetic;
 * loops and branches become basic blocks; a failure records its error
 * and branches to the entry point's failure block. */
#include <math.h>
#include <string.h>

#include "llvm_internal.h"

LLVMTypeRef l_type(L *l, PrimType t) {
    switch (t) {
    case PT_I8:
    case PT_U8: return l->i8;
    case PT_I16:
    case PT_U16:
    case PT_F16: return LLVMInt16TypeInContext(l->cx); /* its bits (compiler/imp/half.c) */
    case PT_I32:
    case PT_U32: return l->i32;
    case PT_I64:
    case PT_U64: return l->i64;
    case PT_F32: return l->f32;
    case PT_F64: return l->f64;
    case PT_BOOL: return l->i1;
    default: break;
    }
    ICE("LLVM backend: no type for %s", prim_name(t));
}

/* The type of an element of type t in memory (a bool is a byte). */
LLVMTypeRef l_mem_type(L *l, PrimType t) { return t == PT_BOOL ? l->i8 : l_type(l, t); }

LLVMValueRef l_slot(L *l, LLVMTypeRef ty, const char *name) {
    LLVMBuilderRef eb = LLVMCreateBuilderInContext(l->cx);
    LLVMValueRef first = LLVMGetFirstInstruction(l->entry_bb);
    if (first) LLVMPositionBuilderBefore(eb, first);
    else LLVMPositionBuilderAtEnd(eb, l->entry_bb);
    LLVMValueRef s = LLVMBuildAlloca(eb, ty, name);
    LLVMDisposeBuilder(eb);
    return s;
}

LLVMValueRef l_call(L *l, const char *name, LLVMValueRef *args, int n) {
    LLVMValueRef f = LLVMGetNamedFunction(l->mod, name);
    if (!f) ICE("LLVM backend: the runtime bitcode lacks %s", name);
    LLVMTypeRef ft = LLVMGlobalGetValueType(f);
    LLVMValueRef call = LLVMBuildCall2(l->b, ft, f, args, (unsigned)n, "");
    unsigned ext[] = {LLVMGetEnumAttributeKindForName("zeroext", 7), LLVMGetEnumAttributeKindForName("signext", 7)};
    unsigned np = LLVMCountParams(f);
    for (unsigned i = 0; i <= np; i++) {
        LLVMAttributeIndex at = i == np ? LLVMAttributeReturnIndex : i + 1;
        for (int k = 0; k < 2; k++) {
            LLVMAttributeRef attr = LLVMGetEnumAttributeAtIndex(f, at, ext[k]);
            if (attr) LLVMAddCallSiteAttribute(call, at, attr);
        }
    }
    return call;
}

/* ---- Variables ---- */

LVar *l_var_at(L *l, int id) {
    while (l->vars.len <= id) vec_push(&l->vars, NULL);
    if (!l->vars.items[id]) l->vars.items[id] = NEW(l->a, LVar);
    return l->vars.items[id];
}

LVar *l_declare(L *l, const ImpVar *v) {
    LVar *lv = l_var_at(l, v->id);
    if (lv->slot) return lv;
    const char *name = v->name ? v->name : "v";
    if (v->kind == IMP_MEM) {
        lv->ty = l->ptr;
        lv->slot = l_slot(l, l->ptr, name);
        lv->data = l_slot(l, l->ptr, arena_printf(l->a, "%s.data", name));
    } else {
        lv->ty = l_type(l, v->t);
        lv->slot = l_slot(l, lv->ty, name);
    }
    return lv;
}

LVar *l_lookup(L *l, int id) {
    LVar *lv = id < l->vars.len ? l->vars.items[id] : NULL;
    if (!lv || !lv->slot) ICE("LLVM backend: variable %d used before its declaration", id);
    return lv;
}

LLVMValueRef l_load(L *l, LLVMTypeRef ty, LLVMValueRef slot) { return LLVMBuildLoad2(l->b, ty, slot, ""); }

/* Sets block variable v to the block b (its elements at data). */
static void set_block(L *l, const ImpVar *v, LLVMValueRef b, LLVMValueRef data) {
    LVar *lv = l_declare(l, v);
    LLVMBuildStore(l->b, b, lv->slot);
    LLVMBuildStore(l->b, data, lv->data);
}

/* The address of element index (an i64) of type t of block mem. */
LLVMValueRef l_elem_ptr(L *l, const ImpVar *mem, PrimType t, LLVMValueRef index) {
    LLVMValueRef base = l_load(l, l->ptr, l_lookup(l, mem->id)->data);
    return LLVMBuildGEP2(l->b, l_mem_type(l, t), base, &index, 1, "");
}

LLVMValueRef l_load_elem(L *l, PrimType t, LLVMValueRef ptr) {
    LLVMValueRef v = LLVMBuildLoad2(l->b, l_mem_type(l, t), ptr, "");
    return t == PT_BOOL ? LLVMBuildTrunc(l->b, v, l->i1, "") : v;
}

void l_store_elem(L *l, PrimType t, LLVMValueRef ptr, LLVMValueRef v, bool stream) {
    LLVMValueRef st = LLVMBuildStore(l->b, t == PT_BOOL ? LLVMBuildZExt(l->b, v, l->i8, "") : v, ptr);
    if (stream) l_nontemporal(l, st);
}

void l_nontemporal(L *l, LLVMValueRef st) {
    LLVMMetadataRef one = LLVMValueAsMetadata(LLVMConstInt(l->i32, 1, 0));
    unsigned kind = LLVMGetMDKindIDInContext(l->cx, "nontemporal", 11);
    LLVMSetMetadata(st, kind, LLVMMetadataAsValue(l->cx, LLVMMDNodeInContext2(l->cx, &one, 1)));
    l->streams++;
}

/* ---- Expressions ---- */

static LLVMValueRef l_const(L *l, PrimValue c) {
    LLVMTypeRef ty = l_type(l, c.type);
    switch (prim_class(c.type)) {
    case PC_BOOL: return LLVMConstInt(ty, c.v.b, 0);
    case PC_FLOAT: return LLVMConstReal(ty, c.v.f);
    case PC_SIGNED:
    case PC_UNSIGNED:
    default: {
        int bits = 8 * prim_size(c.type);
        uint64_t u = (uint64_t)c.v.i;
        if (bits < 64) u &= (UINT64_C(1) << bits) - 1;
        return LLVMConstInt(ty, u, 0);
    }
    }
}

LLVMValueRef l_i64(L *l, int64_t c) { return LLVMConstInt(l->i64, (unsigned long long)c, 1); }

static void *sym_konst(int64_t c, void *ctx) { return l_i64(ctx, c); }
static void *sym_var_value(int id, void *ctx) {
    L *l = ctx;
    LVar *lv = l_lookup(l, id);
    LLVMValueRef v = l_load(l, lv->ty, lv->slot);
    return lv->ty == l->i64 ? v : LLVMBuildSExt(l->b, v, l->i64, "");
}
static void *sym_add2(void *x, void *y, void *ctx) { return LLVMBuildAdd(((L *)ctx)->b, x, y, ""); }
static void *sym_mul2(void *x, void *y, void *ctx) { return LLVMBuildMul(((L *)ctx)->b, x, y, ""); }
static void *sym_quot2(void *x, void *y, void *ctx) { return LLVMBuildSDiv(((L *)ctx)->b, x, y, ""); }
static const SymFold sym_fold_llvm = {sym_konst, sym_var_value, sym_add2, sym_mul2, sym_quot2};

LLVMValueRef l_sym(L *l, const Sym *s) { return sym_fold(s, &sym_fold_llvm, l); }

LLVMValueRef l_fmul(L *l, LLVMValueRef x, LLVMValueRef y) {
    LLVMValueRef r = LLVMBuildFMul(l->b, x, y, "");
    LLVMSetFastMathFlags(r, LLVMFastMathAllowContract);
    return r;
}

LLVMValueRef l_intrinsic(L *l, const char *name, LLVMTypeRef *types, int ntypes, LLVMValueRef *args, int n) {
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(l->mod, id, types, (size_t)ntypes);
    return LLVMBuildCall2(l->b, LLVMIntrinsicGetType(l->cx, id, types, (size_t)ntypes), f, args, (unsigned)n, "");
}

/* Constant c of x's type (a scalar, or a vector of c). */
static LLVMValueRef f_like(L *l, LLVMValueRef x, double c) {
    LLVMTypeRef t = LLVMTypeOf(x);
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind) return LLVMConstReal(t, c);
    unsigned n = LLVMGetVectorSize(t);
    LLVMValueRef *cs = NEW_ARRAY(l->a, LLVMValueRef, n);
    for (unsigned i = 0; i < n; i++) cs[i] = LLVMConstReal(LLVMGetElementType(t), c);
    return LLVMConstVector(cs, n);
}

/* 1 / sqrt x for f32 x (a scalar or a vector), which LLVM may compute by
 * the processor's estimate refined by one Newton step (x86: rsqrt14 and a
 * few multiplications instead of a square root and a division, within
 * about 2 ulp), as the GPU backends' rsqrt may be approximate. The
 * estimate is wrong outside the normal numbers, so: a subnormal x (or a
 * negative, whose result is NaN anyway) is scaled by 2^32 first and its
 * result by 2^16, +-0 gives +-infinity and infinity 0, as 1 / sqrt x. */
LLVMValueRef l_rsqrt(L *l, LLVMValueRef x) {
    LLVMBuilderRef b = l->b;
    LLVMValueRef small = LLVMBuildFCmp(b, LLVMRealOLT, x, f_like(l, x, 0x1p-126), "");
    LLVMValueRef xs = LLVMBuildSelect(b, small, LLVMBuildFMul(b, x, f_like(l, x, 0x1p32), ""), x, "");
    LLVMTypeRef t = LLVMTypeOf(x);
    LLVMValueRef s = l_intrinsic(l, "llvm.sqrt", &t, 1, &xs, 1);
    LLVMSetFastMathFlags(s, LLVMFastMathApproxFunc);
    LLVMValueRef r = LLVMBuildFDiv(b, f_like(l, x, 1), s, "");
    LLVMSetFastMathFlags(r, LLVMFastMathApproxFunc | LLVMFastMathAllowReciprocal);
    r = LLVMBuildSelect(b, small, LLVMBuildFMul(b, r, f_like(l, x, 0x1p16), ""), r, "");
    LLVMValueRef inf = f_like(l, x, INFINITY), signed_inf[] = {inf, x};
    LLVMValueRef zero = LLVMBuildFCmp(b, LLVMRealOEQ, x, f_like(l, x, 0), "");
    r = LLVMBuildSelect(b, zero, l_intrinsic(l, "llvm.copysign", &t, 1, signed_inf, 2), r, "");
    return LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOEQ, x, inf, ""), f_like(l, x, 0), r, "");
}

LLVMValueRef l_op(L *l, const ImpExp *e, LLVMValueRef *args) {
    if (e->reassoc) { /* as rt_add_f32 and rt_mul_f32, reassociable */
        LLVMValueRef r = e->op == OP_ADD ? LLVMBuildFAdd(l->b, args[0], args[1], "")
                                         : LLVMBuildFMul(l->b, args[0], args[1], "");
        /* A reduction's order is unspecified, and so is whether a product
         * it adds is rounded before (as on GPUs): a multiply-add may fuse. */
        LLVMSetFastMathFlags(r, LLVMFastMathAllowReassoc | LLVMFastMathAllowContract);
        return r;
    }
    if (e->op == OP_MUL && prim_is_float(e->t)) return l_fmul(l, args[0], args[1]);
    if (e->op == OP_RSQRT && e->t == PT_F32) return l_rsqrt(l, args[0]);
    return l_call(l, arena_printf(l->a, "rt_%s_%s", op_name(e->op), prim_name(e->t)), args, op_arity(e->op));
}

LLVMValueRef l_conv(L *l, const ImpExp *e, LLVMValueRef x) {
    return l_call(l, arena_printf(l->a, "rt_conv_%s_%s", prim_name(e->t), prim_name(e->to)), &x, 1);
}

LLVMValueRef l_exp(L *l, const ImpExp *e) {
    switch (e->kind) {
    case IX_CONST: return l_const(l, e->c);
    case IX_VAR: {
        LVar *lv = l_lookup(l, e->var->id);
        return l_load(l, lv->ty, lv->slot);
    }
    case IX_OP: {
        LLVMValueRef args[3];
        for (int i = 0; i < op_arity(e->op); i++) args[i] = l_exp(l, e->args[i]);
        return l_op(l, e, args);
    }
    case IX_CONV: return l_conv(l, e, l_exp(l, e->args[0]));
    case IX_LOAD: return l_load_elem(l, e->t, l_elem_ptr(l, e->var, e->t, l_exp(l, e->index)));
    case IX_SYM:
        if (e->t == PT_I32) ICE("LLVM backend: a 32-bit Sym in host code");
        return l_sym(l, e->sym);
    case IX_THREAD:
    case IX_TUNING:
    case IX_MEMSIZE:
    case IX_THRESHOLD:
    case IX_LOCAL_BUDGET:
    case IX_MAX_GROUP: break;
    case IX_NUM_THREADS: return l_call(l, "rtl_num_threads", &l->ctx, 1);
    }
    ICE("LLVM backend: a GPU expression in host code");
}

/* ---- Control flow ---- */

LLVMBasicBlockRef l_bb(L *l, const char *name) { return LLVMAppendBasicBlockInContext(l->cx, l->fn, name); }

/* Continues in bb (after the current block branches to it or ends). */
void l_enter(L *l, LLVMBasicBlockRef bb) { LLVMPositionBuilderAtEnd(l->b, bb); }

/* Fails when cond is false: report(l, arg) records the error (NULL: the
 * runtime function that made cond recorded it), then the entry point's
 * failure block runs. */
void l_fail_unless(L *l, LLVMValueRef cond, void (*report)(L *l, const void *arg), const void *arg) {
    if (!l->fail) ICE("LLVM backend: a failure outside an entry point");
    LLVMBasicBlockRef bad = l_bb(l, "fail"), ok = l_bb(l, "ok");
    LLVMBuildCondBr(l->b, cond, ok, bad);
    l_enter(l, bad);
    if (report) report(l, arg);
    LLVMBuildBr(l->b, l->fail);
    l_enter(l, ok);
}

LLVMValueRef l_str(L *l, const char *s) { return LLVMBuildGlobalString(l->b, s, "str"); }

void l_loop(L *l, LLVMTypeRef ty, LLVMValueRef slot, LLVMValueRef start, LLVMValueRef bound, int64_t step,
            void (*body)(L *l, const void *arg), const void *arg) {
    if (start) LLVMBuildStore(l->b, start, slot);
    LLVMValueRef by = LLVMConstInt(ty, (unsigned long long)step, 1);
    LLVMBasicBlockRef head = l_bb(l, "for"), bb = l_bb(l, "body"), done = l_bb(l, "done");
    LLVMBuildBr(l->b, head);
    l_enter(l, head);
    LLVMValueRef i = l_load(l, ty, slot);
    LLVMValueRef go = step == 1 ? LLVMBuildICmp(l->b, LLVMIntSLT, i, bound, "")
                                : LLVMBuildICmp(l->b, LLVMIntSLE, LLVMBuildNSWAdd(l->b, i, by, ""), bound, "");
    LLVMBuildCondBr(l->b, go, bb, done);
    l_enter(l, bb);
    body(l, arg);
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, l_load(l, ty, slot), by, ""), slot);
    LLVMBuildBr(l->b, head);
    l_enter(l, done);
}

static void code_body(L *l, const void *c) { l_code(l, c); }
static void code_then(L *l, const void *s) { l_code(l, &((const ImpStm *)s)->body); }
static void code_else(L *l, const void *s) { l_code(l, &((const ImpStm *)s)->orelse); }

void l_branch(L *l, LLVMValueRef cond, void (*then)(L *l, const void *arg), void (*orelse)(L *l, const void *arg),
              const void *arg) {
    LLVMBasicBlockRef yes = l_bb(l, "then"), no = l_bb(l, "else"), done = l_bb(l, "fi");
    LLVMBuildCondBr(l->b, cond, yes, no);
    l_enter(l, yes);
    if (then) then(l, arg);
    LLVMBuildBr(l->b, done);
    l_enter(l, no);
    if (orelse) orelse(l, arg);
    LLVMBuildBr(l->b, done);
    l_enter(l, done);
}

/* ---- Copies between LMAD layouts ---- */

typedef struct Copy {
    PrimType t;
    LLVMValueRef dst, src; /* element addresses */
    const Lmad *dl, *sl;
    Sym **idx;             /* the loop counters, outermost first */
    int d;                 /* the loop being made */
} Copy;

static void copy_loops(L *l, const void *arg);

static void copy_nest(L *l, Copy *c) {
    int r = c->dl->rank;
    if (c->d == r) {
        LLVMValueRef si = l_sym(l, lmad_index(l->a, c->sl, c->idx + (r - c->sl->rank)));
        LLVMValueRef di = l_sym(l, lmad_index(l->a, c->dl, c->idx));
        LLVMValueRef v = LLVMBuildLoad2(l->b, l_mem_type(l, c->t), LLVMBuildGEP2(l->b, l_mem_type(l, c->t), c->src, &si, 1, ""), "");
        LLVMBuildStore(l->b, v, LLVMBuildGEP2(l->b, l_mem_type(l, c->t), c->dst, &di, 1, ""));
        return;
    }
    int id = l->next_id++;
    LVar *lv = l_var_at(l, id);
    lv->ty = l->i64;
    lv->slot = l_slot(l, l->i64, "c");
    c->idx[c->d] = sym_var(l->a, id);
    l_loop(l, l->i64, lv->slot, l_i64(l, 0), l_sym(l, c->dl->dims[c->d].shape), 1, copy_loops, c);
}

static void copy_loops(L *l, const void *arg) {
    Copy *c = (Copy *)arg;
    c->d++;
    copy_nest(l, c);
    c->d--;
}

/* The most dimensions of a copy that the runtime makes (its
 * RT_COPY_MAX_RANK, runtime/llvm/copy.h). */
#define RUNTIME_COPY_RANK 32

/* An i64 array on the stack holding n values (at least one element). */
static LLVMValueRef i64_array(L *l, LLVMValueRef *vs, int n, const char *name) {
    LLVMTypeRef at = LLVMArrayType2(l->i64, (uint64_t)(n > 0 ? n : 1));
    LLVMValueRef a = l_slot(l, at, name);
    for (int d = 0; d < n; d++) {
        LLVMValueRef ix[] = {l_i64(l, 0), l_i64(l, d)};
        LLVMBuildStore(l->b, vs[d], LLVMBuildGEP2(l->b, at, a, ix, 2, ""));
    }
    return a;
}

/* The copy of copy() by the runtime (rtl_copy: in parallel, a transpose
 * by tiles), for entry code; a source of lower rank is broadcast over the
 * leading dimensions (stride 0). */
static void runtime_copy(L *l, PrimType t, LLVMValueRef dst, const Lmad *dl, LLVMValueRef src, const Lmad *sl) {
    int r = dl->rank, lead = r - sl->rank;
    LLVMValueRef *shape = NEW_ARRAY(l->a, LLVMValueRef, r + 1), *ds = NEW_ARRAY(l->a, LLVMValueRef, r + 1),
                 *ss = NEW_ARRAY(l->a, LLVMValueRef, r + 1);
    for (int d = 0; d < r; d++) {
        shape[d] = l_sym(l, dl->dims[d].shape);
        ds[d] = l_sym(l, dl->dims[d].stride);
        ss[d] = d < lead ? l_i64(l, 0) : l_sym(l, sl->dims[d - lead].stride);
    }
    LLVMValueRef doff = l_sym(l, dl->offset), soff = l_sym(l, sl->offset);
    LLVMValueRef args[] = {l->ctx,
                           LLVMConstInt(l->i32, (unsigned long long)prim_size(t), 0),
                           LLVMBuildGEP2(l->b, l_mem_type(l, t), dst, &doff, 1, ""),
                           i64_array(l, ds, r, "dstr"),
                           LLVMBuildGEP2(l->b, l_mem_type(l, t), src, &soff, 1, ""),
                           i64_array(l, ss, r, "sstr"),
                           LLVMConstInt(l->i32, (unsigned long long)r, 0),
                           i64_array(l, shape, r, "shape")};
    l_call(l, "rtl_copy", args, 8);
}

/* Copies the elements of type t at sl from src to dl at dst (element
 * addresses), in row-major order of dl's shape; dimensions the two
 * layouts lay out contiguously alike are merged. Entry code leaves it to
 * the runtime; a task writes loops, whose inner dimensions that may be
 * empty guard them (an outer loop of 10^10 empty rows would take
 * minutes). */
static void copy(L *l, PrimType t, LLVMValueRef dst, const Lmad *dl, LLVMValueRef src, const Lmad *sl) {
    lmad_merge_pair(l->a, dl, sl, &dl, &sl);
    if (!l->in_task && dl->rank <= RUNTIME_COPY_RANK) {
        runtime_copy(l, t, dst, dl, src, sl);
        return;
    }
    LLVMValueRef guard = NULL;
    for (int d = 1; d < dl->rank; d++) {
        int64_t n;
        if (sym_is_const(dl->dims[d].shape, &n) && n > 0) continue;
        LLVMValueRef nonempty = LLVMBuildICmp(l->b, LLVMIntSGT, l_sym(l, dl->dims[d].shape), l_i64(l, 0), "");
        guard = guard ? LLVMBuildAnd(l->b, guard, nonempty, "") : nonempty;
    }
    LLVMBasicBlockRef done = NULL;
    if (guard) {
        LLVMBasicBlockRef go = l_bb(l, "copy");
        done = l_bb(l, "copied");
        LLVMBuildCondBr(l->b, guard, go, done);
        l_enter(l, go);
    }
    Copy c = {t, dst, src, dl, sl, NEW_ARRAY(l->a, Sym *, dl->rank + 1), 0};
    copy_nest(l, &c);
    if (guard) {
        LLVMBuildBr(l->b, done);
        l_enter(l, done);
    }
}

/* ---- Statements ---- */

static void report_alloc(L *l, const void *arg) {
    const LLVMValueRef *a = arg; /* the location string and the size */
    LLVMValueRef args[] = {l->ctx, a[0], a[1]};
    l_call(l, "rtl_alloc_failed", args, 3);
}

/* Sets block v to the block b, or fails (report with arg) when b is NULL. */
static void set_checked_block(L *l, const ImpVar *v, LLVMValueRef b, void (*report)(L *l, const void *arg),
                              const void *arg) {
    l_fail_unless(l, LLVMBuildIsNotNull(l->b, b, ""), report, arg);
    set_block(l, v, b, l_call(l, "rtl_block_data", &b, 1));
}

static void alloc(L *l, const ImpStm *s) {
    LLVMValueRef size = l_exp(l, s->size);
    LLVMValueRef args[] = {l->pool, size};
    LLVMValueRef b = l_call(l, "rtl_block_new", args, 2);
    LLVMValueRef report[] = {l_str(l, imp_loc(l->a, s->loc)), size};
    set_checked_block(l, s->mem, b, report_alloc, report);
}

void l_assert_error(L *l, const ImpStm *s, LLVMValueRef *vals) {
    Buf fmt = {0};
    int used = imp_message_format(l->a, s, s->nargs, &fmt);
    LLVMValueRef *args = NEW_ARRAY(l->a, LLVMValueRef, used + 2);
    args[0] = l->ctx;
    args[1] = l_str(l, fmt.data);
    for (int k = 0; k < used; k++) args[k + 2] = vals[k];
    l_call(l, "rt_error", args, used + 2);
    buf_free(&fmt);
}

static void report_assert(L *l, const void *arg) {
    const ImpStm *s = arg;
    LLVMValueRef *vals = NEW_ARRAY(l->a, LLVMValueRef, s->nargs + 1);
    for (int k = 0; k < s->nargs; k++) vals[k] = l_exp(l, s->args[k]);
    l_assert_error(l, s, vals);
}

static void call(L *l, const ImpStm *s) {
    LLVMValueRef f = l->funs[s->fn->index];
    LLVMValueRef *args = NEW_ARRAY(l->a, LLVMValueRef, s->nargs + 1);
    for (int i = 0; i < s->nargs; i++) args[i] = l_exp(l, s->args[i]);
    LLVMValueRef r = LLVMBuildCall2(l->b, LLVMGlobalGetValueType(f), f, args, (unsigned)s->nargs, "");
    for (int i = 0; i < s->nresults; i++) {
        LVar *lv = l_declare(l, s->results[i]);
        LLVMBuildStore(l->b, s->nresults == 1 ? r : LLVMBuildExtractValue(l->b, r, (unsigned)i, ""), lv->slot);
    }
}

static void ret(L *l, const ImpStm *s) {
    if (s->nargs == 1) {
        LLVMBuildRet(l->b, l_exp(l, s->args[0]));
    } else {
        LLVMValueRef r = LLVMGetUndef(LLVMGetReturnType(LLVMGlobalGetValueType(l->fn)));
        for (int k = 0; k < s->nargs; k++) r = LLVMBuildInsertValue(l->b, r, l_exp(l, s->args[k]), (unsigned)k, "");
        LLVMBuildRet(l->b, r);
    }
    l_enter(l, l_bb(l, "after"));
}

static LLVMValueRef i32c(L *l, int c) { return LLVMConstInt(l->i32, (unsigned long long)c, 1); }

static void arg(L *l, const ImpStm *s) {
    LLVMValueRef k = i32c(l, s->k);
    if (s->rank == 0) {
        LLVMValueRef args[] = {l->ins, k};
        LLVMValueRef p = l_call(l, "rtl_arg_data", args, 2);
        LLVMBuildStore(l->b, l_load_elem(l, s->t, p), l_declare(l, s->var)->slot);
        return;
    }
    for (int d = 0; d < s->rank; d++) {
        LLVMValueRef args[] = {l->ins, k, i32c(l, d)};
        LLVMBuildStore(l->b, l_call(l, "rtl_arg_dim", args, 3), l_declare(l, s->dims[d])->slot);
    }
    LLVMValueRef args[] = {l->ctx, l->pool, l->ins, k, i32c(l, prim_size(s->t)), LLVMConstInt(l->i1, s->unique, 0)};
    LLVMValueRef b = l_call(l, "rtl_arg_block", args, 6);
    l_fail_unless(l, LLVMBuildIsNotNull(l->b, b, ""), NULL, NULL);
    set_block(l, s->mem, b, l_call(l, "rtl_block_data", &b, 1));
}

static void result(L *l, const ImpStm *s) {
    if (!l->results_begun) l_call(l, "rtl_results_begin", &l->ctx, 1);
    l->results_begun = true;
    LLVMValueRef shape = LLVMConstNull(l->ptr);
    if (s->rank > 0) {
        LLVMValueRef *dims = NEW_ARRAY(l->a, LLVMValueRef, s->rank);
        for (int d = 0; d < s->rank; d++) dims[d] = l_exp(l, s->shape[d]);
        shape = i64_array(l, dims, s->rank, "shape");
    }
    LLVMValueRef args[] = {l->ctx, l->outs, i32c(l, s->k), i32c(l, (int)s->t), i32c(l, s->rank), shape};
    LLVMValueRef p = l_call(l, "rtl_result", args, 6);
    l_fail_unless(l, LLVMBuildIsNotNull(l->b, p, ""), NULL, NULL);
    if (s->rank == 0) {
        l_store_elem(l, s->t, p, l_exp(l, s->value), false);
        return;
    }
    Sym **dims = NEW_ARRAY(l->a, Sym *, s->rank);
    for (int d = 0; d < s->rank; d++) dims[d] = s->lmad->dims[d].shape;
    LLVMValueRef src = l_load(l, l->ptr, l_lookup(l, s->mem->id)->data);
    copy(l, s->t, p, lmad_row_major(l->a, s->rank, dims), src, s->lmad);
}

/* ---- Parallel loops ---- */

/* The variables an IMP_PARFOR's body takes from outside. */
typedef struct Captured {
    int skip; /* the task variable, which the loop binds */
    VEC(int) ids;
} Captured;

static void capture(int id, void *ctx) {
    Captured *c = ctx;
    if (id != c->skip) vec_push(&c->ids, id);
}

/* What building a function changes in L, kept while a task's function is
 * built in the middle of another. */
typedef struct Saved {
    LLVMValueRef fn, ctx, pool, ins, outs;
    LLVMBasicBlockRef entry_bb, fail, at;
    const ImpFun *fun;
} Saved;

/* The body of IMP_PARFOR s as a function body(ctx, pool, env, task)
 * returning 0, or 1 after a failure: env is the struct of type et (the
 * function itself, then the captured variables: a scalar's value, a
 * block and its elements' address), which the function unpacks into its
 * own slots. rtl_task, which the runtime calls for each task, gives it a
 * pool of its own. */
static LLVMValueRef task_function(L *l, const ImpStm *s, const Captured *c, LLVMTypeRef et, const int *field) {
    Saved sv = {l->fn, l->ctx, l->pool, l->ins, l->outs, l->entry_bb, l->fail, LLVMGetInsertBlock(l->b), l->fun};
    LVar **outer = l->vars.items;
    int nouter = l->vars.len;
    l->vars.items = NULL;
    l->vars.len = l->vars.cap = 0;
    LLVMTypeRef ps[] = {l->ptr, l->ptr, l->ptr, l->i64};
    LLVMValueRef fn = LLVMAddFunction(l->mod, "futhorc_task", LLVMFunctionType(l->i32, ps, 4, 0));
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    l->fn = fn;
    l->entry_bb = LLVMAppendBasicBlockInContext(l->cx, fn, "entry");
    LLVMPositionBuilderAtEnd(l->b, l->entry_bb);
    l->ctx = LLVMGetParam(fn, 0);
    l->pool = LLVMGetParam(fn, 1);
    l->ins = l->outs = NULL;
    l->fail = LLVMAppendBasicBlockInContext(l->cx, fn, "failed");
    l->in_task++;
    LLVMValueRef env = LLVMGetParam(fn, 2);
    for (int i = 0; i < c->ids.len; i++) {
        const LVar *o = outer[c->ids.items[i]];
        LVar *lv = l_var_at(l, c->ids.items[i]);
        lv->ty = o->ty;
        lv->slot = l_slot(l, o->ty, "captured");
        LLVMValueRef p = LLVMBuildStructGEP2(l->b, et, env, (unsigned)field[i], "");
        LLVMBuildStore(l->b, l_load(l, o->ty, p), lv->slot);
        if (!o->data) continue;
        lv->data = l_slot(l, l->ptr, "captured.data");
        p = LLVMBuildStructGEP2(l->b, et, env, (unsigned)field[i] + 1, "");
        LLVMBuildStore(l->b, l_load(l, l->ptr, p), lv->data);
    }
    LVar *tv = l_declare(l, s->var);
    LLVMBuildStore(l->b, LLVMGetParam(fn, 3), tv->slot);
    int streams = l->streams;
    l_code(l, &s->body);
    /* streaming stores are weakly ordered: they reach memory before the
     * task is seen to end (a locked instruction on x86) */
    if (l->streams > streams) LLVMBuildFence(l->b, LLVMAtomicOrderingSequentiallyConsistent, 0, "");
    LLVMBuildRet(l->b, LLVMConstInt(l->i32, 0, 0));
    LLVMPositionBuilderAtEnd(l->b, l->fail);
    LLVMBuildRet(l->b, LLVMConstInt(l->i32, 1, 0));
    l->in_task--;
    vec_free(&l->vars);
    l->vars.items = outer;
    l->vars.len = l->vars.cap = nouter;
    l->fn = sv.fn, l->ctx = sv.ctx, l->pool = sv.pool, l->ins = sv.ins, l->outs = sv.outs;
    l->entry_bb = sv.entry_bb, l->fail = sv.fail, l->fun = sv.fun;
    LLVMPositionBuilderAtEnd(l->b, sv.at);
    return fn;
}

/* IMP_PARFOR: the body as a function of its own, whose captured
 * variables travel in a struct on this function's stack; the runtime's
 * rt_parfor runs the tasks (rtl_parfor; rtl_task calls the function) and
 * fails when one of them did. */
static void parfor(L *l, const ImpStm *s) {
    LLVMValueRef bound = l_exp(l, s->bound);
    Captured c = {s->var->id, {0}};
    imp_free_vars(&s->body, l->p->next_id, capture, &c);
    LLVMTypeRef *fields = NEW_ARRAY(l->a, LLVMTypeRef, 2 * c.ids.len + 1);
    int *field = NEW_ARRAY(l->a, int, c.ids.len + 1);
    int nf = 0;
    fields[nf++] = l->ptr;
    for (int i = 0; i < c.ids.len; i++) {
        const LVar *lv = l_lookup(l, c.ids.items[i]);
        field[i] = nf;
        fields[nf++] = lv->ty;
        if (lv->data) fields[nf++] = l->ptr;
    }
    LLVMTypeRef et = LLVMStructTypeInContext(l->cx, fields, (unsigned)nf, 0);
    LLVMValueRef fn = task_function(l, s, &c, et, field);
    LLVMValueRef env = l_slot(l, et, "env");
    LLVMBuildStore(l->b, fn, LLVMBuildStructGEP2(l->b, et, env, 0, ""));
    for (int i = 0; i < c.ids.len; i++) {
        const LVar *lv = l_lookup(l, c.ids.items[i]);
        LLVMBuildStore(l->b, l_load(l, lv->ty, lv->slot), LLVMBuildStructGEP2(l->b, et, env, (unsigned)field[i], ""));
        if (lv->data)
            LLVMBuildStore(l->b, l_load(l, l->ptr, lv->data),
                           LLVMBuildStructGEP2(l->b, et, env, (unsigned)field[i] + 1, ""));
    }
    vec_free(&c.ids);
    LLVMValueRef args[] = {l->ctx, bound, env};
    LLVMValueRef r = l_call(l, "rtl_parfor", args, 3);
    l_fail_unless(l, LLVMBuildICmp(l->b, LLVMIntEQ, r, LLVMConstInt(l->i32, 0, 0), ""), NULL, NULL);
}

static void stm(L *l, const ImpStm *s) {
    switch (s->kind) {
    case IMP_DECL: {
        LVar *lv = l_declare(l, s->var);
        if (s->offset) ICE("LLVM backend: a block view in host code");
        if (s->var->kind == IMP_MEM) {
            LVar *from = s->init ? l_lookup(l, s->init->var->id) : NULL;
            set_block(l, s->var, from ? l_load(l, l->ptr, from->slot) : LLVMConstNull(l->ptr),
                      from ? l_load(l, l->ptr, from->data) : LLVMConstNull(l->ptr));
        } else {
            LLVMBuildStore(l->b, s->init ? l_exp(l, s->init) : LLVMConstNull(lv->ty), lv->slot);
        }
        return;
    }
    case IMP_ASSIGN:
        if (s->var->kind == IMP_MEM) {
            LVar *from = l_lookup(l, s->value->var->id);
            set_block(l, s->var, l_load(l, l->ptr, from->slot), l_load(l, l->ptr, from->data));
        } else {
            LLVMBuildStore(l->b, l_exp(l, s->value), l_lookup(l, s->var->id)->slot);
        }
        return;
    case IMP_STORE: {
        LLVMValueRef v = l_exp(l, s->value);
        l_store_elem(l, s->t, l_elem_ptr(l, s->mem, s->t, l_exp(l, s->index)), v, s->stream);
        return;
    }
    case IMP_ALLOC: alloc(l, s); return;
    case IMP_RETAIN:
    case IMP_RELEASE: {
        LLVMValueRef b = l_load(l, l->ptr, l_lookup(l, s->mem->id)->slot);
        l_call(l, s->kind == IMP_RETAIN ? "rtl_block_retain" : "rtl_block_release", &b, 1);
        return;
    }
    case IMP_COPY:
        copy(l, s->t, l_load(l, l->ptr, l_lookup(l, s->dst->id)->data), s->dst_lmad,
             l_load(l, l->ptr, l_lookup(l, s->src->id)->data), s->src_lmad);
        return;
    case IMP_FOR: {
        if (s->vector && l->in_task && l_simd_for(l, s)) return;
        LVar *lv = l_declare(l, s->var);
        l_loop(l, lv->ty, lv->slot, LLVMConstInt(lv->ty, 0, 0), l_exp(l, s->bound), 1, code_body, &s->body);
        return;
    }
    case IMP_WHILE: {
        LLVMBasicBlockRef head = l_bb(l, "while"), bb = l_bb(l, "body"), done = l_bb(l, "done");
        LLVMBuildBr(l->b, head);
        l_enter(l, head);
        LLVMBuildCondBr(l->b, l_exp(l, s->cond), bb, done);
        l_enter(l, bb);
        l_code(l, &s->body);
        LLVMBuildBr(l->b, head);
        l_enter(l, done);
        return;
    }
    case IMP_IF: l_branch(l, l_exp(l, s->cond), code_then, code_else, s); return;
    case IMP_SCOPE: l_code(l, &s->body); return;
    case IMP_CALL: call(l, s); return;
    case IMP_RETURN: ret(l, s); return;
    case IMP_ASSERT: l_fail_unless(l, l_exp(l, s->cond), report_assert, s); return;
    case IMP_PARFOR: parfor(l, s); return;
    case IMP_AWAIT: {
        LLVMValueRef args[] = {l->ctx, l_elem_ptr(l, s->mem, PT_I32, l_exp(l, s->index))};
        LLVMValueRef r = l_call(l, "rtl_await", args, 2);
        l_fail_unless(l, LLVMBuildICmp(l->b, LLVMIntNE, r, LLVMConstInt(l->i32, 0, 0), ""), NULL, NULL);
        LLVMBuildStore(l->b, r, l_declare(l, s->var)->slot);
        return;
    }
    case IMP_SIGNAL: {
        LLVMValueRef args[] = {l_elem_ptr(l, s->mem, PT_I32, l_exp(l, s->index)), l_exp(l, s->value)};
        l_call(l, "rtl_signal", args, 2);
        return;
    }
    case IMP_ARG: arg(l, s); return;
    case IMP_RESULT: result(l, s); return;
    case IMP_FILL:
    case IMP_IOTA:
    case IMP_MAP:
    case IMP_UNMAP:
    case IMP_LAUNCH:
    case IMP_BARRIER:
    case IMP_FENCE:
    case IMP_ATOMIC: break;
    }
    ICE("LLVM backend: a GPU statement in host code");
}

void l_code(L *l, const ImpCode *c) {
    for (int i = 0; i < c->n; i++) stm(l, c->stms[i]);
}
