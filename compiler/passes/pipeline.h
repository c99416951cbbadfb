/* Passes as data, and the pipeline that runs them in order. */
#ifndef FUTHORC_PIPELINE_H
#define FUTHORC_PIPELINE_H

#include <stdio.h>

#include "passes.h"

typedef struct Pass {
    const char *name;
    const char *desc;
    Stage from, to;
    void (*run)(Prog *p);
    bool gpu; /* runs only in the GPU pipeline (up to STAGE_GPU) */
} Pass;

typedef struct PipelineOpts {
    bool verify;            /* check the IR after every pass */
    const char *dump_after; /* print the IR after this pass and stop */
    Stage last_stage;       /* stop before a pass that leaves this stage (STAGE_MEM: run all) */
    const char *const *skip; /* passes that keep the stage not to run (optimisations) */
    int nskip;
} PipelineOpts;

/* Whether name is a pass that may be skipped (it keeps the program's stage:
 * an optimisation, not a lowering). */
bool pipeline_skippable(const char *name);

/* Whether name is a pass of the GPU pipeline only. */
bool pipeline_gpu_only(const char *name);

extern const Pass pipeline_passes[];
extern const int pipeline_npasses;

/* Runs the passes on p, up to o->last_stage. Returns false when it
 * stopped early to dump. */
bool pipeline_run(Prog *p, const PipelineOpts *o);
/* Prints the pass names and descriptions. */
void pipeline_list(FILE *out);

#endif
