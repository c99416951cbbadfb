/* `futhorc literate`: Futhark's literate programs rendered to Markdown with
 * the results of their directives (futhorc-literate(1)). */
#ifndef FUTHORC_TOOLS_LITERATE_H
#define FUTHORC_TOOLS_LITERATE_H

/* argv[0] is "literate"; returns the exit status. */
int tool_literate(int argc, char **argv, const char *futhorc_path);

#endif
