/* Vector code for the LLVM backend (llvm_internal.h, l_simd_for): a loop
 * whose iterations are independent (the elements of a parallel map, in a
 * task) runs 4 or 2 x L.lanes iterations at once (then L.lanes, then one at a
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

#include "llvm_simd.h"

V new_v(L *l) {
    size_t n = (size_t)l->next_id + 1;
    return (V){.l = l,
               .lanes = l->lanes,
               .inside = arena_alloc(l->a, n),
               .uniform = arena_alloc(l->a, n),
               .lock_of = NEW_ARRAY(l->a, const ImpStm *, n),
               .locked = arena_alloc(l->a, n),
               .shadow = NEW_ARRAY(l->a, LLVMValueRef, n),
               .assigned = arena_alloc(l->a, n),
               .stride = arena_alloc(l->a, n * sizeof(int64_t)),
               .ok = true,
               .rows = 1,
               .rowvar = arena_alloc(l->a, n),
               .stored = arena_alloc(l->a, n),
               .rowslot = arena_alloc(l->a, n * MAX_ROWS * sizeof(LLVMValueRef)),
               .buffered = NEW_ARRAY(l->a, Buffered, MAX_BUFFERED)};
}

/* The slot of variable id (in the row being made). */
LLVMValueRef var_slot(V *v, int id) {
    if (v->rows > 1 && v->rowvar[id]) return v->rowslot[(size_t)id * MAX_ROWS + v->row];
    return l_lookup(v->l, id)->slot;
}

/* ---- Which loops ---- */

/* Clears v->ok at GPU expressions. */
void scan_exp(V *v, const ImpExp *e) {
    if (!e) return;
    if (e->kind == IX_THREAD || e->kind == IX_TUNING || e->kind == IX_MEMSIZE || e->kind == IX_LOCAL_BUDGET ||
        e->kind == IX_MAX_GROUP)
        v->ok = false;
    for (int i = 0; (e->kind == IX_OP && i < op_arity(e->op)) || (e->kind == IX_CONV && i < 1); i++) scan_exp(v, e->args[i]);
    scan_exp(v, e->index);
}

/* Marks what the body declares and assigns; clears v->ok at anything
 * vector code does not do. */
void scan(V *v, const ImpCode *c) {
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
            if (s->vector && !v->outer_lanes) v->ok = false; /* the innermost map's loop goes in lanes */
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

bool is_vec(LLVMValueRef x) { return LLVMGetTypeKind(LLVMTypeOf(x)) == LLVMVectorTypeKind; }

LLVMTypeRef vec_type(V *v, LLVMTypeRef t) { return LLVMVectorType(t, (unsigned)v->lanes); }

/* x in every lane (x itself when varying). */
LLVMValueRef splat(V *v, LLVMValueRef x) {
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


/* Integer division op (quot, rem, div, mod) of x by y as the runtime's
 * rt_quot ... rt_mod lane by lane (sgn: signed): by 0 gives 0, and signed
 * by -1 the negation (quot, div) or 0 (rem, mod); div rounds down and mod
 * has the sign of y. A lane whose divisor is 0 or -1 divides by 1 instead
 * (LLVM's division by 0, or of the least integer by -1, is undefined, and
 * lanes that do not run hold anything). A divisor the same in every lane
 * makes the tests constant, and LLVM divides by a multiplication. */
static LLVMValueRef int_division(V *v, Op op, bool sgn, LLVMValueRef x, LLVMValueRef y) {
    LLVMBuilderRef b = v->l->b;
    LLVMTypeRef t = LLVMTypeOf(x);
    LLVMValueRef zero = LLVMConstNull(t), one = splat(v, LLVMConstInt(LLVMGetElementType(t), 1, 0));
    LLVMValueRef by0 = LLVMBuildICmp(b, LLVMIntEQ, y, zero, "");
    LLVMValueRef bym1 = sgn ? LLVMBuildICmp(b, LLVMIntEQ, y, LLVMConstAllOnes(t), "") : LLVMConstNull(LLVMTypeOf(by0));
    LLVMValueRef odd = LLVMBuildOr(b, by0, bym1, "");
    LLVMValueRef ys = LLVMBuildSelect(b, odd, one, y, "");
    bool whole = op == OP_QUOT || op == OP_DIV;
    LLVMValueRef r = whole ? (sgn ? LLVMBuildSDiv(b, x, ys, "") : LLVMBuildUDiv(b, x, ys, ""))
                           : (sgn ? LLVMBuildSRem(b, x, ys, "") : LLVMBuildURem(b, x, ys, ""));
    if (sgn && (op == OP_DIV || op == OP_MOD)) { /* round down; the sign of y */
        LLVMValueRef rem = whole ? LLVMBuildSRem(b, x, ys, "") : r;
        LLVMValueRef signs = LLVMBuildICmp(b, LLVMIntSLT, LLVMBuildXor(b, whole ? x : rem, y, ""), zero, "");
        LLVMValueRef fix = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntNE, rem, zero, ""), signs, "");
        r = LLVMBuildSelect(b, fix, whole ? LLVMBuildSub(b, r, one, "") : LLVMBuildAdd(b, r, y, ""), r, "");
    }
    r = LLVMBuildSelect(b, bym1, whole ? LLVMBuildSub(b, zero, x, "") : zero, r, "");
    return LLVMBuildSelect(b, by0, zero, r, "");
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
    case OP_MUL: return c == PC_BOOL ? NULL : f ? l_fmul(v->l, a[0], a[1]) : LLVMBuildMul(b, a[0], a[1], "");
    case OP_DIV:
        if (f) return LLVMBuildFDiv(b, a[0], a[1], "");
        /* fallthrough */
    case OP_MOD:
    case OP_QUOT:
    case OP_REM: return c == PC_SIGNED || c == PC_UNSIGNED ? int_division(v, e->op, sgn, a[0], a[1]) : NULL;
    case OP_RSQRT: return e->t == PT_F32 ? l_rsqrt(v->l, a[0]) : NULL;
    case OP_AND:
    case OP_LAND: return LLVMBuildAnd(b, a[0], a[1], "");
    case OP_OR:
    case OP_LOR: return LLVMBuildOr(b, a[0], a[1], "");
    case OP_XOR: return LLVMBuildXor(b, a[0], a[1], "");
    case OP_MIN:
    case OP_MAX:
        if (f) { /* fmin and fmax, as LLVM's minnum and maxnum */
            LLVMTypeRef ts[] = {LLVMTypeOf(a[0])};
            return l_intrinsic(v->l, e->op == OP_MIN ? "llvm.minnum" : "llvm.maxnum", ts, 1, a, 2);
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

/* The value of variable id: a lockstep variable's shadow in its loop. */
static LLVMValueRef vread(V *v, int id) {
    LVar *lv = l_lookup(v->l, id);
    if (v->locked[id]) return l_load(v->l, LLVMGetElementType(lv->ty), v->shadow[id]);
    return l_load(v->l, lv->ty, var_slot(v, id));
}

static void *vs_konst(int64_t c, void *ctx) { return l_i64(((V *)ctx)->l, c); }
static void *vs_var(int id, void *ctx) {
    V *v = ctx;
    LLVMValueRef x = vread(v, id);
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
bool varying(V *v, int id) { return v->inside[id] && !v->uniform[id] && !v->locked[id]; }

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

static bool any_varying;
static void sym_varying(int id, void *ctx) { any_varying |= varying(ctx, id); }

bool exp_varying(V *v, const ImpExp *e) {
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
int64_t exp_stride(V *v, const ImpExp *e) {
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
LLVMValueRef vload(V *v, const ImpVar *mem, PrimType t, const ImpExp *e) {
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
            r = l_intrinsic(v->l, "llvm.masked.load", ts, 2, args, 3);
        }
    } else {
        LLVMValueRef ptrs = LLVMBuildGEP2(l->b, et, base, (LLVMValueRef[]){splat(v, ix)}, 1, "");
        LLVMTypeRef ts[] = {vt, vec_type(v, l->ptr)};
        LLVMValueRef args[] = {ptrs, mask_or_all(v), LLVMGetUndef(vt)};
        r = l_intrinsic(v->l, "llvm.masked.gather", ts, 2, args, 3);
    }
    return t == PT_BOOL ? LLVMBuildTrunc(l->b, r, vec_type(v, l->i1), "") : r;
}

/* Stores value x (of type t) at index e of block mem for the lanes that
 * run: as vload, a vector store or a scatter (whose lanes store in order,
 * so that where two lanes store to one element the later iteration's
 * value stays, as in the scalar loop). */
static void vstore(V *v, const ImpVar *mem, PrimType t, const ImpExp *e, LLVMValueRef x, bool stream) {
    L *l = v->l;
    LLVMValueRef ix = vexp(v, e);
    if (!is_vec(ix) && !is_vec(x) && !v->mask) {
        l_store_elem(l, t, l_elem_ptr(l, mem, t, ix), x, stream);
        return;
    }
    LLVMTypeRef et = l_mem_type(l, t), vt = vec_type(v, et);
    x = splat(v, x);
    if (t == PT_BOOL) x = LLVMBuildZExt(l->b, x, vt, "");
    LLVMValueRef base = l_load(l, l->ptr, l_lookup(l, mem->id)->data);
    if (is_vec(ix) && exp_stride(v, e) == 1) {
        LLVMValueRef p = LLVMBuildGEP2(l->b, et, base, (LLVMValueRef[]){lane(v, ix, 0)}, 1, "");
        if (!v->mask) {
            LLVMValueRef st = LLVMBuildStore(l->b, x, p);
            LLVMSetAlignment(st, (unsigned)prim_size(t));
            if (stream) l_nontemporal(l, st);
            return;
        }
        LLVMTypeRef ts[] = {vt, l->ptr};
        LLVMValueRef args[] = {x, p, v->mask};
        l_intrinsic(v->l, "llvm.masked.store", ts, 2, args, 3);
        return;
    }
    LLVMValueRef ptrs = LLVMBuildGEP2(l->b, et, base, (LLVMValueRef[]){splat(v, ix)}, 1, "");
    LLVMTypeRef ts[] = {vt, vec_type(v, l->ptr)};
    LLVMValueRef args[] = {x, ptrs, mask_or_all(v)};
    l_intrinsic(v->l, "llvm.masked.scatter", ts, 2, args, 3);
}

/* ---- Expressions ---- */

LLVMValueRef vexp(V *v, const ImpExp *e) {
    L *l = v->l;
    switch (e->kind) {
    case IX_VAR: return vread(v, e->var->id);
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
    case IX_LOAD:
        for (int i = 0; i < v->nbuffered; i++)
            if (v->buffered[i].load == e) {
                const Buffered *b = &v->buffered[i];
                LLVMValueRef k = l_load(l, l->i64, l_lookup(l, b->counter)->slot);
                LLVMValueRef ix[] = {l_i64(l, 0), b->base ? LLVMBuildSub(l->b, k, b->base, "") : k};
                LLVMTypeRef vt = LLVMGetElementType(LLVMGetAllocatedType(b->buf));
                LLVMValueRef r = LLVMBuildLoad2(l->b, vt, LLVMBuildGEP2(l->b, LLVMGetAllocatedType(b->buf), b->buf, ix, 2, ""), "");
                return e->t == PT_BOOL ? LLVMBuildTrunc(l->b, r, vec_type(v, l->i1), "") : r;
            }
        return vload(v, e->var, e->t, e->index);
    case IX_SYM: return sym_fold(e->sym, &vs_fold, v);
    default: return l_exp(l, e);
    }
}

/* ---- Statements ---- */


typedef struct VStm {
    V *v;
    const ImpStm *s;
} VStm;
static void vthen(L *l, const void *x) { vcode(((const VStm *)x)->v, &((const VStm *)x)->s->body); }
static void velse(L *l, const void *x) { vcode(((const VStm *)x)->v, &((const VStm *)x)->s->orelse); }

/* Sets variable id to x (for the lanes that run, when varying; a
 * lockstep variable in its loop: its shadow, and its vector for them). */
static void vset(V *v, int id, LLVMValueRef x) {
    L *l = v->l;
    LVar *lv = l_lookup(l, id);
    LLVMValueRef slot = var_slot(v, id);
    if (v->locked[id]) {
        if (is_vec(x)) ICE("LLVM backend: a varying value for lockstep variable %d", id);
        LLVMBuildStore(l->b, x, v->shadow[id]);
    }
    if (varying(v, id) || v->locked[id]) {
        x = splat(v, x);
        bool blend = v->mask && !(v->unblended && v->unblended[id] && v->mask == v->loop_mask);
        if (blend) x = LLVMBuildSelect(l->b, v->mask, x, l_load(l, lv->ty, slot), "");
    }
    LLVMBuildStore(l->b, x, slot);
}

/* Declares variable id of scalar type ty: a vector slot when varying. */
LVar *vdeclare(V *v, int id, LLVMTypeRef ty, const char *name) {
    LVar *lv = l_var_at(v->l, id);
    if (!lv->slot) {
        lv->ty = varying(v, id) ? vec_type(v, ty) : ty;
        lv->slot = l_slot(v->l, lv->ty, name ? name : "v");
    }
    LLVMValueRef *rs = &v->rowslot[(size_t)id * MAX_ROWS + v->row];
    if (v->rows > 1 && v->rowvar[id] && !*rs) *rs = l_slot(v->l, lv->ty, name ? name : "v");
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

/* Whether code c is a few statements without loops or branches, which
 * cost less than the test that would skip them when no lane runs them
 * (a short-circuit && or ||). */
static bool straight(const ImpCode *c) {
    if (c->n > 6) return false;
    for (int i = 0; i < c->n; i++)
        if (c->stms[i]->kind != IMP_DECL && c->stms[i]->kind != IMP_ASSIGN) return false;
    return true;
}

static void vif(V *v, const ImpStm *s) {
    L *l = v->l;
    LLVMValueRef c = vexp(v, s->cond);
    if (is_vec(c)) {
        LLVMValueRef yes = and_mask(v, c), no = and_mask(v, LLVMBuildNot(l->b, c, ""));
        if (straight(&s->body) && straight(&s->orelse)) { /* both, each under its mask */
            LLVMValueRef outer = v->mask;
            v->mask = yes;
            vcode(v, &s->body);
            v->mask = no;
            vcode(v, &s->orelse);
            v->mask = outer;
            return;
        }
        masked(v, yes, &s->body);
        masked(v, no, &s->orelse);
        return;
    }
    VStm x = {v, s};
    l_branch(l, c, vthen, velse, &x);
}

/* ---- Variables a while loop need not keep ---- */

typedef struct Used {
    char *used;
    const char *local; /* by id: declared in the code the loop is in */
    bool more;
} Used;

static void use_var(int id, void *ctx) {
    Used *u = ctx;
    if (!u->used[id]) u->used[id] = 1, u->more = true;
}

static void use_exp(Used *u, const ImpExp *e) {
    if (!e) return;
    if (e->kind == IX_VAR) use_var(e->var->id, u);
    if (e->kind == IX_SYM) sym_vars(e->sym, use_var, u);
    for (int i = 0; (e->kind == IX_OP && i < op_arity(e->op)) || (e->kind == IX_CONV && i < 1); i++) use_exp(u, e->args[i]);
    if (e->kind == IX_LOAD) use_exp(u, e->index);
}

/* Marks what code c reads, but for the values of declarations and
 * assignments of variables nothing reads. A variable declared outside
 * the code the loop is in (the loop variable of a loop around it) is
 * read after that code, so its assignments count. */
static void use_code(Used *u, const ImpCode *c) {
    for (int i = 0; i < c->n; i++) {
        const ImpStm *s = c->stms[i];
        bool set = s->kind == IMP_DECL || s->kind == IMP_ASSIGN;
        if (!set || u->used[s->var->id] || !u->local[s->var->id]) {
            const ImpExp *es[] = {s->init, s->value, s->index, s->cond, s->bound};
            for (size_t k = 0; k < sizeof es / sizeof *es; k++) use_exp(u, es[k]);
            for (int k = 0; s->kind == IMP_ASSERT && k < s->nargs; k++) use_exp(u, s->args[k]);
        }
        use_code(u, &s->body);
        use_code(u, &s->orelse);
    }
}

/* The variables declared in c before its while loop i, that the loop
 * sets and nothing after it reads (by id): the loop's iterations may set
 * them in every lane, lanes that stopped included, without keeping
 * their values (Mandelbrot's z, when only the count is wanted). */
static char *dead_after(V *v, const ImpCode *c, int i) {
    size_t n = (size_t)v->l->next_id + 1;
    char *dead = arena_alloc(v->l->a, n), *set = arena_alloc(v->l->a, n), *local = arena_alloc(v->l->a, n);
    imp_mark_vars(c, true, false, local);
    Used u = {arena_alloc(v->l->a, n), local, true};
    ImpCode tail = {c->stms + i + 1, c->n - i - 1};
    while (u.more) {
        u.more = false;
        use_code(&u, &tail);
    }
    imp_mark_vars(&c->stms[i]->body, false, true, set);
    for (int k = 0; k < i; k++) {
        const ImpStm *d = c->stms[k];
        if (d->kind == IMP_DECL && set[d->var->id] && !u.used[d->var->id]) dead[d->var->id] = 1;
    }
    return dead;
}

/* A while loop: while any lane that still runs it has a true condition. */
static void vwhile(V *v, const ImpStm *s, const char *dead) {
    L *l = v->l;
    mark_lockstep(s, v->lock_of, v->locked, 1); /* reads of them go to their shadows */
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
    LLVMValueRef outer = v->mask, outer_loop = v->loop_mask;
    const char *outer_dead = v->unblended;
    v->mask = v->loop_mask = m;
    v->unblended = dead;
    vcode(v, &s->body);
    v->mask = outer;
    v->loop_mask = outer_loop;
    v->unblended = outer_dead;
    LLVMBuildBr(l->b, head);
    l_enter(l, done);
    mark_lockstep(s, v->lock_of, v->locked, 0);
}

/* An inner for loop: a uniform counter up to the bound, or with a varying
 * bound up to the largest of the lanes that run, each lane running while
 * the counter is below its bound. */
static void vfor_loop(V *v, const ImpStm *s) {
    L *l = v->l;
    LLVMValueRef bound = vexp(v, s->bound), vbound = NULL;
    LLVMTypeRef ty = l_type(l, s->var->t);
    if (is_vec(bound)) {
        vbound = bound;
        LLVMValueRef zeros = LLVMConstNull(LLVMTypeOf(bound));
        LLVMValueRef live = LLVMBuildSelect(l->b, mask_or_all(v), bound, zeros, "");
        LLVMTypeRef ts[] = {LLVMTypeOf(bound)};
        bound = l_intrinsic(v->l, "llvm.vector.reduce.smax", ts, 1, &live, 1);
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

/* ---- Hoisting: loads a loop repeats ----
 *
 * A loop f whose body runs a loop g (its bound the same in every lane and
 * in every iteration of f) that loads, first thing in each iteration, an
 * element whose index depends on g's counter but on nothing f's body
 * sets (k-means: a point's coordinates, read again for every centre)
 * makes those loads once, into a buffer, before it starts. Each is a
 * gather where each lane reads a row of its own. The loads happen only
 * where f runs at least once, for as many iterations as g has then (at
 * most HOIST_MAX, else f runs as it is), under the mask f runs under:
 * the loads f would make. */


/* The loads of g (a statement of f's body) to hoist out of f, into out;
 * how many. */
static int hoistable(V *v, const ImpStm *f, const ImpStm *g, const ImpExp **out, int max) {
    L *l = v->l;
    if (g->kind != IMP_FOR || g->var->t != PT_I64 || v->rows > 1) return 0;
    char *in_f = arena_alloc(l->a, (size_t)l->next_id + 1);
    imp_mark_vars(&f->body, true, true, in_f);
    in_f[f->var->id] = 1;
    if (exp_reads(g->bound, in_f, v->stored) || exp_varying(v, g->bound)) return 0;
    in_f[g->var->id] = 0;
    int n = 0;
    for (int i = 0; i < g->body.n && g->body.stms[i]->kind == IMP_DECL && n < max; i++) {
        const ImpExp *e = g->body.stms[i]->init;
        if (e && e->kind == IX_LOAD && !exp_reads(e->index, in_f, v->stored) && exp_varying(v, e->index)) out[n++] = e;
    }
    return n;
}

typedef struct Hoist {
    V *v;
    const ImpStm *f, *g;
    const ImpExp **loads;
    LLVMValueRef *bufs;
    int n;
} Hoist;

/* Iteration of g: its hoisted loads into their buffers. */
static void hoist_fill(L *l, const void *arg) {
    const Hoist *h = arg;
    LLVMValueRef k = l_load(l, l->i64, l_lookup(l, h->g->var->id)->slot);
    for (int i = 0; i < h->n; i++) {
        const ImpExp *e = h->loads[i];
        LLVMValueRef x = vload(h->v, e->var, e->t, e->index);
        if (e->t == PT_BOOL) x = LLVMBuildZExt(l->b, x, vec_type(h->v, l->i8), "");
        LLVMValueRef ix[] = {l_i64(l, 0), k};
        LLVMBuildStore(l->b, x, LLVMBuildGEP2(l->b, LLVMGetAllocatedType(h->bufs[i]), h->bufs[i], ix, 2, ""));
    }
}

static void hoisted_loop(L *l, const void *arg) {
    const Hoist *h = arg;
    V *v = h->v;
    LVar *gv = vdeclare(v, h->g->var->id, l->i64, h->g->var->name);
    l_loop(l, l->i64, gv->slot, l_i64(l, 0), vexp(v, h->g->bound), 1, hoist_fill, h);
    for (int i = 0; i < h->n; i++) v->buffered[v->nbuffered++] = (Buffered){h->loads[i], h->bufs[i], NULL, h->g->var->id};
    vfor_loop(v, h->f);
    v->nbuffered -= h->n;
}

static void plain_loop(L *l, const void *arg) { vfor_loop(((const Hoist *)arg)->v, ((const Hoist *)arg)->f); }

/* The loads to hoist out of loop f (into loads; how many), all of one
 * loop g among the first statements of f's body, before anything that
 * may fail. */
int hoist_of(V *v, const ImpStm *f, const ImpStm **g, const ImpExp **loads) {
    int n = 0;
    for (int i = 0; i < f->body.n && !n; i++) {
        const ImpStm *t = f->body.stms[i];
        if (t->kind != IMP_DECL && t->kind != IMP_ASSIGN && t->kind != IMP_FOR) break;
        if ((n = hoistable(v, f, t, loads, MAX_BUFFERED - v->nbuffered))) *g = t;
    }
    return n;
}

static void vfor(V *v, const ImpStm *s) {
    L *l = v->l;
    const ImpExp *loads[MAX_BUFFERED];
    const ImpStm *g = NULL;
    int n = hoist_of(v, s, &g, loads);
    if (!n) {
        vfor_loop(v, s);
        return;
    }
    Hoist h = {v, s, g, loads, NEW_ARRAY(l->a, LLVMValueRef, n), n};
    for (int i = 0; i < n; i++) {
        LLVMTypeRef et = loads[i]->t == PT_BOOL ? l->i8 : l_mem_type(l, loads[i]->t);
        h.bufs[i] = l_slot(l, LLVMArrayType(vec_type(v, et), HOIST_MAX), "hoisted");
    }
    LLVMValueRef fb = vexp(v, s->bound), gb = vexp(v, g->bound);
    if (is_vec(fb)) {
        LLVMValueRef zeros = LLVMConstNull(LLVMTypeOf(fb));
        LLVMValueRef live = LLVMBuildSelect(l->b, mask_or_all(v), fb, zeros, "");
        fb = l_intrinsic(v->l, "llvm.vector.reduce.smax", (LLVMTypeRef[]){LLVMTypeOf(fb)}, 1, &live, 1);
    }
    LLVMValueRef runs = LLVMBuildICmp(l->b, LLVMIntSGT, fb, LLVMConstNull(LLVMTypeOf(fb)), "");
    LLVMValueRef fits = LLVMBuildICmp(l->b, LLVMIntSLE, gb, l_i64(l, HOIST_MAX), "");
    l_branch(l, LLVMBuildAnd(l->b, runs, fits, ""), hoisted_loop, plain_loop, &h);
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
    LLVMValueRef first = l_intrinsic(v->l, "llvm.cttz", (LLVMTypeRef[]){bits}, 1,
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
        /* Every lane: a lane that does not run never reads the variable
         * (it is read only in its scope, under this mask or a narrower
         * one), so its value need not be kept. */
        LLVMValueRef mask = v->mask;
        v->mask = NULL;
        vset(v, s->var->id, x);
        v->mask = mask;
        if (v->lock_of[s->var->id]) { /* uniform (find_uniform) */
            v->shadow[s->var->id] = l_slot(l, LLVMTypeOf(x), s->var->name ? s->var->name : "v");
            LLVMBuildStore(l->b, x, v->shadow[s->var->id]);
        }
        return;
    }
    case IMP_ASSIGN: vset(v, s->var->id, vexp(v, s->value)); return;
    case IMP_STORE: vstore(v, s->mem, s->t, s->index, vexp(v, s->value), s->stream); return;
    case IMP_IF: vif(v, s); return;
    case IMP_FOR: vfor(v, s); return;
    case IMP_SCOPE: vcode(v, &s->body); return;
    case IMP_ASSERT: vassert(v, s); return;
    default: ICE("LLVM backend: a statement vector code does not do");
    }
}

/* Whether statement s is made once for each row (it sets a row's
 * variable, or stores), not once for all. */
static bool per_row(const V *v, const ImpStm *s) {
    switch (s->kind) {
    case IMP_DECL:
    case IMP_ASSIGN: return v->rowvar[s->var->id];
    case IMP_STORE:
    case IMP_ASSERT: return true;
    default: return false;
    }
}

void vcode(V *v, const ImpCode *c) {
    for (int i = 0; i < c->n; i++) {
        if (c->stms[i]->kind == IMP_WHILE) /* it needs what comes after it */
            vwhile(v, c->stms[i], v->rows == 1 ? dead_after(v, c, i) : NULL);
        else if (v->rows > 1 && per_row(v, c->stms[i]))
            for (v->row = 0; v->row < v->rows; v->row++) vstm(v, c->stms[i]);
        else
            vstm(v, c->stms[i]);
        v->row = 0;
    }
}

/* Whether e reads one of the variables vars, or (when blocks is not
 * NULL) an element of one of the blocks. */
bool exp_reads(const ImpExp *e, const char *vars, const char *blocks) {
    switch (e->kind) {
    case IX_VAR: return vars[e->var->id];
    case IX_SYM: return sym_reads_any(e->sym, vars);
    case IX_OP:
    case IX_CONV:
        for (int i = 0; i < (e->kind == IX_OP ? op_arity(e->op) : 1); i++)
            if (exp_reads(e->args[i], vars, blocks)) return true;
        return false;
    case IX_LOAD: return (blocks && blocks[e->var->id]) || exp_reads(e->index, vars, blocks);
    default: return false;
    }
}

/* Whether e differs between rows: it reads a row's variable, or a block
 * the loop stores to. */
bool exp_rowvar(const V *v, const ImpExp *e) { return exp_reads(e, v->rowvar, v->stored); }
