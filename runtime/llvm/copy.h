/* Copies between LMAD layouts in the multicore backend's runtime
 * (runtime/llvm/copy.c). */
#ifndef FUTHORC_RT_COPY_H
#define FUTHORC_RT_COPY_H

#include <stdint.h>

#include "../rt.h"

/* The most dimensions a copy has (after the compiler merged those laid
 * out alike); an LMAD has no more than an array has. */
#define RT_COPY_MAX_RANK 32

/* Copies the elements of esz bytes (1, 2, 4 or 8) at src, laid out with
 * strides sstr (in elements), to dst with strides dstr, over shape (rank
 * dimensions; dst and src point at the first element), in parallel on
 * ctx's threads when there are many. The regions do not overlap. */
void rt_lmad_copy(rt_ctx *ctx, int esz, void *dst, const int64_t *dstr, const void *src, const int64_t *sstr, int rank,
                  const int64_t *shape);

#endif
