/* Vector code for the LLVM backend (llvm_internal.h, l_simd_for): a loop
 * whose iterations are independent (the elements of a parallel map, in a
 * task) runs 2 x L.lanes iterations at once (then L.lanes, then one at a
 * time for the rest), one in each lane of vector
 * registers, as ISPC and Futhark's multicore ISPC backend do; LLVM's own
 * vectoriser gives up on such loops as soon as their body has a loop or
 * a branch of its own (Mandelbrot's escape loop, n-body's inner sum).
 *
 * In the body, every variable it declares is varying (a vector of one
 * value per lane), but for the counters of its inner for loops, which
 * are uniform (one value for all lanes, as the variables from outside):
 * an expression is varying when it reads a varying variable. Control
 * flow becomes a mask of the lanes that run: an if with a varying
 * condition runs each branch for the lanes that take it (skipping a
 * branch none takes), a while loop runs until no lane goes on, an inner
 * for loop with a varying bound runs to the largest. Assignments under a
 * mask keep the other lanes' values; loads and stores of varying
 * indices are gathers and scatters of the lanes that run, or vector
 * loads and stores where the index steps by one from lane to lane (a
 * map's element of an array). An assertion fails for the first lane it
 * fails in, with that lane's message.
 *
 * Arithmetic on varying values is the runtime's scalar operation applied
 * lane by lane (so results are the scalar code's, bit for bit); LLVM's
 * SLP vectoriser makes vector instructions of those where the operation
 * has one, and the common operations are vector instructions here
 * directly.
 *
 * A body that allocates, copies, calls, counts references or assigns a
 * variable from outside (a reduction's accumulator) keeps the scalar
 * loop, and so does one with a loop that may go in lanes itself: the
 * innermost map's iterations are the ones that run at once (its elements
 * are neighbours in memory, as matrix multiplication's columns). */
#include <string.h>

#include "llvm_internal.h"

/* The most iterations that run at once: two vector registers' worth
 * (L.lanes is one's: 16 floats with AVX-512, else 8). */
#define MAX_LANES 32

typedef struct V {
    L *l;
    int lanes;           /* the loop's iterations that run at once */
    LLVMValueRef mask;   /* the lanes that run (<lanes x i1>), NULL: all */
    char *inside;        /* by id: declared in the body */
    char *uniform;       /* by id: a counter of an inner for loop */
    char *assigned;      /* by id: assigned in the body after its declaration */
    int64_t *stride;     /* by id: how much a varying variable that is never
                            assigned grows from lane to lane, or 0: unknown */
    bool ok;
} V;

/* ---- Which loops ---- */

/* Clears v->ok at GPU expressions. */
static void scan_exp(V *v, const ImpExp *e) {
    if (!e) return;
    if (e->kind == IX_THREAD || e->kind == IX_TUNING || e->kind == IX_MEMSIZE || e->kind == IX_LOCAL_BUDGET) v->ok = false;
    for (int i = 0; (e->kind == IX_OP && i < op_arity(e->op)) || (e->kind == IX_CONV && i < 1); i++) scan_exp(v, e->args[i]);
    scan_exp(v, e->index);
}

/* Marks what the body declares and assigns; clears v->ok at anything
 * vector code does not do. */
static void scan(V *v, const ImpCode *c) {
    for (int i = 0; i < c->n && v->ok; i++) {
        const ImpStm *s = c->stms[i];
        switch (s->kind) {
        case IMP_DECL:
            if (s->var->kind == IMP_MEM || s->offset) v->ok = false;
            else v->inside[s->var->id] = 1;
            break;
        case IMP_ASSIGN:
            if (s->var->kind == IMP_MEM || !v->inside[s->var->id]) v->ok = false;
            else v->assigned[s->var->id] = 1;
            break;
        case IMP_FOR:
            if (s->vector) v->ok = false; /* the innermost map's loop goes in lanes */
            v->inside[s->var->id] = 1;
            v->uniform[s->var->id] = 1;
            break;
        case IMP_STORE:
        case IMP_WHILE:
        case IMP_IF:
        case IMP_SCOPE:
        case IMP_ASSERT: break;
        default: v->ok = false; break;
        }
        scan_exp(v, s->init);
        scan_exp(v, s->value);
        scan_exp(v, s->index);
        scan_exp(v, s->bound);
        scan_exp(v, s->cond);
        scan(v, &s->body);
        scan(v, &s->orelse);
    }
}

/* ---- Values ---- */

static bool is_vec(LLVMValueRef x) { return LLVMGetTypeKind(LLVMTypeOf(x)) == LLVMVectorTypeKind; }

static LLVMTypeRef vec_type(V *v, LLVMTypeRef t) { return LLVMVectorType(t, (unsigned)v->lanes); }

/* x in every lane (x itself when varying). */
static LLVMValueRef splat(V *v, LLVMValueRef x) {
    if (is_vec(x)) return x;
    L *l = v->l;
    LLVMValueRef u = LLVMGetUndef(vec_type(v, LLVMTypeOf(x)));
    u = LLVMBuildInsertElement(l->b, u, x, LLVMConstInt(l->i32, 0, 0), "");
    LLVMValueRef zeros = LLVMConstNull(vec_type(v, l->i32));
    return LLVMBuildShuffleVector(l->b, u, LLVMGetUndef(LLVMTypeOf(u)), zeros, "");
}

static LLVMValueRef lane(V *v, LLVMValueRef x, int k) {
    return is_vec(x) ? LLVMBuildExtractElement(v->l->b, x, LLVMConstInt(v->l->i32, (unsigned long long)k, 0), "") : x;
}

/* The lanes that run, as a vector (all of them when v->mask is NULL). */
static LLVMValueRef mask_or_all(V *v) {
    return v->mask ? v->mask : LLVMConstAllOnes(vec_type(v, v->l->i1));
}

/* Whether any lane of mask m is set. */
static LLVMValueRef any(V *v, LLVMValueRef m) {
    L *l = v->l;
    LLVMTypeRef bits = LLVMIntTypeInContext(l->cx, (unsigned)v->lanes);
    return LLVMBuildICmp(l->b, LLVMIntNE, LLVMBuildBitCast(l->b, m, bits, ""), LLVMConstNull(bits), "");
}

static LLVMValueRef and_mask(V *v, LLVMValueRef m) { return v->mask ? LLVMBuildAnd(v->l->b, v->mask, m, "") : m; }

static LLVMValueRef vexp(V *v, const ImpExp *e);

static LLVMValueRef intrinsic(V *v, const char *name, LLVMTypeRef *types, int ntypes, LLVMValueRef *args, int n) {
    L *l = v->l;
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(l->mod, id, types, (size_t)ntypes);
    return LLVMBuildCall2(l->b, LLVMIntrinsicGetType(l->cx, id, types, (size_t)ntypes), f, args, (unsigned)n, "");
}

/* The common operations as vector instructions (equal to the runtime's
 * scalar ones lane by lane), or NULL. */
static LLVMValueRef vector_op(V *v, const ImpExp *e, LLVMValueRef *a) {
    LLVMBuilderRef b = v->l->b;
    PrimClass c = prim_class(e->t);
    bool f = c == PC_FLOAT, sgn = c == PC_SIGNED;
    if (e->reassoc) return l_op(v->l, e, a); /* fadd or fmul, reassociable */
    switch (e->op) {
    case OP_ADD: return c == PC_BOOL ? NULL : f ? LLVMBuildFAdd(b, a[0], a[1], "") : LLVMBuildAdd(b, a[0], a[1], "");
    case OP_SUB: return c == PC_BOOL ? NULL : f ? LLVMBuildFSub(b, a[0], a[1], "") : LLVMBuildSub(b, a[0], a[1], "");
    case OP_MUL: return c == PC_BOOL ? NULL : f ? LLVMBuildFMul(b, a[0], a[1], "") : LLVMBuildMul(b, a[0], a[1], "");
    case OP_DIV: return f ? LLVMBuildFDiv(b, a[0], a[1], "") : NULL;
    case OP_AND:
    case OP_LAND: return LLVMBuildAnd(b, a[0], a[1], "");
    case OP_OR:
    case OP_LOR: return LLVMBuildOr(b, a[0], a[1], "");
    case OP_XOR: return LLVMBuildXor(b, a[0], a[1], "");
    case OP_MIN:
    case OP_MAX:
        if (f) { /* fmin and fmax, as LLVM's minnum and maxnum */
            LLVMTypeRef ts[] = {LLVMTypeOf(a[0])};
            return intrinsic(v, e->op == OP_MIN ? "llvm.minnum" : "llvm.maxnum", ts, 1, a, 2);
        }
        if (c == PC_BOOL) return NULL;
        {
            LLVMIntPredicate lt = sgn ? LLVMIntSLT : LLVMIntULT;
            LLVMValueRef x_lt_y = LLVMBuildICmp(b, lt, a[0], a[1], "");
            return e->op == OP_MIN ? LLVMBuildSelect(b, x_lt_y, a[0], a[1], "")
                                   : LLVMBuildSelect(b, x_lt_y, a[1], a[0], "");
        }
    case OP_NOT: return LLVMBuildNot(b, a[0], "");
    case OP_EQ:
    case OP_NE:
    case OP_LT:
    case OP_LE:
    case OP_GT:
    case OP_GE: {
        /* C's comparisons: ordered but for !=; signed or unsigned ints. */
        static const LLVMRealPredicate fp[] = {LLVMRealOEQ, LLVMRealUNE, LLVMRealOLT, LLVMRealOLE, LLVMRealOGT, LLVMRealOGE};
        static const LLVMIntPredicate sp[] = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
        static const LLVMIntPredicate up[] = {LLVMIntEQ, LLVMIntNE, LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE};
        _Static_assert(OP_NE == OP_EQ + 1 && OP_LT == OP_EQ + 2 && OP_LE == OP_EQ + 3 && OP_GT == OP_EQ + 4 &&
                           OP_GE == OP_EQ + 5,
                       "the comparisons follow each other in ops.def");
        int k = e->op - OP_EQ;
        if (f) return LLVMBuildFCmp(b, fp[k], a[0], a[1], "");
        if (c == PC_BOOL && k > 1) return NULL;
        return LLVMBuildICmp(b, sgn ? sp[k] : up[k], a[0], a[1], "");
    }
    default: return NULL;
    }
}

/* Operation e (IX_OP, or IX_CONV when conv) on varying operands: a
 * vector instruction, or the runtime's scalar operation lane by lane. */
static LLVMValueRef varying_op(V *v, const ImpExp *e, LLVMValueRef *a, int n, bool conv) {
    L *l = v->l;
    for (int i = 0; i < n; i++) a[i] = splat(v, a[i]);
    LLVMValueRef r = conv ? NULL : vector_op(v, e, a);
    if (r) return r;
    LLVMValueRef out = NULL;
    for (int k = 0; k < v->lanes; k++) {
        LLVMValueRef s[3];
        for (int i = 0; i < n; i++) s[i] = lane(v, a[i], k);
        LLVMValueRef x = conv ? l_conv(l, e, s[0]) : l_op(l, e, s);
        if (!out) out = LLVMGetUndef(vec_type(v, LLVMTypeOf(x)));
        out = LLVMBuildInsertElement(l->b, out, x, LLVMConstInt(l->i32, (unsigned long long)k, 0), "");
    }
    return out;
}

/* ---- Syms ---- */

static void *vs_konst(int64_t c, void *ctx) { return l_i64(((V *)ctx)->l, c); }
static void *vs_var(int id, void *ctx) {
    V *v = ctx;
    LVar *lv = l_lookup(v->l, id);
    LLVMValueRef x = l_load(v->l, lv->ty, lv->slot);
    LLVMTypeRef et = is_vec(x) ? LLVMGetElementType(LLVMTypeOf(x)) : LLVMTypeOf(x);
    if (et == v->l->i64) return x;
    return LLVMBuildSExt(v->l->b, x, is_vec(x) ? vec_type(v, v->l->i64) : v->l->i64, "");
}
static void *vs_bin(V *v, void *x, void *y, LLVMOpcode op) {
    if (is_vec(x) || is_vec(y)) x = splat(v, x), y = splat(v, y);
    return LLVMBuildBinOp(v->l->b, op, x, y, "");
}
static void *vs_add(void *x, void *y, void *ctx) { return vs_bin(ctx, x, y, LLVMAdd); }
static void *vs_mul(void *x, void *y, void *ctx) { return vs_bin(ctx, x, y, LLVMMul); }
static void *vs_quot(void *x, void *y, void *ctx) { return vs_bin(ctx, x, y, LLVMSDiv); }
static const SymFold vs_fold = {vs_konst, vs_var, vs_add, vs_mul, vs_quot};

/* Whether a variable is varying in the body. */
static bool varying(V *v, int id) { return v->inside[id] && !v->uniform[id]; }

typedef struct Stride {
    V *v;
    const Sym *s;
    bool ok;
} Stride;

/* Replaces varying variable id by id + its stride (or gives up). */
static void stride_var(int id, void *ctx) {
    Stride *st = ctx;
    if (!varying(st->v, id)) return;
    int64_t d = st->v->stride[id];
    if (!d) {
        st->ok = false;
        return;
    }
    Arena *a = st->v->l->a;
    st->s = sym_subst(a, st->s, id, sym_add(a, sym_var(a, id), sym_const(a, d)));
}

/* How much Sym s grows from lane to lane, or 0: unknown (or not a
 * constant). */
static int64_t sym_stride(V *v, const Sym *s) {
    Stride st = {v, s, true};
    sym_vars(s, stride_var, &st);
    int64_t d;
    return st.ok && sym_is_const(sym_sub(v->l->a, st.s, s), &d) ? d : 0;
}

/* Whether e has a value of its own in each lane. */
static bool exp_varying(V *v, const ImpExp *e);

static bool any_varying;
static void sym_varying(int id, void *ctx) { any_varying |= varying(ctx, id); }

static bool exp_varying(V *v, const ImpExp *e) {
    switch (e->kind) {
    case IX_VAR: return varying(v, e->var->id);
    case IX_SYM:
        any_varying = false;
        sym_vars(e->sym, sym_varying, v);
        return any_varying;
    case IX_OP:
    case IX_CONV:
        for (int i = 0; i < (e->kind == IX_OP ? op_arity(e->op) : 1); i++)
            if (exp_varying(v, e->args[i])) return true;
        return false;
    case IX_LOAD: return v->mask || exp_varying(v, e->index);
    default: return false;
    }
}

/* How much e grows from lane to lane (0: unknown, or uniform). */
static int64_t exp_stride(V *v, const ImpExp *e) {
    switch (e->kind) {
    case IX_VAR: return varying(v, e->var->id) ? v->stride[e->var->id] : 0;
    case IX_SYM: return e->t == PT_I64 ? sym_stride(v, e->sym) : 0;
    case IX_OP: {
        if (e->t != PT_I64) return 0;
        if (e->op == OP_MUL) { /* by a constant */
            for (int k = 0; k < 2; k++)
                if (e->args[k]->kind == IX_CONST) return exp_stride(v, e->args[1 - k]) * e->args[k]->c.v.i;
            return 0;
        }
        if (e->op != OP_ADD && e->op != OP_SUB) return 0;
        bool ux = !exp_varying(v, e->args[0]), uy = !exp_varying(v, e->args[1]);
        if (e->op == OP_ADD && ux) return exp_stride(v, e->args[1]);
        if (uy) return exp_stride(v, e->args[0]);
        return 0;
    }
    default: return 0;
    }
}

/* ---- Loads and stores ---- */


/* Element t of block mem at index (an expression e) for the lanes that
 * run: a scalar load for a uniform index in code all lanes run, a vector
 * load where the index steps by one, else a gather. */
static LLVMValueRef vload(V *v, const ImpVar *mem, PrimType t, const ImpExp *e) {
    L *l = v->l;
    LLVMValueRef ix = vexp(v, e);
    if (!is_vec(ix) && !v->mask) return l_load_elem(l, t, l_elem_ptr(l, mem, t, ix));
    LLVMTypeRef et = l_mem_type(l, t), vt = vec_type(v, et);
    LLVMValueRef base = l_load(l, l->ptr, l_lookup(l, mem->id)->data), r;
    if (is_vec(ix) && exp_stride(v, e) == 1) {
        LLVMValueRef p = LLVMBuildGEP2(l->b, et, base, (LLVMValueRef[]){lane(v, ix, 0)}, 1, "");
        if (!v->mask) {
            r = LLVMBuildLoad2(l->b, vt, p, "");
            LLVMSetAlignment(r, (unsigned)prim_size(t));
        } else {
            LLVMTypeRef ts[] = {vt, l->ptr};
            LLVMValueRef args[] = {p, v->mask, LLVMGetUndef(vt)};
            r = intrinsic(v, "llvm.masked.load", ts, 2, args, 3);
        }
    } else {
        LLVMValueRef ptrs = LLVMBuildGEP2(l->b, et, base, (LLVMValueRef[]){splat(v, ix)}, 1, "");
        LLVMTypeRef ts[] = {vt, vec_type(v, l->ptr)};
        LLVMValueRef args[] = {ptrs, mask_or_all(v), LLVMGetUndef(vt)};
        r = intrinsic(v, "llvm.masked.gather", ts, 2, args, 3);
    }
    return t == PT_BOOL ? LLVMBuildTrunc(l->b, r, vec_type(v, l->i1), "") : r;
}

/* Stores value x (of type t) at index e of block mem for the lanes that
 * run: as vload, a vector store or a scatter (whose lanes store in order,
 * so that where two lanes store to one element the later iteration's
 * value stays, as in the scalar loop). */
static void vstore(V *v, const ImpVar *mem, PrimType t, const ImpExp *e, LLVMValueRef x) {
    L *l = v->l;
    LLVMValueRef ix = vexp(v, e);
    if (!is_vec(ix) && !is_vec(x) && !v->mask) {
        l_store_elem(l, t, l_elem_ptr(l, mem, t, ix), x);
        return;
    }
    LLVMTypeRef et = l_mem_type(l, t), vt = vec_type(v, et);
    x = splat(v, x);
    if (t == PT_BOOL) x = LLVMBuildZExt(l->b, x, vt, "");
    LLVMValueRef base = l_load(l, l->ptr, l_lookup(l, mem->id)->data);
    if (is_vec(ix) && exp_stride(v, e) == 1) {
        LLVMValueRef p = LLVMBuildGEP2(l->b, et, base, (LLVMValueRef[]){lane(v, ix, 0)}, 1, "");
        if (!v->mask) {
            LLVMSetAlignment(LLVMBuildStore(l->b, x, p), (unsigned)prim_size(t));
            return;
        }
        LLVMTypeRef ts[] = {vt, l->ptr};
        LLVMValueRef args[] = {x, p, v->mask};
        intrinsic(v, "llvm.masked.store", ts, 2, args, 3);
        return;
    }
    LLVMValueRef ptrs = LLVMBuildGEP2(l->b, et, base, (LLVMValueRef[]){splat(v, ix)}, 1, "");
    LLVMTypeRef ts[] = {vt, vec_type(v, l->ptr)};
    LLVMValueRef args[] = {x, ptrs, mask_or_all(v)};
    intrinsic(v, "llvm.masked.scatter", ts, 2, args, 3);
}

/* ---- Expressions ---- */

static LLVMValueRef vexp(V *v, const ImpExp *e) {
    L *l = v->l;
    switch (e->kind) {
    case IX_VAR: {
        LVar *lv = l_lookup(l, e->var->id);
        return l_load(l, lv->ty, lv->slot);
    }
    case IX_OP:
    case IX_CONV: {
        bool conv = e->kind == IX_CONV;
        int n = conv ? 1 : op_arity(e->op);
        LLVMValueRef a[3];
        bool vec = false;
        for (int i = 0; i < n; i++) vec |= is_vec(a[i] = vexp(v, e->args[i]));
        if (!vec) return conv ? l_conv(l, e, a[0]) : l_op(l, e, a);
        return varying_op(v, e, a, n, conv);
    }
    case IX_LOAD: return vload(v, e->var, e->t, e->index);
    case IX_SYM: return sym_fold(e->sym, &vs_fold, v);
    default: return l_exp(l, e);
    }
}

/* ---- Statements ---- */

static void vcode(V *v, const ImpCode *c);
static void vcode_of(void *v, const ImpCode *c) { vcode(v, c); }

/* Sets varying variable id to x for the lanes that run. */
static void vset(V *v, int id, LLVMValueRef x) {
    L *l = v->l;
    LVar *lv = l_lookup(l, id);
    x = splat(v, x);
    if (v->mask) x = LLVMBuildSelect(l->b, v->mask, x, l_load(l, lv->ty, lv->slot), "");
    LLVMBuildStore(l->b, x, lv->slot);
}

/* Declares variable id of scalar type ty: a vector slot when varying. */
static LVar *vdeclare(V *v, int id, LLVMTypeRef ty, const char *name) {
    LVar *lv = l_var_at(v->l, id);
    if (!lv->slot) {
        lv->ty = varying(v, id) ? vec_type(v, ty) : ty;
        lv->slot = l_slot(v->l, lv->ty, name ? name : "v");
    }
    return lv;
}

/* Runs code c for the lanes of mask m (skipped when none). */
static void masked(V *v, LLVMValueRef m, const ImpCode *c) {
    L *l = v->l;
    LLVMBasicBlockRef go = l_bb(l, "lanes"), done = l_bb(l, "lanes.done");
    LLVMBuildCondBr(l->b, any(v, m), go, done);
    l_enter(l, go);
    LLVMValueRef outer = v->mask;
    v->mask = m;
    vcode(v, c);
    v->mask = outer;
    LLVMBuildBr(l->b, done);
    l_enter(l, done);
}

static void vif(V *v, const ImpStm *s) {
    L *l = v->l;
    LLVMValueRef c = vexp(v, s->cond);
    if (is_vec(c)) {
        LLVMValueRef yes = and_mask(v, c), no = and_mask(v, LLVMBuildNot(l->b, c, ""));
        masked(v, yes, &s->body);
        masked(v, no, &s->orelse);
        return;
    }
    l_branch(l, c, vcode_of, v, &s->body, &s->orelse);
}

/* A while loop: while any lane that still runs it has a true condition. */
static void vwhile(V *v, const ImpStm *s) {
    L *l = v->l;
    LLVMValueRef live = l_slot(l, vec_type(v, l->i1), "live");
    LLVMBuildStore(l->b, mask_or_all(v), live);
    LLVMBasicBlockRef head = l_bb(l, "while"), body = l_bb(l, "body"), done = l_bb(l, "done");
    LLVMBuildBr(l->b, head);
    l_enter(l, head);
    LLVMValueRef c = vexp(v, s->cond);
    LLVMValueRef m = LLVMBuildAnd(l->b, l_load(l, vec_type(v, l->i1), live), splat(v, c), "");
    LLVMBuildStore(l->b, m, live);
    LLVMBuildCondBr(l->b, any(v, m), body, done);
    l_enter(l, body);
    LLVMValueRef outer = v->mask;
    v->mask = m;
    vcode(v, &s->body);
    v->mask = outer;
    LLVMBuildBr(l->b, head);
    l_enter(l, done);
}

/* An inner for loop: a uniform counter up to the bound, or with a varying
 * bound up to the largest of the lanes that run, each lane running while
 * the counter is below its bound. */
static void vfor(V *v, const ImpStm *s) {
    L *l = v->l;
    LLVMValueRef bound = vexp(v, s->bound), vbound = NULL;
    LLVMTypeRef ty = l_type(l, s->var->t);
    if (is_vec(bound)) {
        vbound = bound;
        LLVMValueRef zeros = LLVMConstNull(LLVMTypeOf(bound));
        LLVMValueRef live = LLVMBuildSelect(l->b, mask_or_all(v), bound, zeros, "");
        LLVMTypeRef ts[] = {LLVMTypeOf(bound)};
        bound = intrinsic(v, "llvm.vector.reduce.smax", ts, 1, &live, 1);
    }
    LVar *lv = vdeclare(v, s->var->id, ty, s->var->name);
    LLVMBuildStore(l->b, LLVMConstInt(ty, 0, 0), lv->slot);
    LLVMBasicBlockRef head = l_bb(l, "for"), body = l_bb(l, "body"), done = l_bb(l, "done");
    LLVMBuildBr(l->b, head);
    l_enter(l, head);
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, l_load(l, ty, lv->slot), bound, ""), body, done);
    l_enter(l, body);
    LLVMValueRef outer = v->mask;
    if (vbound) v->mask = and_mask(v, LLVMBuildICmp(l->b, LLVMIntSLT, splat(v, l_load(l, ty, lv->slot)), vbound, ""));
    vcode(v, &s->body);
    v->mask = outer;
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, l_load(l, ty, lv->slot), LLVMConstInt(ty, 1, 0), ""), lv->slot);
    LLVMBuildBr(l->b, head);
    l_enter(l, done);
}

/* An assertion: fails when it fails in a lane that runs, with the first
 * such lane's message. */
typedef struct Failed {
    V *v;
    const ImpStm *s;
    LLVMValueRef bad;
} Failed;

static void report_lane(L *l, const void *arg) {
    const Failed *f = arg;
    V *v = f->v;
    LLVMTypeRef bits = LLVMIntTypeInContext(l->cx, (unsigned)v->lanes);
    LLVMValueRef first = intrinsic(v, "llvm.cttz", (LLVMTypeRef[]){bits}, 1,
                                   (LLVMValueRef[]){LLVMBuildBitCast(l->b, f->bad, bits, ""), LLVMConstInt(l->i1, 1, 0)}, 2);
    first = LLVMBuildIntCast2(l->b, first, l->i32, 0, "");
    LLVMValueRef *vals = NEW_ARRAY(l->a, LLVMValueRef, f->s->nargs + 1);
    for (int k = 0; k < f->s->nargs; k++) {
        LLVMValueRef x = vexp(v, f->s->args[k]);
        vals[k] = is_vec(x) ? LLVMBuildExtractElement(l->b, x, first, "") : x;
    }
    l_assert_error(l, f->s, vals);
}

static void vassert(V *v, const ImpStm *s) {
    L *l = v->l;
    LLVMValueRef c = vexp(v, s->cond);
    LLVMValueRef bad = and_mask(v, LLVMBuildNot(l->b, splat(v, c), ""));
    Failed f = {v, s, bad};
    l_fail_unless(l, LLVMBuildNot(l->b, any(v, bad), ""), report_lane, &f);
}

static void vstm(V *v, const ImpStm *s) {
    L *l = v->l;
    switch (s->kind) {
    case IMP_DECL: {
        LVar *lv = vdeclare(v, s->var->id, l_type(l, s->var->t), s->var->name);
        /* Under a mask the lanes that do not run keep other values. */
        if (!v->assigned[s->var->id] && s->init && !v->mask) v->stride[s->var->id] = exp_stride(v, s->init);
        LLVMValueRef x = s->init ? vexp(v, s->init) : LLVMConstNull(LLVMGetElementType(lv->ty));
        vset(v, s->var->id, x);
        return;
    }
    case IMP_ASSIGN: vset(v, s->var->id, vexp(v, s->value)); return;
    case IMP_STORE: vstore(v, s->mem, s->t, s->index, vexp(v, s->value)); return;
    case IMP_IF: vif(v, s); return;
    case IMP_WHILE: vwhile(v, s); return;
    case IMP_FOR: vfor(v, s); return;
    case IMP_SCOPE: vcode(v, &s->body); return;
    case IMP_ASSERT: vassert(v, s); return;
    default: ICE("LLVM backend: a statement vector code does not do");
    }
}

static void vcode(V *v, const ImpCode *c) {
    for (int i = 0; i < c->n; i++) vstm(v, c->stms[i]);
}

/* ---- The loop ---- */

/* Forgets the slots of the variables the body declares, which the next
 * loop over it (of another width, or scalar) makes again. */
static void forget(V *v) {
    for (int id = 0; id < v->l->vars.len && id <= v->l->next_id; id++)
        if (v->inside[id]) v->l->vars.items[id] = (LVar){0};
}

/* while (jb + lanes <= bound): the body for iterations jb, jb + 1, ...,
 * jb + lanes - 1 at once; jb += lanes. */
static void lanes_loop(V *v, const ImpStm *s, LLVMValueRef jb, LLVMValueRef bound) {
    L *l = v->l;
    forget(v);
    LVar *jv = vdeclare(v, s->var->id, l->i64, s->var->name);
    LLVMBasicBlockRef head = l_bb(l, "simd"), body = l_bb(l, "simd.body"), done = l_bb(l, "simd.done");
    LLVMBuildBr(l->b, head);
    l_enter(l, head);
    LLVMValueRef next = LLVMBuildAdd(l->b, l_load(l, l->i64, jb), l_i64(l, v->lanes), "");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLE, next, bound, ""), body, done);
    l_enter(l, body);
    LLVMValueRef steps[MAX_LANES];
    for (int k = 0; k < v->lanes; k++) steps[k] = l_i64(l, k);
    LLVMValueRef lanes = LLVMBuildAdd(l->b, splat(v, l_load(l, l->i64, jb)), LLVMConstVector(steps, (unsigned)v->lanes), "");
    LLVMBuildStore(l->b, lanes, jv->slot);
    vcode(v, &s->body);
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, l_load(l, l->i64, jb), l_i64(l, v->lanes), ""), jb);
    LLVMBuildBr(l->b, head);
    l_enter(l, done);
}

bool l_simd_for(L *l, const ImpStm *s) {
    size_t n = (size_t)l->next_id + 1;
    V v = {l, l->lanes, NULL, arena_alloc(l->a, n), arena_alloc(l->a, n), arena_alloc(l->a, n),
           arena_alloc(l->a, n * sizeof(int64_t)), true};
    if (s->var->t != PT_I64) return false;
    scan(&v, &s->body);
    if (!v.ok) return false;
    int j = s->var->id;
    v.inside[j] = 1;
    v.stride[j] = 1;
    LLVMValueRef bound = l_exp(l, s->bound);
    LLVMValueRef jb = l_slot(l, l->i64, "jb");
    LLVMBuildStore(l->b, l_i64(l, 0), jb);
    /* Two vector registers' worth of lanes at once (their operations are
     * independent, which hides the latency of each), then one register's
     * worth for the rest. Measured on the device (16 cores, AVX-512):
     * four registers' worth gains more for compute-bound bodies (matrix
     * multiplication, n-body) but loses more where each lane reads a row
     * of its own (trmv, spmv: more streams than the prefetchers follow). */
    v.lanes = 2 * l->lanes;
    lanes_loop(&v, s, jb, bound);
    v.lanes = l->lanes;
    lanes_loop(&v, s, jb, bound);
    /* The rest, one at a time, with scalar variables of their own. */
    forget(&v);
    LVar *sj = l_declare(l, s->var);
    LLVMBuildStore(l->b, l_load(l, l->i64, jb), sj->slot);
    LLVMBasicBlockRef rhead = l_bb(l, "simd.rest.for"), rbody = l_bb(l, "simd.rest.body"), done = l_bb(l, "simd.done");
    LLVMBuildBr(l->b, rhead);
    l_enter(l, rhead);
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, l_load(l, l->i64, sj->slot), bound, ""), rbody, done);
    l_enter(l, rbody);
    l_code(l, &s->body);
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, l_load(l, l->i64, sj->slot), l_i64(l, 1), ""), sj->slot);
    LLVMBuildBr(l->b, rhead);
    l_enter(l, done);
    return true;
}
