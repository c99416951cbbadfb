/* `futhorc doc DIR -o OUT`: HTML documentation of the .fut files under DIR
 * and the files they import (Futhark's futhark-doc(1)): a page per file
 * with its abstract (a leading "-- |" comment followed by a blank line),
 * a synopsis and each public declaration with its doc comment (a Markdown
 * subset: paragraphs, headings, lists, code blocks, `code`, *emphasis*,
 * **strong**, `name`@term|type|mtype links); values are shown with their checked
 * types, types and module types as written; a module's own declarations
 * are documented under it. An index of the files and one of every name.
 * Files whose abstract is "ignore" are left out. */
#include "tools/doc.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "check/check.h"
#include "tools/frontend.h"
#include "tools/spec.h"
#include "util/embedded.h"

/* A name documented somewhere: its namespace, qualified name and page. */
typedef struct Entry {
    const char *ns, *name, *page, *file;
} Entry;

typedef struct Doc {
    Arena *a;
    const char *dir, *out;
    VEC(Entry) names;
    bool verbose;
} Doc;

static bool doc_error(const char *fmt, const char *arg) {
    fprintf(stderr, "futhorc doc: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    return false;
}

/* ---- HTML text ------------------------------------------------------------------------------ */

static void esc_n(Buf *b, const char *s, size_t n) {
    for (size_t i = 0; i < n && s[i]; i++) {
        char c = s[i];
        if (c == '<') buf_puts(b, "&lt;");
        else if (c == '>') buf_puts(b, "&gt;");
        else if (c == '&') buf_puts(b, "&amp;");
        else if (c == '"') buf_puts(b, "&quot;");
        else buf_putc(b, c);
    }
}

static void esc(Buf *b, const char *s) { esc_n(b, s, (size_t)-1); }

/* The page (relative to the output directory) of a source file under the
 * directory. */
static const char *page_of(Doc *d, const char *file) {
    const char *rel = file + strlen(d->dir) + 1;
    return arena_printf(d->a, "%.*s.html", (int)(strlen(rel) - 4), rel);
}

/* "../" for each directory of page, to reach the output directory. */
static const char *up(Doc *d, const char *page) {
    const char *r = "";
    for (const char *s = page; *s; s++)
        if (*s == '/') r = arena_printf(d->a, "%s../", r);
    return r;
}

static const Entry *find(Doc *d, const char *ns, const char *name) {
    for (int i = 0; i < d->names.len; i++)
        if (!strcmp(d->names.items[i].name, name) && !strcmp(d->names.items[i].ns, ns)) return &d->names.items[i];
    return NULL;
}

/* Inline Markdown of one paragraph's text: `code` (a link for `x`@ns),
 * **strong**, *emphasis*. */
static void inline_md(Doc *d, Buf *b, const char *s, const char *page) {
    while (*s) {
        const char *close;
        if (*s == '`' && (close = strchr(s + 1, '`'))) {
            const char *name = arena_strndup(d->a, s + 1, (size_t)(close - s - 1));
            const char *ns = NULL;
            const char *next = close + 1;
            static const char *const spaces[] = {"term", "type", "mtype"};
            for (int k = 0; k < 3 && *next == '@'; k++) {
                size_t len = strlen(spaces[k]);
                if (!strncmp(next + 1, spaces[k], len) && !isalnum((unsigned char)next[1 + len]))
                    ns = spaces[k], next += 1 + len;
            }
            const Entry *e = ns ? find(d, ns, name) : NULL;
            if (e) buf_printf(b, "<a href=\"%s%s#%s:%s\">", up(d, page), e->page, e->ns, e->name);
            buf_puts(b, "<code>");
            esc(b, name);
            buf_puts(b, e ? "</code></a>" : "</code>");
            s = next;
        } else if (s[0] == '*' && s[1] == '*' && (close = strstr(s + 2, "**"))) {
            buf_puts(b, "<strong>");
            esc_n(b, s + 2, (size_t)(close - s - 2));
            buf_puts(b, "</strong>");
            s = close + 2;
        } else if (*s == '*' && s[1] != ' ' && (close = strchr(s + 1, '*'))) {
            buf_puts(b, "<em>");
            esc_n(b, s + 1, (size_t)(close - s - 1));
            buf_puts(b, "</em>");
            s = close + 1;
        } else {
            esc_n(b, s++, 1);
        }
    }
}

/* Ends the paragraph or list item being gathered. */
static void flush(Doc *d, Buf *b, Buf *para, bool item, const char *page) {
    if (!para->len) return;
    buf_puts(b, item ? "<li>" : "<p>");
    inline_md(d, b, para->data, page);
    buf_puts(b, item ? "</li>\n" : "</p>\n");
    para->len = 0;
    para->data[0] = 0;
}

/* A doc comment as HTML: paragraphs, "# " headings, "- " lists, code
 * blocks (indented by four spaces, or fenced with ```). */
static void markdown(Doc *d, Buf *b, const char *text, const char *page) {
    Buf para = {0};
    bool list = false, pre = false, fenced = false;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        const char *l = arena_strndup(d->a, p, nl ? (size_t)(nl - p) : strlen(p));
        p = nl ? nl + 1 : p + strlen(p);
        bool blank = strspn(l, " \t") == strlen(l), indented = !strncmp(l, "    ", 4);
        if (pre && (fenced ? !strncmp(l, "```", 3) : !indented)) {
            buf_puts(b, "</pre>\n");
            pre = false;
            if (fenced) continue;
        }
        if (pre) {
            esc(b, fenced ? l : l + 4), buf_putc(b, '\n');
            continue;
        }
        bool item = !strncmp(l, "- ", 2) || !strncmp(l, "* ", 2);
        bool fence = !strncmp(l, "```", 3), code = fence || (indented && !para.len);
        size_t hashes = strspn(l, "#");
        bool heading = hashes > 0 && hashes <= 4 && l[hashes] == ' ';
        if (blank || item || code || heading) flush(d, b, &para, list, page);
        if (list && (blank || code || heading)) buf_puts(b, "</ul>\n"), list = false;
        if (heading) { /* # and ## under the page's own h1 and h2 */
            buf_printf(b, "<h%zu>", hashes + 2);
            inline_md(d, b, l + hashes + 1, page);
            buf_printf(b, "</h%zu>\n", hashes + 2);
        } else if (code) {
            buf_puts(b, "<pre>");
            pre = true, fenced = fence;
            if (!fence) esc(b, l + 4), buf_putc(b, '\n');
        } else if (item) {
            if (!list) buf_puts(b, "<ul>\n"), list = true;
            buf_puts(&para, l + 2);
        } else if (!blank) {
            buf_printf(&para, "%s%s", para.len ? " " : "", l);
        }
    }
    flush(d, b, &para, list, page);
    if (list) buf_puts(b, "</ul>\n");
    if (pre) buf_puts(b, "</pre>\n");
    buf_free(&para);
}

/* ---- Declarations ------------------------------------------------------------------------------ */

static const char *namespace_of(const Decl *dc) {
    return dc->kind == D_TYPE ? "type" : dc->kind == D_MODTYPE ? "mtype" : "term";
}

static bool documented(const Decl *dc) {
    return !dc->is_local && dc->name &&
           (dc->kind == D_VAL || dc->kind == D_TYPE || dc->kind == D_MODTYPE || dc->kind == D_MODULE);
}

/* The declaration as the AST printer writes it, without its doc comment. */
static const char *printed(Doc *d, Decl *dc) {
    Program one = {0};
    one.decls = &dc;
    one.ndecls = 1;
    Buf b = {0};
    ast_print_program(&b, &one);
    const char *s = b.data ? b.data : "";
    while (!strncmp(s, "--", 2) && strchr(s, '\n')) s = strchr(s, '\n') + 1;
    size_t n = strlen(s);
    while (n && s[n - 1] == '\n') n--;
    const char *r = arena_strndup(d->a, s, n);
    buf_free(&b);
    return r;
}

static bool is_operator(const char *name) { return !isalpha((unsigned char)name[0]) && name[0] != '_'; }

/* The declaration's signature: a value's checked type; a type's or module
 * type's definition; a module's first line. */
static const char *signature(Doc *d, Decl *dc) {
    if (dc->kind == D_VAL) {
        Buf b = {0};
        buf_printf(&b, is_operator(dc->name) ? "val (%s)" : "val %s", dc->name);
        for (int i = 0; i < dc->ntparams; i++)
            buf_printf(&b, dc->tparams[i].kind == TP_SIZE ? " [%s]" : " '%s", dc->tparams[i].name);
        buf_printf(&b, " : %s", dc->ty ? check_type_text(d->a, dc->ty) : "?");
        const char *r = arena_strdup(d->a, b.data);
        buf_free(&b);
        return r;
    }
    ModExp *m = dc->kind == D_MODULE ? dc->mexp : NULL;
    if (m && m->kind == ME_STRUCT) return arena_printf(d->a, "module %s", dc->name);
    if (m && m->kind == ME_ASCRIBE && m->e1->kind == ME_STRUCT && m->mtype->kind == MT_NAME) {
        Buf b = {0};
        buf_printf(&b, "module %s : ", dc->name);
        for (int i = 0; i < m->mtype->name.nparts; i++) buf_printf(&b, "%s%s", i ? "." : "", m->mtype->name.parts[i]);
        const char *r = arena_strdup(d->a, b.data);
        buf_free(&b);
        return r;
    }
    const char *s = printed(d, dc);
    if (dc->kind == D_MODULE && strchr(s, '\n')) return arena_strndup(d->a, s, (size_t)(strchr(s, '\n') - s));
    return s;
}

/* A module's own declarations: those of its structure, also under an
 * ascription. */
static Decl **module_decls(Decl *dc, int *n) {
    ModExp *m = dc->kind == D_MODULE ? dc->mexp : NULL;
    while (m && m->kind == ME_ASCRIBE) m = m->e1;
    *n = m && m->kind == ME_STRUCT ? m->ndecls : 0;
    return *n ? m->decls : NULL;
}

static const char *qualified(Doc *d, const char *prefix, const char *name) {
    return *prefix ? arena_printf(d->a, "%s.%s", prefix, name) : name;
}

/* Records the names of decls (and of modules' declarations) of a page. */
static void collect(Doc *d, const char *file, const char *page, Decl **decls, int n, const char *prefix) {
    for (int i = 0; i < n; i++) {
        Decl *dc = decls[i];
        if (!documented(dc)) continue;
        Entry e = {namespace_of(dc), qualified(d, prefix, dc->name), page, file};
        vec_push(&d->names, e);
        int m;
        Decl **inner = module_decls(dc, &m);
        collect(d, file, page, inner, m, e.name);
    }
}

static void synopsis(Doc *d, Buf *b, Decl **decls, int n, const char *prefix) {
    for (int i = 0; i < n; i++) {
        Decl *dc = decls[i];
        if (!documented(dc)) continue;
        const char *q = qualified(d, prefix, dc->name);
        buf_printf(b, "<tr><td><a href=\"#%s:%s\"><code>", namespace_of(dc), q);
        const char *sig = dc->kind == D_MODTYPE ? arena_printf(d->a, "module type %s", dc->name) : signature(d, dc);
        esc_n(b, sig, strchr(sig, '\n') ? (size_t)(strchr(sig, '\n') - sig) : strlen(sig));
        buf_puts(b, "</code></a></td></tr>\n");
        int m;
        Decl **inner = module_decls(dc, &m);
        synopsis(d, b, inner, m, q);
    }
}

static void describe(Doc *d, Buf *b, const char *page, Decl **decls, int n, const char *prefix) {
    for (int i = 0; i < n; i++) {
        Decl *dc = decls[i];
        if (!documented(dc)) continue;
        const char *q = qualified(d, prefix, dc->name);
        buf_printf(b, "<div class=\"decl\" id=\"%s:%s\">\n<pre class=\"sig\">", namespace_of(dc), q);
        esc(b, signature(d, dc));
        buf_puts(b, "</pre>\n");
        if (dc->doc) {
            buf_puts(b, "<div class=\"doc\">\n");
            markdown(d, b, dc->doc, page);
            buf_puts(b, "</div>\n");
        }
        int m;
        Decl **inner = module_decls(dc, &m);
        if (m) {
            buf_puts(b, "<div class=\"module\">\n");
            describe(d, b, page, inner, m, q);
            buf_puts(b, "</div>\n");
        }
        buf_puts(b, "</div>\n");
    }
}

/* ---- Pages --------------------------------------------------------------------------------------- */

/* A file's abstract: a leading "-- |" comment followed by a blank line. */
static const char *abstract_of(Doc *d, const char *text) {
    const char *p = text;
    while (*p == '\n') p++;
    if (strncmp(p, "-- |", 4)) return NULL;
    Buf b = {0};
    while (!strncmp(p, "--", 2)) {
        const char *nl = strchr(p, '\n');
        bool first = !strncmp(p, "-- |", 4);
        const char *l = first ? p + 4 + (p[4] == ' ') : p + 2 + (p[2] == ' ');
        buf_printf(&b, "%.*s\n", nl ? (int)(nl - l) : (int)strlen(l), l);
        if (!nl) break;
        p = nl + 1;
    }
    const char *r = *p == '\n' || !*p ? arena_strdup(d->a, b.data ? b.data : "") : NULL;
    buf_free(&b);
    return r;
}

static void page_head(Buf *b, const char *title, const char *top) {
    buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
    esc(b, title);
    buf_printf(b, "</title>\n<link rel=\"stylesheet\" href=\"%sstyle.css\">\n</head>\n<body>\n"
                  "<nav><a href=\"%sindex.html\">Files</a> <a href=\"%sdoc-index.html\">Index</a></nav>\n<main>\n",
               top, top, top);
}

static bool write_page(Doc *d, const char *page, Buf *b) {
    buf_puts(b, "</main>\n</body>\n</html>\n");
    const char *path = arena_printf(d->a, "%s/%s", d->out, page);
    const char *slash = strrchr(page, '/');
    if (slash) {
        const char *dir = arena_printf(d->a, "%s/%.*s", d->out, (int)(slash - page), page);
        if (!util_make_dirs(dir)) return doc_error("cannot create %s", dir);
    }
    bool ok = util_write_file(path, b->data, b->len);
    if (d->verbose) fprintf(stderr, "Writing %s\n", path);
    return ok || doc_error("cannot write %s", path);
}

/* A documented file: its program, name (relative to DIR), page and
 * abstract. */
typedef struct DocFile {
    Program *p;
    const char *name, *page, *abstract;
} DocFile;

static bool file_page(Doc *d, const DocFile *f) {
    Buf b = {0};
    page_head(&b, f->name, up(d, f->page));
    buf_puts(&b, "<h1>");
    esc(&b, f->name);
    buf_puts(&b, "</h1>\n");
    if (f->abstract) markdown(d, &b, f->abstract, f->page);
    buf_puts(&b, "<h2>Synopsis</h2>\n<table class=\"synopsis\">\n");
    synopsis(d, &b, f->p->decls, f->p->ndecls, "");
    buf_puts(&b, "</table>\n<h2>Description</h2>\n");
    describe(d, &b, f->page, f->p->decls, f->p->ndecls, "");
    bool ok = write_page(d, f->page, &b);
    buf_free(&b);
    return ok;
}

static int cmp_entry(const void *x, const void *y) {
    const Entry *a = x, *b = y;
    int c = strcmp(a->name, b->name);
    return c ? c : strcmp(a->ns, b->ns);
}

static bool index_pages(Doc *d, const DocFile *files, int n) {
    Buf b = {0};
    page_head(&b, "Files", "");
    buf_puts(&b, "<h1>Files</h1>\n<dl>\n");
    for (int i = 0; i < n; i++) {
        buf_printf(&b, "<dt><a href=\"%s\">", files[i].page);
        esc(&b, files[i].name);
        buf_puts(&b, "</a></dt>\n<dd>");
        if (files[i].abstract) markdown(d, &b, files[i].abstract, "index.html");
        buf_puts(&b, "</dd>\n");
    }
    buf_puts(&b, "</dl>\n");
    bool ok = write_page(d, "index.html", &b);
    b.len = 0;
    page_head(&b, "Index", "");
    buf_puts(&b, "<h1>Index</h1>\n<table class=\"index\">\n");
    util_sort(d->names.items, (size_t)d->names.len, sizeof(Entry), cmp_entry);
    for (int i = 0; i < d->names.len; i++) {
        const Entry *e = &d->names.items[i];
        buf_printf(&b, "<tr><td>%s</td><td><a href=\"%s#%s:%s\"><code>", e->ns, e->page, e->ns, e->name);
        esc(&b, e->name);
        buf_puts(&b, "</code></a></td><td>");
        esc(&b, e->file);
        buf_puts(&b, "</td></tr>\n");
    }
    buf_puts(&b, "</table>\n");
    ok = write_page(d, "doc-index.html", &b) && ok;
    buf_free(&b);
    return ok;
}

static const char STYLE[] =
    "body { font-family: sans-serif; margin: 0; color: #222; background: #fff; }\n"
    "nav { background: #5f021f; padding: 0.5em 1em; }\n"
    "nav a { color: #fff; margin-right: 1em; text-decoration: none; font-weight: bold; }\n"
    "main { max-width: 60em; margin: 1em auto; padding: 0 1em; }\n"
    "h1 { font-size: 1.6em; } h2 { font-size: 1.3em; border-bottom: 1px solid #ccc; }\n"
    "pre, code { font-family: monospace; }\n"
    "pre.sig { background: #f4f0f2; padding: 0.4em 0.6em; margin: 1.2em 0 0.3em; overflow-x: auto; }\n"
    ".doc { margin-left: 1.5em; } .module { margin-left: 1.5em; border-left: 2px solid #e0d0d6; padding-left: 1em; }\n"
    "table.synopsis td, table.index td { padding: 0.1em 0.6em; }\n"
    "a { color: #5f021f; }\n";

static int usage(const char *why, const char *arg) {
    fprintf(stderr, "futhorc doc: %s%s%s\nusage: futhorc doc [-v] DIR|--prelude -o OUTDIR\n", why, arg ? " " : "",
            arg ? arg : "");
    return 1;
}

int tool_doc(int argc, char **argv) {
    Arena a = {0};
    Doc d = {&a, NULL, NULL, {0}, false};
    bool prelude = false;
    const char *v;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
            return printf("usage: futhorc doc [-v] DIR -o OUTDIR\n       futhorc doc --prelude -o OUTDIR\n\n"
                          "HTML documentation of the .fut files under DIR and the files they import, or\n"
                          "of the prelude.\nSee futhorc-doc(1).\n"), 0;
        if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) d.verbose = true;
        else if (!strcmp(argv[i], "--prelude")) prelude = true;
        else if ((v = spec_optval(argc, argv, &i, "-o")) || (v = spec_optval(argc, argv, &i, "--output"))) d.out = v;
        else if (argv[i][0] == '-') return usage("unknown option", argv[i]);
        else if (d.dir) return usage("more than one directory given:", argv[i]);
        else d.dir = argv[i];
    }
    if (prelude && d.dir) return usage("--prelude takes no directory:", d.dir);
    if (prelude) d.dir = "<prelude>";
    if (!d.dir || !d.out) return usage(!d.dir ? "no directory given" : "no output directory given (-o)", NULL);
    size_t n = strlen(d.dir);
    while (n > 1 && d.dir[n - 1] == '/') n--;
    d.dir = arena_strndup(&a, d.dir, n);
    SpecStrings paths = {0};
    if (prelude) vec_push(&paths, "<prelude>/prelude.fut");
    else if (!spec_collect(&a, d.dir, &paths)) return doc_error("cannot read %s", d.dir), 1;
    VEC(DocFile) files = {0};
    VEC(ProgramVec) loaded = {0};
    int rc = 0;
    for (int i = 0; i < paths.len && !rc; i++) {
        ProgramVec pv =
            prelude ? frontend_load_text(&a, paths.items[i], "", 0, NULL, 0) : frontend_load(&a, paths.items[i]);
        if (pv.len == 0) rc = 1;
        vec_push(&loaded, pv);
        for (int k = prelude ? 0 : 1; k < (prelude ? 1 : pv.len); k++) { /* the prelude, or the files past it */
            Program *p = pv.items[k];
            if (prelude) p->file = paths.items[i];
            size_t dn = strlen(d.dir);
            if (strncmp(p->file, d.dir, dn) || p->file[dn] != '/') continue; /* imported from outside DIR */
            bool seen = false;
            for (int j = 0; j < files.len && !seen; j++) seen = !strcmp(files.items[j].p->file, p->file);
            char *text = seen      ? NULL
                         : prelude ? strdup(embedded_get("stdlib/prelude.fut"))
                                   : util_read_file(p->file, NULL);
            const char *abstract = text ? abstract_of(&d, text) : NULL;
            free(text);
            if (seen || (abstract && !strcmp(abstract, "ignore\n"))) continue;
            const char *page = page_of(&d, p->file);
            DocFile f = {p, arena_printf(&a, "%.*s.fut", (int)strlen(page) - 5, page), page, abstract};
            vec_push(&files, f);
        }
    }
    if (!rc && mkdir(d.out, 0777) != 0 && errno != EEXIST) rc = (doc_error("cannot create %s", d.out), 1);
    for (int i = 0; !rc && i < files.len; i++)
        collect(&d, files.items[i].name, files.items[i].page, files.items[i].p->decls, files.items[i].p->ndecls, "");
    for (int i = 0; !rc && i < files.len; i++)
        if (!file_page(&d, &files.items[i])) rc = 1;
    if (!rc && !index_pages(&d, files.items, files.len)) rc = 1;
    if (!rc) {
        const char *path = arena_printf(&a, "%s/style.css", d.out);
        if (!util_write_file(path, STYLE, strlen(STYLE))) rc = (doc_error("cannot write %s", path), 1);
    }
    for (int i = 0; i < loaded.len; i++) vec_free(&loaded.items[i]);
    vec_free(&loaded), vec_free(&files), vec_free(&paths), vec_free(&d.names);
    arena_free(&a);
    return rc;
}
