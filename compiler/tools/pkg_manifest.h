/* Futhark's package model without the file system or git: semantic
 * versions, futhark.pkg manifests (parsed and printed with their comments
 * kept, as `futhark pkg fmt` prints them) and minimal version selection
 * (futhorc-pkg(1)). */
#ifndef FUTHORC_TOOLS_PKG_MANIFEST_H
#define FUTHORC_TOOLS_PKG_MANIFEST_H

#include <stdbool.h>

#include "util/util.h"

/* MAJOR.MINOR.PATCH[-PRE][+META]. A commit version is
 * 0.0.0-yyyymmddhhmmss+COMMIT: PRE is the commit's time, META its id. */
typedef struct PkgVersion {
    unsigned long major, minor, patch;
    const char *pre, *meta; /* NULL when absent */
} PkgVersion;

/* Parses all of s; false if it is not a version. */
bool pkg_version_parse(Arena *a, const char *s, PkgVersion *v);
/* Negative, 0 or positive as a is older than, the same as or newer than b:
 * a version with PRE is older than the same one without. */
int pkg_version_cmp(const PkgVersion *a, const PkgVersion *b);
const char *pkg_version_str(Arena *a, const PkgVersion *v);
/* The commit id of a commit version, else NULL. */
const char *pkg_version_commit(const PkgVersion *v);

/* A requirement: a package path, its minimum version and the commit the
 * version was when it was added (NULL if none was pinned). */
typedef struct PkgReq {
    const char *path;
    PkgVersion ver;
    const char *hash;
} PkgReq;
typedef VEC(PkgReq) PkgReqs;

/* A line of the require block: a comment (text after "--") or a requirement. */
typedef struct PkgItem {
    const char *comment;
    PkgReq req;
} PkgItem;

typedef VEC(const char *) PkgComments;

/* A futhark.pkg file: comments before the package line, the package path
 * (NULL if none), comments before the require block, its lines, and the
 * comments after it. Vectors live in the manifest's arena. */
typedef struct PkgManifest {
    Arena *arena;
    PkgComments before_package, before_require, after;
    const char *package;
    VEC(PkgItem) items;
} PkgManifest;

/* Parses text (the contents of file); on a syntax error reports it with
 * diag_error at its line and column and returns false. */
bool pkg_manifest_parse(Arena *a, const char *file, const char *text, PkgManifest *m);
/* The manifest as futhark.pkg text, in Futhark's layout. */
void pkg_manifest_print(const PkgManifest *m, Buf *out);

/* The requirement for path, or NULL. */
PkgReq *pkg_manifest_find(PkgManifest *m, const char *path);
/* Replaces the requirement for r->path (returning the old one in *old if
 * old != NULL) or appends r; true if one was replaced. */
bool pkg_manifest_require(PkgManifest *m, const PkgReq *r, PkgReq *old);
/* Removes path's requirement and its source line; false if not required. */
bool pkg_manifest_remove(PkgManifest *m, const char *path, PkgReq *old);
/* The requirements in file order. */
void pkg_manifest_reqs(const PkgManifest *m, PkgReqs *out);

/* Where a package is fetched from when it is not at https://PATH: a comment
 * line "-- futhorc-source: PATH LOCATION" in the require block (Futhark
 * ignores it as a comment). pkg_manifest_source returns LOCATION or NULL;
 * pkg_manifest_set_source puts the line just above path's requirement. */
const char *pkg_manifest_source(const PkgManifest *m, const char *path);
void pkg_manifest_set_source(PkgManifest *m, const char *path, const char *location);

/* Minimal version selection. get_deps gives the requirements of version v
 * of package r->path (checking r->hash when set) or returns false after
 * reporting why. The build list is every package reachable from roots at
 * the highest minimum any reachable requirement asks for, sorted by path. */
typedef bool (*PkgGetDeps)(void *ctx, const PkgReq *r, PkgReqs *deps);
bool pkg_solve(Arena *a, const PkgReqs *roots, PkgGetDeps get_deps, void *ctx, PkgReqs *build_list);

#endif
