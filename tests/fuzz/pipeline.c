/* Fuzz target: the whole compiler short of the C compiler. The input is a
 * source file (as for the frontend target); a program that type-checks
 * goes through internalisation, the pass pipeline with the IR checked
 * after every pass (--verify), the lowering to Imp, which is checked too,
 * and the backends' code generation, twice: to C (what `futhorc dump
 * --stage=c` and `futhorc c --library` write), and to OpenCL host and
 * kernel code (`futhorc opencl`, with --library too). */
#include "backend/backend.h"
#include "fuzz.h"
#include "lower/internalise.h"
#include "passes/pipeline.h"
#include "tools/frontend.h"

/* Compiles the checked files to C or (opencl) OpenCL, program and library,
 * and discards the code. */
static void fuzz_compile(Arena *a, ProgramVec files, bool opencl) {
    InternaliseOpts iopts = {.unsafe = false};
    Prog *p = internalise(a, files.items, files.len, &iopts);
    if (!p || p->nfuns == 0) return;
    PipelineOpts popts = {.verify = true, .last_stage = opencl ? STAGE_GPU : STAGE_MEM};
    pipeline_run(p, &popts);
    Buf prog = {0}, h = {0}, c = {0}, manifest = {0}, err = {0};
    ImpProg *ip = imp_lower(p, false);
    if (!imp_check(ip, &err)) ICE("%s", err.data);
    if (opencl) emit_opencl_program(&prog, ip, false, false);
    else emit_c_program(&prog, ip, false, false);
    emit_library(&h, &c, &manifest, p, ip, "fuzz", "fuzz", opencl ? LIB_OPENCL : LIB_C);
    buf_free(&prog);
    buf_free(&h);
    buf_free(&c);
    buf_free(&manifest);
    buf_free(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Arena a = {0};
    char *text = fuzz_cstr(data, size);
    diag_reset();
    ProgramVec files = frontend_load_text(&a, FUZZ_SOURCE_PATH, text, size, NULL, 0);
    if (files.len) {
        fuzz_compile(&a, files, false);
        fuzz_compile(&a, files, true);
    }
    vec_free(&files);
    arena_free(&a);
    free(text);
    return 0;
}
