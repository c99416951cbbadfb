/* The passes over the core IR. Each pass is described in passes/pipeline.c. */
#ifndef FUTHORC_PASSES_H
#define FUTHORC_PASSES_H

#include "../ir/ir.h"

/* memory.c: STAGE_SOACS -> STAGE_MEM. Gives every array a memory block and
 * an LMAD index function; slicing, transposition, reversal and reshapes of
 * contiguous arrays only change the index function; in-place updates and
 * scatter/hist write into the memory of the consumed array. */
void pass_memory(Prog *p);

#endif
