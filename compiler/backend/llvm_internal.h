/* What the two files of the LLVM backend share: llvm.c makes the module
 * (from the runtime's bitcode), the entry points' table, main, and the
 * object file; llvm_code.c translates Imp's code, expressions and
 * statements, into the function being built. */
#ifndef FUTHORC_BACKEND_LLVM_INTERNAL_H
#define FUTHORC_BACKEND_LLVM_INTERNAL_H

#include <llvm-c/Core.h>

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
    VEC(LVar) vars;      /* by variable id */
    int next_id;         /* ids of the backend's own variables */
} L;

/* The LLVM type of a scalar of type t (bool is i1; in memory, i8). */
LLVMTypeRef l_type(L *l, PrimType t);
/* A call of the runtime bitcode's function name (ICE when it lacks it),
 * with the argument attributes (sign and zero extension) it declares. */
LLVMValueRef l_call(L *l, const char *name, LLVMValueRef *args, int n);
/* Translates code c into the function being built, at the builder. */
void l_code(L *l, const ImpCode *c);
/* The slot of variable v, made at its first declaration in the function. */
LVar *l_declare(L *l, const ImpVar *v);
/* A fresh stack slot of type ty in the function's entry block. */
LLVMValueRef l_slot(L *l, LLVMTypeRef ty, const char *name);

#endif
