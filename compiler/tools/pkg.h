/* `futhorc pkg`: Futhark's package manager (futhark.pkg, lib/, git
 * repositories named by package paths; futhorc-pkg(1)). */
#ifndef FUTHORC_TOOLS_PKG_H
#define FUTHORC_TOOLS_PKG_H

/* argv[0] is "pkg"; returns the exit status. */
int tool_pkg(int argc, char **argv);

#endif
