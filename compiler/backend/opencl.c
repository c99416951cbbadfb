/* The OpenCL backend: a program at STAGE_GPU, lowered to Imp, becomes one
 * C program (the C runtime, runtime/opencl.h and the host code of the entry
 * points) that carries the OpenCL C of its kernels as a string.
 *
 * Host code is Imp printed as C (cprint.h): scalars, control flow and
 * host-level loops are plain C; blocks are device buffers (rt_dblock,
 * pooled by the entry's run, reference-counted), except the host blocks
 * (rt_block) of code that runs on the host over device blocks lent to it
 * (IMP_MAP: rt_cl_map and rt_cl_unmap). On device blocks:
 *   - a load or a store is a transfer of one element (rt_cl_read,
 *     rt_cl_write; stores of consecutive elements are one transfer);
 *   - copies, fills and iotas run the built-in kernels of
 *     runtime/kernels.cl through LMAD parameters (rt_cl_copy takes a tiled
 *     transpose where a copy transposes);
 *   - a launch sets the kernel's arguments (a bool as a uchar) and
 *     enqueues it; the kernel (opencl_kernel.c) joins the program's OpenCL
 *     source, named after its kind and its number in the kernel table
 *     ("segmap_17"), which its tuning parameters' names start with;
 *   - an entry borrows (an OpenCL library's arrays are on the device
 *     already) or uploads its array arguments, and after waiting for the
 *     device (rt_cl_finish, which reports a kernel's failure) exports or
 *     downloads its results.
 * The kernels themselves are the GPU lowering's (compiler/imp/gpu.h lists
 * them and how each segmented operation runs).
 * The functions that kernel code calls are OpenCL C functions ahead of the
 * kernels, and host code has its own C copies. */
#include "backend.h"
#include "opencl_internal.h"

#include <stdlib.h>
#include <string.h>

#include "../util/embedded.h"

/* Built-in kernels (runtime/kernels.cl), listed first in this order. */
static const char *const builtin_bases[] = {"rt_copy", "rt_fill", "rt_iota", "rt_transpose", "rt_transpose_skinny"};
static const int builtin_sizes[] = {1, 2, 4, 8};

/* ---- Tables ---------------------------------------------------------------------- */

int cl_new_kernel(ClEmit *cl, const char *name) {
    vec_push(&cl->kernels, name);
    return cl->kernels.len - 1;
}

int cl_new_param(ClEmit *cl, const char *name) {
    vec_push(&cl->params, name);
    return cl->params.len - 1;
}

int cl_new_failure(ClEmit *cl, const char *fmt) {
    vec_push(&cl->fails, fmt);
    return cl->fails.len - 1;
}

/* ---- Host code: the printer's state and small helpers ------------------------------- */

/* The host printer's state (CPrint.ctx). */
typedef struct HostPrint {
    ClEmit *cl;
    int *kernel_id;       /* by ImpKernel index: its number in the table, or -1 */
    int *params;          /* by ImpKernel index * TUNE_SLOTS + tune_slot: its
                             tuning parameter, or -1 */
    const ImpStm *last_arg; /* the entry's last IMP_ARG, after which its timer starts */
    bool finished;        /* the entry has waited for the device */
    VEC(const Threshold *) thr; /* the thresholds compared, in order of registration */
    VEC(int) thr_param;   /* the same: its tuning parameter */
    VEC(const ImpKernel *) heads; /* the kernels with variants, in order of registration */
} HostPrint;

/* A kernel's tuning parameters by name: a slot per name (the group size
 * of a scan is its group_size). */
enum { TUNE_SLOTS = 5 };
static const int tune_slot[] = {0, 0, 1, 2, 3, 0, 4};

/* The number of Imp kernel k in the kernel table (registered on first use). */
static int kernel_id(CPrint *C, const ImpKernel *k) {
    HostPrint *H = C->ctx;
    if (H->kernel_id[k->index] < 0) {
        int id = H->cl->kernels.len;
        H->kernel_id[k->index] = cl_new_kernel(H->cl, arena_printf(C->a, "%s_%d", k->name, id));
    }
    return H->kernel_id[k->index];
}

/* The tuning parameter of threshold t (registered on first use, after
 * the thresholds above it). */
static int threshold_param(HostPrint *H, const Threshold *t) {
    for (int i = 0; i < H->thr.len; i++)
        if (H->thr.items[i] == t) return H->thr_param.items[i];
    if (t->parent) threshold_param(H, t->parent);
    vec_push(&H->thr, t);
    vec_push(&H->thr_param, cl_new_param(H->cl, t->name));
    return H->thr_param.items[H->thr_param.len - 1];
}

/* The table of thresholds (rt_cl_threshold_info) as futhorc_cl_thresholds. */
static void threshold_table(Buf *out, HostPrint *H) {
    buf_puts(out, "static const rt_cl_threshold_info futhorc_cl_thresholds[] = {");
    for (int i = 0; i < H->thr.len; i++) {
        const Threshold *t = H->thr.items[i];
        buf_printf(out, "%s{%d, %lldLL, %d, %d}", i ? ", " : "", H->thr_param.items[i], (long long)t->dflt,
                   t->parent ? threshold_param(H, t->parent) : -1, t->branch);
    }
    buf_puts(out, H->thr.len ? "};\n" : "{0, 0, -1, 0}};\n");
}

/* Variant v of head, a kernel with variants of program p. */
static const ImpKernel *variant_of(const ImpProg *p, const ImpKernel *head, int v) {
    for (int i = 0; i < p->nkernels; i++)
        if (p->kernels[i]->head == head && p->kernels[i]->variant == v) return p->kernels[i];
    ICE("OpenCL backend: kernel %s has no variant %d", head->name, v);
}

/* The tuning parameter that chooses head's variant (registered). */
static int head_param(const HostPrint *H, const ImpKernel *head) {
    return H->params[head->index * TUNE_SLOTS + tune_slot[IMP_TUNE_VARIANT]];
}

/* The tuning parameter P of head, a kernel with variants: the first use
 * registers its variants (their kernels, in order) for the table. */
static int variant_param(CPrint *C, const ImpKernel *head, int P) {
    HostPrint *H = C->ctx;
    for (int i = 0; i < H->heads.len; i++)
        if (H->heads.items[i] == head) return P;
    vec_push(&H->heads, head);
    for (int v = 1; v <= head->nvariants; v++) kernel_id(C, variant_of(C->p, head, v));
    return P;
}

/* "{a, b, c}" of an LMAD's strides or shape (at least one entry). */
static const char *sym_list(CPrint *C, const Lmad *l, bool strides) {
    Buf b = {0};
    buf_putc(&b, '{');
    for (int d = 0; d < l->rank; d++)
        buf_printf(&b, "%s%s", d ? ", " : "", cp_sym(C, strides ? l->dims[d].stride : l->dims[d].shape));
    if (l->rank == 0) buf_puts(&b, "0");
    buf_putc(&b, '}');
    const char *r = arena_strdup(C->a, b.data);
    buf_free(&b);
    return r;
}

static bool on_device(const ImpVar *v) { return v->kind == IMP_MEM && v->space == IMP_SPACE_DEVICE; }

static const char *h_block_decl(CPrint *C, const ImpVar *mem) {
    return on_device(mem) ? arena_printf(C->a, "rt_dblock *%s", cp_name(C, mem)) : cp_host_block_decl(C, mem);
}

static const char *h_base(CPrint *C, const ImpVar *mem, PrimType t) {
    if (on_device(mem)) ICE("OpenCL backend: the elements of device block %s_%d in host code", mem->name, mem->id);
    return cp_host_base(C, mem, t);
}

static const char *h_exp(CPrint *C, const ImpExp *e) {
    HostPrint *H = C->ctx;
    switch (e->kind) {
    case IX_MEMSIZE: return arena_printf(C->a, "rt_cl_block_size(%s)", cp_name(C, e->var));
    case IX_TUNING: {
        int *P = &H->params[e->kernel->index * TUNE_SLOTS + tune_slot[e->tune]];
        if (*P < 0) {
            int id = kernel_id(C, e->kernel);
            *P = cl_new_param(H->cl, arena_printf(C->a, "%s.%s", H->cl->kernels.items[id], imp_tune_name(e->tune)));
        }
        const char *a0 = imp_tune_arity(e->tune) > 0 ? cp_exp(C, e->args[0]) : NULL;
        switch (e->tune) {
        case IMP_TUNE_GROUP_SIZE: return arena_printf(C->a, "rt_cl_group_size(%d)", *P);
        case IMP_TUNE_SCAN_GROUP_SIZE:
            return arena_printf(C->a, "rt_cl_fit_group(rt_cl_group_size_or(%d, RT_CL_SCAN_GROUP_SIZE), %s)", *P, a0);
        case IMP_TUNE_NUM_GROUPS: return arena_printf(C->a, "rt_cl_num_groups(%d, %s, %s)", *P, a0, cp_exp(C, e->args[1]));
        case IMP_TUNE_LANES:
            return arena_printf(C->a, "rt_cl_lanes(%d, %s, %s, %s)", *P, a0, cp_exp(C, e->args[1]), cp_exp(C, e->args[2]));
        case IMP_TUNE_GROUP_WIDTH:
            return arena_printf(C->a, "rt_cl_group_width(%d, %d, %s, %s)", *P, kernel_id(C, e->kernel), a0,
                                cp_exp(C, e->args[1]));
        case IMP_TUNE_SEGMENT_GROUPS:
            return arena_printf(C->a, "rt_cl_segment_groups(%d, %s, %s, %s)", *P, a0, cp_exp(C, e->args[1]),
                                cp_exp(C, e->args[2]));
        case IMP_TUNE_VARIANT:
            return arena_printf(C->a, "rt_cl_variant(%d, %d)", variant_param(C, e->kernel, *P), e->kernel->variant_default);
        }
        ICE("OpenCL backend: an unknown tuning parameter");
    }
    case IX_LOCAL_BUDGET: return "rt_cl_local_budget()";
    case IX_MAX_GROUP: return "rt_cl.max_group";
    case IX_THRESHOLD:
        return arena_printf(C->a, "rt_cl_threshold(%d, %s, %lldLL)", threshold_param(H, e->thr), cp_exp(C, e->args[0]),
                            (long long)e->thr->dflt);
    default: return NULL;
    }
}

/* ---- Host code: transfers, copies, fills --------------------------------------------- */

/* x = element index of device block mem (decl: declares x first). */
static void h_read(CPrint *C, const ImpVar *x, const ImpExp *load, bool decl) {
    if (decl) cp_line(C, "%s = 0;", cp_decl(C, x));
    const char *n = cp_name(C, x);
    cp_line(C, "if (rt_cl_read(ctx, %s, %s, sizeof %s, &%s)) goto fail;", cp_name(C, load->var), cp_exp(C, load->index),
            n, n);
}

/* The element offset e (an i64 expression) as a Sym, or NULL. */
static Sym *offset_sym(CPrint *C, const ImpExp *e) {
    switch (e->kind) {
    case IX_SYM: return e->sym;
    case IX_CONST: return sym_const(C->a, e->c.v.i);
    case IX_VAR: return sym_var(C->a, e->var->id);
    default: return NULL;
    }
}

/* Whether s stores into the element k after the one that store first
 * stores into (in the same device block, of the same type). */
static bool next_element(CPrint *C, const ImpStm *first, const ImpStm *s, int64_t k) {
    if (s->kind != IMP_STORE || s->mem != first->mem || s->t != first->t) return false;
    Sym *x = offset_sym(C, first->index), *y = offset_sym(C, s->index);
    int64_t d;
    return x && y && sym_is_const(sym_sub(C->a, y, x), &d) && d == k;
}

/* Stores i, i + 1, ... of c into consecutive elements of a device block:
 * one write (an array literal's elements at once). Returns how many. */
static int h_write(CPrint *C, const ImpCode *c, int i) {
    const ImpStm *s = c->stms[i];
    int n = 1;
    while (i + n < c->n && next_element(C, s, c->stms[i + n], n)) n++;
    const char *m = cp_name(C, s->mem), *t = ctype(s->t);
    int size = prim_size(s->t);
    cp_line(C, "{");
    if (n == 1) {
        cp_line(C, "    %s rt_v = %s;", t, cp_exp(C, s->value));
        cp_line(C, "    if (rt_cl_write(ctx, %s, %s * %d, %d, &rt_v)) goto fail;", m, cp_exp(C, s->index), size, size);
    } else {
        Buf b = {0};
        for (int j = 0; j < n; j++) buf_printf(&b, "%s%s", j ? ", " : "", cp_exp(C, c->stms[i + j]->value));
        cp_line(C, "    const %s rt_lit[] = {%s};", t, b.data);
        cp_line(C, "    if (rt_cl_write(ctx, %s, %s * %d, sizeof rt_lit, rt_lit)) goto fail;", m, cp_exp(C, s->index),
                size);
        buf_free(&b);
    }
    cp_line(C, "}");
    return n;
}

/* A copy between device blocks, on the device. */
static void h_copy(CPrint *C, const ImpStm *s) {
    const Lmad *dl = s->dst_lmad, *sl = s->src_lmad;
    if (s->dst == s->src && lmad_equal(dl, sl)) return;
    lmad_merge_pair(C->a, dl, sl, &dl, &sl); /* fewer dimensions to pass */
    cp_line(C, "{");
    C->indent++;
    cp_line(C, "const int64_t rt_ds[] = %s, rt_ss[] = %s, rt_sh[] = %s;", sym_list(C, dl, true), sym_list(C, sl, true),
            sym_list(C, dl, false));
    cp_line(C, "if (rt_cl_copy(ctx, %d, %s, %s, rt_ds, %s, %s, rt_ss, rt_sh, %d)) goto fail;", prim_size(s->t),
            cp_name(C, s->dst), cp_sym(C, dl->offset), cp_name(C, s->src), cp_sym(C, sl->offset), dl->rank);
    C->indent--;
    cp_line(C, "}");
}

/* A fill of a device block with the bits of a scalar. */
static void h_fill(CPrint *C, const ImpStm *s) {
    const char *bits = cp_fresh(C, "bits", NULL);
    cp_line(C, "uint64_t %s = 0;", bits);
    cp_line(C, "{ %s rt_v = %s; memcpy(&%s, &rt_v, sizeof rt_v); }", ctype(s->t), cp_exp(C, s->value), bits);
    const Lmad *dl = s->dst_lmad, *same;
    lmad_merge_pair(C->a, dl, dl, &dl, &same); /* fewer dimensions to pass */
    cp_line(C, "{");
    C->indent++;
    cp_line(C, "const int64_t rt_ds[] = %s, rt_sh[] = %s;", sym_list(C, dl, true), sym_list(C, dl, false));
    cp_line(C, "if (rt_cl_fill(ctx, %d, %s, %s, rt_ds, rt_sh, %d, %s)) goto fail;", prim_size(s->t), cp_name(C, s->dst),
            cp_sym(C, dl->offset), dl->rank, bits);
    C->indent--;
    cp_line(C, "}");
}

static void h_iota(CPrint *C, const ImpStm *s) {
    const Lmad *l = s->dst_lmad;
    cp_line(C, "if (rt_cl_iota(ctx, %d, %s, %s, %s, %s, (int64_t)%s, (int64_t)%s)) goto fail;", prim_size(s->t),
            cp_name(C, s->dst), cp_sym(C, l->offset), cp_sym(C, l->dims[0].stride), cp_exp(C, s->bound),
            cp_exp(C, s->value), cp_exp(C, s->step));
}

/* ---- Host code: arguments, results, launches --------------------------------------------- */

/* Binds argument k: a scalar, or an array's dimensions and its device
 * block (borrowed from an OpenCL library's caller, else uploaded). */
static void h_arg(CPrint *C, const ImpStm *s) {
    HostPrint *H = C->ctx;
    int k = s->k;
    if (s->rank == 0) {
        cp_line(C, "%s = *(const %s *)ins[%d].data;", cp_decl(C, s->var), ctype(s->t), k);
    } else {
        for (int d = 0; d < s->rank; d++) cp_line(C, "int64_t %s = ins[%d].shape[%d];", cp_name(C, s->dims[d]), k, d);
        const char *m = cp_name(C, s->mem);
        cp_line(C, "int64_t %s_bytes = rt_size_mul_i64(rt_value_count(&ins[%d]), %d);", m, k, prim_size(s->t));
        cp_line(C, "rt_dblock *%s = ctx->device ? rt_cl_borrow(ctx, dpool, ins[%d].data, %s_bytes, %s)", m, k, m,
                s->unique ? "true" : "false");
        cp_line(C, "    : rt_cl_upload(ctx, dpool, ins[%d].data, %s_bytes);", k, m);
        cp_line(C, "if (!%s) goto fail;", m);
    }
    if (s == H->last_arg) cp_line(C, "rt_cl_start_timer(ctx);");
}

/* Sets result k after the device has finished and reported no failure: a
 * scalar, or an array (dense and row-major in its device block), handed
 * over as a new reference to its block when the caller keeps arrays on the
 * device (an OpenCL library: ctx->device), else downloaded into malloc'd
 * host memory. */
static void h_result(CPrint *C, const ImpStm *s) {
    HostPrint *H = C->ctx;
    if (!H->finished) cp_line(C, "if (rt_cl_finish(ctx)) goto fail;");
    H->finished = true;
    cp_result_head(C, s);
    if (s->rank == 0) return;
    int k = s->k;
    const Lmad *l = s->lmad;
    if (!lmad_is_row_major(l)) ICE("OpenCL backend: result %d is not row-major in its block", k);
    const char *m = cp_name(C, s->mem);
    cp_line(C, "if (ctx->device) {");
    cp_line(C, "    outs[%d].data = rt_cl_export(ctx, %s);", k, m);
    cp_line(C, "} else {");
    C->indent++;
    cp_line(C, "outs[%d].data = rt_malloc_elems(rt_value_count(&outs[%d]), %d);", k, k, prim_size(s->t));
    cp_line(C, "if (!outs[%d].data) {", k);
    cp_oom(C, "writing a result");
    cp_line(C, "}");
    cp_line(C, "const int64_t rt_ss[] = %s, rt_sh[] = %s;", sym_list(C, l, true), sym_list(C, l, false));
    cp_line(C, "if (rt_cl_download(ctx, dpool, outs[%d].data, %d, %s, %s, rt_ss, rt_sh, %d)) goto fail;", k,
            prim_size(s->t), m, cp_sym(C, l->offset), l->rank);
    C->indent--;
    cp_line(C, "}");
}

/* Sets the kernel's arguments (0 is the failure record, set by the
 * runtime), the sizes of its local arrays, and enqueues it; the kernel
 * joins the program's source. */
static void h_launch(CPrint *C, const ImpStm *s) {
    HostPrint *H = C->ctx;
    const ImpKernel *k = s->kernel;
    int id = kernel_id(C, k);
    for (int i = 0; i < s->nargs; i++) {
        const ImpVar *pv = k->params[i];
        const ImpExp *e = s->args[i];
        if (pv->kind == IMP_MEM)
            cp_line(C, "if (rt_cl_mem_arg(ctx, %d, %d, %s)) goto fail;", id, i + 1, cp_name(C, e->var));
        else if (pv->t == PT_BOOL)
            cp_line(C, "{ uint8_t rt_b = %s; if (rt_cl_arg(ctx, %d, %d, 1, &rt_b)) goto fail; }", cp_exp(C, e), id, i + 1);
        else if (e->kind == IX_VAR)
            cp_line(C, "if (rt_cl_arg(ctx, %d, %d, sizeof(%s), &%s)) goto fail;", id, i + 1, ctype(pv->t),
                    cp_name(C, e->var));
        else
            cp_line(C, "{ %s rt_a = %s; if (rt_cl_arg(ctx, %d, %d, sizeof rt_a, &rt_a)) goto fail; }", ctype(pv->t),
                    cp_exp(C, e), id, i + 1);
    }
    for (int j = 0, arg = s->nargs + 1; j < k->nlocals; j++)
        if (!cl_local_static(&k->locals[j]))
            cp_line(C, "if (rt_cl_arg(ctx, %d, %d, (size_t)(%s) * sizeof(%s), NULL)) goto fail;", id, arg++,
                    cp_exp(C, k->locals[j].count), ctype(k->locals[j].t));
    cp_line(C, "if (rt_cl_launch(ctx, %d, %s, %s)) goto fail;", id, cp_exp(C, s->groups), cp_exp(C, s->group_size));
    const char *only = NULL;
    if (k->variant) {
        int P = head_param(H, k->head);
        only = k->variant == k->head->variant_default
                   ? arena_printf(C->a, "!defined(RT_VARIANT_%d) || RT_VARIANT_%d == %d", P, P, k->variant)
                   : arena_printf(C->a, "RT_VARIANT_%d == %d", P, k->variant);
    }
    cl_print_kernel(H->cl, C->a, C->p, k, H->cl->kernels.items[id], only);
}

/* ---- Host code: statements ----------------------------------------------------------- */

/* A device block's declaration with its allocation (decl), or the allocation. */
static void h_alloc(CPrint *C, const ImpStm *s, bool decl) {
    const char *m = cp_name(C, s->mem), *size = cp_exp(C, s->size);
    cp_line(C, "%s%s = rt_dblock_new(ctx, dpool, %s);", decl ? "rt_dblock *" : "", m, size);
    cp_alloc_check(C, s, m, size);
}

static bool device_load(const ImpExp *e) { return e && e->kind == IX_LOAD && on_device(e->var); }

static int h_stm(CPrint *C, const ImpCode *c, int i) {
    const ImpStm *s = c->stms[i];
    switch (s->kind) {
    case IMP_DECL:
        if (device_load(s->init)) h_read(C, s->var, s->init, true);
        else if (on_device(s->var) && !s->init && i + 1 < c->n && c->stms[i + 1]->kind == IMP_ALLOC &&
                 c->stms[i + 1]->mem == s->var) {
            h_alloc(C, c->stms[i + 1], true);
            return 2;
        } else return 0;
        return 1;
    case IMP_ASSIGN:
        if (!device_load(s->value)) return 0;
        h_read(C, s->var, s->value, false);
        return 1;
    case IMP_STORE: return on_device(s->mem) ? h_write(C, c, i) : 0;
    case IMP_ALLOC:
        if (!on_device(s->mem)) return 0;
        h_alloc(C, s, false);
        return 1;
    case IMP_RETAIN:
    case IMP_RELEASE:
        if (!on_device(s->mem)) return 0;
        cp_line(C, "rt_dblock_%s(%s);", s->kind == IMP_RETAIN ? "retain" : "release", cp_name(C, s->mem));
        return 1;
    case IMP_COPY:
        if (!on_device(s->dst)) return 0;
        h_copy(C, s);
        return 1;
    case IMP_FILL: h_fill(C, s); return 1;
    case IMP_IOTA: h_iota(C, s); return 1;
    case IMP_MAP:
        cp_line(C, "rt_block *%s = rt_cl_map(ctx, pool, %s);", cp_name(C, s->mem), cp_name(C, s->src));
        cp_line(C, "if (!%s) goto fail;", cp_name(C, s->mem));
        return 1;
    case IMP_UNMAP:
        cp_line(C, "if (rt_cl_unmap(ctx, %s, %s)) goto fail;", cp_name(C, s->src), cp_name(C, s->mem));
        return 1;
    case IMP_LAUNCH: h_launch(C, s); return 1;
    case IMP_ARG: h_arg(C, s); return 1;
    case IMP_RESULT: h_result(C, s); return 1;
    default: return 0;
    }
}

static const CTarget host_target = {h_block_decl, h_base, h_stm, h_exp};

/* ---- Entry points -------------------------------------------------------------------------- */

/* An entry's first lines: the device's run begins (and its timer, when
 * the entry takes no arguments, else after the last, h_arg). */
static void h_begin(CPrint *C, const ImpEntry *e) {
    HostPrint *H = C->ctx;
    H->last_arg = NULL;
    H->finished = false;
    for (int i = 0; i < e->body.n; i++)
        if (e->body.stms[i]->kind == IMP_ARG) H->last_arg = e->body.stms[i];
    cp_line(C, "if (rt_cl_begin(ctx)) goto fail;");
    if (!H->last_arg) cp_line(C, "rt_cl_start_timer(ctx);");
}

/* Its last: it waits for the device (unless a result did). */
static void h_end(CPrint *C, const ImpEntry *e) {
    HostPrint *H = C->ctx;
    (void)e;
    if (!H->finished) cp_line(C, "if (rt_cl_finish(ctx)) goto fail;");
}

/* Device blocks live in the entry's own pool; an array result on the
 * device (an OpenCL library's) is a device block. */
static const CEntry cl_entry = {
    ", rt_dpool *dpool",
    "\n    rt_dpool dpool;\n    rt_dpool_init(&dpool);",
    ", &dpool",
    "\n    rt_dpool_free(&dpool);",
    "if (ctx->device && outs[k].data && outs[k].type.rank > 0) rt_dblock_release(outs[k].data);\n"
    "        else free(outs[k].data);",
    h_begin,
    h_end,
};

/* ---- The program -------------------------------------------------------------------------------- */

/* A C string literal of s, split into lines. */
static void c_literal(Buf *out, const char *s) {
    buf_puts(out, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\n') buf_puts(out, "\\n\"\n\"");
        else if (c == '"' || c == '\\') buf_printf(out, "\\%c", c);
        else if (c < 32 || c > 126) buf_printf(out, "\\%03o", c);
        else buf_putc(out, (char)c);
    }
    buf_puts(out, "\"");
}

static void string_table(Buf *out, const char *name, const char *const *items, int n) {
    buf_printf(out, "static const char *const %s[] = {\n", name);
    for (int i = 0; i < n; i++) {
        buf_puts(out, "    ");
        c_literal(out, items[i]);
        buf_puts(out, ",\n");
    }
    if (n == 0) buf_puts(out, "    NULL,\n");
    buf_puts(out, "};\n");
}

/* The table of kernels with variants (rt_cl_variant_info) as
 * futhorc_cl_variants, each with its variants' kernel numbers. */
static void variant_table(Buf *out, CPrint *C) {
    HostPrint *H = C->ctx;
    for (int h = 0; h < H->heads.len; h++) {
        const ImpKernel *head = H->heads.items[h];
        buf_printf(out, "static const int futhorc_cl_variants_%d[] = {", h);
        for (int v = 1; v <= head->nvariants; v++)
            buf_printf(out, "%s%d", v > 1 ? ", " : "", H->kernel_id[variant_of(C->p, head, v)->index]);
        buf_puts(out, "};\n");
    }
    buf_puts(out, "static const rt_cl_variant_info futhorc_cl_variants[] = {");
    for (int h = 0; h < H->heads.len; h++) {
        const ImpKernel *head = H->heads.items[h];
        buf_printf(out, "%s{%d, %d, %d, futhorc_cl_variants_%d, ", h ? ", " : "", head_param(H, head),
                   head->nvariants, head->variant_default, h);
        c_literal(out, head->described);
        buf_puts(out, "}");
    }
    buf_puts(out, H->heads.len ? "};\n" : "{0, 0, 0, NULL, NULL}};\n");
}

void emit_opencl_entries(Buf *out, const ImpProg *ip, bool linked_rt) {
    Arena a = {0};
    ClEmit cl;
    memset(&cl, 0, sizeof cl);
    for (size_t b = 0; b < sizeof builtin_bases / sizeof *builtin_bases; b++)
        for (size_t s = 0; s < sizeof builtin_sizes / sizeof *builtin_sizes; s++)
            vec_push(&cl.kernels, arena_printf(&a, "%s_%d", builtin_bases[b], builtin_sizes[s]));
    cl.kernel_fns = arena_alloc(&a, (size_t)ip->nfuns + 1);
    HostPrint H = {.cl = &cl};
    H.kernel_id = NEW_ARRAY(&a, int, ip->nkernels + 1);
    H.params = NEW_ARRAY(&a, int, TUNE_SLOTS * ip->nkernels + 1);
    for (int i = 0; i < ip->nkernels; i++) H.kernel_id[i] = -1;
    for (int i = 0; i < TUNE_SLOTS * ip->nkernels; i++) H.params[i] = -1;
    CPrint C;
    cp_init(&C, out, &a, ip, &host_target, &H);
    ce_prologue(out, " (OpenCL)", linked_rt);
    emit_runtime_file(out, "runtime/opencl.h", false);
    buf_puts(out, "/* ---- the program ---- */\n#include <string.h>\n\n");
    for (int i = 0; i < ip->nfuns; i++) cp_function(&C, ip->funs[i]);
    const Fun **srcs = NEW_ARRAY(&a, const Fun *, ip->nentries + 1);
    for (int i = 0; i < ip->nentries; i++) {
        cp_entry(&C, ip->entries[i], i, &cl_entry);
        srcs[i] = ip->entries[i]->src;
    }
    emit_c_entry_table(out, &a, srcs, ip->nentries);
    Buf src = {0};
    emit_runtime_file(&src, "runtime/prelude.cl", true);
    emit_runtime_file(&src, "runtime/scalar.h", true);
    emit_runtime_file(&src, "runtime/kernels.cl", true);
    cl_kernel_functions(&cl, &a, ip, &src);
    buf_puts(&src, cl.src.data ? cl.src.data : "");
    buf_puts(out, "static const char futhorc_cl_source[] =\n");
    c_literal(out, src.data);
    buf_puts(out, ";\n");
    string_table(out, "futhorc_cl_kernels", cl.kernels.items, cl.kernels.len);
    string_table(out, "futhorc_cl_failures", cl.fails.items, cl.fails.len);
    string_table(out, "futhorc_cl_params", cl.params.items, cl.params.len);
    threshold_table(out, &H);
    variant_table(out, &C);
    buf_printf(out,
               "static const rt_cl_program_info futhorc_cl_info = {futhorc_cl_source, futhorc_cl_kernels, %d, "
               "futhorc_cl_failures, %d, futhorc_cl_params, %d, futhorc_cl_thresholds, %d, futhorc_cl_variants, "
               "%d};\n\n",
               cl.kernels.len, cl.fails.len, cl.params.len, H.thr.len, H.heads.len);
    buf_free(&src);
    buf_free(&cl.src);
    vec_free(&cl.kernels);
    vec_free(&cl.fails);
    vec_free(&cl.params);
    vec_free(&H.thr);
    vec_free(&H.thr_param);
    vec_free(&H.heads);
    cp_fini(&C);
    arena_free(&a);
}

void emit_opencl_program(Buf *out, const ImpProg *ip, bool server, bool linked_rt) {
    emit_opencl_entries(out, ip, linked_rt);
    buf_printf(out,
               "int main(int argc, char **argv) {\n"
               "    rt_cl_set_program(&futhorc_cl_info);\n"
               "    int early = rt_cl_early(argc, argv);\n"
               "    if (early >= 0) return early;\n"
               "    rt_the_backend = &rt_cl_backend;\n"
               "    return %s(argc, argv, futhorc_entries, %d);\n"
               "}\n",
               server ? "rt_server_main" : "rt_main", ip->nentries);
}
