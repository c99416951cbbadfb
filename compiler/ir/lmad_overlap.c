/* The non-overlap test of two LMADs (../shared/reference/seed-002-funmem.md
 * §1.4, after Munksgaard's thesis §3.6): sound and incomplete. "Disjoint"
 * is answered only when it is proven; anything unknown (a stride or term
 * of unknown sign, strides that cannot be ordered) answers "may overlap".
 *
 * Both LMADs become sums of strided intervals (SOSIs) over one list of
 * strides sorted in decreasing order: set s is the points
 * sum_k j_k * stride_k with lo_s,k <= j_k <= hi_s,k. Negative strides are
 * flipped (the offset moves to the other end), dimensions of equal stride
 * merge, and the difference of the offsets is distributed into the
 * intervals term by term (a term divisible by a stride shifts that
 * stride's interval). When every point of the union has one index vector
 * (each stride exceeds the largest span of the smaller strides), a common
 * point has one index vector in both sets, so one dimension whose
 * intervals are disjoint proves the sets disjoint. Two cheaper tests come
 * first: one set lies wholly below the other, or (all constant) the
 * offsets differ modulo the gcd of the strides. When that uniqueness
 * fails at a stride, the next dimension is split into its top element and
 * the rest, and every pair of pieces is tested, a few levels deep. */
#include "lmad.h"

enum { SOSI_MAX_DIMS = 24, SOSI_SPLIT_DEPTH = 3 };

typedef struct Sosi {
    int rank;
    Sym *stride[SOSI_MAX_DIMS];
    Sym *lo[2][SOSI_MAX_DIMS], *hi[2][SOSI_MAX_DIMS];
} Sosi;

typedef struct Prover {
    Arena *a;
    const SymFacts *k;
} Prover;

/* x >= y + 1, proven. */
static bool lt(Prover *p, const Sym *x, const Sym *y) {
    return sym_nonneg(sym_sub(p->a, sym_sub(p->a, y, x), sym_const(p->a, 1)), p->k);
}

static bool ge(Prover *p, const Sym *x, const Sym *y) { return sym_nonneg(sym_sub(p->a, x, y), p->k); }

/* Index of stride st in s, appending it with [0, 0] in both sets when new;
 * -1 when there is no room. */
static int stride_dim(Prover *p, Sosi *s, Sym *st) {
    for (int d = 0; d < s->rank; d++)
        if (sym_equal(s->stride[d], st)) return d;
    if (s->rank == SOSI_MAX_DIMS) return -1;
    int d = s->rank++;
    s->stride[d] = st;
    for (int t = 0; t < 2; t++) s->lo[t][d] = s->hi[t][d] = sym_const(p->a, 0);
    return d;
}

/* Adds LMAD l as set t; its offset (after flipping negative strides) goes
 * to *off. False when a stride has unknown sign. */
static bool add_lmad(Prover *p, Sosi *s, int t, const Lmad *l, Sym **off) {
    Sym *o = l->offset;
    for (int d = 0; d < l->rank; d++) {
        Sym *st = l->dims[d].stride, *last = sym_sub(p->a, l->dims[d].shape, sym_const(p->a, 1));
        int64_t c;
        if ((sym_is_const(l->dims[d].shape, &c) && c == 1) || (sym_is_const(st, &c) && c == 0)) continue;
        if (!sym_nonneg(st, p->k)) {
            st = sym_neg(p->a, st);
            if (!sym_nonneg(st, p->k)) return false;
            o = sym_sub(p->a, o, sym_mul(p->a, last, st));
        }
        int k = stride_dim(p, s, st);
        if (k < 0) return false;
        s->hi[t][k] = sym_add(p->a, s->hi[t][k], last);
    }
    *off = o;
    return true;
}

/* Sorts the strides in decreasing order; false when two cannot be ordered. */
static bool sort_strides(Prover *p, Sosi *s) {
    for (int i = 1; i < s->rank; i++)
        for (int j = i; j > 0; j--) {
            if (ge(p, s->stride[j - 1], s->stride[j])) break;
            if (!ge(p, s->stride[j], s->stride[j - 1])) return false;
            Sym *t = s->stride[j];
            s->stride[j] = s->stride[j - 1], s->stride[j - 1] = t;
            for (int u = 0; u < 2; u++) {
                t = s->lo[u][j], s->lo[u][j] = s->lo[u][j - 1], s->lo[u][j - 1] = t;
                t = s->hi[u][j], s->hi[u][j] = s->hi[u][j - 1], s->hi[u][j - 1] = t;
            }
        }
    return true;
}

/* Shifts the interval of the largest stride (among the first `below`)
 * that divides v (>= 0) exactly in set t by the quotient; false when none
 * does. */
static bool shift_by(Prover *p, Sosi *s, int t, const Sym *v, int below) {
    for (int d = 0; d < below; d++) {
        Sym *q = sym_div(p->a, v, s->stride[d]);
        if (!sym_equal(sym_mul(p->a, q, s->stride[d]), v) || !sym_nonneg(q, p->k)) continue;
        s->lo[t][d] = sym_add(p->a, s->lo[t][d], q);
        s->hi[t][d] = sym_add(p->a, s->hi[t][d], q);
        return true;
    }
    return false;
}

/* Distributes diff = offset_0 - offset_1: each positive term into set 0's
 * intervals, each negative one into set 1's. A stride of 1 divides every
 * term; it is added when some term needs it. */
static bool distribute(Prover *p, Sosi *s, const Sym *diff) {
    for (int i = 0; i < sym_nterms(diff); i++) {
        Sym *t = sym_term_at(p->a, diff, i);
        int set = 0;
        if (!sym_nonneg(t, p->k)) {
            t = sym_neg(p->a, t);
            set = 1;
            if (!sym_nonneg(t, p->k)) return false;
        }
        if (shift_by(p, s, set, t, s->rank)) continue;
        if (stride_dim(p, s, sym_const(p->a, 1)) < 0 || !sort_strides(p, s) || !shift_by(p, s, set, t, s->rank))
            return false;
    }
    return true;
}

/* An upper bound of |j - j'| for j in set 0's interval d and j' in set
 * 1's, or NULL when neither candidate is provably the larger. */
static Sym *span(Prover *p, const Sosi *s, int d) {
    Sym *x = sym_sub(p->a, s->hi[0][d], s->lo[1][d]), *y = sym_sub(p->a, s->hi[1][d], s->lo[0][d]);
    if (ge(p, x, y)) return x;
    if (ge(p, y, x)) return y;
    return NULL;
}

/* The first dimension at which a point of the union may have two index
 * vectors (its stride does not exceed the spans of the smaller ones), or
 * -1 when every point has one. */
static int first_ambiguous(Prover *p, const Sosi *s) {
    Sym *rest = sym_const(p->a, 0);
    for (int d = s->rank - 1; d >= 0; d--) {
        if (!lt(p, rest, s->stride[d])) return d;
        if (d == 0) break;
        Sym *w = span(p, s, d);
        if (!w) return d - 1;
        rest = sym_add(p->a, rest, sym_mul(p->a, w, s->stride[d]));
    }
    return -1;
}

static bool sosi_disjoint(Prover *p, const Sosi *s, int depth);

/* Piece `top` of set t split at dimension d: its top element (moved into
 * a larger stride when one divides it) or the rest. */
static void split_piece(Prover *p, Sosi *s, int t, int d, bool top) {
    if (!top) {
        s->hi[t][d] = sym_sub(p->a, s->hi[t][d], sym_const(p->a, 1));
        return;
    }
    Sym *v = sym_mul(p->a, s->hi[t][d], s->stride[d]);
    s->lo[t][d] = s->hi[t][d];
    if (d > 0 && shift_by(p, s, t, v, d)) s->lo[t][d] = s->hi[t][d] = sym_const(p->a, 0);
}

static bool sosi_disjoint(Prover *p, const Sosi *s, int depth) {
    int amb = first_ambiguous(p, s);
    if (amb < 0) {
        for (int d = 0; d < s->rank; d++)
            if (lt(p, s->hi[0][d], s->lo[1][d]) || lt(p, s->hi[1][d], s->lo[0][d])) return true;
        return false;
    }
    int d = amb + 1;
    if (depth == 0 || d >= s->rank) return false;
    for (int c = 0; c < 4; c++) {
        Sosi piece = *s;
        split_piece(p, &piece, 0, d, c & 1);
        split_piece(p, &piece, 1, d, c & 2);
        if (!sosi_disjoint(p, &piece, depth - 1)) return false;
    }
    return true;
}

/* Whether every point of set t lies below every point of set u. */
static bool below(Prover *p, const Sosi *s, int t, int u) {
    Sym *top = sym_const(p->a, 0), *bottom = sym_const(p->a, 0);
    for (int d = 0; d < s->rank; d++) {
        top = sym_add(p->a, top, sym_mul(p->a, s->hi[t][d], s->stride[d]));
        bottom = sym_add(p->a, bottom, sym_mul(p->a, s->lo[u][d], s->stride[d]));
    }
    return lt(p, top, bottom);
}

static int64_t gcd(int64_t x, int64_t y) {
    while (y) {
        int64_t t = x % y;
        x = y, y = t;
    }
    return x;
}

/* With constant strides and offsets: every point of set t is its offset
 * modulo the strides' gcd, so offsets that differ modulo it never meet. */
static bool residues_differ(const Sosi *s, const Sym *diff) {
    int64_t g = 0, d, c;
    if (!sym_is_const(diff, &d)) return false;
    for (int k = 0; k < s->rank; k++) {
        if (!sym_is_const(s->stride[k], &c)) return false;
        g = gcd(g, c);
    }
    return g > 1 && d % g != 0;
}

bool lmad_disjoint(Arena *a, const Lmad *x, const Lmad *y, const SymFacts *k) {
    Prover p = {a, k};
    Sosi s = {0};
    Sym *ox, *oy;
    if (!add_lmad(&p, &s, 0, x, &ox) || !add_lmad(&p, &s, 1, y, &oy) || !sort_strides(&p, &s)) return false;
    Sym *diff = sym_sub(a, ox, oy);
    if (residues_differ(&s, diff)) return true;
    if (!distribute(&p, &s, diff)) return false;
    return below(&p, &s, 0, 1) || below(&p, &s, 1, 0) || sosi_disjoint(&p, &s, SOSI_SPLIT_DEPTH);
}

bool lmad_injective(Arena *a, const Lmad *l, const SymFacts *k) {
    Prover p = {a, k};
    int r = l->rank;
    Sym **mag = NEW_ARRAY(a, Sym *, r + 1), **ext = NEW_ARRAY(a, Sym *, r + 1);
    bool *done = NEW_ARRAY(a, bool, r + 1);
    Sym *zero = sym_const(a, 0), *rest = zero;
    int left = r;
    for (int d = 0; d < r; d++) {
        Sym *s = l->dims[d].stride;
        mag[d] = ge(&p, s, zero) ? s : ge(&p, zero, s) ? sym_neg(a, s) : NULL;
        ext[d] = sym_sub(a, l->dims[d].shape, sym_const(a, 1));
        int64_t c;
        if (sym_is_const(ext[d], &c) && c <= 0) done[d] = true, left--; /* one index (or none) */
        else if (!mag[d] || !ge(&p, ext[d], zero)) return false;
    }
    while (left > 0) {
        /* the candidate of smallest magnitude, where that is provable */
        int pick = -1;
        for (int d = 0; d < r; d++)
            if (!done[d] && lt(&p, rest, mag[d]) && (pick < 0 || ge(&p, mag[pick], mag[d]))) pick = d;
        if (pick < 0) return false;
        done[pick] = true, left--;
        rest = sym_add(a, rest, sym_mul(a, ext[pick], mag[pick]));
    }
    return true;
}
