/* Files embedded into the compiler binary at build time (the prelude and the
 * runtime sources that generated programs include). */
#ifndef FUTHORC_EMBEDDED_H
#define FUTHORC_EMBEDDED_H

#include <stddef.h>

/* The text of an embedded file by its repository path ("stdlib/prelude.fut",
 * "runtime/values.c"), or NULL if there is none. */
const char *embedded_get(const char *path);
/* The same for any file, text or binary (the LLVM backend's runtime
 * bitcode and object): its bytes, their number in *size. The embedded
 * path is the build's (build/gen/... for files made at build time). */
const char *embedded_get_size(const char *path, size_t *size);

#endif
