/* The multicore backend's runtime pieces beside the scheduler: copies
 * between LMAD layouts (runtime/llvm/copy.c), checked against a plain
 * loop nest on one and on several threads, and the cache of freed blocks
 * (runtime/memory.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../runtime/llvm/copy.c"
#include "memory.h"

/* The element at index idx (rank dims) through strides. */
static int64_t at(const int64_t *idx, const int64_t *str, int rank) {
    int64_t o = 0;
    for (int k = 0; k < rank; k++) o += idx[k] * str[k];
    return o;
}

/* Copies esz-byte elements with rt_lmad_copy on threads threads and
 * checks every destination element against the source, and that the
 * destination's other bytes are untouched. */
static void check_copy(int threads, int esz, int rank, const int64_t *shape, const int64_t *dstr, const int64_t *sstr,
                       int64_t dsize, int64_t ssize) {
    /* dst at a cache line, as the runtime's blocks are */
    unsigned char *src = malloc((size_t)(ssize * esz)), *dst = aligned_alloc(64, (size_t)(dsize * esz + 63) / 64 * 64);
    assert_non_null(src);
    assert_non_null(dst);
    for (int64_t i = 0; i < ssize * esz; i++) src[i] = (unsigned char)(i * 7 + 3);
    memset(dst, 0xee, (size_t)(dsize * esz));
    rt_ctx ctx = {0};
    ctx.sched = threads > 1 ? rt_sched_new(threads, false) : NULL;
    rt_lmad_copy(&ctx, esz, dst, dstr, src, sstr, rank, shape);
    rt_sched_free(ctx.sched);
    unsigned char *want = malloc((size_t)(dsize * esz));
    assert_non_null(want);
    memset(want, 0xee, (size_t)(dsize * esz));
    int64_t idx[8] = {0}, total = 1;
    for (int k = 0; k < rank; k++) total *= shape[k];
    for (int64_t n = 0; n < total; n++) {
        memcpy(want + at(idx, dstr, rank) * esz, src + at(idx, sstr, rank) * esz, (size_t)esz);
        for (int k = rank - 1; k >= 0 && ++idx[k] == shape[k]; k--) idx[k] = 0;
    }
    assert_memory_equal(dst, want, (size_t)(dsize * esz));
    free(src);
    free(dst);
    free(want);
}

/* A transpose larger than a tile on each side (and not a multiple of
 * one), big enough to run in parallel, of every element size. */
static void test_transpose(void **state) {
    (void)state;
    int64_t shape[] = {517, 301}, dstr[] = {301, 1}, sstr[] = {1, 517};
    for (int esz = 1; esz <= 8; esz *= 2)
        for (int t = 1; t <= 4; t += 3) check_copy(t, esz, 2, shape, dstr, sstr, 517 * 301, 517 * 301);
}

/* Transposes of 4-byte elements larger than the cache (written by
 * streaming stores with AVX-512), by blocks of 8 x 16 and 4 x 4 (the last
 * tiles): destination rows aligned to cache lines (1536 elements) and
 * not (1448). */
static void test_large_transpose(void **state) {
    (void)state;
    int64_t shape[] = {1544, 1448}, dstr[] = {1448, 1}, sstr[] = {1, 1544};
    check_copy(4, 4, 2, shape, dstr, sstr, 1544 * 1448, 1544 * 1448);
    int64_t shape2[] = {1544, 1536}, dstr2[] = {1536, 1}, sstr2[] = {1, 1544};
    check_copy(4, 4, 2, shape2, dstr2, sstr2, 1544 * 1536, 1544 * 1536);
}

/* Contiguous rows of a larger array (memcpy lines), a rank-3 copy from a
 * permuted layout, and a broadcast source (stride 0). */
static void test_rows_and_strides(void **state) {
    (void)state;
    int64_t shape2[] = {1000, 100}, dstr2[] = {100, 1}, sstr2[] = {130, 1};
    check_copy(4, 4, 2, shape2, dstr2, sstr2, 100000, 130000);
    int64_t shape3[] = {40, 30, 70}, dstr3[] = {2100, 70, 1}, sstr3[] = {1, 40 * 70, 40};
    check_copy(3, 8, 3, shape3, dstr3, sstr3, 84000, 84000);
    int64_t shapeb[] = {300, 400}, dstrb[] = {400, 1}, sstrb[] = {0, 1};
    check_copy(4, 2, 2, shapeb, dstrb, sstrb, 120000, 400);
}

/* Nothing is written for an empty shape; rank 1 with a stride. */
static void test_empty_and_rank1(void **state) {
    (void)state;
    int64_t shape[] = {0, 5}, str[] = {5, 1};
    check_copy(2, 4, 2, shape, str, str, 10, 10);
    int64_t s1[] = {100000}, d1[] = {1}, ss1[] = {3};
    check_copy(4, 4, 1, s1, d1, ss1, 100000, 300000);
}

/* A pool with a cache takes a freed block of about the size back, not a
 * much larger one, and keeps what the pool frees at its end. */
static void test_cache(void **state) {
    (void)state;
    rt_cache cache = {0};
    rt_pool p;
    rt_pool_init(&p);
    p.cache = &cache;
    rt_block *a = rt_block_new(&p, 1000);
    assert_non_null(a);
    unsigned char *adata = a->data;
    rt_block_release(a);
    assert_int_equal(cache.bytes, 1000);
    rt_block *b = rt_block_new(&p, 900);
    assert_ptr_equal(b->data, adata);
    assert_int_equal(cache.bytes, 0);
    rt_block *c = rt_block_new(&p, 10);
    assert_ptr_not_equal(c->data, adata);
    rt_block_release(b);
    rt_block *d = rt_block_new(&p, 100000);
    assert_ptr_not_equal(d->data, adata); /* too small for it */
    assert_int_equal(cache.bytes, 1000);
    rt_pool_free(&p); /* c and d, still live */
    assert_int_equal(cache.bytes, 1000 + 10 + 100000);
    int x = 0;
    rt_block *w = rt_block_wrap(&p, &x);
    rt_block_release(w); /* wrapped: not cached */
    assert_int_equal(cache.bytes, 1000 + 10 + 100000);
    rt_cache_clear(&cache);
    assert_null(cache.free);
    assert_int_equal(cache.bytes, 0);
}

/* Sizes malloc cannot take (above PTRDIFF_MAX with the header: a
 * saturated size product) and negative ones give NULL without calling it,
 * so that the C compiler sees no path passing malloc such a size (gcc
 * warned about one in futhark-benchmarks' knn-by-kdtree). */
static void test_huge_sizes(void **state) {
    (void)state;
    rt_pool p;
    rt_pool_init(&p);
    assert_null(rt_block_new(&p, INT64_MAX));
    assert_null(rt_block_new(&p, (int64_t)(PTRDIFF_MAX - sizeof(rt_block))));
    assert_null(rt_block_new(&p, -1));
    rt_block *b = rt_block_new(&p, 0);
    assert_non_null(b);
    rt_block_release(b);
    rt_pool_free(&p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_huge_sizes),
        cmocka_unit_test(test_transpose),
        cmocka_unit_test(test_large_transpose),
        cmocka_unit_test(test_rows_and_strides),
        cmocka_unit_test(test_empty_and_rank1),
        cmocka_unit_test(test_cache),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
