/* FutharkScript (Futhark's futhark-literate(1) grammar): let, application
 * of entry points and $builtins, tuples, records, field projection and
 * literal values, evaluated against a program in server mode. Values of
 * entry points stay in the server's variables; literals stay text until an
 * entry point's parameter gives them a type (so `foo 10` passes an i64 to
 * an i64 parameter), and are then restored from a binary file. Entry points
 * take tuples and records as their components, one parameter each (records'
 * fields in the order of their names): the arguments of an application are
 * flattened so, which also applies an entry of n parameters to one tuple of
 * n values (Futhark's uncurrying). */
#include "tools/script.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt.h"
#include "syntax/ast.h"
#include "tools/frontend.h"

extern char **environ;

/* Deepest nesting of script expressions: bounds the parser's recursion. */
enum { SCRIPT_MAX_DEPTH = 200 };
/* Size of a value reader's message. */
enum { SCRIPT_MSG_LEN = 1024 };

typedef enum { SV_LIT, SV_STR, SV_VAR, SV_TUPLE, SV_RECORD } SvKind;

struct ScriptVal {
    SvKind kind;
    const char *text; /* SV_LIT: the literal as written; SV_STR: the string */
    const char *var, *type; /* SV_VAR: the server's variable and its type */
    int n;
    ScriptVal **elems;
    const char **names; /* SV_RECORD: field names */
};

static bool fail(Script *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(Script *s, const char *fmt, ...) {
    Buf b = {0};
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    s->error = arena_strdup(s->a, b.data ? b.data : "");
    buf_free(&b);
    return false;
}

/* ---- The server ------------------------------------------------------------------------ */

/* Reads the reply to a command up to "%%% OK": its lines into out (when
 * not NULL), or after "%%% FAILURE" the failure's message into s->error. */
static bool reply(Script *s, Buf *out) {
    char *line = NULL;
    size_t cap = 0;
    bool failed = false;
    Buf msg = {0};
    for (;;) {
        ssize_t n = getline(&line, &cap, s->from);
        if (n < 0) {
            free(line), buf_free(&msg);
            return fail(s, "the program ended unexpectedly");
        }
        if (!strcmp(line, "%%% OK\n")) break;
        if (!strcmp(line, "%%% FAILURE\n")) failed = true;
        else if (failed) buf_puts(&msg, line);
        else if (out) buf_puts(out, line);
    }
    free(line);
    if (failed) {
        while (msg.len && msg.data[msg.len - 1] == '\n') msg.data[--msg.len] = 0;
        fail(s, "%s", msg.data ? msg.data : "failure");
    }
    buf_free(&msg);
    return !failed;
}

static bool cmd(Script *s, Buf *out, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool cmd(Script *s, Buf *out, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (s->verbose) {
        va_list aq;
        va_copy(aq, ap);
        fputs("> ", stderr), vfprintf(stderr, fmt, aq), fputc('\n', stderr);
        va_end(aq);
    }
    vfprintf(s->to, fmt, ap);
    va_end(ap);
    fputc('\n', s->to);
    if (fflush(s->to) != 0) return fail(s, "the program ended unexpectedly");
    return reply(s, out);
}

bool script_start(Script *s, const char *exe, char *const *opts) {
    int in[2], out[2];
    if (pipe(in) != 0) return fail(s, "cannot create a pipe: %s", strerror(errno));
    if (pipe(out) != 0) return close(in[0]), close(in[1]), fail(s, "cannot create a pipe: %s", strerror(errno));
    const char *argv[64] = {exe, "--server"};
    int n = 2;
    for (int i = 0; opts && opts[i] && n < 63; i++) argv[n++] = opts[i];
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addclose(&fa, in[1]);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    int rc = posix_spawn(&s->pid, exe, &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]), close(out[1]);
    if (rc != 0) {
        close(in[1]), close(out[0]);
        s->pid = 0;
        return fail(s, "cannot run %s: %s", exe, strerror(rc));
    }
    signal(SIGPIPE, SIG_IGN); /* a server that dies is reported, not fatal */
    s->to = fdopen(in[1], "w");
    s->from = fdopen(out[0], "r");
    return s->to && s->from && reply(s, NULL);
}

void script_stop(Script *s) {
    if (s->to) fclose(s->to);
    if (s->from) fclose(s->from);
    s->to = s->from = NULL;
    if (s->pid > 0)
        while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR) {}
    s->pid = 0;
}

/* The lines of a reply, without "*" (uniqueness) marks. */
static int lines(Script *s, Buf *b, const char ***out) {
    VEC(const char *) v = {0};
    for (char *l = b->data, *nl; l && *l; l = nl + 1) {
        nl = strchr(l, '\n');
        if (!nl) break;
        *nl = 0;
        vec_push_in(s->a, &v, arena_strdup(s->a, l[0] == '*' ? l + 1 : l));
    }
    *out = v.items;
    return v.len;
}

static const char *fresh_var(Script *s) { return arena_printf(s->a, "v%d", s->nvars++); }

/* ---- Values ------------------------------------------------------------------------------ */

static ScriptVal *new_val(Script *s, SvKind k) {
    ScriptVal *v = NEW(s->a, ScriptVal);
    v->kind = k;
    return v;
}

/* Parses a server type name ("[][]f32") into t. */
static bool parse_type(const char *name, rt_type *t) {
    t->rank = 0;
    while (name[0] == '[' && name[1] == ']') name += 2, t->rank++;
    for (int e = 0; e < RT_PRIM_COUNT; e++)
        if (!strcmp(name, rt_prim_name((rt_prim)e))) return t->elem = (rt_prim)e, true;
    return false;
}

/* Puts values into fresh server variables through a binary file. */
static bool restore(Script *s, rt_value *vals, int n, ScriptVal **out) {
    const char *file = spec_tmp(s->work, "script");
    FILE *f = fopen(file, "wb");
    if (!f) return fail(s, "cannot write %s: %s", file, strerror(errno));
    for (int i = 0; i < n; i++) rt_write_binary(f, &vals[i]);
    if (fclose(f) != 0) return fail(s, "cannot write %s", file);
    Buf c = {0};
    buf_printf(&c, "restore %s", file);
    for (int i = 0; i < n; i++) {
        out[i] = new_val(s, SV_VAR);
        out[i]->var = fresh_var(s);
        const char *dims = "";
        for (int r = 0; r < vals[i].type.rank; r++) dims = arena_printf(s->a, "%s[]", dims);
        out[i]->type = arena_printf(s->a, "%s%s", dims, rt_prim_name(vals[i].type.elem));
        buf_printf(&c, " %s %s", out[i]->var, out[i]->type);
    }
    bool ok = cmd(s, NULL, "%s", c.data);
    buf_free(&c);
    unlink(file);
    return ok;
}

/* The literal v as a server variable of type name (its own type if NULL). */
static ScriptVal *lit_to_var(Script *s, const ScriptVal *v, const char *type) {
    rt_reader r = {(const unsigned char *)v->text, strlen(v->text), 0};
    rt_value val;
    rt_type t;
    char msg[SCRIPT_MSG_LEN];
    if (type && !parse_type(type, &t))
        return fail(s, "%s cannot be given for a parameter of type %s", v->text, type), NULL;
    if (!(type ? rt_read_value(&r, t, &val, msg, sizeof msg) : rt_read_any(&r, &val, msg, sizeof msg)))
        return fail(s, "%s: %s", v->text, msg), NULL;
    ScriptVal *out;
    bool ok = restore(s, &val, 1, &out);
    rt_value_free(&val);
    return ok ? out : NULL;
}

/* Reads every value of a data file (text or binary) into variables: one
 * variable, or a tuple of them. */
static ScriptVal *load_data(Script *s, const char *path, bool bytes) {
    size_t len;
    const char *why = NULL;
    char *data = spec_load(s->work, path, &len, &why);
    if (!data) return fail(s, "$load: %s", why), NULL;
    VEC(rt_value) vals = {0};
    rt_reader r = {(const unsigned char *)data, len, 0};
    char msg[SCRIPT_MSG_LEN];
    bool ok = true;
    if (bytes) {
        int64_t *shape = malloc(sizeof(int64_t));
        void *copy = malloc(len ? len : 1);
        if (!shape || !copy) return free(shape), free(copy), free(data), fail(s, "out of memory"), NULL;
        *shape = (int64_t)len;
        memcpy(copy, data, len);
        rt_value v = {{RT_U8, 1}, shape, copy};
        vec_push(&vals, v);
    }
    while (ok && !bytes && !rt_reader_at_end(&r)) {
        rt_value v;
        if ((ok = rt_read_any(&r, &v, msg, sizeof msg))) vec_push(&vals, v);
        else fail(s, "%s: %s", path, msg);
    }
    free(data);
    ScriptVal **vars = NEW_ARRAY(s->a, ScriptVal *, vals.len + 1);
    if (ok && vals.len == 0) ok = fail(s, "%s holds no values", path);
    ok = ok && restore(s, vals.items, vals.len, vars);
    for (int i = 0; i < vals.len; i++) rt_value_free(&vals.items[i]);
    int n = vals.len;
    vec_free(&vals);
    if (!ok) return NULL;
    if (n == 1) return vars[0];
    ScriptVal *t = new_val(s, SV_TUPLE);
    t->n = n, t->elems = vars;
    return t;
}

/* ---- Parsing and evaluating ------------------------------------------------------------- */

/* A binding of a let: name to value, innermost last. */
typedef struct Bind {
    const char *name;
    ScriptVal *val;
} Bind;

typedef struct Parser {
    Script *s;
    const char *text;
    size_t pos;
    int depth;
    VEC(Bind) env;
} Parser;

static ScriptVal *expr(Parser *p);

static void skip(Parser *p) {
    for (;;) {
        while (isspace((unsigned char)p->text[p->pos])) p->pos++;
        if (p->text[p->pos] != '-' || p->text[p->pos + 1] != '-') return;
        while (p->text[p->pos] && p->text[p->pos] != '\n') p->pos++;
    }
}

static ScriptVal *syntax(Parser *p, const char *what) {
    if (p->s->error) return NULL; /* a part failed for its own reason, which stands */
    int line = 1, col = 1;
    for (size_t i = 0; i < p->pos; i++) p->text[i] == '\n' ? (line++, col = 1) : col++;
    fail(p->s, "expression:%d:%d: expected %s", line, col, what);
    return NULL;
}

static bool eat(Parser *p, const char *tok) {
    skip(p);
    size_t n = strlen(tok);
    if (strncmp(p->text + p->pos, tok, n)) return false;
    if (isalpha((unsigned char)tok[0]) && (isalnum((unsigned char)p->text[p->pos + n]) || p->text[p->pos + n] == '_'))
        return false;
    p->pos += n;
    return true;
}

static int id_char(int c) { return isalnum(c) || c == '_' || c == '\''; }

/* A name at the cursor (not a keyword), or NULL. */
static const char *name(Parser *p) {
    skip(p);
    size_t start = p->pos;
    if (!isalpha((unsigned char)p->text[start]) && p->text[start] != '_') return NULL;
    while (id_char((unsigned char)p->text[p->pos])) p->pos++;
    const char *n = arena_strndup(p->s->a, p->text + start, p->pos - start);
    if (!strcmp(n, "let") || !strcmp(n, "in") || !strcmp(n, "true") || !strcmp(n, "false") || !strcmp(n, "empty"))
        return p->pos = start, NULL;
    return n;
}

/* Whether a literal value may start at t. */
static bool literal_start(const char *t) {
    return isdigit((unsigned char)t[0]) || (t[0] == '-' && (isdigit((unsigned char)t[1]) || t[1] == 'f')) ||
           t[0] == '[' || !strncmp(t, "true", 4) || !strncmp(t, "false", 5) || !strncmp(t, "empty(", 6) ||
           !strncmp(t, "f32.", 4) || !strncmp(t, "f64.", 4);
}

/* A literal value at the cursor (a number, a boolean, an array of values,
 * empty(...)), as the value reader reads it; NULL if there is none. */
static ScriptVal *literal(Parser *p) {
    skip(p);
    const char *t = p->text + p->pos;
    if (!literal_start(t)) return NULL;
    rt_reader r = {(const unsigned char *)t, strlen(t), 0};
    rt_value v;
    char msg[SCRIPT_MSG_LEN];
    if (!rt_read_any(&r, &v, msg, sizeof msg)) return NULL;
    rt_value_free(&v);
    ScriptVal *l = new_val(p->s, SV_LIT);
    l->text = arena_strndup(p->s->a, t, r.pos);
    p->pos += r.pos;
    return l;
}

static ScriptVal *string(Parser *p) {
    size_t start = ++p->pos;
    while (p->text[p->pos] && p->text[p->pos] != '"') p->pos++;
    if (!p->text[p->pos]) return syntax(p, "the end of the string");
    ScriptVal *v = new_val(p->s, SV_STR);
    v->text = arena_strndup(p->s->a, p->text + start, p->pos++ - start);
    return v;
}

/* (e), (e, e, ...) or () */
static ScriptVal *parens(Parser *p) {
    VEC(ScriptVal *) xs = {0};
    if (!eat(p, ")")) {
        do {
            ScriptVal *x = expr(p);
            if (!x) return NULL;
            vec_push_in(p->s->a, &xs, x);
        } while (eat(p, ","));
        if (!eat(p, ")")) return syntax(p, "')' or ','");
    }
    if (xs.len == 1) return xs.items[0];
    ScriptVal *t = new_val(p->s, SV_TUPLE);
    t->n = xs.len, t->elems = xs.items;
    return t;
}

/* {x = e, ...} */
static ScriptVal *record(Parser *p) {
    ScriptVal *r = new_val(p->s, SV_RECORD);
    VEC(ScriptVal *) xs = {0};
    VEC(const char *) ns = {0};
    if (!eat(p, "}")) {
        do {
            const char *n = name(p);
            if (!n) return syntax(p, "a field name");
            if (!eat(p, "=")) return syntax(p, "'='");
            ScriptVal *x = expr(p);
            if (!x) return NULL;
            vec_push_in(p->s->a, &xs, x);
            vec_push_in(p->s->a, &ns, n);
        } while (eat(p, ","));
        if (!eat(p, "}")) return syntax(p, "'}' or ','");
    }
    r->n = xs.len, r->elems = xs.items, r->names = ns.items;
    return r;
}

static ScriptVal *lookup(Parser *p, const char *n) {
    for (int i = p->env.len - 1; i >= 0; i--)
        if (!strcmp(p->env.items[i].name, n)) return p->env.items[i].val;
    return NULL;
}

/* Field f of v: of a script record, or by `project` of a server record. */
static ScriptVal *field(Parser *p, ScriptVal *v, const char *f) {
    if (v->kind == SV_RECORD) {
        for (int i = 0; i < v->n; i++)
            if (!strcmp(v->names[i], f)) return v->elems[i];
        return fail(p->s, "the record has no field %s", f), NULL;
    }
    if (v->kind == SV_TUPLE && isdigit((unsigned char)f[0]) && atoi(f) < v->n) return v->elems[atoi(f)];
    return fail(p->s, "field %s of a value that is not a record", f), NULL;
}

static ScriptVal *apply(Parser *p, const char *fun, ScriptVal **args, int nargs);

/* An atom and its field projections; names alone are variables or
 * entry points of no arguments. */
static ScriptVal *atom(Parser *p) {
    skip(p);
    char c = p->text[p->pos];
    ScriptVal *v = literal(p);
    if (v) {
    } else if (c == '"') {
        v = string(p);
    } else if (eat(p, "(")) {
        v = parens(p);
    } else if (eat(p, "{")) {
        v = record(p);
    } else {
        const char *n = name(p);
        if (!n) return NULL;
        v = lookup(p, n);
        if (!v) v = apply(p, n, NULL, 0);
    }
    while (v && p->text[p->pos] == '.') {
        p->pos++;
        size_t start = p->pos;
        while (id_char((unsigned char)p->text[p->pos])) p->pos++;
        if (p->pos == start) return syntax(p, "a field name after '.'");
        v = field(p, v, arena_strndup(p->s->a, p->text + start, p->pos - start));
    }
    return v;
}

/* f a1 ... an: a builtin ($name), an entry point, or a let-bound name. */
static ScriptVal *application(Parser *p) {
    skip(p);
    size_t start = p->pos;
    bool builtin = p->text[p->pos] == '$';
    if (builtin) p->pos++;
    const char *f = builtin || !literal_start(p->text + p->pos) ? name(p) : NULL;
    if (!f || (!builtin && lookup(p, f))) {
        p->pos = start;
        ScriptVal *v = atom(p);
        return v ? v : syntax(p, "an expression");
    }
    if (builtin) f = arena_printf(p->s->a, "$%s", f);
    VEC(ScriptVal *) args = {0};
    for (;;) {
        size_t at = p->pos;
        skip(p);
        char c = p->text[p->pos];
        if (!c || c == ')' || c == ',' || c == '}' || c == ']' || eat(p, "in") || eat(p, "let")) {
            p->pos = at;
            break;
        }
        ScriptVal *a = atom(p);
        if (!a) return p->s->error ? NULL : syntax(p, "an argument");
        vec_push_in(p->s->a, &args, a);
    }
    return apply(p, f, args.items, args.len);
}

/* let x = e in e, or let (x, y, ...) = e in e */
static ScriptVal *let(Parser *p) {
    VEC(const char *) names = {0};
    bool tuple = eat(p, "(");
    do {
        const char *n = name(p);
        if (!n) return syntax(p, "a name");
        vec_push_in(p->s->a, &names, n);
    } while (tuple && eat(p, ","));
    if (tuple && !eat(p, ")")) return syntax(p, "')' or ','");
    if (!eat(p, "=")) return syntax(p, "'='");
    ScriptVal *v = expr(p);
    if (!v) return NULL;
    size_t at = p->pos;
    if (eat(p, "let")) p->pos = at; /* a chain of lets shares one "in" */
    else if (!eat(p, "in")) return syntax(p, "'in'");
    if (tuple && (v->kind != SV_TUPLE || v->n != names.len))
        return fail(p->s, "a tuple of %d values cannot be bound to %d names", v->kind == SV_TUPLE ? v->n : 1,
                    names.len), NULL;
    int mark = p->env.len;
    for (int i = 0; i < names.len; i++) {
        Bind b = {names.items[i], tuple ? v->elems[i] : v};
        vec_push(&p->env, b);
    }
    ScriptVal *body = expr(p);
    p->env.len = mark;
    return body;
}

static ScriptVal *expr(Parser *p) {
    if (++p->depth > SCRIPT_MAX_DEPTH) return fail(p->s, "the expression is nested too deeply"), NULL;
    ScriptVal *v = eat(p, "let") ? let(p) : application(p);
    p->depth--;
    return v;
}

/* ---- Application ------------------------------------------------------------------------- */

/* Adds v's server variables to c (literals restored with the types
 * *types); false when v has no server form. */
static bool put_args(Script *s, ScriptVal *v, const char **types, int ntypes, int *k, Buf *c) {
    if (v->kind == SV_TUPLE || v->kind == SV_RECORD) {
        /* a record's fields in the order of their names, as entry points
         * take them */
        bool *done = NEW_ARRAY(s->a, bool, v->n + 1);
        for (int i = 0; i < v->n; i++) {
            int next = -1;
            for (int j = 0; j < v->n; j++)
                if (!done[j] && (next < 0 || (v->kind == SV_RECORD && strcmp(v->names[j], v->names[next]) < 0)))
                    next = j;
            done[next] = true;
            if (!put_args(s, v->elems[next], types, ntypes, k, c)) return false;
        }
        return true;
    }
    if (*k >= ntypes) return (*k)++, true; /* counted; the caller reports it */
    if (v->kind == SV_LIT && !(v = lit_to_var(s, v, types[*k]))) return false;
    if (v->kind != SV_VAR) return fail(s, "a string cannot be passed to an entry point");
    buf_printf(c, " %s", v->var);
    (*k)++;
    return true;
}

static const char *str_arg(Script *s, ScriptVal **args, int nargs, int i, const char *f) {
    if (i < nargs && args[i]->kind == SV_STR) return args[i]->text;
    fail(s, "%s expects a string as argument %d", f, i + 1);
    return NULL;
}

/* A file name of a builtin, relative to the script's directory. */
static const char *builtin_path(Script *s, const char *f) {
    return f[0] == '/' || !s->dir ? f : arena_printf(s->a, "%s/%s", s->dir, f);
}

static ScriptVal *builtin(Script *s, const char *f, ScriptVal **args, int nargs) {
    const char *file = str_arg(s, args, nargs, 0, f);
    if (!file) return NULL;
    if (!strcmp(f, "$loaddata") || !strcmp(f, "$loadbytes")) return load_data(s, builtin_path(s, file), f[5] == 'b');
    if (!strcmp(f, "$store") && nargs == 2) {
        const char *path = builtin_path(s, file);
        FILE *out = fopen(path, "wb");
        if (!out) return fail(s, "$store: cannot write %s: %s", path, strerror(errno)), NULL;
        bool ok = script_write(s, args[1], out, true);
        if (fclose(out) != 0 && ok) ok = fail(s, "$store: cannot write %s", path);
        return ok ? new_val(s, SV_TUPLE) : NULL;
    }
    if (!strcmp(f, "$restore") && nargs == 2) {
        const char *path = str_arg(s, args, nargs, 1, f);
        ScriptVal *v = new_val(s, SV_VAR);
        v->var = fresh_var(s), v->type = file;
        return path && cmd(s, NULL, "restore %s %s %s", builtin_path(s, path), v->var, file) ? v : NULL;
    }
    return fail(s, "unknown builtin %s (or wrong arguments); there are $loaddata, $loadbytes, $store and $restore", f),
           NULL;
}

/* The value of type t made of the server's outputs vars[*k...]: tuples and
 * records as t has them (a record's fields come in the order of their
 * names); NULL for a type whose outputs are not known. */
static ScriptVal *shape(Script *s, const Ty *t, ScriptVal **vars, int n, int *k) {
    if (t->kind == TY_PRIM || t->kind == TY_ARRAY) return *k < n ? vars[(*k)++] : NULL;
    if (t->kind != TY_TUPLE && t->kind != TY_RECORD) return NULL;
    ScriptVal *v = new_val(s, t->kind == TY_TUPLE ? SV_TUPLE : SV_RECORD);
    v->n = t->n;
    v->elems = NEW_ARRAY(s->a, ScriptVal *, t->n + 1);
    if (t->kind == TY_RECORD) v->names = NEW_ARRAY(s->a, const char *, t->n + 1);
    for (int i = 0; i < t->n; i++) {
        if (!(v->elems[i] = shape(s, t->kind == TY_TUPLE ? t->elems[i] : t->fields[i].ty, vars, n, k))) return NULL;
        if (t->kind == TY_RECORD) v->names[i] = t->fields[i].name;
    }
    return v;
}

/* The result of entry f from its outputs: as declared when known. */
static ScriptVal *result(Script *s, const char *f, ScriptVal **vars, int n) {
    for (int i = 0; i < s->nentries; i++) {
        int k = 0;
        ScriptVal *v = strcmp(s->entry_names[i], f) ? NULL : shape(s, s->entry_results[i], vars, n, &k);
        if (v && k == n) return v;
    }
    if (n == 1) return vars[0];
    ScriptVal *t = new_val(s, SV_TUPLE);
    t->n = n, t->elems = vars;
    return t;
}

static ScriptVal *apply(Parser *p, const char *f, ScriptVal **args, int nargs) {
    Script *s = p->s;
    if (f[0] == '$') return builtin(s, f, args, nargs);
    Buf in = {0}, out = {0};
    const char **ins, **outs;
    if (!cmd(s, &in, "inputs %s", f) || !cmd(s, &out, "outputs %s", f))
        return buf_free(&in), buf_free(&out), NULL;
    int nin = lines(s, &in, &ins), nout = lines(s, &out, &outs);
    buf_free(&in), buf_free(&out);
    Buf c = {0};
    int k = 0;
    ScriptVal *value = NULL;
    VEC(ScriptVal *) vars = {0};
    buf_printf(&c, "call %s", f);
    for (int i = 0; i < nout; i++) {
        ScriptVal *v = new_val(s, SV_VAR);
        v->var = fresh_var(s), v->type = outs[i];
        vec_push_in(s->a, &vars, v);
        buf_printf(&c, " %s", v->var);
    }
    bool ok = true;
    for (int i = 0; ok && i < nargs; i++) ok = put_args(s, args[i], ins, nin, &k, &c);
    if (ok && k != nin)
        ok = fail(s, "%s takes %d argument%s, but %d %s given", f, nin, nin == 1 ? "" : "s", k,
                  k == 1 ? "was" : "were");
    if (ok && cmd(s, NULL, "%s", c.data)) value = result(s, f, vars.items, nout);
    buf_free(&c);
    return value;
}

ScriptVal *script_eval(Script *s, const char *text) {
    Parser p = {s, text, 0, 0, {0}};
    s->error = NULL;
    ScriptVal *v = expr(&p);
    skip(&p);
    if (v && text[p.pos]) v = syntax(&p, "the end of the expression");
    vec_free(&p.env);
    return v;
}

/* ---- Output --------------------------------------------------------------------------- */

int script_components(const ScriptVal *v, const char *const **names, ScriptVal *const **elems) {
    if (v->kind != SV_TUPLE && v->kind != SV_RECORD) return -1;
    *names = v->kind == SV_RECORD ? v->names : NULL;
    *elems = v->elems;
    return v->n;
}

bool script_fetch(Script *s, const ScriptVal *v, rt_value *val) {
    if (v->kind == SV_LIT) {
        rt_reader r = {(const unsigned char *)v->text, strlen(v->text), 0};
        char msg[SCRIPT_MSG_LEN];
        return rt_read_any(&r, val, msg, sizeof msg) || fail(s, "%s: %s", v->text, msg);
    }
    const char *file = spec_tmp(s->work, "store");
    if (!cmd(s, NULL, "store %s %s", file, v->var)) return false;
    size_t len;
    const char *why = NULL;
    char *data = spec_load(s->work, file, &len, &why);
    unlink(file);
    if (!data) return fail(s, "%s", why);
    rt_reader r = {(const unsigned char *)data, len, 0};
    char msg[SCRIPT_MSG_LEN];
    bool ok = rt_read_any(&r, val, msg, sizeof msg) || fail(s, "reading %s back: %s", v->var, msg);
    free(data);
    return ok;
}

bool script_write(Script *s, const ScriptVal *v, FILE *f, bool binary) {
    switch (v->kind) {
    case SV_STR:
        if (binary) return fail(s, "a string has no binary form");
        fprintf(f, "\"%s\"", v->text);
        return true;
    case SV_TUPLE:
    case SV_RECORD:
        if (binary && v->kind == SV_RECORD) return fail(s, "a record has no binary form");
        if (!binary) fputc(v->kind == SV_TUPLE ? '(' : '{', f);
        for (int i = 0; i < v->n; i++) {
            if (!binary && i) fputs(", ", f);
            if (!binary && v->kind == SV_RECORD) fprintf(f, "%s=", v->names[i]);
            if (!script_write(s, v->elems[i], f, binary)) return false;
        }
        if (!binary) fputc(v->kind == SV_TUPLE ? ')' : '}', f);
        return true;
    default: {
        rt_value val;
        if (!script_fetch(s, v, &val)) return false;
        binary ? rt_write_binary(f, &val) : rt_write_text(f, &val);
        rt_value_free(&val);
        return true;
    }
    }
}

/* ---- futhorc script ------------------------------------------------------------------------ */

typedef VEC(char *) Args;

static int usage_error(const char *msg, const char *arg) {
    fprintf(stderr, "futhorc script: %s%s%s\nusage: futhorc script [options] PROGRAM [EXPRESSION]\n", msg,
            arg ? " " : "", arg ? arg : "");
    return 1;
}

static void script_usage(void) {
    printf("usage: futhorc script [options] PROGRAM [EXPRESSION]\n\n"
           "Evaluates FutharkScript expressions with the entry points of PROGRAM (a .fut\n"
           "file, compiled first, or a compiled program, run with --server) and prints the\n"
           "value of the last one.\n\n"
           "  -e, --expression=EXP        evaluate EXP (in order with -f)\n"
           "  -f, --file=FILE             evaluate the expression in FILE\n"
           "  -b, --binary                print the value in the binary data format\n"
           "  --backend=NAME              compile with c (default), opencl or multicore\n"
           "  --pass-option=OPT           give OPT to the program\n"
           "  --pass-compiler-option=OPT  give OPT to the compiler\n"
           "  -C, --directory=DIR         read the files of $loaddata ... relative to DIR\n"
           "  -v, --verbose               print the server commands on stderr\n"
           "See futhorc-script(1).\n");
}

const char *script_compile(Arena *a, SpecWork *w, const char *futhorc, const char *backend, char *const *copts,
                           int ncopts, const char *prog) {
    const char *exe = spec_tmp(w, "prog"), *out = spec_tmp(w, "cout"), *err = spec_tmp(w, "cerr");
    char **argv = NEW_ARRAY(a, char *, ncopts + 6);
    int n = 0;
    argv[n++] = (char *)futhorc, argv[n++] = (char *)backend;
    for (int i = 0; i < ncopts; i++) argv[n++] = copts[i];
    argv[n++] = (char *)prog, argv[n++] = "-o", argv[n++] = (char *)exe;
    int status = 0;
    pid_t pid = spec_spawn(argv, NULL, out, err);
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) return exe;
    char *msg = util_read_file(err, NULL);
    fprintf(stderr, "futhorc: compiling %s failed:\n%s", prog, msg ? msg : "");
    free(msg);
    return NULL;
}

void script_entry_types(Script *s, const char *prog, char *const *copts, int ncopts) {
    VEC(const char *) extra = {0};
    for (int i = 0; i < ncopts; i++)
        if (!strncmp(copts[i], "--entry-point=", 14)) vec_push(&extra, copts[i] + 14);
    ProgramVec files = frontend_load_text(s->a, prog, NULL, 0, extra.items, extra.len);
    vec_free(&extra);
    if (files.len == 0) return;
    Program *main = files.items[files.len - 1];
    s->entry_names = NEW_ARRAY(s->a, const char *, main->ndecls + 1);
    s->entry_results = NEW_ARRAY(s->a, Ty *, main->ndecls + 1);
    for (int i = 0; i < main->ndecls; i++) {
        Decl *d = main->decls[i];
        if (d->kind != D_VAL || !d->ret_ty || !(d->is_entry || !strcmp(d->name, "main"))) continue;
        s->entry_names[s->nentries] = d->name;
        s->entry_results[s->nentries++] = d->ret_ty;
    }
    vec_free(&files);
}

int tool_script(int argc, char **argv, const char *futhorc_path) {
    Arena a = {0};
    Args exps = {0}, copts = {0}, popts = {0};
    const char *prog = NULL, *backend = "c", *dir = NULL, *v;
    bool binary = false, verbose = false;
    int rc = 0;
    for (int i = 1; i < argc && !rc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return script_usage(), 0;
        if (!strcmp(argv[i], "-b") || !strcmp(argv[i], "--binary")) binary = true;
        else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) verbose = true;
        else if ((v = spec_optval(argc, argv, &i, "--expression")) || (v = spec_optval(argc, argv, &i, "-e")))
            vec_push(&exps, (char *)v);
        else if ((v = spec_optval(argc, argv, &i, "--file")) || (v = spec_optval(argc, argv, &i, "-f"))) {
            char *text = util_read_file(v, NULL);
            if (!text) rc = usage_error("cannot read", v);
            else {
                vec_push(&exps, arena_strdup(&a, text));
                free(text);
            }
        } else if ((v = spec_optval(argc, argv, &i, "--backend"))) backend = v;
        else if ((v = spec_optval(argc, argv, &i, "--pass-option"))) vec_push(&popts, (char *)v);
        else if ((v = spec_optval(argc, argv, &i, "--pass-compiler-option"))) vec_push(&copts, (char *)v);
        else if ((v = spec_optval(argc, argv, &i, "--directory")) || (v = spec_optval(argc, argv, &i, "-C"))) dir = v;
        else if (argv[i][0] == '-' && argv[i][1]) rc = usage_error("unknown option", argv[i]);
        else if (!prog) prog = argv[i];
        else vec_push(&exps, argv[i]);
    }
    if (!rc && !prog) rc = usage_error("no program given", NULL);
    if (!rc && exps.len == 0) rc = usage_error("no expression given", NULL);
    if (!rc && !spec_backend_known(backend)) rc = usage_error("unknown backend", backend);
    SpecWork w = {0};
    if (!rc && !spec_work_init(&w, &a, "script")) rc = 1;
    const char *exe = NULL;
    size_t n = prog ? strlen(prog) : 0;
    if (!rc) exe = n > 4 && !strcmp(prog + n - 4, ".fut") ? script_compile(&a, &w, futhorc_path, backend, copts.items, copts.len, prog)
                                                     : prog;
    if (!rc && !exe) rc = 1;
    Script s = {&a, &w, dir, 0, NULL, NULL, 0, verbose, NULL, 0, NULL, NULL};
    if (!rc && exe != prog) script_entry_types(&s, prog, copts.items, copts.len);
    vec_push(&popts, NULL);
    if (!rc && !script_start(&s, exe, popts.items)) rc = 1;
    ScriptVal *val = NULL;
    for (int i = 0; !rc && i < exps.len; i++)
        if (!(val = script_eval(&s, exps.items[i]))) rc = 1;
    if (!rc && !script_write(&s, val, stdout, binary)) rc = 1;
    if (!rc && !binary) putchar('\n');
    if (rc && s.error) fprintf(stderr, "futhorc script: %s\n", s.error);
    script_stop(&s);
    if (w.tmpdir) spec_work_free(&w);
    vec_free(&exps), vec_free(&copts), vec_free(&popts);
    arena_free(&a);
    return rc;
}
