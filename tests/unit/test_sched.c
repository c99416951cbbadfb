/* Unit tests of the multicore scheduler (runtime/sched.c): every task of a
 * parallel loop runs exactly once on a thread of the right tid, failures
 * stop the loop and keep one message, nested loops run in place, a task
 * may wait for an earlier one's flag, schedulers come and go, and the backend's --num-threads reaches the context that an
 * executable's entry point gets. Tasks never call cmocka's assertions
 * (which may not run on other threads): they record what they saw, and the
 * test checks it afterwards. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "rt.h"
#include "sched.h"

/* Thread counts every loop test runs with (more than this machine's cores
 * included, so that threads are preempted in the middle of loops). */
static const int THREADS[] = {1, 2, 4, 8};
/* Task counts every loop test runs with: none, one, fewer than the
 * threads, and many more. */
static const int64_t TASKS[] = {0, 1, 3, 1000, 100000};
#define NELEMS(a) ((int)(sizeof(a) / sizeof((a)[0])))
/* Schedulers made and freed one after the other in test_new_free. */
#define ROUNDS 50
/* Inner tasks of each outer task in test_nested. */
#define INNER 100
/* The task that fails in test_failure. */
#define FAILING 500

/* What the tasks of one loop saw. */
typedef struct Seen {
    _Atomic int *counts;    /* runs of each task */
    _Atomic int64_t sum;    /* of the task numbers */
    _Atomic int bad_tid;    /* a tid outside [0, threads) */
    _Atomic int64_t order;  /* tasks run so far, for the in-order check */
    _Atomic int out_of_order;
    int threads;
    int64_t fail_at; /* this task fails (-1: none; -2: all do) */
} Seen;

static Seen *seen_new(int64_t ntasks, int threads) {
    Seen *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->counts = calloc((size_t)ntasks + 1, sizeof *s->counts);
    assert_non_null(s->counts);
    s->threads = threads;
    s->fail_at = -1;
    return s;
}

static void seen_free(Seen *s) {
    free(s->counts);
    free(s);
}

/* Records the run of task t; fails when told to. */
static int record(rt_ctx *ctx, void *env, int64_t t, int tid) {
    Seen *s = env;
    atomic_fetch_add(&s->counts[t], 1);
    atomic_fetch_add(&s->sum, t);
    if (tid < 0 || tid >= s->threads) atomic_store(&s->bad_tid, 1);
    if (atomic_fetch_add(&s->order, 1) != t) atomic_store(&s->out_of_order, 1);
    if (s->fail_at == t || s->fail_at == -2) {
        rt_error(ctx, "task %lld failed", (long long)t);
        return 1;
    }
    return 0;
}

/* Asserts that each of the ntasks tasks ran exactly once. */
static void assert_each_once(const Seen *s, int64_t ntasks) {
    for (int64_t t = 0; t < ntasks; t++)
        if (s->counts[t] != 1) fail_msg("task %lld ran %d times", (long long)t, s->counts[t]);
}

static void test_every_task_once(void **state) {
    for (int i = 0; i < NELEMS(THREADS); i++) {
        rt_sched *sched = rt_sched_new(THREADS[i], false);
        assert_non_null(sched);
        assert_int_equal(rt_sched_threads(sched), THREADS[i]);
        rt_ctx ctx = {.sched = sched};
        assert_int_equal(rt_num_threads(&ctx), THREADS[i]);
        for (int j = 0; j < NELEMS(TASKS); j++) {
            int64_t n = TASKS[j];
            Seen *s = seen_new(n, THREADS[i]);
            assert_int_equal(rt_parfor(&ctx, n, record, s), 0);
            assert_null(ctx.error);
            assert_each_once(s, n);
            assert_true(s->sum == n * (n - 1) / 2);
            assert_int_equal(s->bad_tid, 0);
            seen_free(s);
        }
        rt_sched_free(sched);
    }
}

/* Without a scheduler, tasks run in order on the calling thread as tid 0. */
static void test_no_scheduler(void **state) {
    rt_ctx ctx = {0};
    assert_int_equal(rt_num_threads(&ctx), 1);
    for (int j = 0; j < NELEMS(TASKS); j++) {
        int64_t n = TASKS[j];
        Seen *s = seen_new(n, 1);
        assert_int_equal(rt_parfor(&ctx, n, record, s), 0);
        assert_each_once(s, n);
        assert_true(s->sum == n * (n - 1) / 2);
        assert_int_equal(s->bad_tid, 0);
        assert_int_equal(s->out_of_order, 0);
        seen_free(s);
    }
}

/* One failing task: rt_parfor fails with its message; no task runs twice;
 * in order (one thread), the tasks after it are skipped. On several
 * threads some are: the others would have to run the 99,499 tasks left in
 * the few instructions between the failing task's return and its thread
 * marking the loop failed. */
static void test_failure(void **state) {
    const int64_t n = 100000;
    for (int i = 0; i < NELEMS(THREADS); i++) {
        rt_sched *sched = rt_sched_new(THREADS[i], false);
        assert_non_null(sched);
        rt_ctx ctx = {.sched = sched};
        Seen *s = seen_new(n, THREADS[i]);
        s->fail_at = FAILING;
        assert_int_not_equal(rt_parfor(&ctx, n, record, s), 0);
        assert_non_null(ctx.error);
        assert_string_equal(ctx.error, "task 500 failed");
        assert_int_equal(s->counts[FAILING], 1);
        int64_t ran = 0;
        for (int64_t t = 0; t < n; t++) {
            assert_in_range(s->counts[t], 0, 1);
            ran += s->counts[t];
        }
        assert_true(ran < n);
        if (THREADS[i] == 1) assert_true(ran == FAILING + 1);
        free(ctx.error);
        ctx.error = NULL;
        /* The scheduler works on after a failure. */
        Seen *again = seen_new(n, THREADS[i]);
        assert_int_equal(rt_parfor(&ctx, n, record, again), 0);
        assert_each_once(again, n);
        seen_free(again);
        seen_free(s);
        rt_sched_free(sched);
    }
}

/* Every task fails, on all threads at once: one message is kept (one of
 * theirs), the others are freed (the sanitizer build checks for leaks). */
static void test_concurrent_failures(void **state) {
    const int64_t n = 1000;
    for (int i = 0; i < NELEMS(THREADS); i++) {
        rt_sched *sched = rt_sched_new(THREADS[i], false);
        assert_non_null(sched);
        rt_ctx ctx = {.sched = sched};
        Seen *s = seen_new(n, THREADS[i]);
        s->fail_at = -2;
        assert_int_not_equal(rt_parfor(&ctx, n, record, s), 0);
        long long t;
        assert_non_null(ctx.error);
        assert_int_equal(sscanf(ctx.error, "task %lld failed", &t), 1);
        assert_in_range(t, 0, n - 1);
        assert_int_equal(s->counts[t], 1);
        for (int64_t k = 0; k < n; k++) assert_in_range(s->counts[k], 0, 1);
        free(ctx.error);
        seen_free(s);
        rt_sched_free(sched);
    }
}

/* An outer task's loop: INNER tasks adding into the outer task's sum. */
typedef struct Nest {
    _Atomic int64_t sums[8];
    _Atomic int tid_mismatch; /* an inner task ran with another tid */
    _Atomic int inner_failed; /* an inner loop returned non-zero */
    int64_t fail_outer;       /* this outer task's inner loop fails; -1: none */
} Nest;

/* The inner task's environment: the outer task and its tid. */
typedef struct Inner {
    Nest *nest;
    int64_t outer;
    int tid;
} Inner;

static int inner_task(rt_ctx *ctx, void *env, int64_t t, int tid) {
    Inner *in = env;
    if (tid != in->tid) atomic_store(&in->nest->tid_mismatch, 1);
    atomic_fetch_add(&in->nest->sums[in->outer], t + 1);
    if (in->outer == in->nest->fail_outer && t == INNER / 2) {
        rt_error(ctx, "inner task failed");
        return 1;
    }
    return 0;
}

static int outer_task(rt_ctx *ctx, void *env, int64_t t, int tid) {
    Inner in = {env, t, tid};
    int rc = rt_parfor(ctx, INNER, inner_task, &in);
    if (rc) atomic_store(&in.nest->inner_failed, 1);
    return rc;
}

/* Loops inside tasks run in place with the task's tid and give the right
 * sums; a failing inner loop fails the outer one. */
static void test_nested(void **state) {
    for (int i = 0; i < NELEMS(THREADS); i++) {
        rt_sched *sched = rt_sched_new(THREADS[i], false);
        assert_non_null(sched);
        rt_ctx ctx = {.sched = sched};
        Nest nest = {.fail_outer = -1};
        assert_int_equal(rt_parfor(&ctx, 8, outer_task, &nest), 0);
        for (int k = 0; k < 8; k++) assert_true(nest.sums[k] == INNER * (INNER + 1) / 2);
        assert_int_equal(nest.tid_mismatch, 0);
        assert_int_equal(nest.inner_failed, 0);

        Nest bad = {.fail_outer = 3};
        assert_int_not_equal(rt_parfor(&ctx, 8, outer_task, &bad), 0);
        assert_string_equal(ctx.error, "inner task failed");
        assert_int_equal(bad.inner_failed, 1);
        free(ctx.error);
        rt_sched_free(sched);
    }
}

/* A loop whose tasks pass a running total on in order (as a scan's do):
 * task t waits for task t - 1's flag, adds t to its total and publishes
 * the sum with flag 2; task fail_at fails before it publishes. */
typedef struct Relay {
    int32_t *flags;
    int64_t *sums;
    int64_t fail_at;
    _Atomic int bad_flag; /* a flag other than 2 seen */
} Relay;

static int relay(rt_ctx *ctx, void *env, int64_t t, int tid) {
    (void)tid;
    Relay *r = env;
    if (t == r->fail_at) {
        rt_error(ctx, "task %lld failed", (long long)t);
        return 1;
    }
    int64_t before = 0;
    if (t > 0) {
        int32_t f = rt_await(ctx, &r->flags[t - 1]);
        if (!f) return 1; /* the loop failed */
        if (f != 2) atomic_store(&r->bad_flag, 1);
        before = r->sums[t - 1];
    }
    r->sums[t] = before + t;
    rt_signal(&r->flags[t], 2);
    return 0;
}

/* Every task sees the total of the tasks before it, on any number of
 * threads (more than the cores too: a waiting task's thread yields), and
 * a task that fails before it publishes does not leave the later ones
 * waiting: the loop fails with its message. */
static void test_await(void **state) {
    const int64_t n = 100000;
    for (int i = 0; i < NELEMS(THREADS); i++) {
        rt_sched *sched = THREADS[i] > 1 ? rt_sched_new(THREADS[i], i % 2 == 1) : NULL;
        rt_ctx ctx = {.sched = sched};
        for (int k = 1; k < NELEMS(TASKS); k++) {
            int64_t m = TASKS[k];
            Relay r = {calloc((size_t)m, sizeof(int32_t)), calloc((size_t)m, sizeof(int64_t)), -1, 0};
            assert_non_null(r.flags);
            assert_non_null(r.sums);
            assert_int_equal(rt_parfor(&ctx, m, relay, &r), 0);
            for (int64_t t = 0; t < m; t++)
                if (r.sums[t] != t * (t + 1) / 2) fail_msg("task %lld: %lld", (long long)t, (long long)r.sums[t]);
            assert_int_equal(r.bad_flag, 0);
            free(r.flags);
            free(r.sums);
        }
        Relay r = {calloc((size_t)n, sizeof(int32_t)), calloc((size_t)n, sizeof(int64_t)), FAILING, 0};
        assert_non_null(r.flags);
        assert_non_null(r.sums);
        assert_int_not_equal(rt_parfor(&ctx, n, relay, &r), 0);
        assert_string_equal(ctx.error, "task 500 failed");
        assert_int_equal(r.flags[FAILING], 0);
        free(ctx.error);
        free(r.flags);
        free(r.sums);
        rt_sched_free(sched);
    }
}

/* Schedulers made and freed repeatedly, with and without loops run on
 * them, asked to pin their threads or not (this build has no pinning: the
 * runtime objects of the tests lack _GNU_SOURCE; tests/jit/run.sh checks
 * it in an executable); 0 threads means all cores; freeing NULL does
 * nothing. */
static void test_new_free(void **state) {
    for (int r = 0; r < ROUNDS; r++) {
        rt_sched *sched = rt_sched_new(THREADS[r % NELEMS(THREADS)], r % 2 == 1);
        assert_non_null(sched);
        if (r % 2) {
            rt_ctx ctx = {.sched = sched};
            Seen *s = seen_new(100, rt_sched_threads(sched));
            assert_int_equal(rt_parfor(&ctx, 100, record, s), 0);
            assert_each_once(s, 100);
            seen_free(s);
        }
        rt_sched_free(sched);
    }
    rt_sched *all = rt_sched_new(0, false);
    assert_non_null(all);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    assert_int_equal(rt_sched_threads(all), cores < 1 ? 1 : cores);
    rt_sched_free(all);
    rt_sched_free(NULL);
}

/* Runs the multicore backend's option on the arguments (NULL-terminated);
 * returns what it returned for the first. */
static int option(const char *a, ...) {
    char *argv[4] = {"prog", (char *)a};
    int argc = 2;
    va_list ap;
    va_start(ap, a);
    for (const char *v; argc < 3 && (v = va_arg(ap, const char *));) argv[argc++] = (char *)v;
    va_end(ap);
    int i = 1;
    return rt_multicore_backend.option(argc, argv, &i);
}

static void test_num_threads_option(void **state) {
    assert_non_null(strstr(rt_multicore_backend.help, "--num-threads N"));
    assert_non_null(strstr(rt_multicore_backend.help, "--pin-threads"));
    assert_int_equal(option("--pin-threadsx", NULL), 0);
    assert_int_equal(option("--pin-threads", NULL), 1);
    assert_int_equal(option("-t", "times.txt", NULL), 0);
    assert_int_equal(option("--num-threadsx", NULL), 0);
    assert_int_equal(option("--num-threads", NULL), -1);
    assert_int_equal(option("--num-threads", "0", NULL), -1);
    assert_int_equal(option("--num-threads", "-2", NULL), -1);
    assert_int_equal(option("--num-threads", "two", NULL), -1);
    assert_int_equal(option("--num-threads=", NULL), -1);
    assert_int_equal(option("--num-threads", "5000", NULL), -1);
    assert_int_equal(option("--num-threads=2", NULL), 1);
    assert_int_equal(option("--num-threads", "3", NULL), 1);
    rt_ctx ctx = {0};
    rt_multicore_backend.init_ctx(&ctx);
    assert_int_equal(rt_num_threads(&ctx), 3);
    rt_multicore_backend.fini_ctx(&ctx);
    assert_null(ctx.sched);
}

/* What sum_entry saw: its context's threads and its loop's sum. */
static int entry_threads;
static int64_t entry_sum;

/* An entry point whose parallel loop sums 0 + 1 + ... + 999; its result
 * is an i64 0. */
static int sum_entry(rt_ctx *ctx, const rt_value *ins, rt_value *outs) {
    int64_t n = 1000, *r = calloc(1, sizeof *r);
    Seen *s = seen_new(n, rt_num_threads(ctx));
    int rc = r ? rt_parfor(ctx, n, record, s) : 1;
    entry_threads = rt_num_threads(ctx);
    entry_sum = s->sum;
    seen_free(s);
    outs[0] = (rt_value){{RT_I64, 0}, NULL, r};
    return rc;
}

/* Server mode of a multicore executable: the context of each call gets a
 * scheduler of --num-threads threads through the backend's init_ctx. The
 * server's replies on stdout go to a temporary file. */
static void test_server_context(void **state) {
    static const rt_type i64 = {RT_I64, 0};
    const rt_entry entry = {"sum", 0, NULL, 1, &i64, sum_entry, NULL};
    char *argv[] = {"prog", "--num-threads", "3"};
    int i = 1;
    assert_int_equal(rt_multicore_backend.option(3, argv, &i), 1);
    char script[] = "call sum r\n", out[4096] = "";
    FILE *in = fmemopen(script, strlen(script), "r"), *capture = tmpfile();
    assert_non_null(in);
    assert_non_null(capture);
    fflush(stdout);
    int saved = dup(1);
    dup2(fileno(capture), 1);
    rt_the_backend = &rt_multicore_backend;
    int rc = rt_server_run(in, &entry, 1);
    rt_the_backend = NULL;
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    rewind(capture);
    size_t len = fread(out, 1, sizeof out - 1, capture);
    out[len] = 0;
    fclose(capture);
    fclose(in);
    assert_int_equal(rc, 0);
    assert_null(strstr(out, "FAILURE"));
    assert_non_null(strstr(out, "runtime: "));
    assert_int_equal(entry_threads, 3);
    assert_true(entry_sum == 1000 * 999 / 2);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_task_once),  cmocka_unit_test(test_no_scheduler),
        cmocka_unit_test(test_failure),          cmocka_unit_test(test_concurrent_failures),
        cmocka_unit_test(test_nested),           cmocka_unit_test(test_new_free),
        cmocka_unit_test(test_await),
        cmocka_unit_test(test_num_threads_option), cmocka_unit_test(test_server_context),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
