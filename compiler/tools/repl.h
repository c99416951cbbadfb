/* `futhorc repl` and `futhorc eval`: Futhark expressions evaluated with the
 * prelude, a file's definitions and the session's own, compiled through
 * the LLVM JIT (futhorc-repl(1)). */
#ifndef FUTHORC_TOOLS_REPL_H
#define FUTHORC_TOOLS_REPL_H

/* Compiles the program text (its imports resolved from path's directory)
 * and runs its entry point entry with no input, in this process, writing
 * the results in the binary data format to the file out. Returns 0 on
 * success; compile and run-time errors are reported on stderr. */
typedef int (*ReplRun)(const char *path, const char *text, const char *entry, const char *out);

/* argv[0] is "repl" or "eval"; returns the exit status. */
int tool_repl(int argc, char **argv, ReplRun run);

#endif
