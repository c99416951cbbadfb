/* The OpenCL additions to the Futhark C API, against the library that
 * `futhorc opencl --library` makes of tests/library/arrays.fut: choosing
 * the platform and device by name, "#k" or interactively, bad names and
 * bad programs reported by futhark_context_new, tuning parameters, group
 * sizes, build options, the program text (get, set, dump, load), the
 * program cache, a command queue of the application's own, raw cl_mem
 * arrays and profiling. Prints "ok NAME" or "FAIL NAME: why" per check;
 * tests/library/run.sh builds it with AddressSanitizer and counts the
 * lines. Exits 1 if any check failed. Usage: cl_test SCRATCH_DIR */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arrays.h"

/* Longest path, device name and captured output the test handles. */
#define PATH_MAX_LEN 1024
#define NAME_LEN 256
#define CAPTURE_LEN 65536

static int failures;
static const char *scratch;

static void check(int ok, const char *name, const char *why) {
    if (ok) printf("ok cl: %s\n", name);
    else printf("FAIL cl: %s: %s\n", name, why), failures++;
}

static const char *path_of(const char *file) {
    static char buf[PATH_MAX_LEN];
    snprintf(buf, sizeof buf, "%s/%s", scratch, file);
    return buf;
}

/* Whether the context made from cfg starts and computes sum [1..100];
 * writes its error (or "") to why. Frees cfg. */
static int works(struct futhark_context_config *cfg, char *why, size_t n) {
    struct futhark_context *ctx = futhark_context_new(cfg);
    char *err = futhark_context_get_error(ctx);
    int32_t data[100], s = 0;
    for (int i = 0; i < 100; i++) data[i] = i + 1;
    struct futhark_i32_1d *xs = err ? NULL : futhark_new_i32_1d(ctx, data, 100);
    int ok = xs && futhark_entry_sum(ctx, &s, xs) == 0 && s == 5050;
    if (!err && !ok) err = futhark_context_get_error(ctx);
    snprintf(why, n, "%s", err ? err : (ok ? "" : "wrong sum"));
    free(err);
    if (xs) futhark_free_i32_1d(ctx, xs);
    futhark_context_free(ctx);
    futhark_context_config_free(cfg);
    return ok;
}

/* Checks that the context made from cfg fails to start with a message
 * containing part, and that it refuses to run entry points. Frees cfg. */
static void fails(struct futhark_context_config *cfg, const char *name, const char *part) {
    struct futhark_context *ctx = futhark_context_new(cfg);
    char *err = futhark_context_get_error(ctx);
    char why[1024];
    snprintf(why, sizeof why, "error \"%s\" lacks \"%s\"", err ? err : "(none)", part);
    check(ctx && err && strstr(err, part), name, why);
    free(err);
    int32_t r = 0;
    check(futhark_entry_answer(ctx, &r) != 0 && r == 0, "a context that failed to start runs nothing", "rc 0");
    free(futhark_context_get_error(ctx));
    futhark_context_free(ctx);
    futhark_context_config_free(cfg);
}

/* The names of platform 0 and its device 0. */
static void first_device(char *platform, char *device) {
    cl_platform_id p;
    cl_device_id d;
    platform[0] = device[0] = 0;
    if (clGetPlatformIDs(1, &p, NULL) != CL_SUCCESS) return;
    clGetPlatformInfo(p, CL_PLATFORM_NAME, NAME_LEN, platform, NULL);
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL) == CL_SUCCESS)
        clGetDeviceInfo(d, CL_DEVICE_NAME, NAME_LEN, device, NULL);
}

static void test_selection(void) {
    char platform[NAME_LEN], device[NAME_LEN], part[NAME_LEN], why[1024];
    first_device(platform, device);
    check(strlen(device) > 4 && strlen(platform) > 4, "OpenCL lists a platform and a device", "none found");
    snprintf(part, sizeof part, "%.4s", device + 1); /* a piece from inside the name */
    struct futhark_context_config *cfg = futhark_context_config_new();
    futhark_context_config_set_device(cfg, part);
    check(works(cfg, why, sizeof why), "device chosen by a part of its name", why);
    cfg = futhark_context_config_new();
    futhark_context_config_set_device(cfg, "#0");
    snprintf(part, sizeof part, "%.4s", platform);
    futhark_context_config_set_platform(cfg, part);
    check(works(cfg, why, sizeof why), "device #0 on a platform chosen by name", why);

    cfg = futhark_context_config_new();
    futhark_context_config_set_device(cfg, "no-such-device");
    fails(cfg, "a bad device name is reported by futhark_context_new", "no-such-device");
    cfg = futhark_context_config_new();
    futhark_context_config_set_platform(cfg, "no-such-platform");
    fails(cfg, "a bad platform name is reported", "no-such-platform");
    cfg = futhark_context_config_new();
    futhark_context_config_set_device(cfg, "#9");
    fails(cfg, "a bad device number is reported", "#9");
}

/* Runs fn with standard output going to a file (and standard input from
 * the text in), and returns what it printed (caller frees). */
static char *captured(void (*fn)(struct futhark_context_config *), struct futhark_context_config *cfg,
                      const char *in) {
    char out_path[PATH_MAX_LEN], in_path[PATH_MAX_LEN];
    snprintf(out_path, sizeof out_path, "%s", path_of("stdout.txt"));
    snprintf(in_path, sizeof in_path, "%s", path_of("stdin.txt"));
    FILE *f = fopen(in_path, "w");
    if (f) fputs(in, f), fclose(f);
    fflush(stdout);
    int saved_out = dup(1), saved_in = dup(0);
    int o = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600), i = open(in_path, O_RDONLY);
    dup2(o, 1);
    dup2(i, 0);
    clearerr(stdin);
    fn(cfg);
    fflush(stdout);
    dup2(saved_out, 1);
    dup2(saved_in, 0);
    close(o), close(i), close(saved_out), close(saved_in);
    clearerr(stdin);
    char *text = calloc(1, CAPTURE_LEN);
    f = fopen(out_path, "r");
    if (f && text) fread(text, 1, CAPTURE_LEN - 1, f);
    if (f) fclose(f);
    return text;
}

static void test_listing(void) {
    char why[1024];
    struct futhark_context_config *cfg = futhark_context_config_new();
    char *out = captured(futhark_context_config_list_devices, cfg, "");
    check(out && strstr(out, "Platform #0: ") && strstr(out, "Device #0: "), "list_devices prints the devices",
          out ? out : "nothing");
    free(out);
    out = captured(futhark_context_config_select_device_interactively, cfg, "0\n");
    check(out && strstr(out, "[0] ") && strstr(out, "Choose"), "interactive selection lists and asks",
          out ? out : "nothing");
    free(out);
    check(works(cfg, why, sizeof why), "the device chosen interactively works", why);
    cfg = futhark_context_config_new();
    out = captured(futhark_context_config_select_device_interactively, cfg, "banana\n");
    check(out && strstr(out, "No such device"), "a bad interactive answer is refused", out ? out : "nothing");
    free(out);
    check(works(cfg, why, sizeof why), "and the default device is used", why);
}

static void test_tuning(void) {
    char why[1024];
    int n = futhark_get_tuning_param_count();
    const char *name = futhark_get_tuning_param_name(0), *cls = futhark_get_tuning_param_class(0);
    check(n > 0 && name && cls && !strcmp(cls, "group_size") && futhark_get_tuning_param_name(n) == NULL,
          "tuning parameters: names and classes", name ? name : "none");
    struct futhark_context_config *cfg = futhark_context_config_new();
    check(futhark_context_config_set_tuning_param(cfg, name, 16) == 0, "set a tuning parameter", "refused");
    check(futhark_context_config_set_tuning_param(cfg, "bogus.group_size", 16) != 0, "unknown parameter refused",
          "accepted");
    futhark_context_config_set_default_group_size(cfg, 1);
    futhark_context_config_set_default_num_groups(cfg, 2);
    futhark_context_config_set_default_tile_size(cfg, 8);
    futhark_context_config_add_build_option(cfg, "-cl-mad-enable");
    futhark_context_config_add_build_option(cfg, "-cl-no-signed-zeros");
    check(works(cfg, why, sizeof why), "group size 1, 2 groups and build options", why);
    cfg = futhark_context_config_new();
    futhark_context_config_add_build_option(cfg, "-no-such-option");
    fails(cfg, "a bad build option is reported", "OpenCL program");
}

static void test_program(void) {
    char why[1024], dump[PATH_MAX_LEN];
    snprintf(dump, sizeof dump, "%s", path_of("program.cl"));
    struct futhark_context_config *cfg = futhark_context_config_new();
    const char *src = futhark_context_config_get_program(cfg);
    check(src && strstr(src, "__kernel"), "get_program gives the OpenCL C", "no kernels");
    futhark_context_config_dump_program_to(cfg, dump);
    check(works(cfg, why, sizeof why), "a context that dumps its program", why);
    FILE *f = fopen(dump, "r");
    char head[CAPTURE_LEN] = "";
    if (f) head[fread(head, 1, sizeof head - 1, f)] = 0, fclose(f);
    check(strstr(head, "__kernel") != NULL, "the dumped program", "no kernels in the file");
    cfg = futhark_context_config_new();
    futhark_context_config_load_program_from(cfg, dump);
    check(works(cfg, why, sizeof why), "a program loaded from a file", why);
    cfg = futhark_context_config_new();
    futhark_context_config_load_program_from(cfg, path_of("none.cl"));
    fails(cfg, "a missing program file is reported", "none.cl");
    cfg = futhark_context_config_new();
    futhark_context_config_set_program(cfg, "__kernel void broken(");
    check(strcmp(futhark_context_config_get_program(cfg), "__kernel void broken(") == 0, "set_program",
          "get_program differs");
    fails(cfg, "a program that does not build is reported with its log", "build log");

    const char *cache = path_of("cache.bin");
    remove(cache);
    for (int run = 0; run < 2; run++) {
        cfg = futhark_context_config_new();
        futhark_context_config_set_cache_file(cfg, cache);
        check(works(cfg, why, sizeof why), run ? "a program from the cache file" : "a context writing the cache",
              why);
    }
    f = fopen(cache, "rb");
    check(f != NULL, "the cache file is written", "missing");
    if (f) fclose(f);
}

/* The application's own command queue, and cl_mem arrays of its own. */
static void test_queue(void) {
    cl_platform_id p;
    cl_device_id d;
    cl_int e = clGetPlatformIDs(1, &p, NULL);
    if (e == CL_SUCCESS) e = clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL);
    cl_context clctx = e == CL_SUCCESS ? clCreateContext(NULL, 1, &d, NULL, NULL, &e) : NULL;
    cl_command_queue q = e == CL_SUCCESS ? clCreateCommandQueue(clctx, d, 0, &e) : NULL;
    check(e == CL_SUCCESS, "an OpenCL queue of the application", "cannot make one");
    if (e != CL_SUCCESS) return;
    struct futhark_context_config *cfg = futhark_context_config_new();
    futhark_context_config_set_command_queue(cfg, q);
    futhark_context_config_set_device(cfg, "no-such-device"); /* ignored: the queue decides */
    struct futhark_context *ctx = futhark_context_new(cfg);
    char *err = futhark_context_get_error(ctx);
    check(!err && futhark_context_get_command_queue(ctx) == q, "the context uses the given queue",
          err ? err : "another queue");
    free(err);

    int64_t vals[4] = {1, 2, 3, 4}, got[4] = {0};
    cl_mem mine = clCreateBuffer(clctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof vals, vals, &e);
    struct futhark_i64_1d *a = futhark_new_raw_i64_1d(ctx, mine, 4), *r = NULL;
    int ok = a && futhark_entry_add(ctx, &r, a, a) == 0 && futhark_values_i64_1d(ctx, r, got) == 0;
    check(ok && got[0] == 2 && got[3] == 8, "a cl_mem of the application as an array", "wrong values");
    cl_mem theirs = r ? futhark_values_raw_i64_1d(ctx, r) : NULL;
    int64_t direct[4] = {0};
    ok = theirs && clEnqueueReadBuffer(q, theirs, CL_TRUE, 0, sizeof direct, direct, 0, NULL, NULL) == CL_SUCCESS;
    check(ok && direct[1] == 4, "values_raw gives a cl_mem the application can read", "wrong values");
    check(futhark_new_raw_i64_1d(ctx, mine, 5) == NULL, "a raw buffer smaller than the shape is refused",
          "accepted");
    err = futhark_context_get_error(ctx);
    check(err && strstr(err, "bytes"), "its message", err ? err : "(none)");
    free(err);
    futhark_free_i64_1d(ctx, a);
    futhark_free_i64_1d(ctx, r);
    check(futhark_context_sync(ctx) == 0 && futhark_context_clear_caches(ctx) == 0, "sync and clear_caches",
          "non-zero");
    futhark_context_free(ctx);
    futhark_context_config_free(cfg);
    int64_t after[4] = {0};
    ok = clEnqueueReadBuffer(q, mine, CL_TRUE, 0, sizeof after, after, 0, NULL, NULL) == CL_SUCCESS;
    check(ok && after[2] == 3, "the application's buffer and queue outlive the context", "unusable");
    clReleaseMemObject(mine);
    clReleaseCommandQueue(q);
    clReleaseContext(clctx);
}

/* Arrays stay in their device buffers: an entry's result that is its
 * argument is that argument's buffer, and a result fed to the next entry
 * is read there. */
static void test_residency(void) {
    struct futhark_context_config *cfg = futhark_context_config_new();
    struct futhark_context *ctx = futhark_context_new(cfg);
    int32_t data[3] = {4, 5, 6}, s = 0;
    struct futhark_i32_1d *xs = futhark_new_i32_1d(ctx, data, 3), *ys = NULL, *zs = NULL;
    int ok = futhark_entry_same(ctx, &ys, xs) == 0 && futhark_entry_same(ctx, &zs, ys) == 0;
    cl_mem a = futhark_values_raw_i32_1d(ctx, xs), c = zs ? futhark_values_raw_i32_1d(ctx, zs) : NULL;
    check(ok && a && a == c, "a result passed on stays in the argument's device buffer", "another buffer");
    futhark_free_i32_1d(ctx, xs);
    futhark_free_i32_1d(ctx, ys);
    check(futhark_entry_sum(ctx, &s, zs) == 0 && s == 15, "and outlives the arrays it came from", "sum != 15");
    futhark_free_i32_1d(ctx, zs);
    futhark_context_free(ctx);
    futhark_context_config_free(cfg);
}

static void test_profiling(void) {
    struct futhark_context_config *cfg = futhark_context_config_new();
    futhark_context_config_set_profiling(cfg, 1);
    struct futhark_context *ctx = futhark_context_new(cfg);
    int32_t data[3] = {1, 2, 3}, s = 0;
    struct futhark_i32_1d *xs = futhark_new_i32_1d(ctx, data, 3);
    check(futhark_entry_sum(ctx, &s, xs) == 0 && s == 6, "a profiled context", "wrong sum");
    char *rep = futhark_context_report(ctx);
    check(rep && strstr(rep, "\"sum\"") && strstr(rep, "\"memory\""), "its report", rep ? rep : "NULL");
    /* the peak of device memory in use covers the input's 12 bytes */
    const char *peak = rep ? strstr(rep, "\"space 'device'\":") : NULL;
    check(peak && atoll(peak + strlen("\"space 'device'\":")) >= 12, "its peak device memory", rep ? rep : "NULL");
    free(rep);
    futhark_free_i32_1d(ctx, xs);
    futhark_context_free(ctx);
    futhark_context_config_free(cfg);
}

int main(int argc, char **argv) {
    scratch = argc > 1 ? argv[1] : ".";
    test_selection();
    test_listing();
    test_tuning();
    test_program();
    test_queue();
    test_residency();
    test_profiling();
    return failures ? 1 : 0;
}
