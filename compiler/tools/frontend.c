/* Loading a program: the prelude, the source file and its imports. */
#include "frontend.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../check/check.h"
#include "../util/embedded.h"

/* Deeper import chains than this are almost certainly a cycle the path
 * comparison missed (e.g. through symbolic links). */
enum { MAX_IMPORT_DEPTH = 64 };

/* The directory part of path including its slash, or "". */
static char *dir_of(Arena *a, const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? arena_strndup(a, path, (size_t)(slash - path + 1)) : arena_strdup(a, "");
}

static Program *load_file(Arena *a, const char *path, const char *given, size_t len, ProgramVec *loaded, int depth,
                          SrcLoc from);

/* path with "./" and "dir/../" removed, so that one file imported along
 * two paths ("a.fut", "sub/../a.fut") is loaded once: its abstract types
 * must be the same for both. */
static const char *normal_path(Arena *a, const char *path) {
    size_t n = strlen(path);
    const char **seg = NEW_ARRAY(a, const char *, n + 1);
    size_t *len = NEW_ARRAY(a, size_t, n + 1);
    int k = 0;
    for (const char *p = path; *p;) {
        const char *slash = strchr(p, '/');
        size_t l = slash ? (size_t)(slash - p) : strlen(p);
        if (l == 1 && p[0] == '.') {
            /* "." names the same directory */
        } else if (l == 2 && p[0] == '.' && p[1] == '.' && k > 0 &&
                   !(len[k - 1] == 2 && seg[k - 1][0] == '.' && seg[k - 1][1] == '.') && len[k - 1] > 0) {
            k--;
        } else {
            seg[k] = p;
            len[k++] = l;
        }
        if (!slash) break;
        p = slash + 1;
    }
    Buf b = {0};
    for (int i = 0; i < k; i++) buf_printf(&b, "%s%.*s", i ? "/" : "", (int)len[i], seg[i]);
    const char *r = arena_strndup(a, b.data ? b.data : "", b.len);
    buf_free(&b);
    return r;
}

/* Loads the files that p imports (recursively) before p itself. */
static bool load_imports(Arena *a, Program *p, ProgramVec *loaded, int depth) {
    bool ok = true;
    for (int i = 0; i < p->nimports; i++) {
        Decl *d = p->imports[i];
        const char *path = normal_path(a, arena_printf(a, "%s%s.fut", dir_of(a, p->file), d->path));
        d->imported = load_file(a, path, NULL, 0, loaded, depth + 1, d->loc);
        if (!d->imported) ok = false;
    }
    return ok;
}

/* Loads the file at path after the files it imports; its text is the len
 * bytes at given, or (given NULL) read from the file. */
static Program *load_file(Arena *a, const char *path, const char *given, size_t len, ProgramVec *loaded, int depth,
                          SrcLoc from) {
    const char *key = intern(path);
    for (int i = 0; i < loaded->len; i++)
        if (loaded->items[i]->file == key) return loaded->items[i];
    if (depth > MAX_IMPORT_DEPTH) {
        diag_error(from, "imports nested too deeply (a cycle?) at '%s'", path);
        return NULL;
    }
    char *text = given ? NULL : util_read_file(path, &len);
    if (!given && !text) {
        diag_error(from, "cannot read '%s': %s", path, strerror(errno));
        return NULL;
    }
    Program *p = parse_program_n(a, key, given ? given : text, len); /* keeps a copy */
    free(text);
    if (!p) return NULL;
    p->file = key;
    if (!load_imports(a, p, loaded, depth)) return NULL;
    vec_push(loaded, p);
    return p;
}

/* Marks the top-level definitions of main named in entries as entry
 * points; false after reporting a name that has none. */
static bool mark_entries(Program *main, const char *const *entries, int n) {
    bool ok = true;
    for (int k = 0; k < n; k++) {
        bool found = false;
        for (int i = 0; i < main->ndecls; i++) {
            Decl *d = main->decls[i];
            if (d->kind == D_VAL && !d->is_local && d->name && !strcmp(d->name, entries[k])) d->is_entry = found = true;
        }
        if (!found) {
            fprintf(stderr, "futhorc: --entry-point: %s has no top-level definition named \"%s\"\n", main->file,
                    entries[k]);
            ok = false;
        }
    }
    return ok;
}

ProgramVec frontend_load_text(Arena *a, const char *path, const char *text, size_t len, const char *const *entries,
                              int n) {
    ProgramVec files = {0};
    const char *prelude = embedded_get("stdlib/prelude.fut");
    const char *pname = intern("<prelude>");
    diag_register_source(pname, prelude);
    Program *pre = parse_program(a, pname, prelude);
    if (!pre) ICE("the prelude does not parse");
    pre->file = pname;
    vec_push(&files, pre);
    Program *main = load_file(a, path, text, len, &files, 0, (SrcLoc){0});
    if (!main || diag_error_count() || !mark_entries(main, entries, n)) {
        vec_free(&files);
        return files;
    }
    if (!check_programs(a, files.items, files.len)) vec_free(&files);
    return files;
}

ProgramVec frontend_load(Arena *a, const char *path) { return frontend_load_text(a, path, NULL, 0, NULL, 0); }
