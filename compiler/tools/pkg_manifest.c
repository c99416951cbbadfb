/* Semantic versions, futhark.pkg manifests and minimal version selection,
 * as Futhark's package manager defines them (futhorc-pkg(1)). */
#include "tools/pkg_manifest.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

/* ---- Versions ---------------------------------------------------------------- */

/* A number without leading zeros (as Futhark reads them) at *s. */
static bool parse_num(const char **s, unsigned long *n) {
    const char *p = *s;
    if (!isdigit((unsigned char)*p) || (p[0] == '0' && isdigit((unsigned char)p[1]))) return false;
    char *end;
    errno = 0;
    *n = strtoul(p, &end, 10);
    if (errno) return false;
    *s = end;
    return true;
}

/* The longest prefix of s whose characters satisfy ok; NULL if empty. */
static const char *span(Arena *a, const char **s, int (*ok)(int)) {
    const char *p = *s;
    while (ok((unsigned char)*p)) p++;
    if (p == *s) return NULL;
    const char *r = arena_strndup(a, *s, (size_t)(p - *s));
    *s = p;
    return r;
}

/* A version at *s, which is left after it. */
static bool version_at(Arena *a, const char **s, PkgVersion *v) {
    memset(v, 0, sizeof *v);
    const char *p = *s;
    if (!parse_num(&p, &v->major) || *p++ != '.' || !parse_num(&p, &v->minor) || *p++ != '.' ||
        !parse_num(&p, &v->patch))
        return false;
    if (*p == '-' && (p++, !(v->pre = span(a, &p, isdigit)))) return false;
    if (*p == '+' && (p++, !(v->meta = span(a, &p, isalnum)))) return false;
    *s = p;
    return true;
}

bool pkg_version_parse(Arena *a, const char *s, PkgVersion *v) { return version_at(a, &s, v) && !*s; }

static int cmp_ul(unsigned long a, unsigned long b) { return (a > b) - (a < b); }

/* Digit strings compare as numbers: the longer one is larger. */
static int cmp_digits(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    return la != lb ? cmp_ul(la, lb) : strcmp(a, b);
}

int pkg_version_cmp(const PkgVersion *a, const PkgVersion *b) {
    int c = cmp_ul(a->major, b->major);
    if (!c) c = cmp_ul(a->minor, b->minor);
    if (!c) c = cmp_ul(a->patch, b->patch);
    if (!c && (a->pre || b->pre)) c = !a->pre ? 1 : !b->pre ? -1 : cmp_digits(a->pre, b->pre);
    /* Metadata does not order versions; it only keeps two commits of the
     * same second apart. */
    if (!c && (a->meta || b->meta)) c = !a->meta ? -1 : !b->meta ? 1 : strcmp(a->meta, b->meta);
    return c;
}

const char *pkg_version_str(Arena *a, const PkgVersion *v) {
    return arena_printf(a, "%lu.%lu.%lu%s%s%s%s", v->major, v->minor, v->patch, v->pre ? "-" : "",
                        v->pre ? v->pre : "", v->meta ? "+" : "", v->meta ? v->meta : "");
}

const char *pkg_version_commit(const PkgVersion *v) {
    return !v->major && !v->minor && !v->patch && v->pre && v->meta ? v->meta : NULL;
}

/* ---- Parsing futhark.pkg ------------------------------------------------------- */

typedef struct Cursor {
    Arena *a;
    const char *file, *p;
    int line, col;
} Cursor;

static void advance(Cursor *c) {
    if (*c->p == '\n') c->line++, c->col = 1;
    else c->col++;
    c->p++;
}

static void skip_space(Cursor *c, bool newlines) {
    while (*c->p == ' ' || *c->p == '\t' || *c->p == '\r' || (newlines && isspace((unsigned char)*c->p)))
        advance(c);
}

static bool fail(Cursor *c, const char *what) {
    SrcLoc l = {c->file, c->line, c->col, c->line, c->col + 1};
    diag_error(l, "expected %s", what);
    return false;
}

/* A comment at the cursor: its text after "--" to the end of the line. */
static const char *comment(Cursor *c) {
    if (c->p[0] != '-' || c->p[1] != '-') return NULL;
    advance(c), advance(c);
    const char *start = c->p;
    while (*c->p && *c->p != '\n') advance(c);
    size_t n = (size_t)(c->p - start);
    if (n && start[n - 1] == '\r') n--;
    const char *text = arena_strndup(c->a, start, n);
    skip_space(c, true);
    return text;
}

static void comments(Cursor *c, PkgComments *out) {
    skip_space(c, true);
    for (const char *t; (t = comment(c));) vec_push_in(c->a, out, t);
}

/* A keyword at the cursor, followed by a character that cannot continue it. */
static bool keyword(Cursor *c, const char *kw) {
    size_t n = strlen(kw);
    if (strncmp(c->p, kw, n) || isalnum((unsigned char)c->p[n])) return false;
    for (size_t i = 0; i < n; i++) advance(c);
    skip_space(c, true);
    return true;
}

static int path_char(int ch) { return isalnum(ch) || (ch && strchr("@-/.:_~", ch)); }

static const char *word(Cursor *c, int (*ok)(int)) {
    const char *start = c->p;
    while (ok((unsigned char)*c->p)) advance(c);
    return c->p == start ? NULL : arena_strndup(c->a, start, (size_t)(c->p - start));
}

/* "PATH VERSION [#HASH]" on one line. */
static bool requirement(Cursor *c, PkgReq *r) {
    memset(r, 0, sizeof *r);
    if (!(r->path = word(c, path_char))) return fail(c, "a package path, a comment or '}'");
    skip_space(c, false);
    const char *p = c->p;
    if (!version_at(c->a, &p, &r->ver) || path_char((unsigned char)*p))
        return fail(c, "a version X.Y.Z after the package path");
    while (c->p < p) advance(c);
    skip_space(c, false);
    if (*c->p == '#') {
        advance(c);
        if (!(r->hash = word(c, isalnum))) return fail(c, "a commit hash after '#'");
        skip_space(c, false);
    }
    if (*c->p && *c->p != '\n' && *c->p != '}' && !(c->p[0] == '-' && c->p[1] == '-'))
        return fail(c, "the end of the line after the requirement");
    skip_space(c, true);
    return true;
}

static bool require_block(Cursor *c, PkgManifest *m) {
    if (*c->p != '{') return fail(c, "'{' after 'require'");
    advance(c);
    skip_space(c, true);
    while (*c->p != '}') {
        PkgItem it = {0};
        int line = c->line, col = c->col;
        if (!(it.comment = comment(c))) {
            if (!requirement(c, &it.req)) return false;
            if (pkg_manifest_find(m, it.req.path)) {
                SrcLoc l = {c->file, line, col, line, col + (int)strlen(it.req.path)};
                diag_error(l, "package %s is required twice", it.req.path);
                return false;
            }
        }
        vec_push_in(m->arena, &m->items, it);
    }
    advance(c);
    return true;
}

bool pkg_manifest_parse(Arena *a, const char *file, const char *text, PkgManifest *m) {
    memset(m, 0, sizeof *m);
    m->arena = a;
    diag_register_source(file, text);
    Cursor c = {a, file, text, 1, 1};
    comments(&c, &m->before_package);
    if (keyword(&c, "package") && !(m->package = word(&c, path_char))) return fail(&c, "a package path");
    comments(&c, &m->before_require);
    if (keyword(&c, "require") && !require_block(&c, m)) return false;
    comments(&c, &m->after);
    return *c.p ? fail(&c, m->items.len ? "a comment or the end of the file" : "'package', 'require' or a comment")
                : true;
}

/* ---- Printing and editing ----------------------------------------------------------- */

static void print_comments(const PkgComments *cs, Buf *out) {
    for (int i = 0; i < cs->len; i++) buf_printf(out, "--%s\n", cs->items[i]);
}

void pkg_manifest_print(const PkgManifest *m, Buf *out) {
    Arena a = {0};
    print_comments(&m->before_package, out);
    if (m->package) buf_printf(out, "package %s\n\n", m->package);
    print_comments(&m->before_require, out);
    buf_puts(out, "require {\n");
    for (int i = 0; i < m->items.len; i++) {
        const PkgItem *it = &m->items.items[i];
        if (it->comment) buf_printf(out, "  --%s\n", it->comment);
        else
            buf_printf(out, "  %s %s%s%s\n", it->req.path, pkg_version_str(&a, &it->req.ver),
                       it->req.hash ? " #" : "", it->req.hash ? it->req.hash : "");
    }
    buf_puts(out, "}\n");
    print_comments(&m->after, out);
    arena_free(&a);
}

PkgReq *pkg_manifest_find(PkgManifest *m, const char *path) {
    for (int i = 0; i < m->items.len; i++)
        if (!m->items.items[i].comment && !strcmp(m->items.items[i].req.path, path)) return &m->items.items[i].req;
    return NULL;
}

bool pkg_manifest_require(PkgManifest *m, const PkgReq *r, PkgReq *old) {
    PkgReq *cur = pkg_manifest_find(m, r->path);
    if (cur) {
        if (old) *old = *cur;
        *cur = *r;
        return true;
    }
    PkgItem it = {.req = *r};
    vec_push_in(m->arena, &m->items, it);
    return false;
}

static const char SOURCE_TAG[] = " futhorc-source: ";

/* The location of a source comment for path, or NULL if c is not one. */
static const char *source_of(const char *c, const char *path) {
    size_t t = sizeof SOURCE_TAG - 1, n = strlen(path);
    if (!c || strncmp(c, SOURCE_TAG, t) || strncmp(c + t, path, n) || c[t + n] != ' ') return NULL;
    return c + t + n + 1;
}

/* Drops path's source lines, and its requirement too if reqs. */
static void remove_items(PkgManifest *m, const char *path, bool reqs) {
    int k = 0;
    for (int i = 0; i < m->items.len; i++) {
        const PkgItem *it = &m->items.items[i];
        bool is_req = !it->comment && !strcmp(it->req.path, path);
        if (!source_of(it->comment, path) && !(reqs && is_req)) m->items.items[k++] = *it;
    }
    m->items.len = k;
}

bool pkg_manifest_remove(PkgManifest *m, const char *path, PkgReq *old) {
    PkgReq *cur = pkg_manifest_find(m, path);
    if (!cur) return false;
    if (old) *old = *cur;
    remove_items(m, path, true);
    return true;
}

void pkg_manifest_reqs(const PkgManifest *m, PkgReqs *out) {
    for (int i = 0; i < m->items.len; i++)
        if (!m->items.items[i].comment) vec_push_in(m->arena, out, m->items.items[i].req);
}

const char *pkg_manifest_source(const PkgManifest *m, const char *path) {
    for (int i = 0; i < m->items.len; i++) {
        const char *s = source_of(m->items.items[i].comment, path);
        if (s) return s;
    }
    return NULL;
}

void pkg_manifest_set_source(PkgManifest *m, const char *path, const char *location) {
    remove_items(m, path, false);
    PkgItem src = {.comment = arena_printf(m->arena, "%s%s %s", SOURCE_TAG, path, location)};
    int at = m->items.len;
    for (int i = 0; i < m->items.len; i++)
        if (!m->items.items[i].comment && !strcmp(m->items.items[i].req.path, path)) at = i;
    vec_push_in(m->arena, &m->items, src);
    memmove(&m->items.items[at + 1], &m->items.items[at], sizeof(PkgItem) * (size_t)(m->items.len - 1 - at));
    m->items.items[at] = src;
}

/* ---- Minimal version selection -------------------------------------------------------- */

/* A package chosen so far: its version and the paths it requires. */
typedef struct Chosen {
    PkgReq req;
    PkgReqs deps;
    bool reached;
} Chosen;
typedef VEC(Chosen) ChosenList;

static Chosen *chosen_find(ChosenList *l, const char *path) {
    for (int i = 0; i < l->len; i++)
        if (!strcmp(l->items[i].req.path, path)) return &l->items[i];
    return NULL;
}

typedef struct Solver {
    Arena *a;
    PkgGetDeps get_deps;
    void *ctx;
    ChosenList chosen;
} Solver;

/* Raises r's package to r's version if that is newer than the version
 * chosen so far, and then its own requirements (Futhark's doSolveDeps). */
static bool add_req(Solver *s, const PkgReq *r) {
    Chosen *c = chosen_find(&s->chosen, r->path);
    if (c && pkg_version_cmp(&r->ver, &c->req.ver) <= 0) return true;
    PkgReqs deps = {0};
    if (!s->get_deps(s->ctx, r, &deps)) return false;
    c = chosen_find(&s->chosen, r->path);
    if (!c) {
        Chosen fresh = {0};
        vec_push_in(s->a, &s->chosen, fresh);
        c = &s->chosen.items[s->chosen.len - 1];
    }
    c->req = *r;
    c->deps = deps;
    for (int i = 0; i < deps.len; i++)
        if (!add_req(s, &deps.items[i])) return false;
    return true;
}

/* Marks what the chosen versions reach from path. */
static void reach(ChosenList *l, const char *path) {
    Chosen *c = chosen_find(l, path);
    if (!c || c->reached) return;
    c->reached = true;
    for (int i = 0; i < c->deps.len; i++) reach(l, c->deps.items[i].path);
}

static int cmp_req_path(const void *x, const void *y) {
    return strcmp(((const PkgReq *)x)->path, ((const PkgReq *)y)->path);
}

bool pkg_solve(Arena *a, const PkgReqs *roots, PkgGetDeps get_deps, void *ctx, PkgReqs *build_list) {
    Solver s = {a, get_deps, ctx, {0}};
    PkgReqs sorted = {0};
    for (int i = 0; i < roots->len; i++) vec_push_in(a, &sorted, roots->items[i]);
    util_sort(sorted.items, (size_t)sorted.len, sizeof(PkgReq), cmp_req_path);
    for (int i = 0; i < sorted.len; i++)
        if (!add_req(&s, &sorted.items[i])) return false;
    for (int i = 0; i < sorted.len; i++) reach(&s.chosen, sorted.items[i].path);
    for (int i = 0; i < s.chosen.len; i++)
        if (s.chosen.items[i].reached) vec_push_in(a, build_list, s.chosen.items[i].req);
    util_sort(build_list->items, (size_t)build_list->len, sizeof(PkgReq), cmp_req_path);
    return true;
}
