/* The OpenCL backend's printer of Imp kernels and functions as OpenCL C
 * (opencl.c describes the backend): the shared C printer (cprint.h), with
 * blocks as __global or __local pointers, the work-item's position from
 * OpenCL's work-item functions, and failed assertions recorded for the
 * host: the first failure of a run wins the record (its id swapped into
 * rt_fail[0] atomically, its arguments after it), the work-item stops (a
 * jump to the kernel's end), and the host reports the failure when it
 * next waits for the device. A bool parameter travels as a uchar (kernels
 * take no bool). */
#include "opencl_internal.h"

/* The address space of block mem. */
static const char *space_of(const ImpVar *mem) {
    switch (mem->space) {
    case IMP_SPACE_DEVICE: return "__global";
    case IMP_SPACE_LOCAL: return "__local";
    case IMP_SPACE_HOST: break;
    }
    ICE("OpenCL backend: host block %s_%d in a kernel", mem->name, mem->id);
}

static const char *k_block_decl(CPrint *C, const ImpVar *mem) {
    return arena_printf(C->a, "%s unsigned char *%s", space_of(mem), cp_name(C, mem));
}

/* "((__global float *)mem_3)" */
static const char *k_base(CPrint *C, const ImpVar *mem, PrimType t) {
    return arena_printf(C->a, "((%s %s *)%s)", space_of(mem), prim_ctype(t), cp_name(C, mem));
}

static const char *k_exp(CPrint *C, const ImpExp *e) {
    static const char *const fns[] = {"get_global_id",   "get_local_id",   "get_group_id",
                                      "get_global_size", "get_local_size", "get_num_groups"};
    if (e->kind != IX_THREAD) return NULL;
    return arena_printf(C->a, "(int64_t)%s(0)", fns[e->thread]);
}

/* Unless cond: records the failure (the first one wins) and stops. */
static void k_assert(CPrint *C, const ImpStm *s) {
    ClEmit *cl = C->ctx;
    Buf fmt = {0};
    int used = cp_message(C, s, CL_FAIL_ARGS, &fmt, NULL);
    int id = cl_new_failure(cl, arena_strdup(C->a, fmt.data ? fmt.data : ""));
    buf_free(&fmt);
    cp_line(C, "if (!%s) {", cp_exp(C, s->cond));
    cp_line(C, "    if (atomic_cmpxchg((volatile __global int *)rt_fail, -1, %d) == -1) {", id);
    for (int i = 0; i < used; i++) cp_line(C, "        rt_fail[%d] = (long)%s;", i + 1, cp_exp(C, s->args[i]));
    cp_line(C, "    }");
    cp_line(C, "    goto rt_next;");
    cp_line(C, "}");
}

static int k_stm(CPrint *C, const ImpCode *c, int i) {
    const ImpStm *s = c->stms[i];
    ClEmit *cl = C->ctx;
    switch (s->kind) {
    case IMP_ASSERT: k_assert(C, s); return 1;
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

void cl_print_kernel(ClEmit *cl, Arena *a, const ImpProg *p, const ImpKernel *k, const char *name) {
    Buf body = {0}, params = {0};
    CPrint C;
    cp_init(&C, &body, a, p, &kernel_target, cl);
    C.indent = 1;
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
    for (int i = 0; i < k->nlocals; i++)
        buf_printf(&params, ", __local %s *%s", prim_ctype(k->locals[i].t), cp_name(&C, k->locals[i].mem));
    cp_code(&C, &k->body);
    cp_line(&C, "rt_next: ;");
    buf_printf(&cl->src, "\n__kernel void %s(__global long *rt_fail%s) {\n", name, params.data ? params.data : "");
    buf_puts(&cl->src, body.data ? body.data : "");
    buf_puts(&cl->src, "}\n");
    buf_free(&body);
    buf_free(&params);
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
    cp_init(&C, src, a, p, &kernel_target, cl);
    for (int i = 0; i < p->nfuns; i++)
        if (cl->kernel_fns[i]) cp_function(&C, p->funs[i]);
    cp_fini(&C);
}
