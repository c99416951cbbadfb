/* Reference-counted memory blocks for generated programs (header only).
 *
 * Every block allocated while an entry point runs is linked into the
 * entry's pool; a block is freed when its last reference is released, and
 * whatever is left when the entry returns (normally nothing, everything
 * after a failure) is freed with the pool. A wrapped block points at memory
 * it does not own (an input value used in place).
 *
 * A pool may have a cache (rt_cache, the multicore backend's: one per
 * context): then a freed block is kept in the cache instead, and later
 * allocations of about its size take it again. Fresh memory costs a page
 * fault per page at its first use, which for large arrays takes longer
 * than the work on them: a program that runs an entry point again (a
 * benchmark's runs, a server's calls) reuses the previous run's memory,
 * as Futhark's contexts do with their free lists. */
#ifndef FUTHORC_RT_MEMORY_H
#define FUTHORC_RT_MEMORY_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

typedef struct rt_block {
    int64_t refs;
    struct rt_block *prev, *next; /* the pool's list of live blocks (the
                                     cache's list of free ones) */
    unsigned char *data; /* after a 48-byte header: 16-byte aligned like malloc's */
    int64_t cap;         /* the bytes after the header (wrapped: 0) */
    struct rt_cache *cache; /* where the block goes when freed, or NULL */
} rt_block;

/* Freed blocks kept for reuse: a list (next) and their bytes in all. */
typedef struct rt_cache {
    rt_block *free;
    int64_t bytes;
} rt_cache;

/* The live blocks of one entry-point run: a circular list with a
 * sentinel; cache (or NULL) keeps the blocks it frees. */
typedef struct rt_pool {
    rt_block live;
    rt_cache *cache;
} rt_pool;

static inline void rt_pool_init(rt_pool *p) {
    p->live.prev = p->live.next = &p->live;
    p->cache = NULL;
}

/* Frees every block of the cache. */
static inline void rt_cache_clear(rt_cache *c) {
    while (c->free) {
        rt_block *b = c->free;
        c->free = b->next;
        free(b);
    }
    c->bytes = 0;
}

/* The cached block that fits bytes best, taken out of the cache; only one
 * at most twice as large (and 4 KiB more), so that a small array does not
 * hold a large block. NULL when none fits. */
static inline rt_block *rt_cache_take_(rt_cache *c, int64_t bytes) {
    rt_block **best = NULL;
    for (rt_block **q = &c->free; *q; q = &(*q)->next) {
        int64_t cap = (*q)->cap;
        if (cap >= bytes && cap <= 2 * bytes + 4096 && (!best || cap < (*best)->cap)) best = q;
    }
    if (!best) return NULL;
    rt_block *b = *best;
    *best = b->next;
    c->bytes -= b->cap;
    return b;
}

/* Frees block b: into its cache when it has one, else to the system. */
static inline void rt_block_free_(rt_block *b) {
    if (!b->cache) {
        free(b);
        return;
    }
    b->next = b->cache->free;
    b->cache->free = b;
    b->cache->bytes += b->cap;
}

static inline void rt_pool_link_(rt_pool *p, rt_block *b) {
    b->refs = 1;
    b->next = p->live.next;
    b->prev = &p->live;
    p->live.next->prev = b;
    p->live.next = b;
}

/* A fresh block of bytes bytes with one reference, or NULL when out of memory. */
static inline rt_block *rt_block_new(rt_pool *p, int64_t bytes) {
    if (bytes < 0 || (uint64_t)bytes > (uint64_t)PTRDIFF_MAX - sizeof(rt_block) - 16) return NULL; /* malloc takes at most PTRDIFF_MAX */
    rt_block *b = p->cache ? rt_cache_take_(p->cache, bytes) : NULL;
    if (!b) {
        b = malloc(sizeof(rt_block) + (size_t)(bytes > 0 ? bytes : 1));
        if (!b && p->cache && p->cache->free) { /* give the cache back, then try again */
            rt_cache_clear(p->cache);
            b = malloc(sizeof(rt_block) + (size_t)(bytes > 0 ? bytes : 1));
        }
        if (!b) return NULL;
        b->data = (unsigned char *)(b + 1);
        b->cap = bytes;
        b->cache = p->cache;
    }
    rt_pool_link_(p, b);
    return b;
}

/* A block over memory owned by someone else (not freed with the block). */
static inline rt_block *rt_block_wrap(rt_pool *p, void *data) {
    rt_block *b = malloc(sizeof(rt_block));
    if (!b) return NULL;
    b->data = data;
    b->cap = 0;
    b->cache = NULL;
    rt_pool_link_(p, b);
    return b;
}

/* References are counted atomically: the tasks of a parallel loop take and
 * drop references to blocks made outside them (an if in a map's body that
 * returns a view of an input, say) at the same time. A block made outside
 * a task keeps that outer reference until the loop is over, so only its
 * count changes in tasks, never the pool's list. */
static inline void rt_block_retain(rt_block *b) { __atomic_fetch_add(&b->refs, 1, __ATOMIC_RELAXED); }

/* A malloc'd buffer for count elements of esz bytes (and one byte more, so
 * that an empty array has a buffer too), or NULL when count is negative,
 * the byte count overflows or memory runs out. */
static inline void *rt_malloc_elems(int64_t count, int64_t esz) {
    if (count < 0 || (esz > 0 && count > (INT64_MAX - 1) / esz) || (uint64_t)(count * esz) >= SIZE_MAX) return NULL;
    return malloc((size_t)(count * esz) + 1);
}

/* Reports that an allocation of bytes bytes (an OP_SIZE_MUL result: -1 for
 * a negative array size, INT64_MAX for one whose byte count overflowed)
 * made at loc ("file:line:col: ") failed (by rt_error alone: safe in the
 * tasks of a parallel loop, which may fail at once). */
static inline void rt_alloc_error(rt_ctx *ctx, const char *loc, int64_t bytes) {
    if (bytes < 0) rt_error(ctx, "%snegative array size", loc);
    else if (bytes == INT64_MAX) rt_error(ctx, "%sout of memory: the array's size in bytes overflows 64 bits", loc);
    else rt_error(ctx, "%sout of memory (allocating %lld bytes)", loc, (long long)bytes);
}

/* The same where an error the allocator already recorded (a device's)
 * gets the location in front (one thread only). */
static inline void rt_alloc_failed(rt_ctx *ctx, const char *loc, int64_t bytes) {
    if (ctx->error && bytes >= 0 && bytes < INT64_MAX) {
        char *cause = ctx->error;
        ctx->error = NULL;
        rt_error(ctx, "%s%s", loc, cause);
        free(cause);
        return;
    }
    free(ctx->error);
    ctx->error = NULL;
    rt_alloc_error(ctx, loc, bytes);
}

static inline void rt_block_release(rt_block *b) {
    if (__atomic_sub_fetch(&b->refs, 1, __ATOMIC_ACQ_REL) > 0) return;
    b->prev->next = b->next;
    b->next->prev = b->prev;
    rt_block_free_(b);
}

/* Frees every block still live in the pool (into its cache, if any). */
static inline void rt_pool_free(rt_pool *p) {
    rt_block *b = p->live.next;
    while (b != &p->live) {
        rt_block *next = b->next;
        rt_block_free_(b);
        b = next;
    }
    p->live.prev = p->live.next = &p->live;
}

#endif
