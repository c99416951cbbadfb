/* The OpenCL backend: a program at STAGE_GPU becomes one C program (the C
 * runtime, runtime/opencl.h and the host code of the entry points) that
 * carries the OpenCL C of its kernels as a string.
 *
 * Host code is the shared emitter (emit.h) in EM_HOST mode: scalars,
 * control flow and host-level loops are plain C; memory blocks are device
 * buffers (rt_dblock); each statement that touches array memory is handed
 * here (cl_host_stm):
 *   - allocations take a pooled device buffer; a scalar index reads one
 *     element back, a scalar update writes one;
 *   - copies, replicates, concatenations, iotas and array literals use the
 *     built-in kernels of runtime/kernels.cl through LMAD parameters (a
 *     tiled transpose where a copy transposes);
 *   - a SOAC runs as its SegInfo (compiler/passes/kernels.c) says:
 *       SegMap  one work-item per point of the flattened nest,
 *       SegRed  per-group partial results (a strided loop per work-item
 *               when the operators commute, contiguous chunks otherwise),
 *               then one group combines them in order,
 *       SegScan one pass with decoupled look-back: groups take ids in the
 *               order they start, scan their chunk in local memory and
 *               publish their aggregate, then the inclusive prefix;
 *               reductions fused with the scan leave a partial result
 *               per group, combined by SegRed's second kernel; a
 *               segmented scan (a map nest of a scan) is one such pass
 *               over all its elements with the operator lifted onto
 *               segment flags,
 *       SegHist atomic updates (native atomics for +, min, max and bit
 *               operations on integers, a compare-and-swap loop for any
 *               other operator), in a local sub-histogram when the
 *               buckets fit in local memory,
 *       SegSeq  one work-item, Host: the host over mapped buffers.
 * Kernel bodies are the same emitter in EM_KERNEL mode, so the code of a
 * lambda is the same as in the C backend; the functions that kernel code
 * calls (Prog.defs) are OpenCL C functions ahead of the kernels, and host
 * code has its own C copies; failures inside kernels are
 * recorded (first one wins) and reported when the host synchronises.
 * Blocks that each work-item needs for itself (per-element allocations
 * hoisted out of the SOAC) are allocated once per work-item by the host:
 * interleaved (the index functions of their arrays say where a
 * work-item's elements are, in terms of SegInfo.tid and nthreads, which
 * each kernel binds), or sliced (a work-item's copy is contiguous, at
 * its number times the block's size).
 *
 * The backend is four files that share opencl_internal.h. This one has
 * the registration of kernels and tuning parameters, the host statements,
 * kernel signatures, arguments and operators, SegSeq and Host, the
 * dispatch (cl_host_stm) and the program; opencl_seg.c has SegMap, SegRed
 * and SegHist, opencl_scan.c SegScan, opencl_tiled.c the block-tiled
 * SegMap. */
#include "backend.h"
#include "emit.h"
#include "opencl_internal.h"

#include <stdlib.h>
#include <string.h>

#include "../util/embedded.h"

/* Built-in kernels (runtime/kernels.cl), listed first in this order. */
static const char *const builtin_bases[] = {"rt_copy", "rt_fill", "rt_iota", "rt_transpose"};
static const int builtin_sizes[] = {1, 2, 4, 8};

struct ClEmit {
    Buf src;                    /* OpenCL C of the generated kernels */
    VEC(const char *) kernels;  /* kernel names by index */
    VEC(const char *) fails;    /* failure formats by id */
    VEC(const char *) params;   /* tuning parameter names */
    VEC(const char *) manifested; /* by result index: its dense copy's block, or NULL */
    char *kernel_fns;           /* by def index: kernel code calls the function */
};

/* ---- Registration ------------------------------------------------------------ */

static int new_kernel(Emit *E, const char *name) {
    vec_push(&E->cl->kernels, name);
    return E->cl->kernels.len - 1;
}

int new_param(Emit *E, const char *name) {
    vec_push(&E->cl->params, name);
    return E->cl->params.len - 1;
}

/* ---- Host: small helpers ---------------------------------------------------------- */

/* "{a, b, c}" of an LMAD's strides or shape (at least one entry). */
static const char *sym_list(Emit *E, const Lmad *l, bool strides) {
    Buf b = {0};
    buf_putc(&b, '{');
    for (int d = 0; d < l->rank; d++)
        buf_printf(&b, "%s%s", d ? ", " : "", ce_sym(E, strides ? l->dims[d].stride : l->dims[d].shape));
    if (l->rank == 0) buf_puts(&b, "0");
    buf_putc(&b, '}');
    const char *r = arena_strdup(E->a, b.data);
    buf_free(&b);
    return r;
}

void cl_copy(Emit *E, const Var *dmem, const Lmad *dl, const Var *smem, const Lmad *sl, PrimType t) {
    if (dmem == smem && lmad_equal(dl, sl)) return;
    lmad_merge_pair(E->a, dl, sl, &dl, &sl); /* fewer dimensions to pass */
    ce_line(E, "{");
    E->indent++;
    ce_line(E, "const int64_t rt_ds[] = %s, rt_ss[] = %s, rt_sh[] = %s;", sym_list(E, dl, true), sym_list(E, sl, true),
            sym_list(E, dl, false));
    ce_line(E, "if (rt_cl_copy(ctx, %d, %s, %s, rt_ds, %s, %s, rt_ss, rt_sh, %d)) goto fail;", prim_size(t),
            ce_name(E, dmem), ce_sym(E, dl->offset), ce_name(E, smem), ce_sym(E, sl->offset), dl->rank);
    E->indent--;
    ce_line(E, "}");
}

/* The bits of scalar se as a uint64_t expression. */
static const char *scalar_bits(Emit *E, SubExp se, PrimType t) {
    int n = ce_counter(E, "bits");
    ce_line(E, "uint64_t %s = 0;", ce_sym_name(n, E));
    ce_line(E, "{ %s rt_v = %s; memcpy(&%s, &rt_v, sizeof rt_v); }", ctype(t), ce_se(E, se), ce_sym_name(n, E));
    return ce_sym_name(n, E);
}

/* Stores se (a scalar or an array Var) at layout dl of device block dmem. */
static void host_store(Emit *E, const Var *dmem, const Lmad *dl, SubExp se, PrimType t) {
    if (se.is_var && se.v->type.kind == TK_ARRAY) {
        cl_copy(E, dmem, dl, se.v->mem->mem, se.v->mem->ixfun, t);
        return;
    }
    const char *bits = scalar_bits(E, se, t);
    const Lmad *same;
    lmad_merge_pair(E->a, dl, dl, &dl, &same); /* fewer dimensions to pass */
    ce_line(E, "{");
    E->indent++;
    ce_line(E, "const int64_t rt_ds[] = %s, rt_sh[] = %s;", sym_list(E, dl, true), sym_list(E, dl, false));
    ce_line(E, "if (rt_cl_fill(ctx, %d, %s, %s, rt_ds, rt_sh, %d, %s)) goto fail;", prim_size(t), ce_name(E, dmem),
            ce_sym(E, dl->offset), dl->rank, bits);
    E->indent--;
    ce_line(E, "}");
}

static LmadSlice *lmad_slices(Emit *E, const DimSlice *sl, int n) {
    LmadSlice *ls = NEW_ARRAY(E->a, LmadSlice, n + 1);
    for (int i = 0; i < n; i++) {
        ls[i].is_index = !sl[i].is_slice;
        if (ls[i].is_index) ls[i].index = ce_se_sym(E, sl[i].index);
        else {
            ls[i].start = ce_se_sym(E, sl[i].start);
            ls[i].len = ce_se_sym(E, sl[i].len);
            ls[i].stride = ce_se_sym(E, sl[i].stride);
        }
    }
    return ls;
}

static void host_alloc(Emit *E, const Stm *s) {
    const char *m = ce_name(E, s->pat[0]);
    const char *size = ce_se(E, s->e->size);
    ce_line(E, "rt_dblock *%s = rt_dblock_new(ctx, dpool, %s);", m, size);
    ce_alloc_check(E, m, size, s->loc);
}

static void host_index(Emit *E, const Stm *s) {
    const IrExp *e = s->e;
    Sym **idx = NEW_ARRAY(E->a, Sym *, e->nslice + 1);
    for (int i = 0; i < e->nslice; i++) idx[i] = ce_se_sym(E, e->slice[i].index);
    Var *v = s->pat[0];
    ce_declare(E, v, NULL);
    ce_line(E, "if (rt_cl_read(ctx, %s, %s, sizeof %s, &%s)) goto fail;", ce_name(E, e->arr->mem->mem),
            ce_sym(E, lmad_index(E->a, e->arr->mem->ixfun, idx)), ce_name(E, v), ce_name(E, v));
}

static void host_update(Emit *E, const Stm *s) {
    const IrExp *e = s->e;
    Lmad *region = lmad_slice(E->a, e->arr->mem->ixfun, lmad_slices(E, e->slice, e->nslice), e->nslice);
    PrimType t = e->arr->type.elem;
    if (region->rank == 0 && !(e->se.is_var && e->se.v->type.kind == TK_ARRAY)) {
        ce_line(E, "{");
        ce_line(E, "    %s rt_v = %s;", ctype(t), ce_se(E, e->se));
        ce_line(E, "    if (rt_cl_write(ctx, %s, %s * %d, %d, &rt_v)) goto fail;", ce_name(E, e->arr->mem->mem),
                ce_sym(E, region->offset), prim_size(t), prim_size(t));
        ce_line(E, "}");
        return;
    }
    host_store(E, e->arr->mem->mem, region, e->se, t);
}

static void host_iota(Emit *E, const Stm *s) {
    const IrExp *e = s->e;
    const Lmad *l = s->pat[0]->mem->ixfun;
    ce_line(E, "if (rt_cl_iota(ctx, %d, %s, %s, %s, %s, (int64_t)%s, (int64_t)%s)) goto fail;", prim_size(e->t),
            ce_name(E, s->pat[0]->mem->mem), ce_sym(E, l->offset), ce_sym(E, l->dims[0].stride), ce_se(E, e->n),
            ce_se(E, e->start), ce_se(E, e->step));
}

/* replicate of an array: a copy whose source repeats along the new
 * leading dimensions (stride 0). */
static void host_replicate(Emit *E, const Stm *s) {
    const IrExp *e = s->e;
    Var *v = s->pat[0];
    if (!e->se.is_var || e->se.v->type.kind != TK_ARRAY) {
        host_store(E, v->mem->mem, v->mem->ixfun, e->se, v->type.elem);
        return;
    }
    const Lmad *sl = e->se.v->mem->ixfun, *dl = v->mem->ixfun;
    Lmad *rep = NEW(E->a, Lmad);
    rep->rank = dl->rank;
    rep->offset = sl->offset;
    rep->dims = NEW_ARRAY(E->a, LmadDim, dl->rank);
    int lead = dl->rank - sl->rank;
    for (int d = 0; d < dl->rank; d++) {
        rep->dims[d].shape = dl->dims[d].shape;
        rep->dims[d].stride = d < lead ? sym_const(E->a, 0) : sl->dims[d - lead].stride;
    }
    cl_copy(E, v->mem->mem, dl, e->se.v->mem->mem, rep, v->type.elem);
}

/* An array literal: scalars into a host array written at once when the
 * result is contiguous, else each row stored. */
static void host_arraylit(Emit *E, const Stm *s) {
    const IrExp *e = s->e;
    Var *v = s->pat[0];
    bool scalars = v->type.rank == 1 && lmad_is_contiguous(v->mem->ixfun);
    for (int i = 0; i < e->nargs && scalars; i++)
        if (e->args[i].is_var && e->args[i].v->type.kind == TK_ARRAY) scalars = false;
    if (scalars && e->nargs > 0) {
        Buf b = {0};
        for (int i = 0; i < e->nargs; i++) buf_printf(&b, "%s%s", i ? ", " : "", ce_se(E, e->args[i]));
        ce_line(E, "{");
        ce_line(E, "    const %s rt_lit[] = {%s};", ctype(v->type.elem), b.data);
        ce_line(E, "    if (rt_cl_write(ctx, %s, %s * %d, sizeof rt_lit, rt_lit)) goto fail;", ce_name(E, v->mem->mem),
                ce_sym(E, v->mem->ixfun->offset), prim_size(v->type.elem));
        ce_line(E, "}");
        buf_free(&b);
        return;
    }
    for (int i = 0; i < e->nargs; i++)
        host_store(E, v->mem->mem, ce_fix_row(E, v->mem->ixfun, sym_const(E->a, i)), e->args[i], v->type.elem);
}

void cl_manifest(Emit *E, const Body *b, SrcLoc loc) {
    E->cl->manifested.len = 0;
    for (int k = 0; k < b->nres; k++) {
        SubExp r = b->res[k];
        if (!r.is_var || r.v->type.kind != TK_ARRAY) continue;
        const Lmad *l = r.v->mem->ixfun;
        if (lmad_is_row_major(l)) continue;
        Sym **shape = NEW_ARRAY(E->a, Sym *, l->rank + 1);
        const char *n = arena_printf(E->a, "%d", prim_size(r.v->type.elem));
        for (int d = 0; d < l->rank; d++) {
            shape[d] = l->dims[d].shape;
            n = arena_printf(E->a, "rt_size_mul_i64(%s, %s)", n, ce_sym(E, shape[d]));
        }
        Var *m = NEW(E->a, Var); /* a block of the emitter's own (a counter id) */
        memset(m, 0, sizeof *m);
        m->id = ce_counter(E, "result");
        m->name = "result";
        m->type.kind = TK_MEM;
        ce_line(E, "int64_t %s_bytes = %s;", ce_name(E, m), n);
        ce_line(E, "rt_dblock *%s = rt_dblock_new(ctx, dpool, %s_bytes);", ce_name(E, m), ce_name(E, m));
        ce_alloc_check(E, ce_name(E, m), arena_printf(E->a, "%s_bytes", ce_name(E, m)), loc);
        cl_copy(E, m, lmad_row_major(E->a, l->rank, shape), r.v->mem->mem, l, r.v->type.elem);
        while (E->cl->manifested.len <= k) vec_push(&E->cl->manifested, NULL);
        E->cl->manifested.items[k] = ce_name(E, m);
    }
}

void cl_result(Emit *E, const Var *v, int k) {
    const Lmad *l = v->mem->ixfun;
    const char *made = k < E->cl->manifested.len ? E->cl->manifested.items[k] : NULL;
    ce_line(E, "if (ctx->device) {");
    ce_line(E, "    outs[%d].data = rt_cl_export(ctx, %s);", k, made ? made : ce_name(E, v->mem->mem));
    ce_line(E, "} else {");
    E->indent++;
    ce_line(E, "outs[%d].data = rt_malloc_elems(rt_value_count(&outs[%d]), %d);", k, k, prim_size(v->type.elem));
    ce_line(E, "if (!outs[%d].data) {", k);
    ce_line(E, "    rt_error(ctx, \"out of memory (writing a result)\");");
    ce_line(E, "    goto fail;");
    ce_line(E, "}");
    if (made) {
        ce_line(E, "if (rt_cl_read(ctx, %s, 0, rt_cl_block_size(%s), outs[%d].data)) goto fail;", made, made, k);
    } else {
        ce_line(E, "const int64_t rt_ss[] = %s, rt_sh[] = %s;", sym_list(E, l, true), sym_list(E, l, false));
        ce_line(E, "if (rt_cl_download(ctx, dpool, outs[%d].data, %d, %s, %s, rt_ss, rt_sh, %d)) goto fail;", k,
                prim_size(v->type.elem), ce_name(E, v->mem->mem), ce_sym(E, l->offset), l->rank);
    }
    E->indent--;
    ce_line(E, "}");
    if (made) ce_line(E, "rt_dblock_release(%s);", made);
}

/* ---- Kernels: signatures and arguments ----------------------------------------------- */

static void kparam(Kern *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void kparam(Kern *k, const char *fmt, ...) {
    buf_puts(&k->params, ", ");
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&k->params, fmt, ap);
    va_end(ap);
}

/* Starts kernel name for s: its emitter writes the body into a buffer
 * that kern_end wraps in the signature. */
void kern_begin(Emit *E, Kern *k, const Stm *s, const char *kind) {
    memset(k, 0, sizeof *k);
    k->s = s;
    k->seg = s->e->seg;
    k->id = E->cl->kernels.len;
    const char *name = arena_printf(E->a, "%s_%d", kind, k->id);
    new_kernel(E, name);
    Buf *body = NEW(E->a, Buf);
    memset(body, 0, sizeof *body);
    ce_init(&k->K, body, E->p, E->a, EM_KERNEL);
    k->K.cl = E->cl;
    k->K.fail_label = "rt_next";
    k->K.indent = 1;
    k->nargs = 1;
}

/* The free variables as kernel parameters, and (host side) the code that
 * sets them from the host's variables. Private blocks get one copy per
 * work-item: the host allocates nthreads (a C expression) times the
 * block's size; a sliced block's size is an argument too, and with
 * interleaved blocks so is nthreads (the Var SegInfo.nthreads). Host code
 * goes to E; returns nothing. */
void kern_free_args(Emit *E, Kern *k, const char *nthreads) {
    const SegInfo *g = k->seg;
    for (int i = 0; i < g->nfree; i++) {
        Var *v = g->free[i];
        const char *n = ce_name(&k->K, v);
        if (v->type.kind == TK_ARRAY) continue;
        if (v->type.kind == TK_MEM && g->private_mem[i]) {
            bool sliced = g->private_mem[i] == PRIV_SLICED;
            kparam(k, sliced ? "__global unsigned char *%s_base, long %s_bytes" : "__global unsigned char *%s", n, n);
            const char *blk = arena_printf(E->a, "rt_priv_%d_%d", k->id, i);
            const char *bytes = arena_printf(E->a, "rt_size_mul_i64(%s_bytes_%d, %s)", n, k->id, nthreads);
            ce_line(E, "rt_dblock *%s = rt_dblock_new(ctx, dpool, %s);", blk, bytes);
            ce_alloc_check(E, blk, bytes, k->s->loc);
            ce_line(E, "if (rt_cl_mem_arg(ctx, %d, %d, rt_priv_%d_%d)) goto fail;", k->id, k->nargs++, k->id, i);
            if (sliced)
                ce_line(E, "if (rt_cl_arg(ctx, %d, %d, sizeof(int64_t), &%s_bytes_%d)) goto fail;", k->id, k->nargs++,
                        n, k->id);
        } else if (v->type.kind == TK_MEM) {
            kparam(k, "__global unsigned char *%s", n);
            ce_line(E, "if (rt_cl_mem_arg(ctx, %d, %d, %s)) goto fail;", k->id, k->nargs++, ce_name(E, v));
        } else if (v->type.elem == PT_BOOL) {
            kparam(k, "uchar %s_u", n);
            ce_line(E, "{ uint8_t rt_b = %s; if (rt_cl_arg(ctx, %d, %d, 1, &rt_b)) goto fail; }", ce_name(E, v), k->id,
                    k->nargs++);
        } else {
            kparam(k, "%s %s", ctype(v->type.elem), n);
            ce_line(E, "if (rt_cl_arg(ctx, %d, %d, sizeof(%s), &%s)) goto fail;", k->id, k->nargs++,
                    ctype(v->type.elem), ce_name(E, v));
        }
    }
    if (g->nthreads)
        kern_extra(E, k, arena_printf(E->a, "long %s", ce_name(&k->K, g->nthreads)), "int64_t", nthreads);
}

/* Host: the byte sizes of private blocks (before the arguments are set). */
void host_private_sizes(Emit *E, Kern *k) {
    const SegInfo *g = k->seg;
    for (int i = 0; i < g->nfree; i++)
        if (g->free[i]->type.kind == TK_MEM && g->private_mem[i])
            ce_line(E, "int64_t %s_bytes_%d = rt_cl_block_size(%s);", ce_name(E, g->free[i]), k->id,
                    ce_name(E, g->free[i]));
}

void host_release_private(Emit *E, Kern *k) {
    const SegInfo *g = k->seg;
    for (int i = 0; i < g->nfree; i++)
        if (g->free[i]->type.kind == TK_MEM && g->private_mem[i]) ce_line(E, "rt_dblock_release(rt_priv_%d_%d);", k->id, i);
}

/* Kernel prologue: bools from their uchar arguments, sliced private
 * blocks at this work-item's copy (tid: a C expression of the work-item
 * number; the index functions of interleaved ones use SegInfo.tid). */
void kern_prologue(Kern *k, const char *tid) {
    const SegInfo *g = k->seg;
    if (g->tid) ce_declare(&k->K, g->tid, tid);
    for (int i = 0; i < g->nfree; i++) {
        Var *v = g->free[i];
        const char *n = ce_name(&k->K, v);
        if (v->type.kind == TK_MEM && g->private_mem[i] == PRIV_SLICED)
            ce_line(&k->K, "__global unsigned char *%s = %s_base + (%s) * %s_bytes;", n, n, tid, n);
        else if (v->type.kind == TK_PRIM && v->type.elem == PT_BOOL) ce_line(&k->K, "bool %s = %s_u;", n, n);
    }
}

/* Adds a host-set extra argument: kernel parameter decl, host value code. */
void kern_extra(Emit *E, Kern *k, const char *decl, const char *host_type, const char *host_value) {
    buf_printf(&k->params, ", %s", decl);
    ce_line(E, "{ %s rt_a = %s; if (rt_cl_arg(ctx, %d, %d, sizeof rt_a, &rt_a)) goto fail; }", host_type, host_value,
            k->id, k->nargs++);
}

void kern_extra_mem(Emit *E, Kern *k, const char *decl, const char *block) {
    buf_printf(&k->params, ", %s", decl);
    ce_line(E, "if (rt_cl_mem_arg(ctx, %d, %d, %s)) goto fail;", k->id, k->nargs++, block);
}

void kern_extra_local(Emit *E, Kern *k, const char *decl, const char *bytes) {
    buf_printf(&k->params, ", %s", decl);
    ce_line(E, "if (rt_cl_arg(ctx, %d, %d, %s, NULL)) goto fail;", k->id, k->nargs++, bytes);
}

/* Writes the finished kernel into the program's kernel source. */
void kern_end(Emit *E, Kern *k) {
    Buf *src = &E->cl->src;
    buf_printf(src, "\n__kernel %svoid %s(__global long *rt_fail%s) {\n", k->attrs ? k->attrs : "",
               E->cl->kernels.items[k->id], k->params.data ? k->params.data : "");
    buf_puts(src, k->K.out->data ? k->K.out->data : "");
    buf_puts(src, "}\n");
    buf_free(&k->params);
    buf_free(k->K.out);
    ce_fini(&k->K);
}

/* ---- Kernels: operators -------------------------------------------------------------- */

typedef struct AssignCtx {
    const char **dst;
} AssignCtx;

static void res_assign_dst(Emit *E, const Body *b, void *ctx) {
    AssignCtx *a = ctx;
    for (int i = 0; i < b->nres; i++) ce_line(E, "%s = %s;", a->dst[i], ce_se(E, b->res[i]));
}

/* dst = op(xs, ys) for C expressions (scalar operands). */
void apply_op(Emit *K, const SegOp *op, const char **xs, const char **ys, const char **dst) {
    ce_line(K, "{");
    K->indent++;
    for (int i = 0; i < op->k; i++) {
        ce_declare(K, op->op->params[i], xs[i]);
        ce_declare(K, op->op->params[op->k + i], ys[i]);
    }
    AssignCtx a = {dst};
    ce_body(K, op->op->body, res_assign_dst, &a, NULL, 0);
    K->indent--;
    ce_line(K, "}");
}

/* The n C places "<base><first + i>[index]" (values first ... of a
 * group of per-value arrays such as rt_loc0, rt_loc1). */
const char **names_at(Emit *E, const char *base, int first, int n, const char *index) {
    const char **r = NEW_ARRAY(E->a, const char *, n + 1);
    for (int i = 0; i < n; i++) r[i] = arena_printf(E->a, "%s%d[%s]", base, first + i, index);
    return r;
}

const char **names_of(Emit *E, const char *fmt, int n) {
    const char **r = NEW_ARRAY(E->a, const char *, n + 1);
    for (int i = 0; i < n; i++) r[i] = arena_printf(E->a, fmt, i);
    return r;
}

void declare_vals(Emit *K, const char *fmt, const PrimType *ts, const char **init, int n) {
    for (int j = 0; j < n; j++) {
        const char *name = arena_printf(K->a, fmt, j);
        if (init) ce_line(K, "%s %s = %s;", ctype(ts[j]), name, init[j]);
        else ce_line(K, "%s %s;", ctype(ts[j]), name);
    }
}

/* The element types of the k values of ops. */
PrimType *op_types(Emit *E, const SegOp *ops, int nops, int *total) {
    int n = 0;
    for (int j = 0; j < nops; j++) n += ops[j].k;
    PrimType *ts = NEW_ARRAY(E->a, PrimType, n + 1);
    n = 0;
    for (int j = 0; j < nops; j++)
        for (int i = 0; i < ops[j].k; i++) ts[n++] = ops[j].op->params[i]->type.elem;
    *total = n;
    return ts;
}

/* The whole work-group. */
const Tree GROUP_TREE = {"rt_ltid", "rt_ltid", "rt_lsize"};

/* Step rt_s (1, 2, 4, ...) of an in-order tree reduction of the values
 * in <base><j>[] of tree t: every 2 * rt_s-th position combines its value
 * with the one rt_s places later (a barrier must separate the steps).
 * After the last step position 0 holds the tree's result. */
void tree_step(Emit *K, const SegOp *ops, int nops, const char *base, Tree t) {
    ce_line(K, "if ((%s & (2 * rt_s - 1)) == 0 && %s + rt_s < %s) {", t.pos, t.pos, t.size);
    K->indent++;
    const char *next = arena_printf(K->a, "%s + rt_s", t.ix);
    int v = 0;
    for (int j = 0; j < nops; j++) {
        const char **x = names_at(K, base, v, ops[j].k, t.ix);
        const char **y = names_at(K, base, v, ops[j].k, next);
        apply_op(K, &ops[j], x, y, x);
        v += ops[j].k;
    }
    K->indent--;
    ce_line(K, "}");
}

/* In-order tree reduction of tree t's values in rt_loc<j>[], leaving the
 * result at its position 0. Every work-item of the group takes part. */
void group_tree(Emit *K, const SegOp *ops, int nops, Tree t) {
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    ce_line(K, "for (int rt_s = 1; rt_s < %s; rt_s *= 2) {", t.size);
    K->indent++;
    tree_step(K, ops, nops, "rt_loc", t);
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    K->indent--;
    ce_line(K, "}");
}

/* ---- SegSeq and Host ---------------------------------------------------------------------------- */

static void seg_seq(Emit *E, const Stm *s) {
    Kern k;
    kern_begin(E, &k, s, "segseq");
    declare_results(E, s);
    host_launch_begin(E, &k);
    host_result_block(E, s);
    kern_free_args(E, &k, "1");
    kern_extra_mem(E, &k, "__global unsigned char *rt_res", "rt_res");
    ce_line(E, "if (rt_cl_launch(ctx, %d, 1, 1)) goto fail;", k.id);
    host_read_results(E, s);
    host_launch_end(E, &k);

    Emit *K = &k.K;
    kern_prologue(&k, "0");
    ce_stm(K, s);
    for (int j = 0; j < s->npat; j++)
        if (s->pat[j]->type.kind == TK_PRIM)
            ce_line(K, "*(__global %s *)(rt_res + %d) = %s;", ctype(s->pat[j]->type.elem), 8 * j, ce_name(K, s->pat[j]));
    ce_line(K, "rt_next: ;");
    kern_end(E, &k);
}

/* Runs s on the host: its blocks are mapped into host memory and the
 * sequential C code works on them. */
static void seg_host(Emit *E, const Stm *s) {
    const SegInfo *g = s->e->seg;
    const char **saved = NEW_ARRAY(E->a, const char *, g->nfree + 1);
    for (int i = 0; i < g->nfree; i++) {
        Var *v = g->free[i];
        if (v->type.kind != TK_MEM) continue;
        saved[i] = ce_name(E, v);
        const char *h = ce_sym_name(ce_counter(E, "host"), E);
        ce_line(E, "rt_block *%s = rt_cl_map(ctx, pool, %s);", h, saved[i]);
        ce_line(E, "if (!%s) goto fail;", h);
        ce_set_name(E, v->id, h);
    }
    E->mode = EM_C;
    ce_stm(E, s);
    E->mode = EM_HOST;
    for (int i = 0; i < g->nfree; i++) {
        Var *v = g->free[i];
        if (v->type.kind != TK_MEM) continue;
        ce_line(E, "if (rt_cl_unmap(ctx, %s, %s)) goto fail;", saved[i], ce_name(E, v));
        ce_set_name(E, v->id, saved[i]);
    }
}

/* ---- Dispatch ---------------------------------------------------------------------------------- */

void cl_host_stm(Emit *E, const Stm *s) {
    const IrExp *e = s->e;
    switch (e->kind) {
    case IE_ALLOC: host_alloc(E, s); return;
    case IE_INDEX: host_index(E, s); return;
    case IE_UPDATE: host_update(E, s); return;
    case IE_IOTA: host_iota(E, s); return;
    case IE_REPLICATE: host_replicate(E, s); return;
    case IE_COPY: cl_copy(E, s->pat[0]->mem->mem, s->pat[0]->mem->ixfun, e->arr->mem->mem, e->arr->mem->ixfun, e->arr->type.elem); return;
    case IE_ARRAYLIT: host_arraylit(E, s); return;
    default: break;
    }
    if (!e->seg) ICE("OpenCL backend: a host-level SOAC without a SegInfo");
    switch (e->seg->kind) {
    case SEG_MAP:
        if (e->seg->tile) seg_map_tiled(E, s);
        else seg_map(E, s, e->seg->depth);
        return;
    case SEG_RED:
        if (e->seg->irregular) seg_segred_lanes(E, s, arena_printf(E->a, "%d", SEGRED_LANES_MIN));
        else if (e->seg->depth > 1) seg_segred(E, s);
        else seg_red(E, s);
        return;
    case SEG_SCAN: seg_scan(E, s); return;
    case SEG_HIST: seg_hist(E, s); return;
    case SEG_SEQ: seg_seq(E, s); return;
    case SEG_HOST: seg_host(E, s); return;
    }
}

void cl_kernel_fail(Emit *K, const Stm *s) {
    const IrExp *e = s->e;
    ClEmit *cl = K->cl;
    Buf fmt = {0};
    buf_puts(&fmt, ce_str(K, ce_loc(K, s->loc), true));
    const char *m = e->msg ? e->msg : "assertion failed";
    int used = 0;
    for (const char *q = m; *q; q++) {
        if (q[0] == '{' && q[1] == '}' && used < e->nargs && used < 8) {
            buf_puts(&fmt, "%lld");
            used++;
            q++;
            continue;
        }
        char one[2] = {*q, 0};
        buf_puts(&fmt, ce_str(K, one, true));
    }
    vec_push(&cl->fails, arena_strdup(K->a, fmt.data ? fmt.data : ""));
    buf_free(&fmt);
    int id = cl->fails.len - 1;
    ce_line(K, "if (!%s) {", ce_se(K, e->cond));
    ce_line(K, "    if (atomic_cmpxchg((volatile __global int *)rt_fail, -1, %d) == -1) {", id);
    for (int i = 0; i < used; i++) ce_line(K, "        rt_fail[%d] = (long)%s;", i + 1, ce_se(K, e->args[i]));
    ce_line(K, "    }");
    ce_line(K, "    goto %s;", K->fail_label);
    ce_line(K, "}");
}

void cl_kernel_call(Emit *K, int idx) { K->cl->kernel_fns[idx] = 1; }

/* ---- The program -------------------------------------------------------------------------------- */

/* The OpenCL C of the functions kernel code calls, callees first. Going
 * backwards (defs come after their callees), emitting a function records
 * the functions it calls before the loop reaches them. */
static void kernel_functions(Emit *E, Buf *src) {
    const Prog *p = E->p;
    Buf *parts = NEW_ARRAY(E->a, Buf, p->ndefs + 1);
    for (int i = p->ndefs - 1; i >= 0; i--) {
        if (!E->cl->kernel_fns[i]) continue;
        Emit K;
        ce_init(&K, &parts[i], p, E->a, EM_KERNEL);
        K.cl = E->cl;
        ce_function(&K, i);
        ce_fini(&K);
    }
    for (int i = 0; i < p->ndefs; i++) {
        buf_puts(src, parts[i].data ? parts[i].data : "");
        buf_free(&parts[i]);
    }
}

/* Appends an embedded file with its #include lines dropped. */
static void append_source(Buf *out, const char *path) {
    const char *text = embedded_get(path);
    if (!text) ICE("the compiler lacks the runtime file %s", path);
    for (const char *s = text; *s;) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s + 1) : strlen(s);
        const char *q = s;
        while (*q == ' ' || *q == '\t') q++;
        if (strncmp(q, "#include", 8) != 0) buf_printf(out, "%.*s", (int)n, s);
        s += n;
    }
    buf_putc(out, '\n');
}

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

void emit_opencl_entries(Buf *out, const Prog *p, bool linked_rt) {
    if (p->stage != STAGE_GPU) ICE("emit_opencl_entries: the program must be at STAGE_GPU");
    Arena a = {0};
    ClEmit cl;
    memset(&cl, 0, sizeof cl);
    for (int b = 0; b < 4; b++)
        for (int s = 0; s < 4; s++) vec_push(&cl.kernels, arena_printf(&a, "%s_%d", builtin_bases[b], builtin_sizes[s]));
    cl.kernel_fns = arena_alloc(&a, (size_t)p->ndefs + 1);
    Emit E;
    ce_init(&E, out, p, &a, EM_HOST);
    E.cl = &cl;
    ce_prologue(out, " (OpenCL)", linked_rt);
    emit_c_runtime_file(out, "runtime/opencl.h");
    buf_puts(out, "/* ---- the program ---- */\n#include <string.h>\n\n");
    ce_entries(&E);
    Buf src = {0};
    append_source(&src, "runtime/prelude.cl");
    append_source(&src, "runtime/scalar.h");
    append_source(&src, "runtime/kernels.cl");
    kernel_functions(&E, &src);
    buf_puts(&src, cl.src.data ? cl.src.data : "");
    buf_puts(out, "static const char futhorc_cl_source[] =\n");
    c_literal(out, src.data);
    buf_puts(out, ";\n");
    string_table(out, "futhorc_cl_kernels", cl.kernels.items, cl.kernels.len);
    string_table(out, "futhorc_cl_failures", cl.fails.items, cl.fails.len);
    string_table(out, "futhorc_cl_params", cl.params.items, cl.params.len);
    buf_printf(out,
               "static const rt_cl_program_info futhorc_cl_info = {futhorc_cl_source, futhorc_cl_kernels, %d, "
               "futhorc_cl_failures, %d, futhorc_cl_params, %d};\n\n",
               cl.kernels.len, cl.fails.len, cl.params.len);
    buf_free(&src);
    buf_free(&cl.src);
    vec_free(&cl.kernels);
    vec_free(&cl.fails);
    vec_free(&cl.params);
    vec_free(&cl.manifested);
    ce_fini(&E);
    arena_free(&a);
}

void emit_opencl_program(Buf *out, const Prog *p, bool server, bool linked_rt) {
    emit_opencl_entries(out, p, linked_rt);
    buf_printf(out,
               "int main(int argc, char **argv) {\n"
               "    rt_cl_set_program(&futhorc_cl_info);\n"
               "    int early = rt_cl_early(argc, argv);\n"
               "    if (early >= 0) return early;\n"
               "    rt_the_backend = &rt_cl_backend;\n"
               "    return %s(argc, argv, futhorc_entries, %d);\n"
               "}\n",
               server ? "rt_server_main" : "rt_main", p->nfuns);
}
