/* `futhorc pkg`: Futhark's package manager. A package is a git repository
 * named by its package path (github.com/user/repo, fetched from
 * https://github.com/user/repo; github.com/user/repo@2 for major version
 * 2); its versions are its tags vX.Y.Z, and its futhark.pkg names its path
 * and its requirements. `sync` chooses versions by minimal version
 * selection (pkg_manifest.c) and copies each package's lib/PATH/ into
 * ./lib/PATH/, through lib~new and lib~old as Futhark does. Every command
 * runs git (no shell) on clones in a temporary directory that is removed at
 * the end. A package added from a git URL or a local directory keeps its
 * location in a "-- futhorc-source:" comment of futhark.pkg. */
#include "tools/pkg.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tools/pkg_manifest.h"

extern char **environ;

static const char MANIFEST[] = "futhark.pkg";

/* Deepest directory nesting copied or removed: a bound on recursion that
 * real package trees never come near. */
enum { PKG_MAX_DEPTH = 64 };

/* A version of a repository: the version and its commit. */
typedef struct Tag {
    PkgVersion ver;
    const char *commit;
} Tag;

/* A repository cloned into the cache. */
typedef struct Repo {
    const char *path; /* the package path (or the location while unknown) */
    const char *dir;  /* the clone */
    VEC(Tag) tags;    /* the versions of the path's major versions */
} Repo;

typedef struct Pkg {
    Arena a;
    bool verbose;
    const char *cache; /* the temporary directory; NULL until needed */
    const char *git_err; /* the file receiving git's stderr */
    VEC(Repo) repos;
    PkgManifest m; /* ./futhark.pkg, whose source lines locate packages */
} Pkg;

static bool error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static bool error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("futhorc pkg: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return false;
}

/* ---- Files ------------------------------------------------------------------------ */

static bool is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool exists(const char *path) {
    struct stat st;
    return lstat(path, &st) == 0;
}

static bool make_dirs(const char *path) {
    return util_make_dirs(path) || error("cannot create %s: %s", path, strerror(errno));
}

/* rm -rf, without following links. */
static bool remove_tree(Arena *a, const char *path, int depth) {
    struct stat st;
    if (lstat(path, &st) != 0) return errno == ENOENT || error("cannot remove %s: %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode)) {
        DIR *d = depth < PKG_MAX_DEPTH ? opendir(path) : NULL;
        if (!d) return error("cannot remove %s: %s", path, depth < PKG_MAX_DEPTH ? strerror(errno) : "too deep");
        bool ok = true;
        for (struct dirent *e; ok && (e = readdir(d));)
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                ok = remove_tree(a, arena_printf(a, "%s/%s", path, e->d_name), depth + 1);
        closedir(d);
        if (!ok) return false;
        if (rmdir(path) != 0) return error("cannot remove %s: %s", path, strerror(errno));
        return true;
    }
    return unlink(path) == 0 || error("cannot remove %s: %s", path, strerror(errno));
}

static bool write_file(const char *path, const char *data, size_t len) {
    return util_write_file(path, data, len) || error("cannot write %s: %s", path, strerror(errno));
}

/* Copies the files under from into to (created), recursively. */
static bool copy_tree(Pkg *p, const char *from, const char *to, int depth) {
    DIR *d = depth < PKG_MAX_DEPTH ? opendir(from) : NULL;
    if (!d) return error("cannot read %s: %s", from, depth < PKG_MAX_DEPTH ? strerror(errno) : "too deep");
    bool ok = make_dirs(to);
    for (struct dirent *e; ok && (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        const char *src = arena_printf(&p->a, "%s/%s", from, e->d_name);
        const char *dst = arena_printf(&p->a, "%s/%s", to, e->d_name);
        if (is_dir(src)) {
            ok = copy_tree(p, src, dst, depth + 1);
            continue;
        }
        size_t len;
        char *data = util_read_file(src, &len);
        if (p->verbose) fprintf(stderr, "Copying %s\nto      %s\n", src, dst);
        ok = data ? write_file(dst, data, len) : error("cannot read %s: %s", src, strerror(errno));
        free(data);
    }
    closedir(d);
    return ok;
}

/* ---- git ----------------------------------------------------------------------------- */

/* The last line git wrote to stderr, for messages. */
static const char *git_complaint(Pkg *p) {
    char *text = util_read_file(p->git_err, NULL);
    if (!text) return "no message";
    size_t n = strlen(text);
    while (n && (text[n - 1] == '\n' || text[n - 1] == '\r')) text[--n] = 0;
    const char *last = strrchr(text, '\n');
    const char *r = arena_strdup(&p->a, last ? last + 1 : text);
    free(text);
    return *r ? r : "no message";
}

/* Runs git with the NULL-terminated args; its stdout into *out when out is
 * not NULL. True if it exits with 0. */
static bool git(Pkg *p, Buf *out, const char *const *args) {
    const char *argv[32] = {"git"};
    int n = 1;
    for (; args[n - 1] && n < 31; n++) argv[n] = args[n - 1];
    argv[n] = NULL;
    if (p->verbose) {
        fputs("Running command: git", stderr);
        for (int i = 1; i < n; i++) fprintf(stderr, " %s", argv[i]);
        fputc('\n', stderr);
    }
    int fds[2];
    if (pipe(fds) != 0) return error("cannot create a pipe: %s", strerror(errno));
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, p->git_err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addclose(&fa, fds[1]);
    pid_t pid;
    int rc = posix_spawnp(&pid, "git", &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        return error("cannot run git: %s (futhorc pkg needs git)", strerror(rc));
    }
    char chunk[4096];
    for (ssize_t k; (k = read(fds[0], chunk, sizeof chunk)) != 0;) {
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) break;
        if (out)
            for (ssize_t i = 0; i < k; i++) buf_putc(out, chunk[i]);
    }
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (out) buf_putc(out, 0), out->len--;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

#define GIT(p, out, ...) git((p), (out), (const char *[]){__VA_ARGS__, NULL})

static bool ensure_cache(Pkg *p) {
    if (p->cache) return true;
    const char *tmp = getenv("TMPDIR");
    char *dir = arena_printf(&p->a, "%s/futhorc-pkg-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) return error("cannot create a temporary directory %s: %s", dir, strerror(errno));
    p->cache = dir;
    p->git_err = arena_printf(&p->a, "%s/git-stderr", dir);
    return true;
}

/* ---- Repositories ------------------------------------------------------------------------ */

/* Package path p without its "@N" suffix, and the major versions it takes:
 * N, or 0 and 1. */
static const char *base_path(Arena *a, const char *path, unsigned long *major) {
    const char *at = strchr(path, '@');
    char *end;
    if (at && !strchr(at + 1, '@') && at[1] >= '0' && at[1] <= '9') {
        unsigned long n = strtoul(at + 1, &end, 10);
        if (!*end) {
            *major = n;
            return arena_strndup(a, path, (size_t)(at - path));
        }
    }
    *major = (unsigned long)-1;
    return path;
}

static bool major_ok(unsigned long want, const PkgVersion *v) {
    return want == (unsigned long)-1 ? v->major <= 1 : v->major == want;
}

static int cmp_tag(const void *x, const void *y) {
    return pkg_version_cmp(&((const Tag *)x)->ver, &((const Tag *)y)->ver);
}

/* Reads the versions of r (tags vX.Y.Z of the path's major versions). */
static bool list_tags(Pkg *p, Repo *r) {
    Buf out = {0};
    bool ok = GIT(p, &out, "-C", r->dir, "for-each-ref", "--format=%(refname:strip=2) %(*objectname) %(objectname)",
                  "refs/tags");
    unsigned long major;
    base_path(&p->a, r->path, &major);
    r->tags.len = 0;
    for (char *line = out.data, *nl; ok && line && *line; line = nl ? nl + 1 : NULL) {
        if ((nl = strchr(line, '\n'))) *nl = 0;
        char name[256], c1[64], c2[64];
        Tag t;
        int k = sscanf(line, "%255s %63s %63s", name, c1, c2);
        if (k < 2 || name[0] != 'v' || !pkg_version_parse(&p->a, name + 1, &t.ver) || !major_ok(major, &t.ver))
            continue;
        t.commit = arena_strdup(&p->a, c1); /* an annotated tag's commit, else the commit */
        vec_push_in(&p->a, &r->tags, t);
    }
    buf_free(&out);
    util_sort(r->tags.items, (size_t)r->tags.len, sizeof(Tag), cmp_tag);
    return ok || error("cannot list the tags of %s: %s", r->path, git_complaint(p));
}

/* Where package path is fetched from: its source line, or https://. */
static const char *location_of(Pkg *p, const char *path) {
    const char *src = pkg_manifest_source(&p->m, path);
    unsigned long major;
    return src ? src : arena_printf(&p->a, "https://%s", base_path(&p->a, path, &major));
}

/* Clones location into the cache as the repository of path. */
static Repo *clone(Pkg *p, const char *path, const char *location) {
    if (!ensure_cache(p)) return NULL;
    const char *dir = arena_printf(&p->a, "%s/repo%d", p->cache, p->repos.len);
    if (!GIT(p, NULL, "clone", "--quiet", "--", location, dir)) {
        error("cannot fetch package %s from %s: %s", path, location, git_complaint(p));
        return NULL;
    }
    Repo r = {path, dir, {0}};
    vec_push_in(&p->a, &p->repos, r);
    Repo *rp = &p->repos.items[p->repos.len - 1];
    return list_tags(p, rp) ? rp : NULL;
}

static Repo *repo(Pkg *p, const char *path) {
    for (int i = 0; i < p->repos.len; i++)
        if (!strcmp(p->repos.items[i].path, path)) return &p->repos.items[i];
    return clone(p, path, location_of(p, path));
}

/* The commit version of ref (HEAD, or a commit id) in r. */
static bool commit_version(Pkg *p, Repo *r, const char *ref, Tag *t) {
    Buf out = {0};
    char sha[64];
    long long secs;
    bool ok = GIT(p, &out, "-C", r->dir, "log", "-1", "--format=%H %ct", ref, "--") &&
              sscanf(out.data ? out.data : "", "%63s %lld", sha, &secs) == 2;
    buf_free(&out);
    if (!ok) return error("package %s has no commit %s: %s", r->path, ref, git_complaint(p));
    time_t tt = (time_t)secs;
    struct tm tm;
    char stamp[32];
    gmtime_r(&tt, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d%H%M%S", &tm);
    t->commit = arena_strdup(&p->a, sha);
    t->ver = (PkgVersion){0, 0, 0, arena_strdup(&p->a, stamp), t->commit};
    return true;
}

/* Version v of package path: its commit. */
static bool lookup(Pkg *p, const char *path, const PkgVersion *v, Repo **rp, Tag *t) {
    Repo *r = *rp = repo(p, path);
    if (!r) return false;
    const char *commit = pkg_version_commit(v);
    if (commit) {
        if (!commit_version(p, r, commit, t)) return false;
        t->ver = *v;
        return true;
    }
    for (int i = 0; i < r->tags.len; i++)
        if (!pkg_version_cmp(&r->tags.items[i].ver, v)) return *t = r->tags.items[i], true;
    Buf known = {0};
    for (int i = 0; i < r->tags.len; i++)
        buf_printf(&known, "%s%s", i ? ", " : "", pkg_version_str(&p->a, &r->tags.items[i].ver));
    unsigned long major;
    base_path(&p->a, path, &major);
    error("package %s does not have a version %s. %s%s%s%s", path, pkg_version_str(&p->a, v),
          known.len ? "Known versions: " : "It has no versions: is the package path right?",
          known.len ? known.data : "",
          major_ok(major, v) ? "" : arena_printf(&p->a, "\nFor major version %lu, use package path ", v->major),
          major_ok(major, v) ? "" : arena_printf(&p->a, "%s@%lu", base_path(&p->a, path, &major), v->major));
    buf_free(&known);
    return false;
}

/* The newest version of path: its newest tag, else its HEAD commit. */
static bool newest(Pkg *p, const char *path, Tag *t) {
    Repo *r = repo(p, path);
    if (!r) return false;
    if (r->tags.len) return *t = r->tags.items[r->tags.len - 1], true;
    if (p->verbose) fprintf(stderr, "Package %s has no released versions.  Using HEAD.\n", path);
    return commit_version(p, r, "HEAD", t);
}

/* The manifest of r at ref (a commit or tag); what names it in messages. */
static bool manifest_at(Pkg *p, Repo *r, const char *ref, const char *what, PkgManifest *m) {
    Buf text = {0};
    what = arena_printf(&p->a, "%s/%s", what, MANIFEST);
    bool ok = GIT(p, &text, "-C", r->dir, "show", arena_printf(&p->a, "%s:%s", ref, MANIFEST));
    if (!ok) error("%s: cannot read it: %s", what, git_complaint(p));
    ok = ok && pkg_manifest_parse(&p->a, what, text.data ? text.data : "", m);
    buf_free(&text);
    return ok;
}

static bool manifest_of(Pkg *p, Repo *r, const Tag *t, PkgManifest *m) {
    return manifest_at(p, r, t->commit, arena_printf(&p->a, "%s-%s", r->path, pkg_version_str(&p->a, &t->ver)), m);
}

/* pkg_solve's callback: the requirements of r's version. */
static bool get_deps(void *ctx, const PkgReq *req, PkgReqs *deps) {
    Pkg *p = ctx;
    Repo *r;
    Tag t;
    PkgManifest m;
    if (!lookup(p, req->path, &req->ver, &r, &t)) return false;
    if (req->hash && strcmp(req->hash, t.commit))
        return error("package %s %s has commit hash %s, but expected %s from package manifest.", req->path,
                     pkg_version_str(&p->a, &req->ver), t.commit, req->hash);
    if (!manifest_of(p, r, &t, &m)) return false;
    pkg_manifest_reqs(&m, deps);
    return true;
}

static bool solve(Pkg *p, const PkgReqs *roots, PkgReqs *build_list) {
    return pkg_solve(&p->a, roots, get_deps, p, build_list);
}

/* ---- The manifest of the current directory ---------------------------------------------- */

static bool load_manifest(Pkg *p, bool quiet) {
    char *text = util_read_file(MANIFEST, NULL);
    if (!text) {
        if (is_dir(MANIFEST)) return error("%s exists, but it is a directory", MANIFEST);
        if (errno != ENOENT) return error("cannot read %s: %s", MANIFEST, strerror(errno));
        if (!quiet) printf("%s not found - pretending it's empty.\n", MANIFEST);
        text = strdup("");
    }
    bool ok = pkg_manifest_parse(&p->a, MANIFEST, arena_strdup(&p->a, text), &p->m);
    free(text);
    return ok;
}

static bool save_manifest(Pkg *p) {
    Buf out = {0};
    pkg_manifest_print(&p->m, &out);
    const char *tmp = arena_printf(&p->a, "%s~new", MANIFEST);
    bool ok = write_file(tmp, out.data, out.len);
    buf_free(&out);
    if (ok && rename(tmp, MANIFEST) != 0) ok = error("cannot replace %s: %s", MANIFEST, strerror(errno));
    return ok;
}

/* ---- Installing ------------------------------------------------------------------------------ */

/* Copies each package of the build list into dir/PATH/ from lib/ITS-PATH/ of
 * its repository at its version. */
static bool install_in(Pkg *p, const PkgReqs *bl, const char *dir) {
    for (int i = 0; i < bl->len; i++) {
        const PkgReq *req = &bl->items[i];
        Repo *r;
        Tag t;
        PkgManifest m;
        if (!lookup(p, req->path, &req->ver, &r, &t) || !manifest_of(p, r, &t, &m)) return false;
        const char *v = pkg_version_str(&p->a, &t.ver);
        if (!m.package) return error("%s of %s-%s does not define a package path.", MANIFEST, req->path, v);
        if (!GIT(p, NULL, "-C", r->dir, "checkout", "--quiet", "--force", t.commit, "--"))
            return error("cannot check out %s-%s: %s", req->path, v, git_complaint(p));
        const char *from = arena_printf(&p->a, "%s/lib/%s", r->dir, m.package);
        if (!is_dir(from)) return error("%s-%s does not contain a directory lib/%s", req->path, v, m.package);
        if (!copy_tree(p, from, arena_printf(&p->a, "%s/%s", dir, req->path), 0)) return false;
    }
    return true;
}

/* Replaces lib/ by the build list's packages, keeping lib/PACKAGE of this
 * package itself (Futhark's installBuildList). */
static bool install(Pkg *p, const PkgReqs *bl) {
    const char *lib = "lib", *fresh = "lib~new", *old = "lib~old";
    bool had_lib = is_dir(lib);
    if (!remove_tree(&p->a, fresh, 0) || !make_dirs(fresh) || !install_in(p, bl, fresh)) return false;
    if (had_lib && (!remove_tree(&p->a, old, 0) || rename(lib, old) != 0))
        return error("cannot move %s to %s: %s", lib, old, strerror(errno));
    if (rename(fresh, lib) != 0) return error("cannot move %s to %s: %s", fresh, lib, strerror(errno));
    if (had_lib && p->m.package) {
        const char *mine = arena_printf(&p->a, "%s/%s", old, p->m.package);
        const char *dest = arena_printf(&p->a, "%s/%s", lib, p->m.package);
        char *parent = arena_strdup(&p->a, dest);
        *strrchr(parent, '/') = 0;
        if (is_dir(mine) && (!make_dirs(parent) || rename(mine, dest) != 0))
            return error("cannot move %s back to %s: %s", mine, dest, strerror(errno));
    }
    return !had_lib || remove_tree(&p->a, old, 0);
}

/* ---- Commands ------------------------------------------------------------------------------ */

/* A requirement of version t: pinned to its commit unless t is a commit
 * version, which names its commit already. */
static PkgReq pinned(const char *path, const Tag *t) {
    bool commit = !t->ver.major && !t->ver.minor && !t->ver.patch;
    return (PkgReq){path, t->ver, commit ? NULL : t->commit};
}

/* Whether add's argument is a repository's location (a URL or a directory)
 * rather than a package path. */
static bool is_location(const char *s) {
    return strstr(s, "://") || s[0] == '/' || s[0] == '.' || !strncmp(s, "git@", 4) || is_dir(s);
}

/* Clones the repository at loc and reads its package path from its
 * futhark.pkg at version v (at HEAD if v is NULL or not there). */
static bool from_location(Pkg *p, const char *loc, const PkgVersion *v, const char **path) {
    Repo *r = clone(p, loc, loc);
    if (!r) return false;
    const char *ref = !v ? "HEAD" : pkg_version_commit(v) ? pkg_version_commit(v)
                                                          : arena_printf(&p->a, "v%s", pkg_version_str(&p->a, v));
    /* Without that version, HEAD names the package, and lookup says which
     * versions there are. */
    if (strcmp(ref, "HEAD") && !GIT(p, NULL, "-C", r->dir, "rev-parse", "--quiet", "--verify",
                                    arena_printf(&p->a, "%s^{commit}", ref)))
        ref = "HEAD";
    PkgManifest m;
    if (!manifest_at(p, r, ref, arena_printf(&p->a, "%s (%s)", loc, ref), &m)) return false;
    if (!m.package) return error("the %s of %s (%s) does not name its package path", MANIFEST, loc, ref);
    *path = r->path = m.package;
    return list_tags(p, r);
}

static bool cmd_add(Pkg *p, char **args, int n) {
    PkgVersion v;
    if (n == 2 && !pkg_version_parse(&p->a, args[1], &v))
        return error("not a version: %s (expected X.Y.Z, or 0.0.0-TIME+COMMIT)", args[1]);
    if (!load_manifest(p, false)) return false;
    const char *path = args[0], *loc = is_location(args[0]) ? args[0] : NULL;
    if (loc && !from_location(p, loc, n == 2 ? &v : NULL, &path)) return false;
    Tag t;
    Repo *r;
    if (n == 2 ? !lookup(p, path, &v, &r, &t) : !newest(p, path, &t)) return false;
    PkgReq req = pinned(path, &t), old;
    /* Check that the package and its requirements can be had with the
     * others, this one at its new version. */
    PkgReqs roots = {0}, current = {0}, bl = {0};
    vec_push_in(&p->a, &roots, req);
    pkg_manifest_reqs(&p->m, &current);
    for (int i = 0; i < current.len; i++)
        if (strcmp(current.items[i].path, path)) vec_push_in(&p->a, &roots, current.items[i]);
    if (!solve(p, &roots, &bl)) return false;
    const char *vs = pkg_version_str(&p->a, &t.ver);
    if (!pkg_manifest_require(&p->m, &req, &old)) printf("Added new required package %s %s.\n", path, vs);
    else if (!pkg_version_cmp(&old.ver, &t.ver)) printf("Package already at version %s; nothing to do.\n", vs);
    else printf("Replaced %s %s => %s.\n", path, pkg_version_str(&p->a, &old.ver), vs);
    if (loc) pkg_manifest_set_source(&p->m, path, loc);
    if (!save_manifest(p)) return false;
    printf("Remember to run 'futhorc pkg sync'.\n");
    return true;
}

static bool cmd_remove(Pkg *p, char **args, int n) {
    PkgReq old;
    if (!load_manifest(p, false)) return false;
    if (!pkg_manifest_remove(&p->m, args[0], &old)) return error("no package %s found in %s.", args[0], MANIFEST);
    if (!save_manifest(p)) return false;
    printf("Removed %s %s.\n", args[0], pkg_version_str(&p->a, &old.ver));
    return true;
}

/* A package path with no empty, "." or ".." component. */
static bool valid_path(const char *path) {
    for (const char *s = path;; s = strchr(s, '/') + 1) {
        size_t n = strcspn(s, "/");
        if (!n || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.')) return false;
        if (!s[n]) return true;
    }
}

static bool cmd_init(Pkg *p, char **args, int n) {
    const char *path = args[0];
    if (!valid_path(path))
        return error("not a valid package path: %s (package paths are usually URIs such as github.com/user/repo; "
                     "'futhorc pkg init' is only needed to create a package, not to use one)",
                     path);
    if (exists(MANIFEST)) return error("%s already exists.", MANIFEST);
    const char *dir = arena_printf(&p->a, "lib/%s", path);
    if (!make_dirs(dir)) return false;
    printf("Created directory %s.\n", dir);
    p->m = (PkgManifest){.arena = &p->a, .package = path};
    if (!save_manifest(p)) return false;
    printf("Wrote %s.\n", MANIFEST);
    return true;
}

static bool cmd_fmt(Pkg *p, char **args, int n) {
    if (!exists(MANIFEST)) return error("no %s here", MANIFEST);
    return load_manifest(p, true) && save_manifest(p);
}

static bool solve_manifest(Pkg *p, PkgReqs *bl) {
    PkgReqs roots = {0};
    if (!load_manifest(p, false)) return false;
    pkg_manifest_reqs(&p->m, &roots);
    return solve(p, &roots, bl);
}

static bool cmd_sync(Pkg *p, char **args, int n) {
    PkgReqs bl = {0};
    return solve_manifest(p, &bl) && install(p, &bl);
}

static bool cmd_upgrade(Pkg *p, char **args, int n) {
    if (!load_manifest(p, false)) return false;
    bool changed = false;
    for (int i = 0; i < p->m.items.len; i++) {
        PkgReq *req = &p->m.items.items[i].req;
        Tag t;
        if (p->m.items.items[i].comment) continue;
        if (!newest(p, req->path, &t)) return false;
        PkgReq up = pinned(req->path, &t);
        if (pkg_version_cmp(&up.ver, &req->ver))
            printf("Upgraded %s %s => %s.\n", req->path, pkg_version_str(&p->a, &req->ver),
                   pkg_version_str(&p->a, &up.ver));
        changed |= pkg_version_cmp(&up.ver, &req->ver) || (up.hash && (!req->hash || strcmp(up.hash, req->hash)));
        *req = up;
    }
    if (!save_manifest(p)) return false;
    printf(changed ? "Remember to run 'futhorc pkg sync'.\n" : "Nothing to upgrade.\n");
    return true;
}

/* Whether dir holds a .fut file at any depth. */
static bool has_fut(Pkg *p, const char *dir, int depth) {
    DIR *d = depth < PKG_MAX_DEPTH ? opendir(dir) : NULL;
    bool found = false;
    for (struct dirent *e; d && !found && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        const char *sub = arena_printf(&p->a, "%s/%s", dir, e->d_name);
        if (e->d_name[0] == '.') continue;
        found = is_dir(sub) ? has_fut(p, sub, depth + 1) : len > 4 && !strcmp(e->d_name + len - 4, ".fut");
    }
    if (d) closedir(d);
    return found;
}

static bool cmd_check(Pkg *p, char **args, int n) {
    PkgReqs bl = {0};
    if (!solve_manifest(p, &bl)) return false;
    printf("Dependencies chosen:\n");
    for (int i = 0; i < bl.len; i++) printf("%s => %s\n", bl.items[i].path, pkg_version_str(&p->a, &bl.items[i].ver));
    if (!p->m.package) return true;
    const char *dir = arena_printf(&p->a, "lib/%s", p->m.package);
    if (!is_dir(dir)) return printf("Problem: the directory %s does not exist.\n", dir), false;
    if (!has_fut(p, dir, 0)) return printf("Problem: the directory %s does not contain any .fut files.\n", dir), false;
    return true;
}

static bool cmd_versions(Pkg *p, char **args, int n) {
    if (!load_manifest(p, true)) return false;
    Repo *r = repo(p, args[0]);
    if (!r) return false;
    for (int i = 0; i < r->tags.len; i++) printf("%s\n", pkg_version_str(&p->a, &r->tags.items[i].ver));
    return true;
}

typedef struct Command {
    const char *name, *args, *help;
    int min, max;
    bool (*run)(Pkg *, char **, int);
} Command;

static const Command COMMANDS[] = {
    {"add", "PKGPATH|URL|DIR [X.Y.Z]", "add a required package to futhark.pkg", 1, 2, cmd_add},
    {"check", "", "check that futhark.pkg can be satisfied", 0, 0, cmd_check},
    {"init", "PKGPATH", "create a new futhark.pkg and a lib/ skeleton", 1, 1, cmd_init},
    {"fmt", "", "reformat futhark.pkg", 0, 0, cmd_fmt},
    {"sync", "", "populate lib/ as futhark.pkg says", 0, 0, cmd_sync},
    {"remove", "PKGPATH", "remove a required package from futhark.pkg", 1, 1, cmd_remove},
    {"upgrade", "", "upgrade every requirement to its newest version", 0, 0, cmd_upgrade},
    {"versions", "PKGPATH", "list the versions of a package", 1, 1, cmd_versions},
};
enum { NCOMMANDS = sizeof COMMANDS / sizeof COMMANDS[0] };

static void pkg_usage(FILE *f) {
    fprintf(f, "usage: futhorc pkg COMMAND [-v] [ARGS]\n\ncommands:\n");
    for (int i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-8s %-24s %s\n", COMMANDS[i].name, COMMANDS[i].args, COMMANDS[i].help);
    fprintf(f, "\n  -v, --verbose  show the git commands run and the files copied\n"
               "Packages are git repositories; see futhorc-pkg(1).\n");
}

int tool_pkg(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        pkg_usage(argc < 2 ? stderr : stdout);
        return argc < 2;
    }
    const Command *cmd = NULL;
    for (int i = 0; i < NCOMMANDS; i++)
        if (!strcmp(argv[1], COMMANDS[i].name)) cmd = &COMMANDS[i];
    if (!cmd) return error("unknown command '%s' (see futhorc pkg --help)", argv[1]), 1;
    Pkg p = {0};
    char **args = argv + 2;
    int n = 0;
    bool options = true;
    for (int i = 2; i < argc; i++) {
        if (!options || argv[i][0] != '-') args[n++] = argv[i];
        else if (!strcmp(argv[i], "--")) options = false;
        else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) p.verbose = true;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return pkg_usage(stdout), 0;
        else return error("unknown option %s", argv[i]), 1;
    }
    if (n < cmd->min || n > cmd->max)
        return error("usage: futhorc pkg %s %s", cmd->name, cmd->args), 1;
    setenv("GIT_TERMINAL_PROMPT", "0", 1); /* fail rather than ask for credentials */
    bool ok = cmd->run(&p, args, n);
    if (p.cache) ok = remove_tree(&p.a, p.cache, 0) && ok;
    arena_free(&p.a);
    return ok ? 0 : 1;
}
