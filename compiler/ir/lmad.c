/* Symbolic index arithmetic (Sym) and linear memory access descriptors
 * (LMADs), after ../shared/reference/seed-002-funmem.md §1 (Munksgaard's
 * thesis, ch. 3: slicing, fixing, permuting, row-major layouts, and reshape
 * by joining and splitting dimensions whose strides compose).
 *
 * A Sym is a polynomial with int64 coefficients: a sum of terms, each a
 * coefficient times a sorted product of factors. A factor is a variable or
 * an opaque node (a division that did not come out exact, or a sum or
 * product whose coefficients would overflow int64). Terms are sorted by a
 * graded monomial order (degree, then factor sequence) and like terms are
 * merged, so equal polynomials are structurally equal. Coefficient
 * arithmetic is checked; an overflow makes the whole operation an opaque
 * node instead of undefined behaviour. Everything lives in the caller's
 * arena and is never mutated after construction. */
#include "lmad.h"

#include <stdlib.h>
#include <string.h>

/* Sums and products with more terms than this stay opaque: index
 * expressions are small, and repeated products of sums grow exponentially. */
enum { SYM_MAX_TERMS = 64 };
/* Steps of exact polynomial division before giving up; each step removes
 * one term of the quotient, and index quotients have a handful. */
enum { SYM_DIV_MAX_STEPS = 64 };

typedef enum OpaqueKind { OPQ_DIV, OPQ_ADD, OPQ_MUL } OpaqueKind;

typedef struct SymOpaque {
    OpaqueKind kind;
    const Sym *l, *r;
} SymOpaque;

/* A variable (opq == NULL) or an opaque node. */
typedef struct SymFactor {
    int var;
    const SymOpaque *opq;
} SymFactor;

typedef struct SymTerm {
    int64_t coef; /* never 0 */
    int nfac;
    const SymFactor *fac; /* sorted by factor_cmp, repeats for powers */
} SymTerm;

struct Sym {
    int nterms;
    const SymTerm *terms; /* sorted by mono_cmp, distinct monomials */
};

/* ---- Ordering ----------------------------------------------------------------- */

static int sym_cmp(const Sym *x, const Sym *y);

static int cmp_int64(int64_t a, int64_t b) { return (a > b) - (a < b); }

static int factor_cmp(const SymFactor *a, const SymFactor *b) {
    if (!a->opq != !b->opq) return a->opq ? 1 : -1;
    if (!a->opq) return cmp_int64(a->var, b->var);
    if (a->opq->kind != b->opq->kind) return cmp_int64(a->opq->kind, b->opq->kind);
    int c = sym_cmp(a->opq->l, b->opq->l);
    return c ? c : sym_cmp(a->opq->r, b->opq->r);
}

/* Graded order on monomials: degree first, then the sorted factors. */
static int mono_cmp(const SymTerm *a, const SymTerm *b) {
    if (a->nfac != b->nfac) return cmp_int64(a->nfac, b->nfac);
    for (int i = 0; i < a->nfac; i++) {
        int c = factor_cmp(&a->fac[i], &b->fac[i]);
        if (c) return c;
    }
    return 0;
}

static int sym_cmp(const Sym *x, const Sym *y) {
    if (x->nterms != y->nterms) return cmp_int64(x->nterms, y->nterms);
    for (int i = 0; i < x->nterms; i++) {
        int c = mono_cmp(&x->terms[i], &y->terms[i]);
        if (c) return c;
        c = cmp_int64(x->terms[i].coef, y->terms[i].coef);
        if (c) return c;
    }
    return 0;
}

static int mono_qsort_cmp(const void *a, const void *b) { return mono_cmp(a, b); }

/* ---- Construction ------------------------------------------------------------- */

/* Sorts terms (in place) and merges like terms into a Sym; NULL when a
 * coefficient overflows or the result is too large. */
static Sym *normalise(Arena *a, SymTerm *terms, int n) {
    util_sort(terms, (size_t)n, sizeof *terms, mono_qsort_cmp);
    SymTerm *out = NEW_ARRAY(a, SymTerm, n > 0 ? n : 1);
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m > 0 && mono_cmp(&out[m - 1], &terms[i]) == 0) {
            if (__builtin_add_overflow(out[m - 1].coef, terms[i].coef, &out[m - 1].coef))
                return NULL;
        } else {
            if (m > 0 && out[m - 1].coef == 0) m--;
            out[m++] = terms[i];
        }
    }
    if (m > 0 && out[m - 1].coef == 0) m--;
    if (m > SYM_MAX_TERMS) return NULL;
    Sym *s = NEW(a, Sym);
    s->nterms = m;
    s->terms = out;
    return s;
}

/* A Sym of one term with the given coefficient and factors. */
static Sym *sym_term(Arena *a, int64_t coef, int nfac, const SymFactor *fac) {
    Sym *s = NEW(a, Sym);
    if (coef == 0) return s;
    SymTerm *t = NEW(a, SymTerm);
    t->coef = coef;
    t->nfac = nfac;
    t->fac = fac;
    s->nterms = 1;
    s->terms = t;
    return s;
}

static Sym *sym_opaque(Arena *a, OpaqueKind kind, const Sym *l, const Sym *r) {
    SymOpaque *o = NEW(a, SymOpaque);
    o->kind = kind;
    o->l = l;
    o->r = r;
    SymFactor *f = NEW(a, SymFactor);
    f->opq = o;
    return sym_term(a, 1, 1, f);
}

Sym *sym_const(Arena *a, int64_t c) { return sym_term(a, c, 0, NULL); }

Sym *sym_var(Arena *a, int id) {
    SymFactor *f = NEW(a, SymFactor);
    f->var = id;
    return sym_term(a, 1, 1, f);
}

/* x + y, or NULL on overflow. */
static Sym *poly_add(Arena *a, const Sym *x, const Sym *y) {
    int n = x->nterms + y->nterms;
    SymTerm *t = NEW_ARRAY(a, SymTerm, n > 0 ? n : 1);
    for (int i = 0; i < x->nterms; i++) t[i] = x->terms[i];
    for (int i = 0; i < y->nterms; i++) t[x->nterms + i] = y->terms[i];
    return normalise(a, t, n);
}

/* The product of two terms, merging their sorted factors; false on
 * coefficient overflow. */
static bool term_mul(Arena *a, const SymTerm *x, const SymTerm *y, SymTerm *out) {
    if (__builtin_mul_overflow(x->coef, y->coef, &out->coef)) return false;
    SymFactor *f = NEW_ARRAY(a, SymFactor, x->nfac + y->nfac + 1);
    int i = 0, j = 0, k = 0;
    while (i < x->nfac || j < y->nfac) {
        bool take_x = j == y->nfac || (i < x->nfac && factor_cmp(&x->fac[i], &y->fac[j]) <= 0);
        f[k++] = take_x ? x->fac[i++] : y->fac[j++];
    }
    out->nfac = k;
    out->fac = f;
    return true;
}

/* x * y, or NULL on overflow or when too large. */
static Sym *poly_mul(Arena *a, const Sym *x, const Sym *y) {
    if (x->nterms * y->nterms > SYM_MAX_TERMS * SYM_MAX_TERMS) return NULL;
    int n = x->nterms * y->nterms;
    SymTerm *t = NEW_ARRAY(a, SymTerm, n > 0 ? n : 1);
    for (int i = 0; i < x->nterms; i++)
        for (int j = 0; j < y->nterms; j++)
            if (!term_mul(a, &x->terms[i], &y->terms[j], &t[i * y->nterms + j])) return NULL;
    return normalise(a, t, n);
}

Sym *sym_add(Arena *a, const Sym *x, const Sym *y) {
    Sym *s = poly_add(a, x, y);
    return s ? s : sym_opaque(a, OPQ_ADD, x, y);
}

Sym *sym_mul(Arena *a, const Sym *x, const Sym *y) {
    Sym *s = poly_mul(a, x, y);
    return s ? s : sym_opaque(a, OPQ_MUL, x, y);
}

Sym *sym_neg(Arena *a, const Sym *x) { return sym_mul(a, sym_const(a, -1), x); }

Sym *sym_sub(Arena *a, const Sym *x, const Sym *y) { return sym_add(a, x, sym_neg(a, y)); }

/* ---- Division ----------------------------------------------------------------- */

/* The monomial x / y when y's factors are a sub-multiset of x's and its
 * coefficient divides x's exactly. */
static bool term_div(Arena *a, const SymTerm *x, const SymTerm *y, SymTerm *out) {
    if (y->coef == 0 || (x->coef == INT64_MIN && y->coef == -1)) return false;
    if (x->coef % y->coef != 0) return false;
    SymFactor *f = NEW_ARRAY(a, SymFactor, x->nfac + 1);
    int j = 0, k = 0;
    for (int i = 0; i < x->nfac; i++) {
        if (j < y->nfac && factor_cmp(&x->fac[i], &y->fac[j]) == 0) j++;
        else f[k++] = x->fac[i];
    }
    if (j != y->nfac) return false;
    out->coef = x->coef / y->coef;
    out->nfac = k;
    out->fac = f;
    return true;
}

/* Exact multivariate division by the leading term: returns q with
 * x == q * y, or NULL when y does not divide x. The order is multiplicative,
 * so a multiple of y always has a leading term divisible by y's. */
static Sym *poly_div(Arena *a, const Sym *x, const Sym *y) {
    if (y->nterms == 0) return NULL;
    const SymTerm *ly = &y->terms[y->nterms - 1];
    const Sym *q = sym_const(a, 0), *r = x;
    for (int step = 0; step < SYM_DIV_MAX_STEPS; step++) {
        if (r->nterms == 0) return (Sym *)q;
        SymTerm t;
        if (!term_div(a, &r->terms[r->nterms - 1], ly, &t)) return NULL;
        Sym *ts = sym_term(a, t.coef, t.nfac, t.fac);
        Sym *minus_ts = poly_mul(a, sym_const(a, -1), ts);
        Sym *prod = minus_ts ? poly_mul(a, minus_ts, y) : NULL;
        q = poly_add(a, q, ts);
        r = prod ? poly_add(a, r, prod) : NULL;
        if (!q || !r) return NULL;
    }
    return NULL;
}

Sym *sym_div(Arena *a, const Sym *x, const Sym *y) {
    int64_t cx, cy;
    if (sym_is_const(y, &cy)) {
        if (cy == 0) return sym_opaque(a, OPQ_DIV, x, y);
        if (sym_is_const(x, &cx) && !(cx == INT64_MIN && cy == -1)) return sym_const(a, cx / cy);
    }
    Sym *q = poly_div(a, x, y);
    return q ? q : sym_opaque(a, OPQ_DIV, x, y);
}

/* ---- Queries and substitution ------------------------------------------------- */

bool sym_is_const(const Sym *x, int64_t *value) {
    int64_t v = 0;
    if (x->nterms > 1 || (x->nterms == 1 && x->terms[0].nfac > 0)) return false;
    if (x->nterms == 1) v = x->terms[0].coef;
    if (value) *value = v;
    return true;
}

bool sym_equal(const Sym *x, const Sym *y) { return x == y || sym_cmp(x, y) == 0; }

static bool sym_mentions(const Sym *x, int id) {
    for (int i = 0; i < x->nterms; i++) {
        for (int j = 0; j < x->terms[i].nfac; j++) {
            const SymFactor *f = &x->terms[i].fac[j];
            if (!f->opq && f->var == id) return true;
            if (f->opq && (sym_mentions(f->opq->l, id) || sym_mentions(f->opq->r, id)))
                return true;
        }
    }
    return false;
}

/* A factor after substitution, rebuilding opaque nodes (which may now
 * simplify). */
static Sym *factor_subst(Arena *a, const SymFactor *f, int id, const Sym *e) {
    if (!f->opq) return f->var == id ? (Sym *)e : sym_var(a, f->var);
    Sym *l = sym_subst(a, f->opq->l, id, e), *r = sym_subst(a, f->opq->r, id, e);
    switch (f->opq->kind) {
    case OPQ_DIV: return sym_div(a, l, r);
    case OPQ_ADD: return sym_add(a, l, r);
    case OPQ_MUL: return sym_mul(a, l, r);
    }
    return l;
}

Sym *sym_subst(Arena *a, const Sym *x, int id, const Sym *e) {
    if (!sym_mentions(x, id)) return (Sym *)x;
    Sym *sum = sym_const(a, 0);
    for (int i = 0; i < x->nterms; i++) {
        Sym *p = sym_const(a, x->terms[i].coef);
        for (int j = 0; j < x->terms[i].nfac; j++)
            p = sym_mul(a, p, factor_subst(a, &x->terms[i].fac[j], id, e));
        sum = sym_add(a, sum, p);
    }
    return sum;
}

void sym_vars(const Sym *x, void (*fn)(int id, void *ctx), void *ctx) {
    for (int i = 0; i < x->nterms; i++)
        for (int j = 0; j < x->terms[i].nfac; j++) {
            const SymFactor *f = &x->terms[i].fac[j];
            if (!f->opq) {
                fn(f->var, ctx);
                continue;
            }
            sym_vars(f->opq->l, fn, ctx);
            sym_vars(f->opq->r, fn, ctx);
        }
}

bool sym_reads_any(const Sym *x, const char *set) {
    for (int i = 0; i < x->nterms; i++)
        for (int j = 0; j < x->terms[i].nfac; j++) {
            const SymFactor *f = &x->terms[i].fac[j];
            if (f->opq ? sym_reads_any(f->opq->l, set) || sym_reads_any(f->opq->r, set) : set[f->var]) return true;
        }
    return false;
}

/* ---- Signs -------------------------------------------------------------------- */

static bool fact(const char *set, int n, int id) { return set && id >= 0 && id < n && set[id]; }

static bool factor_nonneg(const SymFactor *f, const SymFacts *k) {
    if (!f->opq) return fact(k->nonneg, k->n, f->var) || fact(k->pos, k->n, f->var);
    return sym_nonneg(f->opq->l, k) && sym_nonneg(f->opq->r, k);
}

/* Each monomial with a positive coefficient and nonnegative factors is
 * >= 0, and >= its coefficient when every factor is a variable >= 1; the
 * constant term may be negative when those lower bounds cover it. */
bool sym_nonneg(const Sym *x, const SymFacts *k) {
    int64_t low = 0;
    for (int i = 0; i < x->nterms; i++) {
        const SymTerm *t = &x->terms[i];
        if (t->nfac == 0) {
            low += t->coef;
            continue;
        }
        if (t->coef < 0) return false;
        bool pos = true;
        for (int j = 0; j < t->nfac; j++) {
            if (!factor_nonneg(&t->fac[j], k)) return false;
            pos = pos && !t->fac[j].opq && fact(k->pos, k->n, t->fac[j].var);
        }
        if (pos && __builtin_add_overflow(low, t->coef, &low)) return false;
    }
    return low >= 0;
}

int sym_nterms(const Sym *x) { return x->nterms; }

Sym *sym_term_at(Arena *a, const Sym *x, int i) {
    const SymTerm *t = &x->terms[i];
    return sym_term(a, t->coef, t->nfac, t->fac);
}

static void *fold_factor(const SymFactor *f, const SymFold *fd, void *ctx) {
    if (!f->opq) return fd->var(f->var, ctx);
    void *l = sym_fold(f->opq->l, fd, ctx), *r = sym_fold(f->opq->r, fd, ctx);
    switch (f->opq->kind) {
    case OPQ_DIV: return fd->quot(l, r, ctx);
    case OPQ_ADD: return fd->add(l, r, ctx);
    case OPQ_MUL: return fd->mul(l, r, ctx);
    }
    return l;
}

/* Each term is coef * f1 * ... (the coefficient left out when it is 1 and
 * there are factors); the terms are summed left to right. */
void *sym_fold(const Sym *x, const SymFold *fd, void *ctx) {
    void *sum = NULL;
    for (int i = 0; i < x->nterms; i++) {
        const SymTerm *t = &x->terms[i];
        void *p = t->coef != 1 || t->nfac == 0 ? fd->konst(t->coef, ctx) : NULL;
        for (int j = 0; j < t->nfac; j++) {
            void *f = fold_factor(&t->fac[j], fd, ctx);
            p = p ? fd->mul(p, f, ctx) : f;
        }
        sum = sum ? fd->add(sum, p, ctx) : p;
    }
    return sum ? sum : fd->konst(0, ctx);
}

/* ---- Printing ----------------------------------------------------------------- */

/* How to print variables and coefficients: readably or as C. */
typedef struct SymPrinter {
    bool c;
    const char *(*varname)(int id, void *ctx);
    void *ctx;
    const char *ctype; /* C: the type constants are cast to */
} SymPrinter;

static void print_sym(Buf *out, const Sym *x, const SymPrinter *p);

/* An operand of an opaque node; readable sums get parentheses (C output
 * is always parenthesised). */
static void print_operand(Buf *out, const Sym *x, const SymPrinter *p) {
    bool wrap = !p->c && x->nterms > 1;
    if (wrap) buf_putc(out, '(');
    print_sym(out, x, p);
    if (wrap) buf_putc(out, ')');
}

static void print_factor(Buf *out, const SymFactor *f, const SymPrinter *p) {
    if (!f->opq) {
        if (p->varname) buf_puts(out, p->varname(f->var, p->ctx));
        else buf_printf(out, "v%d", f->var);
        return;
    }
    static const char *const ops[] = {[OPQ_DIV] = " / ", [OPQ_ADD] = " + ", [OPQ_MUL] = " * "};
    buf_putc(out, '(');
    print_operand(out, f->opq->l, p);
    buf_puts(out, ops[f->opq->kind]);
    print_operand(out, f->opq->r, p);
    buf_putc(out, ')');
}

/* Prints one term; `first` decides between a leading sign and " + "/" - ".
 * The magnitude is printed unsigned so INT64_MIN needs no negation. */
static void print_term(Buf *out, const SymTerm *t, bool first, const SymPrinter *p) {
    bool neg = t->coef < 0 && !(p->c && t->coef == INT64_MIN);
    uint64_t mag = t->coef < 0 ? 0 - (uint64_t)t->coef : (uint64_t)t->coef;
    const char *mul = p->c ? " * " : "*";
    if (first) buf_puts(out, neg ? "-" : "");
    else buf_puts(out, neg ? " - " : " + ");
    if (p->c && t->coef == INT64_MIN) buf_puts(out, "INT64_MIN");
    else if (mag != 1 || t->nfac == 0) {
        if (p->c) buf_printf(out, "(%s)", p->ctype);
        buf_printf(out, "%llu", (unsigned long long)mag);
    }
    for (int i = 0; i < t->nfac; i++) {
        if (i > 0 || mag != 1 || (p->c && t->coef == INT64_MIN)) buf_puts(out, mul);
        print_factor(out, &t->fac[i], p);
    }
}

/* Highest-degree terms first, so "2*v1*v2 + v1 + 1". */
static void print_sym(Buf *out, const Sym *x, const SymPrinter *p) {
    if (p->c) buf_putc(out, '(');
    if (x->nterms == 0) {
        if (p->c) buf_printf(out, "(%s)", p->ctype);
        buf_putc(out, '0');
    }
    for (int i = x->nterms - 1; i >= 0; i--) print_term(out, &x->terms[i], i == x->nterms - 1, p);
    if (p->c) buf_putc(out, ')');
}

void sym_print_c_as(Buf *out, const Sym *x, const char *(*varname)(int id, void *ctx), void *ctx, const char *ctype) {
    SymPrinter p = {true, varname, ctx, ctype};
    print_sym(out, x, &p);
}

void sym_print_c(Buf *out, const Sym *x, const char *(*varname)(int id, void *ctx), void *ctx) {
    sym_print_c_as(out, x, varname, ctx, "int64_t");
}

void sym_print(Buf *out, const Sym *x) { sym_print_named(out, x, NULL, NULL); }

void sym_print_named(Buf *out, const Sym *x, const char *(*varname)(int id, void *ctx), void *ctx) {
    SymPrinter p = {false, varname, ctx, NULL};
    print_sym(out, x, &p);
}

/* ---- LMADs -------------------------------------------------------------------- */

static Lmad *lmad_new(Arena *a, int rank, Sym *offset) {
    Lmad *l = NEW(a, Lmad);
    l->rank = rank;
    l->offset = offset;
    l->dims = NEW_ARRAY(a, LmadDim, rank > 0 ? rank : 1);
    return l;
}

static bool sym_is_one(const Sym *x) {
    int64_t v;
    return sym_is_const(x, &v) && v == 1;
}

Lmad *lmad_row_major(Arena *a, int rank, Sym *const *shape) {
    Lmad *l = lmad_new(a, rank, sym_const(a, 0));
    Sym *stride = sym_const(a, 1);
    for (int k = rank - 1; k >= 0; k--) {
        l->dims[k].shape = shape[k];
        l->dims[k].stride = stride;
        stride = sym_mul(a, stride, shape[k]);
    }
    return l;
}

Lmad *lmad_slice(Arena *a, const Lmad *l, const LmadSlice *slice, int nslice) {
    if (nslice < 0 || nslice > l->rank) ICE("lmad_slice: %d slices of a rank-%d LMAD", nslice, l->rank);
    int rank = l->rank;
    for (int k = 0; k < nslice; k++) rank -= slice[k].is_index;
    Lmad *r = lmad_new(a, rank, l->offset);
    int d = 0;
    for (int k = 0; k < l->rank; k++) {
        const LmadDim *dim = &l->dims[k];
        if (k >= nslice) {
            r->dims[d++] = *dim;
        } else if (slice[k].is_index) {
            r->offset = sym_add(a, r->offset, sym_mul(a, slice[k].index, dim->stride));
        } else {
            r->offset = sym_add(a, r->offset, sym_mul(a, slice[k].start, dim->stride));
            r->dims[d].shape = slice[k].len;
            r->dims[d++].stride = sym_mul(a, slice[k].stride, dim->stride);
        }
    }
    return r;
}

Lmad *lmad_flat_slice(Arena *a, const Lmad *l, Sym *offset, const LmadDim *dims, int k) {
    if (l->rank < 1 || k < 1) ICE("lmad_flat_slice: %d dimensions of a rank-%d LMAD", k, l->rank);
    Sym *s0 = l->dims[0].stride;
    Lmad *r = lmad_new(a, l->rank - 1 + k, sym_add(a, l->offset, sym_mul(a, offset, s0)));
    for (int d = 0; d < k; d++) r->dims[d] = (LmadDim){sym_mul(a, dims[d].stride, s0), dims[d].shape};
    for (int d = 1; d < l->rank; d++) r->dims[k - 1 + d] = l->dims[d];
    return r;
}

Lmad *lmad_permute(Arena *a, const Lmad *l, const int *perm) {
    Lmad *r = lmad_new(a, l->rank, l->offset);
    unsigned long long seen = 0;
    for (int d = 0; d < l->rank; d++) {
        int p = perm[d];
        if (p < 0 || p >= l->rank || p >= 64 || (seen >> p & 1))
            ICE("lmad_permute: not a permutation of rank %d", l->rank);
        seen |= 1ull << p;
        r->dims[d] = l->dims[p];
    }
    return r;
}

Sym *lmad_num_elems(Arena *a, const Lmad *l) {
    Sym *n = sym_const(a, 1);
    for (int k = 0; k < l->rank; k++) n = sym_mul(a, n, l->dims[k].shape);
    return n;
}

/* The product of shape[from..to). */
static Sym *shape_product(Arena *a, Sym *const *shape, int from, int to) {
    Sym *n = sym_const(a, 1);
    for (int k = from; k < to; k++) n = sym_mul(a, n, shape[k]);
    return n;
}

/* Finds the smallest groups old[i..*ie) and new[j..*je) (by ie + je) whose
 * element counts are provably equal; false when there are none. */
static bool reshape_group(Arena *a, Sym *const *old, int nold, int i, Sym *const *new_shape,
                          int nnew, int j, int *ie, int *je) {
    for (int sum = i + j + 2; sum <= nold + nnew; sum++) {
        for (int oi = i + 1; oi <= nold; oi++) {
            int nj = sum - oi;
            if (nj <= j || nj > nnew) continue;
            if (sym_equal(shape_product(a, old, i, oi), shape_product(a, new_shape, j, nj))) {
                *ie = oi;
                *je = nj;
                return true;
            }
        }
    }
    return false;
}

/* Whether old dims [i, ie) join into one dimension: each stride is the
 * next dimension's extent times its stride. */
static bool dims_join(Arena *a, const LmadDim *old, int i, int ie) {
    for (int k = i; k + 1 < ie; k++)
        if (!sym_equal(old[k].stride, sym_mul(a, old[k + 1].shape, old[k + 1].stride))) return false;
    return true;
}

/* Lays new dims [j, je) out row-major over a joined group of inner stride
 * `inner`. */
static void split_group(Arena *a, Lmad *r, Sym *const *shape, int j, int je, Sym *inner) {
    Sym *stride = inner;
    for (int k = je - 1; k >= j; k--) {
        r->dims[k].shape = shape[k];
        r->dims[k].stride = stride;
        stride = sym_mul(a, stride, shape[k]);
    }
}

/* Reshape by matching groups of old and new dimensions with equal element
 * counts; each old group must join (seed-002 §1.2, join/split). The last
 * group takes whatever is left when counts cannot be matched symbolically
 * (the caller guarantees equal counts). Old dimensions of extent 1 are
 * dropped first: their stride never matters. */
Lmad *lmad_reshape(Arena *a, const Lmad *l, int rank, Sym *const *shape) {
    int64_t n_old, n_new;
    if (sym_is_const(lmad_num_elems(a, l), &n_old) &&
        sym_is_const(shape_product(a, shape, 0, rank), &n_new) && n_old != n_new)
        return NULL;
    LmadDim *old = NEW_ARRAY(a, LmadDim, l->rank + 1);
    Sym **old_shape = NEW_ARRAY(a, Sym *, l->rank + 1);
    int nold = 0;
    for (int k = 0; k < l->rank; k++) {
        if (sym_is_one(l->dims[k].shape)) continue;
        old_shape[nold] = l->dims[k].shape;
        old[nold++] = l->dims[k];
    }
    Lmad *r = lmad_new(a, rank, l->offset);
    int i = 0, j = 0;
    while (j < rank) {
        int ie = nold, je = rank;
        if (i == nold) { /* only extent-1 dimensions may remain */
            if (!sym_is_one(shape[j])) return NULL;
            split_group(a, r, shape, j, j + 1, sym_const(a, 1));
            j++;
            continue;
        }
        reshape_group(a, old_shape, nold, i, shape, rank, j, &ie, &je);
        if (!dims_join(a, old, i, ie)) return NULL;
        split_group(a, r, shape, j, je, old[ie - 1].stride);
        i = ie;
        j = je;
    }
    return i == nold ? r : NULL;
}

/* Whether one step of dimension outer moves over a whole run of inner. */
static bool steps_over(Arena *a, const LmadDim *outer, const LmadDim *inner) {
    return sym_equal(outer->stride, sym_mul(a, inner->shape, inner->stride));
}

void lmad_merge_pair(Arena *a, const Lmad *x, const Lmad *y, const Lmad **x_out, const Lmad **y_out) {
    *x_out = x;
    *y_out = y;
    if (x->rank != y->rank) return;
    for (int k = 0; k < x->rank; k++)
        if (!sym_equal(x->dims[k].shape, y->dims[k].shape)) return;
    Lmad *mx = lmad_new(a, x->rank, x->offset), *my = lmad_new(a, y->rank, y->offset);
    int r = 0;
    for (int k = 0; k < x->rank; k++) {
        const LmadDim *dx = &x->dims[k], *dy = &y->dims[k];
        if (sym_is_one(dx->shape)) continue;
        if (r > 0 && steps_over(a, &mx->dims[r - 1], dx) && steps_over(a, &my->dims[r - 1], dy)) {
            Sym *shape = sym_mul(a, mx->dims[r - 1].shape, dx->shape);
            mx->dims[r - 1] = (LmadDim){.stride = dx->stride, .shape = shape};
            my->dims[r - 1] = (LmadDim){.stride = dy->stride, .shape = shape};
        } else {
            mx->dims[r] = *dx;
            my->dims[r++] = *dy;
        }
    }
    mx->rank = my->rank = r;
    *x_out = mx;
    *y_out = my;
}

Sym *lmad_index(Arena *a, const Lmad *l, Sym *const *idx) {
    Sym *off = l->offset;
    for (int k = 0; k < l->rank; k++) off = sym_add(a, off, sym_mul(a, idx[k], l->dims[k].stride));
    return off;
}

/* Row-major strides; a dimension of extent 1 may have any stride, since
 * its only index is 0. The header gives no arena, so the running product
 * lives in a local one. */
bool lmad_is_contiguous(const Lmad *l) {
    Arena scratch = {0};
    Sym *expected = sym_const(&scratch, 1);
    bool ok = true;
    for (int k = l->rank - 1; k >= 0 && ok; k--) {
        if (sym_is_one(l->dims[k].shape)) continue;
        ok = sym_equal(l->dims[k].stride, expected);
        expected = sym_mul(&scratch, expected, l->dims[k].shape);
    }
    arena_free(&scratch);
    return ok;
}

bool lmad_is_row_major(const Lmad *l) {
    int64_t off;
    return sym_is_const(l->offset, &off) && off == 0 && lmad_is_contiguous(l);
}

bool lmad_equal(const Lmad *x, const Lmad *y) {
    if (x->rank != y->rank || !sym_equal(x->offset, y->offset)) return false;
    for (int k = 0; k < x->rank; k++)
        if (!sym_equal(x->dims[k].shape, y->dims[k].shape) ||
            !sym_equal(x->dims[k].stride, y->dims[k].stride))
            return false;
    return true;
}

Lmad *lmad_interleave(Arena *a, const Lmad *l, const Sym *n, const Sym *t) {
    Lmad *r = lmad_new(a, l->rank, sym_add(a, sym_mul(a, l->offset, n), t));
    for (int k = 0; k < l->rank; k++) {
        r->dims[k].shape = l->dims[k].shape;
        r->dims[k].stride = sym_mul(a, l->dims[k].stride, n);
    }
    return r;
}

Lmad *lmad_subst(Arena *a, const Lmad *l, int id, const Sym *e) {
    Lmad *r = lmad_new(a, l->rank, sym_subst(a, l->offset, id, e));
    for (int k = 0; k < l->rank; k++) {
        r->dims[k].shape = sym_subst(a, l->dims[k].shape, id, e);
        r->dims[k].stride = sym_subst(a, l->dims[k].stride, id, e);
    }
    return r;
}

/* The thesis's notation, shape before stride: "v1 + {(v2 : v3), (v3 : 1)}". */
void lmad_print(Buf *out, const Lmad *l) { lmad_print_named(out, l, NULL, NULL); }

void lmad_print_named(Buf *out, const Lmad *l, const char *(*varname)(int id, void *ctx), void *ctx) {
    sym_print_named(out, l->offset, varname, ctx);
    buf_puts(out, " + {");
    for (int k = 0; k < l->rank; k++) {
        buf_puts(out, k ? ", (" : "(");
        sym_print_named(out, l->dims[k].shape, varname, ctx);
        buf_puts(out, " : ");
        sym_print_named(out, l->dims[k].stride, varname, ctx);
        buf_putc(out, ')');
    }
    buf_putc(out, '}');
}
