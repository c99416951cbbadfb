/* Unit tests of Futhark's package model (compiler/tools/pkg_manifest.c):
 * versions, futhark.pkg parsing and printing with comments, editing, the
 * source lines, and minimal version selection over a registry in memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tools/pkg_manifest.h"

static PkgVersion ver(Arena *a, const char *s) {
    PkgVersion v;
    assert_true(pkg_version_parse(a, s, &v));
    return v;
}

static void test_versions(void **state) {
    Arena a = {0};
    PkgVersion v;
    const char *good[] = {"0.0.0", "1.2.3", "10.20.30", "0.0.0-20240101120000+abc123", "1.0.0-1", "1.0.0+x"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        assert_true(pkg_version_parse(&a, good[i], &v));
        assert_string_equal(pkg_version_str(&a, &v), good[i]);
    }
    const char *bad[] = {"", "1", "1.2", "1.2.3.4", "01.2.3", "1.2.3-", "1.2.3-x", "1.2.3+", "v1.2.3", "1.2.3 ", "1.-2.3"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) assert_false(pkg_version_parse(&a, bad[i], &v));
    PkgVersion x = ver(&a, "1.2.3"), y = ver(&a, "1.10.0"), z = ver(&a, "1.2.3-5");
    assert_true(pkg_version_cmp(&x, &y) < 0);
    assert_true(pkg_version_cmp(&y, &x) > 0);
    assert_true(pkg_version_cmp(&z, &x) < 0); /* a pre-release comes before its release */
    PkgVersion c1 = ver(&a, "0.0.0-20200101000000+aa"), c2 = ver(&a, "0.0.0-20210101000000+bb");
    assert_true(pkg_version_cmp(&c1, &c2) < 0);
    assert_true(pkg_version_cmp(&c2, &x) < 0); /* any release is newer than a commit */
    assert_string_equal(pkg_version_commit(&c1), "aa");
    assert_null(pkg_version_commit(&x));
    arena_free(&a);
}

static void roundtrip(const char *text, const char *want) {
    Arena a = {0};
    PkgManifest m;
    assert_true(pkg_manifest_parse(&a, "futhark.pkg", text, &m));
    Buf out = {0};
    pkg_manifest_print(&m, &out);
    assert_string_equal(out.data, want);
    buf_free(&out);
    arena_free(&a);
}

static void test_parse_print(void **state) {
    roundtrip("", "require {\n}\n");
    roundtrip("package github.com/a/b\n", "package github.com/a/b\n\nrequire {\n}\n");
    roundtrip("package github.com/diku-dk/sorts\n\nrequire {\n  github.com/diku-dk/segmented 0.5.1 "
              "#8246db5c9ac1a5bd20a5f24d9b03a2fd44e9d164\n}\n",
              "package github.com/diku-dk/sorts\n\nrequire {\n  github.com/diku-dk/segmented 0.5.1 "
              "#8246db5c9ac1a5bd20a5f24d9b03a2fd44e9d164\n}\n");
    /* comments in every place, odd spacing, CRLF and a commit version */
    roundtrip("--a\r\n\n  package x.org/p@2 -- b\nrequire{ x.org/q 1.0.0\n\t-- c\nx.org/r  0.0.0-20200101000000+ff}\n--d",
              "--a\npackage x.org/p@2\n\n-- b\nrequire {\n  x.org/q 1.0.0\n  -- c\n  x.org/r 0.0.0-20200101000000+ff\n}\n--d\n");
}

/* text does not parse; the error is at line:col. */
static void bad(const char *text, int line, int col) {
    Arena a = {0};
    PkgManifest m;
    diag_reset();
    char *err = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&err, &len);
    FILE *saved = stderr;
    stderr = mem;
    bool ok = pkg_manifest_parse(&a, "futhark.pkg", text, &m);
    stderr = saved;
    fclose(mem);
    assert_false(ok);
    char want[64];
    snprintf(want, sizeof want, "futhark.pkg:%d:%d: error:", line, col);
    if (!strstr(err, want)) fail_msg("no \"%s\" in: %s", want, err);
    free(err);
    arena_free(&a);
}

static void test_errors(void **state) {
    bad("package\n", 2, 1);
    bad("require {\n  x.org/a 1.2\n}\n", 2, 11);
    bad("require {\n  x.org/a 1.2.3 #\n}\n", 2, 18);
    bad("require {\n  x.org/a 1.2.3 extra\n}\n", 2, 17);
    bad("require {\n  x.org/a 1.2.3\n", 3, 1);
    bad("require {\n  x.org/a 1.2.3\n  x.org/a 1.2.4\n}\n", 3, 3);
    bad("package a\npackage b\n", 2, 1);
    bad("require {\n}\nrequire {\n}\n", 3, 1);
}

static void test_edit(void **state) {
    Arena a = {0};
    PkgManifest m;
    assert_true(pkg_manifest_parse(&a, "futhark.pkg", "require {\n  x.org/a 1.0.0\n  -- keep\n}\n", &m));
    PkgReq r = {"x.org/b", ver(&a, "2.0.0"), "cafe"}, old;
    assert_false(pkg_manifest_require(&m, &r, &old));
    pkg_manifest_set_source(&m, "x.org/b", "../b");
    r.ver = ver(&a, "2.1.0");
    assert_true(pkg_manifest_require(&m, &r, &old));
    assert_string_equal(pkg_version_str(&a, &old.ver), "2.0.0");
    assert_string_equal(pkg_manifest_source(&m, "x.org/b"), "../b");
    assert_null(pkg_manifest_source(&m, "x.org/a"));
    pkg_manifest_set_source(&m, "x.org/b", "/elsewhere/b"); /* replaces the line */
    Buf out = {0};
    pkg_manifest_print(&m, &out);
    assert_string_equal(out.data, "require {\n  x.org/a 1.0.0\n  -- keep\n  -- futhorc-source: x.org/b /elsewhere/b\n"
                                  "  x.org/b 2.1.0 #cafe\n}\n");
    assert_true(pkg_manifest_remove(&m, "x.org/b", &old));
    assert_false(pkg_manifest_remove(&m, "x.org/b", &old));
    out.len = 0;
    pkg_manifest_print(&m, &out);
    assert_string_equal(out.data, "require {\n  x.org/a 1.0.0\n  -- keep\n}\n");
    buf_free(&out);
    arena_free(&a);
}

/* A registry in memory: each package version's requirements, "p v: q w,
 * r u". */
typedef struct Registry {
    Arena *a;
    const char **entries;
    int calls;
} Registry;

static bool reg_deps(void *ctx, const PkgReq *r, PkgReqs *deps) {
    Registry *g = ctx;
    g->calls++;
    const char *key = arena_printf(g->a, "%s %s:", r->path, pkg_version_str(g->a, &r->ver));
    for (const char **e = g->entries; *e; e++) {
        if (strncmp(*e, key, strlen(key))) continue;
        char *rest = arena_strdup(g->a, *e + strlen(key));
        for (char *tok = strtok(rest, ","); tok; tok = strtok(NULL, ",")) {
            char path[64], v[32];
            if (sscanf(tok, "%63s %31s", path, v) != 2) continue;
            PkgReq d = {arena_strdup(g->a, path), ver(g->a, v), NULL};
            vec_push_in(g->a, deps, d);
        }
        return true;
    }
    return false;
}

/* Solves roots ("p v" each) and compares the build list, "p v;q w". */
static void solve(const char **entries, const char *roots, const char *want) {
    Arena a = {0};
    Registry g = {&a, entries, 0};
    PkgReqs rs = {0}, bl = {0};
    char *text = arena_strdup(&a, roots);
    for (char *tok = strtok(text, ","); tok; tok = strtok(NULL, ",")) {
        char path[64], v[32];
        assert_int_equal(sscanf(tok, "%63s %31s", path, v), 2);
        PkgReq r = {arena_strdup(&a, path), ver(&a, v), NULL};
        vec_push_in(&a, &rs, r);
    }
    bool ok = pkg_solve(&a, &rs, reg_deps, &g, &bl);
    Buf got = {0};
    if (!ok) buf_puts(&got, "error");
    for (int i = 0; ok && i < bl.len; i++)
        buf_printf(&got, "%s%s %s", i ? ";" : "", bl.items[i].path, pkg_version_str(&a, &bl.items[i].ver));
    assert_string_equal(got.data ? got.data : "", want);
    buf_free(&got);
    arena_free(&a);
}

static void test_solve(void **state) {
    const char *reg[] = {
        "a 1.0.0: c 1.0.0", "a 1.1.0: c 1.2.0, d 1.0.0", "b 1.0.0: c 1.1.0", "c 1.0.0:", "c 1.1.0:",
        "c 1.2.0:", "d 1.0.0: e 1.0.0", "e 1.0.0:", "x 1.0.0: y 1.0.0", "y 1.0.0: x 1.0.0",
        "p 1.0.0: q 1.0.0", "p 1.1.0:", "q 1.0.0:", "r 1.0.0: p 1.1.0", NULL,
    };
    solve(reg, "", "");
    solve(reg, "a 1.0.0", "a 1.0.0;c 1.0.0");
    /* the highest minimum of c wins */
    solve(reg, "a 1.0.0,b 1.0.0", "a 1.0.0;b 1.0.0;c 1.1.0");
    solve(reg, "b 1.0.0,a 1.1.0", "a 1.1.0;b 1.0.0;c 1.2.0;d 1.0.0;e 1.0.0");
    /* a root asking for a newer version than a dependency does */
    solve(reg, "a 1.0.0,c 1.2.0", "a 1.0.0;c 1.2.0");
    /* q, needed only by the older p, is left out */
    solve(reg, "p 1.0.0,r 1.0.0", "p 1.1.0;r 1.0.0");
    /* a cycle ends */
    solve(reg, "x 1.0.0", "x 1.0.0;y 1.0.0");
    /* an unknown version fails */
    solve(reg, "a 9.0.0", "error");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_versions), cmocka_unit_test(test_parse_print), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_edit),     cmocka_unit_test(test_solve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
