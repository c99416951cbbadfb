/* Reference-counted memory blocks for generated programs (header only).
 *
 * Every block allocated while an entry point runs is linked into the
 * entry's pool; a block is freed when its last reference is released, and
 * whatever is left when the entry returns (normally nothing, everything
 * after a failure) is freed with the pool. A wrapped block points at memory
 * it does not own (an input value used in place). */
#ifndef FUTHORC_RT_MEMORY_H
#define FUTHORC_RT_MEMORY_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

typedef struct rt_block {
    int64_t refs;
    struct rt_block *prev, *next; /* the pool's list of live blocks */
    unsigned char *data; /* after a 32-byte header: 16-byte aligned like malloc's */
} rt_block;

/* The live blocks of one entry-point run: a circular list with a sentinel. */
typedef struct rt_pool {
    rt_block live;
} rt_pool;

static inline void rt_pool_init(rt_pool *p) { p->live.prev = p->live.next = &p->live; }

static inline void rt_pool_link_(rt_pool *p, rt_block *b) {
    b->refs = 1;
    b->next = p->live.next;
    b->prev = &p->live;
    p->live.next->prev = b;
    p->live.next = b;
}

/* A fresh block of bytes bytes with one reference, or NULL when out of memory. */
static inline rt_block *rt_block_new(rt_pool *p, int64_t bytes) {
    if (bytes < 0 || (uint64_t)bytes > SIZE_MAX - sizeof(rt_block) - 16) return NULL;
    rt_block *b = malloc(sizeof(rt_block) + (size_t)(bytes > 0 ? bytes : 1));
    if (!b) return NULL;
    b->data = (unsigned char *)(b + 1);
    rt_pool_link_(p, b);
    return b;
}

/* A block over memory owned by someone else (not freed with the block). */
static inline rt_block *rt_block_wrap(rt_pool *p, void *data) {
    rt_block *b = malloc(sizeof(rt_block));
    if (!b) return NULL;
    b->data = data;
    rt_pool_link_(p, b);
    return b;
}

static inline void rt_block_retain(rt_block *b) { b->refs++; }

/* A malloc'd buffer for count elements of esz bytes (and one byte more, so
 * that an empty array has a buffer too), or NULL when count is negative,
 * the byte count overflows or memory runs out. */
static inline void *rt_malloc_elems(int64_t count, int64_t esz) {
    if (count < 0 || (esz > 0 && count > (INT64_MAX - 1) / esz) || (uint64_t)(count * esz) >= SIZE_MAX) return NULL;
    return malloc((size_t)(count * esz) + 1);
}

/* Reports that an allocation of bytes bytes (an OP_SIZE_MUL result: -1 for
 * a negative array size, INT64_MAX for one whose byte count overflowed)
 * made at loc ("file:line:col: ") failed. An error the allocator already
 * recorded (a device's) gets the location in front. */
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
    if (bytes < 0) rt_error(ctx, "%snegative array size", loc);
    else if (bytes == INT64_MAX) rt_error(ctx, "%sout of memory: the array's size in bytes overflows 64 bits", loc);
    else rt_error(ctx, "%sout of memory (allocating %lld bytes)", loc, (long long)bytes);
}

static inline void rt_block_release(rt_block *b) {
    if (--b->refs > 0) return;
    b->prev->next = b->next;
    b->next->prev = b->prev;
    free(b);
}

/* Frees every block still live in the pool. */
static inline void rt_pool_free(rt_pool *p) {
    rt_block *b = p->live.next;
    while (b != &p->live) {
        rt_block *next = b->next;
        free(b);
        b = next;
    }
    rt_pool_init(p);
}

#endif
