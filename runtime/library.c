/* The generic half of generated libraries: the Futhark C API's
 * configuration and context objects, and the operations on arrays and entry
 * points that the generated per-type and per-entry functions (written by
 * compiler/backend/library.c) call with their element type and rank.
 *
 * An array handed to the user (struct futhark_T_Nd *) is an rt_lib_array:
 * a dense row-major rt_value it owns (or borrows, for futhark_new_raw_*).
 * An opaque value (struct futhark_opaque_NAME *: a tuple, record or array
 * of them) is an rt_lib_array too, holding its components: the flattened
 * arrays and scalars the entry points take and give.
 * The context records every live array in a hash set, so that functions
 * given a NULL, freed or foreign pointer, or an array of another type,
 * return an error instead of touching it; futhark_context_free frees the
 * arrays still live. Errors replace the context's message, which
 * futhark_context_get_error hands over to the caller.
 *
 * A multicore library (RTL_MULTICORE) gives each context a scheduler of
 * the configured number of threads and a cache of freed blocks
 * (runtime/sched.h, runtime/memory.h).
 *
 * Where an array's elements live is the storage's business (the rtl_store_
 * functions): host memory for the C backend (below), device memory for
 * OpenCL (runtime/opencl_library.h, which OpenCL libraries paste after
 * this file, defining RTL_DEVICE_STORAGE before it). Entry points take and
 * give arrays in that storage, so a result passed to another entry point
 * stays where it is.
 *
 * Pasted into generated libraries after runtime/main.c (which defines
 * rt_error and the rt_entry table's types); static names start with rtl_. */
#ifndef FUTHORC_RT_H
#include "rt.h"
#endif

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Return codes of the Futhark C API (FUTHARK_SUCCESS, ...). */
enum { RT_LIB_OK = 0, RT_LIB_PROGRAM_ERROR = 2, RT_LIB_OUT_OF_MEMORY = 3 };

/* Longest error message kept: enough for any message naming a function, a
 * type and a shape; longer ones are cut. */
#define RTL_MAX_ERROR 4096
/* Initial capacity of the live-array set (a power of two); it doubles when
 * half full. */
#define RTL_LIVE_INIT 64
/* Profiling events kept for futhark_context_report: bounds the memory of a
 * long-running profiled context; later events are counted, not kept. */
#define RTL_MAX_EVENTS 100000
/* The start of futhark_store_opaque_*'s bytes (then the type's name, the
 * number of components and each component: element type, rank, shape and
 * elements), and the longest type name futhark_restore_opaque_* accepts. */
#define RTL_OPAQUE_MAGIC "FUTHORC1"
#define RTL_OPAQUE_NAME_MAX 4096

typedef struct rt_lib_array {
    rt_value v;         /* v.data: the storage's handle of the elements */
    bool borrowed;      /* the elements belong to the caller (futhark_new_raw_*) */
    const char *opaque; /* an opaque value: its type's name, and v is unused */
    int nparts;
    rt_value *parts;    /* its components: arrays' data are storage handles,
                           scalars' malloc'd host memory */
} rt_lib_array;

/* One value of an entry point in the API: components [first, first + n)
 * of its parameters or results; an opaque value of the type named opaque,
 * or (opaque NULL, n 1) a primitive or an array of primitives. */
typedef struct rt_lib_val {
    int first, n;
    const char *opaque;
} rt_lib_val;

typedef struct rtl_event {
    const char *name; /* an entry point's name (static storage) */
    double start_us, end_us;
} rtl_event;

struct futhark_context_config {
    int debugging, profiling, logging;
    int num_threads; /* multicore: the threads of parallel loops; 0: all cores */
    char *cache_file; /* OpenCL: the built program's binary; C: unused */
    int64_t *params;  /* tuning parameters by index; -1: the default */
    void *store;      /* the storage's settings (OpenCL: device selection), or NULL */
};

struct futhark_context {
    rt_ctx rt;
    bool broken; /* futhark_context_new failed: nothing but freeing it works */
    void *store; /* the storage's state (OpenCL: the device), or NULL */
    int debugging, profiling, logging, paused;
    FILE *log; /* NULL: stderr */
    rt_lib_array **live; /* open addressing, linear probing */
    size_t live_cap, live_count;
    rtl_event *events;
    size_t nevents, events_cap, events_dropped;
};

/* ---- Storage ------------------------------------------------------------------ */

/* The program's tuning parameters ("segmap_3.group_size"). */
static int rtl_store_nparams(void);
static const char *rtl_store_param_class(int i);
static const char *rtl_store_param(int i);
/* Frees cfg->store. */
static void rtl_store_config_free(struct futhark_context_config *cfg);
/* Sets up the storage of a new context: 0, or an error code after setting
 * the error. rtl_store_close releases it (also after a failed open). */
static int rtl_store_open(struct futhark_context *ctx, const struct futhark_context_config *cfg);
static void rtl_store_close(struct futhark_context *ctx);
/* The most device memory in use so far, in bytes; -1 for host storage. */
static int64_t rtl_store_peak(struct futhark_context *ctx);
/* A new handle holding a copy of bytes bytes at src, or the caller's raw
 * storage (wrap); NULL after setting the error (naming fn). */
static void *rtl_store_new(struct futhark_context *ctx, const char *fn, const void *src, int64_t bytes);
static void *rtl_store_wrap(struct futhark_context *ctx, const char *fn, void *raw, int64_t bytes);
/* A new handle of the same bytes bytes as h (a copy, or h shared). */
static void *rtl_store_dup(struct futhark_context *ctx, const char *fn, void *h, int64_t bytes);
/* Releases handle h (borrowed: made by rtl_store_wrap). */
static void rtl_store_free(struct futhark_context *ctx, void *h, bool borrowed);
/* Copies bytes bytes from byte offset off of h to dst: 0, or an error
 * code after setting the error. */
static int rtl_store_read(struct futhark_context *ctx, const char *fn, void *h, int64_t off, int64_t bytes, void *dst);
/* The raw storage of h (futhark_values_raw_*). */
static void *rtl_store_raw(void *h);
/* Before an entry point runs: 0, or an error code. */
static int rtl_store_begin(struct futhark_context *ctx);
/* futhark_context_sync and futhark_context_clear_caches. */
static int rtl_store_sync(struct futhark_context *ctx);
static int rtl_store_clear(struct futhark_context *ctx);

/* ---- Errors ------------------------------------------------------------------ */

/* Replaces the context's error by the formatted message; returns code. */
static int rtl_fail(struct futhark_context *ctx, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int rtl_fail(struct futhark_context *ctx, int code, const char *fmt, ...) {
    if (!ctx) return code;
    free(ctx->rt.error);
    ctx->rt.error = malloc(RTL_MAX_ERROR);
    if (!ctx->rt.error) return code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->rt.error, RTL_MAX_ERROR, fmt, ap);
    va_end(ap);
    return code;
}

/* The return code for a failure with message msg. */
static int rtl_code_of(const char *msg) {
    bool oom = msg && (strstr(msg, "out of memory") || strstr(msg, "cannot allocate"));
    return oom ? RT_LIB_OUT_OF_MEMORY : RT_LIB_PROGRAM_ERROR;
}

static void rtl_log(struct futhark_context *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void rtl_log(struct futhark_context *ctx, const char *fmt, ...) {
    if (!ctx->logging && !ctx->debugging) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(ctx->log ? ctx->log : stderr, fmt, ap);
    va_end(ap);
}

/* ---- Configuration --------------------------------------------------------- */

struct futhark_context_config *futhark_context_config_new(void) {
    struct futhark_context_config *cfg = calloc(1, sizeof *cfg);
    if (cfg && !(cfg->params = malloc(((size_t)rtl_store_nparams() + 1) * sizeof(int64_t)))) {
        free(cfg);
        return NULL;
    }
    for (int i = 0; cfg && i <= rtl_store_nparams(); i++) cfg->params[i] = -1;
    return cfg;
}

void futhark_context_config_free(struct futhark_context_config *cfg) {
    if (!cfg) return;
    rtl_store_config_free(cfg);
    free(cfg->params);
    free(cfg->cache_file);
    free(cfg);
}

#ifdef RTL_MULTICORE
void futhark_context_config_set_num_threads(struct futhark_context_config *cfg, int n) {
    if (cfg) cfg->num_threads = n > 0 ? n : 0;
}
#endif

void futhark_context_config_set_debugging(struct futhark_context_config *cfg, int flag) {
    if (cfg) cfg->debugging = flag != 0;
}

void futhark_context_config_set_profiling(struct futhark_context_config *cfg, int flag) {
    if (cfg) cfg->profiling = flag != 0;
}

void futhark_context_config_set_logging(struct futhark_context_config *cfg, int flag) {
    if (cfg) cfg->logging = flag != 0;
}

void futhark_context_config_set_cache_file(struct futhark_context_config *cfg, const char *fname) {
    if (!cfg) return;
    free(cfg->cache_file);
    cfg->cache_file = NULL;
    if (fname && (cfg->cache_file = malloc(strlen(fname) + 1))) strcpy(cfg->cache_file, fname);
}

/* Sets the tuning parameter named param_name (0: its default, but for a
 * threshold, which it sets to 0); non-zero
 * when the program has no such parameter (the C backend has none). */
int futhark_context_config_set_tuning_param(struct futhark_context_config *cfg, const char *param_name,
                                            size_t new_value) {
    for (int i = 0; cfg && param_name && i < rtl_store_nparams(); i++)
        if (!strcmp(rtl_store_param(i), param_name)) {
            cfg->params[i] = new_value > (size_t)INT64_MAX ? INT64_MAX : (int64_t)new_value;
            return 0;
        }
    return 1;
}

int futhark_get_tuning_param_count(void) { return rtl_store_nparams(); }

const char *futhark_get_tuning_param_name(int i) {
    return i >= 0 && i < rtl_store_nparams() ? rtl_store_param(i) : NULL;
}

const char *futhark_get_tuning_param_class(int i) {
    return i >= 0 && i < rtl_store_nparams() ? rtl_store_param_class(i) : NULL;
}

/* ---- The set of live arrays ---------------------------------------------------- */

static size_t rtl_hash(const void *p, size_t cap) {
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    return (size_t)x & (cap - 1);
}

/* The slot holding p, or the empty slot where it would go. */
static size_t rtl_slot(const struct futhark_context *ctx, const void *p) {
    size_t i = rtl_hash(p, ctx->live_cap);
    while (ctx->live[i] && (const void *)ctx->live[i] != p) i = (i + 1) & (ctx->live_cap - 1);
    return i;
}

static bool rtl_is_live(const struct futhark_context *ctx, const void *p) {
    return p && ctx->live && ctx->live[rtl_slot(ctx, p)] != NULL;
}

static bool rtl_grow(struct futhark_context *ctx) {
    size_t old_cap = ctx->live_cap, cap = old_cap ? old_cap * 2 : RTL_LIVE_INIT;
    rt_lib_array **old = ctx->live, **fresh = calloc(cap, sizeof *fresh);
    if (!fresh) return false;
    ctx->live = fresh;
    ctx->live_cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i]) ctx->live[rtl_slot(ctx, old[i])] = old[i];
    free(old);
    return true;
}

static bool rtl_add(struct futhark_context *ctx, rt_lib_array *a) {
    if (2 * (ctx->live_count + 1) > ctx->live_cap && !rtl_grow(ctx)) return false;
    ctx->live[rtl_slot(ctx, a)] = a;
    ctx->live_count++;
    return true;
}

/* Removes a live p, moving later entries of its probe run back. */
static void rtl_remove(struct futhark_context *ctx, const void *p) {
    size_t mask = ctx->live_cap - 1, i = rtl_slot(ctx, p);
    ctx->live[i] = NULL;
    ctx->live_count--;
    for (size_t j = (i + 1) & mask; ctx->live[j]; j = (j + 1) & mask) {
        size_t home = rtl_hash(ctx->live[j], ctx->live_cap);
        bool movable = i <= j ? (home <= i || home > j) : (home <= i && home > j);
        if (movable) {
            ctx->live[i] = ctx->live[j];
            ctx->live[j] = NULL;
            i = j;
        }
    }
}

/* Frees a component of an opaque value (or an entry's result). */
static void rtl_part_free(struct futhark_context *ctx, rt_value *v) {
    if (v->type.rank > 0 && v->data) rtl_store_free(ctx, v->data, false);
    else free(v->data);
    free(v->shape);
    v->data = NULL;
    v->shape = NULL;
}

static void rtl_array_free(struct futhark_context *ctx, rt_lib_array *a) {
    if (a->opaque) {
        for (int k = 0; k < a->nparts; k++) rtl_part_free(ctx, &a->parts[k]);
        free(a->parts);
    } else {
        free(a->v.shape);
        rtl_store_free(ctx, a->v.data, a->borrowed);
    }
    free(a);
}

/* Frees a live array or opaque value. */
static void rtl_discard(struct futhark_context *ctx, rt_lib_array *a) {
    rtl_remove(ctx, a);
    rtl_array_free(ctx, a);
}

/* ---- Context ------------------------------------------------------------------- */

struct futhark_context *futhark_context_new(struct futhark_context_config *cfg) {
    struct futhark_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return NULL;
    if (!cfg) {
        rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "futhark_context_new: the configuration is NULL\n");
        return ctx;
    }
    ctx->debugging = cfg->debugging;
    ctx->profiling = cfg->profiling;
    ctx->logging = cfg->logging;
    if (!rtl_grow(ctx)) {
        rtl_fail(ctx, RT_LIB_OUT_OF_MEMORY, "futhark_context_new: out of memory\n");
        ctx->broken = true;
    } else if (rtl_store_open(ctx, cfg) != 0) ctx->broken = true;
#ifdef RTL_MULTICORE
    /* The context's scheduler (without threads, loops run on the caller)
     * and its cache of freed blocks. */
    ctx->rt.sched = rt_sched_new(cfg->num_threads, false);
    ctx->rt.cache = calloc(1, sizeof(rt_cache));
#endif
    return ctx;
}

/* Frees the context and the arrays still live in it. */
void futhark_context_free(struct futhark_context *ctx) {
    if (!ctx) return;
    for (size_t i = 0; i < ctx->live_cap; i++)
        if (ctx->live[i]) rtl_array_free(ctx, ctx->live[i]);
    rtl_store_close(ctx);
#ifdef RTL_MULTICORE
    rt_sched_free(ctx->rt.sched);
    if (ctx->rt.cache) rt_cache_clear(ctx->rt.cache);
    free(ctx->rt.cache);
#endif
    free(ctx->live);
    free(ctx->events);
    free(ctx->rt.error);
    free(ctx);
}

/* Entry points wait for their work before returning, so there is only the
 * storage's copies to wait for. */
int futhark_context_sync(struct futhark_context *ctx) {
    if (!ctx) return RT_LIB_PROGRAM_ERROR;
    return ctx->broken ? RT_LIB_OK : rtl_store_sync(ctx);
}

char *futhark_context_get_error(struct futhark_context *ctx) {
    if (!ctx) return NULL;
    char *e = ctx->rt.error;
    ctx->rt.error = NULL;
    return e;
}

void futhark_context_set_logging_file(struct futhark_context *ctx, FILE *f) {
    if (ctx) ctx->log = f;
}

void futhark_context_pause_profiling(struct futhark_context *ctx) {
    if (ctx) ctx->paused = 1;
}

void futhark_context_unpause_profiling(struct futhark_context *ctx) {
    if (ctx) ctx->paused = 0;
}

/* Releases memory kept for reuse (OpenCL: device buffers of earlier runs). */
int futhark_context_clear_caches(struct futhark_context *ctx) {
    if (!ctx) return RT_LIB_PROGRAM_ERROR;
    return ctx->broken ? RT_LIB_OK : rtl_store_clear(ctx);
}

static void rtl_buf_printf(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Appends to a growing malloc'd string; on out of memory frees it (NULL). */
static void rtl_buf_printf(char **buf, size_t *len, size_t *cap, const char *fmt, ...) {
    if (!*buf) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(*buf + *len, *cap - *len, fmt, ap);
        va_end(ap);
        if (n < 0) n = 0;
        if (*len + (size_t)n < *cap) {
            *len += (size_t)n;
            return;
        }
        char *more = realloc(*buf, *cap * 2 + (size_t)n);
        if (!more) {
            free(*buf);
            *buf = NULL;
            return;
        }
        *buf = more;
        *cap = *cap * 2 + (size_t)n;
    }
}

/* A JSON object: the bytes held by live arrays (and, on a device, the
 * most device memory in use so far, as Futhark's "space 'device'"), and
 * one event per profiled entry point call (times in microseconds). Caller
 * frees. */
char *futhark_context_report(struct futhark_context *ctx) {
    if (!ctx) return NULL;
    size_t len = 0, cap = 256;
    char *s = malloc(cap);
    int64_t bytes = 0;
    for (size_t i = 0; i < ctx->live_cap; i++) {
        rt_lib_array *a = ctx->live[i];
        if (a && !a->opaque && !a->borrowed) bytes += rt_value_count(&a->v) * rt_prim_size(a->v.type.elem);
        for (int k = 0; a && k < a->nparts; k++)
            bytes += rt_value_count(&a->parts[k]) * rt_prim_size(a->parts[k].type.elem);
    }
    if (s) s[0] = 0;
    rtl_buf_printf(&s, &len, &cap, "{\"memory\":{\"default\":%lld", (long long)bytes);
    int64_t peak = rtl_store_peak(ctx);
    if (peak >= 0) rtl_buf_printf(&s, &len, &cap, ",\"space 'device'\":%lld", (long long)peak);
    rtl_buf_printf(&s, &len, &cap, "},\"events\":[");
    for (size_t i = 0; i < ctx->nevents; i++)
        rtl_buf_printf(&s, &len, &cap, "%s{\"name\":\"%s\",\"start\":%.3f,\"end\":%.3f,\"details\":\"\"}",
                       i ? "," : "", ctx->events[i].name, ctx->events[i].start_us, ctx->events[i].end_us);
    rtl_buf_printf(&s, &len, &cap, "],\"events_dropped\":%zu}", ctx->events_dropped);
    return s;
}

/* ---- Arrays ------------------------------------------------------------------- */

static void rtl_type_str(rt_prim t, int rank, char *buf, size_t n) {
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < rank && k + 3 < n; i++) k += (size_t)snprintf(buf + k, n - k, "[]");
    if (k < n) snprintf(buf + k, n - k, "%s", rt_prim_name(t));
}

/* The live array p of type [rank]t, or NULL after setting the error. */
static rt_lib_array *rtl_get(struct futhark_context *ctx, const char *fn, const void *p, rt_prim t, int rank) {
    if (!ctx) return NULL;
    if (!p) {
        rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "%s: the array argument is NULL\n", fn);
        return NULL;
    }
    if (!rtl_is_live(ctx, p)) {
        rtl_fail(ctx, RT_LIB_PROGRAM_ERROR,
                 "%s: the array argument is not a live array of this context (freed already?)\n", fn);
        return NULL;
    }
    rt_lib_array *a = (rt_lib_array *)(uintptr_t)p;
    if (a->opaque) {
        char want[64];
        rtl_type_str(t, rank, want, sizeof want);
        rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "%s: the argument is an opaque value of type %s, not an array of type %s\n",
                 fn, a->opaque, want);
        return NULL;
    }
    if (a->v.type.elem != t || a->v.type.rank != rank) {
        char want[64], got[64];
        rtl_type_str(t, rank, want, sizeof want);
        rtl_type_str(a->v.type.elem, a->v.type.rank, got, sizeof got);
        rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "%s: the array argument has type %s, not %s\n", fn, got, want);
        return NULL;
    }
    return a;
}

/* The bytes of the elements of an array of type [rank]t and the given
 * shape, or -1 (after setting the error) if a dimension is negative or the
 * size overflows. */
static int64_t rtl_bytes(struct futhark_context *ctx, const char *fn, rt_prim t, int rank, const int64_t *shape) {
    int64_t bytes;
    for (int d = 0; d < rank; d++)
        if (shape[d] < 0) {
            rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "%s: dimension %d is negative (%lld)\n", fn, d, (long long)shape[d]);
            return -1;
        }
    if (!rt_shape_bytes(shape, rank, rt_prim_size(t), &bytes)) {
        rtl_fail(ctx, RT_LIB_OUT_OF_MEMORY, "%s: the array is too large (its size overflows): out of memory\n", fn);
        return -1;
    }
    return bytes;
}

/* A new live array of type [rank]t and the given shape holding data: a copy,
 * or the caller's raw storage data itself when !copy. NULL after setting
 * the error. */
rt_lib_array *rt_lib_new(struct futhark_context *ctx, const char *fn, rt_prim t, int rank, const void *data,
                         const int64_t *shape, bool copy) {
    if (!ctx) return NULL;
    if (ctx->broken) {
        rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "%s: the context could not be created\n", fn);
        return NULL;
    }
    int64_t bytes = rtl_bytes(ctx, fn, t, rank, shape);
    if (bytes < 0) return NULL;
    if (!data && bytes > 0) {
        rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "%s: the data pointer is NULL\n", fn);
        return NULL;
    }
    rt_lib_array *a = calloc(1, sizeof *a);
    if (a) a->v.shape = malloc((size_t)rank * sizeof(int64_t) + 1);
    if (!a || !a->v.shape || !rtl_add(ctx, a)) {
        if (a) free(a->v.shape);
        free(a);
        rtl_fail(ctx, RT_LIB_OUT_OF_MEMORY, "%s: out of memory\n", fn);
        return NULL;
    }
    a->v.data = copy ? rtl_store_new(ctx, fn, data, bytes) : rtl_store_wrap(ctx, fn, (void *)(uintptr_t)data, bytes);
    if (!a->v.data) {
        rtl_remove(ctx, a);
        free(a->v.shape);
        free(a);
        return NULL;
    }
    a->v.type.elem = t;
    a->v.type.rank = rank;
    a->borrowed = !copy;
    if (rank > 0) memcpy(a->v.shape, shape, (size_t)rank * sizeof(int64_t));
    return a;
}

int rt_lib_free(struct futhark_context *ctx, const char *fn, void *p, rt_prim t, int rank) {
    rt_lib_array *a = rtl_get(ctx, fn, p, t, rank);
    if (!a) return RT_LIB_PROGRAM_ERROR;
    rtl_discard(ctx, a);
    return RT_LIB_OK;
}

int rt_lib_values(struct futhark_context *ctx, const char *fn, const void *p, rt_prim t, int rank, void *data) {
    rt_lib_array *a = rtl_get(ctx, fn, p, t, rank);
    if (!a) return RT_LIB_PROGRAM_ERROR;
    int64_t n = rt_value_count(&a->v);
    if (!data && n > 0) return rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "%s: the data pointer is NULL\n", fn);
    return n > 0 ? rtl_store_read(ctx, fn, a->v.data, 0, n * rt_prim_size(t), data) : RT_LIB_OK;
}

/* The array's raw storage: host memory (C) or a cl_mem (OpenCL). */
void *rt_lib_values_raw(struct futhark_context *ctx, const char *fn, const void *p, rt_prim t, int rank) {
    rt_lib_array *a = rtl_get(ctx, fn, p, t, rank);
    return a ? rtl_store_raw(a->v.data) : NULL;
}

const int64_t *rt_lib_shape(struct futhark_context *ctx, const char *fn, const void *p, rt_prim t, int rank) {
    rt_lib_array *a = rtl_get(ctx, fn, p, t, rank);
    return a ? a->v.shape : NULL;
}

/* Copies the element at idx (rank indices) to out; an error if out of
 * bounds. The offset is computed once every index is known to be in
 * bounds, so that it is less than the number of elements (dimensions
 * before a 0 one may have any size). */
int rt_lib_index(struct futhark_context *ctx, const char *fn, void *out, const void *p, rt_prim t, int rank,
                 const int64_t *idx) {
    rt_lib_array *a = rtl_get(ctx, fn, p, t, rank);
    if (!a) return RT_LIB_PROGRAM_ERROR;
    if (!out) return rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "%s: the output pointer is NULL\n", fn);
    int64_t off = 0;
    for (int d = 0; d < rank; d++)
        if (idx[d] < 0 || idx[d] >= a->v.shape[d])
            return rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "%s: index %lld out of bounds for dimension %d of size %lld\n",
                            fn, (long long)idx[d], d, (long long)a->v.shape[d]);
    for (int d = 0; d < rank; d++) off = off * a->v.shape[d] + idx[d];
    int size = rt_prim_size(t);
    return rtl_store_read(ctx, fn, a->v.data, off * size, size, out);
}

/* ---- Entry points ------------------------------------------------------------ */

/* Sets *in to array argument k of entry e (shared, not copied), the
 * argno-th argument of the API's function. */
int rt_lib_arg(struct futhark_context *ctx, const rt_entry *e, int k, int argno, const void *p, rt_value *in) {
    if (!ctx) return RT_LIB_PROGRAM_ERROR;
    char fn[RTL_MAX_ERROR / 4];
    snprintf(fn, sizeof fn, "entry point %s: argument %d", e->name, argno);
    rt_lib_array *a = rtl_get(ctx, fn, p, e->in_types[k].elem, e->in_types[k].rank);
    if (!a) return RT_LIB_PROGRAM_ERROR;
    *in = a->v;
    return RT_LIB_OK;
}

/* A scalar argument as an rt_value that points at it. */
rt_value rt_lib_scalar(rt_type t, const void *x) {
    rt_value v;
    v.type = t;
    v.shape = NULL;
    v.data = (void *)(uintptr_t)x;
    return v;
}

static double rtl_now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void rtl_record(struct futhark_context *ctx, const char *name, double t0, double t1) {
    if (!ctx->profiling || ctx->paused) return;
    if (ctx->nevents == ctx->events_cap) {
        size_t cap = ctx->events_cap ? ctx->events_cap * 2 : 16;
        rtl_event *more = cap <= RTL_MAX_EVENTS ? realloc(ctx->events, cap * sizeof *more) : NULL;
        if (!more) {
            ctx->events_dropped++;
            return;
        }
        ctx->events = more;
        ctx->events_cap = cap;
    }
    ctx->events[ctx->nevents++] = (rtl_event){name, t0, t1};
}

/* Frees the results of an entry (after a failure to hand them over). */
static void rtl_free_outs(struct futhark_context *ctx, rt_value *outs, rt_lib_array **box, int n) {
    for (int k = 0; k < n; k++) {
        if (box[k]) rtl_discard(ctx, box[k]);
        else rtl_part_free(ctx, &outs[k]);
        box[k] = NULL;
    }
}

/* A new live array or opaque value (named opaque) holding the n values
 * at vals, which it takes over (they are left empty); NULL when out of
 * memory, the values untouched. */
static rt_lib_array *rtl_box(struct futhark_context *ctx, rt_value *vals, int n, const char *opaque) {
    rt_lib_array *a = calloc(1, sizeof *a);
    rt_value *parts = opaque ? malloc(sizeof *parts * (size_t)(n + 1)) : NULL;
    if (!a || (opaque && !parts) || !rtl_add(ctx, a)) {
        free(a);
        free(parts);
        return NULL;
    }
    if (opaque) {
        a->opaque = opaque;
        a->nparts = n;
        a->parts = parts;
        a->v.type.rank = -1;
        memcpy(parts, vals, sizeof *parts * (size_t)n);
    } else a->v = vals[0];
    for (int k = 0; k < n; k++) vals[k].data = vals[k].shape = NULL, vals[k].type.rank = 0;
    return a;
}

/* Boxes the results of e as the API's values: box[v.first] is a live
 * array or opaque value for an array or opaque v; a scalar stays in
 * outs[v.first]. On failure frees all results. */
static int rtl_box_outs(struct futhark_context *ctx, const rt_entry *e, rt_value *outs, rt_lib_array **box,
                        const rt_lib_val *vals, int nvals) {
    for (int k = 0; k < e->nout; k++) box[k] = NULL;
    for (int i = 0; i < nvals; i++) {
        const rt_lib_val *v = &vals[i];
        if (!v->opaque && outs[v->first].type.rank == 0) continue;
        box[v->first] = rtl_box(ctx, &outs[v->first], v->n, v->opaque);
        if (!box[v->first]) {
            rtl_free_outs(ctx, outs, box, e->nout);
            return rtl_fail(ctx, RT_LIB_OUT_OF_MEMORY, "entry point %s: out of memory\n", e->name);
        }
    }
    return RT_LIB_OK;
}

/* Runs entry e on ins. On success the array and opaque results are in box
 * (live, at their first component) and the scalar results in outs, whose
 * data rt_lib_end frees once the generated code has copied it out. vals
 * are the API's nvals results and outp the caller's pointers for them,
 * only checked here. */
int rt_lib_call(struct futhark_context *ctx, const rt_entry *e, const rt_value *ins, rt_value *outs,
                rt_lib_array **box, void *const *outp, const rt_lib_val *vals, int nvals) {
    if (!ctx) return RT_LIB_PROGRAM_ERROR;
    for (int k = 0; k < nvals; k++)
        if (!outp[k])
            return rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "entry point %s: output pointer %d is NULL\n", e->name, k);
    if (ctx->broken)
        return rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "entry point %s: the context could not be created\n", e->name);
    free(ctx->rt.error);
    ctx->rt.error = NULL;
    int r = rtl_store_begin(ctx);
    if (r) return r;
    rtl_log(ctx, "futhorc: running entry point %s\n", e->name);
    double t0 = rtl_now_us();
    r = e->fn(&ctx->rt, ins, outs);
    double t1 = rtl_now_us();
    rtl_log(ctx, "futhorc: entry point %s %s after %.0f us\n", e->name, r ? "failed" : "finished", t1 - t0);
    if (r) {
        if (!ctx->rt.error) rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "entry point %s failed\n", e->name);
        else if (ctx->rt.error[0] && ctx->rt.error[strlen(ctx->rt.error) - 1] != '\n') {
            char *msg = ctx->rt.error;
            ctx->rt.error = NULL;
            rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "%s\n", msg);
            free(msg);
        }
        return rtl_code_of(ctx->rt.error);
    }
    rtl_record(ctx, e->name, t0, t1);
    return rtl_box_outs(ctx, e, outs, box, vals, nvals);
}

/* Frees the scalar results' storage after they were copied out. */
void rt_lib_end(rt_value *outs, int n) {
    for (int k = 0; k < n; k++)
        if (outs[k].type.rank == 0) rt_value_free(&outs[k]);
}

/* ---- Opaque values ---------------------------------------------------------------- */

/* The live opaque value p of type name, or NULL after setting the error. */
static rt_lib_array *rtl_get_opaque(struct futhark_context *ctx, const char *fn, const void *p, const char *name) {
    if (!ctx) return NULL;
    if (!p) {
        rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "%s: the opaque argument is NULL\n", fn);
        return NULL;
    }
    if (!rtl_is_live(ctx, p)) {
        rtl_fail(ctx, RT_LIB_PROGRAM_ERROR,
                 "%s: the argument is not a live value of this context (freed already?)\n", fn);
        return NULL;
    }
    rt_lib_array *a = (rt_lib_array *)(uintptr_t)p;
    if (!a->opaque || strcmp(a->opaque, name)) {
        char got[64];
        if (!a->opaque) rtl_type_str(a->v.type.elem, a->v.type.rank, got, sizeof got);
        rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "%s: the argument has type %s, not %s\n", fn,
                 a->opaque ? a->opaque : got, name);
        return NULL;
    }
    return a;
}

int rt_lib_free_opaque(struct futhark_context *ctx, const char *fn, void *p, const char *name) {
    rt_lib_array *a = rtl_get_opaque(ctx, fn, p, name);
    if (!a) return RT_LIB_PROGRAM_ERROR;
    rtl_discard(ctx, a);
    return RT_LIB_OK;
}

/* Sets ins[v->first ...] to the components of the opaque argument p of
 * entry e (shared, not copied), the argno-th argument of the API's
 * function. */
int rt_lib_opaque_arg(struct futhark_context *ctx, const rt_entry *e, const rt_lib_val *v, int argno, const void *p,
                      rt_value *ins) {
    if (!ctx) return RT_LIB_PROGRAM_ERROR;
    char fn[RTL_MAX_ERROR / 4];
    snprintf(fn, sizeof fn, "entry point %s: argument %d", e->name, argno);
    rt_lib_array *a = rtl_get_opaque(ctx, fn, p, v->opaque);
    if (!a) return RT_LIB_PROGRAM_ERROR;
    for (int k = 0; k < v->n && k < a->nparts; k++) ins[v->first + k] = a->parts[k];
    return RT_LIB_OK;
}

/* The bytes of component v's elements. */
static int64_t rtl_part_bytes(const rt_value *v) { return rt_value_count(v) * rt_prim_size(v->type.elem); }

/* Serialises opaque p: RTL_OPAQUE_MAGIC, the name's length (4 bytes) and
 * the name, the number of components (4 bytes), then per component its
 * element type and rank (a byte each), shape (8 bytes a dimension) and
 * elements, in the machine's byte order. *n is the size; with p NULL
 * nothing else, with *p NULL into malloc'd memory that *p then points at,
 * else into *p. */
int rt_lib_store_opaque(struct futhark_context *ctx, const char *fn, const void *p, const char *name, void **out,
                        size_t *n) {
    rt_lib_array *a = rtl_get_opaque(ctx, fn, p, name);
    if (!a) return RT_LIB_PROGRAM_ERROR;
    if (!n) return rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "%s: the size pointer is NULL\n", fn);
    uint32_t len = (uint32_t)strlen(name), parts = (uint32_t)a->nparts;
    size_t total = sizeof RTL_OPAQUE_MAGIC - 1 + 4 + len + 4;
    for (int k = 0; k < a->nparts; k++)
        total += 2 + 8 * (size_t)a->parts[k].type.rank + (size_t)rtl_part_bytes(&a->parts[k]);
    *n = total;
    if (!out) return RT_LIB_OK;
    unsigned char *b = *out ? *out : malloc(total);
    if (!b) return rtl_fail(ctx, RT_LIB_OUT_OF_MEMORY, "%s: out of memory\n", fn);
    size_t at = 0;
    memcpy(b, RTL_OPAQUE_MAGIC, sizeof RTL_OPAQUE_MAGIC - 1), at += sizeof RTL_OPAQUE_MAGIC - 1;
    memcpy(b + at, &len, 4), at += 4;
    memcpy(b + at, name, len), at += len;
    memcpy(b + at, &parts, 4), at += 4;
    for (int k = 0; k < a->nparts; k++) {
        const rt_value *v = &a->parts[k];
        int64_t bytes = rtl_part_bytes(v);
        b[at++] = (unsigned char)v->type.elem;
        b[at++] = (unsigned char)v->type.rank;
        if (v->type.rank) memcpy(b + at, v->shape, 8 * (size_t)v->type.rank), at += 8 * (size_t)v->type.rank;
        int r = v->type.rank == 0 ? (memcpy(b + at, v->data, (size_t)bytes), RT_LIB_OK)
                : bytes ? rtl_store_read(ctx, fn, v->data, 0, bytes, b + at) : RT_LIB_OK;
        if (r) {
            if (!*out) free(b);
            return r;
        }
        at += (size_t)bytes;
    }
    *out = b;
    return RT_LIB_OK;
}

/* Reads component k of a stored opaque value at *at, expecting type t,
 * into v (its storage made); 0 or an error code. */
static int rtl_restore_part(struct futhark_context *ctx, const char *fn, const unsigned char *b, size_t *at, rt_type t,
                            rt_value *v) {
    if (b[*at] != t.elem || b[*at + 1] != t.rank)
        return rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "%s: the bytes hold a component of another type\n", fn);
    *at += 2;
    v->type = t;
    v->shape = malloc(8 * (size_t)t.rank + 1);
    if (!v->shape) return rtl_fail(ctx, RT_LIB_OUT_OF_MEMORY, "%s: out of memory\n", fn);
    memcpy(v->shape, b + *at, 8 * (size_t)t.rank);
    *at += 8 * (size_t)t.rank;
    int64_t bytes = rtl_bytes(ctx, fn, t.elem, t.rank, v->shape);
    if (bytes < 0) return RT_LIB_PROGRAM_ERROR;
    if (t.rank > 0) v->data = rtl_store_new(ctx, fn, b + *at, bytes);
    else if ((v->data = malloc((size_t)bytes))) memcpy(v->data, b + *at, (size_t)bytes);
    else rtl_fail(ctx, RT_LIB_OUT_OF_MEMORY, "%s: out of memory\n", fn);
    *at += (size_t)bytes;
    return v->data ? RT_LIB_OK : RT_LIB_PROGRAM_ERROR;
}

/* The opaque value of type name (n components of types ts) that
 * rt_lib_store_opaque wrote at p, or NULL after setting the error. */
void *rt_lib_restore_opaque(struct futhark_context *ctx, const char *fn, const void *p, const char *name,
                            const rt_type *ts, int n) {
    if (!ctx) return NULL;
    const unsigned char *b = p;
    uint32_t len = 0, parts = 0;
    size_t m = sizeof RTL_OPAQUE_MAGIC - 1, at = m + 4;
    if (ctx->broken || !b || memcmp(b, RTL_OPAQUE_MAGIC, m)) {
        rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "%s: %s\n", fn,
                 ctx->broken ? "the context could not be created" : "the bytes are not a stored opaque value");
        return NULL;
    }
    memcpy(&len, b + m, 4);
    if (len != strlen(name) || memcmp(b + at, name, len)) {
        rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "%s: the bytes hold a value of another type (%.*s)\n", fn,
                 (int)(len < RTL_OPAQUE_NAME_MAX ? len : RTL_OPAQUE_NAME_MAX), (const char *)(b + at));
        return NULL;
    }
    at += len;
    memcpy(&parts, b + at, 4), at += 4;
    rt_value *vals = calloc((size_t)n + 1, sizeof *vals);
    int r = vals ? (parts == (uint32_t)n ? RT_LIB_OK : RT_LIB_PROGRAM_ERROR) : RT_LIB_OUT_OF_MEMORY;
    if (r == RT_LIB_PROGRAM_ERROR) rtl_fail(ctx, r, "%s: the bytes hold %u components, not %d\n", fn, parts, n);
    if (r == RT_LIB_OUT_OF_MEMORY) rtl_fail(ctx, r, "%s: out of memory\n", fn);
    for (int k = 0; r == RT_LIB_OK && k < n; k++) r = rtl_restore_part(ctx, fn, b, &at, ts[k], &vals[k]);
    rt_lib_array *a = r == RT_LIB_OK ? rtl_box(ctx, vals, n, name) : NULL;
    if (!a && r == RT_LIB_OK) rtl_fail(ctx, RT_LIB_OUT_OF_MEMORY, "%s: out of memory\n", fn);
    for (int k = 0; !a && vals && k < n; k++) rtl_part_free(ctx, &vals[k]);
    free(vals);
    return a;
}

/* A copy of array or scalar component v whose storage shares or copies
 * v's; 0 or an error code. */
static int rtl_part_dup(struct futhark_context *ctx, const char *fn, const rt_value *v, rt_value *out) {
    int64_t bytes = rtl_part_bytes(v);
    out->type = v->type;
    out->shape = malloc(8 * (size_t)v->type.rank + 1);
    if (!out->shape) return rtl_fail(ctx, RT_LIB_OUT_OF_MEMORY, "%s: out of memory\n", fn);
    if (v->type.rank) memcpy(out->shape, v->shape, 8 * (size_t)v->type.rank);
    if (v->type.rank > 0) out->data = rtl_store_dup(ctx, fn, v->data, bytes);
    else if ((out->data = malloc((size_t)bytes))) memcpy(out->data, v->data, (size_t)bytes);
    else rtl_fail(ctx, RT_LIB_OUT_OF_MEMORY, "%s: out of memory\n", fn);
    return out->data ? RT_LIB_OK : RT_LIB_OUT_OF_MEMORY;
}

/* A new opaque value of type name in *out from its n fields of types ts:
 * args[k] is a live array (whose elements it shares or copies) or points
 * at a scalar. */
int rt_lib_new_opaque(struct futhark_context *ctx, const char *fn, void **out, const char *name, const rt_type *ts,
                      int n, const void *const *args) {
    if (!ctx) return RT_LIB_PROGRAM_ERROR;
    if (!out) return rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "%s: the output pointer is NULL\n", fn);
    if (ctx->broken) return rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "%s: the context could not be created\n", fn);
    rt_value *vals = calloc((size_t)n + 1, sizeof *vals);
    int r = vals ? RT_LIB_OK : rtl_fail(ctx, RT_LIB_OUT_OF_MEMORY, "%s: out of memory\n", fn);
    for (int k = 0; r == RT_LIB_OK && k < n; k++) {
        rt_value scalar = rt_lib_scalar(ts[k], args[k]);
        const rt_lib_array *a = ts[k].rank ? rtl_get(ctx, fn, args[k], ts[k].elem, ts[k].rank) : NULL;
        if (ts[k].rank && !a) r = RT_LIB_PROGRAM_ERROR;
        else if (!ts[k].rank && !args[k]) r = rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "%s: a field is NULL\n", fn);
        else r = rtl_part_dup(ctx, fn, a ? &a->v : &scalar, &vals[k]);
    }
    rt_lib_array *o = r == RT_LIB_OK ? rtl_box(ctx, vals, n, name) : NULL;
    if (!o && r == RT_LIB_OK) r = rtl_fail(ctx, RT_LIB_OUT_OF_MEMORY, "%s: out of memory\n", fn);
    for (int k = 0; !o && vals && k < n; k++) rtl_part_free(ctx, &vals[k]);
    free(vals);
    if (o) *out = o;
    return r;
}

/* Field k (component k) of opaque p: a scalar copied to out, or a new
 * array (sharing or copying the elements) in *(void **)out. */
int rt_lib_project(struct futhark_context *ctx, const char *fn, void *out, const void *p, const char *name, int k) {
    rt_lib_array *a = rtl_get_opaque(ctx, fn, p, name);
    if (!a) return RT_LIB_PROGRAM_ERROR;
    if (!out) return rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "%s: the output pointer is NULL\n", fn);
    const rt_value *v = &a->parts[k];
    if (v->type.rank == 0) {
        memcpy(out, v->data, (size_t)rt_prim_size(v->type.elem));
        return RT_LIB_OK;
    }
    rt_value copy = {v->type, NULL, NULL};
    int r = rtl_part_dup(ctx, fn, v, &copy);
    rt_lib_array *arr = r == RT_LIB_OK ? rtl_box(ctx, &copy, 1, NULL) : NULL;
    if (!arr && r == RT_LIB_OK) r = rtl_fail(ctx, RT_LIB_OUT_OF_MEMORY, "%s: out of memory\n", fn);
    if (!arr) rtl_part_free(ctx, &copy);
    else *(void **)out = arr;
    return r;
}

/* ---- Host storage (the C backend) ------------------------------------------------ */
#ifndef RTL_DEVICE_STORAGE
/* A handle is a malloc'd copy of the elements, or the caller's memory. */

/* The handle of a borrowed empty array whose data pointer is NULL. */
static unsigned char rtl_no_raw;

static int rtl_store_nparams(void) { return 0; }

static const char *rtl_store_param(int i) {
    (void)i;
    return NULL;
}

static const char *rtl_store_param_class(int i) {
    (void)i;
    return NULL;
}

static void rtl_store_config_free(struct futhark_context_config *cfg) { (void)cfg; }

static int rtl_store_open(struct futhark_context *ctx, const struct futhark_context_config *cfg) {
    (void)ctx, (void)cfg;
    return RT_LIB_OK;
}

static void rtl_store_close(struct futhark_context *ctx) { (void)ctx; }

static int64_t rtl_store_peak(struct futhark_context *ctx) {
    (void)ctx;
    return -1;
}

static void *rtl_store_new(struct futhark_context *ctx, const char *fn, const void *src, int64_t bytes) {
    void *h = malloc((size_t)bytes + 1);
    if (!h) rtl_fail(ctx, RT_LIB_OUT_OF_MEMORY, "%s: out of memory\n", fn);
    else if (bytes > 0) memcpy(h, src, (size_t)bytes);
    return h;
}

static void *rtl_store_wrap(struct futhark_context *ctx, const char *fn, void *raw, int64_t bytes) {
    (void)ctx, (void)fn, (void)bytes;
    return raw ? raw : &rtl_no_raw; /* an empty array's NULL still needs a handle */
}

static void *rtl_store_dup(struct futhark_context *ctx, const char *fn, void *h, int64_t bytes) {
    return rtl_store_new(ctx, fn, h, bytes);
}

static void rtl_store_free(struct futhark_context *ctx, void *h, bool borrowed) {
    (void)ctx;
    if (!borrowed) free(h);
}

static int rtl_store_read(struct futhark_context *ctx, const char *fn, void *h, int64_t off, int64_t bytes, void *dst) {
    (void)ctx, (void)fn;
    memcpy(dst, (const char *)h + off, (size_t)bytes);
    return RT_LIB_OK;
}

static void *rtl_store_raw(void *h) { return h == &rtl_no_raw ? NULL : h; }

static int rtl_store_begin(struct futhark_context *ctx) {
    (void)ctx;
    return RT_LIB_OK;
}

static int rtl_store_sync(struct futhark_context *ctx) {
    (void)ctx;
    return RT_LIB_OK;
}

static int rtl_store_clear(struct futhark_context *ctx) {
    (void)ctx;
    return RT_LIB_OK;
}
#endif
