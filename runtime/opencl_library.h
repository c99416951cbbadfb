/* The OpenCL half of libraries made by `futhorc opencl --library`: the
 * storage functions of runtime/library.c over device memory, and the
 * configuration and context functions that Futhark's OpenCL backend adds
 * to the C API (man/futhorc-c-api.3).
 *
 * Each context owns an OpenCL device set up by futhark_context_new (the
 * device and platform chosen by name, "#k" or interactively, or the
 * command queue the user gave), and a pool of the device blocks of its
 * live arrays (rt_ctx.device, which tells entry points to take and give
 * device blocks). An array's handle is its rt_dblock: futhark_new_*
 * uploads, futhark_values_* and futhark_index_* read back, and an entry's
 * result passed to another entry never leaves the device.
 *
 * The OpenCL runtime (runtime/opencl.h) keeps its state in one variable,
 * rt_cl; each context keeps its own copy, swapped in when the context is
 * used (rtl_cl_enter), so several contexts may live side by side, used
 * from one thread at a time. Errors of OpenCL calls, of the device setup
 * and of kernels are returned through the context, never printed.
 *
 * Pasted into OpenCL libraries after runtime/library.c, which is preceded
 * by `#define RTL_DEVICE_STORAGE`; the program's futhorc_cl_info comes
 * before both. Static names start with rtl_cl_. */
#ifndef FUTHORC_RT_OPENCL_LIBRARY_H
#define FUTHORC_RT_OPENCL_LIBRARY_H

/* Longest answer read by futhark_context_config_select_device_interactively. */
#define RTL_CL_ANSWER_MAX 64
/* Platforms and devices futhark_context_config_select_device_interactively
 * offers (as many as rt_cl_pick looks at). */
#define RTL_CL_MAX_LISTED 16

/* The OpenCL settings of a configuration (cfg->store); strings are copies. */
typedef struct rtl_cl_cfg {
    char *device, *platform, *build_options, *program, *dump_program, *load_program;
    int64_t group_size, num_groups, tile_size; /* 0: the default */
    cl_command_queue queue;                    /* the user's, or NULL */
} rtl_cl_cfg;

/* A context's device (ctx->store). */
typedef struct rtl_cl_dev {
    struct rt_cl_state state; /* the OpenCL state while another context's is in rt_cl */
    rt_dpool arrays;          /* the blocks of the context's arrays */
    char *device, *platform, *build_options, *program, *load_program, *cache_file; /* what state points at */
} rtl_cl_dev;

/* The context whose state rt_cl holds, or NULL. */
static rtl_cl_dev *rtl_cl_current;
static const struct rt_cl_state rtl_cl_fresh = {.platform_index = -1, .device_index = -1, .default_threshold = -1};

/* A malloc'd copy of s (NULL for NULL); *ok becomes false when out of memory. */
static char *rtl_cl_strdup(const char *s, bool *ok) {
    if (!s) return NULL;
    char *c = malloc(strlen(s) + 1);
    if (c) strcpy(c, s);
    else *ok = false;
    return c;
}

/* Replaces the string *slot by a copy of s. */
static void rtl_cl_set_str(char **slot, const char *s) {
    bool ok = true;
    char *c = rtl_cl_strdup(s, &ok);
    if (!ok) return;
    free(*slot);
    *slot = c;
}

/* The OpenCL settings of cfg, made on first use; NULL when out of memory. */
static rtl_cl_cfg *rtl_cl_settings(struct futhark_context_config *cfg) {
    if (cfg && !cfg->store) cfg->store = calloc(1, sizeof(rtl_cl_cfg));
    return cfg ? cfg->store : NULL;
}

/* Makes d's OpenCL state the current one (rt_cl). */
static void rtl_cl_enter(rtl_cl_dev *d) {
    if (rtl_cl_current == d) return;
    if (rtl_cl_current) rtl_cl_current->state = rt_cl;
    rt_cl = d->state;
    rtl_cl_current = d;
}

/* The OpenCL state of d, wherever it is now. */
static struct rt_cl_state *rtl_cl_state_of(rtl_cl_dev *d) { return rtl_cl_current == d ? &rt_cl : &d->state; }

/* Moves the error an OpenCL function left in tmp into the context,
 * prefixed by fn; returns its code. */
static int rtl_cl_failed(struct futhark_context *ctx, const char *fn, rt_ctx *tmp) {
    const char *msg = tmp->error ? tmp->error : "an OpenCL call failed";
    int code = rtl_code_of(msg);
    rtl_fail(ctx, code, "%s: %s\n", fn, msg);
    free(tmp->error);
    tmp->error = NULL;
    return code;
}

/* ---- Storage --------------------------------------------------------------------- */

static int rtl_store_nparams(void) { return futhorc_cl_info.nparams; }

static const char *rtl_store_param(int i) { return futhorc_cl_info.params[i]; }

static const char *rtl_store_param_class(int i) { return rt_cl_param_class(&futhorc_cl_info, i); }

static void rtl_store_config_free(struct futhark_context_config *cfg) {
    rtl_cl_cfg *c = cfg->store;
    if (!c) return;
    free(c->device);
    free(c->platform);
    free(c->build_options);
    free(c->program);
    free(c->dump_program);
    free(c->load_program);
    free(c);
    cfg->store = NULL;
}

/* Uses the user's command queue q, with its context and device. */
static int rtl_cl_take_queue(struct rt_cl_state *st, cl_command_queue q, rt_ctx *tmp) {
    cl_int e = clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof st->context, &st->context, NULL);
    if (e == CL_SUCCESS) e = clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof st->device, &st->device, NULL);
    if (e != CL_SUCCESS) {
        st->context = NULL;
        return rt_cl_fail(tmp, "clGetCommandQueueInfo", e);
    }
    clRetainCommandQueue(q);
    clRetainContext(st->context);
    st->queue = q;
    return 0;
}

/* The state a new context starts from: cfg's settings, copied into d. */
static bool rtl_cl_configure(rtl_cl_dev *d, const struct futhark_context_config *cfg, const rtl_cl_cfg *c) {
    bool ok = true;
    struct rt_cl_state *st = &d->state;
    *st = rtl_cl_fresh;
    st->library = true;
    st->prog = &futhorc_cl_info;
    st->profile = cfg->profiling != 0;
    st->log = cfg->logging != 0;
    st->cache_file = d->cache_file = rtl_cl_strdup(cfg->cache_file, &ok);
    st->param_values = malloc(((size_t)futhorc_cl_info.nparams + 1) * sizeof(int64_t));
    if (!st->param_values) return false;
    memcpy(st->param_values, cfg->params, ((size_t)futhorc_cl_info.nparams + 1) * sizeof(int64_t));
    if (!c) return ok;
    st->device_name = d->device = rtl_cl_strdup(c->device, &ok);
    st->platform_name = d->platform = rtl_cl_strdup(c->platform, &ok);
    st->build_options = d->build_options = rtl_cl_strdup(c->build_options, &ok);
    st->source = d->program = rtl_cl_strdup(c->program, &ok);
    st->load_file = d->load_program = rtl_cl_strdup(c->load_program, &ok);
    st->group_size = c->group_size;
    st->num_groups = c->num_groups;
    return ok;
}

/* Writes the program's OpenCL source to path; false after an error. */
static bool rtl_cl_dump(rt_ctx *tmp, const char *path) {
    FILE *f = fopen(path, "w");
    const char *src = rt_cl.source ? rt_cl.source : rt_cl.prog->source;
    bool ok = f && fputs(src, f) >= 0;
    if (f && fclose(f) != 0) ok = false;
    if (!ok) rt_error(tmp, "cannot write the OpenCL program to %s", path);
    return ok;
}

static int rtl_store_open(struct futhark_context *ctx, const struct futhark_context_config *cfg) {
    rtl_cl_dev *d = calloc(1, sizeof *d);
    if (!d) return rtl_fail(ctx, RT_LIB_OUT_OF_MEMORY, "futhark_context_new: out of memory\n");
    ctx->store = d;
    rt_dpool_init(&d->arrays);
    ctx->rt.device = &d->arrays;
    const rtl_cl_cfg *c = cfg->store;
    bool ok = rtl_cl_configure(d, cfg, c);
    rtl_cl_enter(d);
    if (!ok) return rtl_fail(ctx, RT_LIB_OUT_OF_MEMORY, "futhark_context_new: out of memory\n");
    rt_ctx tmp = {NULL};
    if ((c && c->queue && rtl_cl_take_queue(&rt_cl, c->queue, &tmp)) || rt_cl_setup(&tmp) ||
        (c && c->dump_program && !rtl_cl_dump(&tmp, c->dump_program)))
        return rtl_cl_failed(ctx, "futhark_context_new", &tmp);
    return RT_LIB_OK;
}

static void rtl_store_close(struct futhark_context *ctx) {
    rtl_cl_dev *d = ctx->store;
    if (!d) return;
    rtl_cl_enter(d);
    if (rt_cl.queue) clFinish(rt_cl.queue);
    rt_dpool_free(&d->arrays);
    rt_cl_release_all();
    free(rt_cl.param_values);
    rt_cl = rtl_cl_fresh;
    rtl_cl_current = NULL;
    free(d->device);
    free(d->platform);
    free(d->build_options);
    free(d->program);
    free(d->load_program);
    free(d->cache_file);
    free(d);
    ctx->store = NULL;
    ctx->rt.device = NULL;
}

static void *rtl_store_new(struct futhark_context *ctx, const char *fn, const void *src, int64_t bytes) {
    rtl_cl_dev *d = ctx->store;
    rtl_cl_enter(d);
    rt_ctx tmp = {NULL};
    rt_dblock *b = rt_cl_upload(&tmp, &d->arrays, src, bytes);
    if (!b) rtl_cl_failed(ctx, fn, &tmp);
    return b;
}

/* A block over the user's buffer raw (futhark_new_raw_*), which must be of
 * this context and hold at least bytes bytes; NULL raw only for no bytes. */
static void *rtl_store_wrap(struct futhark_context *ctx, const char *fn, void *raw, int64_t bytes) {
    rtl_cl_dev *d = ctx->store;
    rtl_cl_enter(d);
    if (!raw) return rtl_store_new(ctx, fn, NULL, 0);
    cl_mem m = raw;
    cl_context owner = NULL;
    size_t size = 0;
    if (clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof owner, &owner, NULL) != CL_SUCCESS ||
        clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL) != CL_SUCCESS || owner != rt_cl.context) {
        rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "%s: the data is not a buffer of this context's OpenCL context\n", fn);
        return NULL;
    }
    if ((int64_t)size < bytes) {
        rtl_fail(ctx, RT_LIB_PROGRAM_ERROR, "%s: the buffer has %lld bytes, but the shape needs %lld\n", fn,
                 (long long)size, (long long)bytes);
        return NULL;
    }
    rt_dblock *b = malloc(sizeof *b);
    if (!b) {
        rtl_fail(ctx, RT_LIB_OUT_OF_MEMORY, "%s: out of memory\n", fn);
        return NULL;
    }
    clRetainMemObject(m);
    b->mem = m;
    b->size = (int64_t)size;
    b->req = bytes;
    b->owner = NULL;
    b->foreign = true;
    rt_dblock_link(&d->arrays, b, 1);
    return b;
}

static int64_t rtl_store_peak(struct futhark_context *ctx) {
    rtl_cl_enter(ctx->store);
    return rt_cl.mem_peak;
}

/* The same block, with one more reference. */
static void *rtl_store_dup(struct futhark_context *ctx, const char *fn, void *h, int64_t bytes) {
    (void)fn, (void)bytes;
    rtl_cl_enter(ctx->store);
    rt_dblock_retain(h);
    return h;
}

static void rtl_store_free(struct futhark_context *ctx, void *h, bool borrowed) {
    (void)borrowed; /* a borrowed buffer's block is foreign: it knows */
    rtl_cl_enter(ctx->store);
    rt_dblock_release(h);
}

static int rtl_store_read(struct futhark_context *ctx, const char *fn, void *h, int64_t off, int64_t bytes, void *dst) {
    rtl_cl_enter(ctx->store);
    rt_dblock *b = h;
    cl_int e = clEnqueueReadBuffer(rt_cl.queue, b->mem, CL_TRUE, (size_t)off, (size_t)bytes, dst, 0, NULL, NULL);
    if (e == CL_SUCCESS) return RT_LIB_OK;
    rt_ctx tmp = {NULL};
    rt_cl_fail(&tmp, "clEnqueueReadBuffer", e);
    return rtl_cl_failed(ctx, fn, &tmp);
}

static void *rtl_store_raw(void *h) { return ((rt_dblock *)h)->mem; }

static int rtl_store_begin(struct futhark_context *ctx) {
    rtl_cl_enter(ctx->store);
    return RT_LIB_OK;
}

static int rtl_store_sync(struct futhark_context *ctx) {
    rtl_cl_enter(ctx->store);
    cl_int e = clFinish(rt_cl.queue);
    if (e == CL_SUCCESS) return RT_LIB_OK;
    rt_ctx tmp = {NULL};
    rt_cl_fail(&tmp, "clFinish", e);
    return rtl_cl_failed(ctx, "futhark_context_sync", &tmp);
}

static int rtl_store_clear(struct futhark_context *ctx) {
    rtl_cl_enter(ctx->store);
    rt_cl_drop_free();
    return RT_LIB_OK;
}

/* ---- The OpenCL additions to the API --------------------------------------------------- */

void futhark_context_config_set_device(struct futhark_context_config *cfg, const char *s) {
    rtl_cl_cfg *c = rtl_cl_settings(cfg);
    if (c) rtl_cl_set_str(&c->device, s);
}

void futhark_context_config_set_platform(struct futhark_context_config *cfg, const char *s) {
    rtl_cl_cfg *c = rtl_cl_settings(cfg);
    if (c) rtl_cl_set_str(&c->platform, s);
}

void futhark_context_config_list_devices(struct futhark_context_config *cfg) {
    (void)cfg;
    rt_cl_list_devices(stdout);
}

/* Lists every device with one number across platforms, reads the choice
 * from standard input and selects that platform and device. */
void futhark_context_config_select_device_interactively(struct futhark_context_config *cfg) {
    rtl_cl_cfg *c = rtl_cl_settings(cfg);
    cl_platform_id ps[RTL_CL_MAX_LISTED];
    cl_uint np = 0;
    if (!c || clGetPlatformIDs(RTL_CL_MAX_LISTED, ps, &np) != CL_SUCCESS) np = 0;
    int n = 0, pick_p[RTL_CL_MAX_LISTED * RTL_CL_MAX_LISTED], pick_d[RTL_CL_MAX_LISTED * RTL_CL_MAX_LISTED];
    for (cl_uint p = 0; p < np; p++) {
        char pname[RT_CL_NAME_MAX] = "", dname[RT_CL_NAME_MAX] = "";
        clGetPlatformInfo(ps[p], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
        cl_device_id ds[RTL_CL_MAX_LISTED];
        cl_uint nd = 0;
        if (clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_ALL, RTL_CL_MAX_LISTED, ds, &nd) != CL_SUCCESS) continue;
        for (cl_uint d = 0; d < nd; d++, n++) {
            clGetDeviceInfo(ds[d], CL_DEVICE_NAME, sizeof dname, dname, NULL);
            printf("[%d] %s: %s\n", n, pname, dname);
            pick_p[n] = (int)p, pick_d[n] = (int)d;
        }
    }
    if (n == 0) {
        printf("No OpenCL devices found.\n");
        return;
    }
    printf("Choose OpenCL device [0-%d]: ", n - 1);
    fflush(stdout);
    char line[RTL_CL_ANSWER_MAX];
    char *end;
    long k = fgets(line, sizeof line, stdin) ? strtol(line, &end, 10) : -1;
    if (k < 0 || k >= n || end == line) {
        printf("No such device; the choice is left as it was.\n");
        return;
    }
    char num[RTL_CL_ANSWER_MAX];
    snprintf(num, sizeof num, "#%d", pick_p[k]);
    rtl_cl_set_str(&c->platform, num);
    snprintf(num, sizeof num, "#%d", pick_d[k]);
    rtl_cl_set_str(&c->device, num);
}

/* Work-group size (Futhark's "thread block size") of kernels without a
 * tuning parameter of their own set. */
void futhark_context_config_set_default_group_size(struct futhark_context_config *cfg, int size) {
    rtl_cl_cfg *c = rtl_cl_settings(cfg);
    if (c) c->group_size = size > 0 ? size : 0;
}

void futhark_context_config_set_default_thread_block_size(struct futhark_context_config *cfg, int size) {
    futhark_context_config_set_default_group_size(cfg, size);
}

/* Groups of reductions, scans and histograms (Futhark's "grid size"). */
void futhark_context_config_set_default_num_groups(struct futhark_context_config *cfg, int num) {
    rtl_cl_cfg *c = rtl_cl_settings(cfg);
    if (c) c->num_groups = num > 0 ? num : 0;
}

void futhark_context_config_set_default_grid_size(struct futhark_context_config *cfg, int num) {
    futhark_context_config_set_default_num_groups(cfg, num);
}

/* Kept for compatibility: the block-tiled kernels use fixed tiles. */
void futhark_context_config_set_default_tile_size(struct futhark_context_config *cfg, int num) {
    rtl_cl_cfg *c = rtl_cl_settings(cfg);
    if (c) c->tile_size = num > 0 ? num : 0;
}

/* Adds opt to the options of clBuildProgram. */
void futhark_context_config_add_build_option(struct futhark_context_config *cfg, const char *opt) {
    rtl_cl_cfg *c = rtl_cl_settings(cfg);
    if (!c || !opt) return;
    size_t old = c->build_options ? strlen(c->build_options) : 0;
    char *more = realloc(c->build_options, old + strlen(opt) + 2);
    if (!more) return;
    if (old) more[old++] = ' ';
    strcpy(more + old, opt);
    c->build_options = more;
}

/* The OpenCL C the context will build: the program's, or the one set. */
const char *futhark_context_config_get_program(struct futhark_context_config *cfg) {
    rtl_cl_cfg *c = rtl_cl_settings(cfg);
    return c && c->program ? c->program : futhorc_cl_info.source;
}

void futhark_context_config_set_program(struct futhark_context_config *cfg, const char *program) {
    rtl_cl_cfg *c = rtl_cl_settings(cfg);
    if (c) rtl_cl_set_str(&c->program, program);
}

/* futhark_context_new writes the OpenCL C it builds to path. */
void futhark_context_config_dump_program_to(struct futhark_context_config *cfg, const char *path) {
    rtl_cl_cfg *c = rtl_cl_settings(cfg);
    if (c) rtl_cl_set_str(&c->dump_program, path);
}

/* futhark_context_new builds the OpenCL C in the file path instead. */
void futhark_context_config_load_program_from(struct futhark_context_config *cfg, const char *path) {
    rtl_cl_cfg *c = rtl_cl_settings(cfg);
    if (c) rtl_cl_set_str(&c->load_program, path);
}

/* The context uses queue (its device and OpenCL context) instead of
 * choosing a device; it keeps its own reference to it. */
void futhark_context_config_set_command_queue(struct futhark_context_config *cfg, cl_command_queue queue) {
    rtl_cl_cfg *c = rtl_cl_settings(cfg);
    if (c) c->queue = queue;
}

cl_command_queue futhark_context_get_command_queue(struct futhark_context *ctx) {
    return ctx && ctx->store ? rtl_cl_state_of(ctx->store)->queue : NULL;
}

#endif
