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
} Pass;

typedef struct PipelineOpts {
    bool verify;            /* check the IR after every pass */
    const char *dump_after; /* print the IR after this pass and stop */
} PipelineOpts;

extern const Pass pipeline_passes[];
extern const int pipeline_npasses;

/* Runs every pass on p. Returns false when it stopped early to dump. */
bool pipeline_run(Prog *p, const PipelineOpts *o);
/* Prints the pass names and descriptions. */
void pipeline_list(FILE *out);

#endif
