/* The multicore scheduler (runtime/sched.h explains its design): the
 * thread pool, rt_parfor, and the backend of multicore executables, which
 * takes --num-threads and gives every run's context a scheduler.
 *
 * Meant to be pasted into multicore programs with the other runtime files,
 * so static names start with rtsc_ and macros are #undef'd at the end. */
#ifndef FUTHORC_RT_H
#include "rt.h"
#endif
#ifndef FUTHORC_SCHED_H
#include "sched.h"
#endif
#ifndef FUTHORC_RT_MEMORY_H
#include "memory.h"
#endif

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Most threads of one scheduler: more than the cores of any machine, and
 * the job word's count of workers inside a job must not reach its 32 bits.
 * --num-threads refuses more; rt_sched_new takes no more. */
#define RTSC_MAX_THREADS 4096
/* Pause instructions an idle worker spins through before it sleeps: about
 * 0.1 ms on current x86 processors (a pause takes 10 to 140 cycles by
 * model), so that loops with a little sequential code between them find
 * the workers awake, while an idle program soon stops using its cores. */
#define RTSC_SPIN 4000
/* Pause instructions the caller spins through, waiting for the last tasks
 * of a loop (and a task through, waiting for an earlier task's flag:
 * rt_await), before it yields its core now and then (which matters when
 * there are more threads than cores). */
#define RTSC_WAIT_SPIN 2000
/* The job word: the job's number in the high 32 bits (odd: open), the
 * count of workers inside the job in the low ones. */
#define RTSC_JOB_ONE ((uint64_t)1 << 32)
#define RTSC_JOB_NUM(w) ((uint32_t)((w) >> 32))

typedef struct rtsc_worker {
    pthread_t thread;
    rt_sched *s;
    int tid;
    int cpu; /* the CPU it is pinned to, or -1 */
} rtsc_worker;

struct rt_sched {
    int nthreads;         /* the caller included */
    rtsc_worker *workers; /* nthreads - 1 */
    _Atomic uint64_t job; /* the job word (RTSC_JOB_*) */
    /* The current job, written by the caller while no job is open. */
    rt_ctx *ctx;
    rt_task_fn fn;
    void *env;
    int64_t ntasks;
    _Atomic int64_t next; /* the next task number to hand out */
    _Atomic int failed;   /* a task of the job returned non-zero */
    _Atomic bool stop;    /* rt_sched_free: workers return */
    _Atomic int sleepers; /* workers asleep on wake (changed under lock) */
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_mutex_t turn; /* held by the thread whose loop is the job */
};

/* The tid of the task this thread is running, or -1 outside any task: in
 * a pthread key rather than a _Thread_local variable, which the JIT of
 * futhorc run (LLVM's ORC, without a platform runtime) cannot link. */
static pthread_key_t rtsc_key;
static pthread_once_t rtsc_key_once = PTHREAD_ONCE_INIT;

static void rtsc_make_key(void) {
    if (pthread_key_create(&rtsc_key, NULL)) abort(); /* only when out of keys at the program's start */
}

static int rtsc_tid(void) {
    pthread_once(&rtsc_key_once, rtsc_make_key);
    return (int)(intptr_t)pthread_getspecific(rtsc_key) - 1;
}

static void rtsc_set_tid(int tid) {
    pthread_once(&rtsc_key_once, rtsc_make_key);
    pthread_setspecific(rtsc_key, (void *)(intptr_t)(tid + 1));
}

/* A hint to the processor that this thread is spinning. */
static inline void rtsc_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Takes and runs the job's tasks on this thread until none is left or one
 * has failed. */
static void rtsc_run(rt_sched *s, int tid) {
    int outer = rtsc_tid();
    rtsc_set_tid(tid);
    while (!atomic_load_explicit(&s->failed, memory_order_relaxed)) {
        int64_t t = atomic_fetch_add_explicit(&s->next, 1, memory_order_relaxed);
        if (t >= s->ntasks) break;
        if (s->fn(s->ctx, s->env, t, tid)) atomic_store_explicit(&s->failed, 1, memory_order_relaxed);
    }
    rtsc_set_tid(outer);
}

/* Whether job word w shows a job this worker has not met (its last one
 * was number last), or the scheduler is stopping. */
static bool rtsc_ready(rt_sched *s, uint64_t w, uint32_t last) {
    return ((RTSC_JOB_NUM(w) & 1) && RTSC_JOB_NUM(w) != last) || atomic_load(&s->stop);
}

/* Waits for a job other than number last (spinning, then asleep); returns
 * the job word. */
static uint64_t rtsc_await(rt_sched *s, uint32_t last) {
    for (int i = 0; i < RTSC_SPIN; i++) {
        uint64_t w = atomic_load(&s->job);
        if (rtsc_ready(s, w, last)) return w;
        rtsc_pause();
    }
    pthread_mutex_lock(&s->lock);
    atomic_fetch_add(&s->sleepers, 1);
    uint64_t w;
    while (!rtsc_ready(s, w = atomic_load(&s->job), last)) pthread_cond_wait(&s->wake, &s->lock);
    atomic_fetch_sub(&s->sleepers, 1);
    pthread_mutex_unlock(&s->lock);
    return w;
}

/* Enters the open job of word w as one more worker; false when that job
 * has closed meanwhile. */
static bool rtsc_join(rt_sched *s, uint64_t w) {
    uint32_t num = RTSC_JOB_NUM(w);
    while (RTSC_JOB_NUM(w) == num)
        if (atomic_compare_exchange_weak(&s->job, &w, w + 1)) return true;
    return false;
}

/* Pins the calling thread to the CPU cpu (-1: leaves it). */
static void rtsc_pin(int cpu) {
#if defined(__linux__) && defined(_GNU_SOURCE)
    if (cpu < 0) return;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    pthread_setaffinity_np(pthread_self(), sizeof one, &one);
#else
    (void)cpu;
#endif
}

static void *rtsc_worker_main(void *arg) {
    rtsc_worker *me = arg;
    rt_sched *s = me->s;
    rtsc_pin(me->cpu);
    uint32_t last = 0;
    for (;;) {
        uint64_t w = rtsc_await(s, last);
        if (atomic_load(&s->stop)) return NULL;
        last = RTSC_JOB_NUM(w);
        if (!rtsc_join(s, w)) continue;
        rtsc_run(s, me->tid);
        atomic_fetch_sub(&s->job, 1);
    }
}

/* Tells the workers to return and joins the first n of them. */
static void rtsc_stop(rt_sched *s, int n) {
    atomic_store(&s->stop, true);
    pthread_mutex_lock(&s->lock);
    pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
    for (int i = 0; i < n; i++) pthread_join(s->workers[i].thread, NULL);
}

/* Frees s's memory and synchronisation objects; its threads are gone. */
static void rtsc_release(rt_sched *s) {
    pthread_mutex_destroy(&s->lock);
    pthread_mutex_destroy(&s->turn);
    pthread_cond_destroy(&s->wake);
    free(s->workers);
    free(s);
}

/* The number of online cores, at least 1. */
static int rtsc_cores(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > RTSC_MAX_THREADS ? RTSC_MAX_THREADS : (int)n;
}

rt_sched *rt_sched_new(int nthreads, bool pin) {
    int n = nthreads <= 0 ? rtsc_cores() : nthreads > RTSC_MAX_THREADS ? RTSC_MAX_THREADS : nthreads;
    rt_sched *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->workers = calloc((size_t)n, sizeof *s->workers);
    if (!s->workers || pthread_mutex_init(&s->lock, NULL) || pthread_mutex_init(&s->turn, NULL) ||
        pthread_cond_init(&s->wake, NULL)) {
        free(s->workers);
        free(s);
        return NULL;
    }
    s->nthreads = n;
    /* With pin, worker k runs on the k'th CPU the calling thread may use
     * (when there are enough of them); the calling thread itself is left
     * where it is (its CPUs are what threads it makes later inherit), and
     * the 0th is the one no worker takes. */
    int cpus[RTSC_MAX_THREADS];
    int ncpus = 0;
#if defined(__linux__) && defined(_GNU_SOURCE)
    cpu_set_t all;
    if (pin && !sched_getaffinity(0, sizeof all, &all))
        for (int c = 0; c < CPU_SETSIZE && ncpus < RTSC_MAX_THREADS; c++)
            if (CPU_ISSET(c, &all)) cpus[ncpus++] = c;
    if (ncpus < n) ncpus = 0;
#else
    (void)pin;
#endif
    for (int i = 0; i < n - 1; i++) {
        s->workers[i] = (rtsc_worker){.s = s, .tid = i + 1, .cpu = ncpus ? cpus[i + 1] : -1};
        if (pthread_create(&s->workers[i].thread, NULL, rtsc_worker_main, &s->workers[i])) {
            rtsc_stop(s, i);
            rtsc_release(s);
            return NULL;
        }
    }
    return s;
}

void rt_sched_free(rt_sched *s) {
    if (!s) return;
    rtsc_stop(s, s->nthreads - 1);
    rtsc_release(s);
}

int rt_sched_threads(const rt_sched *s) { return s->nthreads; }

int rt_num_threads(rt_ctx *ctx) { return ctx->sched ? ctx->sched->nthreads : 1; }

/* Runs the tasks in order on this thread as thread tid; 1 at the first
 * failure. */
static int rtsc_in_order(rt_ctx *ctx, int64_t ntasks, rt_task_fn fn, void *env, int tid) {
    int outer = rtsc_tid(), failed = 0;
    rtsc_set_tid(tid);
    for (int64_t t = 0; t < ntasks && !failed; t++) failed = fn(ctx, env, t, tid) != 0;
    rtsc_set_tid(outer);
    return failed;
}

/* Closes the open job of word w once no worker is inside it (reading the
 * word before trying to swap it, so as not to take its cache line from the
 * workers at every turn). */
static void rtsc_close(rt_sched *s, uint64_t w) {
    for (int i = 1;; i++) {
        uint64_t idle = w;
        if (atomic_load_explicit(&s->job, memory_order_relaxed) == w &&
            atomic_compare_exchange_weak(&s->job, &idle, w + RTSC_JOB_ONE))
            return;
        rtsc_pause();
        if (i % RTSC_WAIT_SPIN == 0) sched_yield();
    }
}

/* Publishes the loop as a job, wakes sleeping workers, takes tasks as
 * thread 0 and returns when the job is closed: 1 if a task failed. */
static int rtsc_parallel(rt_sched *s, rt_ctx *ctx, int64_t ntasks, rt_task_fn fn, void *env) {
    pthread_mutex_lock(&s->turn);
    s->ctx = ctx;
    s->fn = fn;
    s->env = env;
    s->ntasks = ntasks;
    atomic_store_explicit(&s->next, 0, memory_order_relaxed);
    atomic_store_explicit(&s->failed, 0, memory_order_relaxed);
    uint64_t w = atomic_load(&s->job) + RTSC_JOB_ONE; /* odd: open, nobody inside */
    atomic_store(&s->job, w);
    if (atomic_load(&s->sleepers) > 0) {
        pthread_mutex_lock(&s->lock);
        pthread_cond_broadcast(&s->wake);
        pthread_mutex_unlock(&s->lock);
    }
    rtsc_run(s, 0);
    rtsc_close(s, w);
    int failed = atomic_load_explicit(&s->failed, memory_order_relaxed);
    pthread_mutex_unlock(&s->turn);
    return failed;
}

int rt_parfor(rt_ctx *ctx, int64_t ntasks, rt_task_fn fn, void *env) {
    if (ntasks <= 0) return 0;
    rt_sched *s = ctx->sched;
    int tid = rtsc_tid();
    if (tid >= 0) return rtsc_in_order(ctx, ntasks, fn, env, tid); /* nested */
    if (!s || s->nthreads == 1 || ntasks == 1) return rtsc_in_order(ctx, ntasks, fn, env, 0);
    return rtsc_parallel(s, ctx, ntasks, fn, env);
}

void rt_signal(int32_t *flag, int32_t value) { __atomic_store_n(flag, value, __ATOMIC_RELEASE); }

int32_t rt_await(rt_ctx *ctx, const int32_t *flag) {
    rt_sched *s = ctx->sched;
    int32_t v;
    for (int i = 1; !(v = __atomic_load_n(flag, __ATOMIC_ACQUIRE)); i++) {
        if (s && atomic_load_explicit(&s->failed, memory_order_relaxed)) return 0;
        rtsc_pause();
        if (i % RTSC_WAIT_SPIN == 0) sched_yield();
    }
    return v;
}

/* ---- The backend of multicore executables ---------------------------------- */

/* --num-threads; 0: all cores. */
static int rtsc_threads_wanted = 0;
/* --pin-threads */
static bool rtsc_pin_wanted = false;

static const char rtsc_help[] =
    "\nMulticore options:\n"
    "  --num-threads N             run parallel loops on N threads (default: all cores)\n"
    "  --pin-threads               keep each worker thread on a CPU of its own\n";

/* Takes --num-threads N, --num-threads=N or --pin-threads. */
static int rtsc_option(int argc, char **argv, int *i) {
    const char *a = argv[*i], *opt = "--num-threads", *v;
    if (!strcmp(a, "--pin-threads")) {
        rtsc_pin_wanted = true;
        return 1;
    }
    size_t n = strlen(opt);
    if (strncmp(a, opt, n) || (a[n] && a[n] != '=')) return 0;
    if (a[n] == '=') v = a + n + 1;
    else if (*i + 1 < argc) v = argv[++*i];
    else {
        fprintf(stderr, "Option %s requires an argument.\n", opt);
        return -1;
    }
    char *end;
    long k = strtol(v, &end, 10);
    if (!*v || *end || k < 1 || k > RTSC_MAX_THREADS) {
        fprintf(stderr, "Error: %s expects an integer from 1 to %d, not '%s'\n", opt, RTSC_MAX_THREADS, v);
        return -1;
    }
    rtsc_threads_wanted = (int)k;
    return 1;
}

/* Gives the context a scheduler (without threads, loops run in order) and
 * a cache of freed blocks. */
static void rtsc_init_ctx(rt_ctx *ctx) {
    static bool warned = false;
    ctx->cache = calloc(1, sizeof(rt_cache)); /* none: blocks are freed */
    ctx->sched = rt_sched_new(rtsc_threads_wanted, rtsc_pin_wanted);
    if (!ctx->sched && !warned) {
        fprintf(stderr, "Warning: cannot start the scheduler's threads; running on one thread\n");
        warned = true;
    }
}

static void rtsc_fini_ctx(rt_ctx *ctx) {
    rt_sched_free(ctx->sched);
    ctx->sched = NULL;
    if (ctx->cache) rt_cache_clear(ctx->cache);
    free(ctx->cache);
    ctx->cache = NULL;
}

const rt_backend rt_multicore_backend = {
    .help = rtsc_help, .option = rtsc_option, .init_ctx = rtsc_init_ctx, .fini_ctx = rtsc_fini_ctx};

#undef RTSC_MAX_THREADS
#undef RTSC_SPIN
#undef RTSC_WAIT_SPIN
#undef RTSC_JOB_ONE
#undef RTSC_JOB_NUM
