/* The kernel emitter of the OpenCL backend's segmented operations that
 * Imp does not lower yet (IMP_LEGACY: SegRed, SegScan, SegHist and the
 * block-tiled SegMap; issue 13, step 2b lowers them and deletes this file
 * and emit.c). It writes OpenCL C inside a kernel straight from the memory
 * IR at STAGE_GPU: blocks are __global pointers, nothing is allocated or
 * released, and failures are recorded for the host and jump to
 * fail_label. The host code around those kernels is written as text with
 * the same Emit (ce_line, ce_name, ce_se; never ce_stm), into the host code
 * that the printer of Imp writes (opencl.c).
 * Names: a scalar or block Var is the C variable <name>_<id>, as the
 * printer of Imp names the Imp variable of the same Var; arrays have none
 * (they are their block, read through their LMAD). */
#ifndef FUTHORC_BACKEND_EMIT_H
#define FUTHORC_BACKEND_EMIT_H

#include "../ir/ir.h"
#include "cshared.h"

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
    const char *fail_label; /* where a failure jumps: a kernel's label */
    ClEmit *cl;             /* the program's kernels, failures and parameters */
    bool contract;          /* float +, - and * as C operators, which a kernel
                               with FP_CONTRACT ON may fuse */
} Emit;

/* What to do with a body's results, emitted after its statements. */
typedef void (*ResFn)(Emit *E, const Body *b, void *ctx);

/* Sets up E over p and frees it. */
void ce_init(Emit *E, Buf *out, const Prog *p, Arena *a);
void ce_fini(Emit *E);

/* Emits b's statements, then fn for its results. */
void ce_body(Emit *E, const Body *b, ResFn fn, void *ctx);
void ce_stm(Emit *E, const Stm *s);

/* ---- Names and printing ---- */
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
/* Host code after an allocation of size bytes (C expressions) at loc:
 * when block is NULL, records why (runtime/memory.h's rt_alloc_failed)
 * and fails. */
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

/* ---- OpenCL hooks (opencl_legacy.c) ---- */
/* Records a failed assertion (message and arguments) for the host. */
void cl_kernel_fail(Emit *E, const Stm *s);
/* Records that kernel code calls function p->defs[idx], which the
 * kernels' source must then define. */
void cl_kernel_call(Emit *K, int idx);

#endif
