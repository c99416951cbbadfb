/* `futhorc test`: runs the `-- ==` test blocks of .fut programs. */
#ifndef FUTHORC_TOOLS_TEST_H
#define FUTHORC_TOOLS_TEST_H

/* Runs `futhorc test [options] FILES|DIRS` (argv[0] is "test"), compiling
 * each program with the futhorc at futhorc_path. Prints failures and ends
 * with "N passed, N failed[, N skipped]"; returns the exit status (1 if any
 * test failed or the command line was bad). */
int tool_test(int argc, char **argv, const char *futhorc_path);

#endif
