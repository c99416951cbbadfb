/* What the two files of the LLVM backend's vector code share:
 * llvm_simd.c translates a loop body's code with its iterations in the
 * lanes of vector registers (values, loads and stores, expressions,
 * statements, hoisting); llvm_lanes.c makes the loops around it (lanes,
 * the rest one at a time, unroll and jam, blocking) and chooses which
 * loops go in lanes (l_simd_for). */
#ifndef FUTHORC_BACKEND_LLVM_SIMD_H
#define FUTHORC_BACKEND_LLVM_SIMD_H

#include "llvm_internal.h"

/* The most iterations that run at once: four vector registers' worth
 * (L.lanes is one's: 16 floats with AVX-512, else 8). */
#define MAX_LANES 64
/* The most iterations of an outer map that run together (unroll and
 * jam). */
#define MAX_ROWS 8
/* The most loads read from buffers at once (V.buffered). */
#define MAX_BUFFERED 64
/* The most iterations of an inner loop whose loads are hoisted. */
#define HOIST_MAX 64

/* A load read from a buffer instead of memory: element counter - base
 * (counter a variable's id, base a value or NULL: 0) of buf, an array of
 * vectors. */
typedef struct Buffered {
    const ImpExp *load;
    LLVMValueRef buf, base;
    int counter;
} Buffered;

typedef struct V {
    L *l;
    int lanes;           /* the loop's iterations that run at once */
    LLVMValueRef mask;   /* the lanes that run (<lanes x i1>), NULL: all */
    char *inside;        /* by id: declared in the body */
    char *uniform;       /* by id: a counter of an inner for loop, or a
                            variable find_uniform found uniform */
    const ImpStm **lock_of; /* by id: the while loop whose lockstep variable
                               it is (llvm_uniform.c), or NULL */
    char *locked;        /* by id: a lockstep variable whose loop's code is
                            being made, read from its shadow */
    LLVMValueRef *shadow; /* by id: a lockstep variable's scalar slot */
    char *assigned;      /* by id: assigned in the body after its declaration */
    int64_t *stride;     /* by id: how much a varying variable that is never
                            assigned grows from lane to lane, or 0: unknown */
    bool ok;
    /* Unroll and jam: rows iterations of an outer map run together, each
     * in lanes of its own; row is the one whose statements are being
     * made. A variable whose value differs between them (rowvar) has a
     * slot for each (rowslot[id * MAX_ROWS + row]). */
    int rows, row;
    char *rowvar;          /* by id */
    char *stored;          /* by block id: the loop stores to it */
    LLVMValueRef *rowslot;
    /* In a while loop's body (under its mask loop_mask), by id: the
     * variables it may set in every lane, as nothing after the loop reads
     * them (NULL: none). */
    const char *unblended;
    LLVMValueRef loop_mask;
    /* Loads read from buffers: in a blocked loop over k, the shared
     * operand's (packed: each load's elements in the order the loop reads
     * them); in a loop, those it repeats in every iteration (hoisted). */
    Buffered *buffered;
    int nbuffered;
    bool outer_lanes;      /* an inner map's loop is an inner loop like any */
} V;

/* ---- llvm_simd.c ---- */
V new_v(L *l);
/* The slot of variable id (in the row being made). */
LLVMValueRef var_slot(V *v, int id);
/* Marks what code c declares and assigns; clears v->ok at anything
 * vector code does not do (and, scan_exp, at GPU expressions). */
void scan(V *v, const ImpCode *c);
void scan_exp(V *v, const ImpExp *e);
bool is_vec(LLVMValueRef x);
LLVMTypeRef vec_type(V *v, LLVMTypeRef t);
/* x in every lane (x itself when varying). */
LLVMValueRef splat(V *v, LLVMValueRef x);
/* Whether variable id, and expression e, have a value of their own in
 * each lane; how much e grows from lane to lane (0: unknown, or
 * uniform). */
bool varying(V *v, int id);
bool exp_varying(V *v, const ImpExp *e);
int64_t exp_stride(V *v, const ImpExp *e);
/* Whether e reads one of the variables vars, or (when blocks is not
 * NULL) an element of one of the blocks; whether e differs between rows
 * (it reads a row's variable, or a block the loop stores to). */
bool exp_reads(const ImpExp *e, const char *vars, const char *blocks);
bool exp_rowvar(const V *v, const ImpExp *e);
/* The values of vector code: expression e, element e of block mem. */
LLVMValueRef vexp(V *v, const ImpExp *e);
LLVMValueRef vload(V *v, const ImpVar *mem, PrimType t, const ImpExp *e);
/* Declares variable id of scalar type ty: a vector slot when varying. */
LVar *vdeclare(V *v, int id, LLVMTypeRef ty, const char *name);
/* Marks the variables of body (a loop's body that goes in lanes, after
 * scan) that have one value for all lanes that run (llvm_uniform.c). */
void find_uniform(V *v, const ImpCode *body);
/* Sets flags[id] to on for each lockstep variable of while loop w (by
 * lock_of), which w's body assigns at its top level. */
void mark_lockstep(const ImpStm *w, const ImpStm *const *lock_of, char *flags, char on);
/* Translates code c, statement by statement (once for each row where it
 * sets a row's variable or stores). */
void vcode(V *v, const ImpCode *c);
/* The loads to hoist out of loop f (into loads; how many), all of one
 * loop g among the first statements of f's body. */
int hoist_of(V *v, const ImpStm *f, const ImpStm **g, const ImpExp **loads);

#endif
