/* The runtime object of the LLVM backend's programs: the files every
 * executable needs (values, server mode, the command line, the scheduler
 * of parallel loops, copies), compiled once
 * when futhorc is built and linked with each program's object, so that no
 * C compiler runs on a program (compiler/backend/llvm.c). */
#define _GNU_SOURCE /* thread affinity (runtime/sched.c) */
#include "../rt.h"
#include "../memory.h"
#include "../scalar.h"
#include "../values.c"
#include "../server.c"
#include "../main.c"
#include "../sched.c"
#include "copy.c"
