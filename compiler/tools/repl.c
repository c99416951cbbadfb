/* `futhorc repl` and `futhorc eval`. Each input is checked and run as a
 * program of its own: the loaded file (opened by an import, so its own
 * imports and error positions stay its own), the session's declarations,
 * and for an expression e the definition `def futhorc_it = (e)`, whose
 * checked type says how to print the value, and an entry point returning
 * it, which the JIT compiles and runs (ReplRun). Input is read from a
 * duplicate of stdin, so the programs run with their stdin on /dev/null
 * never see buffered input. */
#include "tools/repl.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check/check.h"
#include "rt.h"
#include "tools/frontend.h"
#include "tools/spec.h"

/* The names the session's programs give what they evaluate. */
#define REPL_IT "futhorc_it"
#define REPL_ENTRY "futhorc_eval"

typedef struct Repl {
    ReplRun run;
    SpecWork work;
    Arena *a;
    const char *path;   /* where the session's programs live (for imports and messages) */
    const char *loaded; /* the loaded file's import path, or NULL */
    Buf decls;          /* the session's declarations */
} Repl;

/* A session program's start: the loaded file and the declarations. */
static const char *program(Repl *r, Arena *a) {
    return arena_printf(a, "%s%s%s\n%s", r->loaded ? "open import \"" : "", r->loaded ? r->loaded : "",
                        r->loaded ? "\"\n" : "", r->decls.data ? r->decls.data : "");
}

/* Checks text; the type of its definition name (NULL: none asked), or NULL
 * after the checker's messages. *ok tells whether it checked. */
static Ty *check(Repl *r, Arena *a, const char *text, const char *name, bool *ok) {
    diag_reset();
    ProgramVec files = frontend_load_text(a, r->path, text, strlen(text), NULL, 0);
    *ok = files.len > 0;
    Ty *t = NULL;
    Program *main = files.len ? files.items[files.len - 1] : NULL;
    for (int i = 0; name && main && i < main->ndecls; i++)
        if (main->decls[i]->kind == D_VAL && !strcmp(main->decls[i]->name, name)) t = main->decls[i]->ty;
    vec_free(&files);
    return t;
}

/* Prints the values vals[*k...] shaped as type t: tuples and records as
 * Futhark writes them (a record's fields in the order of their names). */
static void print_value(FILE *f, Ty *t, const rt_value *vals, int n, int *k) {
    if (t->kind == TY_TUPLE || t->kind == TY_RECORD) {
        fputc(t->kind == TY_TUPLE ? '(' : '{', f);
        for (int i = 0; i < t->n; i++) {
            if (i) fputs(", ", f);
            if (t->kind == TY_RECORD) fprintf(f, "%s=", t->fields[i].name);
            print_value(f, t->kind == TY_TUPLE ? t->elems[i] : t->fields[i].ty, vals, n, k);
        }
        fputc(t->kind == TY_TUPLE ? ')' : '}', f);
    } else if (*k < n) {
        rt_write_text(f, &vals[(*k)++]);
    }
}

/* Reads the binary values of the run's output file and prints them as t. */
static bool print_results(Repl *r, Ty *t, const char *out) {
    size_t len;
    const char *why = NULL;
    char *data = spec_load(&r->work, out, &len, &why);
    if (!data) return fprintf(stderr, "%s\n", why), false;
    VEC(rt_value) vals = {0};
    rt_reader rd = {(const unsigned char *)data, len, 0};
    char msg[256];
    bool ok = true;
    while (ok && !rt_reader_at_end(&rd)) {
        rt_value v;
        if ((ok = rt_read_any(&rd, &v, msg, sizeof msg))) vec_push(&vals, v);
        else fprintf(stderr, "futhorc: the results cannot be read back: %s\n", msg);
    }
    int k = 0;
    if (ok) print_value(stdout, t, vals.items, vals.len, &k), putchar('\n');
    for (int i = 0; i < vals.len; i++) rt_value_free(&vals.items[i]);
    vec_free(&vals);
    free(data);
    return ok;
}

/* Evaluates expression e and prints its value. */
static bool eval(Repl *r, const char *e) {
    Arena a = {0};
    const char *base = program(r, &a);
    bool ok;
    Ty *t = check(r, &a, arena_printf(&a, "%s\ndef %s =\n%s\n", base, REPL_IT, e), REPL_IT, &ok);
    if (ok && t && t->kind == TY_ARROW) {
        fprintf(stderr, "a function (of type %s) cannot be shown\n", check_type_text(&a, t));
        ok = false;
    }
    if (ok && t) {
        const char *text =
            arena_printf(&a, "%s\ndef %s =\n%s\nentry %s = copy %s\n", base, REPL_IT, e, REPL_ENTRY, REPL_IT);
        const char *out = spec_tmp(&r->work, "out");
        fflush(stdout);
        ok = r->run(r->path, text, REPL_ENTRY, out) == 0 && print_results(r, t, out);
        unlink(out);
    }
    arena_free(&a);
    return ok;
}

/* Prints the type of expression e. */
static bool type_of(Repl *r, const char *e) {
    Arena a = {0};
    bool ok;
    Ty *t = check(r, &a, arena_printf(&a, "%s\ndef %s =\n%s\n", program(r, &a), REPL_IT, e), REPL_IT, &ok);
    if (ok && t) printf("%s : %s\n", e, check_type_text(&a, t));
    arena_free(&a);
    return ok && t;
}

/* Adds a declaration to the session if it checks with the others. */
static bool declare(Repl *r, const char *d) {
    Arena a = {0};
    bool ok;
    check(r, &a, arena_printf(&a, "%s%s\n", program(r, &a), d), NULL, &ok);
    if (ok) buf_printf(&r->decls, "%s\n", d);
    arena_free(&a);
    return ok;
}

/* :load FILE: the file's definitions, instead of the loaded file's and the
 * session's. */
static bool load(Repl *r, const char *file) {
    size_t n = strlen(file);
    if (n < 5 || strcmp(file + n - 4, ".fut")) return fprintf(stderr, "not a .fut file: %s\n", file), false;
    if (access(file, R_OK) != 0) return fprintf(stderr, "cannot read %s: %s\n", file, strerror(errno)), false;
    Repl next = *r;
    const char *slash = strrchr(file, '/');
    next.path = slash ? arena_printf(r->a, "%.*s/[repl]", (int)(slash - file), file) : "[repl]";
    next.loaded = arena_strndup(r->a, slash ? slash + 1 : file, (size_t)(file + n - 4 - (slash ? slash + 1 : file)));
    next.decls = (Buf){0};
    Arena a = {0};
    bool ok;
    check(&next, &a, program(&next, &a), NULL, &ok);
    arena_free(&a);
    if (!ok) return false;
    buf_free(&r->decls);
    *r = next;
    return true;
}

static const char *skip_space(const char *s) {
    while (isspace((unsigned char)*s)) s++;
    return s;
}

/* Whether word w (followed by a space or the end) starts s. */
static bool starts_word(const char *s, const char *w) {
    size_t n = strlen(w);
    return !strncmp(s, w, n) && (!s[n] || isspace((unsigned char)s[n]));
}

/* Whether s contains the word w. */
static bool has_word(const char *s, const char *w) {
    size_t n = strlen(w);
    for (const char *p = strstr(s, w); p; p = strstr(p + 1, w))
        if ((p == s || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[n]) && p[n] != '_') return true;
    return false;
}

/* One line of input; false to end the session. *ok tells whether it
 * worked. */
static bool line(Repl *r, const char *l, bool *ok) {
    l = skip_space(l);
    size_t n = strlen(l);
    while (n && isspace((unsigned char)l[n - 1])) n--;
    l = arena_strndup(r->a, l, n);
    *ok = true;
    if (!*l) return true;
    if (starts_word(l, ":quit") || starts_word(l, ":q")) return false;
    if (starts_word(l, ":help") || starts_word(l, ":h")) {
        printf("An expression is evaluated and its value printed; a declaration (def, let\n"
               "without in, type, module, open, import, entry, local) is added to the session.\n"
               "  :load FILE   the definitions of FILE (the session's are dropped)\n"
               "  :type EXP    the type of EXP\n"
               "  :help        this text\n"
               "  :quit        end the session (so does end of input)\n");
        return true;
    }
    if (starts_word(l, ":load")) *ok = load(r, skip_space(l + 5));
    else if (starts_word(l, ":type") || starts_word(l, ":t")) *ok = type_of(r, skip_space(l + (l[2] == 'y' ? 5 : 2)));
    else if (l[0] == ':') *ok = false, fprintf(stderr, "unknown command %s (see :help)\n", l);
    else if (starts_word(l, "let") && !has_word(l, "in")) *ok = declare(r, arena_printf(r->a, "def%s", l + 3));
    else if (starts_word(l, "def") || starts_word(l, "type") || starts_word(l, "module") || starts_word(l, "open") ||
             starts_word(l, "import") || starts_word(l, "entry") || starts_word(l, "local") || !strncmp(l, "#[", 2) ||
             starts_word(l, "type^") || starts_word(l, "type~"))
        *ok = declare(r, l);
    else *ok = eval(r, l);
    return true;
}

static int usage(const char *cmd, const char *why) {
    fprintf(stderr, "futhorc %s: %s\nusage: futhorc repl [FILE.fut]\n       futhorc eval [-f FILE.fut] EXPRESSION...\n",
            cmd, why);
    return 1;
}

/* The interactive loop: a prompt, a line, its result. */
static int interact(Repl *r) {
    FILE *in = fdopen(dup(0), "r");
    if (!in) return fprintf(stderr, "futhorc repl: cannot read the input\n"), 1;
    printf("futhorc repl: Futhark expressions through LLVM's JIT; :help for help.\n");
    char *buf = NULL;
    size_t cap = 0;
    for (int n = 0;; n++) {
        printf("[%d]> ", n);
        fflush(stdout);
        if (getline(&buf, &cap, in) < 0) {
            putchar('\n');
            break;
        }
        bool ok;
        if (!line(r, buf, &ok)) break;
    }
    free(buf);
    fclose(in);
    return 0;
}

int tool_repl(int argc, char **argv, ReplRun run) {
    Arena a = {0};
    Repl r = {run, {0}, &a, "[repl]", NULL, {0}};
    bool is_eval = !strcmp(argv[0], "eval");
    const char *file = NULL;
    int first = 1;
    if (argc > 2 && is_eval && !strcmp(argv[1], "-f")) file = argv[2], first = 3;
    else if (!is_eval && argc == 2 && argv[1][0] != '-') file = argv[1], first = 2;
    else if (!is_eval && argc > 1) return usage(argv[0], "expected at most a .fut file");
    if (is_eval && first >= argc) return usage(argv[0], "no expression given");
    if (!spec_work_init(&r.work, &a, argv[0])) return 1;
    int rc = 0;
    if (file && !load(&r, file)) rc = 1;
    for (int i = first; !rc && is_eval && i < argc; i++) {
        bool ok;
        line(&r, argv[i], &ok);
        if (!ok) rc = 1;
    }
    if (!rc && !is_eval) rc = interact(&r);
    spec_work_free(&r.work);
    buf_free(&r.decls);
    arena_free(&a);
    return rc;
}
