/* The statement emitter of the OpenCL backend (opencl.c, emit.c), from
 * the memory IR straight to C; step 2 of issue 13 replaces it with Imp, as
 * the sequential C backend (c.c) already is. It writes C for a program at
 * STAGE_GPU in one of three modes:
 *   EM_C      - sequential C over host blocks (rt_block *): the SegHost
 *               statements, which run on the host over mapped device memory;
 *   EM_HOST   - OpenCL host code: blocks are rt_dblock * (device buffers), and
 *               array statements and SOACs are handed to opencl.c, which
 *               launches kernels (scalars stay C variables);
 *   EM_KERNEL - OpenCL C inside a kernel: blocks are __global pointers,
 *               nothing is allocated or released, and failures are recorded
 *               for the host and jump to fail_label.
 * Names: a scalar or block Var is the C variable <name>_<id>; arrays have
 * none (they are their block, read through their LMAD). */
#ifndef FUTHORC_BACKEND_EMIT_H
#define FUTHORC_BACKEND_EMIT_H

#include "../ir/ir.h"
#include "cshared.h"

typedef enum EmitMode { EM_C, EM_HOST, EM_KERNEL } EmitMode;

typedef struct ClEmit ClEmit; /* the OpenCL backend's state (opencl.c) */

/* Emitter state. names maps Var ids (and the ids of loop counters the
 * emitter makes, numbered after the program's Vars) to C names. */
typedef struct Emit {
    Buf *out;
    const Prog *p;
    Arena *a;
    VEC(const char *) names;
    int next_id;
    int indent;
    int *mark;       /* by id: 1 + index in the body being scanned, or 0 */
    const Fun *fun;
    EmitMode mode;
    const char *fail_label; /* where a failure jumps: "fail", or a kernel's label */
    ClEmit *cl;             /* EM_HOST and EM_KERNEL */
    bool contract;          /* EM_KERNEL: float +, - and * as C operators, which
                               a kernel with FP_CONTRACT ON may fuse */
} Emit;

/* What to do with a body's results, emitted before its last releases. */
typedef void (*ResFn)(Emit *E, const Body *b, void *ctx);

/* Sets up E over p (names, marks) and frees it. */
void ce_init(Emit *E, Buf *out, const Prog *p, Arena *a, EmitMode mode);
void ce_fini(Emit *E);

/* Emits b's statements, then fn for its results; releases each block bound
 * in b (or in extra) after its last use (not in EM_KERNEL). */
void ce_body(Emit *E, const Body *b, ResFn fn, void *ctx, Var **extra, int nextra);
void ce_stm(Emit *E, const Stm *s);

/* ---- Names and printing ---- */
void ce_set_name(Emit *E, int id, const char *name);
const char *ce_name(Emit *E, const Var *v);
const char *ce_sym_name(int id, void *ctx);
int ce_counter(Emit *E, const char *base);
void ce_line(Emit *E, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *ce_se(Emit *E, SubExp se);
Sym *ce_se_sym(Emit *E, SubExp se);
const char *ce_sym(Emit *E, const Sym *s);
const char *ce_elem_at(Emit *E, const char *base, const Lmad *l, Sym *const *idx);
const char *ce_arr_base(Emit *E, const Var *arr);
const char *ce_loc(Emit *E, SrcLoc loc);
const char *ce_str(Emit *E, const char *s, bool printf_safe);
Lmad *ce_fix_row(Emit *E, const Lmad *l, Sym *i);
void ce_declare(Emit *E, const Var *v, const char *init);
/* After an allocation of size bytes (C expressions) at loc: when block is
 * NULL, records why (runtime/memory.h's rt_alloc_failed) and fails. */
void ce_alloc_check(Emit *E, const char *block, const char *size, SrcLoc loc);

/* ---- Copies and SOAC pieces (sequential code) ---- */
void ce_store(Emit *E, const Var *dmem, const Lmad *dl, SubExp se, PrimType t);
void ce_bind_rows(Emit *E, const Lambda *lam, Var **arrs, const Var *iter);
/* Declares the accumulators of ops set to their neutral elements: C
 * temporaries when temps, else the pattern Vars pat. */
const char **ce_declare_accs(Emit *E, const SegOp *ops, int nops, Var **pat, bool temps);

/* Result handlers of SOAC lambda bodies, at row iter. */
typedef struct CeScremaCtx {
    const Stm *s;
    const char **scan_accs, **red_accs;
} CeScremaCtx;
void ce_res_screma(Emit *E, const Body *b, void *ctx);  /* ctx: CeScremaCtx */
void ce_res_scatter(Emit *E, const Body *b, void *ctx); /* ctx: const Scatter * */

/* ---- Functions and entry points ---- */
/* Function p->defs[idx] as a static C function (OpenCL C in EM_KERNEL)
 * futhorc_fn_<idx>_<name> of its scalar parameters that returns its
 * result, or a struct futhorc_fn_<idx>_<name>_res of its results r0, r1, ... */
void ce_function(Emit *E, int idx);
/* EM_HOST: the functions of E's program (p->defs, callees first), the
 * entry functions futhorc_run_<index> and the rt_entry table
 * futhorc_entries of them. */
void ce_entries(Emit *E);

/* ---- OpenCL hooks (opencl.c) ---- */
/* EM_HOST: copies between LMAD layouts of device blocks (nothing when equal). */
void cl_copy(Emit *E, const Var *dmem, const Lmad *dl, const Var *smem, const Lmad *sl, PrimType t);
/* EM_HOST: emits statement s (an array statement or a SOAC) as device work. */
void cl_host_stm(Emit *E, const Stm *s);
/* EM_HOST: makes the entry's array results dense on the device (so that
 * the device's time includes it), before the host waits for the device;
 * loc (the entry's) is where a failed allocation is reported. */
void cl_manifest(Emit *E, const Body *b, SrcLoc loc);
/* EM_HOST: sets outs[k].data to array v, result k (dense, row-major):
 * a new reference to its device block when the caller keeps arrays on the
 * device (an OpenCL library: ctx->device), else malloc'd host memory
 * holding it. */
void cl_result(Emit *E, const Var *v, int k);
/* EM_KERNEL: records a failed assertion (message and arguments) for the host. */
void cl_kernel_fail(Emit *E, const Stm *s);
/* EM_KERNEL: records that kernel code calls function p->defs[idx], which
 * the kernels' source must then define. */
void cl_kernel_call(Emit *K, int idx);

#endif
