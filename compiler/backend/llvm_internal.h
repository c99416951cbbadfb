/* What the files of the LLVM backend share: llvm.c makes the module
 * (from the runtime's bitcode), the entry points' table, main, and the
 * object file; llvm_code.c translates Imp's code, expressions and
 * statements, into the function being built, and llvm_simd.c a map's
 * iterations into vector lanes; llvm_jit.c runs a program in the
 * compiler's process (futhorc run). */
#ifndef FUTHORC_BACKEND_LLVM_INTERNAL_H
#define FUTHORC_BACKEND_LLVM_INTERNAL_H

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include "backend.h"

/* How an Imp variable lives in the function being built: a stack slot
 * (an alloca, which LLVM turns into registers) of type ty; a block's slot
 * holds its rt_block *, and data the address of its elements, kept beside
 * it so that loads and stores need not read the block. */
typedef struct LVar {
    LLVMValueRef slot, data;
    LLVMTypeRef ty;
} LVar;

typedef struct L {
    Arena *a;
    const ImpProg *p;
    LLVMContextRef cx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    LLVMTypeRef i1, i8, i32, i64, f32, f64, ptr, vd;
    LLVMValueRef *funs;  /* by ImpFun index */
    /* The function being built: its entry block (where slots go), and in
     * an entry point its parameters and the block a failure jumps to. */
    LLVMValueRef fn;
    LLVMBasicBlockRef entry_bb;
    LLVMValueRef ctx, pool, ins, outs;
    LLVMBasicBlockRef fail;
    const ImpFun *fun;   /* the ImpFun being built, or NULL */
    VEC(LVar *) vars;    /* by variable id (NULL: none yet); an LVar
                            never moves, whatever is declared later */
    int next_id;         /* ids of the backend's own variables */
    int in_task;         /* > 0 while a parallel loop's task is built */
    int streams;         /* streaming stores made so far */
    int lanes;           /* iterations vector code runs at once (llvm_simd.c) */
    bool results_begun;  /* the entry being built wrote a result already */
} L;

/* ---- llvm.c ---- */
/* A target machine for o's CPU (this machine's by default). */
LLVMTargetMachineRef l_target_machine(const LlvmOptions *o);
/* p's module in cx, optimised for tm. */
LLVMModuleRef l_module(const ImpProg *p, const LlvmOptions *o, LLVMContextRef cx, LLVMTargetMachineRef tm);

/* ---- llvm_code.c ---- */
/* The LLVM type of a scalar of type t (bool is i1; in memory, i8). */
LLVMTypeRef l_type(L *l, PrimType t);
LLVMTypeRef l_mem_type(L *l, PrimType t);
/* A call of the runtime bitcode's function name (ICE when it lacks it),
 * with the argument attributes (sign and zero extension) it declares. */
LLVMValueRef l_call(L *l, const char *name, LLVMValueRef *args, int n);
/* Translates code c into the function being built, at the builder. */
void l_code(L *l, const ImpCode *c);
/* The slot of variable v, made at its first declaration in the function. */
LVar *l_declare(L *l, const ImpVar *v);
/* A fresh stack slot of type ty in the function's entry block. */
LLVMValueRef l_slot(L *l, LLVMTypeRef ty, const char *name);
/* The variable of id (made empty on first use; l_lookup: declared). */
LVar *l_var_at(L *l, int id);
LVar *l_lookup(L *l, int id);
LLVMValueRef l_load(L *l, LLVMTypeRef ty, LLVMValueRef slot);
/* The address of element index of type t of block mem; loads and stores
 * of an element there (bools are bytes in memory; stream: by a streaming
 * store, l_nontemporal). */
LLVMValueRef l_elem_ptr(L *l, const ImpVar *mem, PrimType t, LLVMValueRef index);
LLVMValueRef l_load_elem(L *l, PrimType t, LLVMValueRef ptr);
void l_store_elem(L *l, PrimType t, LLVMValueRef ptr, LLVMValueRef v, bool stream);
/* Makes store st a streaming one (LLVM's !nontemporal: its line is
 * neither read first nor kept in the cache). */
void l_nontemporal(L *l, LLVMValueRef st);
LLVMValueRef l_i64(L *l, int64_t c);
LLVMValueRef l_str(L *l, const char *s);
/* Expressions: e's value; a Sym's; operation e (IX_OP) on args, and
 * conversion e (IX_CONV) of x, already computed. */
LLVMValueRef l_exp(L *l, const ImpExp *e);
LLVMValueRef l_sym(L *l, const Sym *s);
LLVMValueRef l_op(L *l, const ImpExp *e, LLVMValueRef *args);
LLVMValueRef l_conv(L *l, const ImpExp *e, LLVMValueRef x);
/* x * y on floats (scalars or vectors), which may fuse with a
 * reassociable addition of the product (l_op). */
LLVMValueRef l_fmul(L *l, LLVMValueRef x, LLVMValueRef y);
/* A call of LLVM intrinsic name (overloaded on types) with args. */
LLVMValueRef l_intrinsic(L *l, const char *name, LLVMTypeRef *types, int ntypes, LLVMValueRef *args, int n);
/* 1 / sqrt x, for f32 scalars and vectors, which may be approximate. */
LLVMValueRef l_rsqrt(L *l, LLVMValueRef x);
/* Control flow: a new block of the function, and continuing in one. */
LLVMBasicBlockRef l_bb(L *l, const char *name);
void l_enter(L *l, LLVMBasicBlockRef bb);
/* for (slot = start; slot + step <= bound; slot += step) body(l, arg),
 * on integers of type ty (start NULL: from the slot's value); bound is
 * evaluated once. */
void l_loop(L *l, LLVMTypeRef ty, LLVMValueRef slot, LLVMValueRef start, LLVMValueRef bound, int64_t step,
            void (*body)(L *l, const void *arg), const void *arg);
/* if (cond) then(l, arg) else orelse(l, arg) (NULL: nothing). */
void l_branch(L *l, LLVMValueRef cond, void (*then)(L *l, const void *arg), void (*orelse)(L *l, const void *arg),
              const void *arg);
/* Fails unless cond: report(l, arg) records the error (NULL: recorded
 * already), then the entry point's (or task's) failure block runs. */
void l_fail_unless(L *l, LLVMValueRef cond, void (*report)(L *l, const void *arg), const void *arg);
/* Records assertion s's failure with its arguments' values vals. */
void l_assert_error(L *l, const ImpStm *s, LLVMValueRef *vals);

/* ---- llvm_simd.c ---- */
/* Translates IMP_FOR s (a loop whose iterations are independent: the
 * elements of a parallel map) with its iterations in the lanes of vector
 * registers, a remainder loop after; false, having made nothing, when
 * its body has what vector code does not do. */
bool l_simd_for(L *l, const ImpStm *s);

#endif
