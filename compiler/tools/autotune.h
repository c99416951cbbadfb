/* `futhorc autotune`: tunes the thresholds of a program's multi-versioned
 * code on the datasets of its test blocks (autotune.c). */
#ifndef FUTHORC_TOOLS_AUTOTUNE_H
#define FUTHORC_TOOLS_AUTOTUNE_H

/* Runs `futhorc autotune [options] PROG.fut` (argv[0] is "autotune"),
 * compiling with the futhorc at futhorc_path; returns the exit status. */
int tool_autotune(int argc, char **argv, const char *futhorc_path);

#endif
