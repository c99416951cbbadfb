/* The backends: turn a program's Imp (compiler/imp/imp.h) into source
 * code. The sequential C backend (c.c) prints Imp lowered from STAGE_MEM,
 * the OpenCL backend (opencl.c) Imp lowered from STAGE_GPU; both print
 * through cprint.h. The LLVM backend (llvm.c) builds LLVM's module from
 * Imp lowered from STAGE_MEM. */
#ifndef FUTHORC_BACKEND_H
#define FUTHORC_BACKEND_H

#include "../imp/imp.h"
#include "../ir/ir.h"

/* Writes a complete C program for p to out: its main calls rt_main with
 * p's entry points, or rt_server_main (Futhark's server protocol) when
 * server is true. The program is self-contained (runtime included) unless
 * linked_rt: then it has only the runtime's headers, and must be linked
 * with the object compiled from emit_c_runtime's source, which many
 * programs share (compiling the runtime is most of compiling a program). */
void emit_c_program(Buf *out, const ImpProg *p, bool server, bool linked_rt);

/* Writes a complete C program for ip (lowered from STAGE_GPU) that runs
 * its parallel work as OpenCL kernels (compiler/backend/opencl.c); link
 * with -lOpenCL (and the runtime object when linked_rt, as for
 * emit_c_program). */
void emit_opencl_program(Buf *out, const ImpProg *ip, bool server, bool linked_rt);

/* The source of the runtime object of programs emitted with linked_rt:
 * values, server and main (runtime/values.c, server.c, main.c) with the
 * headers they need; the same for both backends. */
void emit_c_runtime(Buf *out);

/* What emit_opencl_program writes except main: the runtime, the entry
 * functions, the table futhorc_entries and the program's OpenCL code
 * (`static const rt_cl_program_info futhorc_cl_info`). */
void emit_opencl_entries(Buf *out, const ImpProg *ip, bool linked_rt);

/* What emit_c_program writes except main: the runtime, the entry functions
 * and the table `static const rt_entry futhorc_entries[]` (p's entry points
 * in order). */
void emit_c_entries(Buf *out, const ImpProg *p, bool linked_rt);

/* Appends the embedded runtime file path ("runtime/library.c") to out,
 * after a comment naming it, without its includes of other runtime files
 * (all of them are in the one translation unit), or without any include
 * (no_includes: OpenCL C, whose headers are implicit). */
void emit_runtime_file(Buf *out, const char *path, bool no_includes);

/* The runtime's enum constant for t ("RT_I32"), allocated in a. */
const char *emit_c_rt_prim(Arena *a, PrimType t);

/* Options of the LLVM backend (llvm.c; the multicore backend). */
typedef struct LlvmOptions {
    bool server;     /* main speaks Futhark's server protocol */
    bool verify;     /* check the module before optimising it (--verify) */
    const char *cpu; /* the CPU to generate code for (an LLVM CPU name);
                        NULL: this machine's, with all its features */
    bool asan;       /* instrument loads and stores for AddressSanitizer
                        (the executable is linked with -fsanitize=address) */
    bool library;    /* no main: the table futhorc_entries is exported, for
                        a library's C source (emit_library) */
} LlvmOptions;

/* Compiles p (lowered from STAGE_MEM) through LLVM, in this process, to
 * the object file obj, which the driver links with the runtime object
 * (embedded as "runtime/llvm/rt.o") into an executable; or, when ir is
 * not NULL, appends the optimised module to ir as LLVM IR text instead.
 * Returns false after a message on stderr. */
bool emit_llvm(const ImpProg *p, const LlvmOptions *o, const char *obj, Buf *ir);

/* Compiles p as emit_llvm does, for this machine, and runs it in this
 * process through LLVM's ORC JIT (llvm_jit.c; futhorc run): its main with
 * argc and argv, as an executable's. Returns main's exit status, or 1
 * after a message on stderr. */
int run_llvm(const ImpProg *p, const LlvmOptions *o, int argc, char **argv);

/* The backends of libraries. */
typedef enum LibTarget { LIB_C, LIB_OPENCL, LIB_MULTICORE } LibTarget;

/* Writes a library for p with the Futhark C API (man/futhorc-c-api.3):
 * the header to h, the C source (header included) to c and the JSON
 * manifest to manifest. name is the library's base name (for the header
 * guard); version is the compiler's, recorded in the manifest. For
 * LIB_C, sequential C for p at STAGE_MEM; for LIB_OPENCL, OpenCL (link
 * with -lOpenCL; arrays stay on the device) for p at STAGE_GPU; for
 * LIB_MULTICORE, the API and the runtime for p at STAGE_MEM, whose code
 * is the object emit_llvm writes with LlvmOptions.library (link it, with
 * -lpthread). imp is p lowered to Imp. */
void emit_library(Buf *h, Buf *c, Buf *manifest, const Prog *p, const ImpProg *imp, const char *name,
                  const char *version, LibTarget target);

#endif
