/* Copies between LMAD layouts for the multicore backend's host code
 * (runtime/llvm/copy.h), in the runtime object: the compiler calls
 * rt_lmad_copy for every copy of an entry point's own code (a transpose,
 * a concatenation, a slice made contiguous, a result written out), and
 * writes the loops itself only inside a parallel loop's tasks.
 *
 * A copy of many elements is a parallel loop over ranges of its outer
 * dimension. The innermost dimension is a memcpy where both layouts are
 * contiguous there, else a loop by element size. A two-dimensional copy
 * whose source is contiguous along the outer dimension (a transpose) goes
 * by tiles of RTC_TILE x RTC_TILE elements, so that both sides stay in
 * the cache while a tile is copied; tiles of 4-byte elements (floats,
 * 32-bit integers) go by 4x4 blocks transposed in SSE registers, as the
 * machine has them (every x86-64). */
#include "copy.h"

#include <string.h>
#ifdef __SSE2__
#include <xmmintrin.h>
#endif

#include "../sched.h"

/* Elements of a copy below which it runs on the calling thread alone. */
#define RTC_PARALLEL 65536
/* The side of a transpose's tiles, in elements. */
#define RTC_TILE 32

typedef struct rtc_copy {
    int esz, rank;
    unsigned char *dst;
    const unsigned char *src;
    const int64_t *dstr, *sstr, *shape;
    int64_t chunk; /* outer indices (tiles of them, for a transpose) per task */
    int transpose;
} rtc_copy;

/* n elements from src (stride ss) to dst (stride ds), strides in elements. */
static void rtc_line(int esz, unsigned char *dst, int64_t ds, const unsigned char *src, int64_t ss, int64_t n) {
    if (ds == 1 && ss == 1) {
        memcpy(dst, src, (size_t)(n * esz));
        return;
    }
#define RTC_LOOP(T)                                                                                \
    for (int64_t i = 0; i < n; i++) ((T *)dst)[i * ds] = ((const T *)src)[i * ss];                 \
    return;
    switch (esz) {
    case 1: RTC_LOOP(uint8_t)
    case 2: RTC_LOOP(uint16_t)
    case 4: RTC_LOOP(uint32_t)
    default: RTC_LOOP(uint64_t)
    }
#undef RTC_LOOP
}

/* The elements whose outer index is in [lo, hi): an odometer over the
 * middle dimensions, a line along the innermost (the outer one itself
 * for rank 1). */
static void rtc_rows(const rtc_copy *c, int64_t lo, int64_t hi) {
    int r = c->rank, esz = c->esz;
    if (r == 1) {
        rtc_line(esz, c->dst + lo * c->dstr[0] * esz, c->dstr[0], c->src + lo * c->sstr[0] * esz, c->sstr[0], hi - lo);
        return;
    }
    int64_t idx[RT_COPY_MAX_RANK] = {0};
    for (int64_t i = lo; i < hi; i++) {
        for (;;) {
            int64_t d = i * c->dstr[0], s = i * c->sstr[0];
            for (int k = 1; k < r - 1; k++) d += idx[k] * c->dstr[k], s += idx[k] * c->sstr[k];
            rtc_line(esz, c->dst + d * esz, c->dstr[r - 1], c->src + s * esz, c->sstr[r - 1], c->shape[r - 1]);
            int k = r - 2;
            while (k >= 1 && ++idx[k] == c->shape[k]) idx[k--] = 0;
            if (k < 1) break;
        }
    }
}

#ifdef __SSE2__
/* A tile of 4-byte elements whose rows are whole 4x4 blocks: each block
 * read as four vectors along the source's contiguous dimension and
 * written, transposed in registers, as four vectors along the
 * destination's. */
static void rtc_tile4(const rtc_copy *c, int64_t i0, int64_t e0, int64_t i1, int64_t e1) {
    float *dst = (float *)c->dst;
    const float *src = (const float *)c->src;
    int64_t ds = c->dstr[0], ss = c->sstr[1];
    for (int64_t a = i0; a < e0; a += 4)
        for (int64_t b = i1; b < e1; b += 4) {
            __m128 r0 = _mm_loadu_ps(src + a + b * ss), r1 = _mm_loadu_ps(src + a + (b + 1) * ss);
            __m128 r2 = _mm_loadu_ps(src + a + (b + 2) * ss), r3 = _mm_loadu_ps(src + a + (b + 3) * ss);
            _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
            _mm_storeu_ps(dst + a * ds + b, r0);
            _mm_storeu_ps(dst + (a + 1) * ds + b, r1);
            _mm_storeu_ps(dst + (a + 2) * ds + b, r2);
            _mm_storeu_ps(dst + (a + 3) * ds + b, r3);
        }
}
#endif

/* The tiles of a two-dimensional copy whose outer tile index is in
 * [lo, hi). */
static void rtc_tiles(const rtc_copy *c, int64_t lo, int64_t hi) {
    int esz = c->esz;
    for (int64_t t0 = lo; t0 < hi; t0++) {
        int64_t i0 = t0 * RTC_TILE, e0 = i0 + RTC_TILE < c->shape[0] ? i0 + RTC_TILE : c->shape[0];
        for (int64_t i1 = 0; i1 < c->shape[1]; i1 += RTC_TILE) {
            int64_t e1 = i1 + RTC_TILE < c->shape[1] ? i1 + RTC_TILE : c->shape[1];
#ifdef __SSE2__
            if (esz == 4 && (e0 - i0) % 4 == 0 && (e1 - i1) % 4 == 0) {
                rtc_tile4(c, i0, e0, i1, e1);
                continue;
            }
#endif
            for (int64_t a = i0; a < e0; a++)
                rtc_line(esz, c->dst + (a * c->dstr[0] + i1 * c->dstr[1]) * esz, c->dstr[1],
                         c->src + (a * c->sstr[0] + i1 * c->sstr[1]) * esz, c->sstr[1], e1 - i1);
        }
    }
}

static int rtc_task(rt_ctx *ctx, void *env, int64_t task, int tid) {
    (void)ctx, (void)tid;
    const rtc_copy *c = env;
    int64_t outer = c->transpose ? (c->shape[0] + RTC_TILE - 1) / RTC_TILE : c->shape[0];
    int64_t lo = task * c->chunk, hi = lo + c->chunk < outer ? lo + c->chunk : outer;
    if (c->transpose) rtc_tiles(c, lo, hi);
    else rtc_rows(c, lo, hi);
    return 0;
}

void rt_lmad_copy(rt_ctx *ctx, int esz, void *dst, const int64_t *dstr, const void *src, const int64_t *sstr, int rank,
                  const int64_t *shape) {
    int64_t total = 1;
    for (int k = 0; k < rank; k++) {
        if (shape[k] <= 0) return;
        total *= shape[k];
    }
    rtc_copy c = {esz, rank, dst, src, dstr, sstr, shape, 0, 0};
    if (rank == 0) {
        memcpy(dst, src, (size_t)esz);
        return;
    }
    /* A transpose: the source runs along the outer dimension, the
     * destination along the inner one. */
    c.transpose = rank == 2 && sstr[0] == 1 && sstr[1] != 1 && dstr[1] == 1;
    int64_t outer = c.transpose ? (shape[0] + RTC_TILE - 1) / RTC_TILE : shape[0];
    int64_t tasks = total < RTC_PARALLEL ? 1 : 4 * (int64_t)rt_num_threads(ctx);
    if (tasks > outer) tasks = outer;
    c.chunk = (outer + tasks - 1) / tasks;
    rt_parfor(ctx, (outer + c.chunk - 1) / c.chunk, rtc_task, &c);
}
