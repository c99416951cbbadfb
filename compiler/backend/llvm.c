/* The LLVM backend (the multicore backend): translates a program's Imp
 * into an LLVM module through LLVM's C API, optimises it with LLVM's own
 * pass pipeline and writes an object file, all in this process; the
 * driver links the object with the runtime object (runtime/llvm/rt.c,
 * compiled when futhorc was built) by the system linker. No C compiler
 * runs on a program.
 *
 * The module starts as the runtime's bitcode (runtime/llvm/glue.c,
 * embedded in futhorc): the scalar operations of runtime/scalar.h and the
 * accessors of entry points' values, which the generated code calls by
 * name and LLVM inlines. Then:
 *   - a function (ImpFun) is an internal function futhorc_fn_<k> that
 *     returns its result, or a struct of its results;
 *   - an entry point K is futhorc_entry_K(ctx, pool, ins, outs), which
 *     returns 0, or 1 after a failure, and futhorc_run_K(ctx, ins, outs),
 *     the rt_entry_fn that owns the pool (rtl_run);
 *   - futhorc_entries is the table of rt_entry values (runtime/rt.h) and
 *     main hands it to rt_main or rt_server_main.
 * Imp's code is translated by llvm_code.c. */
#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/ErrorHandling.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdio.h>
#include <string.h>

#include "../util/embedded.h"
#include "llvm_internal.h"

/* The module of the runtime's bitcode, its functions left to the program:
 * those it does not call are dropped by the optimiser, and every one is
 * compiled for the program's CPU. */
static LLVMModuleRef runtime_module(LLVMContextRef cx) {
    size_t n = 0;
    const char *bc = embedded_get_size("runtime/llvm/glue.bc", &n);
    if (!bc) ICE("the compiler lacks the runtime bitcode");
    LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(bc, n, "glue.bc");
    LLVMModuleRef m;
    if (LLVMParseBitcodeInContext2(cx, mb, &m)) ICE("the runtime bitcode does not load");
    LLVMDisposeMemoryBuffer(mb);
    const char *kept[] = {"llvm.used", "llvm.compiler.used"};
    for (int i = 0; i < 2; i++) {
        LLVMValueRef g = LLVMGetNamedGlobal(m, kept[i]);
        if (g) LLVMDeleteGlobal(g);
    }
    const char *attrs[] = {"target-cpu", "target-features", "tune-cpu"};
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (int i = 0; i < 3; i++)
            LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, attrs[i], (unsigned)strlen(attrs[i]));
    return m;
}

/* Starts building function fn: its entry block, no variables yet. */
static void begin(L *l, LLVMValueRef fn) {
    l->fn = fn;
    l->entry_bb = LLVMAppendBasicBlockInContext(l->cx, fn, "entry");
    LLVMPositionBuilderAtEnd(l->b, l->entry_bb);
    l->vars.len = 0;
    l->ctx = l->pool = l->ins = l->outs = NULL;
    l->fail = NULL;
}

static LLVMValueRef add_function(L *l, const char *name, LLVMTypeRef ret, LLVMTypeRef *params, int n, bool internal) {
    LLVMValueRef f = LLVMAddFunction(l->mod, name, LLVMFunctionType(ret, params, (unsigned)n, 0));
    if (internal) LLVMSetLinkage(f, LLVMInternalLinkage);
    return f;
}

/* Declares f (its type: scalars in, its result or a struct of them out). */
static LLVMValueRef declare_fun(L *l, const ImpFun *f) {
    LLVMTypeRef *ps = NEW_ARRAY(l->a, LLVMTypeRef, f->nparams + 1);
    for (int i = 0; i < f->nparams; i++) ps[i] = l_type(l, f->params[i]->t);
    LLVMTypeRef *rs = NEW_ARRAY(l->a, LLVMTypeRef, f->nrets + 1);
    for (int i = 0; i < f->nrets; i++) rs[i] = l_type(l, f->rets[i]);
    LLVMTypeRef ret = f->nrets == 1 ? rs[0] : LLVMStructTypeInContext(l->cx, rs, (unsigned)f->nrets, 0);
    return add_function(l, arena_printf(l->a, "futhorc_fn_%d", f->index), ret, ps, f->nparams, true);
}

static void function(L *l, const ImpFun *f) {
    begin(l, l->funs[f->index]);
    for (int i = 0; i < f->nparams; i++) LLVMBuildStore(l->b, LLVMGetParam(l->fn, (unsigned)i), l_declare(l, f->params[i])->slot);
    l_code(l, &f->body);
    LLVMBuildUnreachable(l->b); /* the body ended in a return */
}

/* futhorc_entry_K and futhorc_run_K of entry point e; returns the latter. */
static LLVMValueRef entry(L *l, const ImpEntry *e, int k) {
    LLVMTypeRef ps[] = {l->ptr, l->ptr, l->ptr, l->ptr};
    LLVMValueRef fn = add_function(l, arena_printf(l->a, "futhorc_entry_%d", k), l->i32, ps, 4, true);
    begin(l, fn);
    l->ctx = LLVMGetParam(fn, 0);
    l->pool = LLVMGetParam(fn, 1);
    l->ins = LLVMGetParam(fn, 2);
    l->outs = LLVMGetParam(fn, 3);
    l->fail = LLVMAppendBasicBlockInContext(l->cx, fn, "failed");
    l->results_begun = false;
    l_code(l, &e->body);
    LLVMBuildRet(l->b, LLVMConstInt(l->i32, 0, 0));
    LLVMPositionBuilderAtEnd(l->b, l->fail);
    LLVMBuildRet(l->b, LLVMConstInt(l->i32, 1, 0));

    LLVMValueRef run = add_function(l, arena_printf(l->a, "futhorc_run_%d", k), l->i32, ps, 3, true);
    begin(l, run);
    LLVMValueRef args[] = {LLVMGetParam(run, 0), LLVMGetParam(run, 1), LLVMGetParam(run, 2),
                           LLVMConstInt(l->i32, (unsigned long long)e->src->nret, 0), fn};
    LLVMBuildRet(l->b, l_call(l, "rtl_run", args, 5));
    return run;
}

/* A private constant global initialised to init; its address. */
static LLVMValueRef constant(L *l, LLVMValueRef init, const char *name) {
    LLVMValueRef g = LLVMAddGlobal(l->mod, LLVMTypeOf(init), name);
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    return g;
}

/* Exports the entry table of a library's object. */
static void export_table(LLVMValueRef table) {
    LLVMSetLinkage(table, LLVMExternalLinkage);
    LLVMSetValueName2(table, "futhorc_entries", 15);
}

/* The rt_type array (runtime/rt.h: {elem, rank}) of n values of f, its
 * parameters or (ret) its results; NULL when n is 0. */
static LLVMValueRef rt_types(L *l, const Fun *f, bool ret, int n) {
    if (n == 0) return LLVMConstNull(l->ptr);
    LLVMTypeRef tt = LLVMStructTypeInContext(l->cx, (LLVMTypeRef[]){l->i32, l->i32}, 2, 0);
    LLVMValueRef *vs = NEW_ARRAY(l->a, LLVMValueRef, n);
    for (int i = 0; i < n; i++) {
        const ExtType *ext = ret ? f->ret_ext : f->param_ext;
        Type t = ret ? f->ret[i] : f->params[i]->type;
        PrimType elem = ext ? ext[i].elem : t.elem;
        int rank = ext ? ext[i].rank : t.rank;
        LLVMValueRef fs[] = {LLVMConstInt(l->i32, (unsigned long long)elem, 0),
                             LLVMConstInt(l->i32, (unsigned long long)rank, 0)};
        vs[i] = LLVMConstNamedStruct(tt, fs, 2);
    }
    return constant(l, LLVMConstArray2(tt, vs, (uint64_t)n), "types");
}

/* futhorc_entries: the table of rt_entry values (runtime/rt.h) of the
 * entry points, whose functions are runs. */
static LLVMValueRef entry_table(L *l, LLVMValueRef *runs) {
    LLVMTypeRef et = LLVMStructTypeInContext(
        l->cx, (LLVMTypeRef[]){l->ptr, l->i32, l->ptr, l->i32, l->ptr, l->ptr, l->ptr}, 7, 0);
    int n = l->p->nentries;
    LLVMValueRef *vs = NEW_ARRAY(l->a, LLVMValueRef, n + 1);
    for (int i = 0; i < n; i++) {
        const Fun *f = l->p->entries[i]->src;
        LLVMValueRef name = constant(l, LLVMConstStringInContext2(l->cx, f->name, strlen(f->name), 0), "name");
        LLVMValueRef unique = LLVMConstNull(l->ptr);
        if (f->nparams) {
            LLVMValueRef *us = NEW_ARRAY(l->a, LLVMValueRef, f->nparams);
            for (int k = 0; k < f->nparams; k++) us[k] = LLVMConstInt(l->i8, f->param_ext && f->param_ext[k].unique, 0);
            unique = constant(l, LLVMConstArray2(l->i8, us, (uint64_t)f->nparams), "unique");
        }
        LLVMValueRef fs[] = {name,
                             LLVMConstInt(l->i32, (unsigned long long)f->nparams, 0),
                             rt_types(l, f, false, f->nparams),
                             LLVMConstInt(l->i32, (unsigned long long)f->nret, 0),
                             rt_types(l, f, true, f->nret),
                             runs[i],
                             unique};
        vs[i] = LLVMConstNamedStruct(et, fs, 7);
    }
    if (n == 0) vs[n++] = LLVMConstNull(et);
    return constant(l, LLVMConstArray2(et, vs, (uint64_t)n), "futhorc_entries");
}

/* main(argc, argv): rtl_main with the entry table. */
static void main_function(L *l, LLVMValueRef table, bool server) {
    LLVMValueRef fn = add_function(l, "main", l->i32, (LLVMTypeRef[]){l->i32, l->ptr}, 2, false);
    begin(l, fn);
    LLVMValueRef args[] = {LLVMGetParam(fn, 0), LLVMGetParam(fn, 1), table,
                           LLVMConstInt(l->i32, (unsigned long long)l->p->nentries, 0), LLVMConstInt(l->i1, server, 0)};
    LLVMBuildRet(l->b, l_call(l, "rtl_main", args, 5));
}

/* The program's module, not yet optimised: with main (server: speaking
 * the server protocol), or for a library. */
static void build(L *l, bool server, bool library) {
    l->i1 = LLVMInt1TypeInContext(l->cx);
    l->i8 = LLVMInt8TypeInContext(l->cx);
    l->i32 = LLVMInt32TypeInContext(l->cx);
    l->i64 = LLVMInt64TypeInContext(l->cx);
    l->f32 = LLVMFloatTypeInContext(l->cx);
    l->f64 = LLVMDoubleTypeInContext(l->cx);
    l->ptr = LLVMPointerTypeInContext(l->cx, 0);
    l->b = LLVMCreateBuilderInContext(l->cx);
    const ImpProg *p = l->p;
    l->funs = NEW_ARRAY(l->a, LLVMValueRef, p->nfuns + 1);
    for (int i = 0; i < p->nfuns; i++) l->funs[i] = declare_fun(l, p->funs[i]);
    for (int i = 0; i < p->nfuns; i++) function(l, p->funs[i]);
    LLVMValueRef *runs = NEW_ARRAY(l->a, LLVMValueRef, p->nentries + 1);
    for (int i = 0; i < p->nentries; i++) runs[i] = entry(l, p->entries[i], i);
    LLVMValueRef table = entry_table(l, runs);
    if (library) export_table(table);
    else main_function(l, table, server);
    LLVMDisposeBuilder(l->b);
}

/* The lanes of vector code for o's CPU: 16 where it has AVX-512 (vector
 * registers of 16 floats), else 8. A named CPU is known by the features
 * LLVM gives it, the host by its own. */
static int simd_lanes(const LlvmOptions *o) {
    static const char *const avx512[] = {"skylake-avx512", "cascadelake", "cooperlake", "cannonlake", "icelake-client",
                                         "icelake-server", "tigerlake", "rocketlake", "sapphirerapids", "emeraldrapids",
                                         "graniterapids", "graniterapids-d", "diamondrapids", "znver4", "znver5",
                                         "x86-64-v4", NULL};
    if (o->cpu) {
        for (int i = 0; avx512[i]; i++)
            if (!strcmp(o->cpu, avx512[i])) return 16;
        return 8;
    }
    char *f = LLVMGetHostCPUFeatures();
    int lanes = strstr(f, "+avx512f") ? 16 : 8;
    LLVMDisposeMessage(f);
    return lanes;
}

/* LLVM's fatal errors (a --target-cpu it does not know cannot make
 * x86-64 code): a message of futhorc's, then LLVM exits with status 1. */
static void llvm_fatal(const char *reason) {
    fprintf(stderr, "futhorc: LLVM cannot generate the code (is --target-cpu a CPU it knows?): %s\n", reason);
}

LLVMTargetMachineRef l_target_machine(const LlvmOptions *o) {
    static bool ready;
    if (!ready) {
        LLVMInitializeNativeTarget();
        LLVMInitializeNativeAsmPrinter();
        LLVMInstallFatalErrorHandler(llvm_fatal);
        ready = true;
    }
    char *triple = LLVMGetDefaultTargetTriple();
    LLVMTargetRef target;
    char *err = NULL;
    if (LLVMGetTargetFromTriple(triple, &target, &err)) ICE("LLVM has no target for %s: %s", triple, err);
    char *cpu = o->cpu ? NULL : LLVMGetHostCPUName();
    char *features = o->cpu ? NULL : LLVMGetHostCPUFeatures();
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(target, triple, o->cpu ? o->cpu : cpu, features ? features : "",
                                                      LLVMCodeGenLevelAggressive, LLVMRelocPIC, LLVMCodeModelDefault);
    LLVMDisposeMessage(triple);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    return tm;
}

/* Marks every function of m for AddressSanitizer's pass, which
 * instruments only functions so marked. */
static void sanitize(LLVMModuleRef m, LLVMContextRef cx) {
    unsigned kind = LLVMGetEnumAttributeKindForName("sanitize_address", 16);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (LLVMCountBasicBlocks(f))
            LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(cx, kind, 0));
}

/* Lets LLVM's loop vectoriser use AVX-512's full width, as the vector code
 * for maps does (it prefers 256 bits on Intel's server CPUs): an inner
 * reduction of 16 floats (k-means' distances) is then one vector
 * iteration, not a scalar remainder of a wider unrolled loop. */
static void prefer_512(LLVMModuleRef m, LLVMContextRef cx) {
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (LLVMCountBasicBlocks(f))
            LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                    LLVMCreateStringAttribute(cx, "prefer-vector-width", 19, "512", 3));
}

LLVMModuleRef l_module(const ImpProg *p, const LlvmOptions *o, LLVMContextRef cx, LLVMTargetMachineRef tm) {
    Arena a = {0};
    L l = {.a = &a, .p = p, .cx = cx, .next_id = p->next_id, .lanes = simd_lanes(o)};
    l.mod = runtime_module(cx);
    build(&l, o->server, o->library);
    vec_free(&l.vars);
    arena_free(&a);
    char *err = NULL;
    if (o->verify && LLVMVerifyModule(l.mod, LLVMReturnStatusAction, &err)) ICE("LLVM backend: bad module: %s", err);
    LLVMDisposeMessage(err);
    char *triple = LLVMGetTargetMachineTriple(tm);
    LLVMSetTarget(l.mod, triple);
    LLVMDisposeMessage(triple);
    LLVMTargetDataRef layout = LLVMCreateTargetDataLayout(tm);
    LLVMSetModuleDataLayout(l.mod, layout);
    LLVMDisposeTargetData(layout);
    if (o->asan) sanitize(l.mod, cx);
    if (l.lanes == 16) prefer_512(l.mod, cx);
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMPassBuilderOptionsSetLoopVectorization(po, 1);
    LLVMPassBuilderOptionsSetSLPVectorization(po, 1);
    LLVMErrorRef perr = LLVMRunPasses(l.mod, o->asan ? "default<O3>,asan" : "default<O3>", tm, po);
    if (perr) ICE("LLVM's optimiser failed: %s", LLVMGetErrorMessage(perr));
    LLVMDisposePassBuilderOptions(po);
    return l.mod;
}

bool emit_llvm(const ImpProg *p, const LlvmOptions *o, const char *obj, Buf *ir) {
    LLVMContextRef cx = LLVMContextCreate();
    LLVMTargetMachineRef tm = l_target_machine(o);
    LLVMModuleRef mod = l_module(p, o, cx, tm);
    bool ok = true;
    char *err = NULL;
    if (ir) {
        char *text = LLVMPrintModuleToString(mod);
        buf_puts(ir, text);
        LLVMDisposeMessage(text);
    } else if (LLVMTargetMachineEmitToFile(tm, mod, obj, LLVMObjectFile, &err)) {
        fprintf(stderr, "futhorc: cannot write '%s': %s\n", obj, err);
        LLVMDisposeMessage(err);
        ok = false;
    }
    LLVMDisposeTargetMachine(tm);
    LLVMDisposeModule(mod);
    LLVMContextDispose(cx);
    return ok;
}
