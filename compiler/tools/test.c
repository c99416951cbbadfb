/* `futhorc test`: finds .fut programs, parses their `-- ==` test blocks
 * (survey §2.1), compiles each program once, runs each case's entry point
 * with the case's input on stdin and checks the output (rt_values_match) or
 * the expected error. Child processes run in parallel (-j), each with its
 * stdin, stdout and stderr in files of a temporary directory and with a time
 * limit. Results are printed in file order, then "N passed, N failed". */
#include "test.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../util/util.h"
#include "rt.h"

/* Time limit of one run of a test program: generous for the small data sets
 * of tests, while a hang still fails within a minute. */
enum { TEST_RUN_TIMEOUT_S = 60 };
/* Time limit of one compilation: large programs through the whole optimiser
 * take seconds; minutes mean the compiler hangs. */
enum { TEST_COMPILE_TIMEOUT_S = 300 };
/* Parallel processes by default: the machines this runs on have few cores. */
enum { TEST_DEFAULT_JOBS = 2 };
/* Most processes at once: sizes the slot table; more is never useful. */
enum { TEST_MAX_JOBS = 64 };
/* Pause between checks on running children, in ms: adds no noticeable
 * latency and costs no noticeable CPU. */
enum { TEST_POLL_MS = 10 };
/* Characters of a case's input in its default name (Futhark's rule). */
enum { TEST_NAME_CHARS = 50 };
/* Most bytes of a child's stderr quoted in a failure: enough for any real
 * message, while a runaway program cannot flood the report. */
enum { TEST_MAX_QUOTE = 4000 };
/* Size of a value comparison message. */
enum { TEST_MSG_LEN = 1024 };
/* Deepest directory searched: deeper trees are symbolic link loops. */
enum { TEST_MAX_DEPTH = 32 };

typedef enum { IN_VALUES, IN_FILE } InKind;
typedef enum { OUT_NONE, OUT_VALUES, OUT_FILE, OUT_ERROR } OutKind;

typedef struct TestProg TestProg;

/* One case of a test block, run on one entry point. */
typedef struct TestRun {
    TestProg *prog;
    const char *entry, *name;
    InKind in_kind;
    const char *input; /* values text, or a resolved path */
    OutKind out_kind;
    const char *output; /* values text, resolved path or regex */
    Buf report;         /* its result lines, printed in case order */
} TestRun;

/* A program, what its test blocks ask for, and its results. */
struct TestProg {
    const char *path, *dir, *exe;
    const char *error;         /* malformed test block */
    const char *compile_regex; /* set for a compile-error test */
    bool has_block, skip_whole;
    int nskipped, nunsupported;
    VEC(TestRun *) runs;
    Buf report; /* failures (and passes with -v), printed in file order */
    int npassed, nfailed;
    int pending; /* tasks not finished */
};

/* A child process to run: compiling a program (run == NULL) or one run. */
typedef struct Task {
    TestProg *prog;
    TestRun *run;
    pid_t pid;
    double start;
    int limit_s;
    bool timed_out;
    const char *out, *err;
    const char *in_tmp; /* temporary stdin file, removed when done */
} Task;

typedef VEC(Task) TaskQueue;
typedef VEC(const char *) Strings;

typedef struct Tester {
    Arena arena;
    const char *futhorc, *backend, *tmpdir;
    Strings copts;
    int jobs, timeout_s, serial;
    bool verbose;
    VEC(TestProg *) progs;
    TaskQueue compiles, runs; /* waiting tasks; runs go first */
    int compiles_head, runs_head, next_report;
    Task slots[TEST_MAX_JOBS];
    int running;
} Tester;

/* ---- Reporting ------------------------------------------------------------ */

/* Appends text indented by four spaces, cut at TEST_MAX_QUOTE bytes. */
static void test_quote(Buf *b, const char *text) {
    size_t n = text ? strlen(text) : 0;
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == ' ')) n--;
    if (n == 0) {
        buf_puts(b, "    (no output)\n");
        return;
    }
    bool cut = n > TEST_MAX_QUOTE;
    if (cut) n = TEST_MAX_QUOTE;
    buf_puts(b, "    ");
    for (size_t i = 0; i < n; i++) {
        buf_putc(b, text[i]);
        if (text[i] == '\n') buf_puts(b, "    ");
    }
    buf_puts(b, cut ? "\n    ...\n" : "\n");
}

/* Appends "WHAT path[, entry E, NAME]: " for a result line to the run's
 * report (or the program's); returns that report. */
static Buf *test_header(TestProg *p, TestRun *r, const char *what) {
    Buf *b = r ? &r->report : &p->report;
    buf_printf(b, "%s %s", what, p->path);
    if (r) buf_printf(b, ", entry %s, %s", r->entry, r->name);
    buf_puts(b, ": ");
    return b;
}

static void test_fail(TestProg *p, TestRun *r, const char *why, const char *quote) {
    Buf *b = test_header(p, r, "FAIL");
    buf_printf(b, "%s\n", why);
    if (quote) test_quote(b, quote);
    p->nfailed++;
}

static void test_pass(Tester *t, TestProg *p, TestRun *r) {
    if (t->verbose) buf_puts(test_header(p, r, "PASS"), r ? "ok\n" : "compiled as expected\n");
    p->npassed++;
}

/* Prints the reports of finished programs, in file order. */
static void test_flush_reports(Tester *t) {
    while (t->next_report < t->progs.len && t->progs.items[t->next_report]->pending == 0) {
        TestProg *p = t->progs.items[t->next_report++];
        if (p->report.len) fputs(p->report.data, stdout);
        buf_free(&p->report);
        for (int i = 0; i < p->runs.len; i++) {
            if (p->runs.items[i]->report.len) fputs(p->runs.items[i]->report.data, stdout);
            buf_free(&p->runs.items[i]->report);
        }
    }
    fflush(stdout);
}

/* Describes a wait status ("exit status 1", "killed by signal 11"). */
static const char *test_status_str(Tester *t, int status) {
    if (WIFEXITED(status)) return arena_printf(&t->arena, "exit status %d", WEXITSTATUS(status));
    if (WIFSIGNALED(status)) return arena_printf(&t->arena, "killed by signal %d", WTERMSIG(status));
    return "stopped";
}

/* True if text matches the POSIX extended regex re; sets *bad when re
 * does not compile. */
static bool test_regex_match(const char *re, const char *text, bool *bad) {
    regex_t rx;
    *bad = regcomp(&rx, re, REG_EXTENDED | REG_NOSUB | REG_NEWLINE) != 0;
    if (*bad) return false;
    bool m = regexec(&rx, text ? text : "", 0, NULL, 0) == 0;
    regfree(&rx);
    return m;
}

/* ---- Parsing test blocks -------------------------------------------------- */

/* A cursor over the text of one test block (comment markers removed). */
typedef struct Spec {
    Tester *t;
    TestProg *prog;
    const char *s;
    size_t pos;
    int line; /* of the "==" line, for messages */
    bool first;
    int ncases;
    VEC(const char *) entries;
} Spec;

static void spec_error(Spec *sp, const char *msg) {
    if (!sp->prog->error)
        sp->prog->error = arena_printf(&sp->t->arena, "test block at line %d: %s", sp->line, msg);
}

static void spec_skip_ws(Spec *sp) {
    while (sp->s[sp->pos] == ' ' || sp->s[sp->pos] == '\t' || sp->s[sp->pos] == '\n' ||
           sp->s[sp->pos] == '\r')
        sp->pos++;
}

static bool spec_word_char(char c) {
    return c && !strchr(" \t\r\n{}\"@", c);
}

/* The next word, or NULL (not advancing) at the end or at { } " @. */
static const char *spec_word(Spec *sp) {
    spec_skip_ws(sp);
    size_t start = sp->pos;
    while (spec_word_char(sp->s[sp->pos])) sp->pos++;
    if (sp->pos == start) return NULL;
    return arena_strndup(&sp->t->arena, sp->s + start, sp->pos - start);
}

static bool spec_is(const char *w, const char *k) { return w && !strcmp(w, k); }

/* The rest of the current line, trimmed. */
static const char *spec_rest_of_line(Spec *sp) {
    while (sp->s[sp->pos] == ' ' || sp->s[sp->pos] == '\t') sp->pos++;
    size_t start = sp->pos;
    while (sp->s[sp->pos] && sp->s[sp->pos] != '\n') sp->pos++;
    size_t end = sp->pos;
    while (end > start && (sp->s[end - 1] == ' ' || sp->s[end - 1] == '\t' || sp->s[end - 1] == '\r'))
        end--;
    return arena_strndup(&sp->t->arena, sp->s + start, end - start);
}

/* The text between '{' and its '}', or NULL after an error. */
static const char *spec_braced(Spec *sp) {
    spec_skip_ws(sp);
    if (sp->s[sp->pos] != '{') return spec_error(sp, "expected '{'"), NULL;
    size_t start = ++sp->pos;
    int depth = 1;
    for (; sp->s[sp->pos] && depth > 0; sp->pos++)
        depth += sp->s[sp->pos] == '{' ? 1 : sp->s[sp->pos] == '}' ? -1 : 0;
    if (depth > 0) return spec_error(sp, "unterminated '{'"), NULL;
    return arena_strndup(&sp->t->arena, sp->s + start, sp->pos - 1 - start);
}

/* A file name after '@', resolved against the program's directory. */
static const char *spec_file(Spec *sp, const char **as_written) {
    spec_skip_ws(sp);
    if (sp->s[sp->pos] != '@') return spec_error(sp, "expected '{' or '@'"), NULL;
    sp->pos++;
    const char *f = spec_word(sp);
    if (!f) return spec_error(sp, "expected a file name after '@'"), NULL;
    *as_written = f;
    if (f[0] == '/') return f;
    return arena_printf(&sp->t->arena, "%s/%s", sp->prog->dir, f);
}

/* `tags { ... }`: a file tagged disable or notest is skipped whole. */
static void spec_tags(Spec *sp) {
    const char *body = spec_braced(sp);
    if (body && (strstr(body, "disable") || strstr(body, "notest"))) {
        Spec words = {sp->t, sp->prog, body, 0, sp->line, false, 0, {0}};
        for (const char *w; (w = spec_word(&words));)
            if (spec_is(w, "disable") || spec_is(w, "notest")) sp->prog->skip_whole = true;
    }
}

static void spec_entries(Spec *sp) {
    Spec words = {sp->t, sp->prog, spec_rest_of_line(sp), 0, sp->line, false, 0, {0}};
    sp->entries.len = 0;
    for (const char *w; (w = spec_word(&words));) vec_push(&sp->entries, w);
}

/* `structure [backend] { ... }`: parsed and ignored for now. */
static void spec_structure(Spec *sp) {
    while (spec_word(sp)) {}
    spec_braced(sp);
}

/* The default name of a literal case: #i ("first characters of values"). */
static const char *spec_case_name(Spec *sp, int index, const char *values) {
    Buf b = {0};
    bool space = false;
    for (const char *c = values; *c && b.len < TEST_NAME_CHARS; c++) {
        bool ws = *c == ' ' || *c == '\t' || *c == '\n' || *c == '\r';
        if (ws) space = b.len > 0;
        else {
            if (space) buf_putc(&b, ' ');
            buf_putc(&b, *c);
            space = false;
        }
    }
    const char *name = arena_printf(&sp->t->arena, "#%d (\"%s\")", index, b.data ? b.data : "");
    buf_free(&b);
    return name;
}

/* The case's tags and input kind: returns "input", or NULL after an
 * error; *skip is set by notest, disable and no_<backend>, *unsupported by
 * random and script input. */
static const char *spec_case_tags(Spec *sp, bool *skip, bool *unsupported) {
    const char *no_backend = arena_printf(&sp->t->arena, "no_%s", sp->t->backend);
    for (;;) {
        const char *w = spec_word(sp);
        if (!w) return spec_error(sp, "expected a case ('input' ...)"), NULL;
        if (spec_is(w, "input")) return w;
        if (spec_is(w, "random") || spec_is(w, "script")) {
            *unsupported = true;
            if (!spec_is(spec_word(sp), "input"))
                return spec_error(sp, "expected 'input' after 'random' or 'script'"), NULL;
            return "input";
        }
        if (spec_is(w, "notest") || spec_is(w, "disable") || spec_is(w, no_backend)) *skip = true;
    }
}

/* Checks that literal values in a test block are well formed, so a typo
 * is reported as such rather than as a failure of the program. */
static void spec_check_values(Spec *sp, const char *text, const char *what) {
    rt_reader r = {(const unsigned char *)text, strlen(text), 0};
    char msg[TEST_MSG_LEN];
    while (!rt_reader_at_end(&r)) {
        rt_value v;
        if (!rt_read_any(&r, &v, msg, sizeof msg)) {
            spec_error(sp, arena_printf(&sp->t->arena, "malformed %s values: %s", what, msg));
            return;
        }
        rt_value_free(&v);
    }
}

/* Reads the input of a case into r. */
static void spec_case_input(Spec *sp, TestRun *r, int index, bool unsupported) {
    spec_skip_ws(sp);
    if (sp->s[sp->pos] == '{') {
        r->in_kind = IN_VALUES;
        r->input = spec_braced(sp);
        if (r->input) r->name = spec_case_name(sp, index, r->input);
        if (r->input && !unsupported) spec_check_values(sp, r->input, "input");
        return;
    }
    const char *written = NULL;
    r->in_kind = IN_FILE;
    r->input = spec_file(sp, &written);
    if (!written) return;
    size_t n = strlen(written);
    bool gz = n > 3 && !strcmp(written + n - 3, ".gz");
    r->name = arena_strndup(&sp->t->arena, written, gz ? n - 3 : n);
}

/* Reads the expected result of a case, if any, into r. */
static void spec_case_output(Spec *sp, TestRun *r, bool *unsupported) {
    size_t save = sp->pos;
    const char *w = spec_word(sp), *written;
    if (spec_is(w, "output")) {
        spec_skip_ws(sp);
        bool braced = sp->s[sp->pos] == '{';
        r->out_kind = braced ? OUT_VALUES : OUT_FILE;
        r->output = braced ? spec_braced(sp) : spec_file(sp, &written);
        if (braced && r->output) spec_check_values(sp, r->output, "output");
    } else if (spec_is(w, "auto")) {
        *unsupported = true;
        if (!spec_is(spec_word(sp), "output")) spec_error(sp, "expected 'output' after 'auto'");
    } else if (spec_is(w, "error:")) {
        r->out_kind = OUT_ERROR;
        r->output = spec_rest_of_line(sp);
    } else {
        sp->pos = save;
        r->out_kind = OUT_NONE;
    }
}

/* One case: ["name"] tags... input ... [output ...]; adds a run per entry. */
static void spec_case(Spec *sp) {
    TestRun proto = {0};
    const char *given_name = NULL;
    bool skip = false, unsupported = false;
    spec_skip_ws(sp);
    if (sp->s[sp->pos] == '"') {
        size_t start = ++sp->pos;
        while (sp->s[sp->pos] && sp->s[sp->pos] != '"' && sp->s[sp->pos] != '\n') sp->pos++;
        if (sp->s[sp->pos] != '"') {
            spec_error(sp, "unterminated case name");
            return;
        }
        given_name = arena_strndup(&sp->t->arena, sp->s + start, sp->pos++ - start);
    }
    int index = sp->ncases++;
    if (!spec_case_tags(sp, &skip, &unsupported)) return;
    spec_case_input(sp, &proto, index, unsupported);
    spec_case_output(sp, &proto, &unsupported);
    if (sp->prog->error) return;
    int n = sp->entries.len ? sp->entries.len : 1;
    if (skip || unsupported) {
        sp->prog->nskipped += n;
        sp->prog->nunsupported += skip ? 0 : n;
        return;
    }
    for (int i = 0; i < n; i++) {
        TestRun *r = NEW(&sp->t->arena, TestRun);
        *r = proto;
        r->prog = sp->prog;
        r->entry = sp->entries.len ? sp->entries.items[i] : "main";
        if (given_name) r->name = given_name;
        vec_push(&sp->prog->runs, r);
    }
}

/* Parses the text of one test block (after its "==" line). */
static void spec_parse(Spec *sp) {
    for (;;) {
        spec_skip_ws(sp);
        if (!sp->s[sp->pos] || sp->prog->error) return;
        size_t save = sp->pos;
        const char *w = spec_word(sp);
        if (spec_is(w, "tags") && sp->first && sp->ncases == 0) spec_tags(sp);
        else if (spec_is(w, "entry:")) spec_entries(sp);
        else if (spec_is(w, "structure")) spec_structure(sp);
        else if (spec_is(w, "warning:") || spec_is(w, "property:")) spec_rest_of_line(sp);
        else if (spec_is(w, "error:") && sp->first && sp->ncases == 0) {
            sp->prog->compile_regex = spec_rest_of_line(sp);
            sp->ncases++;
        } else {
            sp->pos = save;
            spec_case(sp);
        }
    }
}

/* The text after "--" (and one space) if line is a comment line, else NULL. */
static const char *test_comment(const char *line, size_t len, size_t *clen) {
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    if (len - i < 2 || line[i] != '-' || line[i + 1] != '-') return NULL;
    i += 2;
    *clen = len - i;
    return line + i;
}

static bool test_is_marker(const char *c, size_t n) {
    while (n > 0 && (c[n - 1] == ' ' || c[n - 1] == '\t' || c[n - 1] == '\r')) n--;
    while (n > 0 && (*c == ' ' || *c == '\t')) c++, n--;
    return n == 2 && c[0] == '=' && c[1] == '=';
}

/* Parses one block of spec text; first tells whether it is the file's first. */
static void test_parse_block(Tester *t, TestProg *p, const char *text, int line, bool first) {
    Spec sp = {t, p, text, 0, line, first, 0, {0}};
    spec_parse(&sp);
    vec_free(&sp.entries);
    p->has_block = true;
}

/* Finds the test blocks of a program's text: runs of comment lines holding
 * a "-- ==" line; the lines after it are the block's spec. */
static void test_parse_file(Tester *t, TestProg *p, const char *text) {
    Buf spec = {0};
    bool in_block = false, first = true;
    int lineno = 0, marker = 0;
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line), clen;
        const char *c = test_comment(line, len, &clen);
        lineno++;
        if (c && in_block) buf_printf(&spec, "%.*s\n", (int)clen, c);
        else if (c && test_is_marker(c, clen)) {
            in_block = true, marker = lineno, spec.len = 0;
            if (spec.data) spec.data[0] = 0;
        }
        if (!c && in_block) {
            test_parse_block(t, p, spec.data ? spec.data : "", marker, first);
            first = in_block = false;
        }
        line = nl ? nl + 1 : line + len;
    }
    if (in_block) test_parse_block(t, p, spec.data ? spec.data : "", marker, first);
    buf_free(&spec);
}

/* ---- Processes ------------------------------------------------------------ */

static double test_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Starts argv in its own process group with stdin from in (or /dev/null)
 * and stdout/stderr into the files out and err. */
static pid_t test_spawn(char *const *argv, const char *in, const char *out, const char *err) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid != 0) {
        if (pid > 0) setpgid(pid, pid);
        return pid;
    }
    setpgid(0, 0);
    int fi = open(in ? in : "/dev/null", O_RDONLY);
    int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fi < 0 || fo < 0 || fe < 0) _exit(127);
    dup2(fi, 0), dup2(fo, 1), dup2(fe, 2);
    close(fi), close(fo), close(fe);
    execvp(argv[0], argv);
    fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

/* A fresh file name in the temporary directory. */
static const char *test_tmp(Tester *t, const char *what) {
    return arena_printf(&t->arena, "%s/%s%d", t->tmpdir, what, t->serial++);
}

/* Reads a data file, decompressing .gz files with gzip -dc; NULL (with a
 * message in *why) on failure. */
static char *test_load(Tester *t, const char *path, size_t *len, const char **why) {
    size_t n = strlen(path);
    const char *plain = path;
    if (n > 3 && !strcmp(path + n - 3, ".gz")) {
        plain = test_tmp(t, "gunzip");
        const char *err = test_tmp(t, "gzerr");
        char *argv[] = {"gzip", "-dc", (char *)path, NULL};
        int status = -1;
        pid_t pid = test_spawn(argv, NULL, plain, err);
        if (pid < 0 || waitpid(pid, &status, 0) < 0 || status != 0) {
            char *msg = util_read_file(err, NULL);
            *why = arena_printf(&t->arena, "cannot decompress %s: %s", path, msg ? msg : "");
            free(msg);
            return NULL;
        }
        unlink(err);
    }
    char *text = util_read_file(plain, len);
    if (!text) *why = arena_printf(&t->arena, "cannot read %s: %s", path, strerror(errno));
    if (plain != path) unlink(plain);
    return text;
}

/* The file a run reads as stdin: the data file itself, or a temporary file
 * (*tmp) holding literal values or a decompressed file; NULL (with *why) on
 * failure. */
static const char *test_stdin_file(Tester *t, const TestRun *r, const char **tmp,
                                   const char **why) {
    size_t len, n = strlen(r->input);
    *tmp = NULL;
    if (r->in_kind == IN_FILE && !(n > 3 && !strcmp(r->input + n - 3, ".gz"))) {
        if (access(r->input, R_OK) == 0) return r->input;
        *why = arena_printf(&t->arena, "cannot read %s: %s", r->input, strerror(errno));
        return NULL;
    }
    char *text = r->in_kind == IN_VALUES ? NULL : test_load(t, r->input, &len, why);
    if (r->in_kind == IN_FILE && !text) return NULL;
    const char *data = text ? text : r->input;
    if (!text) len = n;
    const char *in = test_tmp(t, "in");
    FILE *f = fopen(in, "wb");
    bool ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f) != 0) ok = false;
    free(text);
    if (!ok) *why = arena_printf(&t->arena, "cannot write %s", in);
    if (f) *tmp = in;
    return ok ? in : NULL;
}

/* ---- Checking results ----------------------------------------------------- */

typedef VEC(rt_value) Values;

static void test_free_values(Values *vs) {
    for (int i = 0; i < vs->len; i++) rt_value_free(&vs->items[i]);
    vec_free(vs);
}

/* Reads every value of text; false with a message on malformed data. */
static bool test_read_values(const char *text, size_t len, Values *vs, char *msg, size_t n) {
    rt_reader r = {(const unsigned char *)text, len, 0};
    while (!rt_reader_at_end(&r)) {
        rt_value v;
        if (!rt_read_any(&r, &v, msg, n)) return false;
        vec_push(vs, v);
    }
    return true;
}

/* Compares a program's output with the expected values; NULL if they match,
 * else a description of the first difference. */
static const char *test_compare(Tester *t, const char *got, size_t glen, const char *exp,
                                size_t elen) {
    Values g = {0}, e = {0};
    char msg[TEST_MSG_LEN];
    const char *why = NULL;
    if (!test_read_values(exp, elen, &e, msg, sizeof msg))
        why = arena_printf(&t->arena, "cannot read the expected output: %s", msg);
    else if (!test_read_values(got, glen, &g, msg, sizeof msg))
        why = arena_printf(&t->arena, "cannot read the program's output: %s", msg);
    else if (g.len != e.len)
        why = arena_printf(&t->arena, "expected %d value%s, got %d", e.len, e.len == 1 ? "" : "s",
                           g.len);
    for (int i = 0; !why && i < e.len; i++)
        if (!rt_values_match(&g.items[i], &e.items[i], msg, sizeof msg))
            why = arena_printf(&t->arena, "value %d of %d: %s", i + 1, e.len, msg);
    test_free_values(&g);
    test_free_values(&e);
    return why;
}

/* Checks the output of a successful run against the expected values. */
static void test_check_output(Tester *t, TestRun *r, const char *out, size_t olen) {
    const char *why = NULL;
    size_t elen = 0;
    char *loaded = NULL;
    const char *exp = r->output;
    if (r->out_kind == OUT_FILE) exp = loaded = test_load(t, r->output, &elen, &why);
    else elen = strlen(exp);
    if (exp) why = test_compare(t, out ? out : "", out ? olen : 0, exp, elen);
    free(loaded);
    if (why) test_fail(r->prog, r, why, NULL);
    else test_pass(t, r->prog, r);
}

/* Judges a finished run from its exit status and output files. */
static void test_run_done(Tester *t, Task *k, int status, const char *out, size_t olen,
                          const char *err) {
    TestRun *r = k->run;
    TestProg *p = r->prog;
    bool bad = false;
    if (k->timed_out) {
        test_fail(p, r, arena_printf(&t->arena, "timed out after %d s", k->limit_s), NULL);
    } else if (r->out_kind == OUT_ERROR) {
        if (status == 0)
            test_fail(p, r, arena_printf(&t->arena, "succeeded, but an error matching /%s/ was "
                                         "expected", r->output), NULL);
        else if (test_regex_match(r->output, err, &bad)) test_pass(t, p, r);
        else if (bad) test_fail(p, r, arena_printf(&t->arena, "invalid regex /%s/", r->output), NULL);
        else test_fail(p, r, arena_printf(&t->arena, "error did not match /%s/:", r->output), err);
    } else if (status != 0) {
        test_fail(p, r, arena_printf(&t->arena, "failed (%s):", test_status_str(t, status)), err);
    } else if (r->out_kind == OUT_NONE) {
        test_pass(t, p, r);
    } else {
        test_check_output(t, r, out, olen);
    }
}

/* ---- Scheduling ----------------------------------------------------------- */

/* Judges a compile-error test from the compiler's exit status. */
static void test_compile_error_done(Tester *t, Task *k, int status, const char *err) {
    TestProg *p = k->prog;
    const char *re = p->compile_regex;
    bool bad = false;
    if (k->timed_out)
        test_fail(p, NULL, arena_printf(&t->arena, "compiler timed out after %d s", k->limit_s), NULL);
    else if (status == 0)
        test_fail(p, NULL, arena_printf(&t->arena, "compiled, but an error matching /%s/ was "
                                        "expected", re), NULL);
    else if (test_regex_match(re, err, &bad)) test_pass(t, p, NULL);
    else if (bad) test_fail(p, NULL, arena_printf(&t->arena, "invalid regex /%s/", re), NULL);
    else test_fail(p, NULL, arena_printf(&t->arena, "compiler error did not match /%s/:", re), err);
}

/* After compiling: queue the runs, or fail them all. */
static void test_compile_done(Tester *t, Task *k, int status, const char *err) {
    TestProg *p = k->prog;
    if (p->compile_regex) {
        test_compile_error_done(t, k, status, err);
        return;
    }
    if (k->timed_out || status != 0) {
        const char *how = k->timed_out ? arena_printf(&t->arena, "timed out after %d s", k->limit_s)
                                       : test_status_str(t, status);
        int n = p->runs.len ? p->runs.len : 1;
        test_fail(p, NULL, arena_printf(&t->arena, "compilation failed (%s; %d case%s not run):",
                                        how, n, n == 1 ? "" : "s"), err);
        p->nfailed += n - 1;
        return;
    }
    if (p->runs.len == 0) test_pass(t, p, NULL);
    for (int i = 0; i < p->runs.len; i++) {
        Task run = {p, p->runs.items[i], 0, 0, t->timeout_s, false, NULL, NULL, NULL};
        vec_push(&t->runs, run);
        p->pending++;
    }
}

/* The compiler's command line for p. */
static char **test_compile_argv(Tester *t, TestProg *p) {
    char **argv = NEW_ARRAY(&t->arena, char *, t->copts.len + 6);
    int n = 0;
    argv[n++] = (char *)t->futhorc;
    argv[n++] = (char *)t->backend;
    for (int i = 0; i < t->copts.len; i++) argv[n++] = (char *)t->copts.items[i];
    argv[n++] = (char *)p->path;
    argv[n++] = "-o";
    argv[n++] = (char *)p->exe;
    argv[n] = NULL;
    return argv;
}

/* Starts task k; false if it could not start (its failure is recorded). */
static bool test_start(Tester *t, Task *k) {
    char **argv;
    const char *in = NULL, *why = NULL;
    if (k->run) {
        in = test_stdin_file(t, k->run, &k->in_tmp, &why);
        if (!in) {
            if (k->in_tmp) unlink(k->in_tmp);
            return test_fail(k->prog, k->run, why, NULL), false;
        }
        argv = NEW_ARRAY(&t->arena, char *, 4);
        argv[0] = (char *)k->prog->exe, argv[1] = "-e", argv[2] = (char *)k->run->entry;
    } else {
        argv = test_compile_argv(t, k->prog);
    }
    k->out = test_tmp(t, "out");
    k->err = test_tmp(t, "err");
    k->pid = test_spawn(argv, in, k->out, k->err);
    if (k->pid < 0) return test_fail(k->prog, k->run, "cannot fork", NULL), false;
    k->start = test_now();
    return true;
}

/* Collects a finished task's output and judges it. */
static void test_finish(Tester *t, Task *k, int status) {
    size_t olen = 0;
    char *out = util_read_file(k->out, &olen), *err = util_read_file(k->err, NULL);
    if (k->run) test_run_done(t, k, status, out, olen, err);
    else test_compile_done(t, k, status, err);
    free(out);
    free(err);
    unlink(k->out);
    unlink(k->err);
    if (k->in_tmp) unlink(k->in_tmp);
    k->prog->pending--;
    k->pid = 0;
    t->running--;
}

/* Starts waiting tasks while slots are free: runs before compilations. */
static void test_fill_slots(Tester *t) {
    for (int s = 0; s < t->jobs && t->running < t->jobs; s++) {
        if (t->slots[s].pid) continue;
        Task k;
        if (t->runs_head < t->runs.len) k = t->runs.items[t->runs_head++];
        else if (t->compiles_head < t->compiles.len) k = t->compiles.items[t->compiles_head++];
        else return;
        if (test_start(t, &k)) {
            t->slots[s] = k;
            t->running++;
        } else {
            k.prog->pending--;
            s--; /* the slot is still free */
        }
    }
}

/* Kills tasks that ran past their limit (their whole process group). */
static void test_kill_late(Tester *t) {
    double now = test_now();
    for (int s = 0; s < t->jobs; s++) {
        Task *k = &t->slots[s];
        if (k->pid && !k->timed_out && now - k->start > k->limit_s) {
            kill(-k->pid, SIGKILL);
            kill(k->pid, SIGKILL);
            k->timed_out = true;
        }
    }
}

/* Runs every queued task to completion. */
static void test_run_all(Tester *t) {
    struct timespec pause = {0, TEST_POLL_MS * 1000000L};
    for (;;) {
        test_fill_slots(t);
        test_flush_reports(t);
        if (t->running == 0) return;
        int status;
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid < 0 && errno != EINTR) return;
        if (pid <= 0) {
            test_kill_late(t);
            nanosleep(&pause, NULL);
            continue;
        }
        for (int s = 0; s < t->jobs; s++)
            if (t->slots[s].pid == pid) test_finish(t, &t->slots[s], status);
    }
}

/* ---- Files and options ---------------------------------------------------- */

static int test_strcmp(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool test_is_fut(const char *name) {
    size_t n = strlen(name);
    return n > 4 && !strcmp(name + n - 4, ".fut");
}

/* Adds path (a file, or a directory searched for *.fut) to the program
 * list; false if it does not exist. */
static bool test_collect(Tester *t, const char *path, int depth) {
    struct stat st;
    if (stat(path, &st) != 0) return false;
    if (!S_ISDIR(st.st_mode)) {
        if (depth > 0 && !test_is_fut(path)) return true;
        TestProg *p = NEW(&t->arena, TestProg);
        p->path = path;
        const char *slash = strrchr(path, '/');
        p->dir = slash ? arena_strndup(&t->arena, path, (size_t)(slash - path)) : ".";
        if (slash == path) p->dir = "/";
        vec_push(&t->progs, p);
        return true;
    }
    DIR *d = depth < TEST_MAX_DEPTH ? opendir(path) : NULL;
    if (!d) return true;
    Strings names = {0};
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.') vec_push(&names, arena_printf(&t->arena, "%s/%s", path, e->d_name));
    closedir(d);
    if (names.len) qsort(names.items, (size_t)names.len, sizeof(char *), test_strcmp);
    for (int i = 0; i < names.len; i++) test_collect(t, names.items[i], depth + 1);
    vec_free(&names);
    return true;
}

static void test_usage(void) {
    printf("Usage: futhorc test [OPTIONS] FILES|DIRS\n"
           "Compiles each program and runs the cases of its -- == test blocks.\n\n"
           "Options:\n"
           "  -j N, --concurrency=N          run N test processes at once (default %d)\n"
           "  -v, --verbose                  also print passing cases and skipped files\n"
           "  --backend=NAME                 compile with backend NAME (default c)\n"
           "  --pass-compiler-option=OPT     pass OPT to the compiler\n"
           "  --timeout=SECONDS              time limit of each run (default %d)\n"
           "  -h, --help                     print this text\n",
           TEST_DEFAULT_JOBS, TEST_RUN_TIMEOUT_S);
}

/* The value of an option given as "--opt=V", "-xV" or "-x V"; NULL if none. */
static const char *test_optval(int argc, char **argv, int *i, const char *opt) {
    size_t n = strlen(opt);
    if (strncmp(argv[*i], opt, n)) return NULL;
    if (argv[*i][n] == '=' && opt[1] == '-') return argv[*i] + n + 1;
    if (argv[*i][n] && opt[1] != '-') return argv[*i] + n;
    if (!argv[*i][n] && *i + 1 < argc) return argv[++*i];
    return NULL;
}

/* Parses a positive integer option value within [1, max]; -1 if bad. */
static int test_posint(const char *v, int max) {
    char *end;
    long n = v ? strtol(v, &end, 10) : 0;
    return v && *v && !*end && n >= 1 && n <= max ? (int)n : -1;
}

/* Prints a command-line error; returns the exit status 1. */
static int test_bad_usage(const char *what, const char *arg) {
    fprintf(stderr, "futhorc test: %s '%s'; try --help\n", what, arg);
    return 1;
}

/* Parses options; returns 0 to go on, 1 on error, 2 after --help. */
static int test_options(Tester *t, int argc, char **argv, Strings *paths) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            test_usage();
            return 2;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            t->verbose = true;
        } else if ((v = test_optval(argc, argv, &i, "-j")) ||
                   (v = test_optval(argc, argv, &i, "--concurrency"))) {
            if ((t->jobs = test_posint(v, TEST_MAX_JOBS)) < 0) return test_bad_usage("bad -j value", v);
        } else if ((v = test_optval(argc, argv, &i, "--timeout"))) {
            if ((t->timeout_s = test_posint(v, INT32_MAX)) < 0)
                return test_bad_usage("bad --timeout value", v);
        } else if ((v = test_optval(argc, argv, &i, "--backend"))) {
            t->backend = v;
        } else if ((v = test_optval(argc, argv, &i, "--pass-compiler-option"))) {
            vec_push(&t->copts, v);
        } else if (a[0] == '-' && a[1]) {
            return test_bad_usage("unknown or incomplete option", a);
        } else {
            vec_push(paths, a);
        }
    }
    if (paths->len == 0) return test_bad_usage("no files or directories given", "");
    if (strcmp(t->backend, "c")) return test_bad_usage("unknown backend", t->backend);
    return 0;
}

/* Reads and parses p; queues its compilation if it has anything to run. */
static void test_prepare(Tester *t, TestProg *p) {
    char *text = util_read_file(p->path, NULL);
    if (!text) {
        test_fail(p, NULL, arena_printf(&t->arena, "cannot read: %s", strerror(errno)), NULL);
        return;
    }
    test_parse_file(t, p, text);
    free(text);
    if (p->error) {
        test_fail(p, NULL, p->error, NULL);
        return;
    }
    if (p->skip_whole) {
        p->nskipped += p->runs.len + (p->runs.len == 0 && p->nskipped == 0);
        if (t->verbose) buf_printf(&p->report, "SKIP %s: tagged disable or notest\n", p->path);
        return;
    }
    if (p->nunsupported && t->verbose)
        buf_printf(&p->report, "SKIP %s: %d case%s with random input, script input or auto output "
                   "(not supported yet)\n", p->path, p->nunsupported, p->nunsupported == 1 ? "" : "s");
    if (!p->has_block || (p->runs.len == 0 && p->nskipped > 0 && !p->compile_regex)) return;
    p->exe = test_tmp(t, "prog");
    Task k = {p, NULL, 0, 0, TEST_COMPILE_TIMEOUT_S, false, NULL, NULL, NULL};
    vec_push(&t->compiles, k);
    p->pending = 1;
}

/* Removes the temporary directory and what is in it. */
static void test_rmtree(const char *path) {
    DIR *d = opendir(path);
    if (d) {
        for (struct dirent *e; (e = readdir(d));) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            size_t n = strlen(path) + strlen(e->d_name) + 2;
            char *sub = malloc(n);
            if (!sub) break;
            snprintf(sub, n, "%s/%s", path, e->d_name);
            struct stat st;
            if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode)) test_rmtree(sub);
            else unlink(sub);
            free(sub);
        }
        closedir(d);
    }
    rmdir(path);
}

/* Prints the totals line; returns the exit status. */
static int test_summary(Tester *t) {
    int passed = 0, failed = 0, skipped = 0;
    for (int i = 0; i < t->progs.len; i++) {
        passed += t->progs.items[i]->npassed;
        failed += t->progs.items[i]->nfailed;
        skipped += t->progs.items[i]->nskipped;
    }
    printf("%d passed, %d failed", passed, failed);
    if (skipped) printf(", %d skipped", skipped);
    printf("\n");
    return failed ? 1 : 0;
}

int tool_test(int argc, char **argv, const char *futhorc_path) {
    Tester t = {0};
    t.futhorc = futhorc_path;
    t.backend = "c";
    t.jobs = TEST_DEFAULT_JOBS;
    t.timeout_s = TEST_RUN_TIMEOUT_S;
    Strings paths = {0};
    int rc = test_options(&t, argc, argv, &paths);
    for (int i = 0; rc == 0 && i < paths.len; i++)
        if (!test_collect(&t, paths.items[i], 0))
            rc = 1, fprintf(stderr, "futhorc test: cannot access %s: %s\n", paths.items[i], strerror(errno));
    const char *base = getenv("TMPDIR");
    char *dir = arena_printf(&t.arena, "%s/futhorc-test-XXXXXX", base && *base ? base : "/tmp");
    if (rc == 0 && !(t.tmpdir = mkdtemp(dir)))
        rc = 1, fprintf(stderr, "futhorc test: cannot create a temporary directory: %s\n", strerror(errno));
    if (rc == 0) {
        for (int i = 0; i < t.progs.len; i++) test_prepare(&t, t.progs.items[i]);
        test_run_all(&t);
        test_flush_reports(&t);
        rc = test_summary(&t);
        test_rmtree(t.tmpdir);
    }
    for (int i = 0; i < t.progs.len; i++) vec_free(&t.progs.items[i]->runs), buf_free(&t.progs.items[i]->report);
    vec_free(&paths), vec_free(&t.progs), vec_free(&t.copts), vec_free(&t.compiles), vec_free(&t.runs);
    arena_free(&t.arena);
    return rc == 2 ? 0 : rc;
}
