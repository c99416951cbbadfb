/* The passes over the core IR. Each pass is described in passes/pipeline.c. */
#ifndef FUTHORC_PASSES_H
#define FUTHORC_PASSES_H

#include "../ir/ir.h"

/* memory.c: STAGE_SOACS -> STAGE_MEM. Gives every array a memory block and
 * an LMAD index function; slicing, transposition, reversal and reshapes of
 * contiguous arrays only change the index function; in-place updates and
 * scatter/hist write into the memory of the consumed array. */
void pass_memory(Prog *p);
/* Whether result r of body b may be computed in the memory of array acc
 * itself: r is made by a plain map in b that reads acc (only there) as one
 * of its inputs, element by element; element j is written only after it
 * is read. Array rows recurse into the map's body. */
bool mem_inplace_ok(const Body *b, const Var *acc, const Var *r);

/* migrate.c: STAGE_SOACS -> STAGE_SOACS, GPU only. An array literal of
 * scalars computed from array elements becomes a map of one element (a
 * kernel of one work-item) that reads and computes them on the device. */
void pass_migrate(Prog *p);

/* shortcircuit.c: STAGE_SOACS -> STAGE_SOACS, just before memory. Array
 * short-circuiting: plans where fresh arrays that are only copied into
 * another array's region (an update's slice, a part of a concatenation)
 * are built instead, in p->shortcircuit, which pass_memory follows (and
 * in p->owned the loop parameters whose initial block the loop may
 * overwrite). Moves the scalar statements and assertions a plan needs
 * above the source's creation. Skipping it leaves every such copy. */
typedef struct ScTarget {
    Var *dest;        /* the update chain's root array or the concatenation's result */
    const IrExp *upd; /* the region of dest: an update's (IE_UPDATE or IE_FLAT_UPDATE), */
    LmadSlice *slice; /* or else nslice leading dimensions sliced */
    int nslice;
} ScTarget;
/* The region of t in layout l of t->dest. */
Lmad *sc_region(Arena *a, const Lmad *l, const ScTarget *t);
void pass_shortcircuit(Prog *p);

/* simplify.c: STAGE_SOACS -> STAGE_SOACS. Constant folding, algebraic and
 * range rules, copy propagation, CSE, dead-code removal (also of unused
 * SOAC, if and loop results) and hoisting of loop-invariant code, to a
 * fixed point; the rules are listed at the top of simplify.c. */
void pass_simplify(Prog *p);

/* fuse.c: STAGE_SOACS -> STAGE_SOACS. Vertical (producer into consumer:
 * map into Screma, Scatter and Hist, also with the producer's scans and
 * reductions into a Screma) and horizontal (independent Scremas of one
 * width) SOAC fusion; never duplicates work, never moves a SOAC across a
 * consumption of what it reads; the rules are listed at the top of fuse.c. */
void pass_fuse(Prog *p);

/* Predictive commoning of loops (compiler/passes/carry.c): a scalar op
 * of a loop's parameters that the body also computes of its results is
 * carried from one iteration to the next as a new parameter. */
void pass_carry(Prog *p);

/* distribute.c: STAGE_SOACS -> STAGE_SOACS, GPU pipeline only. Splits a
 * host-level map whose body runs several parallel stages (Scremas of
 * widths invariant in the nest) into one map per stage, expanding the
 * values that cross stages into arrays; nests of such maps become perfect
 * nests of the stages. The rules are at the top of distribute.c. */
void pass_distribute(Prog *p);

/* flatten.c: STAGE_SOACS -> STAGE_SOACS, GPU pipeline only. A host-level
 * map whose elements build arrays of lengths bound in its body (irregular
 * nested parallelism) becomes operations over the flat concatenation of
 * those arrays with segment descriptors (regularity-identifying
 * flattening); the rules are at the top of flatten.c. */
void pass_flatten(Prog *p);

/* kernels.c: STAGE_MEM -> STAGE_GPU. Decides how each host-level SOAC runs
 * on a GPU (SegMap over a flattened map nest, SegRed, SegScan, SegHist,
 * one work-item, or the host), gives SegMaps transposed copies of the
 * inputs whose rows they traverse (coalesce.c) and records each SOAC's
 * free variables. */
void pass_kernels(Prog *p);

/* coalesce.c, a step of pass_kernels: when host-level SOAC s (classified:
 * s->e->seg) is a SegMap whose work-items read rows of a row-major input
 * element by element, reads a copy of that input laid out with its outer
 * dimension innermost instead. Returns the statements (*n of them) that
 * make the copies, to go before s. */
Stm **coalesce_inputs(Prog *p, Stm *s, int *n);

#endif
