/* The OpenCL backend's segmented operations that Imp does not lower yet
 * (IMP_LEGACY: SegRed, SegScan, SegHist and the block-tiled SegMap; issue
 * 13, step 2b lowers them and deletes this file with emit.c): cl_legacy
 * writes one such statement of the memory IR as kernels (with the kernel
 * emitter of emit.h) and the host code that launches them, into the host
 * code that the printer of Imp writes. Its host code names variables as
 * the printer does, and shares the program's tables of kernels, tuning
 * parameters and failures (ClEmit). Here are the kernels' signatures and
 * arguments and the operators' code that opencl_seg.c, opencl_scan.c and
 * opencl_tiled.c share. */
#include "opencl_internal.h"

#include <string.h>

int new_param(Emit *E, const char *name) { return cl_new_param(E->cl, name); }

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
    cl_new_kernel(E->cl, arena_printf(E->a, "%s_%d", kind, k->id));
    Buf *body = NEW(E->a, Buf);
    memset(body, 0, sizeof *body);
    ce_init(&k->K, body, E->p, E->a);
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
    ce_body(K, op->op->body, res_assign_dst, &a);
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
/* ---- Failures and calls in kernels ----------------------------------------------------------- */

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
    int id = cl_new_failure(cl, arena_strdup(K->a, fmt.data ? fmt.data : ""));
    buf_free(&fmt);
    ce_line(K, "if (!%s) {", ce_se(K, e->cond));
    ce_line(K, "    if (atomic_cmpxchg((volatile __global int *)rt_fail, -1, %d) == -1) {", id);
    for (int i = 0; i < used; i++) ce_line(K, "        rt_fail[%d] = (long)%s;", i + 1, ce_se(K, e->args[i]));
    ce_line(K, "    }");
    ce_line(K, "    goto %s;", K->fail_label);
    ce_line(K, "}");
}

void cl_kernel_call(Emit *K, int idx) { K->cl->kernel_fns[idx] = 1; }

/* ---- Dispatch ---------------------------------------------------------------------------------- */

void cl_legacy(ClEmit *cl, const Prog *p, Arena *a, Buf *out, int indent, const Stm *s) {
    Emit E;
    ce_init(&E, out, p, a);
    E.cl = cl;
    E.indent = indent;
    const SegInfo *g = s->e->seg;
    switch (g->kind) {
    case SEG_MAP:
        if (!g->tile) ICE("OpenCL backend: an untiled SegMap for the legacy emitter");
        seg_map_tiled(&E, s);
        break;
    case SEG_RED:
        if (g->irregular) seg_segred_lanes(&E, s, arena_printf(a, "%d", SEGRED_LANES_MIN));
        else if (g->depth > 1) seg_segred(&E, s);
        else seg_red(&E, s);
        break;
    case SEG_SCAN: seg_scan(&E, s); break;
    case SEG_HIST: seg_hist(&E, s); break;
    case SEG_SEQ:
    case SEG_HOST: ICE("OpenCL backend: a %s for the legacy emitter", ir_seg_name(g->kind));
    }
    ce_fini(&E);
}
