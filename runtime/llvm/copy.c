/* Copies between LMAD layouts for the multicore backend's host code
 * (runtime/llvm/copy.h), in the runtime object: the compiler calls
 * rt_lmad_copy for every copy of an entry point's own code (a transpose,
 * a concatenation, a slice made contiguous, a result written out), and
 * writes the loops itself only inside a parallel loop's tasks.
 *
 * A copy of many elements is a parallel loop over ranges of its outer
 * dimension (a transpose's: of its source's rows). The innermost
 * dimension is a memcpy where both layouts are contiguous there, else a
 * loop by element size. A two-dimensional copy
 * whose source is contiguous along the outer dimension (a transpose) goes
 * by tiles of RTC_TILE x RTC_TILE elements, so that both sides stay in
 * the cache while a tile is copied; tiles of 4-byte elements (floats,
 * 32-bit integers) go by blocks transposed in vector registers: 8 x 16
 * with AVX-512 where the machine has it (checked when the copy starts;
 * the runtime is compiled for any x86-64), each destination row of 16 a
 * whole cache line, written past the cache (a streaming store) when the
 * copy is larger than the cache; else 4x4 in SSE registers. */
#include "copy.h"

#include <string.h>
#ifdef __SSE2__
#include <xmmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define RTC_AVX512 1
#endif

#include "../sched.h"

/* Elements of a copy below which it runs on the calling thread alone. */
#define RTC_PARALLEL 65536
/* The side of a transpose's tiles, in elements. */
#define RTC_TILE 32
/* Bytes of a transpose above which its rows are written past the cache. */
#define RTC_STREAM (8 << 20)

typedef struct rtc_copy {
    int esz, rank;
    unsigned char *dst;
    const unsigned char *src;
    const int64_t *dstr, *sstr, *shape;
    int64_t chunk; /* outer indices (tiles of them, for a transpose) per task */
    int transpose;
    int avx512, stream; /* a transpose: by 8 x 16 blocks; with streaming stores */
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

#ifdef RTC_AVX512
/* Whether the CPU has AVX-512 and the OS saves its registers. By CPUID
 * itself, not __builtin_cpu_supports, whose data lives in libgcc, which
 * futhorc run's in-process link does not have. */
static int rtc_cpu_avx512(void) {
    unsigned a, b, c, d, lo, hi;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) return 0; /* OSXSAVE */
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 0xe6) != 0xe6) return 0; /* SSE, AVX, opmask and ZMM state enabled */
    return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b >> 16 & 1); /* AVX512F */
}

/* rtc_cpu_avx512, asked once (CPUID traps to the hypervisor in a virtual
 * machine). Threads that ask at once store the same answer. */
static int rtc_has_avx512(void) {
    static _Atomic int has = -1;
    if (has < 0) has = rtc_cpu_avx512();
    return has;
}

/* Rows s, s + lds, ..., s + 7 lds of 8 floats, transposed: r[k] holds
 * element k of each row. */
__attribute__((target("avx"))) static inline void rtc_tr8x8(const float *s, int64_t lds, __m256 r[8]) {
    __m256 a[8], t[8], u[8];
    for (int k = 0; k < 8; k++) a[k] = _mm256_loadu_ps(s + k * lds);
    for (int k = 0; k < 8; k += 2) {
        t[k] = _mm256_unpacklo_ps(a[k], a[k + 1]);
        t[k + 1] = _mm256_unpackhi_ps(a[k], a[k + 1]);
    }
    for (int k = 0; k < 8; k += 4) {
        u[k] = _mm256_shuffle_ps(t[k], t[k + 2], _MM_SHUFFLE(1, 0, 1, 0));
        u[k + 1] = _mm256_shuffle_ps(t[k], t[k + 2], _MM_SHUFFLE(3, 2, 3, 2));
        u[k + 2] = _mm256_shuffle_ps(t[k + 1], t[k + 3], _MM_SHUFFLE(1, 0, 1, 0));
        u[k + 3] = _mm256_shuffle_ps(t[k + 1], t[k + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    for (int k = 0; k < 4; k++) {
        r[k] = _mm256_permute2f128_ps(u[k], u[k + 4], 0x20);
        r[k + 4] = _mm256_permute2f128_ps(u[k], u[k + 4], 0x31);
    }
}

/* A tile of 4-byte elements by blocks of 8 destination rows of 16
 * elements, each row one 64-byte store (a streaming one when c->stream
 * and it is aligned). */
__attribute__((target("avx512f"))) static void rtc_tile16(const rtc_copy *c, int64_t i0, int64_t e0, int64_t i1,
                                                         int64_t e1) {
    float *dst = (float *)c->dst;
    const float *src = (const float *)c->src;
    int64_t ds = c->dstr[0], ss = c->sstr[1];
    for (int64_t a = i0; a < e0; a += 8)
        for (int64_t b = i1; b < e1; b += 16) {
            __m256 lo[8], hi[8];
            rtc_tr8x8(src + a + b * ss, ss, lo);
            rtc_tr8x8(src + a + (b + 8) * ss, ss, hi);
            for (int k = 0; k < 8; k++) {
                __m512d lo_pd = _mm512_castpd256_pd512(_mm256_castps_pd(lo[k]));
                __m512 row = _mm512_castpd_ps(_mm512_insertf64x4(lo_pd, _mm256_castps_pd(hi[k]), 1));
                float *d = dst + (a + k) * ds + b;
                if (c->stream && ((uintptr_t)d & 63) == 0) _mm512_stream_ps(d, row);
                else _mm512_storeu_ps(d, row);
            }
        }
}
#endif

/* The tile [i0, e0) x [i1, e1) of a two-dimensional copy. */
static void rtc_tile(const rtc_copy *c, int64_t i0, int64_t e0, int64_t i1, int64_t e1) {
    int esz = c->esz;
#ifdef RTC_AVX512
    if (c->avx512 && (e0 - i0) % 8 == 0 && (e1 - i1) % 16 == 0) {
        rtc_tile16(c, i0, e0, i1, e1);
        return;
    }
#endif
#ifdef __SSE2__
    if (esz == 4 && (e0 - i0) % 4 == 0 && (e1 - i1) % 4 == 0) {
        rtc_tile4(c, i0, e0, i1, e1);
        return;
    }
#endif
    for (int64_t a = i0; a < e0; a++)
        rtc_line(esz, c->dst + (a * c->dstr[0] + i1 * c->dstr[1]) * esz, c->dstr[1],
                 c->src + (a * c->sstr[0] + i1 * c->sstr[1]) * esz, c->sstr[1], e1 - i1);
}

/* The tiles of a transpose whose tile index along dimension 1 is in
 * [lo, hi): a task reads a band of the source's rows in order (whole
 * cache lines the prefetchers follow) and writes each destination row a
 * tile at a time. Measured on 16 cores (AVX-512, 8192 x 8192 floats):
 * 4.7 ms, against 12 for bands of the destination's rows. */
static void rtc_tiles(const rtc_copy *c, int64_t lo, int64_t hi) {
    for (int64_t t = lo; t < hi; t++) {
        int64_t i1 = t * RTC_TILE, e1 = i1 + RTC_TILE < c->shape[1] ? i1 + RTC_TILE : c->shape[1];
        for (int64_t i0 = 0; i0 < c->shape[0]; i0 += RTC_TILE)
            rtc_tile(c, i0, i0 + RTC_TILE < c->shape[0] ? i0 + RTC_TILE : c->shape[0], i1, e1);
    }
}

static int rtc_task(rt_ctx *ctx, void *env, int64_t task, int tid) {
    (void)ctx, (void)tid;
    const rtc_copy *c = env;
    int64_t outer = c->transpose ? (c->shape[1] + RTC_TILE - 1) / RTC_TILE : c->shape[0];
    int64_t lo = task * c->chunk, hi = lo + c->chunk < outer ? lo + c->chunk : outer;
    if (c->transpose) rtc_tiles(c, lo, hi);
    else rtc_rows(c, lo, hi);
#ifdef __SSE2__
    if (c->stream) _mm_sfence(); /* the streaming stores done before the task is */
#endif
    return 0;
}

void rt_lmad_copy(rt_ctx *ctx, int esz, void *dst, const int64_t *dstr, const void *src, const int64_t *sstr, int rank,
                  const int64_t *shape) {
    int64_t total = 1;
    for (int k = 0; k < rank; k++) {
        if (shape[k] <= 0) return;
        total *= shape[k];
    }
    rtc_copy c = {esz, rank, dst, src, dstr, sstr, shape, 0, 0, 0, 0};
    if (rank == 0) {
        memcpy(dst, src, (size_t)esz);
        return;
    }
    /* A transpose: the source runs along the outer dimension, the
     * destination along the inner one. */
    c.transpose = rank == 2 && sstr[0] == 1 && sstr[1] != 1 && dstr[1] == 1;
#ifdef RTC_AVX512
    if (c.transpose && esz == 4) {
        c.avx512 = rtc_has_avx512();
        c.stream = c.avx512 && total * esz > RTC_STREAM;
    }
#endif
    int64_t outer = c.transpose ? (shape[1] + RTC_TILE - 1) / RTC_TILE : shape[0];
    int64_t tasks = total < RTC_PARALLEL ? 1 : 4 * (int64_t)rt_num_threads(ctx);
    if (tasks > outer) tasks = outer;
    c.chunk = (outer + tasks - 1) / tasks;
    rt_parfor(ctx, (outer + c.chunk - 1) / c.chunk, rtc_task, &c);
}
