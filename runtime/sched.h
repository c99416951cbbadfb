/* The multicore runtime's scheduler: a pool of threads that run the tasks
 * of parallel loops (rt_parfor), which the code of `futhorc multicore`
 * calls for its parallel operations.
 *
 * Design. A scheduler owns nthreads - 1 worker threads; the thread that
 * calls rt_parfor is the other one and takes tasks too (tid 0; workers have
 * tids 1 .. nthreads-1). A loop is published as a job: its function,
 * environment, task count and an atomic counter from which every thread
 * takes the next task number (dynamic assignment, so that uneven tasks
 * balance), until the counter passes the count or a task has failed.
 *
 * Workers join a job through one atomic word holding the job's number and
 * the count of workers inside it. An odd number is an open job; joining is
 * a compare-and-swap that adds one worker only while the number is
 * unchanged, and the caller closes the job (making the number even) only
 * with a compare-and-swap that sees no worker inside. So the caller returns
 * once every task that started has finished, without waiting for workers
 * that were asleep and never joined, and a late worker can never see the
 * fields of the next job half written.
 *
 * Idle workers spin a while on the job word (with a pause instruction), so
 * that loops in quick succession cost no context switch, then sleep on a
 * condition variable; publishing a job wakes the sleepers.
 *
 * A loop started from inside a task (nested parallelism) runs its tasks in
 * order on that thread, with that thread's tid: the pool is busy with the
 * outer loop, and waiting for it would deadlock. Loops started from
 * different threads outside any task take turns. */
#ifndef FUTHORC_SCHED_H
#define FUTHORC_SCHED_H

#ifndef FUTHORC_RT_H
#include "rt.h"
#endif

typedef struct rt_sched rt_sched;

/* A scheduler whose loops run on nthreads threads, the caller included
 * (nthreads <= 0: the number of online CPU cores). With pin (on Linux,
 * where compiled with _GNU_SOURCE, as the runtime object of executables
 * is), worker k (1 to nthreads - 1) stays on the k'th CPU the caller may
 * run on, when there are that many; the caller is not pinned. NULL when
 * the threads or memory cannot be had. */
rt_sched *rt_sched_new(int nthreads, bool pin);
/* Stops and joins the workers and frees s (NULL: nothing). No loop may be
 * running on s. */
void rt_sched_free(rt_sched *s);
/* The number of threads that run tasks, the caller included. */
int rt_sched_threads(const rt_sched *s);

/* A task of a parallel loop: task is its number, tid (in [0,
 * rt_num_threads(ctx))) names the thread running it, for per-thread
 * scratch. Returns 0, or non-zero after recording an error with rt_error. */
typedef int (*rt_task_fn)(rt_ctx *ctx, void *env, int64_t task, int tid);

/* Runs fn(ctx, env, t, tid) once for every t in [0, ntasks), spread over
 * ctx->sched's threads (in order on the calling thread with tid 0 when
 * ctx->sched is NULL). Returns 0, or 1 when a task failed; the tasks not
 * yet started then are skipped. Returns once every started task has
 * finished. */
int rt_parfor(rt_ctx *ctx, int64_t ntasks, rt_task_fn fn, void *env);
/* The number of threads rt_parfor may use on ctx: 1 without a scheduler. */
int rt_num_threads(rt_ctx *ctx);

/* Tasks are handed out in the order of their numbers, and a thread that
 * took a task runs it to its end before it takes another; so a task may
 * wait for a lower-numbered task of its loop, which has started, without
 * a deadlock. rt_signal sets *flag to value (non-zero) once the stores
 * before it are seen; rt_await waits until *flag is non-zero and returns
 * it (then those stores are seen), or returns 0 when a task of the
 * running loop failed meanwhile (the flag may never come). */
void rt_signal(int32_t *flag, int32_t value);
int32_t rt_await(rt_ctx *ctx, const int32_t *flag);

/* The backend of multicore executables (rt_the_backend): the options
 * --num-threads N and --pin-threads, and a scheduler of that many threads
 * (default: all cores), pinned or not, in the context of every run. */
extern const rt_backend rt_multicore_backend;

#endif
