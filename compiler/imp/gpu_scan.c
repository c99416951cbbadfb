/* SegScan (gpu.h): one kernel, a single pass with decoupled look-back. A
 * segmented scan is one such pass with the operator lifted onto segment
 * flags, and the reductions of a Screma are folded as it scans and
 * finished by the second kernel of a reduction (gl_red_final, gpu_red.c).
 *
 * Each work-group takes the next chunk of SCAN_ELEMS elements per
 * work-item (its number from an atomic counter, so that groups are
 * numbered in the order they start and a group's predecessors have all
 * started: the look-back never waits for a group that cannot run). The
 * kernel's steps, a barrier between each:
 *   1. the map over the group's elements in a coalesced order, its scan
 *      values (and staged reduction values) into local memory, neutral
 *      elements past the end;
 *   2. each work-item scans its SCAN_ELEMS consecutive elements in place;
 *   3. the group scans the work-items' totals;
 *   4. the look-back: the group's aggregate published, the prefix of
 *      everything before it read from its predecessors' statuses;
 *   5. each work-item adds the prefix before its elements to them;
 *   6. the scanned values to the outputs, coalesced. */
#include "gpu.h"

/* Elements each work-item of a SegScan scans sequentially: enough to make
 * the look-back and the group's scan cheap per element, few enough to
 * keep a group's chunk in local memory (the group shrinks to fit when the
 * values are large). H100, 2^27 i32, groups of 256: 8 elements 0.88 ms,
 * 16 0.69 ms, 24 0.66 ms, 32 0.62 ms (61% of copy bandwidth). Keeping a
 * work-item's elements in registers between its scan and the prefix
 * instead of local memory was slower (0.80 ms against 0.70 with 16). */
#define SCAN_ELEMS 32
/* Predecessors whose statuses a SegScan's look-back reads at once (one
 * memory latency per round instead of one per predecessor): a warp. */
#define LOOKBACK 32

/* A segmented scan (SegInfo depth > 1) is one scan over all the elements
 * of the nest in row-major order, whose operator is lifted onto pairs of
 * a flag, set where a segment starts, and a value:
 *     (xf, x) + (yf, y) = (xf | yf, yf ? y : x op y),
 * which is associative when op is, so the single-pass kernel runs it as
 * it is. Element i is column i % m of segment i / m; its flag is
 * (column == 0), computed from the column (counted along a work-item's
 * elements from its first one's, col0). The flags of the work-items'
 * totals are in a local array beside the totals, those of the groups'
 * aggregates travel in their status words, and the look-back stops at
 * the first predecessor whose flag is set. H100, 2^27 i32 (+), n rows of
 * 2^27 / n: 0.57-0.58 ms for 2^14 to 2^27 rows (the flat scan of as many
 * elements: 0.60, its look-back cannot stop early), 0.63 for 2^7, 0.66
 * for one row; the SegMap with a sequential scan per row took 3.4 to 10.5
 * ms for 2^14 to 2^20 rows (0.51 for rows of 2). Stepping each
 * work-item's row and column instead of dividing per element was slower
 * (0.84 for one row).
 *
 * A flat scan by an operator that ir_segmented_op lifted (the segmented
 * scan of an irregular array's rows, whose flags the map computes) runs
 * the same way when its flags' result dies with it (Scan.flagged): the
 * map's flags go to a local array of their own instead of being scanned
 * as values, and the values are scanned by the lifted operator with both
 * flags false (its own operator). H100, 6 * 10^7 i32 in 10^5 rows and a
 * long one: the scan kernel 315 -> 285 us (the flat scan 237). */

/* The reductions of a Screma with scans and reductions, which its SegScan
 * kernel folds as it scans: each work-item folds its elements into its
 * accumulators; when every operator commutes it does so as it maps them,
 * else (staged) the values go through local memory (the local arrays
 * after the scan values') so that each work-item folds its consecutive
 * elements in order. The group combines the work-items' results with an
 * in-order tree during the scan of their totals (each step of the scan
 * takes a step of the tree) and writes one partial result per group;
 * gl_red_final combines the groups' partials, which are in element order
 * because groups take their numbers in the order they start. */

/* A SegScan being lowered: its operators and values, and the kernel's
 * variables. */
typedef struct Scan {
    const SegInfo *g;
    const Stm *stm;    /* the scan: the SOAC itself, or the innermost level of a segmented scan */
    const Screma *sc;  /* its Screma */
    bool seg;          /* a segmented scan */
    bool flagged;      /* a segmented scan whose segment flags are the map's
                          first scan values: a flat scan by a lifted
                          operator (SegOp.lifted) whose flags die with it;
                          its values are the others, scanned by the
                          operator with both flags false */
    int v0;            /* the first of the Screma's scan values that is
                          scanned: 1 when flagged, else 0 */
    bool *dead;        /* [nv]: the scan's result j is read nowhere after it (its
                          block dies with it, lw_dies: the segment flags that a
                          segmented operator scans), and is not stored */
    int nv, nr;        /* scan values, reduction values */
    PrimType *ts, *rts;
    bool staged;       /* the reduction values go through local memory */
    int W;             /* status words of a group */
    ImpExp **ne, **rne; /* neutral elements (kernel) */
    /* parameters */
    ImpVar *n, *m, *state, **parts;
    /* local arrays: the group's elements (scan values, then staged
     * reduction values), the work-items' totals and their segment flags,
     * their reduction results; the group's number, the exclusive prefix
     * and its segment flag, a round of the look-back (values, status
     * flags, segment flags), the next predecessor to read, whether the
     * look-back is done */
    ImpVar **loc, *locf, **tot, *totf, **red;
    ImpVar *grp_l, **prefix, *prefixf, **lbv, *lbf, *lbsf, *lbj, *lbdone;
    /* the work-item's variables */
    ImpVar *ltid, *lsize, *ltid32, *lsize32, *grp, *start, *col0, *base, **racc;
} Scan;

/* ---- Small code ------------------------------------------------------------------ */

static ImpExp *c32(ImpLower *L, int64_t c) { return imp_const(L->a, prim_int(PT_I32, c)); }

static ImpExp *cu(ImpLower *L, PrimType t, uint64_t c) { return imp_const(L->a, prim_int(t, (int64_t)c)); }

static ImpExp *op32(ImpLower *L, Op op, ImpExp *x, ImpExp *y) { return imp_op2(L->a, op, PT_I32, x, y); }

static ImpExp *rd(ImpLower *L, ImpVar *v) { return imp_read(L->a, v); }

static ImpExp *load1(ImpLower *L, ImpVar *mem, PrimType t, ImpExp *index) { return imp_load(L->a, mem, t, index); }

static ImpExp *not_(ImpLower *L, ImpExp *b) { return imp_op(L->a, OP_NOT, PT_BOOL, &b); }

/* A segment flag kept in local memory (a u8) as a bool, and back. */
static ImpExp *flag_of(ImpLower *L, ImpExp *u8) { return imp_conv(L->a, PT_U8, PT_BOOL, u8); }
static ImpExp *flag_u8(ImpLower *L, ImpExp *b) { return imp_conv(L->a, PT_BOOL, PT_U8, b); }

/* The element of slot x (an i32) in the group's padded local arrays: x +
 * x / 32, so that a work-item's consecutive elements are in different
 * banks. */
static ImpExp *pad(ImpLower *L, ImpExp *x) {
    return imp_conv(L->a, PT_I32, PT_I64, op32(L, OP_ADD, x, op32(L, OP_LSHR, x, c32(L, 5))));
}

/* Opens `for (i32 name = 0; name < bound; name++)`; returns its counter. */
static ImpVar *for32(ImpLower *L, LwNest *n, ImpStm **f, const char *name, int bound) {
    ImpVar *i = lw_fresh(L, name, IMP_SCALAR, PT_I32);
    *f = lw_for(L, n, i, c32(L, bound));
    return i;
}

/* Steps column col of a segmented scan to the next element's. */
static void step_col(ImpLower *L, const Scan *k, ImpVar *col) {
    imp_assign(L->b, col, gl_op(L, OP_ADD, rd(L, col), gl_i64(L, 1)));
    LwNest n;
    ImpStm *st = gl_if(L, &n, imp_op2(L->a, OP_EQ, PT_I64, rd(L, col), rd(L, k->m)));
    imp_assign(L->b, col, gl_i64(L, 0));
    st->body = lw_leave(L, &n);
}

/* Where the local arrays mems hold values: element index. */
typedef struct At {
    ImpVar **mems;
    ImpExp *index;
} At;

/* r = xs op ys by the scan operators (a flagged scan's lifted one with
 * both flags false). */
static void scan_op(ImpLower *L, const Scan *k, ImpExp **xs, ImpExp **ys, ImpVar **r) {
    if (!k->flagged) {
        gl_apply(L, k->sc->scans, k->sc->nscans, xs, ys, r);
        return;
    }
    Arena *a = L->a;
    ImpExp **x1 = NEW_ARRAY(a, ImpExp *, k->nv + 2), **y1 = NEW_ARRAY(a, ImpExp *, k->nv + 2);
    ImpVar **r1 = NEW_ARRAY(a, ImpVar *, k->nv + 2);
    x1[0] = y1[0] = imp_const(a, prim_bool(false));
    r1[0] = gl_let(L, "flag", PT_BOOL, NULL);
    COPY_ARRAY(x1 + 1, xs, k->nv);
    COPY_ARRAY(y1 + 1, ys, k->nv);
    COPY_ARRAY(r1 + 1, r, k->nv);
    gl_apply(L, k->sc->scans, 1, x1, y1, r1);
}

/* Whether element ix of the group's chunk starts a segment: a flagged
 * scan's flag of it. */
static ImpExp *starts_at(ImpLower *L, const Scan *k, ImpExp *ix) { return flag_of(L, load1(L, k->locf, PT_U8, ix)); }

/* xs op ys for the scan operators, lifted onto segment flags when yf (a
 * bool) is given: where yf is set the result is ys. The result goes into
 * the variables dst, or (dst NULL) into local memory at at, where ys were
 * loaded from (so where yf is set nothing is written). The caller
 * combines the flags. */
static void seg_apply(ImpLower *L, const Scan *k, ImpExp **xs, ImpExp **ys, ImpExp *yf, ImpVar **dst, const At *at) {
    LwNest n;
    ImpStm *st = yf ? gl_if(L, &n, not_(L, yf)) : NULL;
    ImpVar **r = dst ? dst : gl_lets(L, "r", k->ts, k->nv, NULL);
    scan_op(L, k, xs, ys, r);
    if (!dst) gl_stores(L, at->mems, k->ts, k->nv, at->index, gl_reads(L, r, k->nv));
    if (!st) return;
    st->body = lw_leave(L, &n);
    if (!dst) return;
    lw_enter(L, &n);
    for (int j = 0; j < k->nv; j++) imp_assign(L->b, dst[j], ys[j]);
    st->orelse = lw_leave(L, &n);
}

/* ---- Status words ------------------------------------------------------------------ */

/* Status words of the look-back: each value is split into 32-bit chunks
 * and each chunk travels with its group's flag in one 64-bit word
 * (flag << 32 | chunk), written and read at once. Flag 1: the chunk is
 * of the group's aggregate, 2: of its inclusive prefix. A reader takes a
 * group's values only when all its words carry the same flag, so it never
 * mixes an aggregate with a prefix, and no fence between a value and its
 * flag is needed. A segmented scan adds the segment flag of the values
 * as bit 2 of the flag. The state block (zeroed before the launch: no
 * status published) holds the group counter (an i32) in its first word
 * and group j's status words from word 1 + j * W. */
static int chunks_of(PrimType t) { return prim_size(t) > 4 ? 2 : 1; }

/* The index of status word w of group grp (a Sym). */
static ImpExp *status_word(ImpLower *L, const Scan *k, Sym *grp, int w) {
    Arena *a = L->a;
    return imp_sym(a, sym_add(a, sym_mul(a, grp, sym_const(a, k->W)), sym_const(a, 1 + w)));
}

/* Value v of type t (of at most 4 bytes) as the bits of a status word's
 * value half (a u32), and back. */
static ImpExp *word_of(Arena *a, PrimType t, ImpExp *v) {
    if (!prim_is_float(t)) return imp_conv(a, t, PT_U32, v);
    ImpExp *bits = imp_op(a, OP_TO_BITS, t, &v);
    return t == PT_F32 ? bits : imp_conv(a, PT_U16, PT_U32, bits);
}

static ImpExp *of_word(Arena *a, PrimType t, ImpExp *w) {
    if (!prim_is_float(t)) return imp_conv(a, PT_U32, t, w);
    if (t == PT_F16) w = imp_conv(a, PT_U32, PT_U16, w);
    return imp_op(a, OP_FROM_BITS, op_result(OP_TO_BITS, t), &w);
}

/* Writes values vals with flag into group grp's status words; segf (a
 * bool, or NULL) is their segment flag. */
static void publish(ImpLower *L, const Scan *k, ImpExp **vals, int flag, ImpExp *segf, Sym *grp) {
    Arena *a = L->a;
    ImpExp *hi = cu(L, PT_U64, (uint64_t)flag << 32);
    if (segf) {
        ImpExp *bit = imp_op2(a, OP_SHL, PT_U64, imp_conv(a, PT_BOOL, PT_U64, segf), cu(L, PT_U64, 34));
        hi = imp_op2(a, OP_OR, PT_U64, hi, bit);
    }
    for (int j = 0, w = 0; j < k->nv; j++) {
        PrimType t = k->ts[j];
        ImpExp *v = vals[j];
        if (chunks_of(t) == 1) {
            ImpExp *word = imp_op2(a, OP_OR, PT_U64, hi, imp_conv(a, PT_U32, PT_U64, word_of(a, t, v)));
            imp_store(L->b, k->state, PT_U64, status_word(L, k, grp, w++), word);
            continue;
        }
        ImpVar *x = gl_let(L, "bits", PT_U64, t == PT_F64 ? imp_op(a, OP_TO_BITS, t, &v) : imp_conv(a, t, PT_U64, v));
        ImpExp *lo = imp_op2(a, OP_AND, PT_U64, rd(L, x), cu(L, PT_U64, 0xffffffffu));
        ImpExp *up = imp_op2(a, OP_LSHR, PT_U64, rd(L, x), cu(L, PT_U64, 32));
        imp_store(L->b, k->state, PT_U64, status_word(L, k, grp, w++), imp_op2(a, OP_OR, PT_U64, hi, lo));
        imp_store(L->b, k->state, PT_U64, status_word(L, k, grp, w++), imp_op2(a, OP_OR, PT_U64, hi, up));
    }
}

/* Reads group j's status words into look-back slot slot: its values, its
 * flag (0 unless all its words are published with one flag) and (a
 * segmented scan) its segment flag. */
static void read_status(ImpLower *L, const Scan *k, Sym *j, ImpExp *slot) {
    Arena *a = L->a;
    ImpExp *c32s = cu(L, PT_U64, 32);
    ImpVar **ws = NEW_ARRAY(a, ImpVar *, k->W + 1);
    for (int w = 0; w < k->W; w++)
        ws[w] = gl_let(L, "w", PT_U64, load1(L, k->state, PT_U64, status_word(L, k, j, w)));
    ImpVar *f = gl_let(L, "f", PT_U32, imp_conv(a, PT_U64, PT_U32, imp_op2(a, OP_LSHR, PT_U64, rd(L, ws[0]), c32s)));
    for (int w = 1; w < k->W; w++) {
        ImpExp *fw = imp_conv(a, PT_U64, PT_U32, imp_op2(a, OP_LSHR, PT_U64, rd(L, ws[w]), c32s));
        LwNest n;
        ImpStm *st = gl_if(L, &n, imp_op2(a, OP_NE, PT_U32, fw, rd(L, f)));
        imp_assign(L->b, f, cu(L, PT_U32, 0));
        st->body = lw_leave(L, &n);
    }
    if (k->seg) {
        ImpExp *sf = imp_op2(a, OP_LSHR, PT_U32, rd(L, f), cu(L, PT_U32, 2));
        imp_store(L->b, k->lbsf, PT_U8, slot, imp_conv(a, PT_U32, PT_U8, sf));
        imp_assign(L->b, f, imp_op2(a, OP_AND, PT_U32, rd(L, f), cu(L, PT_U32, 3)));
    }
    for (int jv = 0, w = 0; jv < k->nv; jv++) {
        PrimType t = k->ts[jv];
        ImpExp *v;
        if (chunks_of(t) == 1) {
            v = of_word(a, t, imp_conv(a, PT_U64, PT_U32, rd(L, ws[w++])));
        } else {
            ImpExp *lo = imp_op2(a, OP_AND, PT_U64, rd(L, ws[w]), cu(L, PT_U64, 0xffffffffu));
            v = imp_op2(a, OP_OR, PT_U64, lo, imp_op2(a, OP_SHL, PT_U64, rd(L, ws[w + 1]), c32s));
            v = t == PT_F64 ? imp_op(a, OP_FROM_BITS, PT_U64, &v) : imp_conv(a, PT_U64, t, v);
            w += 2;
        }
        imp_store(L->b, k->lbv[jv], t, slot, v);
    }
    imp_store(L->b, k->lbf, PT_U32, slot, rd(L, f));
}

/* ---- The kernel's steps ---------------------------------------------------------------- */

/* The map's results: the scan values into the local arrays at element
 * index ix, the reduction values staged there after them or folded into
 * the accumulators, the map outputs at row iter. */
typedef struct MapCtx {
    const Scan *k;
    ImpExp *ix;
} MapCtx;

static void res_map(ImpLower *L, const Body *b, void *ctx) {
    const MapCtx *x = ctx;
    const Scan *k = x->k;
    ImpExp **vals = NEW_ARRAY(L->a, ImpExp *, k->nv + k->nr + 1);
    for (int r = 0; r < k->nv + k->nr; r++) vals[r] = lw_se(L, b->res[k->v0 + r]);
    gl_stores(L, k->loc, k->ts, k->nv, x->ix, vals);
    if (k->flagged) imp_store(L->b, k->locf, PT_U8, x->ix, flag_u8(L, lw_se(L, b->res[0])));
    if (k->staged) gl_stores(L, k->loc + k->nv, k->rts, k->nr, x->ix, vals + k->nv);
    else if (k->nr) gl_apply(L, k->sc->reds, k->sc->nreds, gl_reads(L, k->racc, k->nr), vals + k->nv, k->racc);
    Sym *i = sym_var(L->a, k->sc->iter->id);
    for (int r = k->v0 + k->nv + k->nr; r < b->nres; r++) {
        const Var *out = k->stm->pat[r];
        lw_store(L, out->mem->mem, lw_row(L, out->mem->ixfun, i), b->res[r], out->type.elem);
    }
}

/* Element slot k * lsize + ltid of the group's chunk, its index into the
 * input (declared as i) and whether it is inside it. */
static ImpExp *chunk_element(ImpLower *L, const Scan *k, ImpVar *kv, ImpVar **slot, ImpVar **i) {
    *slot = gl_let(L, "slot", PT_I32, op32(L, OP_ADD, op32(L, OP_MUL, rd(L, kv), rd(L, k->lsize32)), rd(L, k->ltid32)));
    *i = gl_let(L, "i", PT_I64, gl_op(L, OP_ADD, rd(L, k->start), imp_conv(L->a, PT_I32, PT_I64, rd(L, *slot))));
    return imp_op2(L->a, OP_LT, PT_I64, rd(L, *i), rd(L, k->n));
}

/* Step 1: the map over the group's elements in a coalesced order (a
 * segmented scan's levels around the scan binding their rows and running
 * their code for each), scan inputs (and staged reduction values) to
 * local memory, neutral elements past the end. A failed assertion skips
 * the rest of its element (its values are undefined; the run fails). */
static void scan_map(ImpLower *L, const Scan *k) {
    const SegInfo *g = k->g;
    LwNest fl, in, sn;
    ImpStm *f, *st, *sc;
    ImpVar *kv = for32(L, &fl, &f, "k", SCAN_ELEMS), *slot, *i;
    ImpExp *inside = chunk_element(L, k, kv, &slot, &i);
    ImpVar *ix = gl_let(L, "ix", PT_I64, pad(L, rd(L, slot)));
    st = gl_if(L, &in, inside);
    sc = gl_scope(L, &sn);
    gl_level_iters(L, g, g->depth, gl_sym(L, i));
    gl_outer_levels(L, g, g->depth - 1);
    lw_bind_rows(L, k->sc->map, k->sc->arrs, k->sc->iter);
    MapCtx x = {k, rd(L, ix)};
    lw_body(L, k->sc->map->body, res_map, &x, NULL, 0);
    sc->body = lw_leave(L, &sn);
    st->body = lw_leave(L, &in);
    lw_enter(L, &in);
    gl_stores(L, k->loc, k->ts, k->nv, rd(L, ix), k->ne);
    if (k->flagged) imp_store(L->b, k->locf, PT_U8, rd(L, ix), cu(L, PT_U8, 0));
    if (k->staged) gl_stores(L, k->loc + k->nv, k->rts, k->nr, rd(L, ix), k->rne);
    st->orelse = lw_leave(L, &in);
    f->body = lw_leave(L, &fl);
}

/* Step 2: each work-item scans its SCAN_ELEMS consecutive elements in
 * place, leaves their total in tot<j>[ltid] (a segmented scan: its flag
 * in totf[ltid]), and its reduction result in red<j>[ltid]. */
static void scan_own(ImpLower *L, const Scan *k) {
    Arena *a = L->a;
    ImpVar **acc = gl_lets(L, "sacc", k->ts, k->nv, gl_loads(L, k->loc, k->ts, k->nv, pad(L, rd(L, k->base))));
    ImpVar *col = NULL, *accf = NULL;
    if (k->flagged) {
        accf = gl_let(L, "accf", PT_BOOL, starts_at(L, k, pad(L, rd(L, k->base))));
    } else if (k->seg) {
        col = gl_let(L, "col", PT_I64, rd(L, k->col0));
        accf = gl_let(L, "accf", PT_BOOL, imp_op2(a, OP_EQ, PT_I64, rd(L, col), gl_i64(L, 0)));
    }
    LwNest fl;
    ImpStm *f;
    ImpVar *e = for32(L, &fl, &f, "e", SCAN_ELEMS - 1);
    ImpExp *next = op32(L, OP_ADD, rd(L, k->base), op32(L, OP_ADD, rd(L, e), c32(L, 1)));
    ImpVar *ix = gl_let(L, "ix", PT_I64, pad(L, next));
    ImpExp *starts = NULL;
    if (k->flagged) {
        starts = rd(L, gl_let(L, "starts", PT_BOOL, starts_at(L, k, rd(L, ix))));
    } else if (k->seg) {
        step_col(L, k, col);
        starts = imp_op2(a, OP_EQ, PT_I64, rd(L, col), gl_i64(L, 0));
    }
    seg_apply(L, k, gl_reads(L, acc, k->nv), gl_loads(L, k->loc, k->ts, k->nv, rd(L, ix)), starts, acc, NULL);
    if (k->seg) imp_assign(L->b, accf, imp_op2(a, OP_LOR, PT_BOOL, rd(L, accf), starts));
    gl_stores(L, k->loc, k->ts, k->nv, rd(L, ix), gl_reads(L, acc, k->nv));
    f->body = lw_leave(L, &fl);
    gl_stores(L, k->tot, k->ts, k->nv, rd(L, k->ltid), gl_reads(L, acc, k->nv));
    if (k->seg) imp_store(L->b, k->totf, PT_U8, rd(L, k->ltid), flag_u8(L, rd(L, accf)));
    if (k->staged) {
        e = for32(L, &fl, &f, "e", SCAN_ELEMS);
        ImpExp *el = pad(L, op32(L, OP_ADD, rd(L, k->base), rd(L, e)));
        ImpExp **vals = gl_loads(L, k->loc + k->nv, k->rts, k->nr, el);
        gl_apply(L, k->sc->reds, k->sc->nreds, gl_reads(L, k->racc, k->nr), vals, k->racc);
        f->body = lw_leave(L, &fl);
    }
    gl_stores(L, k->red, k->rts, k->nr, rd(L, k->ltid), gl_reads(L, k->racc, k->nr));
}

/* Step 3: inclusive scan of the work-items' totals; each of its steps
 * also takes a step of the tree over their reduction results. */
static void scan_totals(ImpLower *L, const Scan *k) {
    Arena *a = L->a;
    ImpVar *s = gl_let(L, "s", PT_I64, gl_i64(L, 1));
    LwNest wn, n;
    ImpStm *w = gl_while(L, &wn, imp_op2(a, OP_LT, PT_I64, rd(L, s), rd(L, k->lsize)));
    ImpVar **x = gl_lets(L, "x", k->ts, k->nv, NULL);
    ImpVar *xf = k->seg ? gl_let(L, "xf", PT_BOOL, NULL) : NULL;
    ImpVar *have = gl_let(L, "have", PT_BOOL, imp_op2(a, OP_GE, PT_I64, rd(L, k->ltid), rd(L, s)));
    ImpExp *prev = gl_op(L, OP_SUB, rd(L, k->ltid), rd(L, s)), *me = rd(L, k->ltid);
    ImpStm *st = gl_if(L, &n, rd(L, have));
    ImpExp **xv = gl_loads(L, k->tot, k->ts, k->nv, prev);
    for (int j = 0; j < k->nv; j++) imp_assign(L->b, x[j], xv[j]);
    if (k->seg) imp_assign(L->b, xf, flag_of(L, load1(L, k->totf, PT_U8, prev)));
    st->body = lw_leave(L, &n);
    gl_barrier(L);
    st = gl_if(L, &n, rd(L, have));
    At at = {k->tot, me};
    ImpExp *yf = k->seg ? flag_of(L, load1(L, k->totf, PT_U8, me)) : NULL;
    seg_apply(L, k, gl_reads(L, x, k->nv), gl_loads(L, k->tot, k->ts, k->nv, me), yf, NULL, &at);
    if (k->seg) imp_store(L->b, k->totf, PT_U8, me, flag_u8(L, imp_op2(a, OP_LOR, PT_BOOL, rd(L, xf), yf)));
    st->body = lw_leave(L, &n);
    if (k->nr) {
        GlTree t = {me, me, rd(L, k->lsize)};
        gl_tree_step(L, k->sc->reds, k->sc->nreds, k->red, k->rts, k->nr, t, s);
    }
    gl_barrier(L);
    imp_assign(L->b, s, gl_op(L, OP_MUL, rd(L, s), gl_i64(L, 2)));
    w->body = lw_leave(L, &wn);
}

/* Work-item 0: the group's aggregate (the last work-item's total) in new
 * variables, and (a segmented scan) its segment flag in *aggf. */
static ImpVar **aggregate(ImpLower *L, const Scan *k, ImpExp **aggf) {
    ImpExp *last = gl_op(L, OP_SUB, rd(L, k->lsize), gl_i64(L, 1));
    ImpVar **agg = gl_lets(L, "agg", k->ts, k->nv, gl_loads(L, k->tot, k->ts, k->nv, last));
    *aggf = k->seg ? rd(L, gl_let(L, "aggf", PT_BOOL, flag_of(L, load1(L, k->totf, PT_U8, last)))) : NULL;
    return agg;
}

/* A round of the look-back, work-item ltid < LOOKBACK: the status of
 * predecessor lbj - ltid into its slot (none before group 0). */
static void lookback_read(ImpLower *L, const Scan *k) {
    Arena *a = L->a;
    ImpExp *zero = gl_i64(L, 0);
    ImpVar *j = gl_let(L, "j", PT_I64, gl_op(L, OP_SUB, load1(L, k->lbj, PT_I64, zero), rd(L, k->ltid)));
    imp_store(L->b, k->lbf, PT_U32, rd(L, k->ltid), cu(L, PT_U32, 0));
    LwNest n;
    ImpStm *have = gl_if(L, &n, imp_op2(a, OP_GE, PT_I64, rd(L, j), zero));
    read_status(L, k, gl_sym(L, j), rd(L, k->ltid));
    have->body = lw_leave(L, &n);
}

/* A round of the look-back, work-item 0: combines the round's statuses
 * into the exclusive prefix backwards, up to the first one not published
 * yet or an inclusive prefix (or a segment start); moves lbj past those
 * it took; when it found an inclusive prefix, publishes the group's. */
static void lookback_walk(ImpLower *L, const Scan *k) {
    Arena *a = L->a;
    ImpExp *zero = gl_i64(L, 0);
    ImpVar *w = gl_let(L, "w", PT_I64, zero);
    ImpVar *found = gl_let(L, "found", PT_BOOL, imp_const(a, prim_bool(false)));
    ImpExp *wf = load1(L, k->lbf, PT_U32, rd(L, w));
    LwNest ln, n;
    ImpStm *walk = gl_while(L, &ln, imp_op2(a, OP_LAND, PT_BOOL, not_(L, rd(L, found)), imp_op2(a, OP_NE, PT_U32, wf, cu(L, PT_U32, 0))));
    At pre = {k->prefix, zero};
    ImpExp *pref = k->seg ? flag_of(L, load1(L, k->prefixf, PT_U8, zero)) : NULL;
    seg_apply(L, k, gl_loads(L, k->lbv, k->ts, k->nv, rd(L, w)), gl_loads(L, k->prefix, k->ts, k->nv, zero), pref, NULL,
              &pre);
    ImpExp *stop = imp_op2(a, OP_EQ, PT_U32, wf, cu(L, PT_U32, 2));
    if (k->seg) {
        imp_store(L->b, k->prefixf, PT_U8, zero,
                  imp_op2(a, OP_OR, PT_U8, load1(L, k->lbsf, PT_U8, rd(L, w)), load1(L, k->prefixf, PT_U8, zero)));
        stop = imp_op2(a, OP_LOR, PT_BOOL, stop, pref);
    }
    imp_assign(L->b, found, stop);
    ImpStm *more = gl_if(L, &n, not_(L, rd(L, found)));
    imp_assign(L->b, w, gl_op(L, OP_ADD, rd(L, w), gl_i64(L, 1)));
    more->body = lw_leave(L, &n);
    walk->body = lw_leave(L, &ln);
    imp_store(L->b, k->lbj, PT_I64, zero, gl_op(L, OP_SUB, load1(L, k->lbj, PT_I64, zero), rd(L, w)));
    /* the group's inclusive prefix */
    ImpStm *done = gl_if(L, &n, rd(L, found));
    imp_store(L->b, k->lbdone, PT_U8, zero, cu(L, PT_U8, 1));
    ImpExp *aggf;
    ImpVar **agg = aggregate(L, k, &aggf);
    ImpVar **incl = gl_lets(L, "incl", k->ts, k->nv, NULL);
    seg_apply(L, k, gl_loads(L, k->prefix, k->ts, k->nv, zero), gl_reads(L, agg, k->nv), aggf, incl, NULL);
    ImpExp *inclf = k->seg ? imp_op2(a, OP_LOR, PT_BOOL, pref, aggf) : NULL;
    publish(L, k, gl_reads(L, incl, k->nv), 2, inclf, gl_sym(L, k->grp));
    done->body = lw_leave(L, &n);
}

/* Step 4, the look-back, by the whole group: work-item 0 publishes the
 * group's aggregate (group 0 its inclusive prefix); then, until an
 * inclusive prefix is found, the first LOOKBACK work-items read the
 * statuses of as many predecessors at once and work-item 0 combines them
 * backwards, stopping at one that is not published yet (read again next
 * round) or at an inclusive prefix. It then publishes the group's own
 * inclusive prefix, and prefix<j>[0] (local) holds the exclusive one. A
 * segmented scan also stops at a predecessor whose segment flag is set,
 * and the flag of the exclusive prefix is prefixf[0]. The status flag
 * after the last one read (slot LOOKBACK, or the group size when smaller)
 * stays 0: it ends work-item 0's walk through the round. */
static void lookback(ImpLower *L, const Scan *k) {
    Arena *a = L->a;
    ImpExp *zero = gl_i64(L, 0), *first = imp_op2(a, OP_EQ, PT_I64, rd(L, k->ltid), zero);
    LwNest n, n2, wn;
    ImpExp *aggf;
    ImpStm *st = gl_if(L, &n, first);
    ImpVar **agg = aggregate(L, k, &aggf);
    gl_stores(L, k->prefix, k->ts, k->nv, zero, k->ne);
    if (k->seg) imp_store(L->b, k->prefixf, PT_U8, zero, cu(L, PT_U8, 0));
    ImpExp *grp0 = imp_op2(a, OP_EQ, PT_I64, rd(L, k->grp), zero);
    imp_store(L->b, k->lbdone, PT_U8, zero, flag_u8(L, grp0));
    imp_store(L->b, k->lbj, PT_I64, zero, gl_op(L, OP_SUB, rd(L, k->grp), gl_i64(L, 1)));
    /* the walk's end: after the last work-item that reads, which is
     * LOOKBACK - 1 unless the group is smaller (the slots past it are
     * never written: on NVIDIA devices they held garbage that the walk
     * took for statuses when a scan of wide values had groups of 16) */
    ImpExp *end = gl_op(L, OP_MIN, rd(L, k->lsize), gl_i64(L, LOOKBACK));
    imp_store(L->b, k->lbf, PT_U32, end, cu(L, PT_U32, 0));
    ImpStm *pub = gl_if(L, &n2, grp0);
    publish(L, k, gl_reads(L, agg, k->nv), 2, aggf, sym_const(a, 0));
    pub->body = lw_leave(L, &n2);
    lw_enter(L, &n2);
    publish(L, k, gl_reads(L, agg, k->nv), 1, aggf, gl_sym(L, k->grp));
    pub->orelse = lw_leave(L, &n2);
    st->body = lw_leave(L, &n);
    gl_barrier(L);

    ImpStm *round = gl_while(L, &wn, imp_op2(a, OP_EQ, PT_U8, load1(L, k->lbdone, PT_U8, zero), cu(L, PT_U8, 0)));
    st = gl_if(L, &n, imp_op2(a, OP_LT, PT_I64, rd(L, k->ltid), gl_i64(L, LOOKBACK)));
    lookback_read(L, k);
    st->body = lw_leave(L, &n);
    gl_barrier(L);
    st = gl_if(L, &n, first);
    lookback_walk(L, k);
    st->body = lw_leave(L, &n);
    gl_barrier(L);
    round->body = lw_leave(L, &wn);
}

/* Step 5: every work-item adds the prefix of everything before its
 * elements to them (a segmented scan: to those before the first segment
 * start among them). */
static void scan_add_prefix(ImpLower *L, const Scan *k) {
    Arena *a = L->a;
    ImpVar **p = gl_lets(L, "p", k->ts, k->nv, gl_loads(L, k->prefix, k->ts, k->nv, gl_i64(L, 0)));
    LwNest n;
    ImpExp *prev = gl_op(L, OP_SUB, rd(L, k->ltid), gl_i64(L, 1));
    ImpStm *st = gl_if(L, &n, imp_op2(a, OP_GT, PT_I64, rd(L, k->ltid), gl_i64(L, 0)));
    seg_apply(L, k, gl_reads(L, p, k->nv), gl_loads(L, k->tot, k->ts, k->nv, prev),
              k->seg ? flag_of(L, load1(L, k->totf, PT_U8, prev)) : NULL, p, NULL);
    st->body = lw_leave(L, &n);
    ImpVar *col = NULL, *started = NULL;
    if (k->seg) started = gl_let(L, "started", PT_BOOL, imp_const(a, prim_bool(false)));
    if (k->seg && !k->flagged) col = gl_let(L, "col", PT_I64, rd(L, k->col0));
    LwNest fl;
    ImpStm *f;
    ImpVar *e = for32(L, &fl, &f, "e", SCAN_ELEMS);
    ImpVar *ix = gl_let(L, "ix", PT_I64, pad(L, op32(L, OP_ADD, rd(L, k->base), rd(L, e))));
    if (k->seg) {
        ImpExp *here = k->flagged ? starts_at(L, k, rd(L, ix)) : imp_op2(a, OP_EQ, PT_I64, rd(L, col), gl_i64(L, 0));
        imp_assign(L->b, started, imp_op2(a, OP_LOR, PT_BOOL, rd(L, started), here));
    }
    At at = {k->loc, rd(L, ix)};
    ImpExp **el = gl_loads(L, k->loc, k->ts, k->nv, rd(L, ix));
    seg_apply(L, k, gl_reads(L, p, k->nv), el, started ? rd(L, started) : NULL, NULL, &at);
    if (col) step_col(L, k, col);
    f->body = lw_leave(L, &fl);
}

/* Step 6: the scanned values to the outputs, coalesced. */
static void scan_write(ImpLower *L, const Scan *k) {
    LwNest fl, n;
    ImpStm *f;
    ImpVar *kv = for32(L, &fl, &f, "k", SCAN_ELEMS), *slot, *i;
    ImpStm *st = gl_if(L, &n, chunk_element(L, k, kv, &slot, &i));
    gl_level_iters(L, k->g, k->g->depth, gl_sym(L, i));
    Sym *iv = sym_var(L->a, k->sc->iter->id);
    ImpExp **vals = gl_loads(L, k->loc, k->ts, k->nv, pad(L, rd(L, slot)));
    for (int j = 0; j < k->nv; j++) {
        const Var *out = k->stm->pat[k->v0 + j];
        if (!k->dead[j])
            imp_store(L->b, lw_var(L, out->mem->mem), out->type.elem, lw_offset(L, out->mem->ixfun, &iv), vals[j]);
    }
    st->body = lw_leave(L, &n);
    f->body = lw_leave(L, &fl);
}

/* The kernel's body: the group's number and the work-item's place, then
 * steps 1-6, a barrier between each. */
static void scan_kernel(ImpLower *L, Kb *kb, Scan *k) {
    Arena *a = L->a;
    k->ltid = gl_let(L, "ltid", PT_I64, imp_thread(a, IMP_LOCAL_ID));
    k->lsize = gl_let(L, "lsize", PT_I64, imp_thread(a, IMP_LOCAL_SIZE));
    k->ltid32 = gl_let(L, "ltid32", PT_I32, imp_conv(a, PT_I64, PT_I32, rd(L, k->ltid)));
    k->lsize32 = gl_let(L, "lsize32", PT_I32, imp_conv(a, PT_I64, PT_I32, rd(L, k->lsize)));
    LwNest n;
    ImpStm *st = gl_if(L, &n, imp_op2(a, OP_EQ, PT_I64, rd(L, k->ltid), gl_i64(L, 0)));
    ImpStm *at = imp_add(L->b, IMP_ATOMIC);
    at->var = lw_fresh(L, "grp", IMP_SCALAR, PT_I32);
    at->mem = k->state;
    at->index = gl_i64(L, 0);
    at->t = PT_I32;
    at->atomic = IMP_AT_ADD;
    at->value = c32(L, 1);
    imp_store(L->b, k->grp_l, PT_I64, gl_i64(L, 0), imp_conv(a, PT_I32, PT_I64, rd(L, at->var)));
    st->body = lw_leave(L, &n);
    gl_barrier(L);
    k->grp = gl_let(L, "grp", PT_I64, load1(L, k->grp_l, PT_I64, gl_i64(L, 0)));
    Sym *grp = gl_sym(L, k->grp), *lsize = gl_sym(L, k->lsize), *ltid = gl_sym(L, k->ltid);
    ImpVar *tid = gl_let(L, "tid", PT_I64, imp_sym(a, sym_add(a, sym_mul(a, grp, lsize), ltid)));
    k->start = gl_let(L, "start", PT_I64, imp_sym(a, sym_mul(a, sym_mul(a, grp, lsize), sym_const(a, SCAN_ELEMS))));
    if (k->seg && !k->flagged) {
        Sym *first = sym_add(a, gl_sym(L, k->start), sym_mul(a, ltid, sym_const(a, SCAN_ELEMS)));
        k->col0 = gl_let(L, "col0", PT_I64, gl_op(L, OP_REM, imp_sym(a, first), rd(L, k->m)));
    }
    k->base = gl_let(L, "base", PT_I32, op32(L, OP_MUL, rd(L, k->ltid32), c32(L, SCAN_ELEMS)));
    kb_prologue(L, kb, gl_sym(L, tid));
    k->ne = gl_neutrals(L, k->sc->scans, k->sc->nscans, k->v0 + k->nv) + k->v0;
    k->rne = gl_neutrals(L, k->sc->reds, k->sc->nreds, k->nr);
    k->racc = gl_lets(L, "racc", k->rts, k->nr, k->rne);
    scan_map(L, k);
    gl_barrier(L);
    scan_own(L, k);
    gl_barrier(L);
    scan_totals(L, k);
    /* 4: the group's partial reduction (work-item 0) and the look-back. */
    if (k->nr) {
        st = gl_if(L, &n, imp_op2(a, OP_EQ, PT_I64, rd(L, k->ltid), gl_i64(L, 0)));
        gl_stores(L, k->parts, k->rts, k->nr, rd(L, k->grp), gl_loads(L, k->red, k->rts, k->nr, gl_i64(L, 0)));
        st->body = lw_leave(L, &n);
    }
    lookback(L, k);
    scan_add_prefix(L, k);
    gl_barrier(L);
    scan_write(L, k);
}

/* ---- The host's side --------------------------------------------------------------------- */

/* Bytes of one value of each of ts. */
static int value_bytes(const PrimType *ts, int n) {
    int bytes = 0;
    for (int j = 0; j < n; j++) bytes += prim_size(ts[j]);
    return bytes;
}

static bool is_bool(Type t) { return t.kind == TK_PRIM && t.elem == PT_BOOL; }

/* Whether SegScan s (the flat scan sc) is flagged (Scan.flagged): one
 * operator, lifted, of the shape ir_segmented_op gives it (a bool first
 * among each operand's values and the results, false its neutral
 * element), and its flags' result dies with it. */
static bool flagged_scan(ImpLower *L, const Stm *s, const Screma *sc) {
    if (s->e->seg->depth > 1 || sc->nscans != 1 || !sc->scans[0].lifted || sc->scans[0].k < 2) return false;
    const SegOp *op = &sc->scans[0];
    const Lambda *l = op->op;
    if (!is_bool(l->params[0]->type) || !is_bool(l->params[op->k]->type) || !is_bool(l->ret[0])) return false;
    if (!se_same(op->neutral[0], se_bool(false))) return false;
    return lw_dead_results(L, s, 1)[0];
}

/* A SegScan: the scan kernel, and when the Screma also reduces, the
 * second kernel of a reduction over the scan groups' partial results. A
 * segmented scan scans all the elements of its nest at once, with
 * segments of m elements (at least 1, so that an empty scan divides by
 * nothing). */
void gl_seg_scan(ImpLower *L, const Stm *s) {
    Arena *a = L->a;
    Scan k = {0};
    k.g = s->e->seg;
    k.stm = k.g->levels[k.g->depth - 1];
    k.sc = &k.stm->e->screma;
    k.flagged = flagged_scan(L, s, k.sc);
    k.seg = k.g->depth > 1 || k.flagged;
    k.v0 = k.flagged;
    k.ts = gl_op_types(L, k.sc->scans, k.sc->nscans, &k.nv) + k.v0;
    k.nv -= k.v0;
    k.dead = lw_dead_results(L, s, k.v0 + k.nv) + k.v0;
    k.rts = gl_op_types(L, k.sc->reds, k.sc->nreds, &k.nr);
    k.staged = k.nr && !gl_commutative(k.sc->reds, k.sc->nreds);
    for (int j = 0; j < k.nv; j++) k.W += chunks_of(k.ts[j]);
    int nloc = k.nv + (k.staged ? k.nr : 0);
    PrimType *lts = NEW_ARRAY(a, PrimType, nloc + 1);
    COPY_ARRAY(lts, k.ts, k.nv);
    COPY_ARRAY(lts + k.nv, k.rts, nloc - k.nv);

    Kb kb;
    kb_begin(L, &kb, "segscan", k.g);
    ImpVar *n = gl_let(L, "n", PT_I64, imp_sym(a, gl_space(L, k.g, k.g->depth)));
    bool by_col = k.seg && !k.flagged;
    ImpVar *m = by_col ? gl_let(L, "m", PT_I64, gl_op(L, OP_MAX, lw_se(L, k.sc->w), gl_i64(L, 1))) : NULL;
    int bytes = (value_bytes(lts, nloc) + k.flagged) * SCAN_ELEMS + value_bytes(k.ts, k.nv) + value_bytes(k.rts, k.nr) + k.seg;
    ImpExp *per_item = gl_i64(L, bytes);
    ImpVar *size = gl_let(L, "group_size", PT_I64, imp_tuning(a, kb.k, IMP_TUNE_SCAN_GROUP_SIZE, &per_item));
    Sym *g = gl_sym(L, size), *chunk = sym_mul(a, g, sym_const(a, SCAN_ELEMS));
    ImpExp *groups_up = gl_div_up(L, imp_read(a, n), imp_sym(a, chunk));
    ImpVar *groups = gl_let(L, "groups", PT_I64, gl_op(L, OP_MAX, groups_up, gl_i64(L, 1)));
    /* the state block: the group counter, then the status words */
    Sym *words = sym_add(a, sym_mul(a, gl_sym(L, groups), sym_const(a, k.W)), sym_const(a, 1));
    PrimType u64 = PT_U64;
    ImpVar *state = gl_blocks(L, "state", &u64, 1, imp_sym(a, words), s->loc)[0];
    ImpStm *fill = imp_add(L->b, IMP_FILL);
    fill->dst = state;
    fill->dst_lmad = lmad_row_major(a, 1, &words);
    fill->t = PT_U64;
    fill->value = cu(L, PT_U64, 0);
    ImpVar **parts = k.nr ? gl_blocks(L, "part", k.rts, k.nr, rd(L, groups), s->loc) : NULL;

    kb_free_vars(L, &kb, imp_sym(a, sym_mul(a, gl_sym(L, groups), g)), s->loc);
    k.n = kb_scalar(L, &kb, "n", PT_I64, rd(L, n));
    if (by_col) k.m = kb_scalar(L, &kb, "m", PT_I64, rd(L, m));
    k.state = kb_block(L, &kb, "state", state);
    k.state->is_volatile = true;
    k.parts = NEW_ARRAY(a, ImpVar *, k.nr + 1);
    for (int j = 0; j < k.nr; j++) k.parts[j] = kb_block(L, &kb, arena_printf(a, "part%d", j), parts[j]);
    /* Padded (pad): g * SCAN_ELEMS slots and one more per 32. */
    ImpExp *slots = imp_sym(a, sym_add(a, sym_mul(a, g, sym_const(a, SCAN_ELEMS + SCAN_ELEMS / 32)), sym_const(a, 1)));
    k.loc = gl_locals(L, &kb, "loc", lts, nloc, slots);
    PrimType u8 = PT_U8;
    if (k.flagged) k.locf = gl_locals(L, &kb, "locf", &u8, 1, slots)[0];
    k.tot = gl_locals(L, &kb, "tot", k.ts, k.nv, rd(L, size));
    k.red = gl_locals(L, &kb, "red", k.rts, k.nr, rd(L, size));
    if (k.seg) k.totf = gl_locals(L, &kb, "totf", &u8, 1, rd(L, size))[0];
    k.grp_l = kb_local(L, &kb, "grp", PT_I64, gl_i64(L, 1));
    k.prefix = gl_locals(L, &kb, "prefix", k.ts, k.nv, gl_i64(L, 1));
    k.lbv = gl_locals(L, &kb, "lbv", k.ts, k.nv, gl_i64(L, LOOKBACK));
    k.lbf = kb_local(L, &kb, "lbf", PT_U32, gl_i64(L, LOOKBACK + 1));
    if (k.seg) {
        k.prefixf = kb_local(L, &kb, "prefixf", PT_U8, gl_i64(L, 1));
        k.lbsf = kb_local(L, &kb, "lbsf", PT_U8, gl_i64(L, LOOKBACK));
    }
    k.lbj = kb_local(L, &kb, "lbj", PT_I64, gl_i64(L, 1));
    k.lbdone = kb_local(L, &kb, "lbdone", PT_U8, gl_i64(L, 1));

    kb_enter(L, &kb);
    scan_kernel(L, &kb, &k);
    kb_leave(L, &kb);

    kb_launch(L, &kb, rd(L, groups), rd(L, size));
    imp_add(L->b, IMP_RELEASE)->mem = state;
    if (k.nr) gl_red_final(L, s, k.sc->reds, k.sc->nreds, parts, rd(L, groups), rd(L, size));
    kb_release(L, &kb);
}
