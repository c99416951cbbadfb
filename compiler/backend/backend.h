/* The backends: turn a program at STAGE_MEM into source code. */
#ifndef FUTHORC_BACKEND_H
#define FUTHORC_BACKEND_H

#include "../ir/ir.h"

/* Writes a complete, self-contained C program (runtime included) for p to
 * out: its main calls rt_main with p's entry points. */
void emit_c_program(Buf *out, const Prog *p);

#endif
