/* The pass table and the pipeline runner: passes are data, and the driver
 * prints or verifies the IR between them. */
#include "pipeline.h"

#include <stdio.h>
#include <string.h>

const Pass pipeline_passes[] = {
    {"simplify", "fold constants, propagate copies, remove common and dead code, hoist invariants", STAGE_SOACS,
     STAGE_SOACS, pass_simplify, false},
    {"fuse", "fuse SOACs vertically (producer into consumer) and horizontally (siblings of one width)",
     STAGE_SOACS, STAGE_SOACS, pass_fuse, false},
    {"carry", "carry a value a loop computes from its parameters and from its results to the next iteration",
     STAGE_SOACS, STAGE_SOACS, pass_carry, false},
    {"flatten", "turn maps whose elements build arrays of varying length into segmented operations, histograms of rows into histograms of scalars (GPU only)",
     STAGE_SOACS, STAGE_SOACS, pass_flatten, true},
    {"distribute", "split host-level maps of several parallel stages into one map per stage (GPU only)",
     STAGE_SOACS, STAGE_SOACS, pass_distribute, true},
    {"migrate", "run host scalar code that reads array elements for an array literal on the device (GPU only)",
     STAGE_SOACS, STAGE_SOACS, pass_migrate, true},
    {"shortcircuit", "plan where fresh arrays are built in the regions they are copied to (short-circuiting)",
     STAGE_SOACS, STAGE_SOACS, pass_shortcircuit, false},
    {"memory", "give every array a memory block and an LMAD index function (FunMem)", STAGE_SOACS, STAGE_MEM,
     pass_memory, false},
    {"kernels", "decide how each host-level SOAC runs on a GPU (segmented operations)", STAGE_MEM, STAGE_GPU,
     pass_kernels, false},
};
const int pipeline_npasses = sizeof pipeline_passes / sizeof pipeline_passes[0];

bool pipeline_skippable(const char *name) {
    for (int i = 0; i < pipeline_npasses; i++)
        if (!strcmp(pipeline_passes[i].name, name)) return pipeline_passes[i].from == pipeline_passes[i].to;
    return false;
}

bool pipeline_gpu_only(const char *name) {
    for (int i = 0; i < pipeline_npasses; i++)
        if (!strcmp(pipeline_passes[i].name, name)) return pipeline_passes[i].gpu;
    return false;
}

static bool skipped(const PipelineOpts *o, const char *name) {
    for (int i = 0; i < o->nskip; i++)
        if (!strcmp(o->skip[i], name)) return true;
    return false;
}

bool pipeline_run(Prog *p, const PipelineOpts *o) {
    p->gpu = o->last_stage == STAGE_GPU;
    if (o->verify) ir_verify(p, "internalise");
    if (o->dump_after && strcmp(o->dump_after, "internalise") == 0) {
        Buf b = {0};
        ir_print(&b, p);
        fputs(b.data ? b.data : "", stdout);
        buf_free(&b);
        return false;
    }
    for (int i = 0; i < pipeline_npasses; i++) {
        const Pass *ps = &pipeline_passes[i];
        if (ps->from == o->last_stage && ps->to != o->last_stage) break;
        if (p->stage != ps->from) ICE("pass %s expects another stage", ps->name);
        if (skipped(o, ps->name)) continue;
        if (ps->gpu && o->last_stage != STAGE_GPU) continue;
        ps->run(p);
        p->stage = ps->to;
        if (o->verify) ir_verify(p, ps->name);
        if (o->dump_after && strcmp(o->dump_after, ps->name) == 0) {
            Buf b = {0};
            ir_print(&b, p);
            fputs(b.data ? b.data : "", stdout);
            buf_free(&b);
            return false;
        }
    }
    return true;
}

void pipeline_list(FILE *out) {
    fprintf(out, "%-12s %s\n", "internalise", "checked AST to SOACS IR (the first IR stage)");
    for (int i = 0; i < pipeline_npasses; i++)
        fprintf(out, "%-12s %s\n", pipeline_passes[i].name, pipeline_passes[i].desc);
}
