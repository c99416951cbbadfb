/* Internalisation: checked AST -> SOACS IR (STAGE_SOACS). */
#ifndef FUTHORC_INTERNALISE_H
#define FUTHORC_INTERNALISE_H

#include "../ir/ir.h"
#include "../syntax/ast.h"

typedef struct InternaliseOpts {
    bool unsafe; /* omit bounds, division and coercion checks */
} InternaliseOpts;

/* Turns the entry points of the last of files[0..n) (checked by
 * check_programs: files[0] is the prelude) into a Prog, with the large scalar functions they call
 * in several places as Prog.defs (outline.c). Errors (constructs not
 * supported yet) are reported through diag_error; returns NULL if there
 * were any. */
Prog *internalise(Arena *a, Program **files, int n, const InternaliseOpts *opts);

#endif
