/* Irregular arrays: arrays whose rows differ in size, as a map whose
 * function's result size depends on the element builds them
 * (`map (\n -> iota n) ns`); man/futhorc-irregular.7 describes them.
 *
 * Futhark has no such arrays: the rows of a map's result must have one
 * size. futhorc gives the map a meaning instead (an additive extension): its result is an irregular
 * array, stored packed (the rows one after another in one flat array, no
 * padding) with a descriptor: each row's size in each dimension that
 * varies, its element count and its offset in the flat array (an
 * inclusive scan of the counts, checked not to pass 2^63-1, minus the
 * count).
 *
 * An irregular array is a static value of the lowering (SV_IRREG): the IR
 * sees only its flat array and the descriptor's arrays. It stays
 * irregular where it is flattened (its flat array), indexed by a row (a
 * slice of the flat array), asked its length, zipped, mapped over
 * (the function gets each row; its results may be irregular again), and
 * chosen by a branch whose arms both are or carried by a loop whose
 * body's result is one too (lower_arm_leaves), and passed to a function
 * whose parameter leaves the rows' sizes anonymous (sizes.c).
 * Everything else needs an array whose rows have one size: there the
 * value is checked to have them, Futhark's rule, and reshaped
 * (lower_regular, called by sv_leaves), so that every program Futhark
 * accepts means what it means in Futhark.
 *
 * A map whose results are irregular lowers its function again for each
 * step (lower_map_elems): as a map, to find which sizes the map cannot
 * know outside it; as a map computing those sizes and each row's element
 * count (the simplifier keeps only what they need: `iota n`'s size is n);
 * then, where the elements of every irregular row can be computed one by
 * one (elem_at: iotas, replicates, slices, reshapes, maps over them), as
 * a map over the flat array's positions, each reading its
 * element of its row (build_by_positions), and a map over the elements for
 * the regular results; rows made by a scan of such elements are a
 * segmented scan over the positions, rows made by a filter of them one
 * filter of all rows' elements (the rows' sizes then a reduction of the
 * flags); otherwise in a loop over the elements that writes
 * each row into its place in the flat array and each regular result into
 * its row, sequential over the rows (their parallel operations run in
 * parallel). irregular_desc.c computes the descriptors' offsets and
 * totals, and the row of each flat position. */
#include "irregular.h"

bool sv_irregular(const SVal *v) {
    if (v->kind == SV_IRREG) return true;
    if (v->kind == SV_TUPLE || v->kind == SV_RECORD)
        for (int i = 0; i < v->n; i++)
            if (sv_irregular(v->elems[i])) return true;
    return false;
}

/* x (an array) with the shape shape[rank] (of as many elements). */
static SubExp reshape(Lower *l, SubExp x, SubExp *shape, int rank, SrcLoc loc) {
    IrExp *e = lower_new_exp(l, IE_RESHAPE);
    e->arr = x.v;
    e->shape = shape;
    e->nshape = rank;
    return lower_emit1(l, e, type_array(l->a, subexp_type(x).elem, rank, shape), loc);
}

/* x[start:start+len] of a one-dimensional array x. */
static SubExp slice_of(Lower *l, SubExp x, SubExp start, SubExp len, SrcLoc loc) {
    DimSlice *s = NEW(l->a, DimSlice);
    *s = (DimSlice){.is_slice = true, .start = start, .len = len, .stride = se_i64(1)};
    IrExp *e = lower_new_exp(l, IE_INDEX);
    e->arr = x.v;
    e->slice = s;
    e->nslice = 1;
    SubExp *shape = NEW(l->a, SubExp);
    *shape = len;
    return lower_emit1(l, e, type_array(l->a, subexp_type(x).elem, 1, shape), loc);
}

/* Where the first of n rows (starting at offsets, of counts elements)
 * starts, ends[0], and where the last one ends, ends[1]: 0 and 0 when
 * there are no rows. */
static void row_ends(Lower *l, SubExp offsets, SubExp counts, SubExp n, SubExp *ends, SrcLoc loc) {
    SubExp empty = lower_binop(l, OP_EQ, n, se_i64(0), loc), zero = se_i64(0);
    for (int k = 0; k < 2; k++) {
        Builder *saved = l->b, tb = {0}, fb = {0};
        l->b = &fb;
        SubExp last = lower_binop(l, OP_SUB, n, se_i64(1), loc);
        SubExp at = k == 0 ? irr_element(l, offsets, se_i64(0), loc)
                           : lower_binop(l, OP_ADD, irr_element(l, offsets, last, loc), irr_element(l, counts, last, loc),
                                         loc);
        Body *fbody = lower_body_end(l, saved, &fb, &at, 1);
        ends[k] = lower_if_one(l, empty, lower_body_end(l, saved, &tb, &zero, 1), fbody, type_prim(PT_I64), loc);
    }
}

/* The elements of irregular array v's rows, one after another: its flat
 * array, or for a view the part from its first row's start to its last
 * row's end (nothing when it has no rows). */
static SubExp flat_of(Lower *l, const SVal *v, SrcLoc loc) {
    const Irreg *r = v->irr;
    if (!r->view) return v->se;
    SubExp ends[2];
    row_ends(l, r->offsets, r->counts, r->n, ends, loc);
    return slice_of(l, v->se, ends[0], lower_binop(l, OP_SUB, ends[1], ends[0], loc), loc);
}

/* The one size of every row in a dimension whose sizes are the [n]i64
 * array sizes (0 when there are no rows), after checking that it is one.
 * The check stays under --unsafe: the reshape that follows would read
 * past the flat array otherwise. */
static SubExp one_size(Lower *l, SubExp n, SubExp sizes, SrcLoc loc) {
    SubExp empty = lower_binop(l, OP_EQ, n, se_i64(0), loc), zero = se_i64(0);
    Builder *saved = l->b, tb = {0}, fb = {0};
    l->b = &fb;
    SubExp s0 = irr_element(l, sizes, se_i64(0), loc);
    Body *fbody = lower_body_end(l, saved, &fb, &s0, 1);
    SubExp first = lower_if_one(l, empty, lower_body_end(l, saved, &tb, &zero, 1), fbody, type_prim(PT_I64), loc);
    Type ti = type_prim(PT_I64), tb1 = type_prim(PT_BOOL);
    Builder *outer, mb;
    Lambda *same = lower_lambda_begin(l, &ti, 1, &outer, &mb);
    SubExp eq = lower_binop(l, OP_EQ, se_var(same->params[0]), first, loc);
    lower_lambda_end(l, same, outer, &mb, &eq, 1);
    SegOp *all = NEW(l->a, SegOp);
    *all = (SegOp){lower_prim_op_lambda(l, OP_LAND, PT_BOOL), NEW(l->a, SubExp), 1, true, false};
    all->neutral[0] = se_bool(true);
    Var **arrs = NEW(l->a, Var *);
    arrs[0] = sizes.v;
    Screma sc = {.w = n, .arrs = arrs, .narrs = 1, .map = same, .reds = all, .nreds = 1};
    Var **ok = lower_emit_screma(l, &sc, &tb1, 1, loc);
    lower_assert(l, se_var(ok[0]),
                 "The rows of an irregular array differ in size where an array of rows of one size is needed.",
                 NULL, 0, loc);
    return first;
}

SubExp lower_regular(Lower *l, const SVal *v, SrcLoc loc) {
    const Irreg *r = v->irr;
    if (r->rows) { /* rows of one number of rows of one shape */
        SubExp inner = lower_regular(l, r->rows, loc);
        Type t = subexp_type(inner);
        SubExp *shape = NEW_ARRAY(l->a, SubExp, t.rank + 1);
        shape[0] = r->n;
        shape[1] = one_size(l, r->n, r->counts, loc);
        COPY_ARRAY(shape + 2, t.shape + 1, t.rank - 1);
        return reshape(l, inner, shape, t.rank + 1, loc);
    }
    SubExp *shape = NEW_ARRAY(l->a, SubExp, r->rank + 1);
    shape[0] = r->n;
    for (int d = 0; d < r->rank; d++) shape[d + 1] = r->vary[d] ? one_size(l, r->n, r->dims[d], loc) : r->dims[d];
    return reshape(l, flat_of(l, v, loc), shape, r->rank + 1, loc);
}

/* Row i of v, an irregular array of irregular arrays: its rows of rows, a
 * view of them (their descriptor's arrays sliced, the flat array whole). */
static SVal *rows_row(Lower *l, const SVal *v, SubExp i, SrcLoc loc) {
    const Irreg *in = v->irr->rows->irr;
    SubExp start = irr_offset_at(l, v->irr, i, loc), len = irr_count_at(l, v->irr, i, loc);
    Irreg *r = NEW(l->a, Irreg);
    *r = *in;
    r->n = len;
    r->view = true;
    r->closed = r->shifted = false;
    r->counts = slice_of(l, in->counts, start, len, loc);
    r->offsets = slice_of(l, in->offsets, start, len, loc);
    r->dims = NEW_ARRAY(l->a, SubExp, in->rank);
    for (int d = 0; d < in->rank; d++) r->dims[d] = in->vary[d] ? slice_of(l, in->dims[d], start, len, loc) : in->dims[d];
    SVal *row = sv_dyn(l, v->se);
    row->kind = SV_IRREG;
    row->irr = r;
    return row;
}

SubExp lower_width(Lower *l, SVal *v, SrcLoc loc) {
    while ((v->kind == SV_TUPLE || v->kind == SV_RECORD) && v->n > 0) v = v->elems[0];
    if (v->kind == SV_IRREG) return v->irr->n;
    if (v->kind != SV_DYN || subexp_type(v->se).kind != TK_ARRAY) lower_error(l, loc, "expected an array here");
    return lower_dim(l, v->se, 0);
}

SVal *lower_row(Lower *l, SVal *v, SubExp i, SrcLoc loc) {
    if (v->kind == SV_TUPLE || v->kind == SV_RECORD) {
        SVal *c = NEW(l->a, SVal);
        *c = *v;
        c->elems = NEW_ARRAY(l->a, SVal *, v->n + 1);
        for (int k = 0; k < v->n; k++) c->elems[k] = lower_row(l, v->elems[k], i, loc);
        return c;
    }
    if (v->kind != SV_IRREG) return lower_index_value(l, v, i, loc);
    if (v->irr->rows) return rows_row(l, v, i, loc);
    const Irreg *r = v->irr;
    DimSlice *s = NEW(l->a, DimSlice);
    s->is_slice = true;
    s->start = irr_offset_at(l, r, i, loc);
    s->len = irr_count_at(l, r, i, loc);
    s->stride = se_i64(1);
    IrExp *e = lower_new_exp(l, IE_INDEX);
    e->arr = v->se.v;
    e->slice = s;
    e->nslice = 1;
    SubExp *shape = NEW_ARRAY(l->a, SubExp, r->rank);
    for (int d = 0; d < r->rank; d++)
        shape[d] = r->rank == 1 ? s->len : r->vary[d] ? irr_element(l, r->dims[d], i, loc) : r->dims[d];
    if (r->rank == 1) /* its length is its count */
        return sv_dyn(l, lower_emit1(l, e, type_array(l->a, subexp_type(v->se).elem, 1, shape), loc));
    SubExp row = lower_emit1(l, e, type_array(l->a, subexp_type(v->se).elem, 1, &s->len), loc);
    return sv_dyn(l, reshape(l, row, shape, r->rank, loc));
}

/* ---- Maps with irregular results ----------------------------------------------- */

/* Whether leaf v of an element's value is an irregular array of rows of
 * scalars, which a map over elements makes an irregular array of
 * irregular arrays of. */
static bool nests(const SVal *v) { return v->kind == SV_IRREG && v->irr->rank == 1 && !v->irr->rows; }

/* The leaves of an element's value, for a map over elements: an irregular
 * array of rows of scalars as two, its elements (flat_of) and its rows'
 * lengths (elem_value makes the map's two results one irregular array of
 * irregular arrays); everything else as sv_leaves makes it. */
static void elem_leaves(Lower *l, SVal *v, SubExpVec *out, SrcLoc loc) {
    if (v->kind == SV_TUPLE || v->kind == SV_RECORD) {
        for (int i = 0; i < v->n; i++) elem_leaves(l, v->elems[i], out, loc);
    } else if (nests(v)) {
        vec_push_in(l->a, out, flat_of(l, v, loc));
        vec_push_in(l->a, out, v->irr->counts);
    } else {
        sv_leaves(l, v, out);
    }
}

/* What lower_map_elems knows of one result of the map. */
typedef struct Res {
    Type t;       /* the result's type: [n] ++ the row's (sizes known outside), or the flat array's */
    Irreg *irr;   /* the descriptor of an irregular result, or NULL */
    bool *known;  /* [rank of a row]: whether the rows' size in dimension d is known outside */
    bool filtered;     /* its rows are filters (filtered_row) of rows of elements */
    SubExp in_counts;  /* then [n]i64: the elements of each filter's input */
} Res;

/* A row made by filter (intrinsics.c's do_filter: a Screma of the flags
 * and their prefix sum, and a Scatter of the kept elements): the
 * Scatter, the Screma, and which of the filtered arrays the row is. */
typedef struct FilterRow {
    const Scatter *moves;
    const Screma *flags;
    int m;
} FilterRow;

/* Whether x, bound in l's current body, is a filter of arrays of scalars
 * (not a partition), and which (*f). */
static bool filtered_row(const Lower *l, SubExp x, FilterRow *f) {
    const Stm *st = x.is_var ? irr_bound_by(l, x.v) : NULL;
    if (!st || st->e->kind != IE_SCATTER) return false;
    const Scatter *sc = &st->e->scatter;
    if (sc->narrs != 2 + sc->ndests) return false;
    const Stm *fs = irr_bound_by(l, sc->arrs[1]);
    if (!fs || fs->e->kind != IE_SCREMA || fs->npat != 2 || fs->pat[0] != sc->arrs[0] || fs->pat[1] != sc->arrs[1])
        return false;
    const Screma *fl = &fs->e->screma;
    if (fl->nscans != 1 || fl->nreds || fl->map->nret != 2 || fl->narrs != sc->ndests) return false;
    for (int i = 0; i < sc->ndests; i++)
        if (sc->arrs[2 + i]->type.rank != 1 || fl->arrs[i] != sc->arrs[2 + i]) return false;
    int m = 0;
    while (m < st->npat && st->pat[m] != x.v) m++;
    *f = (FilterRow){sc, fl, m};
    return true;
}

/* Marks the variables a statement or result uses (prune_sizes). */
static void mark_use(void *ctx, SubExp *se, Var **v, IrUseKind k) {
    (void)k;
    const Var *x = se ? (se->is_var ? se->v : NULL) : *v;
    if (x) ((bool *)ctx)[x->id] = true;
}

/* Whether st stays where its results are not used: whether it checks
 * something (prune_sizes' sweep; keep_checks), or whether it checks
 * something other than at the top of an if's branches (drop_checked_ifs'). */
typedef bool (*StaysFn)(const Stm *st);

static void sweep(Lower *l, Body *b, bool *used, StaysFn stays, bool into_ifs);

/* The results of if st that used marks (and the sizes of their types;
 * none where it stays for its checks alone), its branches swept for them. */
static void prune_if(Lower *l, Stm *st, bool *used, StaysFn stays) {
    IrExp *e = st->e;
    for (int j = 0; j < st->npat; j++)
        if (used[st->pat[j]->id]) ir_uses_type(&st->pat[j]->type, mark_use, used);
    int k = 0;
    for (int j = 0; j < st->npat; j++) {
        if (!used[st->pat[j]->id]) continue;
        st->pat[k] = st->pat[j], e->ret[k] = e->ret[j];
        e->tbody->res[k] = e->tbody->res[j], e->fbody->res[k] = e->fbody->res[j];
        k++;
    }
    st->npat = e->nret = e->tbody->nres = e->fbody->nres = k;
    sweep(l, e->tbody, used, stays, true);
    sweep(l, e->fbody, used, stays, true);
}

/* Drops the statements of b that its results (and those of the
 * statements kept) do not need and that do not stay; with into_ifs, the
 * ifs kept are pruned too (prune_if). */
static void sweep(Lower *l, Body *b, bool *used, StaysFn stays, bool into_ifs) {
    ir_uses_ses(b->res, b->nres, mark_use, used);
    bool *live = NEW_ARRAY(l->a, bool, b->nstms + 1);
    for (int i = b->nstms - 1; i >= 0; i--) {
        Stm *st = b->stms[i];
        live[i] = stays(st);
        for (int m = 0; m < st->npat && !live[i]; m++) live[i] = used[st->pat[m]->id];
        if (!live[i]) continue;
        if (into_ifs && st->e->kind == IE_IF) prune_if(l, st, used, stays);
        ir_uses_stm(st, mark_use, used);
    }
    int k = 0;
    for (int i = 0; i < b->nstms; i++)
        if (live[i]) b->stms[k++] = b->stms[i];
    b->nstms = k;
}

/* Whether b, or a branch of an if in it, asserts at its top. */
static bool asserts(const Body *b) {
    for (int i = 0; i < b->nstms; i++) {
        const IrExp *e = b->stms[i]->e;
        if (e->kind == IE_ASSERT || (e->kind == IE_IF && (asserts(e->tbody) || asserts(e->fbody)))) return true;
    }
    return false;
}

/* An assertion, or an if whose branches assert at their top: a row that
 * no position reads, an empty one, must still fail its branch's checks. */
static bool keep_checks(const Stm *st) {
    return st->e->kind == IE_ASSERT || (st->e->kind == IE_IF && (asserts(st->e->tbody) || asserts(st->e->fbody)));
}

/* Whether b's assertions, in the branches of its ifs too, are all at the
 * top of its bodies (none in a SOAC's function or a loop). */
static bool top_checks_only(const Body *b) {
    for (int i = 0; i < b->nstms; i++) {
        const IrExp *e = b->stms[i]->e;
        if (e->kind == IE_IF ? !top_checks_only(e->tbody) || !top_checks_only(e->fbody)
                             : e->kind != IE_ASSERT && ir_exp_has_assert(e))
            return false;
    }
    return true;
}

/* What checks something, but an if whose checks are all at the top of its
 * branches. */
static bool keep_inner_checks(const Stm *st) {
    return ir_exp_has_assert(st->e) &&
           !(st->e->kind == IE_IF && top_checks_only(st->e->tbody) && top_checks_only(st->e->fbody));
}

/* Drops the ifs of the positions' lambda lam whose results nothing needs
 * and whose checks are all at the top of their branches: the sizes'
 * lambda keeps those (prune_sizes), for every element, empty rows
 * included, and each position reads its element through a copy of them
 * (if_elem). The simplifier would keep them for their checks, and with
 * them the arrays of their results. */
static void drop_checked_ifs(Lower *l, Lambda *lam) {
    sweep(l, lam->body, NEW_ARRAY(l->a, bool, l->prog->next_var_id + 1), keep_inner_checks, false);
}

/* Drops the statements of lam's body that its results do not need, but
 * its assertions, in the branches of its ifs too: the sizes of the rows
 * need not build them, and a failure inside a row's operations is raised
 * when the rows are built. */
static void prune_sizes(Lower *l, Lambda *lam) {
    sweep(l, lam->body, NEW_ARRAY(l->a, bool, l->prog->next_var_id + 1), keep_checks, true);
}

/* The lambda of element i, fn's value for its i64 parameter, whose
 * structure goes to *shape. Without rs, its results are the value's
 * leaves; with rs (k of them), the sizes of the irregular ones that
 * differ between elements and each one's element count, and for rows
 * made by a filter (which it marks in rs) the filter's input count. */
static Lambda *elem_lambda(Lower *l, ElemFn fn, void *ctx, SVal **shape, Res *rs, int k, SrcLoc loc) {
    Type ti = type_prim(PT_I64);
    Builder *saved, nb;
    Lambda *lam = lower_lambda_begin(l, &ti, 1, &saved, &nb);
    *shape = fn(l, ctx, se_var(lam->params[0]));
    SubExpVec vs = {0}, res = {0};
    elem_leaves(l, *shape, &vs, loc);
    if (rs && vs.len != k) ICE("a map's function lowered to values of different structures");
    for (int j = 0; rs && j < k; j++) {
        if (!rs[j].irr) continue;
        Type t = subexp_type(vs.items[j]);
        SubExp *shape = t.shape;
        FilterRow f;
        if ((rs[j].filtered = t.rank == 1 && filtered_row(l, vs.items[j], &f))) {
            /* its length as a reduction of the flags, which a map over
             * rows of different sizes runs as a segmented reduction, not
             * as the filter itself */
            SegOp *plus = NEW(l->a, SegOp);
            *plus = (SegOp){lower_prim_op_lambda(l, OP_ADD, PT_I64), NEW(l->a, SubExp), 1, true, false};
            plus->neutral[0] = se_i64(0);
            Screma sc = *f.flags;
            sc.nscans = 0;
            sc.reds = plus;
            sc.nreds = 1;
            sc.map = ir_clone_lambda(l->prog, f.flags->map);
            Type ts[2] = {type_prim(PT_I64), lower_outer_type(l, sc.w, type_prim(PT_BOOL))};
            shape = NEW(l->a, SubExp);
            *shape = se_var(lower_emit_screma(l, &sc, ts, 2, loc)[0]);
        }
        SubExp count = shape[0];
        for (int d = 0; d < t.rank; d++) {
            if (!rs[j].known[d]) vec_push_in(l->a, &res, shape[d]);
            if (d > 0) count = lower_binop(l, OP_SIZE_MUL, count, shape[d], loc);
        }
        vec_push_in(l->a, &res, count);
        if (rs[j].filtered) vec_push_in(l->a, &res, f.moves->w);
    }
    if (!rs) res = vs;
    lower_lambda_end(l, lam, saved, &nb, res.items, res.len);
    if (rs) prune_sizes(l, lam);
    return lam;
}

/* The loop over the elements that writes element i's results into their
 * arrays: rows of regular results, each irregular row at its offset. */
static Var **build_loop(Lower *l, SubExp n, ElemFn fn, void *ctx, Res *rs, int k, SrcLoc loc) {
    IrExp *le = lower_new_exp(l, IE_LOOP);
    Loop *lp = &le->loop;
    lp->kind = IR_LOOP_FOR;
    lp->i = ir_var(l->prog, "i", type_prim(PT_I64));
    lp->bound = n;
    lp->nparams = k;
    lp->params = NEW_ARRAY(l->a, Var *, k);
    lp->inits = NEW_ARRAY(l->a, SubExp, k);
    for (int j = 0; j < k; j++) {
        IrExp *e = lower_new_exp(l, IE_SCRATCH);
        e->type = rs[j].t;
        lp->inits[j] = lower_emit1(l, e, rs[j].t, loc);
        lp->params[j] = ir_var(l->prog, "dest", rs[j].t);
        lp->params[j]->type.unique = true;
    }
    Builder *saved = l->b, nb = {0};
    l->b = &nb;
    SubExp i = se_var(lp->i);
    SubExpVec vs = {0};
    elem_leaves(l, fn(l, ctx, i), &vs, loc);
    if (vs.len != k) ICE("a map's function lowered to values of different structures");
    SubExp *res = NEW_ARRAY(l->a, SubExp, k);
    for (int j = 0; j < k; j++) {
        SubExp v = vs.items[j];
        DimSlice *s = NEW(l->a, DimSlice);
        if (rs[j].irr) {
            SubExp *len = NEW(l->a, SubExp);
            *len = irr_element(l, rs[j].irr->counts, i, loc);
            v = reshape(l, v, len, 1, loc);
            *s = (DimSlice){.is_slice = true, .start = irr_element(l, rs[j].irr->offsets, i, loc), .len = *len,
                            .stride = se_i64(1)};
        } else {
            s->index = i;
            if (rs[j].t.rank > 1) v = reshape(l, v, rs[j].t.shape + 1, rs[j].t.rank - 1, loc);
        }
        IrExp *u = lower_new_exp(l, IE_UPDATE);
        u->arr = lp->params[j];
        u->slice = s;
        u->nslice = 1;
        u->se = v;
        res[j] = lower_emit1(l, u, rs[j].t, loc);
    }
    lp->body = lower_body_end(l, saved, &nb, res, k);
    Var **pat = NEW_ARRAY(l->a, Var *, k);
    for (int j = 0; j < k; j++) pat[j] = ir_var(l->prog, "arr", rs[j].t);
    lower_emit(l, le, pat, k, loc);
    return pat;
}

/* shape with the values vals in place of its leaves. */
static SVal *rebuild_leaves(Lower *l, const SVal *shape, SVal **vals, int *pos) {
    if (shape->kind == SV_TUPLE || shape->kind == SV_RECORD) {
        SVal *v = NEW(l->a, SVal);
        *v = *shape;
        v->elems = NEW_ARRAY(l->a, SVal *, shape->n + 1);
        for (int i = 0; i < shape->n; i++) v->elems[i] = rebuild_leaves(l, shape->elems[i], vals, pos);
        return v;
    }
    return shape->kind == SV_FUN ? (SVal *)shape : vals[(*pos)++];
}

/* ---- Rows element by element ---------------------------------------------------- */

/* A variable holding x. */
static Var *var_of(Lower *l, SubExp x, SrcLoc loc) {
    if (x.is_var) return x.v;
    IrExp *e = lower_new_exp(l, IE_SUBEXP);
    e->se = x;
    return lower_emit1(l, e, subexp_type(x), loc).v;
}

static bool elem_at(Lower *l, SubExp x, const SubExp *js, SubExp *out, int depth, SrcLoc loc);

/* Element js of the concatenation e (of rank rank) from its part i on,
 * whose first row is row start of the whole: the part's element when
 * js[0] is before the next part's start, else the next parts' (a branch
 * each, so that only the part that holds the element is read). */
static bool concat_elem(Lower *l, const IrExp *e, int i, SubExp start, const SubExp *js, int rank, SubExp *out,
                        int depth, SrcLoc loc) {
    SubExp *at = NEW_ARRAY(l->a, SubExp, rank);
    COPY_ARRAY(at, js, rank);
    at[0] = lower_binop(l, OP_SUB, js[0], start, loc);
    if (i == e->narrs - 1) return elem_at(l, se_var(e->arrs[i]), at, out, depth + 1, loc);
    SubExp next = lower_binop(l, OP_ADD, start, e->arrs[i]->type.shape[0], loc);
    SubExp here = lower_binop(l, OP_LT, js[0], next, loc);
    Type t = type_prim(e->arrs[i]->type.elem);
    Builder *saved = l->b, tb = {.up = saved}, fb = {.up = saved};
    SubExp x, y;
    l->b = &tb;
    bool ok = elem_at(l, se_var(e->arrs[i]), at, &x, depth + 1, loc);
    Body *tbody = lower_body_end(l, saved, &tb, &x, 1);
    l->b = &fb;
    ok = ok && concat_elem(l, e, i + 1, next, js, rank, &y, depth, loc);
    Body *fbody = lower_body_end(l, saved, &fb, &y, 1);
    if (!ok) return false;
    *out = lower_if_one(l, here, tbody, fbody, t, loc);
    return true;
}

/* Element js of array result k of the if e: the element of that result
 * in each branch (a copy of its statements, with fresh variables, into a
 * branch of a new if on the same condition). Each if read so counts as
 * IF_DEPTH levels of elem_at's 32: a chain of ifs that each read the
 * previous one in both branches doubles the code at every if, so only a
 * few are read through. */
enum { IF_DEPTH = 8 };

static bool if_elem(Lower *l, const IrExp *e, int k, const SubExp *js, SubExp *out, int depth, SrcLoc loc) {
    Builder *saved = l->b, bs[2] = {{.up = saved}, {.up = saved}};
    Body *arms[2];
    SubExp x[2];
    bool ok = true;
    for (int a = 0; a < 2; a++) {
        Body *c = ir_clone_body_with(l->prog, a ? e->fbody : e->tbody, NULL, NULL, 0);
        l->b = &bs[a];
        for (int i = 0; i < c->nstms; i++) vec_push_in(l->a, &bs[a].stms, c->stms[i]);
        x[a] = se_i64(0);
        ok = ok && elem_at(l, c->res[k], js, &x[a], depth + IF_DEPTH, loc);
        arms[a] = lower_body_end(l, saved, &bs[a], &x[a], 1);
    }
    if (!ok) return false;
    *out = lower_if_one(l, e->cond, arms[0], arms[1], subexp_type(x[0]), loc);
    return true;
}

/* Element js[0..rank-1] of the array x, computed without building x
 * where the statements of the current body that built it allow: a free
 * array's element, an iota's start + j * step, a replicate's value (or
 * its array's element), the element of a slice or row of an array, a
 * copy's or reshape's, one of a literal of a few scalars, a
 * concatenation's (of the part that holds it), an if's (of each branch,
 * in a new if on its condition), and a map's function
 * applied to its inputs' elements or rows (inlined), the element of its
 * result. False where x is built otherwise (a filter, a scan, a loop). */
static bool elem_at(Lower *l, SubExp x, const SubExp *js, SubExp *out, int depth, SrcLoc loc) {
    Type t = subexp_type(x);
    if (!x.is_var || t.kind != TK_ARRAY || depth > 32) return false;
    int rank = t.rank;
    const Stm *st = irr_bound_by(l, x.v);
    const IrExp *e = st ? st->e : NULL;
    if (!st || e->kind == IE_INDEX) { /* an element of a free array, or of a slice of one */
        const Var *arr = st ? e->arr : x.v;
        int ar = arr->type.rank, n = st ? e->nslice : 0, next = 0;
        DimSlice *ix = NEW_ARRAY(l->a, DimSlice, ar);
        for (int k = 0; k < ar; k++) {
            if (k < n && !e->slice[k].is_slice) {
                ix[k] = e->slice[k];
                continue;
            }
            SubExp jk = js[next++];
            ix[k] = (DimSlice){.index = k < n ? lower_binop(l, OP_ADD, e->slice[k].start,
                                                            lower_binop(l, OP_MUL, jk, e->slice[k].stride, loc), loc)
                                              : jk};
        }
        if (next != rank) return false;
        if (st && irr_bound_by(l, e->arr)) { /* a slice of an array built here: its element */
            SubExp *at = NEW_ARRAY(l->a, SubExp, ar);
            for (int k = 0; k < ar; k++) at[k] = ix[k].index;
            return elem_at(l, se_var(e->arr), at, out, depth + 1, loc);
        }
        IrExp *ie = lower_new_exp(l, IE_INDEX);
        ie->arr = (Var *)arr;
        ie->slice = ix;
        ie->nslice = ar;
        *out = lower_emit1(l, ie, type_prim(t.elem), loc);
        return true;
    }
    switch (e->kind) {
    case IE_IOTA:
        *out = lower_binop(l, OP_ADD, e->start, lower_binop(l, OP_MUL, lower_conv(l, js[0], e->t, loc), e->step, loc),
                           loc);
        return true;
    case IE_REPLICATE: /* shape ++ se's shape */
        if (subexp_type(e->se).kind != TK_ARRAY) {
            *out = e->se;
            return true;
        }
        return elem_at(l, e->se, js + e->nshape, out, depth + 1, loc);
    case IE_COPY: return elem_at(l, se_var(e->arr), js, out, depth + 1, loc);
    case IE_CONCAT: return e->narrs > 0 && concat_elem(l, e, 0, se_i64(0), js, rank, out, depth, loc);
    case IE_IF: {
        int k = 0;
        while (k < st->npat && st->pat[k] != x.v) k++;
        return if_elem(l, e, k, js, out, depth, loc);
    }
    case IE_ARRAYLIT: /* of a few scalars: the one js[0] picks */
        if (rank != 1 || e->nargs == 0 || e->nargs > 8) return false;
        *out = e->args[e->nargs - 1];
        for (int k = e->nargs - 2; k >= 0; k--) {
            Builder *saved = l->b, tb = {0}, fb = {0};
            SubExp is = lower_binop(l, OP_EQ, js[0], se_i64(k), loc);
            *out = lower_if_one(l, is, lower_body_end(l, saved, &tb, &e->args[k], 1),
                                lower_body_end(l, saved, &fb, out, 1), type_prim(t.elem), loc);
        }
        return true;
    case IE_RESHAPE: { /* the same element, by its place in row-major order */
        Type src = e->arr->type;
        SubExp at = js[0];
        for (int d = 1; d < rank; d++)
            at = lower_binop(l, OP_ADD, lower_binop(l, OP_MUL, at, t.shape[d], loc), js[d], loc);
        SubExp *sj = NEW_ARRAY(l->a, SubExp, src.rank);
        for (int d = src.rank - 1; d > 0; d--) {
            sj[d] = lower_binop(l, OP_REM, at, src.shape[d], loc);
            at = lower_binop(l, OP_QUOT, at, src.shape[d], loc);
        }
        sj[0] = at;
        return elem_at(l, se_var(e->arr), sj, out, depth + 1, loc);
    }
    case IE_SCREMA: {
        const Screma *sc = &e->screma;
        if (sc->nscans || sc->nreds || sc->iter) return false;
        int k = 0;
        while (k < st->npat && st->pat[k] != x.v) k++;
        Var **to = NEW_ARRAY(l->a, Var *, sc->narrs + 1);
        for (int m = 0; m < sc->narrs; m++) {
            Var *a = sc->arrs[m];
            SubExp v;
            if (a->type.rank == 1) {
                if (!elem_at(l, se_var(a), js, &v, depth + 1, loc)) return false;
            } else { /* a row of a free array */
                if (irr_bound_by(l, a)) return false;
                DimSlice *ix = NEW(l->a, DimSlice);
                ix->index = js[0];
                IrExp *ie = lower_new_exp(l, IE_INDEX);
                ie->arr = a;
                ie->slice = ix;
                ie->nslice = 1;
                v = lower_emit1(l, ie, type_row(a->type), loc);
            }
            to[m] = var_of(l, v, loc);
        }
        Body *b = ir_clone_body_with(l->prog, sc->map->body, sc->map->params, to, sc->narrs);
        for (int i = 0; i < b->nstms; i++) vec_push_in(l->a, &l->b->stms, b->stms[i]);
        if (rank == 1) {
            *out = b->res[k];
            return subexp_type(*out).kind != TK_ARRAY;
        }
        return elem_at(l, b->res[k], js + 1, out, depth + 1, loc);
    }
    default: return false;
    }
}

/* Whether a use in an operator is of a value of the row (bound in l's
 * current body or a parameter of the positions' lambda). */
typedef struct RowUse {
    const Lower *l;
    const Lambda *lam;
    bool found;
} RowUse;

static void row_use(void *ctx, SubExp *se, Var **v, IrUseKind k) {
    (void)k;
    RowUse *u = ctx;
    const Var *x = se ? (se->is_var ? se->v : NULL) : *v;
    if (x && (x == u->lam->params[0] || irr_bound_by(u->l, x))) u->found = true;
}

/* The map of Screma sc (over rank-1 arrays whose elements elem_at
 * computes) applied to element at of its inputs, its statements appended
 * to l's current body: the body whose results are the map's, with the
 * inputs' elements in *to; NULL where an input must be built to be read. */
static Body *map_at(Lower *l, const Screma *sc, SubExp at, Var ***to, SrcLoc loc) {
    *to = NEW_ARRAY(l->a, Var *, sc->narrs + 1);
    for (int m = 0; m < sc->narrs; m++) {
        SubExp v;
        if (sc->arrs[m]->type.rank != 1 || !elem_at(l, se_var(sc->arrs[m]), &at, &v, 0, loc)) return NULL;
        (*to)[m] = var_of(l, v, loc);
    }
    Body *b = ir_clone_body_with(l->prog, sc->map->body, sc->map->params, *to, sc->narrs);
    for (int i = 0; i < b->nstms; i++) vec_push_in(l->a, &l->b->stms, b->stms[i]);
    return b;
}

/* Whether x, bound in l's current body (that of lam, the positions'
 * lambda), is a scan of rank-1 arrays whose elements elem_at computes,
 * with an operator and neutral element of values from outside the row:
 * then vals gets the scan's inputs at index at, op a copy of the
 * operator, and *q which of the scan's results x is. */
static bool scanned_row(Lower *l, const Lambda *lam, SubExp x, SubExp at, SubExpVec *vals, SegOp *op, int *q,
                        SrcLoc loc) {
    const Stm *st = x.is_var ? irr_bound_by(l, x.v) : NULL;
    if (!st || st->e->kind != IE_SCREMA) return false;
    const Screma *sc = &st->e->screma;
    if (sc->nscans != 1 || sc->nreds) return false;
    const SegOp *o = &sc->scans[0];
    for (*q = 0; *q < o->k && st->pat[*q] != x.v;) (*q)++;
    RowUse u = {l, lam, false};
    ir_uses_lambda(o->op, row_use, &u);
    ir_uses_ses(o->neutral, o->k, row_use, &u);
    if (*q == o->k || u.found) return false;
    Var **to;
    Body *b = map_at(l, sc, at, &to, loc);
    if (!b) return false;
    for (int i = 0; i < o->k; i++) vec_push_in(l->a, vals, b->res[i]);
    *op = *o;
    op->op = ir_clone_lambda(l->prog, o->op);
    return true;
}

/* Begins the lambda of a map over the total flat positions of the rows
 * that desc describes (*in gets the positions, made here): *s is its
 * position's row, *at the index in the row. */
static Lambda *positions_begin(Lower *l, const Irreg *desc, SubExp total, Var **in, SubExp *s, SubExp *at,
                               Builder **saved, Builder *nb, SrcLoc loc) {
    SubExp anchor = irr_anchors(l, desc, total, loc);
    *in = irr_iota(l, total, loc).v;
    Type ti = type_prim(PT_I64);
    Lambda *lam = lower_lambda_begin(l, &ti, 1, saved, nb);
    SubExp p = se_var(lam->params[0]);
    *s = irr_row_at(l, desc, anchor, p, loc);
    *at = lower_binop(l, OP_SUB, p, irr_offset_at(l, desc, *s, loc), loc);
    return lam;
}

/* The flat array of irregular result j of the map: element p of it is
 * element p - offsets[s] of the function's row for element s, the row
 * that p is in, computed without building the row (elem_at), in a map
 * over the positions; or, for rows made by a scan of such elements, a
 * segmented scan of them. NULL where a row must be built to be read. */
static Var *flat_by_positions(Lower *l, ElemFn fn, void *ctx, const Irreg *r, int j, SubExp total, SrcLoc loc) {
    Var **in = NEW(l->a, Var *);
    Builder *saved, nb;
    SubExp s, at;
    Lambda *lam = positions_begin(l, r, total, in, &s, &at, &saved, &nb, loc);
    /* the index in the row, dimension by dimension */
    SubExp *js = NEW_ARRAY(l->a, SubExp, r->rank);
    for (int d = r->rank - 1; d > 0; d--) {
        SubExp size = r->vary[d] ? irr_element(l, r->dims[d], s, loc) : r->dims[d];
        js[d] = lower_binop(l, OP_REM, at, size, loc);
        at = lower_binop(l, OP_QUOT, at, size, loc);
    }
    js[0] = at;
    SubExpVec vs = {0}, res = {0};
    elem_leaves(l, fn(l, ctx, s), &vs, loc);
    SubExp x;
    SegOp op;
    int q = -1;
    bool ok = elem_at(l, vs.items[j], js, &x, 0, loc);
    SubExpVec scanned = {0};
    if (ok) {
        vec_push_in(l->a, &res, x);
    } else if (r->rank == 1 && scanned_row(l, lam, vs.items[j], js[0], &scanned, &op, &q, loc)) {
        /* the segmented scan's flags: the rows' heads, made before the map */
        Builder *inner = l->b;
        l->b = saved;
        SubExp heads = irr_head_flags(l, r, total, loc);
        l->b = inner;
        vec_push_in(l->a, &res, irr_element(l, heads, se_var(lam->params[0]), loc));
        for (int i = 0; i < scanned.len; i++) vec_push_in(l->a, &res, scanned.items[i]);
        ok = true;
    }
    lower_lambda_end(l, lam, saved, &nb, res.items, ok ? res.len : 0);
    if (!ok) return NULL;
    drop_checked_ifs(l, lam);
    Screma sc = {.w = total, .arrs = in, .narrs = 1, .map = lam};
    if (q >= 0) {
        sc.scans = NEW(l->a, SegOp);
        *sc.scans = ir_segmented_op(l->prog, op, loc);
        sc.nscans = 1;
    }
    Type *ts = NEW_ARRAY(l->a, Type, res.len);
    for (int i = 0; i < res.len; i++) ts[i] = lower_outer_type(l, total, lam->ret[i]);
    return lower_emit_screma(l, &sc, ts, res.len, loc)[q + 1];
}

/* The flat array of irregular result j of the map, whose rows are
 * filters of rows of elements that elem_at computes (of in_counts
 * elements each): a map over the positions of the filters' inputs
 * computes each element's flag, and one filter of all of them gives the
 * rows one after another (total elements). NULL where the inputs must be
 * built to be read. */
static Var *flat_filtered(Lower *l, ElemFn fn, void *ctx, const Res *rj, int j, SubExp iota, SrcLoc loc) {
    Irreg in = {.n = rj->irr->n, .rank = 1, .counts = rj->in_counts};
    SubExp in_total = irr_offsets(l, &in, iota, loc);
    Var **pos = NEW(l->a, Var *);
    Builder *saved, nb;
    SubExp s, at;
    Lambda *lam = positions_begin(l, &in, in_total, pos, &s, &at, &saved, &nb, loc);
    SubExpVec vs = {0};
    elem_leaves(l, fn(l, ctx, s), &vs, loc);
    FilterRow f;
    Var **to;
    Body *b = filtered_row(l, vs.items[j], &f) ? map_at(l, f.flags, at, &to, loc) : NULL;
    bool ok = b != NULL;
    SubExp res[3];
    if (ok) { /* the filter's flag (i64 and bool) and the element */
        res[0] = b->res[0];
        res[1] = b->res[1];
        res[2] = se_var(to[f.m]);
    }
    lower_lambda_end(l, lam, saved, &nb, res, ok ? 3 : 0);
    if (!ok) return NULL;
    Screma sc = {.w = in_total, .arrs = pos, .narrs = 1, .map = lam, .scans = irr_sum_op(l, loc), .nscans = 1};
    Type ts[3];
    for (int i = 0; i < 3; i++) ts[i] = lower_outer_type(l, in_total, lam->ret[i]);
    Var **flags = lower_emit_screma(l, &sc, ts, 3, loc);
    SubExp count = lower_scan_total(l, se_var(flags[0]), in_total, loc);
    SubExpVec xl = {0};
    vec_push_in(l->a, &xl, se_var(flags[2]));
    return lower_compact(l, &xl, in_total, se_var(flags[0]), se_var(flags[1]), count, false, rj->t.shape[0], loc)[0];
}

/* The results of the map without a loop, when every irregular result is
 * one of rows that flat_by_positions reads element by element; the
 * regular ones by a map over the elements. NULL otherwise (the
 * statements made are then dead). */
static Var **build_by_positions(Lower *l, SubExp n, ElemFn fn, void *ctx, Res *rs, int k, SubExp iota, SrcLoc loc) {
    Var **vals = NEW_ARRAY(l->a, Var *, k + 1);
    int nreg = 0;
    for (int j = 0; j < k; j++) {
        if (!rs[j].irr) {
            nreg++;
            continue;
        }
        vals[j] = rs[j].filtered ? flat_filtered(l, fn, ctx, &rs[j], j, iota, loc)
                                 : flat_by_positions(l, fn, ctx, rs[j].irr, j, rs[j].t.shape[0], loc);
        if (!vals[j]) return NULL;
    }
    if (nreg == 0) return vals;
    Type ti = type_prim(PT_I64);
    Builder *saved, nb;
    Lambda *lam = lower_lambda_begin(l, &ti, 1, &saved, &nb);
    SubExpVec vs = {0}, res = {0};
    elem_leaves(l, fn(l, ctx, se_var(lam->params[0])), &vs, loc);
    Type *ts = NEW_ARRAY(l->a, Type, nreg);
    for (int j = 0; j < k; j++)
        if (!rs[j].irr) {
            ts[res.len] = rs[j].t;
            vec_push_in(l->a, &res, vs.items[j]);
        }
    lower_lambda_end(l, lam, saved, &nb, res.items, res.len);
    Var **in = NEW(l->a, Var *);
    in[0] = iota.v;
    Screma sc = {.w = n, .arrs = in, .narrs = 1, .map = lam};
    Var **out = lower_emit_screma(l, &sc, ts, nreg, loc);
    for (int j = 0, q = 0; j < k; j++)
        if (!rs[j].irr) vals[j] = out[q++];
    return vals;
}

/* A map's result of rows of n elements (regular or irregular), as its
 * flat array, each row's length and where it starts. */
typedef struct Rows {
    SubExp flat, counts, offsets;
} Rows;

static Rows rows_in(Lower *l, const SVal *v, SubExp n, SrcLoc loc) {
    if (v->kind == SV_IRREG) return (Rows){v->se, v->irr->counts, v->irr->offsets};
    SubExp m = lower_dim(l, v->se, 1), *flat = NEW(l->a, SubExp);
    *flat = lower_binop(l, OP_SIZE_MUL, n, m, loc);
    Type ti = type_prim(PT_I64);
    Builder *saved, nb;
    Lambda *at = lower_lambda_begin(l, &ti, 1, &saved, &nb);
    SubExp o = lower_binop(l, OP_MUL, se_var(at->params[0]), m, loc);
    lower_lambda_end(l, at, saved, &nb, &o, 1);
    Var **is = NEW(l->a, Var *);
    is[0] = irr_iota(l, n, loc).v;
    Screma sc = {.w = n, .arrs = is, .narrs = 1, .map = at};
    Type tarr = lower_outer_type(l, n, ti);
    SubExp offs = se_var(lower_emit_screma(l, &sc, &tarr, 1, loc)[0]);
    SubExp whole = reshape(l, v->se, flat, 1, loc);
    return (Rows){whole, irr_replicate(l, n, m, loc), offs};
}

/* The irregular array of irregular arrays that a map over n elements
 * made as elems (each element's elements) and lens (each element's rows'
 * lengths): its rows are ranges of the rows of all elements' rows, whose
 * starts are a scan of all the lengths. */
static SVal *nested_value(Lower *l, const SVal *elems, const SVal *lens, SubExp n, SrcLoc loc) {
    Rows e = rows_in(l, elems, n, loc), c = rows_in(l, lens, n, loc);
    Irreg *in = NEW(l->a, Irreg), *out = NEW(l->a, Irreg);
    in->n = lower_dim(l, c.flat, 0);
    in->rank = out->rank = 1;
    in->vary = NEW(l->a, bool);
    out->vary = NEW(l->a, bool);
    *in->vary = *out->vary = true;
    in->dims = NEW(l->a, SubExp);
    out->dims = NEW(l->a, SubExp);
    in->dims[0] = in->counts = c.flat;
    irr_offsets(l, in, irr_iota(l, in->n, loc), loc);
    out->n = n;
    out->dims[0] = out->counts = c.counts;
    out->offsets = c.offsets;
    out->rows = sv_dyn(l, e.flat);
    out->rows->kind = SV_IRREG;
    out->rows->irr = in;
    SVal *v = sv_dyn(l, e.flat);
    v->kind = SV_IRREG;
    v->irr = out;
    return v;
}

/* shape (the value of the map's function) with the map's results vals in
 * place of its leaves, two for a leaf that nests (elem_leaves). */
static SVal *elem_value(Lower *l, const SVal *shape, SVal **vals, int *pos, SubExp n, SrcLoc loc) {
    if (shape->kind == SV_TUPLE || shape->kind == SV_RECORD) {
        SVal *v = NEW(l->a, SVal);
        *v = *shape;
        v->elems = NEW_ARRAY(l->a, SVal *, shape->n + 1);
        for (int i = 0; i < shape->n; i++) v->elems[i] = elem_value(l, shape->elems[i], vals, pos, n, loc);
        return v;
    }
    if (shape->kind == SV_FUN) return (SVal *)shape;
    if (!nests(shape)) return vals[(*pos)++];
    *pos += 2;
    return nested_value(l, vals[*pos - 2], vals[*pos - 1], n, loc);
}

/* The map's results (vals) as values, irregular where they are, in the
 * structure of shape (the value of the map's function over n elements). */
static SVal *map_value(Lower *l, const SVal *shape, Var **vals, const Res *rs, int k, SubExp n, SrcLoc loc) {
    SVal **vs = NEW_ARRAY(l->a, SVal *, k);
    for (int j = 0; j < k; j++) {
        vs[j] = sv_dyn(l, se_var(vals[j]));
        if (rs[j].irr) {
            vs[j]->kind = SV_IRREG;
            vs[j]->irr = rs[j].irr;
        }
    }
    int pos = 0;
    return elem_value(l, shape, vs, &pos, n, loc);
}

/* The [n] array whose element at the position result q of lam (a lambda
 * over positions 0..n-1) is, when that is all it is (a map over rows
 * that keeps their lengths counts them so): the map's array of the result
 * is then that array, whose offsets fusion shares with the rows'. */
static Var *read_at_position(Lambda *lam, int q, SubExp n) {
    SubExp x = lam->body->res[q];
    for (int i = 0; x.is_var && i < lam->body->nstms; i++) {
        const Stm *st = lam->body->stms[i];
        if (st->npat != 1 || st->pat[0] != x.v) continue;
        const IrExp *e = st->e;
        if (e->kind != IE_INDEX || e->nslice != 1 || e->slice[0].is_slice || e->arr->type.rank != 1 ||
            !se_same(e->slice[0].index, se_var(lam->params[0])) || !se_same(e->arr->type.shape[0], n))
            return NULL;
        return ir_lambda_binds(lam, e->arr) ? NULL : e->arr;
    }
    return NULL;
}

/* Rows r that a map over the rows of rows (a view of an irregular array's
 * rows, or rows kept so) keeps in number and length (r->counts is rows'):
 * each starts where rows' does, less where rows' first one does (shifted),
 * so that no scan is made for their offsets, and a map whose elements
 * make such rows (a map over an irregular array of irregular arrays) has
 * no array to make for each element. *total gets their element count. */
static bool kept_rows(Lower *l, Irreg *r, const SVal *rows, SubExp iota, SubExp *total, SrcLoc loc) {
    const Irreg *k = rows && rows->kind == SV_IRREG ? rows->irr : NULL;
    if (!k || k->rank != 1 || r->rank != 1 || !(k->view || k->shifted) || !se_same(k->counts, r->counts)) return false;
    SubExp ends[2];
    r->shifted = true;
    r->closed = false;
    r->from = k->shifted ? k->from : k->offsets;
    row_ends(l, r->from, k->counts, r->n, ends, loc);
    r->shift = ends[0];
    *total = lower_binop(l, OP_SUB, ends[1], r->shift, loc);
    Type ti = type_prim(PT_I64);
    Builder *saved, nb;
    Lambda *off = lower_lambda_begin(l, &ti, 1, &saved, &nb);
    SubExp o = irr_offset_at(l, r, se_var(off->params[0]), loc);
    lower_lambda_end(l, off, saved, &nb, &o, 1);
    Var **is = NEW(l->a, Var *);
    is[0] = iota.v;
    Screma sc = {.w = r->n, .arrs = is, .narrs = 1, .map = off};
    Type arr = lower_outer_type(l, r->n, ti);
    r->offsets = se_var(lower_emit_screma(l, &sc, &arr, 1, loc)[0]);
    return true;
}

SVal *lower_map_elems(Lower *l, SubExp n, ElemFn fn, void *ctx, const SVal *rows, bool loop_ok, SrcLoc loc) {
    SubExp iota = irr_iota(l, n, loc);
    Var **is = NEW(l->a, Var *);
    is[0] = iota.v;
    /* the map itself, when its results' sizes are known outside it */
    SVal *shape;
    Lambda *lam = elem_lambda(l, fn, ctx, &shape, NULL, 0, loc);
    int k = lam->nret;
    Res *rs = NEW_ARRAY(l->a, Res, k);
    bool regular = true;
    for (int j = 0; j < k; j++) {
        rs[j].known = NEW_ARRAY(l->a, bool, lam->ret[j].kind == TK_ARRAY ? lam->ret[j].rank : 1);
        if (!lower_map_result_type(l, lam, n, lam->ret[j], &rs[j].t, rs[j].known, loc)) {
            regular = false;
            rs[j].irr = NEW(l->a, Irreg);
        }
    }
    if (regular) {
        Screma sc = {.w = n, .arrs = is, .narrs = 1, .map = lam};
        Type *ts = NEW_ARRAY(l->a, Type, k);
        for (int j = 0; j < k; j++) ts[j] = rs[j].t;
        return map_value(l, shape, lower_emit_screma(l, &sc, ts, k, loc), rs, k, n, loc);
    }
    /* the sizes that vary, and the element count of each irregular row */
    SVal *shape2;
    Lambda *sl = elem_lambda(l, fn, ctx, &shape2, rs, k, loc);
    Type *st = NEW_ARRAY(l->a, Type, sl->nret);
    for (int s = 0; s < sl->nret; s++) st[s] = lower_outer_type(l, n, type_prim(PT_I64));
    Screma sc = {.w = n, .arrs = is, .narrs = 1, .map = sl};
    Var **sz = lower_emit_screma(l, &sc, st, sl->nret, loc);
    /* the descriptors, and the flat arrays' types */
    int next = 0;
    for (int j = 0; j < k; j++) {
        Irreg *r = rs[j].irr;
        if (!r) continue;
        Type t = lam->ret[j];
        r->n = n;
        r->rank = t.rank;
        r->dims = NEW_ARRAY(l->a, SubExp, t.rank);
        r->vary = NEW_ARRAY(l->a, bool, t.rank);
        for (int d = 0; d < t.rank; d++) {
            r->vary[d] = !rs[j].known[d];
            r->dims[d] = r->vary[d] ? se_var(sz[next++]) : rs[j].t.shape[d + 1];
        }
        Var *same = read_at_position(sl, next, n);
        r->counts = se_var(same ? same : sz[next]);
        next++;
        if (rs[j].filtered) rs[j].in_counts = se_var(sz[next++]);
        SubExp *total = NEW(l->a, SubExp);
        if (!kept_rows(l, r, rows, iota, total, loc)) *total = irr_offsets(l, r, iota, loc);
        rs[j].t = type_array(l->a, t.elem, 1, total);
    }
    Var **vals = build_by_positions(l, n, fn, ctx, rs, k, iota, loc);
    if (!vals && !loop_ok) return NULL;
    return map_value(l, shape, vals ? vals : build_loop(l, n, fn, ctx, rs, k, loc), rs, k, n, loc);
}

/* f applied to row i of xs (lower_map_rows). */
typedef struct RowsOf {
    SVal *f, *xs;
    SrcLoc loc;
} RowsOf;

static SVal *apply_to_row(Lower *l, void *ctx, SubExp i) {
    RowsOf *m = ctx;
    SVal *row = lower_row(l, m->xs, i, m->loc);
    return lower_apply(l, m->f, &row, 1, NULL);
}

SVal *lower_map_rows(Lower *l, SVal *f, SVal *xs, SrcLoc loc) {
    RowsOf m = {f, xs, loc};
    /* a map that would run its elements one after another: as a loop of
     * maps where its function's loop allows (interchange.c) */
    Builder *b = l->b;
    int mark = b->stms.len;
    SVal *v = lower_map_elems(l, lower_width(l, xs, loc), apply_to_row, &m, xs, false, loc);
    if (v) return v;
    b->stms.len = mark;
    if ((v = lower_map_interchanged(l, f, xs, loc))) return v;
    return lower_map_elems(l, lower_width(l, xs, loc), apply_to_row, &m, xs, true, loc);
}

SVal *lower_flatten_irregular(Lower *l, SVal *v, SrcLoc loc) {
    if (v->kind == SV_TUPLE || v->kind == SV_RECORD) {
        SVal *c = NEW(l->a, SVal);
        *c = *v;
        c->elems = NEW_ARRAY(l->a, SVal *, v->n + 1);
        for (int k = 0; k < v->n; k++) c->elems[k] = lower_flatten_irregular(l, v->elems[k], loc);
        return c;
    }
    if (v->kind == SV_IRREG && v->irr->rows) return v->irr->rows;
    if (v->kind == SV_IRREG && v->irr->rank == 1) return sv_dyn(l, flat_of(l, v, loc));
    if (v->kind == SV_IRREG && v->irr->vary[0]) {
        /* rows of rows of one shape: the flat array as [sum of the rows' lengths] ++ that shape */
        const Irreg *r = v->irr;
        bool others = false;
        for (int d = 1; d < r->rank; d++) others |= r->vary[d];
        if (!others) {
            SubExp *shape = NEW_ARRAY(l->a, SubExp, r->rank);
            shape[0] = irr_sum_sizes(l, r->n, r->dims[0], loc);
            for (int d = 1; d < r->rank; d++) shape[d] = r->dims[d];
            return sv_dyn(l, reshape(l, flat_of(l, v, loc), shape, r->rank, loc));
        }
    }
    SubExpVec leaf = {0};
    sv_leaves(l, v, &leaf);
    return sv_dyn(l, lower_flatten_leaf(l, leaf.items[0], loc));
}

/* The irregular array of leaf x's rows of the given sizes (n of them,
 * checked), whose offsets are d's (rows of those sizes) when x has rank 1. */
static SVal *rows_of(Lower *l, SubExp x, SubExp n, SubExp sizes, const Irreg *d, SrcLoc loc) {
    Type t = subexp_type(x);
    if (t.kind != TK_ARRAY) lower_error(l, loc, "unflatten_irregular needs an array to split");
    Irreg *r = NEW(l->a, Irreg);
    r->n = n;
    r->rank = t.rank;
    r->dims = NEW_ARRAY(l->a, SubExp, t.rank);
    r->vary = NEW_ARRAY(l->a, bool, t.rank);
    r->dims[0] = sizes;
    r->vary[0] = true;
    SubExp inner = se_i64(1), all = t.shape[0];
    for (int d = 1; d < t.rank; d++) {
        r->dims[d] = t.shape[d];
        inner = lower_binop(l, OP_SIZE_MUL, inner, t.shape[d], loc);
        all = lower_binop(l, OP_SIZE_MUL, all, t.shape[d], loc);
    }
    if (t.rank == 1) {
        r->counts = sizes;
    } else { /* counts[i] = sizes[i] * inner */
        Type ti = type_prim(PT_I64), arr = lower_outer_type(l, n, ti);
        Builder *saved, nb;
        Lambda *lam = lower_lambda_begin(l, &ti, 1, &saved, &nb);
        SubExp c = lower_binop(l, OP_SIZE_MUL, se_var(lam->params[0]), inner, loc);
        lower_lambda_end(l, lam, saved, &nb, &c, 1);
        Var **in = NEW(l->a, Var *);
        in[0] = sizes.v;
        Screma sc = {.w = n, .arrs = in, .narrs = 1, .map = lam};
        r->counts = se_var(lower_emit_screma(l, &sc, &arr, 1, loc)[0]);
    }
    if (t.rank == 1) {
        r->offsets = d->offsets;
        r->closed = d->closed;
        r->f = d->f;
    } else {
        irr_offsets(l, r, irr_iota(l, n, loc), loc);
    }
    SubExp *flat = NEW(l->a, SubExp);
    *flat = all;
    SVal *v = sv_dyn(l, t.rank == 1 ? x : reshape(l, x, flat, 1, loc));
    v->kind = SV_IRREG;
    v->irr = r;
    return v;
}

SVal *lower_unflatten_irregular(Lower *l, SVal *sizes, SVal *xs, SrcLoc loc) {
    if (sizes->kind != SV_DYN) lower_error(l, loc, "unflatten_irregular needs an array of sizes");
    SubExp n = lower_width(l, sizes, loc);
    SubExpVec leaves = {0};
    sv_leaves(l, xs, &leaves);
    if (leaves.len == 0) lower_error(l, loc, "unflatten_irregular needs an array to split");
    /* the rows' offsets first: their scan's total is the sum to check */
    Irreg *d = NEW(l->a, Irreg);
    *d = (Irreg){.n = n, .rank = 1, .counts = sizes->se};
    SubExp sum = irr_offsets(l, d, irr_iota(l, n, loc), loc), m = lower_dim(l, leaves.items[0], 0);
    SubExp args[2] = {sum, m};
    lower_assert(l, lower_binop(l, OP_EQ, sum, m, loc),
                 "The row sizes given to unflatten_irregular add up to {}, not to the {} elements given.", args, 2,
                 loc);
    SVal **rows = NEW_ARRAY(l->a, SVal *, leaves.len);
    for (int k = 0; k < leaves.len; k++) rows[k] = rows_of(l, leaves.items[k], n, sizes->se, d, loc);
    int pos = 0;
    return rebuild_leaves(l, xs, rows, &pos);
}

/* ---- Irregular arrays out of branches ------------------------------------------------ */

/* Whether v and w, the values of the two arms of a branch, are irregular
 * arrays of one rank whose same dimensions vary (and, for irregular arrays
 * of irregular arrays, whose rows' rows agree so): the branch then returns
 * their descriptors, and its value is irregular. */
static bool arms_agree(const SVal *v, const SVal *w) {
    if (v->kind != SV_IRREG || w->kind != SV_IRREG || v->irr->rank != w->irr->rank || !v->irr->rows != !w->irr->rows)
        return false;
    for (int d = 0; d < v->irr->rank; d++)
        if (v->irr->vary[d] != w->irr->vary[d]) return false;
    return !v->irr->rows || arms_agree(v->irr->rows, w->irr->rows);
}

/* Appends r's descriptor's arrays to out, then its rows' rows' (whose flat
 * array is the same). */
static void push_desc(Lower *l, const Irreg *r, SubExpVec *out) {
    vec_push_in(l->a, out, r->counts);
    vec_push_in(l->a, out, r->offsets);
    for (int d = 0; d < r->rank; d++) vec_push_in(l->a, out, r->dims[d]);
    if (r->rows) push_desc(l, r->rows->irr, out);
}

/* The irregular array of flat array flat shaped like like, its
 * descriptor's arrays from ses at *pos (push_desc's order); a view, as
 * either arm's may be. */
static SVal *take_desc(Lower *l, const Irreg *like, SubExp flat, const SubExp *ses, int *pos) {
    Irreg *r = NEW(l->a, Irreg);
    *r = *like;
    r->closed = r->shifted = false; /* like's closed form or starts may be of values of one arm */
    r->vary = NEW_ARRAY(l->a, bool, r->rank);
    COPY_ARRAY(r->vary, like->vary, r->rank);
    r->dims = NEW_ARRAY(l->a, SubExp, r->rank);
    r->counts = ses[(*pos)++];
    r->offsets = ses[(*pos)++];
    for (int d = 0; d < r->rank; d++) r->dims[d] = ses[(*pos)++];
    r->n = lower_dim(l, r->counts, 0);
    r->view = !like->rows;
    if (like->rows) r->rows = take_desc(l, like->rows->irr, flat, ses, pos);
    SVal *v = sv_dyn(l, flat);
    v->kind = SV_IRREG;
    v->irr = r;
    return v;
}

static bool same_structure(const SVal *v, const SVal *w) {
    return (v->kind == SV_TUPLE || v->kind == SV_RECORD) && w->kind == v->kind && w->n == v->n;
}

void lower_arm_leaves(Lower *l, SVal *v, const SVal *other, SubExpVec *out) {
    if (same_structure(v, other)) {
        for (int i = 0; i < v->n; i++) lower_arm_leaves(l, v->elems[i], other->elems[i], out);
        return;
    }
    if (!arms_agree(v, other)) {
        sv_leaves(l, v, out);
        return;
    }
    vec_push_in(l->a, out, v->se);
    push_desc(l, v->irr, out);
}

SVal *lower_arm_value(Lower *l, const SVal *shape, const SVal *other, const SubExp *ses, int *pos) {
    if (same_structure(shape, other)) {
        SVal *v = NEW(l->a, SVal);
        *v = *shape;
        v->elems = NEW_ARRAY(l->a, SVal *, shape->n + 1);
        for (int i = 0; i < shape->n; i++) v->elems[i] = lower_arm_value(l, shape->elems[i], other->elems[i], ses, pos);
        return v;
    }
    if (shape->kind == SV_FUN) return (SVal *)shape;
    if (!arms_agree(shape, other)) return sv_dyn(l, ses[(*pos)++]);
    SubExp flat = ses[(*pos)++];
    return take_desc(l, shape->irr, flat, ses, pos);
}

/* ---- Irregular arrays at entry points ------------------------------------------------ */

/* Each row's length (n rows) of leaf v, an irregular array or a regular
 * array of arrays. */
static SubExp row_lengths(Lower *l, const SVal *v, SubExp n, SrcLoc loc) {
    const Irreg *r = v->kind == SV_IRREG ? v->irr : NULL;
    if (r && r->vary[0]) return r->dims[0];
    return irr_replicate(l, n, r ? r->dims[0] : lower_dim(l, v->se, 1), loc);
}

/* The rows of leaf v (n of them, lengths lens) one after another: an
 * array of their elements, whose sizes past the first must be one for
 * every row (checked). */
static SubExp row_elems(Lower *l, const SVal *v, SubExp n, SubExp lens, SrcLoc loc) {
    if (v->kind != SV_IRREG) {
        Type t = subexp_type(v->se);
        SubExp *shape = NEW_ARRAY(l->a, SubExp, t.rank - 1);
        shape[0] = lower_binop(l, OP_SIZE_MUL, t.shape[0], t.shape[1], loc);
        for (int d = 2; d < t.rank; d++) shape[d - 1] = t.shape[d];
        return reshape(l, v->se, shape, t.rank - 1, loc);
    }
    const Irreg *r = v->irr;
    if (r->rows) return lower_regular(l, r->rows, loc);
    if (r->rank == 1) return flat_of(l, v, loc);
    SubExp *shape = NEW_ARRAY(l->a, SubExp, r->rank);
    shape[0] = r->vary[0] ? irr_sum_sizes(l, n, lens, loc) : lower_binop(l, OP_SIZE_MUL, n, r->dims[0], loc);
    for (int d = 1; d < r->rank; d++) shape[d] = r->vary[d] ? one_size(l, n, r->dims[d], loc) : r->dims[d];
    return reshape(l, flat_of(l, v, loc), shape, r->rank, loc);
}

/* Whether leaf v is an array of rows: irregular, or regular of rank 2 or more. */
static bool has_rows(const SVal *v) {
    return v->kind == SV_IRREG ||
           (v->kind == SV_DYN && subexp_type(v->se).kind == TK_ARRAY && subexp_type(v->se).rank >= 2);
}

/* v with each leaf as row_elems gives it. */
static SVal *elems_of(Lower *l, const SVal *v, SubExp n, SubExp lens, SrcLoc loc) {
    if (v->kind == SV_TUPLE || v->kind == SV_RECORD) {
        SVal *c = NEW(l->a, SVal);
        *c = *v;
        c->elems = NEW_ARRAY(l->a, SVal *, v->n + 1);
        for (int k = 0; k < v->n; k++) c->elems[k] = elems_of(l, v->elems[k], n, lens, loc);
        return c;
    }
    if (!has_rows(v)) lower_error(l, loc, "to_irregular needs an array of arrays");
    return sv_dyn(l, row_elems(l, v, n, lens, loc));
}

SVal *lower_to_irregular(Lower *l, SVal *xs, SrcLoc loc) {
    const SVal *first = xs;
    while ((first->kind == SV_TUPLE || first->kind == SV_RECORD) && first->n > 0) first = first->elems[0];
    if (!has_rows(first)) lower_error(l, loc, "to_irregular needs an array of arrays");
    SubExp n = lower_width(l, xs, loc);
    SubExp lens = row_lengths(l, first, n, loc);
    SVal *v = NEW(l->a, SVal);
    v->kind = SV_RECORD;
    v->n = 2;
    v->elems = NEW_ARRAY(l->a, SVal *, 2);
    v->names = NEW_ARRAY(l->a, const char *, 2);
    v->names[0] = "elems";
    v->names[1] = "sizes";
    v->elems[0] = elems_of(l, xs, n, lens, loc);
    v->elems[1] = sv_dyn(l, lens);
    return v;
}
