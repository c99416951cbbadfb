/* Loading a program: the prelude, the source file and its imports, parsed
 * and type-checked. Shared by the driver's subcommands. */
#ifndef FUTHORC_FRONTEND_H
#define FUTHORC_FRONTEND_H

#include "../syntax/ast.h"

typedef VEC(Program *) ProgramVec;

/* Parses and checks the prelude and the program at path with the files it
 * imports. Returns them in dependency order (the prelude first, the program
 * last), or an empty vector after reporting errors. The caller frees the
 * vector with vec_free. */
ProgramVec frontend_load(Arena *a, const char *path);
/* The same with the program's text given: the len bytes at text (NULL:
 * read from path), and the n names of top-level definitions of the
 * program to make entry points (as `entry` would; `--entry-point`). Its
 * imports are still read relative to path. */
ProgramVec frontend_load_text(Arena *a, const char *path, const char *text, size_t len, const char *const *entries,
                              int n);

#endif
