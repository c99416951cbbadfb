/* The OpenCL backend's internal interface, included only by its files:
 *   opencl.c         the program, the tables of kernels, tuning parameters
 *                    and failures, and the printer of host code (Imp);
 *   opencl_kernel.c  Imp kernels and functions as OpenCL C. */
#ifndef FUTHORC_BACKEND_OPENCL_INTERNAL_H
#define FUTHORC_BACKEND_OPENCL_INTERNAL_H

#include "cprint.h"

/* The program's OpenCL: its kernels' source and the tables the runtime
 * reads (rt_cl_program_info). */
typedef struct ClEmit {
    Buf src;                    /* OpenCL C of the generated kernels */
    VEC(const char *) kernels;  /* kernel names by index */
    VEC(const char *) fails;    /* failure formats by id */
    VEC(const char *) params;   /* tuning parameter names */
    char *kernel_fns;           /* by function index: kernel code calls it */
} ClEmit;

/* ---- Tables (opencl.c) ---- */

/* Each returns the new entry's index. */
int cl_new_kernel(ClEmit *cl, const char *name);
int cl_new_param(ClEmit *cl, const char *name);
/* fmt: a failure's printf format (RT_CL_FAIL_ARGS long long arguments at most). */
int cl_new_failure(ClEmit *cl, const char *fmt);
/* The most arguments a failure in a kernel records (runtime/opencl.h's
 * RT_CL_FAIL_ARGS). */
#define CL_FAIL_ARGS 8

/* ---- Imp kernels (opencl_kernel.c) ---- */

/* Appends kernel k of p, whose name in the kernel table is name, to cl's
 * source as OpenCL C; with only (a preprocessor condition: a variant's),
 * the source is compiled only where only holds. */
void cl_print_kernel(ClEmit *cl, Arena *a, const ImpProg *p, const ImpKernel *k, const char *name, const char *only);
/* Whether local array l is declared in its kernel (a constant size)
 * rather than sized by the launch. */
bool cl_local_static(const ImpLocal *l);
/* Appends the OpenCL C of the functions that kernel code calls
 * (cl->kernel_fns and their callees), callees first. */
void cl_kernel_functions(ClEmit *cl, Arena *a, const ImpProg *p, Buf *src);

/* The C (and OpenCL C) name of scalar type t. */
static inline const char *ctype(PrimType t) { return prim_ctype(t); }

#endif
