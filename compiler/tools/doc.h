/* `futhorc doc`: HTML documentation from doc comments, as `futhark doc`
 * makes it (futhorc-doc(1)). */
#ifndef FUTHORC_TOOLS_DOC_H
#define FUTHORC_TOOLS_DOC_H

/* argv[0] is "doc"; returns the exit status. */
int tool_doc(int argc, char **argv);

#endif
