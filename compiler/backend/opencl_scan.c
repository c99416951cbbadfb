/* The OpenCL backend's SegScan (opencl.c describes the backend): one
 * pass with decoupled look-back; a segmented scan is one such pass with
 * the operator lifted onto segment flags, and the reductions of a Screma
 * are folded as it scans and finished by SegRed's second kernel
 * (red_final, opencl_seg.c). */
#include "opencl_internal.h"

#include <string.h>

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

/* ---- SegScan --------------------------------------------------------------------------------- */

static void apply_ops(Emit *K, const SegOp *ops, int nops, const char **xs, const char **ys, const char **dst) {
    int v = 0;
    for (int j = 0; j < nops; j++) {
        apply_op(K, &ops[j], xs + v, ys + v, dst + v);
        v += ops[j].k;
    }
}

/* A segmented scan (SegInfo depth > 1) is one scan over all the elements
 * of the nest in row-major order, whose operator is lifted onto pairs of
 * a flag, set where a segment starts, and a value:
 *     (xf, x) + (yf, y) = (xf | yf, yf ? y : x op y),
 * which is associative when op is, so the single-pass kernel runs it as
 * it is. Element i is column i % rt_m of segment i / rt_m; its flag is
 * (column == 0), computed from the column (rt_col, counted along a
 * work-item's elements from rt_col0). The flags of the work-items'
 * totals are in rt_totf[], those of the groups' aggregates travel in
 * their status words, and the look-back stops at the first predecessor
 * whose flag is set. H100, 2^27 i32 (+), n rows of 2^27 / n: 0.57-0.58
 * ms for 2^14 to 2^27 rows (the flat scan of as many elements: 0.60, its
 * look-back cannot stop early), 0.63 for 2^7, 0.66 for one row; the
 * SegMap with a sequential scan per row took 3.4 to 10.5 ms for 2^14 to
 * 2^20 rows (0.51 for rows of 2). Stepping each work-item's row and
 * column instead of dividing per element was slower (0.84 for one row). */

/* dst = xs + ys for the scan operators, lifted onto flags when yf (a C
 * expression) is given: ys where yf is set; then df = xf | yf when df (a
 * C place) is given. */
static void seg_apply(Emit *K, const SegOp *ops, int nops, int nv, const char **xs, const char *xf, const char **ys,
                      const char *yf, const char **dst, const char *df) {
    if (!yf) {
        apply_ops(K, ops, nops, xs, ys, dst);
        return;
    }
    ce_line(K, "if (!(%s)) {", yf);
    K->indent++;
    apply_ops(K, ops, nops, xs, ys, dst);
    K->indent--;
    bool copy = false;
    for (int j = 0; j < nv; j++) copy |= strcmp(dst[j], ys[j]) != 0;
    if (copy) ce_line(K, "} else {");
    for (int j = 0; j < nv && copy; j++) ce_line(K, "    %s = %s;", dst[j], ys[j]);
    ce_line(K, "}");
    if (df) ce_line(K, "%s = (%s) | (%s);", df, xf, yf);
}

static const char **neutrals(Emit *K, const SegOp *ops, int nops, int nv) {
    const char **r = NEW_ARRAY(K->a, const char *, nv + 1);
    int v = 0;
    for (int j = 0; j < nops; j++)
        for (int i = 0; i < ops[j].k; i++) r[v++] = ce_se(K, ops[j].neutral[i]);
    return r;
}

/* Status words of the look-back: each value is split into 32-bit chunks
 * and each chunk travels with its group's flag in one 64-bit word
 * (flag << 32 | chunk), written and read at once. Flag 1: the chunk is
 * of the group's aggregate, 2: of its inclusive prefix. A reader takes a
 * group's values only when all its words carry the same flag, so it never
 * mixes an aggregate with a prefix, and no fence between a value and its
 * flag is needed. A segmented scan adds the segment flag of the values
 * as bit 2 of the flag. */
static int chunks_of(PrimType t) { return prim_size(t) > 4 ? 2 : 1; }

static int status_words(const PrimType *ts, int nv) {
    int w = 0;
    for (int j = 0; j < nv; j++) w += chunks_of(ts[j]);
    return w;
}

/* Writes values vals[] (C variables) with flag into group grp's words;
 * segf (a C expression, or NULL) is their segment flag. */
static void publish(Emit *K, const PrimType *ts, int nv, const char **vals, int flag, const char *segf, const char *grp) {
    int W = status_words(ts, nv), w = 0;
    const char *hi = segf ? arena_printf(K->a, "((ulong)(%d | (%s) << 2) << 32)", flag, segf)
                          : arena_printf(K->a, "(%dUL << 32)", flag);
    for (int j = 0; j < nv; j++) {
        PrimType t = ts[j];
        if (chunks_of(t) == 1) {
            const char *bits = arena_printf(K->a, t == PT_F32 ? "as_uint(%s)" : "(uint)(%s)", vals[j]);
            ce_line(K, "rt_status[(%s) * %d + %d] = %s | (ulong)%s;", grp, W, w++, hi, bits);
            continue;
        }
        ce_line(K, "{");
        ce_line(K, "    ulong rt_x = %s;", arena_printf(K->a, t == PT_F64 ? "as_ulong(%s)" : "(ulong)(%s)", vals[j]));
        ce_line(K, "    rt_status[(%s) * %d + %d] = %s | (rt_x & 0xffffffffUL);", grp, W, w++, hi);
        ce_line(K, "    rt_status[(%s) * %d + %d] = %s | (rt_x >> 32);", grp, W, w++, hi);
        ce_line(K, "}");
    }
}

/* Reads group rt_j's words into rt_w<k>; sets rt_f to their common flag,
 * or 0 when they are not all published with one flag yet, and (seg)
 * rt_sf to their segment flag. */
static void read_status(Emit *K, int W, bool seg) {
    for (int w = 0; w < W; w++) ce_line(K, "ulong rt_w%d = rt_status[rt_j * %d + %d];", w, W, w);
    ce_line(K, "uint rt_f = (uint)(rt_w0 >> 32);");
    for (int w = 1; w < W; w++) ce_line(K, "if ((uint)(rt_w%d >> 32) != rt_f) rt_f = 0;", w);
    if (seg) ce_line(K, "uint rt_sf = rt_f >> 2;");
    if (seg) ce_line(K, "rt_f &= 3;");
}

/* Declares rt_v<j> from the words rt_w<k>. */
static void unpack_status(Emit *K, const PrimType *ts, int nv) {
    int w = 0;
    for (int j = 0; j < nv; j++) {
        PrimType t = ts[j];
        const char *ct = ctype(t);
        if (chunks_of(t) == 1) {
            if (t == PT_F32) ce_line(K, "float rt_v%d = as_float((uint)rt_w%d);", j, w);
            else ce_line(K, "%s rt_v%d = (%s)(uint)rt_w%d;", ct, j, ct, w);
            w++;
            continue;
        }
        ce_line(K, "ulong rt_x%d = (rt_w%d & 0xffffffffUL) | (rt_w%d << 32);", j, w, w + 1);
        if (t == PT_F64) ce_line(K, "double rt_v%d = as_double(rt_x%d);", j, j);
        else ce_line(K, "%s rt_v%d = (%s)rt_x%d;", ct, j, ct, j);
        w += 2;
    }
}

/* The look-back, by the whole group: work-item 0 publishes the group's
 * aggregate (group 0 its inclusive prefix); then, until an inclusive
 * prefix is found, the first LOOKBACK work-items read the statuses of as
 * many predecessors at once and work-item 0 combines them backwards,
 * stopping at one that is not published yet (read again next round) or
 * at an inclusive prefix. It then publishes the group's own inclusive
 * prefix, and rt_prefix<j> (local) holds the exclusive one. A segmented
 * scan (seg) also stops at a predecessor whose segment flag is set, and
 * the flag of the exclusive prefix is rt_prefixf. */
static void lookback(Emit *K, const SegOp *ops, int nops, const PrimType *ts, int nv, const char **ne, bool seg) {
    int W = status_words(ts, nv);
    const char **agg = names_of(K, "rt_agg%d", nv), **pre = names_of(K, "rt_prefix%d", nv);
    const char **tot_last = names_at(K, "rt_tot", 0, nv, "rt_lsize - 1");
    const char *aggf = seg ? "rt_aggf" : NULL, *pref = seg ? "rt_prefixf" : NULL;
    ce_line(K, "if (rt_ltid == 0) {");
    K->indent++;
    declare_vals(K, "rt_agg%d", ts, tot_last, nv);
    if (seg) ce_line(K, "uint rt_aggf = rt_totf[rt_lsize - 1];");
    for (int j = 0; j < nv; j++) ce_line(K, "rt_prefix%d = %s;", j, ne[j]);
    if (seg) ce_line(K, "rt_prefixf = 0;");
    ce_line(K, "rt_lbdone = rt_grp == 0;");
    ce_line(K, "rt_lbj = rt_grp - 1;");
    ce_line(K, "if (rt_grp == 0) {");
    K->indent++;
    publish(K, ts, nv, agg, 2, aggf, "0");
    K->indent--;
    ce_line(K, "} else {");
    K->indent++;
    publish(K, ts, nv, agg, 1, aggf, "rt_grp");
    K->indent--;
    ce_line(K, "}");
    K->indent--;
    ce_line(K, "}");
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    ce_line(K, "while (!rt_lbdone) {");
    K->indent++;
    ce_line(K, "if (rt_ltid < %d) {", LOOKBACK);
    K->indent++;
    ce_line(K, "long rt_j = rt_lbj - rt_ltid;");
    ce_line(K, "rt_lbf[rt_ltid] = 0;");
    ce_line(K, "if (rt_j >= 0) {");
    K->indent++;
    read_status(K, W, seg);
    unpack_status(K, ts, nv);
    for (int j = 0; j < nv; j++) ce_line(K, "rt_lbv%d[rt_ltid] = rt_v%d;", j, j);
    ce_line(K, "rt_lbf[rt_ltid] = rt_f;");
    if (seg) ce_line(K, "rt_lbsf[rt_ltid] = rt_sf;");
    K->indent--;
    ce_line(K, "}");
    K->indent--;
    ce_line(K, "}");
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    ce_line(K, "if (rt_ltid == 0) {");
    K->indent++;
    ce_line(K, "int rt_w = 0;");
    ce_line(K, "for (; rt_w < %d && rt_lbf[rt_w] != 0; rt_w++) {", LOOKBACK);
    K->indent++;
    seg_apply(K, ops, nops, nv, names_at(K, "rt_lbv", 0, nv, "rt_w"), seg ? "rt_lbsf[rt_w]" : NULL, pre, pref, pre,
              pref);
    ce_line(K, "if (rt_lbf[rt_w] == 2%s) {", seg ? " || rt_prefixf" : "");
    K->indent++;
    ce_line(K, "rt_lbdone = 1;");
    ce_line(K, "break;");
    K->indent--;
    ce_line(K, "}");
    K->indent--;
    ce_line(K, "}");
    ce_line(K, "rt_lbj -= rt_w;");
    ce_line(K, "if (rt_lbdone) {");
    K->indent++;
    declare_vals(K, "rt_agg%d", ts, tot_last, nv);
    declare_vals(K, "rt_incl%d", ts, NULL, nv);
    const char **incl = names_of(K, "rt_incl%d", nv);
    if (seg) ce_line(K, "uint rt_aggf = rt_totf[rt_lsize - 1], rt_inclf;");
    seg_apply(K, ops, nops, nv, pre, pref, agg, aggf, incl, seg ? "rt_inclf" : NULL);
    publish(K, ts, nv, incl, 2, seg ? "rt_inclf" : NULL, "rt_grp");
    K->indent--;
    ce_line(K, "}");
    K->indent--;
    ce_line(K, "}");
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    K->indent--;
    ce_line(K, "}");
}

/* The reductions of a Screma with scans and reductions, which its SegScan
 * kernel folds as it scans: nr values of types ts. Each work-item folds
 * its elements into its accumulators acc; when every operator commutes
 * it does so as it maps them, else (staged) the values go through local
 * memory (rt_loc<nv + j>, after the scan values) so that each work-item
 * folds its consecutive elements in order. The group combines the
 * work-items' results (rt_red<j>) with an in-order tree during the scan
 * of their totals and writes one partial result per group; red_final
 * combines the groups' partials, which are in element order because
 * groups take their numbers in the order they start. */
typedef struct ScanReds {
    int nr;
    PrimType *ts;
    bool staged;
    const char **acc;
} ScanReds;

/* The scan statement of SegScan g: the SOAC itself, or the innermost
 * level of a segmented scan. */
static const Stm *scan_stm(const SegInfo *g) { return g->levels[g->depth - 1]; }

/* Step 1 of the scan kernel: the map over the group's elements in a
 * coalesced order (a segmented scan's levels around the scan binding
 * their rows and running their code for each), scan inputs (and staged
 * reduction values) to local memory, neutral elements past the end. */
static void scan_map(Kern *k, int nv, const char **ne, const ScanReds *rd) {
    const Stm *s = scan_stm(k->seg);
    const Screma *sc = &s->e->screma;
    Emit *K = &k->K;
    int nstaged = rd->staged ? rd->nr : 0;
    const char **rne = neutrals(K, sc->reds, sc->nreds, rd->nr);
    ce_line(K, "for (int rt_k = 0; rt_k < %d; rt_k++) {", SCAN_ELEMS);
    K->indent++;
    ce_line(K, "long rt_i = rt_start + rt_k * rt_lsize + rt_ltid;");
    ce_line(K, "int rt_slot = rt_k * rt_lsize + rt_ltid;");
    ce_line(K, "if (rt_i < rt_n) {");
    K->indent++;
    level_iters(K, k->seg, k->seg->depth, "rt_i");
    outer_levels(K, k->seg, k->seg->depth - 1);
    ce_bind_rows(K, sc->map, sc->arrs, sc->iter);
    const char **staged = nstaged ? names_at(K, "rt_loc", nv, nstaged, "RT_PAD(rt_slot)") : NULL;
    StoreCtx x = {s, nv, names_at(K, "rt_loc", 0, nv, "RT_PAD(rt_slot)"), rd->nr, staged,
                  rd->staged ? NULL : rd->acc};
    ce_body(K, sc->map->body, res_store, &x);
    K->indent--;
    ce_line(K, "} else {");
    for (int j = 0; j < nv; j++) ce_line(K, "    rt_loc%d[RT_PAD(rt_slot)] = %s;", j, ne[j]);
    for (int j = 0; j < nstaged; j++) ce_line(K, "    rt_loc%d[RT_PAD(rt_slot)] = %s;", nv + j, rne[j]);
    ce_line(K, "}");
    ce_line(K, "rt_next: ;");
    K->indent--;
    ce_line(K, "}");
}

/* Step 2: each work-item scans its SCAN_ELEMS consecutive elements in
 * place, leaves their total in rt_tot<j>[rt_ltid] (a segmented scan: its
 * flag in rt_totf[rt_ltid]), and its reduction result in
 * rt_red<j>[rt_ltid]. */
static void scan_own(Emit *K, const SegInfo *g, const PrimType *ts, int nv, const ScanReds *rd) {
    const Stm *s = scan_stm(g);
    const Screma *sc = &s->e->screma;
    bool seg = g->depth > 1;
    ce_line(K, "{");
    K->indent++;
    ce_line(K, "int rt_base = rt_ltid * %d;", SCAN_ELEMS);
    declare_vals(K, "rt_acc%d", ts, names_at(K, "rt_loc", 0, nv, "RT_PAD(rt_base)"), nv);
    if (seg) ce_line(K, "long rt_col = rt_col0;");
    if (seg) ce_line(K, "uint rt_accf = rt_col == 0;");
    ce_line(K, "for (int rt_e = 1; rt_e < %d; rt_e++) {", SCAN_ELEMS);
    K->indent++;
    const char **acc = names_of(K, "rt_acc%d", nv);
    const char **cur = names_at(K, "rt_loc", 0, nv, "RT_PAD(rt_base + rt_e)");
    if (seg) ce_line(K, "if (++rt_col == rt_m) rt_col = 0;");
    seg_apply(K, sc->scans, sc->nscans, nv, acc, "rt_accf", cur, seg ? "rt_col == 0" : NULL, acc, "rt_accf");
    for (int j = 0; j < nv; j++) ce_line(K, "%s = %s;", cur[j], acc[j]);
    K->indent--;
    ce_line(K, "}");
    for (int j = 0; j < nv; j++) ce_line(K, "rt_tot%d[rt_ltid] = rt_acc%d;", j, j);
    if (seg) ce_line(K, "rt_totf[rt_ltid] = rt_accf;");
    if (rd->staged) {
        ce_line(K, "for (int rt_e = 0; rt_e < %d; rt_e++) {", SCAN_ELEMS);
        K->indent++;
        combine_reds(K, s, names_at(K, "rt_loc", nv, rd->nr, "RT_PAD(rt_base + rt_e)"), rd->acc);
        K->indent--;
        ce_line(K, "}");
    }
    for (int j = 0; j < rd->nr; j++) ce_line(K, "rt_red%d[rt_ltid] = %s;", j, rd->acc[j]);
    K->indent--;
    ce_line(K, "}");
}

/* Step 3: inclusive scan of the work-items' totals; each of its steps
 * also takes a step of the tree over their reduction results. */
static void scan_totals(Emit *K, const SegInfo *g, const PrimType *ts, int nv, const ScanReds *rd) {
    const Screma *sc = &scan_stm(g)->e->screma;
    bool seg = g->depth > 1;
    ce_line(K, "for (int rt_s = 1; rt_s < rt_lsize; rt_s *= 2) {");
    K->indent++;
    declare_vals(K, "rt_x%d", ts, NULL, nv);
    if (seg) ce_line(K, "uint rt_xf;");
    ce_line(K, "bool rt_have = rt_ltid >= rt_s;");
    ce_line(K, "if (rt_have) {");
    for (int j = 0; j < nv; j++) ce_line(K, "    rt_x%d = rt_tot%d[rt_ltid - rt_s];", j, j);
    if (seg) ce_line(K, "    rt_xf = rt_totf[rt_ltid - rt_s];");
    ce_line(K, "}");
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    ce_line(K, "if (rt_have) {");
    K->indent++;
    const char **tot = names_at(K, "rt_tot", 0, nv, "rt_ltid");
    const char *totf = seg ? "rt_totf[rt_ltid]" : NULL;
    seg_apply(K, sc->scans, sc->nscans, nv, names_of(K, "rt_x%d", nv), "rt_xf", tot, totf, tot, totf);
    K->indent--;
    ce_line(K, "}");
    if (rd->nr) tree_step(K, sc->reds, sc->nreds, "rt_red", GROUP_TREE);
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    K->indent--;
    ce_line(K, "}");
}

/* Step 5: every work-item adds the prefix of everything before its
 * elements to them (a segmented scan: to those before the first segment
 * start among them). */
static void scan_add_prefix(Emit *K, const SegInfo *g, const PrimType *ts, int nv) {
    const Screma *sc = &scan_stm(g)->e->screma;
    bool seg = g->depth > 1;
    ce_line(K, "{");
    K->indent++;
    declare_vals(K, "rt_p%d", ts, names_of(K, "rt_prefix%d", nv), nv);
    const char **p = names_of(K, "rt_p%d", nv);
    ce_line(K, "if (rt_ltid > 0) {");
    K->indent++;
    seg_apply(K, sc->scans, sc->nscans, nv, p, NULL, names_at(K, "rt_tot", 0, nv, "rt_ltid - 1"),
              seg ? "rt_totf[rt_ltid - 1]" : NULL, p, NULL);
    K->indent--;
    ce_line(K, "}");
    if (seg) ce_line(K, "long rt_col = rt_col0;");
    if (seg) ce_line(K, "uint rt_started = 0;");
    ce_line(K, "for (int rt_e = 0; rt_e < %d; rt_e++) {", SCAN_ELEMS);
    K->indent++;
    const char **el = names_at(K, "rt_loc", 0, nv, arena_printf(K->a, "RT_PAD(rt_ltid * %d + rt_e)", SCAN_ELEMS));
    if (seg) ce_line(K, "rt_started |= rt_col == 0;");
    seg_apply(K, sc->scans, sc->nscans, nv, p, NULL, el, seg ? "rt_started" : NULL, el, NULL);
    if (seg) ce_line(K, "if (++rt_col == rt_m) rt_col = 0;");
    K->indent--;
    ce_line(K, "}");
    K->indent--;
    ce_line(K, "}");
}

/* Step 6: the scanned values to the outputs, coalesced. */
static void scan_write(Emit *K, const SegInfo *g, int nv) {
    const Stm *s = scan_stm(g);
    const Screma *sc = &s->e->screma;
    ce_line(K, "for (int rt_k = 0; rt_k < %d; rt_k++) {", SCAN_ELEMS);
    K->indent++;
    ce_line(K, "long rt_i = rt_start + rt_k * rt_lsize + rt_ltid;");
    ce_line(K, "if (rt_i < rt_n) {");
    K->indent++;
    level_iters(K, g, g->depth, "rt_i");
    Sym *iv = sym_var(K->a, sc->iter->id);
    for (int j = 0; j < nv; j++) {
        Var *out = s->pat[j];
        ce_line(K, "%s = rt_loc%d[RT_PAD(rt_k * rt_lsize + rt_ltid)];", ce_elem_at(K, ce_arr_base(K, out), out->mem->ixfun, &iv),
                j);
    }
    K->indent--;
    ce_line(K, "}");
    K->indent--;
    ce_line(K, "}");
}

/* The single-pass scan kernel: steps 1-6, one barrier between each. */
static void scan_kernel(Kern *k, const PrimType *ts, int nv, ScanReds *rd) {
    const SegInfo *g = k->seg;
    const Screma *sc = &scan_stm(g)->e->screma;
    bool seg = g->depth > 1;
    Emit *K = &k->K;
    const SegOp *ops = sc->scans;
    int nops = sc->nscans;
    const char **ne = neutrals(K, ops, nops, nv);
    ce_line(K, "__local long rt_grp_l;");
    for (int j = 0; j < nv; j++) ce_line(K, "__local %s rt_prefix%d, rt_lbv%d[%d];", ctype(ts[j]), j, j, LOOKBACK);
    ce_line(K, "__local uint rt_lbf[%d];", LOOKBACK);
    if (seg) ce_line(K, "__local uint rt_prefixf, rt_lbsf[%d];", LOOKBACK);
    ce_line(K, "__local long rt_lbj;");
    ce_line(K, "__local int rt_lbdone;");
    ce_line(K, "int rt_ltid = get_local_id(0), rt_lsize = get_local_size(0);");
    ce_line(K, "if (rt_ltid == 0) rt_grp_l = atomic_inc(rt_counter);");
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    ce_line(K, "long rt_grp = rt_grp_l, rt_tid = rt_grp * rt_lsize + rt_ltid;");
    ce_line(K, "long rt_start = rt_grp * rt_lsize * %d;", SCAN_ELEMS);
    if (seg) ce_line(K, "long rt_col0 = (rt_start + rt_ltid * %d) %% rt_m;", SCAN_ELEMS);
    kern_prologue(k, "rt_tid");
    if (rd->nr) rd->acc = ce_declare_accs(K, sc->reds, sc->nreds, NULL, true);
    scan_map(k, nv, ne, rd);
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    scan_own(K, g, ts, nv, rd);
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    scan_totals(K, g, ts, nv, rd);
    /* 4: the group's partial reduction (work-item 0) and the look-back. */
    if (rd->nr) {
        ce_line(K, "if (rt_ltid == 0) {");
        for (int j = 0; j < rd->nr; j++) ce_line(K, "    rt_part%d[rt_grp] = rt_red%d[0];", j, j);
        ce_line(K, "}");
    }
    lookback(K, ops, nops, ts, nv, ne, seg);
    scan_add_prefix(K, g, ts, nv);
    ce_line(K, "barrier(CLK_LOCAL_MEM_FENCE);");
    scan_write(K, g, nv);
}

/* Bytes of one value of each of ts. */
static int value_bytes(const PrimType *ts, int n) {
    int bytes = 0;
    for (int j = 0; j < n; j++) bytes += prim_size(ts[j]);
    return bytes;
}

/* A SegScan: the scan kernel, and when the Screma also reduces, the
 * second kernel of a SegRed over the scan groups' partial results. A
 * segmented scan scans all the elements of its nest at once, with
 * segments of rt_m elements (at least 1, so that an empty scan divides
 * by nothing). */
void seg_scan(Emit *E, const Stm *s) {
    const SegInfo *g = s->e->seg;
    const Screma *sc = &scan_stm(g)->e->screma;
    bool seg = g->depth > 1;
    int nv;
    PrimType *ts = op_types(E, sc->scans, sc->nscans, &nv);
    ScanReds rd = {0};
    rd.ts = op_types(E, sc->reds, sc->nreds, &rd.nr);
    rd.staged = rd.nr && !all_commutative(sc->reds, sc->nreds);
    int nloc = nv + (rd.staged ? rd.nr : 0);
    PrimType *lts = NEW_ARRAY(E->a, PrimType, nloc + 1);
    COPY_ARRAY(lts, ts, nv);
    COPY_ARRAY(lts + nv, rd.ts, nloc - nv);
    declare_results(E, s);
    Kern k;
    kern_begin(E, &k, s, "segscan");
    int P = new_param(E, arena_printf(E->a, "segscan_%d.group_size", k.id));
    host_launch_begin(E, &k);
    ce_line(E, "int64_t rt_n = %s;", space_size(E, g, g->depth));
    if (seg) ce_line(E, "int64_t rt_m = %s > 0 ? %s : 1;", ce_se(E, sc->w), ce_se(E, sc->w));
    ce_line(E, "int64_t rt_g = rt_cl_fit_group(rt_cl_group_size_or(%d, RT_CL_SCAN_GROUP_SIZE), %d);", P,
            value_bytes(lts, nloc) * SCAN_ELEMS + value_bytes(ts, nv) + value_bytes(rd.ts, rd.nr) + seg);
    ce_line(E, "int64_t rt_groups = (rt_n + rt_g * %d - 1) / (rt_g * %d);", SCAN_ELEMS, SCAN_ELEMS);
    ce_line(E, "if (rt_groups < 1) rt_groups = 1;");
    /* The state block: the group counter, then the status words. */
    int W = status_words(ts, nv);
    ce_line(E, "rt_dblock *rt_state = rt_dblock_new(ctx, dpool, 8 * (rt_groups * %d + 1));", W);
    ce_line(E, "if (!rt_state || rt_cl_zero(ctx, rt_state, 8 * (rt_groups * %d + 1))) goto fail;", W);
    host_partials(E, rd.ts, rd.nr);
    kern_free_args(E, &k, "rt_groups * rt_g");
    kern_extra(E, &k, "long rt_n", "int64_t", "rt_n");
    if (seg) kern_extra(E, &k, "long rt_m", "int64_t", "rt_m");
    kern_extra_mem(E, &k, "volatile __global ulong *rt_state", "rt_state");
    kern_partials(E, &k, rd.ts, rd.nr);
    /* Padded (RT_PAD, runtime/kernels.cl): a work-item's consecutive
     * elements are in different banks. */
    local_arrays(E, &k, lts, nloc, arena_printf(E->a, "rt_g * %d + rt_g * %d / 32 + 1", SCAN_ELEMS, SCAN_ELEMS));
    for (int j = 0; j < nv; j++)
        kern_extra_local(E, &k, arena_printf(E->a, "__local %s *rt_tot%d", ctype(ts[j]), j),
                         arena_printf(E->a, "(size_t)rt_g * sizeof(%s)", ctype(ts[j])));
    for (int j = 0; j < rd.nr; j++)
        kern_extra_local(E, &k, arena_printf(E->a, "__local %s *rt_red%d", ctype(rd.ts[j]), j),
                         arena_printf(E->a, "(size_t)rt_g * sizeof(%s)", ctype(rd.ts[j])));
    if (seg) kern_extra_local(E, &k, "__local uchar *rt_totf", "(size_t)rt_g");
    ce_line(E, "if (rt_cl_launch(ctx, %d, rt_groups, rt_g)) goto fail;", k.id);
    ce_line(E, "rt_dblock_release(rt_state);");
    ce_line(&k.K, "volatile __global int *rt_counter = (volatile __global int *)rt_state;");
    ce_line(&k.K, "volatile __global ulong *rt_status = rt_state + 1;");
    scan_kernel(&k, ts, nv, &rd);
    kern_end(E, &k);
    if (rd.nr) red_final(E, s, rd.ts, rd.nr, nv);
    host_launch_end(E, &k);
}
