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
 * its number times the block's size). */
#include "backend.h"
#include "emit.h"

#include <stdlib.h>
#include <string.h>

#include "../util/embedded.h"

/* Elements each work-item of a SegScan scans sequentially: enough to make
 * the look-back and the group's scan cheap per element, few enough to
 * keep a group's chunk in local memory (the group shrinks to fit when the
 * values are large). H100, 2^27 i32, groups of 256: 8 elements 0.88 ms,
 * 16 0.69 ms, 24 0.66 ms, 32 0.62 ms (61% of copy bandwidth). Keeping a
 * work-item's elements in registers between its scan and the prefix
 * instead of local memory was slower (0.80 ms against 0.70 with 16). */
#define SCAN_ELEMS 32
/* Predecessors whose statuses a SegScan's look-back reads at once (one
 * memory latency per round instead of one per predecessor): a warp. */
#define LOOKBACK 32
/* Elements a work-item of a reduction or histogram handles per step of
 * its strided loop: independent loads in flight hide memory latency. */
#define STRIDE_UNROLL 4
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

static const char *ctype(PrimType t) { return prim_ctype(t); }

/* ---- Registration ------------------------------------------------------------ */

static int new_kernel(Emit *E, const char *name) {
    vec_push(&E->cl->kernels, name);
    return E->cl->kernels.len - 1;
}

static int new_param(Emit *E, const char *name) {
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

/* One kernel being written: its emitter (EM_KERNEL, into the kernel
 * source), its index, the statement, and the host argument count so far. */
typedef struct Kern {
    Emit K;
    int id;
    const Stm *s;
    const SegInfo *seg;
    Buf params;   /* the kernel's parameter list after rt_fail */
    const char *attrs; /* attributes before the kernel's name, or NULL */
    int nargs;    /* arguments set so far (0 is rt_fail) */
} Kern;

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
static void kern_begin(Emit *E, Kern *k, const Stm *s, const char *kind) {
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

static void kern_extra(Emit *E, Kern *k, const char *decl, const char *host_type, const char *host_value);

/* The free variables as kernel parameters, and (host side) the code that
 * sets them from the host's variables. Private blocks get one copy per
 * work-item: the host allocates nthreads (a C expression) times the
 * block's size; a sliced block's size is an argument too, and with
 * interleaved blocks so is nthreads (the Var SegInfo.nthreads). Host code
 * goes to E; returns nothing. */
static void kern_free_args(Emit *E, Kern *k, const char *nthreads) {
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
static void host_private_sizes(Emit *E, Kern *k) {
    const SegInfo *g = k->seg;
    for (int i = 0; i < g->nfree; i++)
        if (g->free[i]->type.kind == TK_MEM && g->private_mem[i])
            ce_line(E, "int64_t %s_bytes_%d = rt_cl_block_size(%s);", ce_name(E, g->free[i]), k->id,
                    ce_name(E, g->free[i]));
}

static void host_release_private(Emit *E, Kern *k) {
    const SegInfo *g = k->seg;
    for (int i = 0; i < g->nfree; i++)
        if (g->free[i]->type.kind == TK_MEM && g->private_mem[i]) ce_line(E, "rt_dblock_release(rt_priv_%d_%d);", k->id, i);
}

/* Kernel prologue: bools from their uchar arguments, sliced private
 * blocks at this work-item's copy (tid: a C expression of the work-item
 * number; the index functions of interleaved ones use SegInfo.tid). */
static void kern_prologue(Kern *k, const char *tid) {
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
static void kern_extra(Emit *E, Kern *k, const char *decl, const char *host_type, const char *host_value) {
    buf_printf(&k->params, ", %s", decl);
    ce_line(E, "{ %s rt_a = %s; if (rt_cl_arg(ctx, %d, %d, sizeof rt_a, &rt_a)) goto fail; }", host_type, host_value,
            k->id, k->nargs++);
}

static void kern_extra_mem(Emit *E, Kern *k, const char *decl, const char *block) {
    buf_printf(&k->params, ", %s", decl);
    ce_line(E, "if (rt_cl_mem_arg(ctx, %d, %d, %s)) goto fail;", k->id, k->nargs++, block);
}

static void kern_extra_local(Emit *E, Kern *k, const char *decl, const char *bytes) {
    buf_printf(&k->params, ", %s", decl);
    ce_line(E, "if (rt_cl_arg(ctx, %d, %d, %s, NULL)) goto fail;", k->id, k->nargs++, bytes);
}

/* Writes the finished kernel into the program's kernel source. */
static void kern_end(Emit *E, Kern *k) {
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
static void apply_op(Emit *K, const SegOp *op, const char **xs, const char **ys, const char **dst) {
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
static const char **names_at(Emit *E, const char *base, int first, int n, const char *index) {
    const char **r = NEW_ARRAY(E->a, const char *, n + 1);
    for (int i = 0; i < n; i++) r[i] = arena_printf(E->a, "%s%d[%s]", base, first + i, index);
    return r;
}

/* The element types of the k values of ops. */
static PrimType *op_types(Emit *E, const SegOp *ops, int nops, int *total) {
    int n = 0;
    for (int j = 0; j < nops; j++) n += ops[j].k;
    PrimType *ts = NEW_ARRAY(E->a, PrimType, n + 1);
    n = 0;
    for (int j = 0; j < nops; j++)
        for (int i = 0; i < ops[j].k; i++) ts[n++] = ops[j].op->params[i]->type.elem;
    *total = n;
    return ts;
}

/* The work-items whose values one tree reduction combines, in order:
 * those whose position pos (a C expression) runs over 0 .. size - 1,
 * each with its value at index ix of the local arrays. */
typedef struct Tree {
    const char *ix, *pos, *size;
} Tree;

/* The whole work-group. */
static const Tree GROUP_TREE = {"rt_ltid", "rt_ltid", "rt_lsize"};

/* Step rt_s (1, 2, 4, ...) of an in-order tree reduction of the values
 * in <base><j>[] of tree t: every 2 * rt_s-th position combines its value
 * with the one rt_s places later (a barrier must separate the steps).
 * After the last step position 0 holds the tree's result. */
static void tree_step(Emit *K, const SegOp *ops, int nops, const char *base, Tree t) {
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
static void group_tree(Emit *K, const SegOp *ops, int nops, Tree t) {
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    ce_line(K, "for (int rt_s = 1; rt_s < %s; rt_s *= 2) {", t.size);
    K->indent++;
    tree_step(K, ops, nops, "rt_loc", t);
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    K->indent--;
    ce_line(K, "}");
}

/* ---- SegMap -------------------------------------------------------------------------------- */

static void host_launch_begin(Emit *E, Kern *k) {
    ce_line(E, "{");
    E->indent++;
    host_private_sizes(E, k);
}

static void host_launch_end(Emit *E, Kern *k) {
    host_release_private(E, k);
    E->indent--;
    ce_line(E, "}");
}

static SubExp level_width(const Stm *s) {
    return s->e->kind == IE_SCATTER ? s->e->scatter.w : s->e->screma.w;
}

/* The number of points of the first depth levels of g (a C expression). */
static const char *space_size(Emit *E, const SegInfo *g, int depth) {
    Buf n = {0};
    for (int l = 0; l < depth; l++) buf_printf(&n, "%s(int64_t)%s", l ? " * " : "", ce_se(E, level_width(g->levels[l])));
    const char *r = arena_strdup(E->a, n.data);
    buf_free(&n);
    return r;
}

/* Declares the iters of the first depth levels of g from the flat index
 * (a C expression; its value is consumed in rt_rest), innermost fastest. */
static void level_iters(Emit *K, const SegInfo *g, int depth, const char *index) {
    ce_line(K, "long rt_rest = %s;", index);
    for (int l = depth - 1; l >= 0; l--) {
        const Stm *ls = g->levels[l];
        const Var *iter = ls->e->kind == IE_SCATTER ? ls->e->scatter.iter : ls->e->screma.iter;
        if (l == 0) ce_line(K, "int64_t %s = rt_rest;", ce_name(K, iter));
        else {
            const char *w = ce_se(K, level_width(ls));
            ce_line(K, "int64_t %s = rt_rest %% %s;", ce_name(K, iter), w);
            ce_line(K, "rt_rest /= %s;", w);
        }
    }
}

/* The outer levels [0, n) of g's nest around level n: each binds its rows
 * and runs its cheap code before the next level (its last statement). */
static void outer_levels(Emit *K, const SegInfo *g, int n) {
    for (int l = 0; l < n; l++) {
        const Screma *sc = &g->levels[l]->e->screma;
        ce_bind_rows(K, sc->map, sc->arrs, sc->iter);
        for (int i = 0; i + 1 < sc->map->body->nstms; i++) ce_stm(K, sc->map->body->stms[i]);
    }
}

/* A SegMap over the first depth levels of s's SegInfo. */
static void seg_map(Emit *E, const Stm *s, int depth) {
    Kern k;
    kern_begin(E, &k, s, "segmap");
    SegInfo lv = *s->e->seg;
    lv.depth = depth;
    const SegInfo *g = &lv;
    int P = new_param(E, arena_printf(E->a, "segmap_%d.group_size", k.id));
    host_launch_begin(E, &k);
    ce_line(E, "int64_t rt_n = %s;", space_size(E, g, g->depth));
    ce_line(E, "int64_t rt_g = rt_cl_group_size(%d), rt_groups = (rt_n + rt_g - 1) / rt_g;", P);
    kern_free_args(E, &k, "rt_groups * rt_g");
    kern_extra(E, &k, "long rt_n", "int64_t", "rt_n");
    ce_line(E, "if (rt_cl_launch(ctx, %d, rt_groups, rt_g)) goto fail;", k.id);
    host_launch_end(E, &k);

    Emit *K = &k.K;
    ce_line(K, "long rt_tid = get_global_id(0);");
    ce_line(K, "if (rt_tid >= rt_n) return;");
    kern_prologue(&k, "rt_tid");
    /* Level iters from the flat id, innermost fastest. */
    level_iters(K, g, g->depth, "rt_tid");
    outer_levels(K, g, g->depth - 1);
    const Stm *ls = g->levels[g->depth - 1];
    if (ls->e->kind == IE_SCATTER) {
        const Scatter *sc = &ls->e->scatter;
        ce_bind_rows(K, sc->lam, sc->arrs, sc->iter);
        ce_body(K, sc->lam->body, ce_res_scatter, (void *)sc, NULL, 0);
    } else {
        const Screma *sc = &ls->e->screma;
        ce_bind_rows(K, sc->map, sc->arrs, sc->iter);
        CeScremaCtx x = {ls, NULL, NULL};
        ce_body(K, sc->map->body, ce_res_screma, &x, NULL, 0);
    }
    ce_line(K, "rt_next: ;");
    kern_end(E, &k);
}

/* A lambda body's results: the first nv into the C places dst; the next
 * nr (the reduction values of a Screma with scans and reductions) into
 * the places red_dst, or combined into the accumulators red_accs with
 * the Screma's reduction operators; the rest (a Screma's map outputs) at
 * row iter of s's pattern. */
typedef struct StoreCtx {
    const Stm *s;
    int nv;
    const char **dst;
    int nr;
    const char **red_dst, **red_accs;
} StoreCtx;
static void res_store(Emit *K, const Body *b, void *ctx);
static void declare_vals(Emit *K, const char *fmt, const PrimType *ts, const char **init, int n);

/* Where a work-item's strided loop runs: elements start, start + stride,
 * ... below n (C expressions). */
typedef struct Stride {
    const char *start, *stride, *n;
} Stride;

/* Over the whole input, all work-items of the kernel. */
static const Stride GLOBAL_STRIDE = {"rt_tid", "rt_nthreads", "rt_n"};

/* The main loop of a work-item over the elements of st: STRIDE_UNROLL
 * elements per step, each copy of lam's body computing its first nv
 * results (types ts) into rt_r<u>_<j> before any of them is combined (by
 * combine, called per copy u), so that their loads overlap. Leaves rt_i0
 * at the first element the steps did not take; open_rest / close_rest
 * loop over the rest one by one (rt_i). */
static void strided_steps(Emit *K, Stride st, const Stm *s, const Lambda *lam, Var **arrs, const Var *iter,
                          const PrimType *ts, int nv, void (*combine)(Emit *K, const Stm *s, const char **vals, void *ctx),
                          void *ctx) {
    ce_line(K, "long rt_i0 = %s;", st.start);
    ce_line(K, "for (; rt_i0 + %d * (%s) < %s; rt_i0 += %d * (%s)) {", STRIDE_UNROLL - 1, st.stride, st.n,
            STRIDE_UNROLL, st.stride);
    K->indent++;
    const char ***vals = NEW_ARRAY(K->a, const char **, STRIDE_UNROLL);
    for (int u = 0; u < STRIDE_UNROLL; u++) {
        const char *fmt = arena_printf(K->a, "rt_r%d_%%d", u);
        declare_vals(K, fmt, ts, NULL, nv);
        vals[u] = NEW_ARRAY(K->a, const char *, nv + 1);
        for (int j = 0; j < nv; j++) vals[u][j] = arena_printf(K->a, fmt, j);
    }
    for (int u = 0; u < STRIDE_UNROLL; u++) {
        ce_line(K, "{");
        K->indent++;
        K->fail_label = arena_printf(K->a, "rt_next%d", u);
        ce_line(K, "int64_t %s = rt_i0 + %d * (%s);", ce_name(K, iter), u, st.stride);
        ce_bind_rows(K, lam, arrs, iter);
        StoreCtx x = {s, nv, vals[u], 0, NULL, NULL};
        ce_body(K, lam->body, res_store, &x, NULL, 0);
        ce_line(K, "%s: ;", K->fail_label);
        K->indent--;
        ce_line(K, "}");
    }
    K->fail_label = "rt_next";
    for (int u = 0; u < STRIDE_UNROLL; u++) combine(K, s, vals[u], ctx);
    K->indent--;
    ce_line(K, "}");
}

static void open_rest(Emit *K, Stride st) {
    ce_line(K, "for (; rt_i0 < %s; rt_i0 += %s) {", st.n, st.stride);
    K->indent++;
    ce_line(K, "long rt_i = rt_i0;");
}

static void close_rest(Emit *K) {
    ce_line(K, "rt_next: ;");
    K->indent--;
    ce_line(K, "}");
}

static void combine_reds(Emit *K, const Stm *s, const char **vals, void *ctx) {
    const Screma *sc = &s->e->screma;
    const char **accs = ctx;
    int v = 0;
    for (int j = 0; j < sc->nreds; j++) {
        apply_op(K, &sc->reds[j], accs + v, vals + v, accs + v);
        v += sc->reds[j].k;
    }
}

/* ---- SegRed ---------------------------------------------------------------------------------- */

/* Whether the operators may combine elements in any order: declared so
 * (reduce_comm) or known to be (ir_segop_known_commutative). */
static bool all_commutative(const SegOp *ops, int n) {
    for (int i = 0; i < n; i++)
        if (!ops[i].commutative && !ir_segop_known_commutative(&ops[i])) return false;
    return true;
}

/* Declares rt_loc<j> local parameters and their host sizes for values ts. */
static void local_arrays(Emit *E, Kern *k, const PrimType *ts, int n, const char *count) {
    for (int j = 0; j < n; j++)
        kern_extra_local(E, k, arena_printf(E->a, "__local %s *rt_loc%d", ctype(ts[j]), j),
                         arena_printf(E->a, "(size_t)(%s) * sizeof(%s)", count, ctype(ts[j])));
}

/* The reduction Screma rs over the elements of st: each work-item folds
 * its elements (strided and unrolled when the operators commute, else a
 * contiguous chunk in order), then tree t leaves the result in rt_loc<j>
 * at its position 0. */
static void group_reduce(Emit *K, const Stm *rs, Stride st, Tree t) {
    const Screma *sc = &rs->e->screma;
    int nv;
    PrimType *ts = op_types(K, sc->reds, sc->nreds, &nv);
    const char **accs = ce_declare_accs(K, sc->reds, sc->nreds, NULL, true);
    if (all_commutative(sc->reds, sc->nreds)) {
        strided_steps(K, st, rs, sc->map, sc->arrs, sc->iter, ts, nv, combine_reds, accs);
        open_rest(K, st);
    } else {
        ce_line(K, "long rt_chunk = (%s + (%s) - 1) / (%s), rt_lo = (%s) * rt_chunk;", st.n, st.stride, st.stride,
                st.start);
        ce_line(K, "long rt_hi = rt_lo + rt_chunk < %s ? rt_lo + rt_chunk : %s;", st.n, st.n);
        ce_line(K, "for (long rt_i = rt_lo; rt_i < rt_hi; rt_i++) {");
        K->indent++;
    }
    ce_line(K, "int64_t %s = rt_i;", ce_name(K, sc->iter));
    ce_bind_rows(K, sc->map, sc->arrs, sc->iter);
    CeScremaCtx x = {rs, NULL, accs};
    ce_body(K, sc->map->body, ce_res_screma, &x, NULL, 0);
    close_rest(K);
    for (int j = 0; j < nv; j++) ce_line(K, "rt_loc%d[rt_ltid] = %s;", j, accs[j]);
    group_tree(K, sc->reds, sc->nreds, t);
}

/* Stage 1: every group reduces its share of the input into rt_part<j>. */
static void red_stage1(const Stm *s, Kern *k, int nv) {
    Emit *K = &k->K;
    ce_line(K, "long rt_tid = get_global_id(0), rt_nthreads = get_global_size(0);");
    ce_line(K, "int rt_ltid = get_local_id(0), rt_lsize = get_local_size(0);");
    kern_prologue(k, "rt_tid");
    group_reduce(K, s, GLOBAL_STRIDE, GROUP_TREE);
    ce_line(K, "if (rt_ltid == 0) {");
    for (int j = 0; j < nv; j++) ce_line(K, "    rt_part%d[get_group_id(0)] = rt_loc%d[0];", j, j);
    ce_line(K, "}");
}

/* Folds the partial results rt_part<j>[lo .. hi) in order into the
 * accumulators accs of operators ops. */
static void fold_parts(Emit *K, const SegOp *ops, int nops, const char **accs, const char *lo, const char *hi) {
    ce_line(K, "for (long rt_i = %s; rt_i < %s; rt_i++) {", lo, hi);
    K->indent++;
    int v = 0;
    for (int j = 0; j < nops; j++) {
        apply_op(K, &ops[j], accs + v, names_at(K, "rt_part", v, ops[j].k, "rt_i"), accs + v);
        v += ops[j].k;
    }
    K->indent--;
    ce_line(K, "}");
}

/* Stage 2: one group combines the partial results in order into rt_res
 * at s's pattern positions first, first + 1, ... */
static void red_stage2(const Stm *s, Kern *k, int nv, int first) {
    const Screma *sc = &s->e->screma;
    Emit *K = &k->K;
    ce_line(K, "int rt_ltid = get_local_id(0), rt_lsize = get_local_size(0);");
    kern_prologue(k, "0");
    const char **accs = ce_declare_accs(K, sc->reds, sc->nreds, NULL, true);
    ce_line(K, "long rt_chunk = (rt_ngroups + rt_lsize - 1) / rt_lsize, rt_lo = rt_ltid * rt_chunk;");
    ce_line(K, "long rt_hi = rt_lo + rt_chunk < rt_ngroups ? rt_lo + rt_chunk : rt_ngroups;");
    fold_parts(K, sc->reds, sc->nreds, accs, "rt_lo", "rt_hi");
    for (int j = 0; j < nv; j++) ce_line(K, "rt_loc%d[rt_ltid] = %s;", j, accs[j]);
    group_tree(K, sc->reds, sc->nreds, GROUP_TREE);
    ce_line(K, "if (rt_ltid == 0) {");
    for (int j = 0; j < nv; j++)
        ce_line(K, "    *(__global %s *)(rt_res + %d) = rt_loc%d[0];", ctype(s->pat[first + j]->type.elem),
                8 * (first + j), j);
    ce_line(K, "}");
    ce_line(K, "rt_next: ;");
}

/* Scalar results of a kernel travel through the device block rt_res, 8
 * bytes per pattern position. Host: declares s's scalar pattern Vars (before
 * the launch block, so they outlive it). */
static void declare_results(Emit *E, const Stm *s) {
    for (int j = 0; j < s->npat; j++)
        if (s->pat[j]->type.kind == TK_PRIM) ce_declare(E, s->pat[j], NULL);
}

/* Host: the rt_res block (inside the launch block). */
static void host_result_block(Emit *E, const Stm *s) {
    ce_line(E, "rt_dblock *rt_res = rt_dblock_new(ctx, dpool, %d);", 8 * (s->npat > 0 ? s->npat : 1));
    ce_line(E, "if (!rt_res) goto fail;");
}

/* Host: reads the scalar results back from rt_res and releases it. */
static void host_read_results(Emit *E, const Stm *s) {
    ce_line(E, "{");
    ce_line(E, "    unsigned char rt_buf[%d];", 8 * (s->npat > 0 ? s->npat : 1));
    ce_line(E, "    if (rt_cl_read(ctx, rt_res, 0, sizeof rt_buf, rt_buf)) goto fail;");
    for (int j = 0; j < s->npat; j++)
        if (s->pat[j]->type.kind == TK_PRIM)
            ce_line(E, "    memcpy(&%s, rt_buf + %d, sizeof %s);", ce_name(E, s->pat[j]), 8 * j,
                    ce_name(E, s->pat[j]));
    ce_line(E, "}");
    ce_line(E, "rt_dblock_release(rt_res);");
}

/* Host: the blocks rt_part<j> of rt_groups partial results of values ts. */
static void host_partials(Emit *E, const PrimType *ts, int nv) {
    for (int j = 0; j < nv; j++) {
        ce_line(E, "rt_dblock *rt_part%d = rt_dblock_new(ctx, dpool, rt_groups * %d);", j, prim_size(ts[j]));
        ce_line(E, "if (!rt_part%d) goto fail;", j);
    }
}

/* The rt_part<j> blocks as arguments of kernel k. */
static void kern_partials(Emit *E, Kern *k, const PrimType *ts, int nv) {
    for (int j = 0; j < nv; j++)
        kern_extra_mem(E, k, arena_printf(E->a, "__global %s *rt_part%d", ctype(ts[j]), j),
                       arena_printf(E->a, "rt_part%d", j));
}

/* The second kernel of a reduction whose first left rt_groups partial
 * results (values ts) in rt_part<j>: one group of rt_g combines them in
 * order; the host reads the results back into s's pattern positions
 * first, first + 1, ... and releases the partials. */
static void red_final(Emit *E, const Stm *s, const PrimType *ts, int nv, int first) {
    Kern k;
    kern_begin(E, &k, s, "segred_final");
    host_result_block(E, s);
    host_private_sizes(E, &k);
    kern_free_args(E, &k, "rt_g");
    kern_extra(E, &k, "long rt_ngroups", "int64_t", "rt_groups");
    kern_partials(E, &k, ts, nv);
    local_arrays(E, &k, ts, nv, "rt_g");
    kern_extra_mem(E, &k, "__global unsigned char *rt_res", "rt_res");
    ce_line(E, "if (rt_cl_launch(ctx, %d, 1, rt_g)) goto fail;", k.id);
    red_stage2(s, &k, nv, first);
    kern_end(E, &k);
    host_release_private(E, &k);
    host_read_results(E, s);
    for (int j = 0; j < nv; j++) ce_line(E, "rt_dblock_release(rt_part%d);", j);
}

static void seg_red(Emit *E, const Stm *s) {
    const Screma *sc = &s->e->screma;
    int nv;
    PrimType *ts = op_types(E, sc->reds, sc->nreds, &nv);
    declare_results(E, s);
    Kern k;
    kern_begin(E, &k, s, "segred");
    int P = new_param(E, arena_printf(E->a, "segred_%d.group_size", k.id));
    int PN = new_param(E, arena_printf(E->a, "segred_%d.num_groups", k.id));
    host_launch_begin(E, &k);
    ce_line(E, "int64_t rt_n = %s;", ce_se(E, sc->w));
    ce_line(E, "int64_t rt_g = rt_cl_group_size(%d), rt_groups = rt_cl_num_groups(%d, rt_n, rt_g);", P, PN);
    host_partials(E, ts, nv);
    kern_free_args(E, &k, "rt_groups * rt_g");
    kern_extra(E, &k, "long rt_n", "int64_t", "rt_n");
    kern_partials(E, &k, ts, nv);
    local_arrays(E, &k, ts, nv, "rt_g");
    ce_line(E, "if (rt_cl_launch(ctx, %d, rt_groups, rt_g)) goto fail;", k.id);
    red_stage1(s, &k, nv);
    kern_end(E, &k);
    red_final(E, s, ts, nv, 0);
    host_launch_end(E, &k);
}

/* Segments of a regular segmented reduction at least SEGRED_GROUP_MIN
 * long get several lanes of a work-group each, about one per
 * RT_CL_SEG_MIN_ITEMS elements; shorter ones are reduced by one
 * work-item each (lanes would idle). Segments of SEGRED_LANES_BELOW
 * elements or more would get a whole default group (256 lanes) that way
 * and take the work-group kernel, which can also split a segment over
 * several groups. */
#define SEGRED_GROUP_MIN 64
#define SEGRED_LANES_BELOW 2048

/* The fewest lanes per segment of an irregular segmented reduction
 * (more when there are too few segments to fill the device; tuning
 * parameter segred_lanes_K.lanes): on an H100, CSR rows of 0-32 elements
 * took 0.35 ms with 1 lane, 0.29 with 2, 0.26 with 4, 0.27 with 8, 0.30
 * with 16 and 0.45 with 32 (fewer lanes leave rows' reads uncoalesced,
 * more leave lanes idle and add tree steps). */
#define SEGRED_LANES_MIN 4

/* The map's code of a segmented reduction s in a kernel where iter is
 * set: binds its rows, runs its scalar code up to the reduction rs (a
 * failure jumps to fail) and returns the index of rs in the body. */
static int segred_prefix(Emit *K, const Stm *s, const Stm *rs, const char *fail) {
    const Screma *sc = &s->e->screma;
    ce_bind_rows(K, sc->map, sc->arrs, sc->iter);
    K->fail_label = fail;
    const Body *b = sc->map->body;
    int at = 0;
    while (b->stms[at] != rs) ce_stm(K, b->stms[at++]);
    return at;
}

/* After the reduction rs of a segment gave its values vals (C
 * expressions): the map's code after the reduction and its results,
 * written by the work-items for which cond holds. */
static void segred_suffix(Emit *K, const Stm *s, const Stm *rs, int at, const char **vals, const char *cond) {
    const Body *b = s->e->screma.map->body;
    const Screma *rc = &rs->e->screma;
    for (int j = 0, v = 0; j < rc->nreds; j++)
        for (int i = 0; i < rc->reds[j].k; i++, v++) ce_declare(K, rs->pat[v], vals[v]);
    ce_line(K, "if (!(%s)) goto rt_done;", cond);
    K->fail_label = "rt_done";
    for (at++; at < b->nstms; at++) ce_stm(K, b->stms[at]);
    CeScremaCtx ox = {s, NULL, NULL};
    ce_res_screma(K, b, &ox);
    ce_line(K, "rt_done: ;");
}

/* The segment seg (a C expression) of a segmented reduction g: the iters
 * of its map nest's levels, and the outer levels' code (a failure there
 * jumps to fail); the innermost map's code is segred_prefix's. */
static void segment_levels(Emit *K, const SegInfo *g, const char *seg, const char *fail) {
    level_iters(K, g, g->depth - 1, seg);
    K->fail_label = fail;
    outer_levels(K, g, g->depth - 2);
}

/* A segmented reduction whose segments rt_lanes work-items (lanes) of a
 * group take each: an irregular one (at least SEGRED_LANES_MIN lanes),
 * or a regular one of medium segments (enough lanes that each folds
 * about RT_CL_SEG_MIN_ITEMS elements); lanes_min is that least number
 * (a host C expression), and more are taken when there are too few
 * segments to fill the device. All lanes run the maps' code up to the
 * reduction (it gives the segment's width and rows), fold the segment's
 * elements strided by rt_lanes, and combine their values in a tree of
 * their own; lane 0 runs the rest and writes the results. A segment
 * whose code failed, and lanes past the last segment, reduce nothing but
 * still meet the group's barriers. */
static void seg_segred_lanes(Emit *E, const Stm *s, const char *lanes_min) {
    const SegInfo *g = s->e->seg;
    const Stm *rs = g->levels[g->depth - 1], *ls = g->levels[g->depth - 2];
    const Screma *rc = &rs->e->screma;
    int nv;
    PrimType *ts = op_types(E, rc->reds, rc->nreds, &nv);
    Kern k;
    kern_begin(E, &k, s, "segred_lanes");
    int P = new_param(E, arena_printf(E->a, "segred_lanes_%d.group_size", k.id));
    int PL = new_param(E, arena_printf(E->a, "segred_lanes_%d.lanes", k.id));
    host_launch_begin(E, &k);
    ce_line(E, "int64_t rt_nseg = %s, rt_g = rt_cl_group_size(%d);", space_size(E, g, g->depth - 1), P);
    ce_line(E, "int64_t rt_lanes = rt_cl_lanes(%d, rt_nseg, rt_g, %s);", PL, lanes_min);
    ce_line(E, "int64_t rt_groups = (rt_nseg * rt_lanes + rt_g - 1) / rt_g;");
    kern_free_args(E, &k, "rt_groups * rt_g");
    kern_extra(E, &k, "long rt_nseg", "int64_t", "rt_nseg");
    kern_extra(E, &k, "int rt_lanes", "int32_t", "(int32_t)rt_lanes");
    local_arrays(E, &k, ts, nv, "rt_g");
    ce_line(E, "if (rt_cl_launch(ctx, %d, rt_groups, rt_g)) goto fail;", k.id);
    host_launch_end(E, &k);

    Emit *K = &k.K;
    ce_line(K, "long rt_tid = get_global_id(0);");
    ce_line(K, "int rt_ltid = get_local_id(0), rt_lane = rt_ltid & (rt_lanes - 1);");
    kern_prologue(&k, "rt_tid");
    ce_line(K, "long rt_seg = rt_tid / rt_lanes, rt_m = 0;");
    ce_line(K, "bool rt_ok = false;");
    ce_line(K, "if (rt_seg >= rt_nseg) goto rt_skip;");
    segment_levels(K, g, "rt_seg", "rt_skip");
    int at = segred_prefix(K, ls, rs, "rt_skip");
    ce_line(K, "rt_m = %s;", ce_se(K, rc->w));
    ce_line(K, "rt_ok = true;");
    ce_line(K, "rt_skip: ;");
    K->fail_label = "rt_next";
    Stride seg = {"rt_lane", "rt_lanes", "rt_m"};
    Tree lanes = {"rt_ltid", "rt_lane", "rt_lanes"};
    group_reduce(K, rs, seg, lanes);
    segred_suffix(K, ls, rs, at, names_at(K, "rt_loc", 0, nv, "rt_ltid"), "rt_ok && rt_lane == 0");
    kern_end(E, &k);
}

/* The second kernel of a segmented reduction whose segments took
 * rt_gps groups each (s, whose innermost map ls has the reduction rs,
 * values ts): one work-item per segment combines the groups' partial
 * results rt_part<j> in order, runs the maps' code around the reduction
 * again and writes the results. */
static void segred_combine(Emit *E, const Stm *s, const Stm *ls, const Stm *rs, const PrimType *ts, int nv) {
    const Screma *rc = &rs->e->screma;
    Kern k;
    kern_begin(E, &k, s, "segred_segments_final");
    host_private_sizes(E, &k);
    kern_free_args(E, &k, "rt_nseg");
    kern_extra(E, &k, "long rt_nseg", "int64_t", "rt_nseg");
    kern_extra(E, &k, "long rt_gps", "int64_t", "rt_gps");
    kern_partials(E, &k, ts, nv);
    ce_line(E, "if (rt_cl_launch(ctx, %d, (rt_nseg + rt_g - 1) / rt_g, rt_g)) goto fail;", k.id);
    Emit *K = &k.K;
    ce_line(K, "long rt_tid = get_global_id(0);");
    ce_line(K, "if (rt_tid >= rt_nseg) return;");
    kern_prologue(&k, "rt_tid");
    segment_levels(K, s->e->seg, "rt_tid", "rt_done");
    int at = segred_prefix(K, ls, rs, "rt_done");
    const char **accs = ce_declare_accs(K, rc->reds, rc->nreds, NULL, true);
    fold_parts(K, rc->reds, rc->nreds, accs, "rt_tid * rt_gps", "(rt_tid + 1) * rt_gps");
    segred_suffix(K, ls, rs, at, accs, "1");
    ce_line(K, "rt_next: ;");
    kern_end(E, &k);
    host_release_private(E, &k);
}

/* A segmented reduction (a map nest around a reduction over rows; each
 * point of the nest is a segment): rt_gps work-groups per segment read
 * the segment coalesced and reduce their parts of it in local memory;
 * the maps' scalar code runs in every work-item (it is the same for the
 * whole group). With one group per
 * segment, its work-item 0 writes the results; with several (few long
 * segments, which would leave the device idle), each group leaves a
 * partial result that segred_combine combines. Short segments use the
 * one-work-item-per-segment SegMap instead. */
static void seg_segred(Emit *E, const Stm *s) {
    const SegInfo *g = s->e->seg;
    const Stm *rs = g->levels[g->depth - 1], *ls = g->levels[g->depth - 2];
    const Screma *rc = &rs->e->screma;
    int nv;
    PrimType *ts = op_types(E, rc->reds, rc->nreds, &nv);
    ce_line(E, "if ((int64_t)%s < %d) {", ce_se(E, rc->w), SEGRED_GROUP_MIN);
    E->indent++;
    seg_map(E, s, g->depth - 1);
    E->indent--;
    ce_line(E, "} else if ((int64_t)%s < %d) {", ce_se(E, rc->w), SEGRED_LANES_BELOW);
    E->indent++;
    seg_segred_lanes(E, s, arena_printf(E->a, "(int64_t)%s / RT_CL_SEG_MIN_ITEMS", ce_se(E, rc->w)));
    E->indent--;
    ce_line(E, "} else {");
    E->indent++;
    Kern k;
    kern_begin(E, &k, s, "segred_segments");
    int P = new_param(E, arena_printf(E->a, "segred_segments_%d.group_size", k.id));
    int PG = new_param(E, arena_printf(E->a, "segred_segments_%d.groups_per_segment", k.id));
    host_launch_begin(E, &k);
    ce_line(E, "int64_t rt_nseg = %s, rt_m = %s;", space_size(E, g, g->depth - 1), ce_se(E, rc->w));
    ce_line(E, "int64_t rt_g = rt_cl_group_size(%d), rt_gps = rt_cl_segment_groups(%d, rt_nseg, rt_m, rt_g);", P,
            PG);
    ce_line(E, "int64_t rt_groups = rt_gps > 1 ? rt_nseg * rt_gps : 1;");
    host_partials(E, ts, nv);
    kern_free_args(E, &k, "rt_nseg * rt_gps * rt_g");
    kern_extra(E, &k, "long rt_m", "int64_t", "rt_m");
    kern_extra(E, &k, "long rt_gps", "int64_t", "rt_gps");
    kern_partials(E, &k, ts, nv);
    local_arrays(E, &k, ts, nv, "rt_g");
    ce_line(E, "if (rt_cl_launch(ctx, %d, rt_nseg * rt_gps, rt_g)) goto fail;", k.id);
    ce_line(E, "if (rt_gps > 1) {");
    E->indent++;
    segred_combine(E, s, ls, rs, ts, nv);
    E->indent--;
    ce_line(E, "}");
    for (int j = 0; j < nv; j++) ce_line(E, "rt_dblock_release(rt_part%d);", j);
    host_launch_end(E, &k);
    E->indent--;
    ce_line(E, "}");

    Emit *K = &k.K;
    ce_line(K, "long rt_tid = get_global_id(0);");
    ce_line(K, "int rt_ltid = get_local_id(0), rt_lsize = get_local_size(0);");
    kern_prologue(&k, "rt_tid");
    ce_line(K, "long rt_grp = get_group_id(0), rt_part = rt_grp %% rt_gps;");
    /* The segment's code is uniform in the group: a failure there leaves
     * the whole group together. */
    segment_levels(K, g, "rt_grp / rt_gps", "rt_done");
    int at = segred_prefix(K, ls, rs, "rt_done");
    K->fail_label = "rt_next";
    Stride seg = {"rt_part * rt_lsize + rt_ltid", "rt_gps * rt_lsize", "rt_m"};
    group_reduce(K, rs, seg, GROUP_TREE);
    ce_line(K, "if (rt_gps > 1) {");
    ce_line(K, "    if (rt_ltid == 0) {");
    for (int j = 0; j < nv; j++) ce_line(K, "        rt_part%d[rt_grp] = rt_loc%d[0];", j, j);
    ce_line(K, "    }");
    ce_line(K, "    return;");
    ce_line(K, "}");
    segred_suffix(K, ls, rs, at, names_at(K, "rt_loc", 0, nv, "0"), "rt_ltid == 0");
    kern_end(E, &k);
}

/* ---- SegScan --------------------------------------------------------------------------------- */

static void res_store(Emit *K, const Body *b, void *ctx) {
    StoreCtx *x = ctx;
    for (int j = 0; j < x->nv; j++) ce_line(K, "%s = %s;", x->dst[j], ce_se(K, b->res[j]));
    const char **rv = NEW_ARRAY(K->a, const char *, x->nr + 1);
    for (int j = 0; j < x->nr; j++) rv[j] = ce_se(K, b->res[x->nv + j]);
    if (x->red_accs) combine_reds(K, x->s, rv, x->red_accs);
    else if (x->red_dst)
        for (int j = 0; j < x->nr; j++) ce_line(K, "%s = %s;", x->red_dst[j], rv[j]);
    if (x->s->e->kind != IE_SCREMA) return;
    const Screma *sc = &x->s->e->screma;
    Sym *i = sym_var(K->a, sc->iter->id);
    for (int r = x->nv + x->nr; r < b->nres; r++) {
        Var *out = x->s->pat[r];
        ce_store(K, out->mem->mem, ce_fix_row(K, out->mem->ixfun, i), b->res[r], out->type.elem);
    }
}

/* Applies every scan operator: dst = op(xs, ys) over all values. */
static void apply_ops(Emit *K, const SegOp *ops, int nops, const char **xs, const char **ys, const char **dst) {
    int v = 0;
    for (int j = 0; j < nops; j++) {
        apply_op(K, &ops[j], xs + v, ys + v, dst + v);
        v += ops[j].k;
    }
}

/* A segmented scan (SegInfo depth > 1) is one scan over all the elements
 * of the nest in row-major order, whose operator is lifted onto pairs of
 * a flag, set where a segment starts, and a value:
 *     (xf, x) + (yf, y) = (xf | yf, yf ? y : x op y),
 * which is associative when op is, so the single-pass kernel runs it as
 * it is. Element i is column i % rt_m of segment i / rt_m; its flag is
 * (column == 0), computed from the column (rt_col, counted along a
 * work-item's elements from rt_col0). The flags of the work-items'
 * totals are in rt_totf[], those of the groups' aggregates travel in
 * their status words, and the look-back stops at the first predecessor
 * whose flag is set. H100, 2^27 i32 (+), n rows of 2^27 / n: 0.57-0.58
 * ms for 2^14 to 2^27 rows (the flat scan of as many elements: 0.60, its
 * look-back cannot stop early), 0.63 for 2^7, 0.66 for one row; the
 * SegMap with a sequential scan per row took 3.4 to 10.5 ms for 2^14 to
 * 2^20 rows (0.51 for rows of 2). Stepping each work-item's row and
 * column instead of dividing per element was slower (0.84 for one row). */

/* dst = xs + ys for the scan operators, lifted onto flags when yf (a C
 * expression) is given: ys where yf is set; then df = xf | yf when df (a
 * C place) is given. */
static void seg_apply(Emit *K, const SegOp *ops, int nops, int nv, const char **xs, const char *xf, const char **ys,
                      const char *yf, const char **dst, const char *df) {
    if (!yf) {
        apply_ops(K, ops, nops, xs, ys, dst);
        return;
    }
    ce_line(K, "if (!(%s)) {", yf);
    K->indent++;
    apply_ops(K, ops, nops, xs, ys, dst);
    K->indent--;
    bool copy = false;
    for (int j = 0; j < nv; j++) copy |= strcmp(dst[j], ys[j]) != 0;
    if (copy) ce_line(K, "} else {");
    for (int j = 0; j < nv && copy; j++) ce_line(K, "    %s = %s;", dst[j], ys[j]);
    ce_line(K, "}");
    if (df) ce_line(K, "%s = (%s) | (%s);", df, xf, yf);
}

static const char **names_of(Emit *E, const char *fmt, int n) {
    const char **r = NEW_ARRAY(E->a, const char *, n + 1);
    for (int i = 0; i < n; i++) r[i] = arena_printf(E->a, fmt, i);
    return r;
}

static void declare_vals(Emit *K, const char *fmt, const PrimType *ts, const char **init, int n) {
    for (int j = 0; j < n; j++) {
        const char *name = arena_printf(K->a, fmt, j);
        if (init) ce_line(K, "%s %s = %s;", ctype(ts[j]), name, init[j]);
        else ce_line(K, "%s %s;", ctype(ts[j]), name);
    }
}

static const char **neutrals(Emit *K, const SegOp *ops, int nops, int nv) {
    const char **r = NEW_ARRAY(K->a, const char *, nv + 1);
    int v = 0;
    for (int j = 0; j < nops; j++)
        for (int i = 0; i < ops[j].k; i++) r[v++] = ce_se(K, ops[j].neutral[i]);
    return r;
}

/* Status words of the look-back: each value is split into 32-bit chunks
 * and each chunk travels with its group's flag in one 64-bit word
 * (flag << 32 | chunk), written and read at once. Flag 1: the chunk is
 * of the group's aggregate, 2: of its inclusive prefix. A reader takes a
 * group's values only when all its words carry the same flag, so it never
 * mixes an aggregate with a prefix, and no fence between a value and its
 * flag is needed. A segmented scan adds the segment flag of the values
 * as bit 2 of the flag. */
static int chunks_of(PrimType t) { return prim_size(t) > 4 ? 2 : 1; }

static int status_words(const PrimType *ts, int nv) {
    int w = 0;
    for (int j = 0; j < nv; j++) w += chunks_of(ts[j]);
    return w;
}

/* Writes values vals[] (C variables) with flag into group grp's words;
 * segf (a C expression, or NULL) is their segment flag. */
static void publish(Emit *K, const PrimType *ts, int nv, const char **vals, int flag, const char *segf, const char *grp) {
    int W = status_words(ts, nv), w = 0;
    const char *hi = segf ? arena_printf(K->a, "((ulong)(%d | (%s) << 2) << 32)", flag, segf)
                          : arena_printf(K->a, "(%dUL << 32)", flag);
    for (int j = 0; j < nv; j++) {
        PrimType t = ts[j];
        if (chunks_of(t) == 1) {
            const char *bits = arena_printf(K->a, t == PT_F32 ? "as_uint(%s)" : "(uint)(%s)", vals[j]);
            ce_line(K, "rt_status[(%s) * %d + %d] = %s | (ulong)%s;", grp, W, w++, hi, bits);
            continue;
        }
        ce_line(K, "{");
        ce_line(K, "    ulong rt_x = %s;", arena_printf(K->a, t == PT_F64 ? "as_ulong(%s)" : "(ulong)(%s)", vals[j]));
        ce_line(K, "    rt_status[(%s) * %d + %d] = %s | (rt_x & 0xffffffffUL);", grp, W, w++, hi);
        ce_line(K, "    rt_status[(%s) * %d + %d] = %s | (rt_x >> 32);", grp, W, w++, hi);
        ce_line(K, "}");
    }
}

/* Reads group rt_j's words into rt_w<k>; sets rt_f to their common flag,
 * or 0 when they are not all published with one flag yet, and (seg)
 * rt_sf to their segment flag. */
static void read_status(Emit *K, int W, bool seg) {
    for (int w = 0; w < W; w++) ce_line(K, "ulong rt_w%d = rt_status[rt_j * %d + %d];", w, W, w);
    ce_line(K, "uint rt_f = (uint)(rt_w0 >> 32);");
    for (int w = 1; w < W; w++) ce_line(K, "if ((uint)(rt_w%d >> 32) != rt_f) rt_f = 0;", w);
    if (seg) ce_line(K, "uint rt_sf = rt_f >> 2;");
    if (seg) ce_line(K, "rt_f &= 3;");
}

/* Declares rt_v<j> from the words rt_w<k>. */
static void unpack_status(Emit *K, const PrimType *ts, int nv) {
    int w = 0;
    for (int j = 0; j < nv; j++) {
        PrimType t = ts[j];
        const char *ct = ctype(t);
        if (chunks_of(t) == 1) {
            if (t == PT_F32) ce_line(K, "float rt_v%d = as_float((uint)rt_w%d);", j, w);
            else ce_line(K, "%s rt_v%d = (%s)(uint)rt_w%d;", ct, j, ct, w);
            w++;
            continue;
        }
        ce_line(K, "ulong rt_x%d = (rt_w%d & 0xffffffffUL) | (rt_w%d << 32);", j, w, w + 1);
        if (t == PT_F64) ce_line(K, "double rt_v%d = as_double(rt_x%d);", j, j);
        else ce_line(K, "%s rt_v%d = (%s)rt_x%d;", ct, j, ct, j);
        w += 2;
    }
}

/* The look-back, by the whole group: work-item 0 publishes the group's
 * aggregate (group 0 its inclusive prefix); then, until an inclusive
 * prefix is found, the first LOOKBACK work-items read the statuses of as
 * many predecessors at once and work-item 0 combines them backwards,
 * stopping at one that is not published yet (read again next round) or
 * at an inclusive prefix. It then publishes the group's own inclusive
 * prefix, and rt_prefix<j> (local) holds the exclusive one. A segmented
 * scan (seg) also stops at a predecessor whose segment flag is set, and
 * the flag of the exclusive prefix is rt_prefixf. */
static void lookback(Emit *K, const SegOp *ops, int nops, const PrimType *ts, int nv, const char **ne, bool seg) {
    int W = status_words(ts, nv);
    const char **agg = names_of(K, "rt_agg%d", nv), **pre = names_of(K, "rt_prefix%d", nv);
    const char **tot_last = names_at(K, "rt_tot", 0, nv, "rt_lsize - 1");
    const char *aggf = seg ? "rt_aggf" : NULL, *pref = seg ? "rt_prefixf" : NULL;
    ce_line(K, "if (rt_ltid == 0) {");
    K->indent++;
    declare_vals(K, "rt_agg%d", ts, tot_last, nv);
    if (seg) ce_line(K, "uint rt_aggf = rt_totf[rt_lsize - 1];");
    for (int j = 0; j < nv; j++) ce_line(K, "rt_prefix%d = %s;", j, ne[j]);
    if (seg) ce_line(K, "rt_prefixf = 0;");
    ce_line(K, "rt_lbdone = rt_grp == 0;");
    ce_line(K, "rt_lbj = rt_grp - 1;");
    ce_line(K, "if (rt_grp == 0) {");
    K->indent++;
    publish(K, ts, nv, agg, 2, aggf, "0");
    K->indent--;
    ce_line(K, "} else {");
    K->indent++;
    publish(K, ts, nv, agg, 1, aggf, "rt_grp");
    K->indent--;
    ce_line(K, "}");
    K->indent--;
    ce_line(K, "}");
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    ce_line(K, "while (!rt_lbdone) {");
    K->indent++;
    ce_line(K, "if (rt_ltid < %d) {", LOOKBACK);
    K->indent++;
    ce_line(K, "long rt_j = rt_lbj - rt_ltid;");
    ce_line(K, "rt_lbf[rt_ltid] = 0;");
    ce_line(K, "if (rt_j >= 0) {");
    K->indent++;
    read_status(K, W, seg);
    unpack_status(K, ts, nv);
    for (int j = 0; j < nv; j++) ce_line(K, "rt_lbv%d[rt_ltid] = rt_v%d;", j, j);
    ce_line(K, "rt_lbf[rt_ltid] = rt_f;");
    if (seg) ce_line(K, "rt_lbsf[rt_ltid] = rt_sf;");
    K->indent--;
    ce_line(K, "}");
    K->indent--;
    ce_line(K, "}");
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    ce_line(K, "if (rt_ltid == 0) {");
    K->indent++;
    ce_line(K, "int rt_w = 0;");
    ce_line(K, "for (; rt_w < %d && rt_lbf[rt_w] != 0; rt_w++) {", LOOKBACK);
    K->indent++;
    seg_apply(K, ops, nops, nv, names_at(K, "rt_lbv", 0, nv, "rt_w"), seg ? "rt_lbsf[rt_w]" : NULL, pre, pref, pre,
              pref);
    ce_line(K, "if (rt_lbf[rt_w] == 2%s) {", seg ? " || rt_prefixf" : "");
    K->indent++;
    ce_line(K, "rt_lbdone = 1;");
    ce_line(K, "break;");
    K->indent--;
    ce_line(K, "}");
    K->indent--;
    ce_line(K, "}");
    ce_line(K, "rt_lbj -= rt_w;");
    ce_line(K, "if (rt_lbdone) {");
    K->indent++;
    declare_vals(K, "rt_agg%d", ts, tot_last, nv);
    declare_vals(K, "rt_incl%d", ts, NULL, nv);
    const char **incl = names_of(K, "rt_incl%d", nv);
    if (seg) ce_line(K, "uint rt_aggf = rt_totf[rt_lsize - 1], rt_inclf;");
    seg_apply(K, ops, nops, nv, pre, pref, agg, aggf, incl, seg ? "rt_inclf" : NULL);
    publish(K, ts, nv, incl, 2, seg ? "rt_inclf" : NULL, "rt_grp");
    K->indent--;
    ce_line(K, "}");
    K->indent--;
    ce_line(K, "}");
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    K->indent--;
    ce_line(K, "}");
}

/* The reductions of a Screma with scans and reductions, which its SegScan
 * kernel folds as it scans: nr values of types ts. Each work-item folds
 * its elements into its accumulators acc; when every operator commutes
 * it does so as it maps them, else (staged) the values go through local
 * memory (rt_loc<nv + j>, after the scan values) so that each work-item
 * folds its consecutive elements in order. The group combines the
 * work-items' results (rt_red<j>) with an in-order tree during the scan
 * of their totals and writes one partial result per group; red_final
 * combines the groups' partials, which are in element order because
 * groups take their numbers in the order they start. */
typedef struct ScanReds {
    int nr;
    PrimType *ts;
    bool staged;
    const char **acc;
} ScanReds;

/* The scan statement of SegScan g: the SOAC itself, or the innermost
 * level of a segmented scan. */
static const Stm *scan_stm(const SegInfo *g) { return g->levels[g->depth - 1]; }

/* Step 1 of the scan kernel: the map over the group's elements in a
 * coalesced order (a segmented scan's levels around the scan binding
 * their rows and running their code for each), scan inputs (and staged
 * reduction values) to local memory, neutral elements past the end. */
static void scan_map(Kern *k, int nv, const char **ne, const ScanReds *rd) {
    const Stm *s = scan_stm(k->seg);
    const Screma *sc = &s->e->screma;
    Emit *K = &k->K;
    int nstaged = rd->staged ? rd->nr : 0;
    const char **rne = neutrals(K, sc->reds, sc->nreds, rd->nr);
    ce_line(K, "for (int rt_k = 0; rt_k < %d; rt_k++) {", SCAN_ELEMS);
    K->indent++;
    ce_line(K, "long rt_i = rt_start + rt_k * rt_lsize + rt_ltid;");
    ce_line(K, "int rt_slot = rt_k * rt_lsize + rt_ltid;");
    ce_line(K, "if (rt_i < rt_n) {");
    K->indent++;
    level_iters(K, k->seg, k->seg->depth, "rt_i");
    outer_levels(K, k->seg, k->seg->depth - 1);
    ce_bind_rows(K, sc->map, sc->arrs, sc->iter);
    const char **staged = nstaged ? names_at(K, "rt_loc", nv, nstaged, "RT_PAD(rt_slot)") : NULL;
    StoreCtx x = {s, nv, names_at(K, "rt_loc", 0, nv, "RT_PAD(rt_slot)"), rd->nr, staged,
                  rd->staged ? NULL : rd->acc};
    ce_body(K, sc->map->body, res_store, &x, NULL, 0);
    K->indent--;
    ce_line(K, "} else {");
    for (int j = 0; j < nv; j++) ce_line(K, "    rt_loc%d[RT_PAD(rt_slot)] = %s;", j, ne[j]);
    for (int j = 0; j < nstaged; j++) ce_line(K, "    rt_loc%d[RT_PAD(rt_slot)] = %s;", nv + j, rne[j]);
    ce_line(K, "}");
    ce_line(K, "rt_next: ;");
    K->indent--;
    ce_line(K, "}");
}

/* Step 2: each work-item scans its SCAN_ELEMS consecutive elements in
 * place, leaves their total in rt_tot<j>[rt_ltid] (a segmented scan: its
 * flag in rt_totf[rt_ltid]), and its reduction result in
 * rt_red<j>[rt_ltid]. */
static void scan_own(Emit *K, const SegInfo *g, const PrimType *ts, int nv, const ScanReds *rd) {
    const Stm *s = scan_stm(g);
    const Screma *sc = &s->e->screma;
    bool seg = g->depth > 1;
    ce_line(K, "{");
    K->indent++;
    ce_line(K, "int rt_base = rt_ltid * %d;", SCAN_ELEMS);
    declare_vals(K, "rt_acc%d", ts, names_at(K, "rt_loc", 0, nv, "RT_PAD(rt_base)"), nv);
    if (seg) ce_line(K, "long rt_col = rt_col0;");
    if (seg) ce_line(K, "uint rt_accf = rt_col == 0;");
    ce_line(K, "for (int rt_e = 1; rt_e < %d; rt_e++) {", SCAN_ELEMS);
    K->indent++;
    const char **acc = names_of(K, "rt_acc%d", nv);
    const char **cur = names_at(K, "rt_loc", 0, nv, "RT_PAD(rt_base + rt_e)");
    if (seg) ce_line(K, "if (++rt_col == rt_m) rt_col = 0;");
    seg_apply(K, sc->scans, sc->nscans, nv, acc, "rt_accf", cur, seg ? "rt_col == 0" : NULL, acc, "rt_accf");
    for (int j = 0; j < nv; j++) ce_line(K, "%s = %s;", cur[j], acc[j]);
    K->indent--;
    ce_line(K, "}");
    for (int j = 0; j < nv; j++) ce_line(K, "rt_tot%d[rt_ltid] = rt_acc%d;", j, j);
    if (seg) ce_line(K, "rt_totf[rt_ltid] = rt_accf;");
    if (rd->staged) {
        ce_line(K, "for (int rt_e = 0; rt_e < %d; rt_e++) {", SCAN_ELEMS);
        K->indent++;
        combine_reds(K, s, names_at(K, "rt_loc", nv, rd->nr, "RT_PAD(rt_base + rt_e)"), rd->acc);
        K->indent--;
        ce_line(K, "}");
    }
    for (int j = 0; j < rd->nr; j++) ce_line(K, "rt_red%d[rt_ltid] = %s;", j, rd->acc[j]);
    K->indent--;
    ce_line(K, "}");
}

/* Step 3: inclusive scan of the work-items' totals; each of its steps
 * also takes a step of the tree over their reduction results. */
static void scan_totals(Emit *K, const SegInfo *g, const PrimType *ts, int nv, const ScanReds *rd) {
    const Screma *sc = &scan_stm(g)->e->screma;
    bool seg = g->depth > 1;
    ce_line(K, "for (int rt_s = 1; rt_s < rt_lsize; rt_s *= 2) {");
    K->indent++;
    declare_vals(K, "rt_x%d", ts, NULL, nv);
    if (seg) ce_line(K, "uint rt_xf;");
    ce_line(K, "bool rt_have = rt_ltid >= rt_s;");
    ce_line(K, "if (rt_have) {");
    for (int j = 0; j < nv; j++) ce_line(K, "    rt_x%d = rt_tot%d[rt_ltid - rt_s];", j, j);
    if (seg) ce_line(K, "    rt_xf = rt_totf[rt_ltid - rt_s];");
    ce_line(K, "}");
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    ce_line(K, "if (rt_have) {");
    K->indent++;
    const char **tot = names_at(K, "rt_tot", 0, nv, "rt_ltid");
    const char *totf = seg ? "rt_totf[rt_ltid]" : NULL;
    seg_apply(K, sc->scans, sc->nscans, nv, names_of(K, "rt_x%d", nv), "rt_xf", tot, totf, tot, totf);
    K->indent--;
    ce_line(K, "}");
    if (rd->nr) tree_step(K, sc->reds, sc->nreds, "rt_red", GROUP_TREE);
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    K->indent--;
    ce_line(K, "}");
}

/* Step 5: every work-item adds the prefix of everything before its
 * elements to them (a segmented scan: to those before the first segment
 * start among them). */
static void scan_add_prefix(Emit *K, const SegInfo *g, const PrimType *ts, int nv) {
    const Screma *sc = &scan_stm(g)->e->screma;
    bool seg = g->depth > 1;
    ce_line(K, "{");
    K->indent++;
    declare_vals(K, "rt_p%d", ts, names_of(K, "rt_prefix%d", nv), nv);
    const char **p = names_of(K, "rt_p%d", nv);
    ce_line(K, "if (rt_ltid > 0) {");
    K->indent++;
    seg_apply(K, sc->scans, sc->nscans, nv, p, NULL, names_at(K, "rt_tot", 0, nv, "rt_ltid - 1"),
              seg ? "rt_totf[rt_ltid - 1]" : NULL, p, NULL);
    K->indent--;
    ce_line(K, "}");
    if (seg) ce_line(K, "long rt_col = rt_col0;");
    if (seg) ce_line(K, "uint rt_started = 0;");
    ce_line(K, "for (int rt_e = 0; rt_e < %d; rt_e++) {", SCAN_ELEMS);
    K->indent++;
    const char **el = names_at(K, "rt_loc", 0, nv, arena_printf(K->a, "RT_PAD(rt_ltid * %d + rt_e)", SCAN_ELEMS));
    if (seg) ce_line(K, "rt_started |= rt_col == 0;");
    seg_apply(K, sc->scans, sc->nscans, nv, p, NULL, el, seg ? "rt_started" : NULL, el, NULL);
    if (seg) ce_line(K, "if (++rt_col == rt_m) rt_col = 0;");
    K->indent--;
    ce_line(K, "}");
    K->indent--;
    ce_line(K, "}");
}

/* Step 6: the scanned values to the outputs, coalesced. */
static void scan_write(Emit *K, const SegInfo *g, int nv) {
    const Stm *s = scan_stm(g);
    const Screma *sc = &s->e->screma;
    ce_line(K, "for (int rt_k = 0; rt_k < %d; rt_k++) {", SCAN_ELEMS);
    K->indent++;
    ce_line(K, "long rt_i = rt_start + rt_k * rt_lsize + rt_ltid;");
    ce_line(K, "if (rt_i < rt_n) {");
    K->indent++;
    level_iters(K, g, g->depth, "rt_i");
    Sym *iv = sym_var(K->a, sc->iter->id);
    for (int j = 0; j < nv; j++) {
        Var *out = s->pat[j];
        ce_line(K, "%s = rt_loc%d[RT_PAD(rt_k * rt_lsize + rt_ltid)];", ce_elem_at(K, ce_arr_base(K, out), out->mem->ixfun, &iv),
                j);
    }
    K->indent--;
    ce_line(K, "}");
    K->indent--;
    ce_line(K, "}");
}

/* The single-pass scan kernel: steps 1-6, one barrier between each. */
static void scan_kernel(Kern *k, const PrimType *ts, int nv, ScanReds *rd) {
    const SegInfo *g = k->seg;
    const Screma *sc = &scan_stm(g)->e->screma;
    bool seg = g->depth > 1;
    Emit *K = &k->K;
    const SegOp *ops = sc->scans;
    int nops = sc->nscans;
    const char **ne = neutrals(K, ops, nops, nv);
    ce_line(K, "__local long rt_grp_l;");
    for (int j = 0; j < nv; j++) ce_line(K, "__local %s rt_prefix%d, rt_lbv%d[%d];", ctype(ts[j]), j, j, LOOKBACK);
    ce_line(K, "__local uint rt_lbf[%d];", LOOKBACK);
    if (seg) ce_line(K, "__local uint rt_prefixf, rt_lbsf[%d];", LOOKBACK);
    ce_line(K, "__local long rt_lbj;");
    ce_line(K, "__local int rt_lbdone;");
    ce_line(K, "int rt_ltid = get_local_id(0), rt_lsize = get_local_size(0);");
    ce_line(K, "if (rt_ltid == 0) rt_grp_l = atomic_inc(rt_counter);");
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    ce_line(K, "long rt_grp = rt_grp_l, rt_tid = rt_grp * rt_lsize + rt_ltid;");
    ce_line(K, "long rt_start = rt_grp * rt_lsize * %d;", SCAN_ELEMS);
    if (seg) ce_line(K, "long rt_col0 = (rt_start + rt_ltid * %d) %% rt_m;", SCAN_ELEMS);
    kern_prologue(k, "rt_tid");
    if (rd->nr) rd->acc = ce_declare_accs(K, sc->reds, sc->nreds, NULL, true);
    scan_map(k, nv, ne, rd);
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    scan_own(K, g, ts, nv, rd);
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    scan_totals(K, g, ts, nv, rd);
    /* 4: the group's partial reduction (work-item 0) and the look-back. */
    if (rd->nr) {
        ce_line(K, "if (rt_ltid == 0) {");
        for (int j = 0; j < rd->nr; j++) ce_line(K, "    rt_part%d[rt_grp] = rt_red%d[0];", j, j);
        ce_line(K, "}");
    }
    lookback(K, ops, nops, ts, nv, ne, seg);
    scan_add_prefix(K, g, ts, nv);
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    scan_write(K, g, nv);
}

/* Bytes of one value of each of ts. */
static int value_bytes(const PrimType *ts, int n) {
    int bytes = 0;
    for (int j = 0; j < n; j++) bytes += prim_size(ts[j]);
    return bytes;
}

/* A SegScan: the scan kernel, and when the Screma also reduces, the
 * second kernel of a SegRed over the scan groups' partial results. A
 * segmented scan scans all the elements of its nest at once, with
 * segments of rt_m elements (at least 1, so that an empty scan divides
 * by nothing). */
static void seg_scan(Emit *E, const Stm *s) {
    const SegInfo *g = s->e->seg;
    const Screma *sc = &scan_stm(g)->e->screma;
    bool seg = g->depth > 1;
    int nv;
    PrimType *ts = op_types(E, sc->scans, sc->nscans, &nv);
    ScanReds rd = {0};
    rd.ts = op_types(E, sc->reds, sc->nreds, &rd.nr);
    rd.staged = rd.nr && !all_commutative(sc->reds, sc->nreds);
    int nloc = nv + (rd.staged ? rd.nr : 0);
    PrimType *lts = NEW_ARRAY(E->a, PrimType, nloc + 1);
    COPY_ARRAY(lts, ts, nv);
    COPY_ARRAY(lts + nv, rd.ts, nloc - nv);
    declare_results(E, s);
    Kern k;
    kern_begin(E, &k, s, "segscan");
    int P = new_param(E, arena_printf(E->a, "segscan_%d.group_size", k.id));
    host_launch_begin(E, &k);
    ce_line(E, "int64_t rt_n = %s;", space_size(E, g, g->depth));
    if (seg) ce_line(E, "int64_t rt_m = %s > 0 ? %s : 1;", ce_se(E, sc->w), ce_se(E, sc->w));
    ce_line(E, "int64_t rt_g = rt_cl_fit_group(rt_cl_group_size_or(%d, RT_CL_SCAN_GROUP_SIZE), %d);", P,
            value_bytes(lts, nloc) * SCAN_ELEMS + value_bytes(ts, nv) + value_bytes(rd.ts, rd.nr) + seg);
    ce_line(E, "int64_t rt_groups = (rt_n + rt_g * %d - 1) / (rt_g * %d);", SCAN_ELEMS, SCAN_ELEMS);
    ce_line(E, "if (rt_groups < 1) rt_groups = 1;");
    /* The state block: the group counter, then the status words. */
    int W = status_words(ts, nv);
    ce_line(E, "rt_dblock *rt_state = rt_dblock_new(ctx, dpool, 8 * (rt_groups * %d + 1));", W);
    ce_line(E, "if (!rt_state || rt_cl_zero(ctx, rt_state, 8 * (rt_groups * %d + 1))) goto fail;", W);
    host_partials(E, rd.ts, rd.nr);
    kern_free_args(E, &k, "rt_groups * rt_g");
    kern_extra(E, &k, "long rt_n", "int64_t", "rt_n");
    if (seg) kern_extra(E, &k, "long rt_m", "int64_t", "rt_m");
    kern_extra_mem(E, &k, "volatile __global ulong *rt_state", "rt_state");
    kern_partials(E, &k, rd.ts, rd.nr);
    /* Padded (RT_PAD, runtime/kernels.cl): a work-item's consecutive
     * elements are in different banks. */
    local_arrays(E, &k, lts, nloc, arena_printf(E->a, "rt_g * %d + rt_g * %d / 32 + 1", SCAN_ELEMS, SCAN_ELEMS));
    for (int j = 0; j < nv; j++)
        kern_extra_local(E, &k, arena_printf(E->a, "__local %s *rt_tot%d", ctype(ts[j]), j),
                         arena_printf(E->a, "(size_t)rt_g * sizeof(%s)", ctype(ts[j])));
    for (int j = 0; j < rd.nr; j++)
        kern_extra_local(E, &k, arena_printf(E->a, "__local %s *rt_red%d", ctype(rd.ts[j]), j),
                         arena_printf(E->a, "(size_t)rt_g * sizeof(%s)", ctype(rd.ts[j])));
    if (seg) kern_extra_local(E, &k, "__local uchar *rt_totf", "(size_t)rt_g");
    ce_line(E, "if (rt_cl_launch(ctx, %d, rt_groups, rt_g)) goto fail;", k.id);
    ce_line(E, "rt_dblock_release(rt_state);");
    ce_line(&k.K, "volatile __global int *rt_counter = (volatile __global int *)rt_state;");
    ce_line(&k.K, "volatile __global ulong *rt_status = rt_state + 1;");
    scan_kernel(&k, ts, nv, &rd);
    kern_end(E, &k);
    if (rd.nr) red_final(E, s, rd.ts, rd.nr, nv);
    host_launch_end(E, &k);
}

/* ---- SegHist ----------------------------------------------------------------------------------- */

/* The native atomic function for op on type t, or NULL. */
static const char *native_atomic(const SegOp *op, PrimType t) {
    PrimClass c = prim_class(t);
    if (c != PC_SIGNED && c != PC_UNSIGNED) return NULL;
    bool wide = prim_size(t) == 8;
    switch (ir_lambda_binop(op->op, 0, 1)) {
    case OP_ADD: return wide ? "atom_add" : "atomic_add";
    case OP_MIN: return wide ? "atom_min" : "atomic_min";
    case OP_MAX: return wide ? "atom_max" : "atomic_max";
    case OP_AND: return wide ? "atom_and" : "atomic_and";
    case OP_OR: return wide ? "atom_or" : "atomic_or";
    case OP_XOR: return wide ? "atom_xor" : "atomic_xor";
    default: return NULL;
    }
}

/* The reinterpretation function of OpenCL for type t ("as_float"). */
static const char *as_fn(PrimType t) {
    switch (t) {
    case PT_I32: return "as_int";
    case PT_U32: return "as_uint";
    case PT_F32: return "as_float";
    case PT_I64: return "as_long";
    case PT_U64: return "as_ulong";
    case PT_F64: return "as_double";
    default: return NULL;
    }
}

/* Combines val into *addr (space "__global" or "__local") atomically. */
static void atomic_combine(Emit *K, const SegOp *op, const char *space, const char *addr, const char *val) {
    PrimType t = op->op->params[0]->type.elem;
    const char *nat = native_atomic(op, t);
    bool wide = prim_size(t) == 8;
    if (prim_class(t) == PC_FLOAT && ir_lambda_binop(op->op, 0, 1) == OP_ADD) {
        ce_line(K, "rt_fadd_%s_%s((volatile %s %s *)(%s), %s);", strcmp(space, "__local") ? "global" : "local",
                prim_name(t), space, ctype(t), addr, val);
        return;
    }
    if (nat) {
        const char *pt = prim_class(t) == PC_SIGNED ? (wide ? "long" : "int") : (wide ? "ulong" : "uint");
        ce_line(K, "%s((volatile %s %s *)(%s), (%s)(%s));", nat, space, pt, addr, pt, val);
        return;
    }
    const char *u = wide ? "ulong" : "uint";
    ce_line(K, "{");
    K->indent++;
    ce_line(K, "volatile %s %s *rt_p = (volatile %s %s *)(%s);", space, u, space, u, addr);
    ce_line(K, "%s rt_old = *rt_p, rt_seen;", u);
    ce_line(K, "%s rt_new;", ctype(t));
    ce_line(K, "do {");
    K->indent++;
    ce_line(K, "rt_seen = rt_old;");
    const char *x = arena_printf(K->a, "%s(rt_seen)", as_fn(t));
    const char *dst = "rt_new";
    apply_op(K, op, &x, &val, &dst);
    ce_line(K, "rt_old = %s(rt_p, rt_seen, %s(rt_new));", wide ? "atom_cmpxchg" : "atomic_cmpxchg",
            wide ? "as_ulong" : "as_uint");
    K->indent--;
    ce_line(K, "} while (rt_old != rt_seen);");
    K->indent--;
    ce_line(K, "}");
}

/* Adds value v to bucket ix (C expressions) of h's destination. */
static void hist_update(Emit *K, const Hist *h, const char *ix, const char *v) {
    const Var *d = h->dests[0];
    ce_line(K, "if (%s >= 0 && %s < rt_bins) {", ix, ix);
    K->indent++;
    ce_line(K, "if (rt_use_local) {");
    K->indent++;
    atomic_combine(K, &h->op, "__local", arena_printf(K->a, "&rt_lh[%s]", ix), v);
    K->indent--;
    ce_line(K, "} else {");
    K->indent++;
    Sym *is = sym_var(K->a, ce_counter(K, "bucket"));
    ce_line(K, "int64_t %s = %s;", ce_sym(K, is), ix);
    atomic_combine(K, &h->op, "__global",
                   arena_printf(K->a, "&%s", ce_elem_at(K, ce_arr_base(K, d), d->mem->ixfun, &is)), v);
    K->indent--;
    ce_line(K, "}");
    K->indent--;
    ce_line(K, "}");
}

static void res_hist_atomic(Emit *K, const Body *b, void *ctx) {
    hist_update(K, ctx, ce_se(K, b->res[0]), ce_se(K, b->res[1]));
}

static void combine_hist(Emit *K, const Stm *s, const char **vals, void *ctx) {
    hist_update(K, &s->e->hist, vals[0], vals[1]);
}

static void seg_hist(Emit *E, const Stm *s) {
    const Hist *h = &s->e->hist;
    PrimType t = h->op.op->params[0]->type.elem;
    Kern k;
    kern_begin(E, &k, s, "seghist");
    int P = new_param(E, arena_printf(E->a, "seghist_%d.group_size", k.id));
    int PN = new_param(E, arena_printf(E->a, "seghist_%d.num_groups", k.id));
    host_launch_begin(E, &k);
    ce_line(E, "int64_t rt_n = %s, rt_bins = %s;", ce_se(E, h->w), ce_se(E, h->dest_w));
    ce_line(E, "int64_t rt_g = rt_cl_group_size(%d), rt_groups = rt_cl_num_groups(%d, rt_n, rt_g);", P, PN);
    ce_line(E, "int rt_use_local = %s && rt_bins > 0 && rt_bins * %d <= rt_cl_local_budget();",
            prim_size(t) == 4 ? "1" : "0", prim_size(t));
    kern_free_args(E, &k, "rt_groups * rt_g");
    kern_extra(E, &k, "long rt_n", "int64_t", "rt_n");
    kern_extra(E, &k, "long rt_bins", "int64_t", "rt_bins");
    kern_extra(E, &k, "int rt_use_local", "int", "rt_use_local");
    kern_extra_local(E, &k, arena_printf(E->a, "__local %s *rt_lh", ctype(t)),
                     arena_printf(E->a, "(size_t)(rt_use_local ? rt_bins : 1) * %d", prim_size(t)));
    ce_line(E, "if (rt_cl_launch(ctx, %d, rt_groups, rt_g)) goto fail;", k.id);
    host_launch_end(E, &k);

    Emit *K = &k.K;
    ce_line(K, "long rt_tid = get_global_id(0), rt_nthreads = get_global_size(0);");
    ce_line(K, "int rt_ltid = get_local_id(0), rt_lsize = get_local_size(0);");
    kern_prologue(&k, "rt_tid");
    ce_line(K, "if (rt_use_local) {");
    ce_line(K, "    for (long rt_b = rt_ltid; rt_b < rt_bins; rt_b += rt_lsize) rt_lh[rt_b] = %s;",
            ce_se(K, h->op.neutral[0]));
    ce_line(K, "    barrier(CLK_LOCAL_MEM_FENCE);");
    ce_line(K, "}");
    PrimType hts[2] = {PT_I64, t};
    strided_steps(K, GLOBAL_STRIDE, s, h->lam, h->arrs, h->iter, hts, 2, combine_hist, NULL);
    open_rest(K, GLOBAL_STRIDE);
    ce_line(K, "int64_t %s = rt_i;", ce_name(K, h->iter));
    ce_bind_rows(K, h->lam, h->arrs, h->iter);
    ce_body(K, h->lam->body, res_hist_atomic, (void *)h, NULL, 0);
    close_rest(K);
    ce_line(K, "if (rt_use_local) {");
    K->indent++;
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    ce_line(K, "for (long rt_b = rt_ltid; rt_b < rt_bins; rt_b += rt_lsize) {");
    K->indent++;
    const Var *d = h->dests[0];
    int bc = ce_counter(K, "b");
    Sym *bs = sym_var(K->a, bc);
    ce_line(K, "int64_t %s = rt_b;", ce_sym_name(bc, K));
    atomic_combine(K, &h->op, "__global", arena_printf(K->a, "&%s", ce_elem_at(K, ce_arr_base(K, d), d->mem->ixfun, &bs)),
                   "rt_lh[rt_b]");
    K->indent--;
    ce_line(K, "}");
    K->indent--;
    ce_line(K, "}");
    kern_end(E, &k);
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

/* ---- Block-tiled SegMap ------------------------------------------------------------------------ */

/* A tiled group is TILE_SIDE_Y x TILE_SIDE_X work-items, each computing
 * TILE_REG x TILE_REG points of the space in registers; a group's block
 * is tile_block(0) x tile_block(1) points. Its rows and columns read TILE_K elements of
 * their reduction's rows at a time from local memory, where the group
 * stages them: every element read from global memory serves BLOCK
 * points, and every local read TILE_REG of them. A work-item's points in
 * one direction are runs of TILE_RUN neighbours, side * TILE_RUN
 * apart, so that neighbouring work-items read neighbouring local words
 * (no bank conflicts) and a run can be one vector load. Staged rows are
 * padded by TILE_PAD elements against bank conflicts when they are
 * stored. Sizes for a GPU with 64K registers and 48 KiB+ of local memory
 * per compute unit (NVIDIA, AMD): 256 work-items, 34 KiB of local memory
 * per f32 matrix product (two stages). On an H100 ptxas gives each
 * work-item 231 registers, so one group runs per multiprocessor (fewer
 * registers by unrolling less, or stages of 8 or 32, were slower; groups
 * of 16 x 8 or 8 x 16 work-items, blocks of 128 x 64 or 64 x 128, took
 * 255 registers and 6.0 / 5.8 ms against 4.9 ms for 4096^3). */
#define TILE_SIDE_Y 16
#define TILE_SIDE_X 16
#define TILE_REG 8
#define TILE_RUN 4
#define TILE_K 16
#define TILE_PAD 4
#define TILE_THREADS (TILE_SIDE_Y * TILE_SIDE_X)
/* Inputs of fewer elements than this have every in-bounds LMAD index,
 * and each term of it, in the range of a 32-bit int. */
#define TILE_NARROW_MAX 2147483647LL

/* Points of a group's block along level l (0: rows, 1: columns). */
static int tile_block(int l) { return (l ? TILE_SIDE_X : TILE_SIDE_Y) * TILE_REG; }

/* Elements of one stage of an input of level l in local memory; there
 * are two stages per input, one computed on while the next is stored. */
static int tile_stage(int l) { return TILE_K * (tile_block(l) + TILE_PAD); }

/* Elements of a stage of an input of level l that each work-item loads. */
static int tile_per(int l) { return tile_block(l) * TILE_K / TILE_THREADS; }

/* The offset in a group's block of a work-item's point r (coordinate
 * rt_t<axis> of the work-item), a C expression. */
static const char *tile_offset(Emit *K, char axis, int r) {
    int side = axis == 'x' ? TILE_SIDE_X : TILE_SIDE_Y;
    return arena_printf(K->a, "%d + rt_t%c * %d", (r / TILE_RUN) * side * TILE_RUN + r % TILE_RUN, axis, TILE_RUN);
}

/* Whether neighbour work-items load neighbour elements of input arr
 * along its reduction dimension (when that has unit stride) rather than
 * along its rows. */
static bool tile_along_k(const Var *arr) {
    int64_t unit;
    return sym_is_const(arr->mem->ixfun->dims[0].stride, &unit) && unit == 1;
}

/* The position (rt_kk, rt_rr) in a stage of input arr (of level l) of
 * the work-item's element e. */
static void tile_place(Emit *K, const Var *arr, int l, int e) {
    ce_line(K, "int rt_x = rt_ltid + %d;", e * TILE_THREADS);
    if (tile_along_k(arr)) ce_line(K, "int rt_kk = rt_x %% %d, rt_rr = rt_x / %d;", TILE_K, TILE_K);
    else ce_line(K, "int rt_rr = rt_x %% %d, rt_kk = rt_x / %d;", tile_block(l), tile_block(l));
}

/* Where input arr (the j-th) of a tiled map-reduce comes from: the rows
 * of level l with iterator iter and width n, from base (the group's first
 * row), of reduction width w (C expressions). */
typedef struct TileFetch {
    const Var *arr;
    int j, l;
    const Var *iter;
    const char *base, *n, *w;
} TileFetch;

/* A variable of an index expression in 32-bit arithmetic. */
static const char *narrow_name(int id, void *ctx) {
    Emit *K = ctx;
    return arena_printf(K->a, "(int)%s", ce_sym_name(id, K));
}

/* Element e of the work-item's share of a stage of input f->arr (from
 * k0) into rt_g<j>_<e>, zero outside the input. Narrow: the address in
 * 32-bit arithmetic (valid when the input's block has fewer than
 * TILE_NARROW_MAX elements). */
static void tile_fetch_one(Emit *K, const TileFetch *f, const char *k0, int e, int kg, bool narrow) {
    const Var *arr = f->arr;
    const char *it = ce_name(K, f->iter), *kn = ce_sym_name(kg, K);
    tile_place(K, arr, f->l, e);
    ce_line(K, "rt_g%d_%d = 0;", f->j, e);
    ce_line(K, "if (%s + rt_rr < %s && %s + rt_kk < %s) {", f->base, f->n, k0, f->w);
    K->indent++;
    Sym *kk = sym_var(K->a, kg);
    const char *at;
    if (narrow) {
        ce_line(K, "int %s = (int)(%s + rt_rr), %s = (int)(%s + rt_kk);", it, f->base, kn, k0);
        Buf b = {0};
        sym_print_c_as(&b, lmad_index(K->a, arr->mem->ixfun, &kk), narrow_name, K, "int");
        at = arena_printf(K->a, "%s[%s]", ce_arr_base(K, arr), b.data);
        buf_free(&b);
    } else {
        ce_line(K, "int64_t %s = %s + rt_rr, %s = %s + rt_kk;", it, f->base, kn, k0);
        at = ce_elem_at(K, ce_arr_base(K, arr), arr->mem->ixfun, &kk);
    }
    ce_line(K, "rt_g%d_%d = %s;", f->j, e, at);
    K->indent--;
    ce_line(K, "}");
}

/* Loads the work-item's share of a stage of input f->arr into registers
 * rt_g<j>_<e>: tile_block rows times TILE_K elements from k0, zero
 * outside. All loads are issued before any is used, and a stage is
 * loaded while the previous one is being computed on. The addresses are
 * computed in 32 bits when the host found every input small enough
 * (rt_narrow, uniform): on an H100 that took matmul from 4.85 to 3.89 ms. */
static void tile_fetch(Emit *K, const TileFetch *f, const char *k0) {
    int kg = ce_counter(K, "rt_kg");
    for (int e = 0; e < tile_per(f->l); e++) {
        ce_line(K, "if (rt_narrow) {");
        K->indent++;
        tile_fetch_one(K, f, k0, e, kg, true);
        K->indent--;
        ce_line(K, "} else {");
        K->indent++;
        tile_fetch_one(K, f, k0, e, kg, false);
        K->indent--;
        ce_line(K, "}");
    }
}

/* Stores the registers of input arr (j, of level l) into stage rt_at (0
 * or 1) of rt_tile<j>: element (row rr, kk) at [kk][rr]. */
static void tile_store(Emit *K, const Var *arr, int j, int l) {
    for (int e = 0; e < tile_per(l); e++) {
        ce_line(K, "{");
        K->indent++;
        tile_place(K, arr, l, e);
        ce_line(K, "rt_tile%d[rt_at * %d + rt_kk * %d + rt_rr] = rt_g%d_%d;", j, tile_stage(l), tile_block(l) + TILE_PAD,
                j, e);
        K->indent--;
        ce_line(K, "}");
    }
}

/* The body of a loop over rt_kk (left open by the caller, closed here):
 * reads each work-item's elements of element rt_kk of stage rt_at
 * and folds them into its points' accumulators accs[r][c]. */
static void tile_fold(Emit *K, const SegInfo *g, const char ****accs) {
    const Stm *red = g->tile;
    const Screma *rc = &red->e->screma;
    K->indent++;
    for (int j = 0; j < rc->narrs; j++) {
        int l = g->tile_level[j];
        for (int r = 0; r < TILE_REG; r++)
            ce_line(K, "%s rt_f%d_%d = rt_tile%d[rt_at * %d + rt_kk * %d + %s];", ctype(rc->arrs[j]->type.elem), j, r,
                    j, tile_stage(l), tile_block(l) + TILE_PAD, tile_offset(K, l ? 'x' : 'y', r));
    }
    int nv;
    PrimType *ts = op_types(K, rc->reds, rc->nreds, &nv);
    const char **vals = names_of(K, "rt_m%d", nv);
    for (int r = 0; r < TILE_REG; r++)
        for (int c = 0; c < TILE_REG; c++) {
            ce_line(K, "{");
            K->indent++;
            for (int j = 0; j < rc->narrs; j++)
                ce_declare(K, rc->map->params[j],
                           arena_printf(K->a, "rt_f%d_%d", j, g->tile_level[j] ? c : r));
            declare_vals(K, "rt_m%d", ts, NULL, nv);
            StoreCtx x = {red, nv, vals, 0, NULL, NULL};
            ce_body(K, rc->map->body, res_store, &x, NULL, 0);
            combine_reds(K, red, vals, accs[r][c]);
            K->indent--;
            ce_line(K, "}");
        }
    K->indent--;
    ce_line(K, "}");
}

/* The kernel's steps over the reduction, one barrier each: load the next
 * stage of every input into registers, fold the current one (in local
 * memory) into each point's accumulators accs[r][c], and store the next
 * one in the other half of local memory. */
static void tile_steps(Emit *K, const SegInfo *g, const char ****accs) {
    const Stm *red = g->tile;
    const Screma *rc = &red->e->screma;
    const char *width[2] = {ce_se(K, level_width(g->levels[0])), ce_se(K, level_width(g->levels[1]))};
    const char *wk = ce_se(K, rc->w);
    for (int j = 0; j < rc->narrs; j++)
        for (int e = 0; e < tile_per(g->tile_level[j]); e++)
            ce_line(K, "%s rt_g%d_%d;", ctype(rc->arrs[j]->type.elem), j, e);
    TileFetch *fetch = NEW_ARRAY(K->a, TileFetch, rc->narrs);
    for (int j = 0; j < rc->narrs; j++) {
        int l = g->tile_level[j];
        fetch[j] = (TileFetch){rc->arrs[j], j, l, g->levels[l]->e->screma.iter, l ? "rt_x0" : "rt_y0", width[l], wk};
        tile_fetch(K, &fetch[j], "0");
    }
    ce_line(K, "int rt_at = 0;");
    for (int j = 0; j < rc->narrs; j++) tile_store(K, rc->arrs[j], j, fetch[j].l);
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    ce_line(K, "for (long rt_k0 = 0; rt_k0 < %s; rt_k0 += %d) {", wk, TILE_K);
    K->indent++;
    for (int j = 0; j < rc->narrs; j++) tile_fetch(K, &fetch[j], arena_printf(K->a, "rt_k0 + %d", TILE_K));
    ce_line(K, "int rt_kn = %s - rt_k0 < %d ? (int)(%s - rt_k0) : %d;", wk, TILE_K, wk, TILE_K);
    ce_line(K, "if (rt_kn == %d) {", TILE_K);
    K->indent++;
    ce_line(K, "#pragma unroll");
    ce_line(K, "for (int rt_kk = 0; rt_kk < %d; rt_kk++) {", TILE_K);
    tile_fold(K, g, accs);
    K->indent--;
    ce_line(K, "} else {");
    K->indent++;
    ce_line(K, "for (int rt_kk = 0; rt_kk < rt_kn; rt_kk++) {");
    tile_fold(K, g, accs);
    K->indent--;
    ce_line(K, "}");
    ce_line(K, "rt_at = 1 - rt_at;");
    for (int j = 0; j < rc->narrs; j++) tile_store(K, rc->arrs[j], j, fetch[j].l);
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    K->indent--;
    ce_line(K, "}");
}

/* A block-tiled SegMap (SegInfo.tile): one group per tile_block(0) x
 * tile_block(1) block of the two-level space, with the map-reduce's
 * accumulators in registers; then each point runs the rest of the inner
 * body and stores its results. The accumulation may contract a multiply
 * and an add into one fused operation (FP_CONTRACT ON): the order of the
 * reduction is kept, its rounding may differ from the C backend's. */
static void seg_map_tiled(Emit *E, const Stm *s) {
    const SegInfo *g = s->e->seg;
    const Stm *red = g->tile, *inner = g->levels[1];
    const Screma *rc = &red->e->screma;
    Kern k;
    kern_begin(E, &k, s, "segmap_tiled");
    host_launch_begin(E, &k);
    ce_line(E, "int32_t rt_narrow = 1;");
    for (int j = 0; j < rc->narrs; j++)
        ce_line(E, "rt_narrow &= rt_cl_block_size(%s) / %d < %lld;", ce_name(E, rc->arrs[j]->mem->mem),
                prim_size(rc->arrs[j]->type.elem), TILE_NARROW_MAX);
    ce_line(E, "int64_t rt_gx = ((int64_t)%s + %d) / %d, rt_gy = ((int64_t)%s + %d) / %d;",
            ce_se(E, level_width(inner)), tile_block(1) - 1, tile_block(1), ce_se(E, level_width(s)), tile_block(0) - 1,
            tile_block(0));
    kern_free_args(E, &k, arena_printf(E->a, "rt_gx * rt_gy * %d", TILE_THREADS));
    kern_extra(E, &k, "int rt_narrow", "int32_t", "rt_narrow");
    ce_line(E, "if (rt_cl_launch(ctx, %d, rt_gx * rt_gy, %d)) goto fail;", k.id, TILE_THREADS);
    host_launch_end(E, &k);

    /* The group size is fixed: the compiler may give each work-item the
     * registers its accumulators need. */
    k.attrs = arena_printf(E->a, "__attribute__((reqd_work_group_size(%d, 1, 1))) ", TILE_THREADS);
    Emit *K = &k.K;
    K->contract = true;
    ce_line(K, "#pragma OPENCL FP_CONTRACT ON");
    for (int j = 0; j < rc->narrs; j++)
        ce_line(K, "__local %s rt_tile%d[%d] __attribute__((aligned(16)));", ctype(rc->arrs[j]->type.elem), j,
                2 * tile_stage(g->tile_level[j]));
    const char *wy = ce_se(K, level_width(s)), *wx = ce_se(K, level_width(inner));
    ce_line(K, "int rt_ltid = get_local_id(0), rt_ty = rt_ltid / %d, rt_tx = rt_ltid %% %d;", TILE_SIDE_X,
            TILE_SIDE_X);
    ce_line(K, "long rt_gx = (%s + %d) / %d, rt_gid = get_group_id(0);", wx, tile_block(1) - 1, tile_block(1));
    ce_line(K, "long rt_y0 = rt_gid / rt_gx * %d, rt_x0 = rt_gid %% rt_gx * %d;", tile_block(0), tile_block(1));
    kern_prologue(&k, "get_global_id(0)");
    const char ****accs = NEW_ARRAY(K->a, const char ***, TILE_REG);
    for (int r = 0; r < TILE_REG; r++) {
        accs[r] = NEW_ARRAY(K->a, const char **, TILE_REG);
        for (int c = 0; c < TILE_REG; c++) accs[r][c] = ce_declare_accs(K, rc->reds, rc->nreds, NULL, true);
    }
    tile_steps(K, g, accs);
    const Body *b = inner->e->screma.map->body;
    for (int r = 0; r < TILE_REG; r++)
        for (int c = 0; c < TILE_REG; c++) {
            const char *y = tile_offset(K, 'y', r), *x = tile_offset(K, 'x', c);
            ce_line(K, "if (rt_y0 + %s < %s && rt_x0 + %s < %s) {", y, wy, x, wx);
            K->indent++;
            ce_line(K, "int64_t %s = rt_y0 + %s, %s = rt_x0 + %s;", ce_name(K, s->e->screma.iter), y,
                    ce_name(K, inner->e->screma.iter), x);
            for (int j = 0; j < red->npat; j++) ce_declare(K, red->pat[j], accs[r][c][j]);
            for (int i = 1; i < b->nstms; i++) ce_stm(K, b->stms[i]);
            CeScremaCtx o = {inner, NULL, NULL};
            ce_res_screma(K, b, &o);
            K->indent--;
            ce_line(K, "}");
        }
    ce_line(K, "rt_next: ;");
    kern_end(E, &k);
}

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
