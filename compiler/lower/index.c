/* Indexing, slicing, in-place updates and ranges, with their run-time
 * checks: one bounds check per index or slice, whose message shows it as
 * written, and the checks that a range counts in its direction. Every
 * array operation works on each leaf of an array value. */
#include "lower.h"

/* ---- Indexing ------------------------------------------------------------------------ */

static SubExp i64_of(Lower *l, Env *env, Exp *e) {
    SVal *v = lower_exp(l, env, e);
    if (v->kind != SV_DYN) return se_i64(0);
    return lower_conv(l, v->se, PT_I64, e->loc);
}

static SubExp bool_and(Lower *l, SubExp a, SubExp b, SrcLoc loc) { return lower_binop(l, OP_LAND, a, b, loc); }

/* The message of a failed bounds check of index ix[0..n-1] into an array
 * of rank dimensions, with a "{}" for each index, slice part written and
 * dimension, in that order. Made once the index is lowered: lower_error
 * may leave the lowering before, and a Buf would leak. */
static const char *slice_message(Lower *l, const DimIndex *ix, int n, int rank) {
    Buf msg = {0};
    buf_puts(&msg, "Index [");
    for (int k = 0; k < n; k++) {
        if (k > 0) buf_puts(&msg, ", ");
        if (!ix[k].is_slice) {
            buf_puts(&msg, "{}");
            continue;
        }
        buf_printf(&msg, "%s:%s%s", ix[k].start ? "{}" : "", ix[k].end ? "{}" : "", ix[k].stride ? ":{}" : "");
    }
    buf_puts(&msg, "] out of bounds for array of shape ");
    for (int k = 0; k < rank; k++) buf_puts(&msg, "[{}]");
    buf_putc(&msg, '.');
    const char *m = arena_strdup(l->a, msg.data);
    buf_free(&msg);
    return m;
}

static SubExp select_i64(Lower *l, SubExp c, SubExp a, SubExp b, SrcLoc loc) {
    SubExp one = lower_conv(l, c, PT_I64, loc); /* 1 or 0 */
    return lower_binop(l, OP_ADD, lower_binop(l, OP_MUL, one, a, loc),
                       lower_binop(l, OP_MUL, lower_binop(l, OP_SUB, se_i64(1), one, loc), b, loc), loc);
}

/* A slice a:b:s (s other than the constant 1) of a dimension of w
 * elements, as Futhark has it: the omitted bounds are 0 and w, or w-1 and
 * -1 for a negative stride; it has ceil((b-a)/s) elements, and it is valid
 * when s is not 0 and it is empty (a = b) or its elements are in the
 * array: forwards 0 <= a <= b and its last element below w (b itself may
 * be past the end: xs[7:9:2] of 8 elements is [xs[7]]), backwards
 * -1 <= b <= a < w. The arithmetic wraps, so a stride or bounds far out
 * of range fail the condition rather than overflow into it. */
static void strided_slice(Lower *l, Env *env, DimIndex *ix, SubExp w, SubExp s, SubExp *start, SubExp *end,
                          SubExp *len, SubExp *cond, SrcLoc loc) {
    SubExp pos = lower_binop(l, OP_GT, s, se_i64(0), loc), neg = lower_binop(l, OP_LT, s, se_i64(0), loc);
    SubExp wm1 = lower_binop(l, OP_SUB, w, se_i64(1), loc);
    *start = ix->start ? i64_of(l, env, ix->start) : select_i64(l, pos, se_i64(0), wm1, loc);
    *end = ix->end ? i64_of(l, env, ix->end) : select_i64(l, pos, w, se_i64(-1), loc);
    SubExp d = lower_binop(l, OP_SUB, *end, *start, loc);
    SubExp rem = lower_binop(l, OP_NE, lower_binop(l, OP_REM, d, s, loc), se_i64(0), loc);
    *len = lower_binop(l, OP_ADD, lower_binop(l, OP_QUOT, d, s, loc), lower_conv(l, rem, PT_I64, loc), loc);
    SubExp last = lower_binop(l, OP_ADD, *start,
                              lower_binop(l, OP_MUL, lower_binop(l, OP_SUB, *len, se_i64(1), loc), s, loc), loc);
    SubExp fwd = bool_and(l, bool_and(l, lower_binop(l, OP_LE, se_i64(0), *start, loc),
                                      lower_binop(l, OP_LE, *start, *end, loc), loc),
                          lower_binop(l, OP_LT, last, w, loc), loc);
    SubExp back = bool_and(l, bool_and(l, lower_binop(l, OP_LE, se_i64(-1), *end, loc),
                                       lower_binop(l, OP_LE, *end, *start, loc), loc),
                           lower_binop(l, OP_LT, *start, w, loc), loc);
    SubExp dir = lower_binop(l, OP_LOR, bool_and(l, pos, fwd, loc), bool_and(l, neg, back, loc), loc);
    SubExp empty = bool_and(l, lower_binop(l, OP_NE, s, se_i64(0), loc), lower_binop(l, OP_EQ, *start, *end, loc), loc);
    *cond = lower_binop(l, OP_LOR, empty, dir, loc);
}

/* Turns source slice syntax into IR DimSlices for an array of shape
 * dims[rank], emitting one bounds check for the whole index, whose message
 * shows it as written ("Index [i, a:b] out of bounds for array of shape
 * [n][m]."). */
static DimSlice *lower_slice(Lower *l, Env *env, DimIndex *ix, int n, const SubExp *dims, int rank, SrcLoc loc) {
    DimSlice *s = NEW_ARRAY(l->a, DimSlice, n);
    SubExp ok = se_bool(true);
    SubExpVec args = {0};
    for (int k = 0; k < n; k++) {
        SubExp w = dims[k], cond;
        if (!ix[k].is_slice) {
            SubExp i = i64_of(l, env, ix[k].index);
            s[k].index = i;
            cond = bool_and(l, lower_binop(l, OP_LE, se_i64(0), i, loc), lower_binop(l, OP_LT, i, w, loc), loc);
            vec_push_in(l->a, &args, i);
            ok = bool_and(l, ok, cond, loc);
            continue;
        }
        s[k].is_slice = true;
        SubExp stride = ix[k].stride ? i64_of(l, env, ix[k].stride) : se_i64(1);
        if (!stride.is_var && stride.c.v.i == 0) lower_error(l, loc, "slice stride cannot be zero");
        SubExp start, end, len;
        if (stride.is_var || stride.c.v.i != 1) {
            strided_slice(l, env, &ix[k], w, stride, &start, &end, &len, &cond, loc);
        } else {
            start = ix[k].start ? i64_of(l, env, ix[k].start) : se_i64(0);
            end = ix[k].end ? i64_of(l, env, ix[k].end) : w;
            len = lower_binop(l, OP_SUB, end, start, loc);
            cond = bool_and(l, lower_binop(l, OP_LE, se_i64(0), start, loc),
                            bool_and(l, lower_binop(l, OP_LE, start, end, loc), lower_binop(l, OP_LE, end, w, loc), loc),
                            loc);
        }
        /* the slice as written: omitted parts stay omitted */
        if (ix[k].start) vec_push_in(l->a, &args, start);
        if (ix[k].end) vec_push_in(l->a, &args, end);
        if (ix[k].stride) vec_push_in(l->a, &args, stride);
        ok = bool_and(l, ok, cond, loc);
        s[k].start = start;
        s[k].len = len;
        s[k].stride = stride;
    }
    for (int k = 0; k < rank; k++) vec_push_in(l->a, &args, dims[k]);
    if (!l->opts->unsafe) lower_assert(l, ok, slice_message(l, ix, n, rank), args.items, args.len, loc);
    return s;
}

/* The type of arr[slice]. */
static Type slice_type(Lower *l, Type t, const DimSlice *s, int n) {
    int rank = 0;
    SubExp *shape = NEW_ARRAY(l->a, SubExp, t.rank);
    for (int k = 0; k < t.rank; k++) {
        if (k < n && !s[k].is_slice) continue;
        shape[rank++] = k < n ? s[k].len : t.shape[k];
    }
    if (rank == 0) return type_prim(t.elem);
    return type_array(l->a, t.elem, rank, shape);
}

static SubExp index_leaf(Lower *l, SubExp arr, DimSlice *s, int n, SrcLoc loc) {
    IrExp *ie = lower_new_exp(l, IE_INDEX);
    ie->arr = arr.v;
    ie->slice = s;
    ie->nslice = n;
    return lower_emit1(l, ie, slice_type(l, subexp_type(arr), s, n), loc);
}

/* Applies one slice to every leaf of an array value. */
static SVal *slice_value(Lower *l, SVal *arr, DimSlice *s, int n, SrcLoc loc) {
    SubExpVec leaves = {0};
    sv_leaves(l, arr, &leaves);
    SubExp *res = NEW_ARRAY(l->a, SubExp, leaves.len);
    for (int i = 0; i < leaves.len; i++) {
        if (subexp_type(leaves.items[i]).kind != TK_ARRAY || subexp_type(leaves.items[i]).rank < n)
            lower_error(l, loc, "indexing a value that is not an array of that rank");
        res[i] = index_leaf(l, leaves.items[i], s, n, loc);
    }
    int pos = 0;
    return sv_rebuild(l, arr, res, &pos);
}

SVal *lower_index_value(Lower *l, SVal *arr, SubExp i, SrcLoc loc) {
    DimSlice *s = NEW(l->a, DimSlice);
    s->index = i;
    return slice_value(l, arr, s, 1, loc);
}

/* The shape of the first leaf of an array value (an irregular one's as a
 * regular array, which it is then checked to be). */
const SubExp *lower_value_dims(Lower *l, SVal *v, int *rank) {
    while (v->kind == SV_TUPLE || v->kind == SV_RECORD) {
        if (v->n == 0) break;
        v = v->elems[0];
    }
    if (v->kind == SV_IRREG) v = sv_dyn(l, lower_regular(l, v, l->user_loc));
    if (v->kind != SV_DYN || subexp_type(v->se).kind != TK_ARRAY) {
        *rank = 0;
        return NULL;
    }
    Type t = subexp_type(v->se);
    *rank = t.rank;
    return t.shape;
}

/* Row i of an irregular array value (its first index), then the rest of
 * the index on that row. */
static SVal *index_rows(Lower *l, Env *env, SVal *arr, Exp *e) {
    SubExp n = lower_width(l, arr, e->loc), i = i64_of(l, env, e->slice[0].index);
    if (!l->opts->unsafe) {
        SubExp ok = bool_and(l, lower_binop(l, OP_LE, se_i64(0), i, e->loc), lower_binop(l, OP_LT, i, n, e->loc),
                             e->loc);
        SubExp args[2] = {i, n};
        lower_assert(l, ok, "Index [{}] out of bounds for irregular array of {} rows.", args, 2, e->loc);
    }
    SVal *row = lower_row(l, arr, i, e->loc);
    if (e->nslice == 1) return row;
    int rank;
    const SubExp *dims = lower_value_dims(l, row, &rank);
    if (!dims || rank < e->nslice - 1)
        lower_error(l, e->loc, "indexing a value that is not an array of rank %d or more", e->nslice);
    DimSlice *s = lower_slice(l, env, e->slice + 1, e->nslice - 1, dims, rank, e->loc);
    return slice_value(l, row, s, e->nslice - 1, e->loc);
}

SVal *lower_index(Lower *l, Env *env, Exp *e) {
    SVal *arr = lower_exp(l, env, e->e1);
    if (sv_irregular(arr) && !e->slice[0].is_slice) return index_rows(l, env, arr, e);
    int rank;
    const SubExp *dims = lower_value_dims(l, arr, &rank);
    if (!dims || rank < e->nslice)
        lower_error(l, e->loc, "indexing a value that is not an array of rank %d or more", e->nslice);
    DimSlice *s = lower_slice(l, env, e->slice, e->nslice, dims, rank, e->loc);
    return slice_value(l, arr, s, e->nslice, e->loc);
}

/* arr with [slice] = v, for every leaf: arr is consumed. */
SVal *lower_update(Lower *l, Env *env, SVal *arr, DimIndex *ix, int n, SVal *v, SrcLoc loc) {
    int rank;
    const SubExp *dims = lower_value_dims(l, arr, &rank);
    if (!dims || rank < n) lower_error(l, loc, "updating a value that is not an array of rank %d or more", n);
    DimSlice *s = lower_slice(l, env, ix, n, dims, rank, loc);
    SubExpVec al = {0}, vl = {0};
    sv_leaves(l, arr, &al);
    sv_leaves(l, v, &vl);
    SubExp *res = NEW_ARRAY(l->a, SubExp, al.len);
    for (int i = 0; i < al.len && i < vl.len; i++) {
        Type t = subexp_type(al.items[i]);
        Type vt = slice_type(l, t, s, n);
        if (vt.kind == TK_ARRAY && !l->opts->unsafe) {
            /* the new value must have the shape of the slice */
            Type got = subexp_type(vl.items[i]);
            for (int d = 0; d < vt.rank && d < got.rank; d++) {
                SubExp ok = lower_binop(l, OP_EQ, vt.shape[d], got.shape[d], loc);
                SubExp args[2] = {got.shape[d], vt.shape[d]};
                lower_assert(l, ok, "Value of shape [{}] cannot be written to a slice of shape [{}].", args, 2, loc);
            }
        }
        IrExp *ie = lower_new_exp(l, IE_UPDATE);
        ie->arr = al.items[i].v;
        ie->slice = s;
        ie->nslice = n;
        ie->se = vl.items[i];
        res[i] = lower_emit1(l, ie, t, loc);
    }
    int pos = 0;
    return sv_rebuild(l, arr, res, &pos);
}

/* ---- Ranges -------------------------------------------------------------------------- */

/* Futhark's message for an invalid range, which shows the second element
 * only where the range has one: "Range 5...1 is invalid.",
 * "Range 1..0...5 is invalid.". */
static const char *range_msg(Lower *l, RangeKind k, bool second) {
    const char *end = k == RANGE_UPTO ? "..<" : k == RANGE_DOWNTO ? "..>" : "...";
    return arena_printf(l->a, "Range {}%s%s{} is invalid.", second ? "..{}" : "", end);
}

SVal *lower_range(Lower *l, Env *env, Exp *e) {
    SubExp a = lower_exp(l, env, e->start)->se;
    SubExp b = lower_exp(l, env, e->end)->se;
    PrimType t = subexp_type(a).elem;
    SubExp a64 = lower_conv(l, a, PT_I64, e->loc), b64 = lower_conv(l, b, PT_I64, e->loc);
    SubExp second64 = e->second ? lower_conv(l, lower_exp(l, env, e->second)->se, PT_I64, e->loc) : b64;
    SubExp step = e->second ? lower_binop(l, OP_SUB, second64, a64, e->loc) : se_i64(e->range == RANGE_DOWNTO ? -1 : 1);
    /* what a failed check shows: a, the second element if written, b */
    SubExp shown[3] = {a64, second64, b64};
    int nshown = e->second ? 3 : 2;
    const char *msg = range_msg(l, e->range, e->second);
    /* number of elements: distance to the (exclusive) end divided by step, rounded up */
    SubExp endx = b64;
    if (e->range == RANGE_INCL) {
        SubExp sgn = lower_unop(l, OP_SGN, step, e->loc);
        endx = lower_binop(l, OP_ADD, b64, sgn, e->loc);
    }
    SubExp dist = lower_binop(l, OP_SUB, endx, a64, e->loc);
    SubExp sgn = lower_unop(l, OP_SGN, step, e->loc);
    SubExp num = lower_binop(l, OP_ADD, dist, lower_binop(l, OP_SUB, step, sgn, e->loc), e->loc);
    if (!l->opts->unsafe) {
        /* ..< must count up and ..> down; any range needs a non-zero step */
        Op dir = e->range == RANGE_UPTO ? OP_GT : e->range == RANGE_DOWNTO ? OP_LT : OP_NE;
        SubExp good = lower_binop(l, dir, step, se_i64(0), e->loc);
        lower_assert(l, good, msg, shown, nshown, e->loc);
    }
    SubExp n = lower_binop(l, OP_QUOT, num, step, e->loc);
    SubExp ok = lower_binop(l, OP_GE, n, se_i64(0), e->loc);
    if (!l->opts->unsafe) lower_assert(l, ok, msg, shown, nshown, e->loc);
    IrExp *ie = lower_new_exp(l, IE_IOTA);
    ie->n = n;
    ie->start = a;
    ie->step = lower_conv(l, step, t, e->loc);
    ie->t = t;
    SubExp *shape = NEW_ARRAY(l->a, SubExp, 1);
    shape[0] = n;
    return sv_dyn(l, lower_emit1(l, ie, type_array(l->a, t, 1, shape), e->loc));
}
