/* The printer of Imp as C that the C backend (c.c) and the OpenCL
 * backend's host code and kernels (opencl.c, opencl_kernel.c) share:
 * names, constants, expressions, control flow, calls and functions, loops
 * over LMAD layouts, host blocks, failures of host code, and the parts of
 * an entry's results that do not depend on where blocks live. A target
 * (CTarget) says how its blocks look and prints the statements and
 * expressions that are its own (device blocks, kernels, arguments and
 * results).
 *
 * Names: a variable is the C variable <name>_<id> (characters C does not
 * allow in a name become _, and a name that does not start with a letter
 * gets a v in front); the printer's own variables (loop counters, call
 * results) are <base>_<id> with ids after the program's. */
#ifndef FUTHORC_BACKEND_CPRINT_H
#define FUTHORC_BACKEND_CPRINT_H

#include "cshared.h"

typedef struct CPrint CPrint;

typedef struct CTarget {
    /* The C declaration of block variable mem ("rt_block *mem_3"). */
    const char *(*block_decl)(CPrint *C, const ImpVar *mem);
    /* The elements of type t of block mem as a C array
     * ("((float *)mem_3->data)"). */
    const char *(*base)(CPrint *C, const ImpVar *mem, PrimType t);
    /* Prints statement i of c when the target prints it itself; returns
     * how many statements it printed, 0 to leave it to the shared printer. */
    int (*stm)(CPrint *C, const ImpCode *c, int i);
    /* An expression the target prints itself, or NULL to leave it to the
     * shared printer. */
    const char *(*exp)(CPrint *C, const ImpExp *e);
} CTarget;

struct CPrint {
    Buf *out;
    Arena *a;
    const ImpProg *p;
    const CTarget *t;
    void *ctx;               /* the target's state */
    VEC(const char *) names; /* by variable id: its C name */
    VEC(char) narrow;        /* by variable id: an i32 scalar (widened in
                                Syms of i64 arithmetic) */
    int next_id;             /* ids of the printer's own variables */
    int indent;
    const ImpFun *fun;       /* the function being printed, or NULL */
    bool contract;           /* float +, - and * as C operators (in a
                                kernel that may contract them) */
};

void cp_init(CPrint *C, Buf *out, Arena *a, const ImpProg *p, const CTarget *t, void *ctx);
void cp_fini(CPrint *C);

/* ---- Names and expressions ---- */
void cp_line(CPrint *C, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *cp_name(CPrint *C, const ImpVar *v);
/* A fresh variable of the printer's, named base_<id> (*id gets its id). */
const char *cp_fresh(CPrint *C, const char *base, int *id);
const char *cp_exp(CPrint *C, const ImpExp *e);
const char *cp_sym(CPrint *C, const Sym *s);
/* "file:line:col: " of a failure, or nothing. */
const char *cp_loc(CPrint *C, SrcLoc loc);
/* "int32_t x_3", or the target's declaration of a block. */
const char *cp_decl(CPrint *C, const ImpVar *v);
/* A host block's declaration and elements (rt_block, runtime/memory.h). */
const char *cp_host_block_decl(CPrint *C, const ImpVar *mem);
const char *cp_host_base(CPrint *C, const ImpVar *mem, PrimType t);

/* ---- Statements ---- */
void cp_code(CPrint *C, const ImpCode *c);
/* Loops over dl's shape that set each element of dbase (a C array)
 * through dl to the element of sbase through sl, or to the C value sval
 * when sbase is NULL. Dimensions the layouts lay out contiguously alike
 * share one loop, so a copy of a row-major array of any rank is one loop
 * (a loop per dimension made the code of nested array literals cubic in
 * their depth). */
void cp_copy_loops(CPrint *C, const char *dbase, const Lmad *dl, const char *sbase, const Lmad *sl, const char *sval);
/* The printf format of assertion s's message (not yet a C literal),
 * located and with each "{}" (the first max of them) a %lld, into fmt; the arguments it takes, each
 * ", (long long)<arg>", into args (when not NULL). Returns their number. */
int cp_message(CPrint *C, const ImpStm *s, int max, Buf *fmt, Buf *args);
/* After block m of size bytes (C expressions) was allocated for IMP_ALLOC
 * s: when m is NULL, records why at s's location (rt_alloc_failed) and
 * fails. */
void cp_alloc_check(CPrint *C, const ImpStm *s, const char *m, const char *size);
/* "    rt_error(ctx, "out of memory (<what>)");\n    goto fail;" */
void cp_oom(CPrint *C, const char *what);
/* The type, rank and shape of result s in outs[k], and a scalar's value;
 * an array's data is the target's to set. */
void cp_result_head(CPrint *C, const ImpStm *s);

/* ---- Entry points ---- */
/* What a target adds to the functions of an entry point (cp_entry). */
typedef struct CEntry {
    const char *params;    /* futhorc_entry_K's parameters after its pool
                              (", rt_dpool *dpool"), or "" */
    const char *pools;     /* futhorc_run_K: declarations and initialisation
                              of those pools, or "" */
    const char *args;      /* futhorc_run_K: the arguments for them
                              (", &dpool"), or "" */
    const char *free_pools;/* futhorc_run_K: their release, or "" */
    const char *free_out;  /* futhorc_run_K, after a failure: how the data
                              of outs[k] is freed (a statement using k) */
    /* The first and last lines of futhorc_entry_K's body (or NULL). */
    void (*begin)(CPrint *C, const ImpEntry *e);
    void (*end)(CPrint *C, const ImpEntry *e);
} CEntry;

/* Entry point e as futhorc_entry_K(ctx, pool<params>, ins, outs), its
 * body ending at the label fail on a failure, and the rt_entry_fn wrapper
 * futhorc_run_K(ctx, ins, outs), which owns the pools and frees partial
 * outputs after a failure. */
void cp_entry(CPrint *C, const ImpEntry *e, int idx, const CEntry *t);

/* ---- Functions ---- */
/* f as a static C function futhorc_fn_<idx>_<name> that returns its
 * result, or a struct futhorc_fn_<idx>_<name>_res of its results r0, r1,
 * ..., by value (no pointers, so no address spaces in OpenCL C). */
void cp_function(CPrint *C, const ImpFun *f);

#endif
