/* The OpenCL backend's printer of Imp kernels and functions as OpenCL C
 * (opencl.c describes the backend): the shared C printer (cprint.h), with
 * blocks as __global or __local pointers, the work-item's position from
 * OpenCL's work-item functions, barriers and atomics (OpenCL's atomic
 * functions for integers, runtime/prelude.cl's compare-and-swap loops for
 * floats), and failed assertions recorded for the host: the first failure
 * of a run wins the record (its id swapped into rt_fail[0] atomically,
 * its arguments after it), the work-item jumps to the end of the
 * innermost IMP_SCOPE (or of the kernel), and the host reports the
 * failure when it next waits for the device. A bool parameter travels as
 * a uchar (kernels take no bool). Local arrays of a constant size are
 * declared in the kernel; the others are parameters that the launch
 * sizes. */
#include "opencl_internal.h"

/* The kernel printer's state (CPrint.ctx). */
typedef struct KernelPrint {
    ClEmit *cl;
    VEC(const char *) skips; /* the labels at the ends of the open scopes */
    int nskips;              /* labels made so far */
} KernelPrint;

/* The address space of block mem. */
static const char *space_of(const ImpVar *mem) {
    switch (mem->space) {
    case IMP_SPACE_DEVICE: return "__global";
    case IMP_SPACE_LOCAL: return "__local";
    case IMP_SPACE_HOST: break;
    }
    ICE("OpenCL backend: host block %s_%d in a kernel", mem->name, mem->id);
}

static const char *volatile_of(const ImpVar *mem) { return mem->is_volatile ? "volatile " : ""; }

static const char *k_block_decl(CPrint *C, const ImpVar *mem) {
    return arena_printf(C->a, "%s%s unsigned char *%s", volatile_of(mem), space_of(mem), cp_name(C, mem));
}

/* "((__global float *)mem_3)" */
static const char *k_base(CPrint *C, const ImpVar *mem, PrimType t) {
    return arena_printf(C->a, "((%s%s %s *)%s)", volatile_of(mem), space_of(mem), prim_ctype(t), cp_name(C, mem));
}

static const char *k_exp(CPrint *C, const ImpExp *e) {
    static const char *const fns[] = {"get_global_id",   "get_local_id",   "get_group_id",
                                      "get_global_size", "get_local_size", "get_num_groups"};
    if (e->kind != IX_THREAD) return NULL;
    return arena_printf(C->a, "(int64_t)%s(0)", fns[e->thread]);
}

/* Unless cond: records the failure (the first one wins) and stops. */
static void k_assert(CPrint *C, const ImpStm *s) {
    KernelPrint *KP = C->ctx;
    ClEmit *cl = KP->cl;
    Buf fmt = {0};
    int used = cp_message(C, s, CL_FAIL_ARGS, &fmt, NULL);
    int id = cl_new_failure(cl, arena_strdup(C->a, fmt.data ? fmt.data : ""));
    buf_free(&fmt);
    cp_line(C, "if (!%s) {", cp_exp(C, s->cond));
    cp_line(C, "    if (atomic_cmpxchg((volatile __global int *)rt_fail, -1, %d) == -1) {", id);
    for (int i = 0; i < used; i++) cp_line(C, "        rt_fail[%d] = (long)%s;", i + 1, cp_exp(C, s->args[i]));
    cp_line(C, "    }");
    cp_line(C, "    goto %s;", KP->skips.len ? KP->skips.items[KP->skips.len - 1] : "rt_next");
    cp_line(C, "}");
}

/* Whether c may jump to the end of its scope: an assertion in it, not in
 * a scope of its own. */
static bool may_fail(const ImpCode *c) {
    for (int i = 0; i < c->n; i++) {
        const ImpStm *s = c->stms[i];
        if (s->kind == IMP_ASSERT) return true;
        if (s->kind != IMP_SCOPE && (may_fail(&s->body) || may_fail(&s->orelse))) return true;
    }
    return false;
}

/* A scope, which a failed assertion in it leaves through its end label
 * (a scope that keeps its declarations is no C block: the jump passes
 * over them; a scope that cannot fail has no label). */
static void k_scope(CPrint *C, const ImpStm *s) {
    KernelPrint *KP = C->ctx;
    const char *label = may_fail(&s->body) ? arena_printf(C->a, "rt_skip%d", KP->nskips++) : NULL;
    if (!s->keep) cp_line(C, "{");
    C->indent += !s->keep;
    if (label) vec_push(&KP->skips, label);
    cp_code(C, &s->body);
    if (label) {
        KP->skips.len--;
        cp_line(C, "%s: ;", label);
    }
    C->indent -= !s->keep;
    if (!s->keep) cp_line(C, "}");
}

/* OpenCL's name of an atomic operation on a 32-bit (atomic_) or 64-bit
 * (atom_) integer. */
static const char *atomic_fn(ImpAtomic op, bool wide) {
    static const char *const names[] = {"atomic_add", "atomic_min", "atomic_max", "atomic_and",
                                        "atomic_or",  "atomic_xor", "atomic_cmpxchg"};
    static const char *const wide_names[] = {"atom_add", "atom_min", "atom_max", "atom_and", "atom_or", "atom_xor", "atom_cmpxchg"};
    return wide ? wide_names[op] : names[op];
}

static void k_atomic(CPrint *C, const ImpStm *s) {
    const char *space = space_of(s->mem), *at = arena_printf(C->a, "&%s[%s]", k_base(C, s->mem, s->t), cp_exp(C, s->index));
    const char *v = cp_exp(C, s->value);
    if (prim_class(s->t) == PC_FLOAT) {
        cp_line(C, "rt_fadd_%s_%s((volatile %s %s *)(%s), %s);", s->mem->space == IMP_SPACE_LOCAL ? "local" : "global",
                prim_name(s->t), space, prim_ctype(s->t), at, v);
        return;
    }
    bool wide = prim_size(s->t) == 8;
    const char *it = prim_class(s->t) == PC_SIGNED ? (wide ? "long" : "int") : (wide ? "ulong" : "uint");
    const char *args = s->atomic == IMP_AT_CMPXCHG ? arena_printf(C->a, "(%s)(%s), (%s)(%s)", it, cp_exp(C, s->expected), it, v)
                                                   : arena_printf(C->a, "(%s)(%s)", it, v);
    const char *call = arena_printf(C->a, "%s((volatile %s %s *)(%s), %s)", atomic_fn(s->atomic, wide), space, it, at, args);
    if (s->var) cp_line(C, "%s = (%s)%s;", cp_decl(C, s->var), prim_ctype(s->t), call);
    else cp_line(C, "%s;", call);
}

static int k_stm(CPrint *C, const ImpCode *c, int i) {
    const ImpStm *s = c->stms[i];
    KernelPrint *KP = C->ctx;
    ClEmit *cl = KP->cl;
    switch (s->kind) {
    case IMP_ASSERT: k_assert(C, s); return 1;
    case IMP_SCOPE: k_scope(C, s); return 1;
    case IMP_BARRIER:
        cp_line(C, "barrier(%s);", s->global ? "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE" : "CLK_LOCAL_MEM_FENCE");
        return 1;
    case IMP_FENCE: cp_line(C, "rt_fence_global();"); return 1;
    case IMP_ATOMIC: k_atomic(C, s); return 1;
    case IMP_CALL: cl->kernel_fns[s->fn->index] = 1; return 0;
    case IMP_DECL:
        /* a view of a local array, which is typed */
        if (s->var->kind == IMP_MEM && s->init && s->init->var->space == IMP_SPACE_LOCAL) {
            cp_line(C, "%s = (__local unsigned char *)%s;", cp_decl(C, s->var), cp_exp(C, s->init));
            return 1;
        }
        return 0;
    default: return 0;
    }
}

static const CTarget kernel_target = {k_block_decl, k_base, k_stm, k_exp};

bool cl_local_static(const ImpLocal *l) { return l->count->kind == IX_CONST; }

void cl_print_kernel(ClEmit *cl, Arena *a, const ImpProg *p, const ImpKernel *k, const char *name, const char *only) {
    Buf body = {0}, params = {0};
    CPrint C;
    KernelPrint KP = {.cl = cl};
    cp_init(&C, &body, a, p, &kernel_target, &KP);
    C.indent = 1;
    C.contract = k->contract;
    if (k->contract) cp_line(&C, "#pragma OPENCL FP_CONTRACT ON");
    for (int i = 0; i < k->nparams; i++) {
        const ImpVar *v = k->params[i];
        const char *n = cp_name(&C, v);
        if (v->kind == IMP_MEM) {
            buf_printf(&params, ", %s", k_block_decl(&C, v));
        } else if (v->t == PT_BOOL) {
            buf_printf(&params, ", uchar %s_u", n);
            cp_line(&C, "bool %s = %s_u;", n, n);
        } else {
            buf_printf(&params, ", %s %s", prim_ctype(v->t), n);
        }
    }
    for (int i = 0; i < k->nlocals; i++) {
        const ImpLocal *l = &k->locals[i];
        const char *t = prim_ctype(l->t), *n = cp_name(&C, l->mem);
        if (cl_local_static(l)) cp_line(&C, "__local %s %s[%lld] __attribute__((aligned(16)));", t, n, (long long)l->count->c.v.i);
        else buf_printf(&params, ", __local %s *%s", t, n);
    }
    cp_code(&C, &k->body);
    cp_line(&C, "rt_next: ;");
    const char *attrs =
        k->fixed_group_size ? arena_printf(a, "__attribute__((reqd_work_group_size(%d, 1, 1))) ", k->fixed_group_size) : "";
    if (only) buf_printf(&cl->src, "\n#if %s", only);
    buf_printf(&cl->src, "\n__kernel %svoid %s(__global long *rt_fail%s) {\n", attrs, name, params.data ? params.data : "");
    buf_puts(&cl->src, body.data ? body.data : "");
    buf_puts(&cl->src, only ? "}\n#endif\n" : "}\n");
    buf_free(&body);
    buf_free(&params);
    vec_free(&KP.skips);
    cp_fini(&C);
}

/* Marks the functions that c calls. */
static void mark_calls(ClEmit *cl, const ImpCode *c) {
    for (int i = 0; i < c->n; i++) {
        const ImpStm *s = c->stms[i];
        if (s->kind == IMP_CALL) cl->kernel_fns[s->fn->index] = 1;
        mark_calls(cl, &s->body);
        mark_calls(cl, &s->orelse);
    }
}

void cl_kernel_functions(ClEmit *cl, Arena *a, const ImpProg *p, Buf *src) {
    /* Backwards: callers come after their callees. */
    for (int i = p->nfuns - 1; i >= 0; i--)
        if (cl->kernel_fns[i]) mark_calls(cl, &p->funs[i]->body);
    CPrint C;
    KernelPrint KP = {.cl = cl};
    cp_init(&C, src, a, p, &kernel_target, &KP);
    for (int i = 0; i < p->nfuns; i++)
        if (cl->kernel_fns[i]) cp_function(&C, p->funs[i]);
    cp_fini(&C);
}
