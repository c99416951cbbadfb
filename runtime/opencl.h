/* The OpenCL runtime of generated programs (header only, pasted into
 * programs built by `futhorc opencl` after the C runtime).
 *
 * One device per process: chosen from the options (-p, -d), set up on the
 * first entry-point call (context, in-order queue, program built from the
 * generated source or loaded from --load-opencl or the --cache-file
 * binary), released by rt_cl_finish_all. Device memory blocks (rt_dblock)
 * are reference counted like rt_block and live in a per-run pool; released
 * buffers go to a free list that later allocations reuse, so repeated runs
 * do not allocate. Kernels record failures (bounds checks, assertions) in a
 * small device buffer that the host reads when it synchronises
 * (rt_cl_finish); every OpenCL call is checked and reported with its name
 * and the error's name. -P times every kernel launch with events.
 *
 * The generated program provides the program text, kernel names, failure
 * messages and tuning parameters through rt_cl_program (set before
 * rt_main). Names are rt_cl_ (functions and state) and rt_d (blocks). */
#ifndef FUTHORC_RT_OPENCL_H
#define FUTHORC_RT_OPENCL_H

#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Arguments a kernel failure can carry (the most "{}" in one message). */
#define RT_CL_FAIL_ARGS 8
/* Ranks the built-in copy and fill kernels handle (their shape and
 * strides are long8 arguments); higher ranks are copied on the host. */
#define RT_CL_MAX_RANK 8
/* Default work-group size: a multiple of every GPU's SIMD width that
 * leaves room for several groups per compute unit. */
#define RT_CL_GROUP_SIZE 256
/* Default work-group size of scans: with 16 elements per work-item, 256
 * (H100, 2^27 i32: 0.69 ms; 512: 0.70 ms, 1024: 0.70 ms); with 32, 256
 * (0.62 ms; 128: 0.62 ms). */
#define RT_CL_SCAN_GROUP_SIZE 256
/* Default groups per compute unit for reductions and histograms: enough
 * to hide memory latency on GPUs, harmless on CPUs. */
#define RT_CL_GROUPS_PER_CU 8
/* Longest build option string of an executable (--build-option, all of
 * them). */
#define RT_CL_OPTIONS_MAX 4096
/* Longest build log and device/platform name kept. */
#define RT_CL_LOG_MAX 65536
#define RT_CL_NAME_MAX 256

/* A threshold of multi-versioned code: tuning parameter param; a run
 * takes the version of an if's true branch when the degree of parallelism
 * P it compares is >= the parameter's value (dflt unless set). The
 * thresholds form trees: parent is the parameter index of the threshold
 * whose branch (true: branch 1) holds this comparison, or -1. */
typedef struct rt_cl_threshold_info {
    int param;
    int64_t dflt;
    int parent, branch;
} rt_cl_threshold_info;

/* A kernel with variants (compiler/imp/imp.h, ImpKernel.head): tuning
 * parameter param picks which of its count variants, kernels[0] to
 * kernels[count - 1], the program is built with (by defining
 * RT_VARIANT_<param>; dflt when unset); described says what each one is. */
typedef struct rt_cl_variant_info {
    int param, count, dflt;
    const int *kernels;
    const char *described;
} rt_cl_variant_info;

/* What the generated program tells the runtime. */
typedef struct rt_cl_program_info {
    const char *source;              /* OpenCL C of every kernel */
    const char *const *kernels;      /* kernel names; launches use the index */
    int nkernels;
    const char *const *failures;     /* printf formats (%lld per argument) by failure id */
    int nfailures;
    const char *const *params;       /* tuning parameter names ("k3.group_size") */
    int nparams;
    const rt_cl_threshold_info *thresholds; /* the parameters that are thresholds */
    int nthresholds;
    const rt_cl_variant_info *variants;     /* the parameters that choose variants */
    int nvariants;
} rt_cl_program_info;

typedef struct rt_dblock {
    int64_t refs;
    struct rt_dblock *prev, *next;
    cl_mem mem;
    int64_t size;  /* of the buffer */
    int64_t req;   /* bytes asked for */
    struct rt_dblock *owner; /* a borrowed block: the block (of a library's
                                array) whose buffer this one uses and holds
                                a reference to; else NULL */
    bool foreign;  /* mem is the library user's (futhark_new_raw_*): released
                      to them with clReleaseMemObject, never reused */
} rt_dblock;

typedef struct rt_dpool {
    rt_dblock live;
} rt_dpool;

/* A released buffer kept for reuse. */
typedef struct rt_cl_free {
    cl_mem mem;
    int64_t size;
} rt_cl_free;

static struct rt_cl_state {
    const rt_cl_program_info *prog;
    /* options */
    int platform_index, device_index;   /* -1: any */
    const char *device_name;            /* -d NAME: a device whose name contains NAME */
    const char *platform_name;          /* a platform whose name contains it (libraries) */
    const char *build_options;          /* added to clBuildProgram's (libraries), or NULL */
    const char *source;                 /* OpenCL C to build instead of prog->source, or NULL */
    bool library;                       /* set up by a library (runtime/opencl_library.h) */
    const char *cache_file, *dump_file, *load_file;
    bool profile, list_devices, print_params, log;
    int64_t group_size, num_groups;
    int64_t default_threshold;           /* of every threshold not set; -1: none */
    int64_t *param_values;               /* by parameter index; < 0: unset (0
                                            also means the default, but for
                                            thresholds) */
    /* the device */
    bool ready;
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    cl_program program;
    cl_kernel *kernels;
    cl_mem fail;
    int64_t compute_units, max_group, local_mem;
    int64_t max_alloc; /* the device's largest buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE) */
    /* buffers */
    rt_cl_free *free_list;
    int nfree, cap_free;
    int64_t mem_used, mem_peak; /* bytes of the device blocks in use, and their most */
    /* profiling */
    double *kernel_ms;
    int64_t *kernel_runs;
    int64_t t0;
    bool timing;       /* a timed run is going on: its device commands' events are kept */
    cl_event span[2];  /* that run's first and latest device command, or NULL */
} rt_cl = {.platform_index = -1, .device_index = -1, .default_threshold = -1};

static void rt_cl_set_program(const rt_cl_program_info *p) { rt_cl.prog = p; }

static const char *rt_cl_errstr(cl_int e) {
    switch (e) {
    case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
    case CL_DEVICE_NOT_AVAILABLE: return "CL_DEVICE_NOT_AVAILABLE";
    case CL_COMPILER_NOT_AVAILABLE: return "CL_COMPILER_NOT_AVAILABLE";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE (out of device memory)";
    case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
    case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
    case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
    case CL_INVALID_PLATFORM: return "CL_INVALID_PLATFORM";
    case CL_INVALID_DEVICE: return "CL_INVALID_DEVICE";
    case CL_INVALID_CONTEXT: return "CL_INVALID_CONTEXT";
    case CL_INVALID_COMMAND_QUEUE: return "CL_INVALID_COMMAND_QUEUE";
    case CL_INVALID_MEM_OBJECT: return "CL_INVALID_MEM_OBJECT";
    case CL_INVALID_BINARY: return "CL_INVALID_BINARY";
    case CL_INVALID_BUILD_OPTIONS: return "CL_INVALID_BUILD_OPTIONS";
    case CL_INVALID_PROGRAM: return "CL_INVALID_PROGRAM";
    case CL_INVALID_PROGRAM_EXECUTABLE: return "CL_INVALID_PROGRAM_EXECUTABLE";
    case CL_INVALID_KERNEL_NAME: return "CL_INVALID_KERNEL_NAME";
    case CL_INVALID_KERNEL: return "CL_INVALID_KERNEL";
    case CL_INVALID_ARG_INDEX: return "CL_INVALID_ARG_INDEX";
    case CL_INVALID_ARG_VALUE: return "CL_INVALID_ARG_VALUE";
    case CL_INVALID_ARG_SIZE: return "CL_INVALID_ARG_SIZE";
    case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
    case CL_INVALID_WORK_DIMENSION: return "CL_INVALID_WORK_DIMENSION";
    case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
    case CL_INVALID_WORK_ITEM_SIZE: return "CL_INVALID_WORK_ITEM_SIZE";
    case CL_INVALID_GLOBAL_OFFSET: return "CL_INVALID_GLOBAL_OFFSET";
    case CL_INVALID_EVENT_WAIT_LIST: return "CL_INVALID_EVENT_WAIT_LIST";
    case CL_INVALID_OPERATION: return "CL_INVALID_OPERATION";
    case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
    case CL_INVALID_GLOBAL_WORK_SIZE: return "CL_INVALID_GLOBAL_WORK_SIZE";
    case CL_MAP_FAILURE: return "CL_MAP_FAILURE";
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR (no OpenCL platform is installed)";
    default: return "an unknown OpenCL error";
    }
}

/* Reports a failed OpenCL call through ctx; returns 1. */
static int rt_cl_fail(rt_ctx *ctx, const char *call, cl_int e) {
    rt_error(ctx, "OpenCL call %s failed: %s (%d)", call, rt_cl_errstr(e), (int)e);
    return 1;
}

static int64_t rt_cl_now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* ---- Options ------------------------------------------------------------------ */

static const char rt_cl_help[] =
    "\nOpenCL options:\n"
    "  -p, --platform N            use platform number N (see --list-devices)\n"
    "  -d, --device NAME           use the first device whose name contains NAME,\n"
    "                              or device number N when NAME is a number\n"
    "  --list-devices              list platforms and devices, then exit\n"
    "  -P, --profile               print the time and launch count of each kernel, and\n"
    "                              the peak device memory in use\n"
    "  --cache-file FILE           keep the built program binary in FILE\n"
    "  --dump-opencl FILE          write the program's OpenCL source to FILE, then exit\n"
    "  --load-opencl FILE          build the OpenCL source in FILE instead\n"
    "  --build-option OPT          pass OPT to the OpenCL compiler (repeatable)\n"
    "  --default-group-size N      work-group size of every kernel (default 256)\n"
    "  --default-num-groups N      groups of reductions, scans and histograms\n"
    "  --default-threshold N       value of every threshold not set otherwise\n"
    "  --param NAME=N              set one tuning parameter (see --print-params)\n"
    "  --tuning FILE               set tuning parameters from NAME=N lines\n"
    "  --print-params              list the tuning parameters (and the trees of\n"
    "                              thresholds), then exit\n"
    "  -L, --log                   log each threshold comparison on stderr\n";

/* Parses a positive count; false after a message. */
static bool rt_cl_count(const char *opt, const char *v, int64_t *out) {
    char *end;
    long long n = strtoll(v, &end, 10);
    if (!*v || *end || n < 0 || n > (1LL << 40)) {
        fprintf(stderr, "Error: %s expects a non-negative integer, not '%s'\n", opt, v);
        return false;
    }
    *out = n;
    return true;
}

/* The index of the tuning parameter named by the n bytes at name, or -1. */
static int rt_cl_param_index(const char *name, size_t n) {
    for (int i = 0; rt_cl.prog && i < rt_cl.prog->nparams; i++)
        if (strlen(rt_cl.prog->params[i]) == n && !strncmp(rt_cl.prog->params[i], name, n)) return i;
    return -1;
}

/* Sets parameter NAME=N; false after a message. */
static bool rt_cl_set_param(const char *assignment, const char *where) {
    const char *eq = strchr(assignment, '=');
    if (!eq) {
        fprintf(stderr, "Error: %s: expected NAME=INTEGER, not '%s'\n", where, assignment);
        return false;
    }
    size_t n = (size_t)(eq - assignment);
    int i = rt_cl_param_index(assignment, n);
    if (i >= 0) return rt_cl_count(where, eq + 1, &rt_cl.param_values[i]);
    fprintf(stderr, "Error: %s: unknown tuning parameter '%.*s' (see --print-params)\n", where, (int)n, assignment);
    return false;
}

static bool rt_cl_read_tuning(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "Error: cannot open tuning file %s\n", path);
        return false;
    }
    char line[1024];
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ')) line[--n] = 0;
        if (n == 0 || line[0] == '#') continue;
        ok = rt_cl_set_param(line, path);
    }
    fclose(f);
    return ok;
}

/* The value of the option at argv[*i] ("-pN", "--opt=V" or the next word). */
static const char *rt_cl_value(int argc, char **argv, int *i, const char *name) {
    const char *a = argv[*i];
    const char *eq = strchr(a, '=');
    if (a[1] != '-' && a[2]) return a + 2;
    if (a[1] == '-' && eq) return eq + 1;
    if (*i + 1 < argc) return argv[++*i];
    fprintf(stderr, "Option %s requires an argument.\n", name);
    return NULL;
}

static bool rt_cl_is(const char *a, const char *s, const char *l) {
    size_t n = strlen(l);
    if (!strncmp(a, l, n) && (a[n] == 0 || a[n] == '=')) return true;
    return s && !strncmp(a, s, 2) && a[1] != '-';
}

static int rt_cl_option(int argc, char **argv, int *i) {
    const char *a = argv[*i];
    if (!rt_cl.param_values && rt_cl.prog) {
        rt_cl.param_values = malloc(((size_t)rt_cl.prog->nparams + 1) * sizeof(int64_t));
        if (!rt_cl.param_values) return -1;
        for (int k = 0; k <= rt_cl.prog->nparams; k++) rt_cl.param_values[k] = -1;
    }
    const char *v;
    if (!strcmp(a, "-P") || !strcmp(a, "--profile")) rt_cl.profile = true;
    else if (!strcmp(a, "--list-devices")) rt_cl.list_devices = true;
    else if (!strcmp(a, "--print-params")) rt_cl.print_params = true;
    else if (!strcmp(a, "-L") || !strcmp(a, "--log")) rt_cl.log = true;
    else if (rt_cl_is(a, "-p", "--platform")) {
        int64_t n;
        if (!(v = rt_cl_value(argc, argv, i, "--platform")) || !rt_cl_count("--platform", v, &n)) return -1;
        rt_cl.platform_index = (int)n;
    } else if (rt_cl_is(a, "-d", "--device")) {
        if (!(v = rt_cl_value(argc, argv, i, "--device"))) return -1;
        rt_cl.device_name = v;
    } else if (rt_cl_is(a, NULL, "--cache-file")) {
        if (!(v = rt_cl_value(argc, argv, i, "--cache-file"))) return -1;
        rt_cl.cache_file = v;
    } else if (!strncmp(a, "--dump-opencl", 13)) {
        if (!(v = rt_cl_value(argc, argv, i, "--dump-opencl"))) return -1;
        rt_cl.dump_file = v;
    } else if (!strncmp(a, "--load-opencl", 13)) {
        if (!(v = rt_cl_value(argc, argv, i, "--load-opencl"))) return -1;
        rt_cl.load_file = v;
    } else if (rt_cl_is(a, NULL, "--build-option")) {
        if (!(v = rt_cl_value(argc, argv, i, "--build-option"))) return -1;
        static char options[RT_CL_OPTIONS_MAX];
        size_t have = strlen(options);
        if (have + strlen(v) + 2 > sizeof options) {
            fprintf(stderr, "Error: --build-option: the options are longer than %d bytes\n", RT_CL_OPTIONS_MAX);
            return -1;
        }
        snprintf(options + have, sizeof options - have, " %s", v);
        rt_cl.build_options = options;
    } else if (!strncmp(a, "--default-group-size", 20)) {
        if (!(v = rt_cl_value(argc, argv, i, "--default-group-size")) ||
            !rt_cl_count("--default-group-size", v, &rt_cl.group_size))
            return -1;
    } else if (!strncmp(a, "--default-num-groups", 20)) {
        if (!(v = rt_cl_value(argc, argv, i, "--default-num-groups")) ||
            !rt_cl_count("--default-num-groups", v, &rt_cl.num_groups))
            return -1;
    } else if (!strncmp(a, "--default-threshold", 19)) {
        if (!(v = rt_cl_value(argc, argv, i, "--default-threshold")) ||
            !rt_cl_count("--default-threshold", v, &rt_cl.default_threshold))
            return -1;
    } else if (!strncmp(a, "--param", 7)) {
        if (!(v = rt_cl_value(argc, argv, i, "--param")) || !rt_cl_set_param(v, "--param")) return -1;
    } else if (!strncmp(a, "--tuning", 8)) {
        if (!(v = rt_cl_value(argc, argv, i, "--tuning")) || !rt_cl_read_tuning(v)) return -1;
    } else return 0;
    return 1;
}

/* ---- Device selection and program build --------------------------------------- */

static void rt_cl_list_devices(FILE *f) {
    cl_platform_id ps[16];
    cl_uint np = 0;
    if (clGetPlatformIDs(16, ps, &np) != CL_SUCCESS || np == 0) {
        fprintf(f, "No OpenCL platforms found.\n");
        return;
    }
    for (cl_uint p = 0; p < np; p++) {
        char name[RT_CL_NAME_MAX] = "";
        clGetPlatformInfo(ps[p], CL_PLATFORM_NAME, sizeof name, name, NULL);
        fprintf(f, "Platform #%u: %s\n", p, name);
        cl_device_id ds[16];
        cl_uint nd = 0;
        if (clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_ALL, 16, ds, &nd) != CL_SUCCESS) continue;
        for (cl_uint d = 0; d < nd; d++) {
            clGetDeviceInfo(ds[d], CL_DEVICE_NAME, sizeof name, name, NULL);
            fprintf(f, "  Device #%u: %s\n", d, name);
        }
    }
}

/* The number k of "k" or "#k", or -1 when s is not one. */
static long rt_cl_number(const char *s) {
    if (!s) return -1;
    if (*s == '#') s++;
    if (*s < '0' || *s > '9') return -1;
    char *end;
    long n = strtol(s, &end, 10);
    return *end ? -1 : n;
}

/* Where to read about the devices there are. */
static const char *rt_cl_list_hint(void) {
    return rt_cl.library ? "futhark_context_config_list_devices lists them" : "see --list-devices";
}

/* Whether platform number p, named name, is one the options allow. */
static bool rt_cl_platform_ok(cl_uint p, const char *name) {
    if (rt_cl.platform_index >= 0 && (int)p != rt_cl.platform_index) return false;
    if (!rt_cl.platform_name) return true;
    long n = rt_cl_number(rt_cl.platform_name);
    return rt_cl.platform_name[0] == '#' && n >= 0 ? (long)p == n : strstr(name, rt_cl.platform_name) != NULL;
}

/* Picks the platform and device the options ask for (GPUs first): a device
 * whose name contains device_name, or whose number in its platform is "k"
 * or "#k"; a platform whose name contains platform_name, or "#k". */
static int rt_cl_pick(rt_ctx *ctx) {
    cl_platform_id ps[16];
    cl_uint np = 0;
    cl_int e = clGetPlatformIDs(16, ps, &np);
    if (e != CL_SUCCESS && e != -1001) return rt_cl_fail(ctx, "clGetPlatformIDs", e);
    if (e != CL_SUCCESS || np == 0) {
        rt_error(ctx, "no OpenCL platform found (is an OpenCL driver, e.g. pocl-opencl-icd, installed?)");
        return 1;
    }
    if (rt_cl.platform_index >= (int)np) {
        rt_error(ctx, "there is no OpenCL platform #%d (there are %u; %s)", rt_cl.platform_index, np,
                 rt_cl_list_hint());
        return 1;
    }
    long want = rt_cl_number(rt_cl.device_name);
    for (int pass = 0; pass < 2; pass++) {
        cl_device_type type = pass == 0 && !rt_cl.device_name ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_ALL;
        for (cl_uint p = 0; p < np; p++) {
            char pname[RT_CL_NAME_MAX] = "";
            clGetPlatformInfo(ps[p], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
            if (!rt_cl_platform_ok(p, pname)) continue;
            cl_device_id ds[16];
            cl_uint nd = 0;
            if (clGetDeviceIDs(ps[p], type, 16, ds, &nd) != CL_SUCCESS) continue;
            for (cl_uint d = 0; d < nd; d++) {
                char name[RT_CL_NAME_MAX] = "";
                clGetDeviceInfo(ds[d], CL_DEVICE_NAME, sizeof name, name, NULL);
                if (want >= 0 && (long)d != want) continue;
                if (rt_cl.device_name && want < 0 && !strstr(name, rt_cl.device_name)) continue;
                rt_cl.platform = ps[p];
                rt_cl.device = ds[d];
                return 0;
            }
        }
    }
    const char *dev = rt_cl.device_name, *plat = rt_cl.platform_name;
    if (rt_cl.library)
        rt_error(ctx, "no OpenCL device %s%s%s%s%s (%s)", dev ? "matches \"" : "found", dev ? dev : "", dev ? "\"" : "",
                 plat ? " on a platform matching " : "", plat ? plat : "", rt_cl_list_hint());
    else rt_error(ctx, "no OpenCL device matches%s%s (%s)", dev ? " -d " : "", dev ? dev : "", rt_cl_list_hint());
    return 1;
}

static unsigned char *rt_cl_slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *b = rt_read_all(f, len);
    fclose(f);
    return b;
}

/* ---- Building ----------------------------------------------------------------- */

static int64_t rt_cl_param(int i, int64_t dflt) {
    return i >= 0 && rt_cl.param_values && rt_cl.param_values[i] > 0 ? rt_cl.param_values[i] : dflt;
}

/* The variant info of parameter i, or NULL when it chooses no variant. */
static const rt_cl_variant_info *rt_cl_variant_of(const rt_cl_program_info *prog, int i) {
    for (int k = 0; k < prog->nvariants; k++)
        if (prog->variants[k].param == i) return &prog->variants[k];
    return NULL;
}

/* The variant that parameter i chooses (dflt unless set; rt_cl_options
 * checked it when the program was built). */
static int64_t rt_cl_variant(int i, int dflt) { return rt_cl_param(i, dflt); }

/* The options the program is built with (malloc'd; NULL after an error):
 * the OpenCL C standard it is written in, RT_NVIDIA on NVIDIA devices
 * (prelude.cl's atomics), the variant of each kernel with variants, and
 * the user's build options. */
static char *rt_cl_options(rt_ctx *ctx) {
    const char *user = rt_cl.build_options ? rt_cl.build_options : "";
    char vendor[RT_CL_NAME_MAX] = "";
    clGetDeviceInfo(rt_cl.device, CL_DEVICE_VENDOR, sizeof vendor - 1, vendor, NULL);
    size_t size = strlen(user) + 48 + (size_t)rt_cl.prog->nvariants * 48;
    char *opts = malloc(size);
    if (!opts) {
        rt_error(ctx, "out of memory");
        return NULL;
    }
    int n = sprintf(opts, "-cl-std=CL1.2%s", strstr(vendor, "NVIDIA") ? " -DRT_NVIDIA" : "");
    for (int k = 0; k < rt_cl.prog->nvariants; k++) {
        const rt_cl_variant_info *v = &rt_cl.prog->variants[k];
        int64_t x = rt_cl_variant(v->param, v->dflt);
        if (x > v->count) {
            rt_error(ctx, "tuning parameter %s is %lld, but its variants are 1 to %d (see --print-params)",
                     rt_cl.prog->params[v->param], (long long)x, v->count);
            free(opts);
            return NULL;
        }
        n += sprintf(opts + n, " -DRT_VARIANT_%d=%d", v->param, (int)x);
    }
    sprintf(opts + n, " %s", user);
    return opts;
}

/* Whether kernel k is in the program as built: not a variant other than
 * the one its parameter chooses. */
static bool rt_cl_kernel_built(int k) {
    for (int i = 0; i < rt_cl.prog->nvariants; i++) {
        const rt_cl_variant_info *v = &rt_cl.prog->variants[i];
        for (int x = 0; x < v->count; x++)
            if (v->kernels[x] == k) return x + 1 == rt_cl_variant(v->param, v->dflt);
    }
    return true;
}

/* Builds the program from source with options opts; false after an error. */
static bool rt_cl_build_source(rt_ctx *ctx, const char *opts) {
    cl_int e = clBuildProgram(rt_cl.program, 1, &rt_cl.device, opts, NULL, NULL);
    if (e == CL_SUCCESS) return true;
    char *log = malloc(RT_CL_LOG_MAX);
    size_t n = 0;
    if (log) clGetProgramBuildInfo(rt_cl.program, rt_cl.device, CL_PROGRAM_BUILD_LOG, RT_CL_LOG_MAX - 1, log, &n);
    if (log) log[n < RT_CL_LOG_MAX ? n : RT_CL_LOG_MAX - 1] = 0;
    rt_error(ctx, "building the OpenCL program failed (%s); build log:\n%s", rt_cl_errstr(e), log ? log : "");
    free(log);
    return false;
}

/* Builds the program from the cache file when it holds a binary for this
 * device built with the same options (the file is the options, a zero
 * byte, then the binary), else from source (writing the cache). The cache
 * is not used for source other than the program's own. Source loaded from
 * a file is its len bytes (the file is not a C string). */
static int rt_cl_build(rt_ctx *ctx) {
    cl_int e = CL_SUCCESS;
    const char *src = rt_cl.source ? rt_cl.source : rt_cl.prog->source;
    char *opts = rt_cl_options(ctx);
    if (!opts) return 1;
    unsigned char *loaded = NULL;
    size_t len = 0, olen = strlen(opts) + 1;
    if (rt_cl.load_file) {
        loaded = rt_cl_slurp(rt_cl.load_file, &len);
        if (!loaded) {
            rt_error(ctx, "cannot read OpenCL source from %s", rt_cl.load_file);
            free(opts);
            return 1;
        }
        src = (const char *)loaded;
    }
    bool from_cache = false, cacheable = rt_cl.cache_file && !loaded && !rt_cl.source;
    if (cacheable) {
        size_t flen;
        unsigned char *file = rt_cl_slurp(rt_cl.cache_file, &flen);
        if (file && flen > olen && !memcmp(file, opts, olen)) {
            const unsigned char *bins[1] = {file + olen};
            size_t blen = flen - olen;
            cl_int st;
            rt_cl.program = clCreateProgramWithBinary(rt_cl.context, 1, &rt_cl.device, &blen, bins, &st, &e);
            if (e == CL_SUCCESS && st == CL_SUCCESS &&
                clBuildProgram(rt_cl.program, 1, &rt_cl.device, "", NULL, NULL) == CL_SUCCESS)
                from_cache = true;
            else if (rt_cl.program) clReleaseProgram(rt_cl.program), rt_cl.program = NULL;
        }
        free(file);
    }
    int rc = 0;
    if (!from_cache) {
        size_t slen = loaded ? len : strlen(src);
        rt_cl.program = clCreateProgramWithSource(rt_cl.context, 1, &src, &slen, &e);
        if (e != CL_SUCCESS) rc = rt_cl_fail(ctx, "clCreateProgramWithSource", e);
        else if (!rt_cl_build_source(ctx, opts)) rc = 1;
        else if (cacheable) {
            size_t blen = 0;
            clGetProgramInfo(rt_cl.program, CL_PROGRAM_BINARY_SIZES, sizeof blen, &blen, NULL);
            unsigned char *bin = blen ? malloc(blen) : NULL;
            if (bin && clGetProgramInfo(rt_cl.program, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) == CL_SUCCESS) {
                FILE *f = fopen(rt_cl.cache_file, "wb");
                if (f) fwrite(opts, 1, olen, f), fwrite(bin, 1, blen, f), fclose(f);
            }
            free(bin);
        }
    }
    free(loaded);
    free(opts);
    return rc;
}

/* Sets up the device on first use (a library that was given its command
 * queue has set queue, context and device already). After a failure,
 * rt_cl_release_all releases what was made. */
static int rt_cl_setup(rt_ctx *ctx) {
    if (rt_cl.ready) return 0;
    if (!rt_cl.prog) {
        rt_error(ctx, "the program has no OpenCL code");
        return 1;
    }
    cl_int e;
    if (!rt_cl.queue) {
        if (rt_cl_pick(ctx)) return 1;
        rt_cl.context = clCreateContext(NULL, 1, &rt_cl.device, NULL, NULL, &e);
        if (e != CL_SUCCESS) return rt_cl_fail(ctx, "clCreateContext", e);
        rt_cl.queue =
            clCreateCommandQueue(rt_cl.context, rt_cl.device, CL_QUEUE_PROFILING_ENABLE, &e);
        if (e != CL_SUCCESS) return rt_cl_fail(ctx, "clCreateCommandQueue", e);
    }
    cl_uint cus = 1;
    size_t maxg = 1;
    cl_ulong lmem = 0, maxa = 0;
    clGetDeviceInfo(rt_cl.device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
    clGetDeviceInfo(rt_cl.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof maxa, &maxa, NULL);
    clGetDeviceInfo(rt_cl.device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof maxg, &maxg, NULL);
    clGetDeviceInfo(rt_cl.device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL);
    rt_cl.compute_units = cus;
    rt_cl.max_group = (int64_t)maxg;
    rt_cl.local_mem = (int64_t)lmem;
    rt_cl.max_alloc = maxa > 0 && maxa < (cl_ulong)INT64_MAX ? (int64_t)maxa : INT64_MAX;
    if (rt_cl_build(ctx)) return 1;
    int nk = rt_cl.prog->nkernels;
    rt_cl.kernels = calloc((size_t)nk + 1, sizeof(cl_kernel));
    rt_cl.kernel_ms = calloc((size_t)nk + 1, sizeof(double));
    rt_cl.kernel_runs = calloc((size_t)nk + 1, sizeof(int64_t));
    if (!rt_cl.kernels || !rt_cl.kernel_ms || !rt_cl.kernel_runs) {
        rt_error(ctx, "out of memory");
        return 1;
    }
    rt_cl.fail = clCreateBuffer(rt_cl.context, CL_MEM_READ_WRITE, sizeof(int64_t) * (1 + RT_CL_FAIL_ARGS), NULL, &e);
    if (e != CL_SUCCESS) return rt_cl_fail(ctx, "clCreateBuffer", e);
    for (int k = 0; k < nk; k++) {
        if (!rt_cl_kernel_built(k)) continue;
        rt_cl.kernels[k] = clCreateKernel(rt_cl.program, rt_cl.prog->kernels[k], &e);
        if (e != CL_SUCCESS) return rt_cl_fail(ctx, rt_cl.prog->kernels[k], e);
        clSetKernelArg(rt_cl.kernels[k], 0, sizeof(cl_mem), &rt_cl.fail);
    }
    rt_cl.ready = true;
    return 0;
}

/* ---- Tuning ------------------------------------------------------------------- */

/* The threshold info of parameter i, or NULL when it is no threshold. */
static const rt_cl_threshold_info *rt_cl_threshold_of(const rt_cl_program_info *prog, int i) {
    for (int k = 0; k < prog->nthresholds; k++)
        if (prog->thresholds[k].param == i) return &prog->thresholds[k];
    return NULL;
}

/* The class of parameter i of prog: "threshold", or what follows the
 * kernel's name ("group_size"). */
static const char *rt_cl_param_class(const rt_cl_program_info *prog, int i) {
    if (rt_cl_threshold_of(prog, i)) return "threshold";
    const char *dot = strrchr(prog->params[i], '.');
    return dot ? dot + 1 : prog->params[i];
}

/* Whether degree of parallelism p reaches threshold parameter i (dflt
 * unless it or --default-threshold is set; 0 may be set); logged with -L
 * as Futhark's programs do. */
static bool rt_cl_threshold(int i, int64_t p, int64_t dflt) {
    int64_t t = rt_cl.param_values && rt_cl.param_values[i] >= 0 ? rt_cl.param_values[i]
                : rt_cl.default_threshold >= 0                    ? rt_cl.default_threshold
                                                                  : dflt;
    bool r = p >= t;
    if (rt_cl.log) fprintf(stderr, "Compared %s <= %lld: %s.\n", rt_cl.prog->params[i], (long long)p, r ? "true" : "false");
    return r;
}

/* Prints parameter i as --print-params lists it: its name, and for a
 * threshold its default and the branches of the thresholds above it
 * ("!name" for a false branch), outermost first. */
static void rt_cl_print_param(FILE *f, const rt_cl_program_info *prog, int i) {
    const rt_cl_threshold_info *t = rt_cl_threshold_of(prog, i);
    const rt_cl_variant_info *v = rt_cl_variant_of(prog, i);
    fputs(prog->params[i], f);
    if (v) fprintf(f, " (variant %d of %d: %s)", v->dflt, v->count, v->described);
    if (!t) {
        fputc('\n', f);
        return;
    }
    int chain[64], n = 0;
    for (const rt_cl_threshold_info *u = t; u->parent >= 0 && n < 64; n++) {
        chain[n] = u->parent * 2 + u->branch;
        u = rt_cl_threshold_of(prog, u->parent);
        if (!u) break;
    }
    fprintf(f, " (threshold %lld (", (long long)t->dflt);
    for (int k = n - 1; k >= 0; k--)
        fprintf(f, "%s%s%s", k < n - 1 ? " " : "", chain[k] % 2 ? "" : "!", prog->params[chain[k] / 2]);
    fputs("))\n", f);
}

/* Tuning parameter i (dflt when unset) rounded down to a power of two
 * (reductions' trees need one) and capped at max. */
static int64_t rt_cl_pow2_param(int i, int64_t dflt, int64_t max) {
    int64_t g = rt_cl_param(i, dflt);
    if (g > max) g = max;
    int64_t p = 1;
    while (p * 2 <= g) p *= 2;
    return p;
}

/* The group size of a kernel whose tuning parameter is i (-1: none), when
 * neither the parameter nor --default-group-size is set: dflt. */
static int64_t rt_cl_group_size_or(int i, int64_t dflt) {
    return rt_cl_pow2_param(i, rt_cl.group_size > 0 ? rt_cl.group_size : dflt, rt_cl.max_group);
}

static int64_t rt_cl_group_size(int i) { return rt_cl_group_size_or(i, RT_CL_GROUP_SIZE); }

/* The work-group size of intra-group kernel k (tuning parameter i) whose
 * widest operation has w elements, in n work-groups: a work-item per
 * RT_CL_GROUP_ELEMS elements, but at least RT_CL_GROUP_MIN work-items
 * (whole warps, and few enough groups per compute unit that all its
 * work-items can be resident), and more when n groups of that size would
 * not fill the device; at most w, and as many as the device and the
 * kernel (its registers) allow. Each tree or scan step of a work-group
 * costs every work-item a barrier, so fewer work-items with more
 * elements each win: on an H100, a row softmax of 65536 x 256 took 80 us
 * in groups of 32, 100 in 64, 222 in 128, 410 in 256 (the distributed
 * version 190); 64 scans of each of 65536 rows of 256 took 3.4 ms in
 * groups of 64, 3.8 in 128, 7.7 in 256 (distributed: 7.1), and of 1024
 * rows of 1024 (too few groups to fill the device in groups of 128)
 * 0.32 ms in 128 and 0.23 in 256 or more. */
#define RT_CL_GROUP_ELEMS 8
#define RT_CL_GROUP_MIN 64
static int64_t rt_cl_group_width(int i, int k, int64_t w, int64_t n) {
    int64_t g = (w + RT_CL_GROUP_ELEMS - 1) / RT_CL_GROUP_ELEMS;
    if (g < RT_CL_GROUP_MIN) g = w < RT_CL_GROUP_MIN ? w : RT_CL_GROUP_MIN;
    int64_t fill = n > 0 ? 2 * rt_cl.compute_units * rt_cl.max_group / n : w;
    if (g < fill) g = fill < w ? fill : w;
    g = rt_cl_param(i, g);
    size_t most = 0;
    if (clGetKernelWorkGroupInfo(rt_cl.kernels[k], rt_cl.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof most, &most, NULL) ==
            CL_SUCCESS &&
        most > 0 && g > (int64_t)most)
        g = (int64_t)most;
    if (g > rt_cl.max_group) g = rt_cl.max_group;
    return g < 1 ? 1 : g;
}

/* Groups of a reduction-like kernel over n elements in groups of size g. */
static int64_t rt_cl_num_groups(int i, int64_t n, int64_t g) {
    int64_t d = rt_cl.num_groups > 0 ? rt_cl.num_groups : rt_cl.compute_units * RT_CL_GROUPS_PER_CU;
    int64_t k = rt_cl_param(i, d), need = (n + g - 1) / g;
    if (k > need) k = need;
    return k < 1 ? 1 : k;
}

/* Lanes per segment of an irregular segmented reduction over nseg
 * segments in groups of g (tuning parameter i, else dflt_min or more):
 * enough that the device is full (as many work-items as
 * rt_cl_num_groups would start), so that a few long segments get whole
 * groups while millions of short ones get dflt_min lanes each. */
static int64_t rt_cl_lanes(int i, int64_t nseg, int64_t g, int64_t dflt_min) {
    int64_t fill = rt_cl.compute_units * RT_CL_GROUPS_PER_CU * g;
    int64_t want = nseg > 0 ? fill / nseg : g;
    return rt_cl_pow2_param(i, want > dflt_min ? want : dflt_min, g);
}

/* Work-groups per segment of a segmented reduction over nseg segments
 * of m elements in groups of g (tuning parameter i): one when there are
 * segments enough to fill the device, else enough groups for it, but
 * never so many that a work-item folds fewer than RT_CL_SEG_MIN_ITEMS
 * elements. */
#define RT_CL_SEG_MIN_ITEMS 8
static int64_t rt_cl_segment_groups(int i, int64_t nseg, int64_t m, int64_t g) {
    int64_t fill = rt_cl.compute_units * RT_CL_GROUPS_PER_CU;
    int64_t want = nseg > 0 ? fill / nseg : 1, most = m / (g * RT_CL_SEG_MIN_ITEMS);
    if (want > most) want = most;
    int64_t k = rt_cl_param(i, want);
    return k < 1 ? 1 : k;
}

/* Local memory a kernel may use for a sub-histogram: half the device's,
 * so that the runtime's own local buffers and occupancy are left room. */
static int64_t rt_cl_local_budget(void) { return rt_cl.local_mem / 2; }

/* Shrinks group size g until g work-items of bytes local memory each fit. */
static int64_t rt_cl_fit_group(int64_t g, int64_t bytes) {
    while (g > 1 && g * bytes > rt_cl.local_mem / 2) g /= 2;
    return g;
}

/* ---- Runs ------------------------------------------------------------------------ */

/* Called at the start of each entry-point run: sets up the device and clears
 * the failure record. */
static int rt_cl_begin(rt_ctx *ctx) {
    if (rt_cl_setup(ctx)) return 1;
    int64_t none[1 + RT_CL_FAIL_ARGS];
    memset(none, 0xff, sizeof none);
    cl_int e = clEnqueueWriteBuffer(rt_cl.queue, rt_cl.fail, CL_TRUE, 0, sizeof none, none, 0, NULL, NULL);
    return e != CL_SUCCESS ? rt_cl_fail(ctx, "clEnqueueWriteBuffer", e) : 0;
}

/* The start of a run's device time. A run whose caller asks for its
 * time (run_us = -1: executables' -t) is timed on the device, as CUDA
 * events time a stream: from the start of its first device command
 * (kernel, copy or fill) to the end of its last (the queue keeps
 * profiling timestamps). The host clock, which also counts the host's
 * launches and its wait for the device (a sum of one element, two
 * kernels: 31-34 us on an H200), is what remains when the run has no
 * device command or the device no timestamps. */
static void rt_cl_drop_span(void) {
    for (int i = 0; i < 2; i++)
        if (rt_cl.span[i]) clReleaseEvent(rt_cl.span[i]);
    rt_cl.span[0] = rt_cl.span[1] = NULL;
}

static void rt_cl_start_timer(rt_ctx *ctx) {
    rt_cl.t0 = rt_cl_now_us();
    rt_cl_drop_span();
    rt_cl.timing = ctx->run_us == -1;
}

/* Where a device command of the run puts its event: ev when the run is
 * timed or profiled (-P), else nowhere. */
static cl_event *rt_cl_event(cl_event *ev) {
    *ev = NULL;
    return rt_cl.timing || rt_cl.profile ? ev : NULL;
}

/* Keeps event ev of a command of a timed run as its first or latest;
 * releases the caller's reference unless -P still needs it (profiled). */
static void rt_cl_timed(cl_event ev, bool profiled) {
    if (!ev) return;
    if (rt_cl.timing) {
        clRetainEvent(ev);
        if (!rt_cl.span[0]) rt_cl.span[0] = ev;
        else {
            if (rt_cl.span[1]) clReleaseEvent(rt_cl.span[1]);
            rt_cl.span[1] = ev;
        }
    }
    if (!profiled) clReleaseEvent(ev);
}

/* Microseconds from the start of the run's first device command to the
 * end of its last, or -1. */
static int64_t rt_cl_span_us(void) {
    cl_event last = rt_cl.span[1] ? rt_cl.span[1] : rt_cl.span[0];
    cl_ulong t0 = 0, t1 = 0;
    if (!last || clGetEventProfilingInfo(rt_cl.span[0], CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL) != CL_SUCCESS ||
        clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL) != CL_SUCCESS || t1 < t0)
        return -1;
    return (int64_t)((t1 - t0 + 500) / 1000);
}

/* Waits for the device and reports a failure a kernel recorded. */
static int rt_cl_sync(rt_ctx *ctx) {
    /* The queue is in order: the blocking read of the failure record ends
     * after every kernel before it (one wait for the device, not two: a
     * sum of one element, two kernels, went from 33.0 to 31.5 us, median
     * of 50 runs on an H200). */
    int64_t rec[1 + RT_CL_FAIL_ARGS];
    cl_int e = clEnqueueReadBuffer(rt_cl.queue, rt_cl.fail, CL_TRUE, 0, sizeof rec, rec, 0, NULL, NULL);
    if (e != CL_SUCCESS) return rt_cl_fail(ctx, "clEnqueueReadBuffer", e);
    int32_t id;
    memcpy(&id, rec, sizeof id);
    if (id < 0) return 0;
    if (id >= rt_cl.prog->nfailures) {
        rt_error(ctx, "a kernel failed (unknown failure %d)", (int)id);
        return 1;
    }
    long long a[RT_CL_FAIL_ARGS];
    for (int i = 0; i < RT_CL_FAIL_ARGS; i++) a[i] = (long long)rec[1 + i];
    rt_error(ctx, rt_cl.prog->failures[id], a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
    return 1;
}

/* End of an entry's computation: synchronises, checks failures and records
 * the device time (without the copies of inputs and results). */
static int rt_cl_finish(rt_ctx *ctx) {
    int r = rt_cl_sync(ctx);
    ctx->run_us = rt_cl_now_us() - rt_cl.t0;
    int64_t us = rt_cl.timing ? rt_cl_span_us() : -1;
    if (us >= 0) ctx->run_us = us;
    rt_cl.timing = false;
    rt_cl_drop_span();
    return r;
}

/* ---- Device memory -------------------------------------------------------------- */

static void rt_dpool_init(rt_dpool *p) { p->live.prev = p->live.next = &p->live; }

static void rt_cl_keep(cl_mem m, int64_t size) {
    if (rt_cl.nfree == rt_cl.cap_free) {
        int cap = rt_cl.cap_free ? 2 * rt_cl.cap_free : 64;
        rt_cl_free *fl = realloc(rt_cl.free_list, sizeof *fl * (size_t)cap);
        if (!fl) {
            clReleaseMemObject(m);
            return;
        }
        rt_cl.free_list = fl;
        rt_cl.cap_free = cap;
    }
    rt_cl.free_list[rt_cl.nfree].mem = m;
    rt_cl.free_list[rt_cl.nfree++].size = size;
}

static void rt_cl_drop_free(void) {
    for (int i = 0; i < rt_cl.nfree; i++) clReleaseMemObject(rt_cl.free_list[i].mem);
    rt_cl.nfree = 0;
}

/* A buffer of at least bytes: the smallest kept one that is not more than
 * twice as large, else a new one. */
static cl_mem rt_cl_buffer(rt_ctx *ctx, int64_t bytes, int64_t *size) {
    int best = -1;
    for (int i = 0; i < rt_cl.nfree; i++) {
        int64_t s = rt_cl.free_list[i].size;
        if (s >= bytes && s <= 2 * bytes + 4096 && (best < 0 || s < rt_cl.free_list[best].size)) best = i;
    }
    if (best >= 0) {
        cl_mem m = rt_cl.free_list[best].mem;
        *size = rt_cl.free_list[best].size;
        rt_cl.free_list[best] = rt_cl.free_list[--rt_cl.nfree];
        return m;
    }
    /* beyond the device's largest buffer (an overflowed size is INT64_MAX):
     * NVIDIA's clCreateBuffer accepted 2^63 - 1 bytes and failed later, or
     * not at all */
    if (bytes > rt_cl.max_alloc) {
        rt_error(ctx, "cannot allocate %lld bytes of device memory: the device's largest buffer is %lld bytes",
                 (long long)bytes, (long long)rt_cl.max_alloc);
        return NULL;
    }
    cl_int e;
    cl_mem m = clCreateBuffer(rt_cl.context, CL_MEM_READ_WRITE, (size_t)bytes, NULL, &e);
    if (e != CL_SUCCESS && rt_cl.nfree > 0) {
        rt_cl_drop_free();
        m = clCreateBuffer(rt_cl.context, CL_MEM_READ_WRITE, (size_t)bytes, NULL, &e);
    }
    if (e != CL_SUCCESS) {
        rt_error(ctx, "cannot allocate %lld bytes of device memory: %s", (long long)bytes, rt_cl_errstr(e));
        return NULL;
    }
    *size = bytes;
    return m;
}

/* Links b into p's live list with refs references. */
static void rt_dblock_link(rt_dpool *p, rt_dblock *b, int64_t refs) {
    b->refs = refs;
    b->next = p->live.next;
    b->prev = &p->live;
    p->live.next->prev = b;
    p->live.next = b;
}

static void rt_dblock_unlink(rt_dblock *b) {
    b->prev->next = b->next;
    b->next->prev = b->prev;
}

static void rt_dblock_release(rt_dblock *b);

/* Gives up b's buffer once nothing refers to b: a borrowed block's
 * reference to its owner is released, a foreign buffer goes back to its
 * owner, any other is kept for reuse. */
static void rt_dblock_drop(rt_dblock *b) {
    if (b->owner) rt_dblock_release(b->owner);
    else if (b->foreign) clReleaseMemObject(b->mem);
    else {
        rt_cl.mem_used -= b->size;
        rt_cl_keep(b->mem, b->size);
    }
    free(b);
}

/* A fresh device block of bytes bytes with one reference, or NULL after
 * an error. */
static rt_dblock *rt_dblock_new(rt_ctx *ctx, rt_dpool *p, int64_t bytes) {
    if (bytes < 0) {
        rt_error(ctx, "cannot allocate a negative number of bytes (%lld)", (long long)bytes);
        return NULL;
    }
    int64_t req = bytes;
    if (bytes < 8) bytes = 8;
    rt_dblock *b = malloc(sizeof *b);
    if (!b) {
        rt_error(ctx, "out of memory");
        return NULL;
    }
    b->mem = rt_cl_buffer(ctx, bytes, &b->size);
    if (!b->mem) {
        free(b);
        return NULL;
    }
    b->req = req;
    b->owner = NULL;
    b->foreign = false;
    rt_dblock_link(p, b, 1);
    rt_cl.mem_used += b->size;
    if (rt_cl.mem_used > rt_cl.mem_peak) rt_cl.mem_peak = rt_cl.mem_used;
    return b;
}

static void rt_dblock_retain(rt_dblock *b) { b->refs++; }

static int64_t rt_cl_block_size(const rt_dblock *b) { return b->req; }

/* Sets the first bytes of b to zero. */
static int rt_cl_zero(rt_ctx *ctx, rt_dblock *b, int64_t bytes) {
    cl_uchar z = 0;
    cl_event ev;
    cl_int e = clEnqueueFillBuffer(rt_cl.queue, b->mem, &z, 1, 0, (size_t)bytes, 0, NULL, rt_cl_event(&ev));
    rt_cl_timed(e == CL_SUCCESS ? ev : NULL, false);
    return e != CL_SUCCESS ? rt_cl_fail(ctx, "clEnqueueFillBuffer", e) : 0;
}

static void rt_dblock_release(rt_dblock *b) {
    if (--b->refs > 0) return;
    rt_dblock_unlink(b);
    rt_dblock_drop(b);
}

/* Frees every block of p, whatever its references. The owners of
 * borrowed blocks live in another pool (a library context's). */
static void rt_dpool_free(rt_dpool *p) {
    rt_dblock *b = p->live.next;
    while (b != &p->live) {
        rt_dblock *next = b->next;
        rt_dblock_drop(b);
        b = next;
    }
    rt_dpool_init(p);
}

/* An entry's use of array argument owner (a library's array on the device,
 * bytes long): a block of the run's pool p that borrows owner's buffer,
 * or, when the entry consumes the argument (copy), a fresh copy, so that
 * the caller's array stays as it was. NULL after an error. */
static rt_dblock *rt_cl_borrow(rt_ctx *ctx, rt_dpool *p, void *owner, int64_t bytes, bool copy) {
    rt_dblock *o = owner;
    if (copy) {
        rt_dblock *b = rt_dblock_new(ctx, p, bytes);
        if (!b || bytes == 0) return b;
        cl_event ev;
        cl_int e = clEnqueueCopyBuffer(rt_cl.queue, o->mem, b->mem, 0, 0, (size_t)bytes, 0, NULL, rt_cl_event(&ev));
        rt_cl_timed(e == CL_SUCCESS ? ev : NULL, false);
        return e != CL_SUCCESS ? (rt_cl_fail(ctx, "clEnqueueCopyBuffer", e), NULL) : b;
    }
    rt_dblock *b = malloc(sizeof *b);
    if (!b) {
        rt_error(ctx, "out of memory");
        return NULL;
    }
    *b = *o;
    b->owner = o;
    b->foreign = false;
    rt_dblock_retain(o);
    rt_dblock_link(p, b, 1);
    return b;
}

/* An entry's array result b (dense, from offset 0) handed to a library's
 * context: a new reference to b, or to the block b borrows, which then
 * lives in the context's pool (ctx->device), not the run's. */
static rt_dblock *rt_cl_export(rt_ctx *ctx, rt_dblock *b) {
    rt_dblock *t = b->owner ? b->owner : b;
    rt_dblock_retain(t);
    if (!b->owner) {
        rt_dblock_unlink(t);
        rt_dblock_link(ctx->device, t, t->refs);
    }
    return t;
}

/* A device block holding a copy of bytes bytes of host data. */
static rt_dblock *rt_cl_upload(rt_ctx *ctx, rt_dpool *p, const void *data, int64_t bytes) {
    rt_dblock *b = rt_dblock_new(ctx, p, bytes);
    if (!b || bytes == 0) return b;
    cl_int e = clEnqueueWriteBuffer(rt_cl.queue, b->mem, CL_TRUE, 0, (size_t)bytes, data, 0, NULL, NULL);
    if (e != CL_SUCCESS) {
        rt_cl_fail(ctx, "clEnqueueWriteBuffer", e);
        rt_dblock_release(b);
        return NULL;
    }
    return b;
}

/* Reads or writes size bytes at element offset off (elements of size bytes).
 * A read is followed by the read of the failure record (one wait: the
 * queue is in order), so that host code never goes on with a value a
 * kernel computed after another failed (a size read back would be
 * garbage: an allocation of that size, a loop of that count). */
static int rt_cl_read(rt_ctx *ctx, rt_dblock *b, int64_t off, int64_t size, void *dst) {
    cl_int e = clEnqueueReadBuffer(rt_cl.queue, b->mem, CL_FALSE, (size_t)(off * size), (size_t)size, dst, 0, NULL, NULL);
    if (e != CL_SUCCESS) return rt_cl_fail(ctx, "clEnqueueReadBuffer", e);
    if (!rt_cl_sync(ctx)) return 0;
    clFinish(rt_cl.queue); /* the read into dst is done before dst goes away */
    return 1;
}

static int rt_cl_write(rt_ctx *ctx, rt_dblock *b, int64_t off, int64_t bytes, const void *src) {
    if (bytes == 0) return 0;
    cl_int e = clEnqueueWriteBuffer(rt_cl.queue, b->mem, CL_TRUE, (size_t)off, (size_t)bytes, src, 0, NULL, NULL);
    return e != CL_SUCCESS ? rt_cl_fail(ctx, "clEnqueueWriteBuffer", e) : 0;
}

/* Maps a block into host memory for code that runs on the host. */
static rt_block *rt_cl_map(rt_ctx *ctx, rt_pool *pool, rt_dblock *b) {
    cl_int e;
    void *p = clEnqueueMapBuffer(rt_cl.queue, b->mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, (size_t)b->size, 0,
                                 NULL, NULL, &e);
    if (e != CL_SUCCESS) {
        rt_cl_fail(ctx, "clEnqueueMapBuffer", e);
        return NULL;
    }
    rt_block *h = rt_block_wrap(pool, p);
    if (!h) rt_error(ctx, "out of memory");
    return h;
}

static int rt_cl_unmap(rt_ctx *ctx, rt_dblock *b, rt_block *h) {
    cl_int e = clEnqueueUnmapMemObject(rt_cl.queue, b->mem, h->data, 0, NULL, NULL);
    rt_block_release(h);
    return e != CL_SUCCESS ? rt_cl_fail(ctx, "clEnqueueUnmapMemObject", e) : 0;
}

/* ---- Launches -------------------------------------------------------------------- */

static int rt_cl_arg(rt_ctx *ctx, int k, int i, size_t size, const void *v) {
    cl_int e = clSetKernelArg(rt_cl.kernels[k], (cl_uint)i, size, v);
    if (e != CL_SUCCESS) {
        rt_error(ctx, "OpenCL call clSetKernelArg failed for kernel %s, argument %d: %s", rt_cl.prog->kernels[k], i,
                 rt_cl_errstr(e));
        return 1;
    }
    return 0;
}

static int rt_cl_mem_arg(rt_ctx *ctx, int k, int i, rt_dblock *b) { return rt_cl_arg(ctx, k, i, sizeof(cl_mem), &b->mem); }

/* -P: waits for launch ev of kernel k and adds its time. */
static void rt_cl_profile(int k, cl_event ev) {
    if (!ev) return;
    cl_ulong t0 = 0, t1 = 0;
    clWaitForEvents(1, &ev);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
    rt_cl.kernel_ms[k] += (double)(t1 - t0) / 1e6;
    rt_cl.kernel_runs[k]++;
    clReleaseEvent(ev);
}

/* Launches kernel k over dims dimensions of groups[d] groups of group[d]
 * work-items each (nothing when a dimension is empty). */
static int rt_cl_launch_nd(rt_ctx *ctx, int k, cl_uint dims, const int64_t *groups, const int64_t *group) {
    size_t global[2], local[2];
    for (cl_uint d = 0; d < dims; d++) {
        if (groups[d] <= 0) return 0;
        global[d] = (size_t)(groups[d] * group[d]);
        local[d] = (size_t)group[d];
    }
    cl_event ev;
    cl_int e = clEnqueueNDRangeKernel(rt_cl.queue, rt_cl.kernels[k], dims, NULL, global, local, 0, NULL,
                                      rt_cl_event(&ev));
    if (e != CL_SUCCESS) {
        rt_error(ctx, "OpenCL call clEnqueueNDRangeKernel failed for kernel %s (%lld groups of %lld): %s",
                 rt_cl.prog->kernels[k], (long long)groups[0], (long long)group[0], rt_cl_errstr(e));
        return 1;
    }
    rt_cl_timed(ev, rt_cl.profile);
    if (rt_cl.profile) rt_cl_profile(k, ev);
    return 0;
}

/* Launches kernel k over groups * group work-items. */
static int rt_cl_launch(rt_ctx *ctx, int k, int64_t groups, int64_t group) {
    return rt_cl_launch_nd(ctx, k, 1, &groups, &group);
}

/* The side of the square tiles of the built-in transpose of elements of
 * esize bytes (runtime/kernels.cl's RT_BUILTINS): 64 (16.6 KiB of local
 * memory for 4-byte elements; an 8192^2 f32 transpose on an H200 took
 * 0.216-0.222 ms with tiles of 32, 0.195 with 64), 32 for 8-byte elements (so
 * that a tile fits a device with 32 KiB of local memory). */
static int64_t rt_cl_transpose_side(int esize) { return esize == 8 ? 32 : 64; }

/* The tile of the built-in transpose of a skinny array (rt_transpose_skinny,
 * for a rows x cols array less high or wide than the square tile's side S,
 * rows along the source's contiguous dimension): 2^ti x 2^tj elements,
 * as many as the square, as high (wide) as the array, at least 8. A
 * [2^20][16] f32 array (k-means' points, made column-major) used 16 of a
 * square tile's 64 rows: 85 us on an H200, 58 us with tiles of 16 x 256.
 * Square arrays keep the square kernel, whose loops have constant steps
 * (the skinny kernel on 8192^2 f32: 0.161 -> 0.19 ms). */
static void rt_cl_transpose_tile(int esize, int64_t rows, int64_t cols, int *ti, int *tj) {
    int s = 0, k = 3;
    while (((int64_t)1 << s) < rt_cl_transpose_side(esize)) s++;
    int64_t small = rows < cols ? rows : cols;
    while (k < s && ((int64_t)1 << k) < small) k++;
    *ti = rows < cols ? k : 2 * s - k;
    *tj = 2 * s - *ti;
}

/* Index of the built-in kernel named name (the generated program lists
 * them first, by element size: rt_copy_1 ... ). */
static int rt_cl_builtin(const char *base, int esize) {
    static const int sizes[] = {1, 2, 4, 8};
    static const char *const bases[] = {"rt_copy", "rt_fill", "rt_iota", "rt_transpose", "rt_transpose_skinny"};
    const int nbases = (int)(sizeof bases / sizeof *bases), nsizes = (int)(sizeof sizes / sizeof *sizes);
    int b = 0, s = 0;
    while (b < nbases && strcmp(bases[b], base)) b++;
    while (s < nsizes && sizes[s] != esize) s++;
    return b * nsizes + s;
}

/* Sets a long8 argument from up to 8 values (the rest 0). */
static int rt_cl_long8(rt_ctx *ctx, int k, int i, const int64_t *v, int n) {
    cl_long8 x;
    memset(&x, 0, sizeof x);
    for (int d = 0; d < n; d++) x.s[d] = v[d];
    return rt_cl_arg(ctx, k, i, sizeof x, &x);
}

static int64_t rt_cl_count_of(const int64_t *shape, int rank) {
    int64_t n = 1;
    for (int d = 0; d < rank; d++) n *= shape[d];
    return n;
}

/* Whether strides are those of a dense row-major array of shape. */
static bool rt_cl_dense(const int64_t *shape, const int64_t *strides, int rank) {
    int64_t s = 1;
    for (int d = rank - 1; d >= 0; d--) {
        if (shape[d] != 1 && strides[d] != s) return false;
        s *= shape[d];
    }
    return true;
}

static int rt_cl_groups_for(int64_t n, int64_t g) { return (int)((n + g - 1) / g); }

/* Whether the built-in kernels cannot handle rank (after a message about
 * doing what to such an array). */
static bool rt_cl_rank_unsupported(rt_ctx *ctx, const char *what, int rank) {
    if (rank <= RT_CL_MAX_RANK) return false;
    rt_error(ctx, "%s an array of rank %d on the device is not supported (at most %d)", what, rank, RT_CL_MAX_RANK);
    return true;
}

/* A copy's dimensions (strides ds0 and ss0, shape sh0) without those of
 * one element and with neighbours merged where both layouts keep them
 * contiguous with each other, into ds, ss and sh; returns their number. */
static int rt_cl_merge_dims(const int64_t *ds0, const int64_t *ss0, const int64_t *sh0, int rank, int64_t *ds,
                            int64_t *ss, int64_t *sh) {
    int r = 0;
    for (int d = 0; d < rank; d++) {
        if (sh0[d] == 1) continue;
        if (r > 0 && ds[r - 1] == ds0[d] * sh0[d] && ss[r - 1] == ss0[d] * sh0[d]) {
            sh[r - 1] *= sh0[d];
            ds[r - 1] = ds0[d];
            ss[r - 1] = ss0[d];
            continue;
        }
        ds[r] = ds0[d], ss[r] = ss0[d], sh[r] = sh0[d];
        r++;
    }
    return r;
}

/* Copies rank-dimensional elements of esize bytes between LMAD layouts
 * (element offsets and strides): a buffer copy when both are dense, a tiled
 * transpose for a 2-D transposition (after merging dimensions: a
 * row-major array into the layout with its outer dimension innermost is
 * one), else the general copy kernel. */
static int rt_cl_copy(rt_ctx *ctx, int esize, rt_dblock *dst, int64_t doff, const int64_t *ds0, rt_dblock *src,
                      int64_t soff, const int64_t *ss0, const int64_t *shape0, int rank) {
    int64_t n = rt_cl_count_of(shape0, rank);
    if (n == 0) return 0;
    if (rt_cl_dense(shape0, ds0, rank) && rt_cl_dense(shape0, ss0, rank)) {
        if (dst == src && doff == soff) return 0;
        cl_event ev;
        cl_int e = clEnqueueCopyBuffer(rt_cl.queue, src->mem, dst->mem, (size_t)(soff * esize), (size_t)(doff * esize),
                                       (size_t)(n * esize), 0, NULL, rt_cl_event(&ev));
        rt_cl_timed(e == CL_SUCCESS ? ev : NULL, false);
        return e != CL_SUCCESS ? rt_cl_fail(ctx, "clEnqueueCopyBuffer", e) : 0;
    }
    if (rt_cl_rank_unsupported(ctx, "copying", rank)) return 1;
    int64_t ds[RT_CL_MAX_RANK + 1], ss[RT_CL_MAX_RANK + 1], shape[RT_CL_MAX_RANK + 1];
    int r = rt_cl_merge_dims(ds0, ss0, shape0, rank, ds, ss, shape);
    if (r == 2 && ds[0] == 1 && ss[1] == 1) {
        int64_t t[] = {ds[0], ss[0], shape[0]};
        ds[0] = ds[1], ss[0] = ss[1], shape[0] = shape[1];
        ds[1] = t[0], ss[1] = t[1], shape[1] = t[2];
    }
    if (r == 2 && ds[1] == 1 && ss[0] == 1) {
        int64_t side = rt_cl_transpose_side(esize);
        bool square = shape[0] >= side && shape[1] >= side;
        int k = rt_cl_builtin(square ? "rt_transpose" : "rt_transpose_skinny", esize);
        int64_t a[] = {doff, ds[0], soff, ss[1], shape[0], shape[1]};
        if (rt_cl_mem_arg(ctx, k, 1, dst) || rt_cl_mem_arg(ctx, k, 2, src)) return 1;
        for (int i = 0; i < 6; i++)
            if (rt_cl_arg(ctx, k, 3 + i, sizeof(int64_t), &a[i])) return 1;
        if (square) {
            const int64_t groups[2] = {rt_cl_groups_for(shape[0], side), rt_cl_groups_for(shape[1], side)},
                          group[2] = {side, 256 / side};
            return rt_cl_launch_nd(ctx, k, 2, groups, group);
        }
        int ti, tj;
        rt_cl_transpose_tile(esize, shape[0], shape[1], &ti, &tj);
        if (rt_cl_arg(ctx, k, 9, sizeof ti, &ti) || rt_cl_arg(ctx, k, 10, sizeof tj, &tj)) return 1;
        const int64_t groups[2] = {rt_cl_groups_for(shape[0], (int64_t)1 << ti),
                                   rt_cl_groups_for(shape[1], (int64_t)1 << tj)},
                      group[2] = {256, 1};
        return rt_cl_launch_nd(ctx, k, 2, groups, group);
    }
    int k = rt_cl_builtin("rt_copy", esize);
    if (rt_cl_mem_arg(ctx, k, 1, dst) || rt_cl_arg(ctx, k, 2, sizeof doff, &doff) || rt_cl_long8(ctx, k, 3, ds, r) ||
        rt_cl_mem_arg(ctx, k, 4, src) || rt_cl_arg(ctx, k, 5, sizeof soff, &soff) || rt_cl_long8(ctx, k, 6, ss, r) ||
        rt_cl_long8(ctx, k, 7, shape, r) || rt_cl_arg(ctx, k, 8, sizeof r, &r) || rt_cl_arg(ctx, k, 9, sizeof n, &n))
        return 1;
    int64_t g = rt_cl_group_size(-1);
    return rt_cl_launch(ctx, k, rt_cl_groups_for(n, g), g);
}

/* Bytes [from, to) of dst filled with the size-byte pattern (from and to
 * multiples of size). */
static int rt_cl_fill_bytes(rt_ctx *ctx, rt_dblock *dst, const void *pattern, int size, int64_t from, int64_t to) {
    if (from >= to) return 0;
    cl_event ev;
    cl_int e = clEnqueueFillBuffer(rt_cl.queue, dst->mem, pattern, (size_t)size, (size_t)from, (size_t)(to - from), 0,
                                   NULL, rt_cl_event(&ev));
    rt_cl_timed(e == CL_SUCCESS ? ev : NULL, false);
    return e != CL_SUCCESS ? rt_cl_fail(ctx, "clEnqueueFillBuffer", e) : 0;
}

/* Sets every element of an LMAD region to the esize-byte value bits. A
 * dense region of narrow elements is filled with the value repeated to
 * 16 bytes between the first and last 16-byte boundaries in it, and
 * element by element around them: a fill of one-byte elements was
 * suspected of running at a fraction of the memory's speed on NVIDIA
 * (not measured yet; bench/RESULTS.md, session 30). */
static int rt_cl_fill(rt_ctx *ctx, int esize, rt_dblock *dst, int64_t doff, const int64_t *ds, const int64_t *shape,
                      int rank, uint64_t bits) {
    int64_t n = rt_cl_count_of(shape, rank);
    if (n == 0) return 0;
    if (rt_cl_dense(shape, ds, rank)) {
        int64_t from = doff * esize, to = (doff + n) * esize;
        int64_t lo = (from + 15) / 16 * 16, hi = to / 16 * 16;
        if (esize >= 16 || lo >= hi) return rt_cl_fill_bytes(ctx, dst, &bits, esize, from, to);
        unsigned char wide[16];
        for (int i = 0; i < 16; i += esize) memcpy(wide + i, &bits, (size_t)esize);
        return rt_cl_fill_bytes(ctx, dst, &bits, esize, from, lo) || rt_cl_fill_bytes(ctx, dst, wide, 16, lo, hi) ||
               rt_cl_fill_bytes(ctx, dst, &bits, esize, hi, to);
    }
    if (rt_cl_rank_unsupported(ctx, "filling", rank)) return 1;
    int k = rt_cl_builtin("rt_fill", esize);
    int r = rank;
    if (rt_cl_mem_arg(ctx, k, 1, dst) || rt_cl_arg(ctx, k, 2, sizeof doff, &doff) || rt_cl_long8(ctx, k, 3, ds, rank) ||
        rt_cl_long8(ctx, k, 4, shape, rank) || rt_cl_arg(ctx, k, 5, sizeof r, &r) ||
        rt_cl_arg(ctx, k, 6, sizeof n, &n) || rt_cl_arg(ctx, k, 7, sizeof bits, &bits))
        return 1;
    int64_t g = rt_cl_group_size(-1);
    return rt_cl_launch(ctx, k, rt_cl_groups_for(n, g), g);
}

/* dst[off + i*stride] = start + i*step (wrapping in esize bytes), i < n. */
static int rt_cl_iota(rt_ctx *ctx, int esize, rt_dblock *dst, int64_t off, int64_t stride, int64_t n, int64_t start,
                      int64_t step) {
    if (n <= 0) return 0;
    int k = rt_cl_builtin("rt_iota", esize);
    if (rt_cl_mem_arg(ctx, k, 1, dst) || rt_cl_arg(ctx, k, 2, sizeof off, &off) ||
        rt_cl_arg(ctx, k, 3, sizeof stride, &stride) || rt_cl_arg(ctx, k, 4, sizeof n, &n) ||
        rt_cl_arg(ctx, k, 5, sizeof start, &start) || rt_cl_arg(ctx, k, 6, sizeof step, &step))
        return 1;
    int64_t g = rt_cl_group_size(-1);
    return rt_cl_launch(ctx, k, rt_cl_groups_for(n, g), g);
}

/* Reads a (rank-dimensional, LMAD) array into dense host memory dst. */
static int rt_cl_download(rt_ctx *ctx, rt_dpool *p, void *dst, int esize, rt_dblock *src, int64_t off,
                          const int64_t *strides, const int64_t *shape, int rank) {
    int64_t n = rt_cl_count_of(shape, rank);
    if (n == 0) return 0;
    if (rt_cl_dense(shape, strides, rank)) {
        cl_int e = clEnqueueReadBuffer(rt_cl.queue, src->mem, CL_TRUE, (size_t)(off * esize), (size_t)(n * esize), dst,
                                       0, NULL, NULL);
        return e != CL_SUCCESS ? rt_cl_fail(ctx, "clEnqueueReadBuffer", e) : 0;
    }
    if (rt_cl_rank_unsupported(ctx, "reading", rank)) return 1;
    rt_dblock *tmp = rt_dblock_new(ctx, p, n * esize);
    if (!tmp) return 1;
    int64_t dense[RT_CL_MAX_RANK + 1];
    int64_t s = 1;
    for (int d = rank - 1; d >= 0; d--) dense[d] = s, s *= shape[d];
    int r = rt_cl_copy(ctx, esize, tmp, 0, dense, src, off, strides, shape, rank) ||
            rt_cl_download(ctx, p, dst, esize, tmp, 0, dense, shape, rank);
    rt_dblock_release(tmp);
    return r;
}

/* ---- The end ------------------------------------------------------------------- */

static void rt_cl_report(FILE *f) {
    if (!rt_cl.ready) return;
    double total = 0;
    fprintf(f, "%-32s %10s %12s %12s\n", "kernel", "launches", "total ms", "mean us");
    for (int k = 0; k < rt_cl.prog->nkernels; k++) {
        if (!rt_cl.kernel_runs[k]) continue;
        total += rt_cl.kernel_ms[k];
        fprintf(f, "%-32s %10lld %12.3f %12.1f\n", rt_cl.prog->kernels[k], (long long)rt_cl.kernel_runs[k],
                rt_cl.kernel_ms[k], 1e3 * rt_cl.kernel_ms[k] / (double)rt_cl.kernel_runs[k]);
    }
    fprintf(f, "%-32s %10s %12.3f\n", "total", "", total);
    fprintf(f, "peak device memory: %lld bytes\n", (long long)rt_cl.mem_peak);
}

/* Releases the built program and its kernels (the next rt_cl_setup
 * builds it again). */
static void rt_cl_release_program(void) {
    for (int k = 0; rt_cl.kernels && k < rt_cl.prog->nkernels; k++)
        if (rt_cl.kernels[k]) clReleaseKernel(rt_cl.kernels[k]);
    if (rt_cl.fail) clReleaseMemObject(rt_cl.fail);
    if (rt_cl.program) clReleaseProgram(rt_cl.program);
    free(rt_cl.kernels);
    free(rt_cl.kernel_ms);
    free(rt_cl.kernel_runs);
    rt_cl.kernels = NULL;
    rt_cl.kernel_ms = NULL;
    rt_cl.kernel_runs = NULL;
    rt_cl.fail = NULL;
    rt_cl.program = NULL;
    rt_cl.ready = false;
}

/* Releases the device and everything made for it, also after a setup that
 * failed half-way; the options stay. */
static void rt_cl_release_all(void) {
    rt_cl_drop_free();
    free(rt_cl.free_list);
    rt_cl.free_list = NULL;
    rt_cl.cap_free = 0;
    rt_cl_drop_span();
    rt_cl_release_program();
    if (rt_cl.queue) clReleaseCommandQueue(rt_cl.queue);
    if (rt_cl.context) clReleaseContext(rt_cl.context);
    rt_cl.queue = NULL;
    rt_cl.context = NULL;
}

static void rt_cl_finish_all(void) {
    if (rt_cl.profile) rt_cl_report(stderr);
    rt_cl_release_all();
    free(rt_cl.param_values);
    rt_cl.param_values = NULL;
}

/* The server's set_tuning_param and tuning_param_class. A new variant
 * of a kernel releases the program built with the old one: the next call
 * builds it again. */
static bool rt_cl_backend_set_param(const char *name, int64_t value) {
    int i = rt_cl_param_index(name, strlen(name));
    if (i < 0 || !rt_cl.param_values) return false;
    const rt_cl_variant_info *v = rt_cl_variant_of(rt_cl.prog, i);
    int64_t was = v ? rt_cl_variant(i, v->dflt) : 0;
    rt_cl.param_values[i] = value;
    if (rt_cl.ready && v && rt_cl_variant(i, v->dflt) != was) {
        clFinish(rt_cl.queue);
        rt_cl_release_program();
    }
    return true;
}

static const char *rt_cl_backend_param_class(const char *name) {
    int i = rt_cl_param_index(name, strlen(name));
    return i < 0 ? NULL : rt_cl_param_class(rt_cl.prog, i);
}

static const char *rt_cl_backend_param_name(int i) {
    return rt_cl.prog && i >= 0 && i < rt_cl.prog->nparams ? rt_cl.prog->params[i] : NULL;
}

static const rt_backend rt_cl_backend = {rt_cl_help,       true, rt_cl_option, rt_cl_finish_all, NULL, NULL,
                                         rt_cl_backend_set_param, rt_cl_backend_param_class, rt_cl_backend_param_name};

/* What main does before rt_main: --list-devices, --print-params and
 * --dump-opencl act and exit here. Returns -1 to go on, else an exit status. */
static int rt_cl_early(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        int r = rt_cl_option(argc, argv, &i);
        if (r < 0) return 1;
    }
    if (rt_cl.list_devices) {
        rt_cl_list_devices(stdout);
        return 0;
    }
    if (rt_cl.print_params) {
        for (int i = 0; i < rt_cl.prog->nparams; i++) rt_cl_print_param(stdout, rt_cl.prog, i);
        return 0;
    }
    if (rt_cl.dump_file) {
        FILE *f = fopen(rt_cl.dump_file, "w");
        if (!f || fputs(rt_cl.prog->source, f) < 0 || fclose(f) != 0) {
            fprintf(stderr, "Error: cannot write %s\n", rt_cl.dump_file);
            return 1;
        }
        return 0;
    }
    return -1;
}

#endif
