/* Unit tests of ir_clone_stm (compiler/ir/clone.c): a copy of every
 * host-level statement of a program with loops, ifs, scans, reductions,
 * scatters and histograms inside maps binds fresh Vars (the program with
 * the copies after the originals still verifies: no Var is bound twice
 * and every use is in scope), prints as the original does up to the
 * numbers of its Vars, and shares nothing a pass might rewrite in place. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "from_source.h"

static const char *const clone_src =
    "def main [n] (xs: [n]i32) (is: [n]i64) =\n"
    "  let ys = map (\\x -> loop acc = x for i < 3 do if acc > 2 then acc - i32.i64 i else acc * 2) xs\n"
    "  let zs = map (\\x -> let r = iota (1 + i64.i32 (x % 5)) in reduce (+) 0 r + (scan (+) 0 r)[0]) xs\n"
    "  let s = scatter (copy xs) is ys\n"
    "  let h = hist (+) 0 n is (map i32.i64 zs)\n"
    "  let w = loop w = xs for _i < 2 do map2 (+) w ys\n"
    "  in (s, h, w, zs)\n";

/* p's text with every "_<digits>" (a Var's number) as "_N". */
static char *anonymous_text(const Prog *p) {
    Buf b = {0};
    ir_print(&b, p);
    char *r = malloc(b.len + 1), *o = r;
    for (const char *s = b.data; *s; s++) {
        *o++ = *s;
        if (*s == '_' && s[1] >= '0' && s[1] <= '9') {
            *o++ = 'N';
            while (s[1] >= '0' && s[1] <= '9') s++;
        }
    }
    *o = 0;
    buf_free(&b);
    return r;
}

static void test_clone_fresh_and_equal(void **state) {
    (void)state;
    Prog *p = unit_from_source(clone_src);
    Body *b = p->funs[0]->body;
    int n = b->nstms;
    Stm **orig = b->stms;
    Stm **both = NEW_ARRAY(p->arena, Stm *, 2 * n + 1);
    COPY_ARRAY(both, orig, n);
    for (int i = 0; i < n; i++) both[n + i] = ir_clone_stm(p, orig[i]);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < orig[i]->npat; j++) assert_ptr_not_equal(orig[i]->pat[j], both[n + i]->pat[j]);
    b->stms = both;
    b->nstms = 2 * n;
    ir_verify(p, "clone"); /* aborts on a Var bound twice or used out of scope */
    b->nstms = n;
    char *before = anonymous_text(p);
    b->stms = both + n;
    char *after = anonymous_text(p);
    assert_string_equal(before, after);
    free(after);
    /* Rewriting the copy in place leaves the original as it was. */
    for (int i = 0; i < n; i++) {
        Stm *c = both[n + i];
        if (c->e->kind == IE_SCREMA && c->e->screma.map->body->nres)
            c->e->screma.map->body->res[0] = se_const(prim_int(PT_I64, 7));
        if (c->e->kind == IE_LOOP) c->e->loop.inits[0] = se_const(prim_int(PT_I64, 7));
    }
    b->stms = orig;
    char *again = anonymous_text(p);
    assert_string_equal(before, again);
    free(before);
    free(again);
    unit_free(p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clone_fresh_and_equal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
