/* Files embedded into the compiler binary at build time (the prelude and the
 * runtime sources that generated programs include). */
#ifndef FUTHORC_EMBEDDED_H
#define FUTHORC_EMBEDDED_H

/* The text of an embedded file by its repository path ("stdlib/prelude.fut",
 * "runtime/values.c"), or NULL if there is none. */
const char *embedded_get(const char *path);

#endif
