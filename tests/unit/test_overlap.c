/* Unit tests for compiler/ir/lmad_overlap.c, the LMAD non-overlap prover:
 * cases it must prove (rows i and i+1, the halves of a split, columns of
 * one row, a transposed block against another), cases it must not (an
 * overlap, a self-overlapping slice, a stride of unknown sign), and two
 * property checks against a brute-force enumeration of addresses: random
 * constant LMADs, and random symbolic ones evaluated at random values of
 * their variables. "Disjoint" must never be answered for sets that share
 * an address. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "ir/lmad.h"

static Arena arena;

static int setup(void **state) {
    (void)state;
    memset(&arena, 0, sizeof arena);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    arena_free(&arena);
    return 0;
}

static Sym *C(int64_t c) { return sym_const(&arena, c); }
static Sym *V(int id) { return sym_var(&arena, id); }
static Sym *ADD(const Sym *x, const Sym *y) { return sym_add(&arena, x, y); }
static Sym *MUL(const Sym *x, const Sym *y) { return sym_mul(&arena, x, y); }

/* Variables 1..8: all >= 1 (sizes of arrays known to have elements). */
enum { NVARS = 9 };
static const char all_pos[NVARS] = {0, 1, 1, 1, 1, 1, 1, 1, 1};
static const SymFacts pos_facts = {NULL, all_pos, NVARS};
static const SymFacts no_facts = {NULL, NULL, 0};

static Lmad *mk(Sym *off, int rank, Sym *const *shape, Sym *const *stride) {
    Lmad *l = NEW(&arena, Lmad);
    l->rank = rank;
    l->offset = off;
    l->dims = NEW_ARRAY(&arena, LmadDim, rank + 1);
    for (int d = 0; d < rank; d++) l->dims[d] = (LmadDim){stride[d], shape[d]};
    return l;
}

/* Row r (an i64 Sym) of a row-major [n][m] array: offset r*m, m elements. */
static Lmad *row(Sym *r, Sym *m) { return mk(MUL(r, m), 1, (Sym *[]){m}, (Sym *[]){C(1)}); }

static bool disjoint(const Lmad *x, const Lmad *y, const SymFacts *k) {
    bool a = lmad_disjoint(&arena, x, y, k), b = lmad_disjoint(&arena, y, x, k);
    assert_true(a == b);
    return a;
}

/* ---- Cases ------------------------------------------------------------------ */

static void test_rows(void **state) {
    (void)state;
    Sym *i = V(1), *m = V(2);
    assert_true(disjoint(row(i, m), row(ADD(i, C(1)), m), &pos_facts));
    assert_true(disjoint(row(i, m), row(ADD(i, C(3)), m), &pos_facts));
    assert_false(disjoint(row(i, m), row(i, m), &pos_facts));
    /* rows i and j: unknown */
    assert_false(disjoint(row(i, m), row(V(3), m), &pos_facts));
    /* without knowing m >= 1, the proof fails: m could be 0 */
    assert_false(disjoint(row(i, m), row(ADD(i, C(1)), m), &no_facts));
}

static void test_split(void **state) {
    (void)state;
    Sym *k = V(1), *r = V(2);
    /* x[0:k] and x[k:k+r] */
    Lmad *lo = mk(C(0), 1, (Sym *[]){k}, (Sym *[]){C(1)});
    Lmad *hi = mk(k, 1, (Sym *[]){r}, (Sym *[]){C(1)});
    assert_true(disjoint(lo, hi, &pos_facts));
    Lmad *hi1 = mk(ADD(k, C(-1)), 1, (Sym *[]){r}, (Sym *[]){C(1)});
    assert_false(disjoint(lo, hi1, &pos_facts));
}

static void test_columns(void **state) {
    (void)state;
    Sym *n = V(1), *m = V(2);
    /* column 0 and column 1 of [n][m], m >= 2 expressed as m = m' + 2 */
    Sym *mm = ADD(m, C(2));
    Lmad *c0 = mk(C(0), 1, (Sym *[]){n}, (Sym *[]){mm});
    Lmad *c1 = mk(C(1), 1, (Sym *[]){n}, (Sym *[]){mm});
    assert_true(disjoint(c0, c1, &pos_facts));
    /* even and odd elements */
    Lmad *ev = mk(C(0), 1, (Sym *[]){n}, (Sym *[]){C(2)});
    Lmad *od = mk(C(1), 1, (Sym *[]){n}, (Sym *[]){C(2)});
    assert_true(disjoint(ev, od, &pos_facts));
}

static void test_blocks(void **state) {
    (void)state;
    /* two 4x4 blocks of a 16x16 matrix, one transposed: (0,0) and (0,4) */
    Lmad *a = mk(C(0), 2, (Sym *[]){C(4), C(4)}, (Sym *[]){C(16), C(1)});
    Lmad *b = mk(C(4), 2, (Sym *[]){C(4), C(4)}, (Sym *[]){C(1), C(16)});
    assert_true(disjoint(a, b, &no_facts));
    Lmad *c = mk(C(3), 2, (Sym *[]){C(4), C(4)}, (Sym *[]){C(1), C(16)});
    assert_false(disjoint(a, c, &no_facts));
    /* a reversed row against the next row */
    Lmad *rev = mk(C(15), 1, (Sym *[]){C(16)}, (Sym *[]){C(-1)});
    Lmad *next = mk(C(16), 1, (Sym *[]){C(16)}, (Sym *[]){C(1)});
    assert_true(disjoint(rev, next, &no_facts));
}

static void test_unknown(void **state) {
    (void)state;
    Sym *s = V(1), *n = V(2);
    const char nonneg_n[NVARS] = {0, 0, 1};
    SymFacts k = {nonneg_n, NULL, NVARS};
    /* a stride of unknown sign */
    Lmad *x = mk(C(0), 1, (Sym *[]){n}, (Sym *[]){s});
    Lmad *y = mk(C(100), 1, (Sym *[]){n}, (Sym *[]){C(1)});
    assert_false(disjoint(x, y, &k));
    /* a self-overlapping slice against a point it covers */
    Lmad *self = mk(C(0), 2, (Sym *[]){C(3), C(3)}, (Sym *[]){C(1), C(1)});
    Lmad *pt = mk(C(4), 0, NULL, NULL);
    assert_false(disjoint(self, pt, &no_facts));
    Lmad *far = mk(C(5), 0, NULL, NULL);
    assert_true(disjoint(self, far, &no_facts));
}

/* ---- Brute force -------------------------------------------------------------- */

enum { MAX_ADDR = 4096 };

/* The addresses of a constant LMAD, marked in seen (offset by MAX_ADDR/2);
 * false when one falls outside. */
static bool enumerate(const int64_t *off_st_sh, int rank, unsigned char *seen, unsigned char mark) {
    int64_t idx[8] = {0};
    for (int d = 0; d < rank; d++)
        if (off_st_sh[2 + 2 * d] == 0) return true;
    for (;;) {
        int64_t a = off_st_sh[0];
        for (int d = 0; d < rank; d++) a += idx[d] * off_st_sh[1 + 2 * d];
        a += MAX_ADDR / 2;
        if (a < 0 || a >= MAX_ADDR) return false;
        seen[a] |= mark;
        int d = rank - 1;
        while (d >= 0 && ++idx[d] == off_st_sh[2 + 2 * d]) idx[d--] = 0;
        if (d < 0) return true;
    }
}

/* A constant LMAD from its description [offset, stride0, shape0, ...]. */
static Lmad *from_desc(const int64_t *desc, int rank) {
    Sym *shape[8], *stride[8];
    for (int d = 0; d < rank; d++) stride[d] = C(desc[1 + 2 * d]), shape[d] = C(desc[2 + 2 * d]);
    return mk(C(desc[0]), rank, shape, stride);
}

static int64_t rnd(int64_t lo, int64_t hi) { return lo + rand() % (hi - lo + 1); }

static void random_desc(int64_t *desc, int rank) {
    desc[0] = rnd(0, 40);
    for (int d = 0; d < rank; d++) {
        desc[1 + 2 * d] = rnd(-6, 12);
        desc[2 + 2 * d] = rnd(1, 5);
    }
}

static bool overlap_brute(const int64_t *dx, int rx, const int64_t *dy, int ry) {
    static unsigned char seen[MAX_ADDR];
    memset(seen, 0, sizeof seen);
    assert_true(enumerate(dx, rx, seen, 1));
    assert_true(enumerate(dy, ry, seen, 2));
    for (int i = 0; i < MAX_ADDR; i++)
        if (seen[i] == 3) return true;
    return false;
}

static void test_random_constant(void **state) {
    (void)state;
    srand(17);
    int proven = 0, truly = 0;
    for (int c = 0; c < 20000; c++) {
        int64_t dx[17], dy[17];
        int rx = (int)rnd(0, 3), ry = (int)rnd(0, 3);
        random_desc(dx, rx);
        random_desc(dy, ry);
        bool brute = overlap_brute(dx, rx, dy, ry);
        bool claim = lmad_disjoint(&arena, from_desc(dx, rx), from_desc(dy, ry), &no_facts);
        if (claim) assert_false(brute);
        truly += !brute;
        proven += claim;
        if (c % 1000 == 999) arena_free(&arena);
    }
    /* The heuristic is incomplete; it proves over 80% of the disjoint pairs. */
    print_message("constant LMADs: %d of %d disjoint pairs proven\n", proven, truly);
    assert_true(proven * 10 > truly * 8);
}

/* Symbolic LMADs over variables 1..3: each offset, stride and shape is a
 * random small polynomial in them; both are evaluated at random values
 * (1..4) of the variables and enumerated whenever the prover claims
 * "disjoint" with all variables >= 1. */
static Sym *random_poly(int64_t *coef) {
    coef[0] = rnd(-2, 4);
    Sym *s = C(coef[0]);
    for (int v = 1; v <= 3; v++) {
        coef[v] = rand() % 3 ? 0 : rnd(-1, 2);
        s = ADD(s, MUL(C(coef[v]), V(v)));
    }
    return s;
}

static int64_t eval_poly(const int64_t *coef, const int64_t *val) {
    int64_t x = coef[0];
    for (int v = 1; v <= 3; v++) x += coef[v] * val[v];
    return x;
}

static void test_random_symbolic(void **state) {
    (void)state;
    srand(23);
    int proven = 0;
    for (int c = 0; c < 5000; c++) {
        int rank[2] = {(int)rnd(1, 2), (int)rnd(1, 2)};
        int64_t coef[2][5][4];
        Lmad *l[2];
        for (int t = 0; t < 2; t++) {
            Sym *sh[2], *st[2];
            Sym *off = random_poly(coef[t][0]);
            for (int d = 0; d < rank[t]; d++) {
                st[d] = random_poly(coef[t][1 + 2 * d]);
                sh[d] = random_poly(coef[t][2 + 2 * d]);
            }
            l[t] = mk(off, rank[t], sh, st);
        }
        if (!lmad_disjoint(&arena, l[0], l[1], &pos_facts)) continue;
        proven++;
        for (int trial = 0; trial < 40; trial++) {
            int64_t val[4] = {0, rnd(1, 4), rnd(1, 4), rnd(1, 4)};
            int64_t desc[2][5];
            bool ok = true;
            for (int t = 0; t < 2; t++)
                for (int j = 0; j < 1 + 2 * rank[t]; j++) {
                    desc[t][j] = eval_poly(coef[t][j], val);
                    if (j > 0 && j % 2 == 0 && desc[t][j] < 0) ok = false; /* negative shape: no array */
                    if (llabs(desc[t][j]) > 30) ok = false;
                }
            if (ok) assert_false(overlap_brute(desc[0], rank[0], desc[1], rank[1]));
        }
        if (c % 500 == 499) arena_free(&arena);
    }
    print_message("symbolic LMADs: %d pairs proven disjoint, each checked at 40 points\n", proven);
    assert_true(proven > 100);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_rows, setup, teardown),
        cmocka_unit_test_setup_teardown(test_split, setup, teardown),
        cmocka_unit_test_setup_teardown(test_columns, setup, teardown),
        cmocka_unit_test_setup_teardown(test_blocks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unknown, setup, teardown),
        cmocka_unit_test_setup_teardown(test_random_constant, setup, teardown),
        cmocka_unit_test_setup_teardown(test_random_symbolic, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
