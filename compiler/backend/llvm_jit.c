/* futhorc run: a program compiled by the LLVM backend (llvm.c) and run in
 * the compiler's process by LLVM's ORC JIT, with no file written. The
 * program's object, made in memory, and the runtime object (embedded in
 * futhorc, as for executables) are linked by ORC against this process's
 * C library; then the program's main runs with the command line given,
 * so it reads its arguments from standard input and prints its results
 * as an executable does. */
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <stdio.h>

#include "../util/embedded.h"
#include "llvm_internal.h"

/* Prints err's message after what, and disposes of it; true when err. */
static bool failed(LLVMErrorRef err, const char *what) {
    if (!err) return false;
    char *msg = LLVMGetErrorMessage(err);
    fprintf(stderr, "futhorc run: %s: %s\n", what, msg);
    LLVMDisposeErrorMessage(msg);
    return true;
}

int run_llvm(const ImpProg *p, const LlvmOptions *o, int argc, char **argv) {
    LLVMContextRef cx = LLVMContextCreate();
    LLVMTargetMachineRef tm = l_target_machine(o);
    LLVMModuleRef mod = l_module(p, o, cx, tm);
    char *msg = NULL;
    LLVMMemoryBufferRef obj = NULL;
    bool bad = LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMObjectFile, &msg, &obj);
    LLVMDisposeModule(mod);
    LLVMDisposeTargetMachine(tm);
    LLVMContextDispose(cx);
    if (bad) {
        fprintf(stderr, "futhorc run: LLVM made no object: %s\n", msg);
        LLVMDisposeMessage(msg);
        return 1;
    }
    size_t n = 0;
    const char *rt = embedded_get_size("runtime/llvm/rt.o", &n);
    if (!rt) ICE("the compiler lacks the runtime object");
    LLVMOrcLLJITRef jit = NULL;
    if (failed(LLVMOrcCreateLLJIT(&jit, NULL), "cannot start LLVM's JIT")) {
        LLVMDisposeMemoryBuffer(obj);
        return 1;
    }
    int status = 1;
    LLVMOrcJITDylibRef lib = LLVMOrcLLJITGetMainJITDylib(jit);
    LLVMOrcDefinitionGeneratorRef process = NULL;
    LLVMOrcExecutorAddress main_addr = 0;
    if (!failed(LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&process, LLVMOrcLLJITGetGlobalPrefix(jit), NULL,
                                                                      NULL),
                "cannot see this process's symbols")) {
        LLVMOrcJITDylibAddGenerator(lib, process);
        LLVMMemoryBufferRef rt_obj = LLVMCreateMemoryBufferWithMemoryRangeCopy(rt, n, "rt.o");
        if (!failed(LLVMOrcLLJITAddObjectFile(jit, lib, obj), "cannot add the program") &&
            !failed(LLVMOrcLLJITAddObjectFile(jit, lib, rt_obj), "cannot add the runtime") &&
            !failed(LLVMOrcLLJITLookup(jit, &main_addr, "main"), "cannot link the program")) {
            int (*run)(int, char **) = (int (*)(int, char **))(uintptr_t)main_addr;
            fflush(stdout);
            status = run(argc, argv);
            fflush(stdout);
        }
        obj = NULL;
    }
    if (obj) LLVMDisposeMemoryBuffer(obj);
    failed(LLVMOrcDisposeLLJIT(jit), "cannot stop LLVM's JIT");
    return status;
}
