/* The descriptors of irregular arrays (irregular.h): where each row starts
 * and how many elements there are in all, by closed forms when the rows'
 * sizes are an affine function of their position and by a scan
 * otherwise, and which row a flat position is in, by binary searches
 * between anchors. */
#include "irregular.h"

/* The statement that l's current body binds v with, or NULL. */
const Stm *irr_bound_by(const Lower *l, const Var *v) {
    for (const Builder *b = l->b; b; b = b->up)
        for (int i = 0; i < b->stms.len; i++) {
            const Stm *st = b->stms.items[i];
            for (int k = 0; k < st->npat; k++)
                if (st->pat[k] == v) return st;
        }
    return NULL;
}

/* Element i of the array a (of scalars). */
SubExp irr_element(Lower *l, SubExp a, SubExp i, SrcLoc loc) {
    DimSlice *s = NEW(l->a, DimSlice);
    s->index = i;
    IrExp *e = lower_new_exp(l, IE_INDEX);
    e->arr = a.v;
    e->slice = s;
    e->nslice = 1;
    return lower_emit1(l, e, type_prim(subexp_type(a).elem), loc);
}

Lambda *irr_identity_i64(Lower *l) {
    Type ti = type_prim(PT_I64);
    Builder *saved, nb;
    Lambda *id = lower_lambda_begin(l, &ti, 1, &saved, &nb);
    SubExp p = se_var(id->params[0]);
    lower_lambda_end(l, id, saved, &nb, &p, 1);
    return id;
}

/* iota n, of i64. */
SubExp irr_iota(Lower *l, SubExp n, SrcLoc loc) {
    IrExp *ie = lower_new_exp(l, IE_IOTA);
    ie->n = n;
    ie->start = se_i64(0);
    ie->step = se_i64(1);
    ie->t = PT_I64;
    return lower_emit1(l, ie, lower_outer_type(l, n, type_prim(PT_I64)), loc);
}

SubExp irr_replicate(Lower *l, SubExp n, SubExp x, SrcLoc loc) {
    IrExp *e = lower_new_exp(l, IE_REPLICATE);
    e->shape = NEW(l->a, SubExp);
    e->shape[0] = n;
    e->nshape = 1;
    e->se = x;
    return lower_emit1(l, e, lower_outer_type(l, n, subexp_type(x)), loc);
}

/* The failure of a descriptor whose rows' sizes are negative or add up
 * past what an i64 counts. */
static const char *const TOO_MANY = "The rows of an irregular array have a negative size or add up to more than 2^63-1 elements.";

/* ---- Closed forms of affine sizes ------------------------------------------------------ */


/* x + y of SubExps of i64, folded when both are constants. */
static SubExp add_i64(Lower *l, SubExp x, SubExp y, SrcLoc loc) {
    if (!x.is_var && !y.is_var) return se_i64(x.c.v.i + y.c.v.i);
    if (!x.is_var && x.c.v.i == 0) return y;
    if (!y.is_var && y.c.v.i == 0) return x;
    return lower_binop(l, OP_ADD, x, y, loc);
}

/* The form of iota array x bound in l's current body (start + step * i,
 * both constants) in *f. */
static bool iota_form(Lower *l, const Var *x, Affine *f) {
    const Stm *is = irr_bound_by(l, x);
    if (!is || is->e->kind != IE_IOTA || is->e->start.is_var || is->e->step.is_var || is->e->t != PT_I64) return false;
    *f = (Affine){is->e->step.c.v.i, se_i64(is->e->start.c.v.i)};
    return true;
}

/* a * x + c, c and the result's b constants (fails on overflow). */
static bool affine_scale(Affine x, int64_t c, Affine *out) {
    if (x.b.is_var || __builtin_mul_overflow(x.a, c, &out->a)) return false;
    out->b = se_i64(x.b.c.v.i * c);
    return true;
}

/* The form of se in map lam over inputs arrs (in *f): a constant or an
 * i64 from outside the map, an element of an input that is an iota, or
 * adds, subtractions and multiplications by constants of those, an index
 * of an iota array bound outside the map by one. Depth bounds the
 * search. */
static bool affine_of(Lower *l, const Lambda *lam, Var *const *arrs, SubExp se, Affine *f, int depth, SrcLoc loc) {
    if (!se.is_var) {
        if (se.c.type != PT_I64) return false;
        *f = (Affine){0, se};
        return true;
    }
    if (se.v->type.kind != TK_PRIM || se.v->type.elem != PT_I64 || depth > 64) return false;
    for (int j = 0; j < lam->nparams; j++)
        if (lam->params[j] == se.v) return iota_form(l, arrs[j], f);
    const Body *b = lam->body;
    const Stm *st = NULL;
    for (int i = 0; i < b->nstms && !st; i++)
        for (int k = 0; k < b->stms[i]->npat; k++)
            if (b->stms[i]->pat[k] == se.v) st = b->stms[i];
    if (st && st->npat != 1) return false;
    if (!st) {
        *f = (Affine){0, se};
        return true;
    }
    const IrExp *e = st->e;
    Affine x, y;
    if (e->kind == IE_SUBEXP) return affine_of(l, lam, arrs, e->se, f, depth + 1, loc);
    if (e->kind == IE_INDEX) {
        Affine it;
        if (e->nslice != 1 || e->slice[0].is_slice || !iota_form(l, e->arr, &it) ||
            !affine_of(l, lam, arrs, e->slice[0].index, &x, depth + 1, loc) || !affine_scale(x, it.a, f))
            return false;
        f->b = se_i64(f->b.c.v.i + it.b.c.v.i);
        return true;
    }
    if (e->kind != IE_OP || e->t != PT_I64 || !affine_of(l, lam, arrs, e->args[0], &x, depth + 1, loc) ||
        !affine_of(l, lam, arrs, e->args[1], &y, depth + 1, loc))
        return false;
    switch (e->op) {
    case OP_SUB:
        if (!affine_scale(y, -1, &y)) return false;
        /* fall through */
    case OP_ADD:
        if (__builtin_add_overflow(x.a, y.a, &f->a)) return false;
        f->b = add_i64(l, x.b, y.b, loc);
        return true;
    case OP_MUL:
    case OP_SIZE_MUL:
        if (x.a == 0 && !x.b.is_var) return affine_scale(y, x.b.c.v.i, f);
        if (y.a == 0 && !y.b.is_var) return affine_scale(x, y.b.c.v.i, f);
        return false;
    default: return false;
    }
}

/* Whether the [n]i64 array sizes, bound in l's current body, is a result
 * of a map (over iotas, among other arrays) whose value is affine in the
 * row's position (affine_of): *f gets the form. */
static bool affine_sizes(Lower *l, SubExp sizes, Affine *f, SrcLoc loc) {
    const Stm *st = sizes.is_var ? irr_bound_by(l, sizes.v) : NULL;
    if (!st || st->e->kind != IE_SCREMA) return false;
    const Screma *sc = &st->e->screma;
    if (sc->nscans || sc->nreds) return false;
    int k = 0;
    while (k < st->npat && st->pat[k] != sizes.v) k++;
    return k < sc->map->body->nres && affine_of(l, sc->map, sc->arrs, sc->map->body->res[k], f, 0, loc);
}

static SubExp f64_of(Lower *l, SubExp x, SrcLoc loc) { return lower_conv(l, x, PT_F64, loc); }

/* The offset of row i (an i64) of rows of sizes f: a * i(i-1)/2 + b * i. */
static SubExp affine_offset(Lower *l, SubExp i, Affine f, SrcLoc loc) {
    SubExp bi = lower_binop(l, OP_MUL, f.b, i, loc);
    if (f.a == 0) return bi;
    SubExp pairs = lower_binop(l, OP_DIV, lower_binop(l, OP_MUL, i, lower_binop(l, OP_SUB, i, se_i64(1), loc), loc),
                               se_i64(2), loc);
    return lower_binop(l, OP_ADD, lower_binop(l, OP_MUL, se_i64(f.a), pairs, loc), bi, loc);
}

/* Where row i of r starts, and its element count. */
SubExp irr_offset_at(Lower *l, const Irreg *r, SubExp i, SrcLoc loc) {
    if (r->shifted) return lower_binop(l, OP_SUB, irr_element(l, r->from, i, loc), r->shift, loc);
    return r->closed ? affine_offset(l, i, r->f, loc) : irr_element(l, r->offsets, i, loc);
}

SubExp irr_count_at(Lower *l, const Irreg *r, SubExp i, SrcLoc loc) {
    return r->closed ? add_i64(l, lower_binop(l, OP_MUL, se_i64(r->f.a), i, loc), r->f.b, loc)
                     : irr_element(l, r->counts, i, loc);
}

/* The total of n rows of sizes f, checked: no size negative and the total
 * below 2^62 (estimated in f64, so that the exact i64 arithmetic here and
 * in the offsets cannot overflow). */
static SubExp affine_total(Lower *l, SubExp n, Affine f, SrcLoc loc) {
    SubExp af = se_const(prim_float(PT_F64, (double)f.a)), nf = f64_of(l, n, loc), bf = f64_of(l, f.b, loc);
    SubExp before = lower_binop(l, OP_SUB, nf, se_const(prim_float(PT_F64, 1)), loc); /* n - 1 */
    /* pairs = n * (n - 1) / 2, the sum of the positions */
    SubExp pairsf = lower_binop(l, OP_DIV, lower_binop(l, OP_MUL, nf, before, loc), se_const(prim_float(PT_F64, 2)), loc);
    SubExp est = lower_binop(l, OP_ADD, lower_binop(l, OP_MUL, af, pairsf, loc), lower_binop(l, OP_MUL, bf, nf, loc), loc);
    SubExp lastf = lower_binop(l, OP_ADD, lower_binop(l, OP_MUL, af, before, loc), bf, loc);
    SubExp zero = se_const(prim_float(PT_F64, 0));
    SubExp ok = lower_binop(l, OP_LAND, lower_binop(l, OP_LE, zero, bf, loc), lower_binop(l, OP_LE, zero, lastf, loc), loc);
    ok = lower_binop(l, OP_LAND, ok, lower_binop(l, OP_LT, est, se_const(prim_float(PT_F64, 0x1p62)), loc), loc);
    if (f.a != 0) ok = lower_binop(l, OP_LAND, ok, lower_binop(l, OP_LT, n, se_i64((int64_t)1 << 31), loc), loc);
    ok = lower_binop(l, OP_LOR, lower_binop(l, OP_EQ, n, se_i64(0), loc), ok, loc);
    lower_assert(l, ok, TOO_MANY,
                 NULL, 0, loc);
    return affine_offset(l, n, f, loc);
}

/* The operator of the offsets' scan: a + b of non-negative sizes, or -1
 * once the sum passes 2^63-1 (or an operand is -1), so that an overflow
 * cannot wrap to a valid total. Associative on non-negative values. */
SegOp *irr_sum_op(Lower *l, SrcLoc loc) {
    Type ts[2] = {type_prim(PT_I64), type_prim(PT_I64)};
    Builder *saved, nb;
    Lambda *lam = lower_lambda_begin(l, ts, 2, &saved, &nb);
    SubExp x = se_var(lam->params[0]), y = se_var(lam->params[1]);
    SubExp sum = lower_binop(l, OP_ADD, x, y, loc);
    SubExp bad = lower_binop(l, OP_LOR, lower_binop(l, OP_LT, x, se_i64(0), loc),
                             lower_binop(l, OP_LT, y, se_i64(0), loc), loc);
    bad = lower_binop(l, OP_LOR, bad, lower_binop(l, OP_LT, sum, se_i64(0), loc), loc);
    /* bad ? -1 : sum, without a branch: sum | -(bad as i64) */
    SubExp r = lower_binop(l, OP_OR, sum, lower_unop(l, OP_NEG, lower_conv(l, bad, PT_I64, loc), loc), loc);
    lower_lambda_end(l, lam, saved, &nb, &r, 1);
    SegOp *op = NEW(l->a, SegOp);
    *op = (SegOp){lam, NEW(l->a, SubExp), 1, true, false};
    op->neutral[0] = se_i64(0);
    return op;
}

/* The sum of the [n]i64 array sizes, checked not to pass 2^63-1. */
SubExp irr_sum_sizes(Lower *l, SubExp n, SubExp sizes, SrcLoc loc) {
    Affine f;
    if (affine_sizes(l, sizes, &f, loc)) return affine_total(l, n, f, loc);
    Var **arrs = NEW(l->a, Var *);
    arrs[0] = sizes.v;
    Type ti = type_prim(PT_I64);
    Screma sc = {.w = n, .arrs = arrs, .narrs = 1, .map = irr_identity_i64(l), .reds = irr_sum_op(l, loc), .nreds = 1};
    SubExp sum = se_var(lower_emit_screma(l, &sc, &ti, 1, loc)[0]);
    lower_assert(l, lower_binop(l, OP_LE, se_i64(0), sum, loc),
                 TOO_MANY,
                 NULL, 0, loc);
    return sum;
}

/* Sets r's offsets from its counts (r->n of them) and returns the total. */
SubExp irr_offsets(Lower *l, Irreg *r, SubExp iota, SrcLoc loc) {
    Type ti = type_prim(PT_I64), arr = lower_outer_type(l, r->n, ti);
    Affine f;
    bool closed = affine_sizes(l, r->counts, &f, loc);
    r->closed = closed && r->rank == 1;
    r->f = f;
    SubExp incl = se_i64(0), total;
    if (closed) {
        total = affine_total(l, r->n, f, loc);
    } else {
        Var **counts = NEW(l->a, Var *);
        counts[0] = r->counts.v;
        Screma sc = {.w = r->n, .arrs = counts, .narrs = 1, .map = irr_identity_i64(l), .scans = irr_sum_op(l, loc), .nscans = 1};
        incl = se_var(lower_emit_screma(l, &sc, &arr, 1, loc)[0]);
        total = lower_scan_total(l, incl, r->n, loc);
        lower_assert(l, lower_binop(l, OP_LE, se_i64(0), total, loc),
                     TOO_MANY,
                     NULL, 0, loc);
    }
    /* offsets[i]: the closed form, or incl[i] - counts[i] */
    Builder *saved, nb;
    Lambda *off = lower_lambda_begin(l, &ti, 1, &saved, &nb);
    SubExp i = se_var(off->params[0]);
    SubExp o = closed ? affine_offset(l, i, f, loc)
                      : lower_binop(l, OP_SUB, irr_element(l, incl, i, loc), irr_element(l, r->counts, i, loc), loc);
    lower_lambda_end(l, off, saved, &nb, &o, 1);
    Var **is = NEW(l->a, Var *);
    is[0] = iota.v;
    Screma os = {.w = r->n, .arrs = is, .narrs = 1, .map = off};
    r->offsets = se_var(lower_emit_screma(l, &os, &arr, 1, loc)[0]);
    return total;
}


/* Positions find their rows without an array of a row per position: a
 * position p is in row s, the last row whose offset is at most p (rows
 * before it that start at p are empty). Anchor c is the row of position
 * c * ANCHOR (or of the last position), found by a binary search over all
 * rows; position p then searches only the rows between anchors p / ANCHOR
 * and p / ANCHOR + 1, a step or two unless many rows start in its stretch
 * of ANCHOR positions. */
enum { ANCHOR = 256 };

/* The last of rows lo..hi (lo <= hi) whose offset is at most p (lo when
 * none is), by a binary search: a while loop of about log2(hi - lo + 1)
 * steps. Every row it reads is one of lo..hi. */
static SubExp last_row_at(Lower *l, SubExp offsets, SubExp lo, SubExp hi, SubExp p, SrcLoc loc) {
    Type ti = type_prim(PT_I64);
    IrExp *le = lower_new_exp(l, IE_LOOP);
    Loop *lp = &le->loop;
    lp->kind = IR_LOOP_WHILE;
    lp->cond = ir_var(l->prog, "more", type_prim(PT_BOOL));
    lp->nparams = 3;
    lp->params = NEW_ARRAY(l->a, Var *, 3);
    lp->params[0] = lp->cond;
    lp->params[1] = ir_var(l->prog, "lo", ti);
    lp->params[2] = ir_var(l->prog, "hi", ti);
    lp->inits = NEW_ARRAY(l->a, SubExp, 3);
    lp->inits[0] = lower_binop(l, OP_LT, lo, hi, loc);
    lp->inits[1] = lo;
    lp->inits[2] = hi;
    Builder *saved = l->b, nb = {0};
    l->b = &nb;
    SubExp a = se_var(lp->params[1]), b = se_var(lp->params[2]);
    SubExp mid = lower_binop(l, OP_QUOT, lower_binop(l, OP_ADD, add_i64(l, a, b, loc), se_i64(1), loc), se_i64(2), loc);
    SubExp at = lower_conv(l, lower_binop(l, OP_LE, irr_element(l, offsets, mid, loc), p, loc), PT_I64, loc);
    /* at: lo becomes mid (mid >= lo); otherwise hi becomes mid - 1 (< hi) */
    SubExp below = lower_binop(l, OP_SUB, mid, se_i64(1), loc);
    SubExp res[3];
    res[1] = lower_binop(l, OP_MAX, a, lower_binop(l, OP_MUL, mid, at, loc), loc);
    res[2] = lower_binop(l, OP_MIN, b,
                         lower_binop(l, OP_ADD, below,
                                     lower_binop(l, OP_MUL, lower_binop(l, OP_SUB, b, below, loc), at, loc), loc),
                         loc);
    res[0] = lower_binop(l, OP_LT, res[1], res[2], loc);
    lp->body = lower_body_end(l, saved, &nb, res, 3);
    Var **pat = NEW_ARRAY(l->a, Var *, 3);
    pat[0] = ir_var(l->prog, "more", type_prim(PT_BOOL));
    pat[1] = ir_var(l->prog, "lo", ti);
    pat[2] = ir_var(l->prog, "hi", ti);
    lower_emit(l, le, pat, 3, loc);
    return se_var(pat[1]);
}

/* The anchors of r's rows (total positions): total / ANCHOR + 2 rows.
 * Rows kept from another array's (shifted) have none: a position's row is
 * searched for among all of them, so that nothing is made for them. */
SubExp irr_anchors(Lower *l, const Irreg *r, SubExp total, SrcLoc loc) {
    if (r->shifted) return se_i64(0);
    SubExp count = lower_binop(l, OP_ADD, lower_binop(l, OP_QUOT, total, se_i64(ANCHOR), loc), se_i64(2), loc);
    SubExp last = lower_binop(l, OP_SUB, total, se_i64(1), loc);
    Type ti = type_prim(PT_I64);
    Builder *saved, nb;
    Lambda *lam = lower_lambda_begin(l, &ti, 1, &saved, &nb);
    SubExp p = lower_binop(l, OP_MIN, lower_binop(l, OP_MUL, se_var(lam->params[0]), se_i64(ANCHOR), loc), last, loc);
    SubExp s = last_row_at(l, r->offsets, se_i64(0), lower_binop(l, OP_SUB, r->n, se_i64(1), loc), p, loc);
    lower_lambda_end(l, lam, saved, &nb, &s, 1);
    Var **in = NEW(l->a, Var *);
    in[0] = irr_iota(l, count, loc).v;
    Screma sc = {.w = count, .arrs = in, .narrs = 1, .map = lam};
    Type t = lower_outer_type(l, count, ti);
    return se_var(lower_emit_screma(l, &sc, &t, 1, loc)[0]);
}

SubExp irr_head_flags(Lower *l, const Irreg *r, SubExp total, SrcLoc loc) {
    Type ti = type_prim(PT_I64);
    Var **dest = NEW(l->a, Var *);
    dest[0] = irr_replicate(l, total, se_bool(false), loc).v;
    Builder *saved, nb;
    Lambda *lam = lower_lambda_begin(l, &ti, 1, &saved, &nb);
    SubExp res[2] = {irr_offset_at(l, r, se_var(lam->params[0]), loc), se_bool(true)};
    lower_lambda_end(l, lam, saved, &nb, res, 2);
    Var **in = NEW(l->a, Var *);
    in[0] = irr_iota(l, r->n, loc).v;
    IrExp *e = lower_new_exp(l, IE_SCATTER);
    e->scatter = (Scatter){.w = r->n, .arrs = in, .narrs = 1, .lam = lam, .dests = dest, .ndests = 1};
    return lower_emit1(l, e, lower_outer_type(l, total, type_prim(PT_BOOL)), loc);
}

/* Row of position p (in the current body), from r's anchors. */
SubExp irr_row_at(Lower *l, const Irreg *r, SubExp anchor, SubExp p, SrcLoc loc) {
    if (r->shifted)
        return last_row_at(l, r->from, se_i64(0), lower_binop(l, OP_SUB, r->n, se_i64(1), loc),
                           lower_binop(l, OP_ADD, p, r->shift, loc), loc);
    SubExp c = lower_binop(l, OP_QUOT, p, se_i64(ANCHOR), loc);
    SubExp lo = irr_element(l, anchor, c, loc), hi = irr_element(l, anchor, lower_binop(l, OP_ADD, c, se_i64(1), loc), loc);
    return last_row_at(l, r->offsets, lo, hi, p, loc);
}

