/* Helpers for unit tests that start from source text: the program is
 * parsed and checked after the real prelude and internalised. Include after
 * cmocka.h. */
#ifndef FUTHORC_TEST_FROM_SOURCE_H
#define FUTHORC_TEST_FROM_SOURCE_H

#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "ir/ir.h"
#include "lower/internalise.h"
#include "syntax/ast.h"
#include "tools/structure.h"
#include "util/embedded.h"

/* Internalises src (as file t.fut) into a Prog that owns its arena
 * (p->arena, which the test may free). */
static inline Prog *unit_from_source(const char *src) {
    Arena *a = calloc(1, sizeof(Arena));
    const char *pname = intern("<prelude>"), *fname = intern("t.fut");
    const char *prelude = embedded_get("stdlib/prelude.fut");
    diag_register_source(pname, prelude);
    diag_register_source(fname, src);
    Program *files[2] = {parse_program(a, pname, prelude), parse_program(a, fname, src)};
    assert_non_null(files[0]);
    assert_non_null(files[1]);
    files[0]->file = pname;
    files[1]->file = fname;
    assert_true(check_programs(a, files, 2));
    InternaliseOpts o = {0};
    Prog *p = internalise(a, files, 2, &o);
    assert_non_null(p);
    assert_ptr_equal(p->arena, a);
    ir_verify(p, "internalise");
    return p;
}

/* Frees a program that owns its arena (unit_from_source's). */
static inline void unit_free(Prog *p) {
    Arena *a = p->arena;
    arena_free(a);
    free(a);
}

/* The count of construct name in p's structure (0 if absent). */
static inline int unit_structure_count(const Prog *p, const char *name) {
    Buf b = {0};
    structure_print(&b, p);
    int n = 0;
    size_t len = strlen(name);
    for (const char *l = b.data; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (!strncmp(l, name, len) && l[len] == ' ') n = atoi(l + len + 1);
    buf_free(&b);
    return n;
}

#endif
