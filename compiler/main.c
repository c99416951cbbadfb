/* The futhorc command-line driver: subcommands, loading of source files and
 * imports, the phase calls and exit codes. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend/backend.h"
#include "check/check.h"
#include "imp/imp.h"
#include "lower/internalise.h"
#include "passes/pipeline.h"
#include "syntax/ast.h"
#include "tools/autotune.h"
#include "tools/bench.h"
#include "tools/dataset.h"
#include "tools/doc.h"
#include "tools/frontend.h"
#include "tools/literate.h"
#include "tools/pkg.h"
#include "tools/repl.h"
#include "tools/script.h"
#include "tools/structure.h"
#include "tools/test.h"
#include "util/embedded.h"

#define FUTHORC_VERSION "0.1.0"

typedef struct Options {
    const char *output;
    const char *dump_stage;
    VEC(const char *) skip_passes; /* --skip-pass */
    const char *rt_object; /* --runtime-object */
    const char *target_cpu; /* --target-cpu (multicore) */
    bool asan;              /* --sanitize=address (multicore) */
    VEC(const char *) entries; /* --entry-point */
    const char *src_text;   /* the source's text, when not read from the file */
    int run_argc;           /* futhorc run: the program's command line */
    char **run_argv;
    bool unsafe, verify, time_passes, library, server;
} Options;

static void options_free(Options *o) {
    vec_free(&o->entries);
    vec_free(&o->skip_passes);
}

static void usage(FILE *f) {
    fprintf(f,
            "usage: futhorc COMMAND [options] FILE...\n\n"
            "commands:\n"
            "  c PROG.fut [-o EXE]        compile to a sequential C executable\n"
            "  opencl PROG.fut [-o EXE]   compile to an executable that runs on an OpenCL device\n"
            "  multicore PROG.fut [-o EXE]  compile through LLVM to an executable for the CPU\n"
            "  run PROG.fut [-e NAME] ...   compile through LLVM and run in memory (ORC JIT) on\n"
            "                             stdin's values; options after PROG.fut are the program's\n"
            "  check PROG.fut             parse and type-check only\n"
            "  dump --stage=NAME PROG.fut print the program after a stage (ast, NAME of a pass, imp,\n"
            "                             c, opencl, llvm)\n"
            "  test [options] FILES|DIRS  run the test blocks of programs\n"
            "  bench [options] FILES|DIRS  time the datasets of test blocks; --json, --plot, --compare OLD NEW\n"
            "  autotune [options] PROG.fut set the thresholds of multi-versioned code from the datasets\n"
            "                             of its test blocks (opencl); writes PROG.fut.tuning\n"
            "  dataset [options]          random values in Futhark's data format (-g TYPE, -b, -s N)\n"
            "  structure [--stage soacs|gpu|mem] PROG.fut  count IR constructs after a stage\n"
            "  script PROG [EXPR]         evaluate FutharkScript with PROG's entry points\n"
            "  literate PROG.fut          PROG.md: the program with its directives' results\n"
            "  repl [PROG.fut]            evaluate expressions interactively (LLVM's JIT)\n"
            "  eval [-f PROG.fut] EXPR... evaluate expressions and print their values\n"
            "  doc DIR -o OUTDIR          HTML documentation from the doc comments of DIR's files\n"
            "  pkg add|check|init|fmt|remove|sync|upgrade|versions  manage the packages of\n"
            "                             futhark.pkg in lib/ (git repositories)\n"
            "  passes                     list the passes of the pipeline\n\n"
            "options for c, opencl, multicore, check and dump:\n"
            "  -o FILE        output executable (default: PROG without .fut)\n"
            "  --library      write FILE.h, FILE.c and FILE.json: a library with the\n"
            "                 Futhark C API (see futhorc-c-api(3)) instead of an executable\n"
            "                 (multicore: and FILE.o, the program's code, to link with FILE.c)\n"
            "  --server       the executable speaks Futhark's server protocol\n"
            "  --runtime-object=FILE  link the runtime from the object FILE (compiled\n"
            "                 into FILE first if it does not exist) instead of compiling it in\n"
            "  --target-cpu=NAME  multicore: generate code for LLVM's CPU NAME (default: this\n"
            "                 machine's, with all its features)\n"
            "  --sanitize=address  multicore: instrument the program for AddressSanitizer\n"
            "  --entry-point=NAME  make the top-level definition NAME an entry point too\n"
            "  --unsafe       omit bounds, division-by-zero and size checks\n"
            "  --verify       check the IR after every pass, and Imp after its lowering\n"
            "  --time-passes  print the time each phase takes\n"
            "  --skip-pass=NAME  do not run optimisation pass NAME (simplify, fuse,\n"
            "                 carry, flatten, distribute, migrate or shortcircuit;\n"
            "                 repeatable), to measure what it gains\n"
            "  -h, --help     show this help\n"
            "  --version      show the version\n\n"
            "Environment: CC (default cc) and CFLAGS (default -O3) for the C compiler.\n"
            "See futhorc(1).\n");
}

/* ---- Compilation ------------------------------------------------------------- */

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void time_phase(const Options *o, const char *name, double *t0) {
    double t = now_ms();
    if (o->time_passes) fprintf(stderr, "%-12s %8.2f ms\n", name, t - *t0);
    *t0 = t;
}

static bool write_file(const char *path, const char *data, size_t len) {
    if (util_write_file(path, data, len)) return true;
    fprintf(stderr, "futhorc: cannot write '%s': %s\n", path, strerror(errno));
    return false;
}

/* Writes BASE.h, BASE.c and BASE.json: the program as a library with the
 * Futhark C API for target (multicore: whose BASE.o compile_llvm writes). */
static bool write_library(Arena *a, const Prog *p, const ImpProg *ip, const char *base, LibTarget target) {
    Buf h = {0}, c = {0}, m = {0};
    const char *slash = strrchr(base, '/');
    emit_library(&h, &c, &m, p, ip, slash ? slash + 1 : base, FUTHORC_VERSION, target);
    bool ok = write_file(arena_printf(a, "%s.h", base), h.data, h.len) &&
              write_file(arena_printf(a, "%s.c", base), c.data, c.len) &&
              write_file(arena_printf(a, "%s.json", base), m.data, m.len);
    buf_free(&h);
    buf_free(&c);
    buf_free(&m);
    return ok;
}

/* The C compiler and its options, from $CC and $CFLAGS. */
static void cc_command(Buf *cmd) {
    const char *cc = getenv("CC");
    const char *cflags = getenv("CFLAGS");
    buf_printf(cmd, "%s %s -std=c11", cc && *cc ? cc : "cc", cflags && *cflags ? cflags : "-O3");
}

/* Runs a command made by cc_command; false after a message naming file. */
static bool run_cc_command(Buf *cmd, const char *file) {
    int st = system(cmd->data);
    buf_free(cmd);
    if (st != 0) fprintf(stderr, "futhorc: the C compiler failed on '%s'\n", file);
    return st == 0;
}

/* Compiles the runtime object obj (emit_c_runtime) unless it exists. The
 * object is written under a name of this process and renamed, so that
 * compilations running at once can share obj. */
static bool ensure_rt_object(Arena *a, const char *obj) {
    if (access(obj, R_OK) == 0) return true;
    const char *tmp = arena_printf(a, "%s.%ld", obj, (long)getpid());
    const char *src = arena_printf(a, "%s.c", tmp);
    Buf c = {0}, cmd = {0};
    emit_c_runtime(&c);
    bool ok = write_file(src, c.data, c.len);
    buf_free(&c);
    if (ok) {
        cc_command(&cmd);
        buf_printf(&cmd, " -c -o '%s' '%s'", tmp, src);
        ok = run_cc_command(&cmd, src) && rename(tmp, obj) == 0;
    }
    remove(src);
    remove(tmp);
    return ok;
}

/* Runs $CC on the generated C file (linking OpenCL when opencl, and the
 * runtime object rt_obj unless NULL); returns true on success. */
static bool run_cc(Arena *a, const char *cfile, const char *exe, bool opencl, const char *rt_obj) {
    if (rt_obj && !ensure_rt_object(a, rt_obj)) return false;
    Buf cmd = {0};
    cc_command(&cmd);
    buf_printf(&cmd, " -o '%s' '%s' ", exe, cfile);
    if (rt_obj) buf_printf(&cmd, "'%s' ", rt_obj);
    buf_printf(&cmd, "%s-lm", opencl ? "-lOpenCL " : "");
    return run_cc_command(&cmd, cfile);
}

static char *default_output(Arena *a, const char *src) {
    size_t n = strlen(src);
    if (n > 4 && strcmp(src + n - 4, ".fut") == 0) return arena_strndup(a, src, n - 4);
    return arena_printf(a, "%s.out", src);
}

#ifdef FUTHORC_NO_LLVM
/* This futhorc leaves the LLVM backend to futhorc-llvm (main below). */
static bool compile_llvm(Arena *a, const Prog *p, const ImpProg *ip, const char *src, const Options *o, double *t0) {
    (void)a, (void)p, (void)ip, (void)src, (void)o, (void)t0;
    ICE("the LLVM backend runs in futhorc-llvm");
}
#else
/* Links the LLVM backend's object obj with the runtime object (embedded,
 * written beside exe for the link) into exe; the C compiler only links. */
static bool link_llvm(Arena *a, const char *obj, const char *exe, bool asan) {
    size_t n = 0;
    const char *rt = embedded_get_size("runtime/llvm/rt.o", &n);
    if (!rt) ICE("the compiler lacks the runtime object");
    const char *rt_obj = arena_printf(a, "%s.rt.o", exe);
    if (!write_file(rt_obj, rt, n)) return false;
    const char *cc = getenv("CC");
    Buf cmd = {0};
    buf_printf(&cmd, "%s%s -o '%s' '%s' '%s' -lm", cc && *cc ? cc : "cc", asan ? " -fsanitize=address" : "", exe, obj,
               rt_obj);
    bool ok = run_cc_command(&cmd, obj);
    remove(rt_obj);
    return ok;
}

/* The LLVM backend's part of compile: an executable from ip, or its
 * module's LLVM IR on stdout under dump --stage=llvm, or (futhorc run)
 * the program run in this process with o->run_argc and o->run_argv. */
static bool compile_llvm(Arena *a, const Prog *p, const ImpProg *ip, const char *src, const Options *o, double *t0) {
    LlvmOptions lo = {.server = o->server, .verify = o->verify, .cpu = o->target_cpu, .asan = o->asan};
    if (o->run_argv) return run_llvm(ip, &lo, o->run_argc, o->run_argv) == 0;
    if (o->library && !o->dump_stage) { /* BASE.h, BASE.c, BASE.json and BASE.o */
        const char *base = o->output ? o->output : default_output(a, src);
        lo.library = true;
        bool ok = write_library(a, p, ip, base, LIB_MULTICORE) && emit_llvm(ip, &lo, arena_printf(a, "%s.o", base), NULL);
        time_phase(o, "emit", t0);
        return ok;
    }
    if (o->dump_stage) {
        Buf b = {0};
        bool ok = emit_llvm(ip, &lo, NULL, &b);
        if (ok) fputs(b.data, stdout);
        buf_free(&b);
        return ok;
    }
    const char *exe = o->output ? o->output : default_output(a, src);
    const char *obj = arena_printf(a, "%s.o", exe);
    bool ok = emit_llvm(ip, &lo, obj, NULL);
    time_phase(o, "llvm", t0);
    ok = ok && link_llvm(a, obj, exe, o->asan);
    remove(obj);
    time_phase(o, "link", t0);
    return ok;
}

#endif

/* Lowers p (at STAGE_MEM or STAGE_GPU) to Imp; under --verify, checks the
 * result and reports a violation as an internal compiler error. */
static ImpProg *lower_imp(const Prog *p, const Options *o, bool parallel) {
    ImpProg *ip = imp_lower(p, parallel);
    if (o->verify) {
        Buf err = {0};
        if (!imp_check(ip, &err)) ICE("%s", err.data);
        buf_free(&err);
    }
    return ip;
}

/* The whole pipeline for one program; mode is "c", "opencl", "multicore",
 * "check" or "dump". */
static int compile(const char *mode, const char *src, const Options *o) {
    Arena a = {0};
    double t0 = now_ms();
    int rc = 1;
    ProgramVec files = frontend_load_text(&a, src, o->src_text, o->src_text ? strlen(o->src_text) : 0,
                                          o->entries.items, o->entries.len);
    time_phase(o, "frontend", &t0);
    if (files.len == 0) goto done;
    if (!strcmp(mode, "check")) {
        rc = 0;
        goto done;
    }
    if (o->dump_stage && !strcmp(o->dump_stage, "ast")) {
        Buf b = {0};
        ast_print_program(&b, files.items[files.len - 1]);
        fputs(b.data ? b.data : "", stdout);
        buf_free(&b);
        rc = 0;
        goto done;
    }
    InternaliseOpts iopts = {.unsafe = o->unsafe};
    Prog *p = internalise(&a, files.items, files.len, &iopts);
    time_phase(o, "internalise", &t0);
    if (!p) goto done;
    bool gpu = !strcmp(mode, "opencl") ||
               (o->dump_stage && (!strcmp(o->dump_stage, "kernels") || !strcmp(o->dump_stage, "opencl") ||
                                pipeline_gpu_only(o->dump_stage)));
    bool llvm = !strcmp(mode, "multicore") || !strcmp(mode, "run") || (o->dump_stage && !strcmp(o->dump_stage, "llvm"));
    if (!llvm && (o->target_cpu || o->asan)) {
        fprintf(stderr, "futhorc: --target-cpu and --sanitize=address are options of multicore (and run)\n");
        goto done;
    }
    bool code = o->dump_stage && (!strcmp(o->dump_stage, "c") || !strcmp(o->dump_stage, "opencl") ||
                                  !strcmp(o->dump_stage, "imp") || !strcmp(o->dump_stage, "llvm"));
    const char *dump = o->dump_stage && !code ? o->dump_stage : NULL;
    PipelineOpts popts = {.verify = o->verify, .dump_after = dump, .last_stage = gpu ? STAGE_GPU : STAGE_MEM,
                          .skip = o->skip_passes.items, .nskip = o->skip_passes.len};
    if (!pipeline_run(p, &popts)) {
        rc = 0;
        goto done;
    }
    time_phase(o, "passes", &t0);
    ImpProg *ip = lower_imp(p, o, llvm);
    time_phase(o, "imp", &t0);
    if (o->dump_stage && !strcmp(o->dump_stage, "imp")) {
        Buf b = {0};
        imp_print(&b, ip);
        fputs(b.data, stdout);
        buf_free(&b);
        rc = 0;
        goto done;
    }
    if (llvm) {
        if (compile_llvm(&a, p, ip, src, o, &t0)) rc = 0;
        goto done;
    }
    if (o->library && !o->dump_stage) {
        if (write_library(&a, p, ip, o->output ? o->output : default_output(&a, src), gpu ? LIB_OPENCL : LIB_C)) rc = 0;
        time_phase(o, "emit", &t0);
        goto done;
    }
    Buf c = {0};
    bool linked_rt = o->rt_object && !o->dump_stage;
    if (gpu) emit_opencl_program(&c, ip, o->server, linked_rt);
    else emit_c_program(&c, ip, o->server, linked_rt);
    time_phase(o, "emit", &t0);
    if (o->dump_stage) {
        fputs(c.data, stdout);
        rc = 0;
    } else {
        const char *exe = o->output ? o->output : default_output(&a, src);
        const char *cfile = arena_printf(&a, "%s.c", exe);
        if (write_file(cfile, c.data, c.len) && run_cc(&a, cfile, exe, gpu, o->rt_object)) rc = 0;
        time_phase(o, "cc", &t0);
    }
    buf_free(&c);
done:
    vec_free(&files);
    arena_free(&a);
    if (rc && diag_error_count() > DIAG_MAX_ERRORS)
        fprintf(stderr, "futhorc: %d errors in total; only the first %d were shown\n", diag_error_count(),
                (int)DIAG_MAX_ERRORS);
    return rc;
}

/* Parses the options of c/check/dump; returns the source file or NULL. */
static const char *parse_options(int argc, char **argv, Options *o) {
    const char *src = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-o") && i + 1 < argc) o->output = argv[++i];
        else if (!strcmp(a, "--unsafe")) o->unsafe = true;
        else if (!strcmp(a, "--library")) o->library = true;
        else if (!strcmp(a, "--server")) o->server = true;
        else if (!strcmp(a, "--verify")) o->verify = true;
        else if (!strcmp(a, "--time-passes")) o->time_passes = true;
        else if (!strncmp(a, "--stage=", 8)) o->dump_stage = a + 8;
        else if (!strncmp(a, "--runtime-object=", 17)) o->rt_object = a + 17;
        else if (!strncmp(a, "--target-cpu=", 13)) o->target_cpu = a + 13;
        else if (!strncmp(a, "--entry-point=", 14)) vec_push(&o->entries, a + 14);
        else if (!strcmp(a, "--entry-point") && i + 1 < argc) vec_push(&o->entries, argv[++i]);
        else if (!strcmp(a, "--sanitize=address")) o->asan = true;
        else if (!strncmp(a, "--skip-pass=", 12)) {
            if (!pipeline_skippable(a + 12)) {
                fprintf(stderr, "futhorc: --skip-pass: '%s' is not an optimisation pass (see futhorc passes)\n",
                        a + 12);
                return NULL;
            }
            vec_push(&o->skip_passes, a + 12);
        }
        else if (!strcmp(a, "--stage") && i + 1 < argc) o->dump_stage = argv[++i];
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "futhorc: unknown option '%s' (see futhorc --help)\n", a);
            return NULL;
        } else if (src) {
            fprintf(stderr, "futhorc: more than one source file given ('%s' and '%s')\n", src, a);
            return NULL;
        } else {
            src = a;
        }
    }
    if (!src) fprintf(stderr, "futhorc: no source file given (see futhorc --help)\n");
    return src;
}

/* futhorc run [options] PROG.fut [program options]: the compiler's
 * options, the source, then the options of the program (-e NAME, -b, ...),
 * which it takes as an executable would. */
static int run_command(int argc, char **argv) {
    int src = 1;
    while (src < argc && argv[src][0] == '-') src++;
    if (src == argc) {
        fprintf(stderr, "futhorc run: no source file given (see futhorc --help)\n");
        return 1;
    }
    Options o = {0};
    bool bad = !parse_options(src + 1, argv, &o);
    if (!bad && (o.library || o.server || o.dump_stage || o.output)) {
        fprintf(stderr, "futhorc run: --library, --server, --stage and -o do not apply\n");
        bad = true;
    }
    if (bad) {
        options_free(&o);
        return 1;
    }
    /* The program sees "PROG" and its options, as an executable. */
    o.run_argc = argc - src;
    o.run_argv = argv + src;
    int rc = compile("run", argv[src], &o);
    options_free(&o);
    return rc;
}

/* futhorc repl's and eval's ReplRun: the program text through the JIT, its
 * entry point's results in the binary format in the file out, stdin on
 * /dev/null. */
static int run_text(const char *path, const char *text, const char *entry, const char *out) {
    char *args[] = {"futhorc", "-e", (char *)entry, "-b", NULL};
    Options o = {0};
    o.run_argc = 4, o.run_argv = args, o.src_text = text;
    fflush(stdout);
    int saved_out = dup(1), saved_in = dup(0);
    int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600), fi = open("/dev/null", O_RDONLY);
    if (saved_out < 0 || saved_in < 0 || fo < 0 || fi < 0) {
        fprintf(stderr, "futhorc: cannot redirect the program's output to %s\n", out);
        return 1;
    }
    dup2(fo, 1), dup2(fi, 0), close(fo), close(fi);
    int rc = compile("run", path, &o);
    fflush(stdout);
    dup2(saved_out, 1), dup2(saved_in, 0), close(saved_out), close(saved_in);
    return rc;
}

/* The path of this executable, so subcommands can run it again. */
static const char *self_path(const char *argv0) {
    static char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n > 0) {
        buf[n] = 0;
        return buf;
    }
    return argv0;
}

#ifdef FUTHORC_NO_LLVM
/* futhorc is built twice: without LLVM (FUTHORC_NO_LLVM), whose loading
 * costs every run about 10 ms (the library's static initialisers), and
 * as futhorc-llvm, with it. This futhorc hands the commands of the LLVM
 * backend (multicore, run, dump --stage=llvm) to futhorc-llvm beside it:
 * whether argv asks for one of those. */
static bool wants_llvm(int argc, char **argv) {
    if (!strcmp(argv[1], "multicore") || !strcmp(argv[1], "run") || !strcmp(argv[1], "repl") ||
        !strcmp(argv[1], "eval"))
        return true;
    for (int i = 2; i < argc && !strcmp(argv[1], "dump"); i++)
        if (!strcmp(argv[i], "--stage=llvm") || (!strcmp(argv[i], "--stage") && i + 1 < argc && !strcmp(argv[i + 1], "llvm")))
            return true;
    return false;
}

/* Runs futhorc-llvm with argv; returns only when it cannot. */
static int exec_llvm(char **argv) {
    const char *self = self_path(argv[0]);
    const char *slash = strrchr(self, '/');
    static char path[4200];
    snprintf(path, sizeof path, "%.*sfuthorc-llvm", slash ? (int)(slash - self + 1) : 0, self);
    execv(path, argv);
    fprintf(stderr, "futhorc: cannot run the LLVM backend %s: %s\n", path, strerror(errno));
    return 1;
}
#endif

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return 1;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("futhorc %s\n", FUTHORC_VERSION);
        return 0;
    }
#ifdef FUTHORC_NO_LLVM
    if (wants_llvm(argc, argv)) return exec_llvm(argv);
#endif
    if (!strcmp(cmd, "test")) return tool_test(argc - 1, argv + 1, self_path(argv[0]));
    if (!strcmp(cmd, "bench")) return tool_bench(argc - 1, argv + 1, self_path(argv[0]));
    if (!strcmp(cmd, "autotune")) return tool_autotune(argc - 1, argv + 1, self_path(argv[0]));
    if (!strcmp(cmd, "dataset")) return tool_dataset(argc - 1, argv + 1);
    if (!strcmp(cmd, "pkg")) return tool_pkg(argc - 1, argv + 1);
    if (!strcmp(cmd, "doc")) return tool_doc(argc - 1, argv + 1);
    if (!strcmp(cmd, "script")) return tool_script(argc - 1, argv + 1, self_path(argv[0]));
    if (!strcmp(cmd, "literate")) return tool_literate(argc - 1, argv + 1, self_path(argv[0]));
    if (!strcmp(cmd, "structure")) return tool_structure(argc - 1, argv + 1);
    if (!strcmp(cmd, "passes")) {
        pipeline_list(stdout);
        return 0;
    }
    if (!strcmp(cmd, "run")) return run_command(argc - 1, argv + 1);
    if (!strcmp(cmd, "repl") || !strcmp(cmd, "eval")) return tool_repl(argc - 1, argv + 1, run_text);
    if (!strcmp(cmd, "c") || !strcmp(cmd, "opencl") || !strcmp(cmd, "multicore") || !strcmp(cmd, "check") ||
        !strcmp(cmd, "dump")) {
        Options o = {0};
        const char *src = parse_options(argc - 1, argv + 1, &o);
        if (!src || (!strcmp(cmd, "dump") && !o.dump_stage)) {
            if (src) fprintf(stderr, "futhorc: dump needs --stage=NAME (ast, internalise, memory, imp, c or llvm)\n");
            options_free(&o);
            return 1;
        }
        int rc = compile(strcmp(cmd, "dump") ? cmd : "dump", src, &o);
        options_free(&o);
        return rc;
    }
    fprintf(stderr, "futhorc: unknown command '%s' (see futhorc --help)\n", cmd);
    return 1;
}
