/* The runtime as the LLVM backend's generated code sees it
 * (compiler/backend/llvm.c). The build compiles this file to LLVM bitcode
 * with clang; the compiler starts every program's module from that
 * bitcode and calls these functions by name, and LLVM inlines them.
 * So the scalar operations of runtime/scalar.h (rt_<op>_<type>,
 * rt_conv_<from>_<to>) are defined once for the C, OpenCL and LLVM
 * backends, and the generated code needs no knowledge of the runtime's
 * structures (rt_value, rt_block): it goes through the rtl_ accessors
 * below.
 *
 * Every function here is kept although nothing here calls it (static
 * and used); functions of the runtime object (rt_error, rt_main,
 * rt_parfor, in runtime/main.c, runtime/sched.c and the other files
 * runtime/llvm/rt.c gathers) are declared by their uses here and linked
 * with the program. */
#define RT_INLINE static inline __attribute__((used))
#include <time.h>

#include "../rt.h"
#include "../memory.h"
#include "../scalar.h"
#include "../sched.h"
#include "copy.h"

#define RTL static __attribute__((used))

/* ---- Blocks (runtime/memory.h) ---- */

RTL unsigned char *rtl_block_data(rt_block *b) { return b->data; }
RTL rt_block *rtl_block_new(rt_pool *p, int64_t bytes) { return rt_block_new(p, bytes); }
RTL void rtl_block_retain(rt_block *b) { rt_block_retain(b); }
RTL void rtl_block_release(rt_block *b) { rt_block_release(b); }

/* Records that an allocation of bytes made at loc failed (rt_alloc_error:
 * tasks may fail at once). */
RTL void rtl_alloc_failed(rt_ctx *ctx, const char *loc, int64_t bytes) { rt_alloc_error(ctx, loc, bytes); }

/* ---- Entry points: arguments, results and the run ---- */

RTL int64_t rtl_arg_dim(const rt_value *ins, int k, int d) { return ins[k].shape[d]; }

/* Argument k as a scalar's address. */
RTL const void *rtl_arg_data(const rt_value *ins, int k) { return ins[k].data; }

/* Argument k's elements as a block: the caller's memory wrapped, or a
 * copy (copy: the entry consumes the argument) of elements of esz bytes.
 * NULL after recording the failure. */
RTL rt_block *rtl_arg_block(rt_ctx *ctx, rt_pool *pool, const rt_value *ins, int k, int esz, bool copy) {
    if (!copy) {
        rt_block *b = rt_block_wrap(pool, ins[k].data);
        if (!b) rt_error(ctx, "out of memory (wrapping an argument)");
        return b;
    }
    int64_t bytes = rt_size_mul_i64(rt_value_count(&ins[k]), esz);
    rt_block *b = rt_block_new(pool, bytes);
    if (!b) {
        rt_error(ctx, "out of memory (copying an argument)");
        return NULL;
    }
    memcpy(b->data, ins[k].data, (size_t)bytes);
    return b;
}

/* Sets the type and shape (rank entries of shape) of result k and
 * allocates its elements; returns where they go, or NULL after recording
 * the failure. */
RTL void *rtl_result(rt_ctx *ctx, rt_value *outs, int k, int elem, int rank, const int64_t *shape) {
    rt_value *v = &outs[k];
    v->type.elem = (rt_prim)elem;
    v->type.rank = rank;
    if (rank > 0) {
        v->shape = malloc((size_t)rank * sizeof(int64_t));
        if (!v->shape) {
            rt_error(ctx, "out of memory (writing a result)");
            return NULL;
        }
        memcpy(v->shape, shape, (size_t)rank * sizeof(int64_t));
    }
    v->data = rt_malloc_elems(rt_value_count(v), rt_prim_size((rt_prim)elem));
    if (!v->data) rt_error(ctx, "out of memory (writing a result)");
    return v->data;
}

static int64_t rtl_now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Called as the entry starts writing its results: its run time is the
 * computation's, not the copies into the caller's memory (as an OpenCL
 * entry's leaves out the transfers). */
RTL void rtl_results_begin(rt_ctx *ctx) { ctx->run_us = rtl_now_us() - ctx->start_us; }

/* An entry point's rt_entry_fn: runs body with a pool of its own, which
 * it frees after; after a failure, frees the results made so far. */
typedef int (*rtl_body)(rt_ctx *ctx, rt_pool *pool, const rt_value *ins, rt_value *outs);
RTL int rtl_run(rt_ctx *ctx, const rt_value *ins, rt_value *outs, int nout, rtl_body body) {
    rt_pool pool;
    rt_pool_init(&pool);
    pool.cache = ctx->cache;
    ctx->start_us = rtl_now_us();
    for (int k = 0; k < nout; k++) outs[k].shape = NULL, outs[k].data = NULL;
    int r = body(ctx, &pool, ins, outs);
    rt_pool_free(&pool);
    for (int k = 0; r && k < nout; k++) {
        free(outs[k].data);
        free(outs[k].shape);
        outs[k].shape = NULL, outs[k].data = NULL;
    }
    return r;
}

/* ---- Parallel loops (runtime/sched.h) ---- */

/* The body of a parallel loop's task: the generated function at the start
 * of its environment, which it gets with a pool of its own. */
typedef int (*rtl_task_body)(rt_ctx *ctx, rt_pool *pool, void *env, int64_t task);
RTL int rtl_task(rt_ctx *ctx, void *env, int64_t task, int tid) {
    (void)tid;
    rt_pool pool;
    rt_pool_init(&pool);
    int r = (*(rtl_task_body *)env)(ctx, &pool, env, task);
    rt_pool_free(&pool);
    return r;
}

/* Runs the n tasks of a parallel loop whose environment is env. */
RTL int rtl_parfor(rt_ctx *ctx, int64_t n, void *env) { return rt_parfor(ctx, n, rtl_task, env); }
RTL int64_t rtl_num_threads(rt_ctx *ctx) { return rt_num_threads(ctx); }
/* A task's wait for a lower-numbered one's flag (IMP_AWAIT), and the
 * setting of a flag (IMP_SIGNAL). */
RTL int32_t rtl_await(rt_ctx *ctx, const int32_t *flag) { return rt_await(ctx, flag); }
RTL void rtl_signal(int32_t *flag, int32_t value) { rt_signal(flag, value); }

/* A copy of entry code between LMAD layouts (runtime/llvm/copy.c). */
RTL void rtl_copy(rt_ctx *ctx, int esz, void *dst, const int64_t *dstr, const void *src, const int64_t *sstr, int rank,
                  const int64_t *shape) {
    rt_lmad_copy(ctx, esz, dst, dstr, src, sstr, rank, shape);
}

/* The program's main: the executable's command line (rt_main), or
 * Futhark's server protocol (rt_server_main) when server. */
RTL int rtl_main(int argc, char **argv, const rt_entry *entries, int nentries, bool server) {
    rt_the_backend = &rt_multicore_backend;
    return server ? rt_server_main(argc, argv, entries, nentries) : rt_main(argc, argv, entries, nentries);
}
