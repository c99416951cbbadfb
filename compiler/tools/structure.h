/* `futhorc structure`: counts the IR constructs of a program after a stage,
 * so tests can check what the optimiser did without full-IR snapshots. */
#ifndef FUTHORC_TOOLS_STRUCTURE_H
#define FUTHORC_TOOLS_STRUCTURE_H

#include "../ir/ir.h"
#include "../util/util.h"

/* Runs `futhorc structure [--stage soacs|mem] [--unsafe] [--verify] PROG.fut`
 * (argv[0] is "structure"): prints one line "Name count" per construct kind
 * present, nested occurrences included. Returns the exit status. */
int tool_structure(int argc, char **argv);

/* Appends the "Name count" lines of p to out. */
void structure_print(Buf *out, const Prog *p);

#endif
