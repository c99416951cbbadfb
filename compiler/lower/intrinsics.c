/* Internalisation of the prelude's intrinsics (definitions whose body is
 * `__intrinsic "name"`) and of the built-in numeric modules
 * (check/numeric.def) into SOACS IR. Every array operation works on each
 * leaf of an array value, so arrays of tuples and records need no special
 * cases. filter and partition are a scan of their keep flags, whose last
 * element is the count kept, and a scatter (do_filter). */
#include "lower.h"

#include <math.h>
#include <string.h>

/* ---- Helpers ---------------------------------------------------------------------- */

static SubExpVec leaves_of(Lower *l, SVal *v) {
    SubExpVec out = {0};
    sv_leaves(l, v, &out);
    return out;
}

static Var **leaf_vars(Lower *l, const SubExpVec *v, int extra_front) {
    Var **vs = NEW_ARRAY(l->a, Var *, v->len + extra_front);
    for (int i = 0; i < v->len; i++) {
        if (!v->items[i].is_var) ICE("array leaf is a constant");
        vs[extra_front + i] = v->items[i].v;
    }
    return vs;
}

/* The array type [w] ++ t. */
Type lower_outer_type(Lower *l, SubExp w, Type t) {
    int rank = t.kind == TK_ARRAY ? t.rank + 1 : 1;
    SubExp *shape = NEW_ARRAY(l->a, SubExp, rank);
    shape[0] = w;
    for (int i = 1; i < rank; i++) shape[i] = t.shape[i - 1];
    return type_array(l->a, t.elem, rank, shape);
}

/* Starts a lambda body with fresh parameters of the given types. */
Lambda *lower_lambda_begin(Lower *l, const Type *types, int n, Builder **saved, Builder *nb) {
    Lambda *lam = NEW(l->a, Lambda);
    lam->params = NEW_ARRAY(l->a, Var *, n);
    lam->nparams = n;
    for (int i = 0; i < n; i++) lam->params[i] = ir_var(l->prog, "p", types[i]);
    *saved = l->b;
    *nb = (Builder){0};
    l->b = nb;
    return lam;
}

/* Ends a body whose statements went to nb (l->b was saved): restores the
 * builder and returns the statements with results res. */
Body *lower_body_end(Lower *l, Builder *saved, Builder *nb, const SubExp *res, int nres) {
    l->b = saved;
    Body *body = NEW(l->a, Body);
    body->stms = vec_to_arena(l->a, &nb->stms);
    body->nstms = nb->stms.len;
    body->res = NEW_ARRAY(l->a, SubExp, nres);
    COPY_ARRAY(body->res, res, nres);
    body->nres = nres;
    return body;
}

void lower_lambda_end(Lower *l, Lambda *lam, Builder *saved, Builder *nb, const SubExp *res, int nres) {
    lam->body = lower_body_end(l, saved, nb, res, nres);
    lam->nret = nres;
    lam->ret = NEW_ARRAY(l->a, Type, nres);
    for (int i = 0; i < nres; i++) lam->ret[i] = subexp_type(res[i]);
}

SubExp lower_if_one(Lower *l, SubExp cond, Body *tbody, Body *fbody, Type t, SrcLoc loc) {
    IrExp *ie = lower_new_exp(l, IE_IF);
    ie->cond = cond;
    ie->tbody = tbody;
    ie->fbody = fbody;
    ie->ret = NEW(l->a, Type);
    ie->ret[0] = t;
    ie->nret = 1;
    return lower_emit1(l, ie, t, loc);
}

static Type *row_types(Lower *l, const SubExpVec *arrs) {
    Type *ts = NEW_ARRAY(l->a, Type, arrs->len);
    for (int i = 0; i < arrs->len; i++) ts[i] = type_row(subexp_type(arrs->items[i]));
    return ts;
}

/* The identity lambda over rows of arrs. */
static Lambda *identity_lambda(Lower *l, const SubExpVec *arrs) {
    Builder *saved, nb;
    Lambda *lam = lower_lambda_begin(l, row_types(l, arrs), arrs->len, &saved, &nb);
    SubExp *res = NEW_ARRAY(l->a, SubExp, arrs->len);
    for (int i = 0; i < arrs->len; i++) res[i] = se_var(lam->params[i]);
    lower_lambda_end(l, lam, saved, &nb, res, arrs->len);
    return lam;
}

/* A binary operator lambda on scalars of type t. */
Lambda *lower_prim_op_lambda(Lower *l, Op op, PrimType t) {
    Type ts[2] = {type_prim(t), type_prim(t)};
    Builder *saved, nb;
    Lambda *lam = lower_lambda_begin(l, ts, 2, &saved, &nb);
    SubExp r = lower_binop(l, op, se_var(lam->params[0]), se_var(lam->params[1]), (SrcLoc){0});
    lower_lambda_end(l, lam, saved, &nb, &r, 1);
    return lam;
}

/* A SegOp from a source operator applied to two values shaped like ne. */
static SegOp seg_op(Lower *l, SVal *op, SVal *ne, bool comm, SrcLoc loc) {
    SubExpVec nl = leaves_of(l, ne);
    int k = nl.len;
    Type *ts = NEW_ARRAY(l->a, Type, 2 * k);
    for (int i = 0; i < k; i++) ts[i] = ts[k + i] = subexp_type(nl.items[i]);
    SVal shapes[2] = {*ne, *ne};
    SVal *rshape;
    SegOp s = {0};
    s.op = lower_lambda(l, op, ts, 2 * k, shapes, 2, &rshape, loc);
    s.k = k;
    s.neutral = vec_to_arena(l->a, &nl);
    s.commutative = comm;
    return s;
}

static SubExp width_of(Lower *l, const SubExpVec *arrs, SrcLoc loc) {
    if (arrs->len == 0 || subexp_type(arrs->items[0]).kind != TK_ARRAY) lower_error(l, loc, "expected an array here");
    return lower_dim(l, arrs->items[0], 0);
}

static Var **fresh_vars(Lower *l, const Type *ts, int n) {
    Var **vs = NEW_ARRAY(l->a, Var *, n);
    for (int i = 0; i < n; i++) vs[i] = ir_var(l->prog, ts[i].kind == TK_ARRAY ? "arr" : "x", ts[i]);
    return vs;
}

static SubExp *ses_of(Lower *l, Var **vs, int n) {
    SubExp *s = NEW_ARRAY(l->a, SubExp, n);
    for (int i = 0; i < n; i++) s[i] = se_var(vs[i]);
    return s;
}

/* Emits a Screma and returns its result variables. */
Var **lower_emit_screma(Lower *l, Screma *sc, Type *rtypes, int nres, SrcLoc loc) {
    IrExp *e = lower_new_exp(l, IE_SCREMA);
    e->screma = *sc;
    e->pin = l->pin;
    Var **pat = fresh_vars(l, rtypes, nres);
    lower_emit(l, e, pat, nres, loc);
    return pat;
}

/* ---- SOACs ------------------------------------------------------------------------- */

/* The statement of lam's body that binds v, or NULL. */
static Stm *binding_stm(const Lambda *lam, const Var *v) {
    for (int i = 0; i < lam->body->nstms; i++) {
        Stm *st = lam->body->stms[i];
        for (int j = 0; j < st->npat; j++)
            if (st->pat[j] == v) return st;
    }
    return NULL;
}

/* Whether the lambda asserts that v (a boolean) holds: the condition of
 * one of its assertions, or a conjunct of one (a size check tests all of
 * a value's dimensions at once). */
static bool asserted(const Lambda *lam, const Var *v, int depth) {
    for (int i = 0; i < lam->body->nstms; i++) {
        const IrExp *e = lam->body->stms[i]->e;
        if (e->kind == IE_ASSERT && e->cond.is_var && e->cond.v == v) return true;
    }
    if (depth > 16) return false;
    for (int i = 0; i < lam->body->nstms; i++) {
        const Stm *st = lam->body->stms[i];
        if (st->e->kind != IE_OP || st->e->op != OP_LAND || st->npat != 1) continue;
        for (int k = 0; k < st->e->nargs; k++)
            if (st->e->args[k].is_var && st->e->args[k].v == v && asserted(lam, st->pat[0], depth + 1)) return true;
    }
    return false;
}

/* A size that the lambda asserts d equals (a size coercion's check,
 * `xs[i:i+3] :> [3]t`), other than d; false when there is none. */
static bool asserted_size(const Lambda *lam, SubExp d, SubExp *alt) {
    for (int i = 0; i < lam->body->nstms; i++) {
        const Stm *st = lam->body->stms[i];
        if (st->e->kind != IE_OP || st->e->op != OP_EQ || st->npat != 1 || !asserted(lam, st->pat[0], 0)) continue;
        for (int k = 0; k < 2; k++)
            if (se_same(st->e->args[k], d) && !se_same(st->e->args[1 - k], d)) {
                *alt = st->e->args[1 - k];
                return true;
            }
    }
    return false;
}

/* The sizes of a map's results must be known outside the map. A size that
 * the lambda computes with scalar operations from values bound outside it
 * (such as the length of a slice of each row), or that it asserts to equal
 * such a size, is computed again outside (into *out); one that depends on
 * the element is irregular: false. */
static bool hoist_size(Lower *l, const Lambda *lam, SubExp d, SubExp *out, int depth, SrcLoc loc);

/* hoist_size of a size d that the lambda computes, from its statement. */
static bool hoist_computed(Lower *l, const Lambda *lam, SubExp d, SubExp *out, int depth, SrcLoc loc) {
    for (int i = 0; i < lam->nparams; i++)
        if (lam->params[i] == d.v) return false;
    Stm *st = binding_stm(lam, d.v);
    if (!st) return true;
    if (st->npat != 1 || (st->e->kind != IE_OP && st->e->kind != IE_CONV && st->e->kind != IE_SUBEXP)) return false;
    IrExp *e = lower_new_exp(l, st->e->kind);
    *e = *st->e;
    if (e->kind == IE_SUBEXP) {
        if (!hoist_size(l, lam, st->e->se, &e->se, depth, loc)) return false;
    } else {
        e->args = NEW_ARRAY(l->a, SubExp, e->nargs);
        for (int i = 0; i < e->nargs; i++)
            if (!hoist_size(l, lam, st->e->args[i], &e->args[i], depth, loc)) return false;
    }
    *out = lower_emit1(l, e, st->pat[0]->type, loc);
    return true;
}

static bool hoist_size(Lower *l, const Lambda *lam, SubExp d, SubExp *out, int depth, SrcLoc loc) {
    *out = d;
    if (!d.is_var || hoist_computed(l, lam, d, out, depth, loc)) return true;
    SubExp alt;
    return depth < 8 && asserted_size(lam, d, &alt) && hoist_size(l, lam, alt, out, depth + 1, loc);
}

bool lower_map_result_type(Lower *l, const Lambda *lam, SubExp w, Type t, Type *out, bool *regular, SrcLoc loc) {
    bool all = true;
    if (t.kind == TK_ARRAY) {
        SubExp *shape = NEW_ARRAY(l->a, SubExp, t.rank);
        for (int d = 0; d < t.rank; d++) {
            bool ok = hoist_size(l, lam, t.shape[d], &shape[d], 0, loc);
            if (regular) regular[d] = ok;
            all &= ok;
        }
        t = type_array(l->a, t.elem, t.rank, shape);
    }
    *out = lower_outer_type(l, w, t);
    return all;
}

static SVal *do_map(Lower *l, SVal *f, SVal *xs, SrcLoc loc) {
    if (sv_irregular(xs)) return lower_map_rows(l, f, xs, loc);
    SubExpVec arrs = leaves_of(l, xs);
    SubExp w = width_of(l, &arrs, loc);
    SVal *rshape;
    Lambda *lam = lower_lambda(l, f, row_types(l, &arrs), arrs.len, xs, 1, &rshape, loc);
    Screma sc = {.w = w, .arrs = leaf_vars(l, &arrs, 0), .narrs = arrs.len, .map = lam};
    Type *rt = NEW_ARRAY(l->a, Type, lam->nret);
    for (int i = 0; i < lam->nret; i++)
        if (!lower_map_result_type(l, lam, w, lam->ret[i], &rt[i], NULL, loc))
            return lower_map_rows(l, f, xs, loc); /* irregular results */
    SVal *v = lower_loop_resizes(lam) ? lower_map_interchanged(l, f, xs, loc) : NULL;
    if (v) return v; /* a loop no kernel could allocate for */
    Var **pat = lower_emit_screma(l, &sc, rt, lam->nret, loc);
    int pos = 0;
    return sv_rebuild(l, rshape, ses_of(l, pat, lam->nret), &pos);
}

static SVal *do_reduce_or_scan(Lower *l, SVal *op, SVal *ne, SVal *xs, bool scan, bool comm, SrcLoc loc) {
    SubExpVec arrs = leaves_of(l, xs);
    SubExp w = width_of(l, &arrs, loc);
    SegOp so = seg_op(l, op, ne, comm, loc);
    Screma sc = {.w = w, .arrs = leaf_vars(l, &arrs, 0), .narrs = arrs.len, .map = identity_lambda(l, &arrs)};
    if (scan) {
        sc.scans = NEW(l->a, SegOp);
        *sc.scans = so;
        sc.nscans = 1;
    } else {
        sc.reds = NEW(l->a, SegOp);
        *sc.reds = so;
        sc.nreds = 1;
    }
    Type *rt = NEW_ARRAY(l->a, Type, so.k);
    for (int i = 0; i < so.k; i++) {
        Type t = subexp_type(so.neutral[i]);
        rt[i] = scan ? lower_outer_type(l, w, t) : t;
    }
    Var **pat = lower_emit_screma(l, &sc, rt, so.k, loc);
    int pos = 0;
    return sv_rebuild(l, ne, ses_of(l, pat, so.k), &pos);
}

/* The arrays a scatter or histogram reads: the indices, then the values,
 * which must be as many (checked at run time). */
static SubExpVec index_and_values(Lower *l, SVal *is, SVal *vs, SrcLoc loc) {
    SubExpVec il = leaves_of(l, is), vl = leaves_of(l, vs), arrs = {0};
    vec_push_in(l->a, &arrs, il.items[0]);
    for (int i = 0; i < vl.len; i++) vec_push_in(l->a, &arrs, vl.items[i]);
    if (!l->opts->unsafe && vl.len > 0) {
        SubExp ni = width_of(l, &il, loc), nv = width_of(l, &vl, loc);
        SubExp args[2] = {ni, nv};
        lower_assert(l, lower_binop(l, OP_EQ, ni, nv, loc), "{} indices but {} values.", args, 2, loc);
    }
    return arrs;
}

/* Emits e, which binds new versions of the leaves dl of dest, and returns
 * them shaped like dest. */
static SVal *emit_updating(Lower *l, IrExp *e, SVal *dest, SubExpVec *dl, SrcLoc loc) {
    int k = dl->len;
    Type *ts = NEW_ARRAY(l->a, Type, k);
    for (int i = 0; i < k; i++) ts[i] = subexp_type(dl->items[i]);
    Var **pat = fresh_vars(l, ts, k);
    lower_emit(l, e, pat, k, loc);
    int pos = 0;
    return sv_rebuild(l, dest, ses_of(l, pat, k), &pos);
}

/* scatter dest is vs: every leaf of dest receives the same indices. */
static SVal *do_scatter(Lower *l, SVal *dest, SVal *is, SVal *vs, SrcLoc loc) {
    SubExpVec dl = leaves_of(l, dest), arrs = index_and_values(l, is, vs, loc);
    int k = dl.len;
    Builder *saved, nb;
    Lambda *lam = lower_lambda_begin(l, row_types(l, &arrs), arrs.len, &saved, &nb);
    SubExp *res = NEW_ARRAY(l->a, SubExp, 2 * k);
    for (int i = 0; i < k; i++) {
        res[i] = se_var(lam->params[0]);
        res[k + i] = se_var(lam->params[1 + i]);
    }
    lower_lambda_end(l, lam, saved, &nb, res, 2 * k);
    IrExp *e = lower_new_exp(l, IE_SCATTER);
    e->scatter = (Scatter){.w = width_of(l, &arrs, loc), .arrs = leaf_vars(l, &arrs, 0), .narrs = arrs.len,
                           .lam = lam, .dests = leaf_vars(l, &dl, 0), .ndests = k};
    return emit_updating(l, e, dest, &dl, loc);
}

static SVal *do_reduce_by_index(Lower *l, SVal *dest, SVal *op, SVal *ne, SVal *is, SVal *as, SrcLoc loc) {
    SubExpVec dl = leaves_of(l, dest), arrs = index_and_values(l, is, as, loc);
    IrExp *e = lower_new_exp(l, IE_HIST);
    e->hist = (Hist){.w = width_of(l, &arrs, loc), .arrs = leaf_vars(l, &arrs, 0), .narrs = arrs.len,
                     .lam = identity_lambda(l, &arrs), .dest_w = width_of(l, &dl, loc),
                     .dests = leaf_vars(l, &dl, 0), .op = seg_op(l, op, ne, true, loc)};
    return emit_updating(l, e, dest, &dl, loc);
}

/* An uninitialised array [n] ++ row for each leaf of xs. */
static Var **scratch_like(Lower *l, const SubExpVec *xs, SubExp n, SrcLoc loc) {
    Var **vs = NEW_ARRAY(l->a, Var *, xs->len);
    for (int i = 0; i < xs->len; i++) {
        IrExp *e = lower_new_exp(l, IE_SCRATCH);
        e->type = lower_outer_type(l, n, type_row(subexp_type(xs->items[i])));
        vs[i] = lower_emit1(l, e, e->type, loc).v;
    }
    return vs;
}

/* The total of an inclusive prefix sum offs of w i64 elements: its last
 * element, or 0 when it is empty (a branch: offs[w-1] is out of bounds then). */
SubExp lower_scan_total(Lower *l, SubExp offs, SubExp w, SrcLoc loc) {
    SubExp empty = lower_binop(l, OP_EQ, w, se_i64(0), loc);
    Builder *saved = l->b, nb = {0};
    l->b = &nb;
    DimSlice *last = NEW(l->a, DimSlice);
    last->index = lower_binop(l, OP_SUB, w, se_i64(1), loc);
    IrExp *ix = lower_new_exp(l, IE_INDEX);
    ix->arr = offs.v;
    ix->slice = last;
    ix->nslice = 1;
    SubExp x = lower_emit1(l, ix, type_prim(PT_I64), loc);
    SubExp zero = se_i64(0);
    Builder none = {0};
    Body *fbody = lower_body_end(l, saved, &nb, &x, 1);
    return lower_if_one(l, empty, lower_body_end(l, saved, &none, &zero, 1), fbody, type_prim(PT_I64), loc);
}

Var **lower_compact(Lower *l, const SubExpVec *xl, SubExp w, SubExp offs, SubExp flags, SubExp count, bool partition,
                    SubExp len, SrcLoc loc) {
    int n = xl->len;
    Builder *saved, nb;
    SubExpVec arrs = {0};
    vec_push_in(l->a, &arrs, offs);
    vec_push_in(l->a, &arrs, flags);
    if (partition) {
        IrExp *io = lower_new_exp(l, IE_IOTA);
        io->n = w;
        io->start = se_i64(0);
        io->step = se_i64(1);
        io->t = PT_I64;
        SubExp *shape = NEW_ARRAY(l->a, SubExp, 1);
        shape[0] = w;
        vec_push_in(l->a, &arrs, lower_emit1(l, io, type_array(l->a, PT_I64, 1, shape), loc));
    }
    int extra = arrs.len;
    for (int i = 0; i < n; i++) vec_push_in(l->a, &arrs, xl->items[i]);
    Lambda *lam = lower_lambda_begin(l, row_types(l, &arrs), arrs.len, &saved, &nb);
    SubExp o = se_var(lam->params[0]);
    SubExp bi = lower_conv(l, se_var(lam->params[1]), PT_I64, loc);
    /* true elements go to o-1; false ones to -1 (dropped) or count+i-o */
    SubExp t_idx = lower_binop(l, OP_SUB, o, se_i64(1), loc);
    SubExp f_idx = se_i64(-1);
    if (partition)
        f_idx = lower_binop(l, OP_SUB, lower_binop(l, OP_ADD, count, se_var(lam->params[2]), loc), o, loc);
    SubExp nbi = lower_binop(l, OP_SUB, se_i64(1), bi, loc);
    SubExp idx = lower_binop(l, OP_ADD, lower_binop(l, OP_MUL, bi, t_idx, loc), lower_binop(l, OP_MUL, nbi, f_idx, loc), loc);
    SubExp *res = NEW_ARRAY(l->a, SubExp, 2 * n);
    for (int i = 0; i < n; i++) {
        res[i] = idx;
        res[n + i] = se_var(lam->params[extra + i]);
    }
    lower_lambda_end(l, lam, saved, &nb, res, 2 * n);
    Var **dests = scratch_like(l, xl, len, loc);
    IrExp *e = lower_new_exp(l, IE_SCATTER);
    e->scatter = (Scatter){.w = w, .arrs = leaf_vars(l, &arrs, 0), .narrs = arrs.len, .lam = lam, .dests = dests,
                           .ndests = n};
    Type *ts = NEW_ARRAY(l->a, Type, n);
    for (int i = 0; i < n; i++) ts[i] = dests[i]->type;
    Var **out = fresh_vars(l, ts, n);
    lower_emit(l, e, out, n, loc);
    return out;
}

/* filter and partition: a Screma computes the flags and their prefix sum
 * (the offsets) in one pass; the count of kept elements is the sum's last
 * element (lower_scan_total), not a reduction of its own, which would cost the
 * scan a second kernel. A Scatter moves each element to its place. */
static SVal *do_filter(Lower *l, SVal *p, SVal *xs, bool partition, SrcLoc loc) {
    SubExpVec xl = leaves_of(l, xs);
    SubExp w = width_of(l, &xl, loc);
    int n = xl.len;
    /* map: x -> (flag, b) */
    Builder *saved, nb;
    Lambda *map = lower_lambda_begin(l, row_types(l, &xl), n, &saved, &nb);
    int pos = 0;
    SVal *row = sv_rebuild(l, xs, ses_of(l, map->params, n), &pos);
    SVal *b = lower_apply(l, p, &row, 1, NULL);
    SubExp mres[2] = {lower_conv(l, b->se, PT_I64, loc), b->se};
    lower_lambda_end(l, map, saved, &nb, mres, 2);
    SegOp *plus = NEW(l->a, SegOp);
    *plus = (SegOp){.op = lower_prim_op_lambda(l, OP_ADD, PT_I64), .neutral = NEW(l->a, SubExp), .k = 1, .commutative = true};
    plus->neutral[0] = se_i64(0);
    Screma sc = {.w = w, .arrs = leaf_vars(l, &xl, 0), .narrs = n, .scans = plus, .nscans = 1, .map = map};
    Type rt[2] = {lower_outer_type(l, w, type_prim(PT_I64)), lower_outer_type(l, w, type_prim(PT_BOOL))};
    Var **r = lower_emit_screma(l, &sc, rt, 2, loc);
    SubExp offs = se_var(r[0]), flags = se_var(r[1]);
    SubExp count = lower_scan_total(l, offs, w, loc);

    Var **out = lower_compact(l, &xl, w, offs, flags, count, partition, partition ? w : count, loc);
    pos = 0;
    if (!partition) return sv_rebuild(l, xs, ses_of(l, out, n), &pos);
    /* split the partitioned arrays at count */
    SubExp *first = NEW_ARRAY(l->a, SubExp, n), *second = NEW_ARRAY(l->a, SubExp, n);
    SubExp rest = lower_binop(l, OP_SUB, w, count, loc);
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < n; i++) {
            DimSlice *s = NEW(l->a, DimSlice);
            s->is_slice = true;
            s->start = k == 0 ? se_i64(0) : count;
            s->len = k == 0 ? count : rest;
            s->stride = se_i64(1);
            IrExp *ix = lower_new_exp(l, IE_INDEX);
            ix->arr = out[i];
            ix->slice = s;
            ix->nslice = 1;
            Type t = out[i]->type;
            t.shape = NEW_ARRAY(l->a, SubExp, t.rank);
            COPY_ARRAY(t.shape, out[i]->type.shape, t.rank);
            t.shape[0] = s->len;
            t.unique = false;
            (k == 0 ? first : second)[i] = lower_emit1(l, ix, t, loc);
        }
    }
    SVal *parts[2];
    pos = 0;
    parts[0] = sv_rebuild(l, xs, first, &pos);
    pos = 0;
    parts[1] = sv_rebuild(l, xs, second, &pos);
    return sv_tuple(l, parts, 2);
}

/* ---- Array primitives -------------------------------------------------------------- */

static SVal *each_leaf(Lower *l, SVal *v, SubExp (*fn)(Lower *, SubExp, void *), void *ctx) {
    SubExpVec lv = leaves_of(l, v);
    SubExp *res = NEW_ARRAY(l->a, SubExp, lv.len);
    for (int i = 0; i < lv.len; i++) res[i] = fn(l, lv.items[i], ctx);
    int pos = 0;
    return sv_rebuild(l, v, res, &pos);
}

typedef struct LeafCtx {
    SrcLoc loc;
    SubExp n;
    SubExp *shape;
    int rank;
} LeafCtx;

static SubExp leaf_replicate(Lower *l, SubExp x, void *vc) {
    LeafCtx *c = vc;
    IrExp *e = lower_new_exp(l, IE_REPLICATE);
    e->shape = NEW_ARRAY(l->a, SubExp, 1);
    e->shape[0] = c->n;
    e->nshape = 1;
    e->se = x;
    return lower_emit1(l, e, lower_outer_type(l, c->n, subexp_type(x)), c->loc);
}

static SubExp leaf_copy(Lower *l, SubExp x, void *vc) {
    LeafCtx *c = vc;
    if (subexp_type(x).kind != TK_ARRAY) return x;
    IrExp *e = lower_new_exp(l, IE_COPY);
    e->arr = x.v;
    Type t = subexp_type(x);
    t.unique = true;
    return lower_emit1(l, e, t, c->loc);
}

/* Replaces the leading nold dimensions of x by the new dims. */
static SubExp reshape_leaf(Lower *l, SubExp x, int nold, const SubExp *dims, int ndims, SrcLoc loc) {
    Type t = subexp_type(x);
    int rank = t.rank - nold + ndims;
    SubExp *shape = NEW_ARRAY(l->a, SubExp, rank);
    for (int i = 0; i < ndims; i++) shape[i] = dims[i];
    for (int i = nold; i < t.rank; i++) shape[ndims + i - nold] = t.shape[i];
    IrExp *e = lower_new_exp(l, IE_RESHAPE);
    e->arr = x.v;
    e->shape = shape;
    e->nshape = rank;
    return lower_emit1(l, e, type_array(l->a, t.elem, rank, shape), loc);
}

static SubExp leaf_flatten(Lower *l, SubExp x, void *vc) {
    LeafCtx *c = vc;
    Type t = subexp_type(x);
    if (t.kind != TK_ARRAY || t.rank < 2) lower_error(l, c->loc, "flatten needs an array of rank 2 or more");
    /* size_mul, as unflatten's check: the product of the two dimensions of
     * an existing array overflows only when its other dimensions hold no
     * elements, and then INT64_MAX rows of none are as safe as any */
    SubExp n = lower_binop(l, OP_SIZE_MUL, t.shape[0], t.shape[1], c->loc);
    return reshape_leaf(l, x, 2, &n, 1, c->loc);
}

SubExp lower_flatten_leaf(Lower *l, SubExp x, SrcLoc loc) {
    LeafCtx c = {.loc = loc};
    return leaf_flatten(l, x, &c);
}

static SubExp leaf_unflatten(Lower *l, SubExp x, void *vc) {
    LeafCtx *c = vc;
    return reshape_leaf(l, x, 1, c->shape, 2, c->loc);
}

static SubExp leaf_transpose(Lower *l, SubExp x, void *vc) {
    LeafCtx *c = vc;
    Type t = subexp_type(x);
    if (t.kind != TK_ARRAY || t.rank < 2) lower_error(l, c->loc, "transpose needs an array of rank 2 or more");
    IrExp *e = lower_new_exp(l, IE_REARRANGE);
    e->arr = x.v;
    e->perm = NEW_ARRAY(l->a, int, t.rank);
    SubExp *shape = NEW_ARRAY(l->a, SubExp, t.rank);
    for (int i = 0; i < t.rank; i++) {
        e->perm[i] = i == 0 ? 1 : i == 1 ? 0 : i;
        shape[i] = t.shape[e->perm[i]];
    }
    return lower_emit1(l, e, type_array(l->a, t.elem, t.rank, shape), c->loc);
}

static SVal *do_concat(Lower *l, SVal *xs, SVal *ys, SrcLoc loc) {
    SubExpVec xl = leaves_of(l, xs), yl = leaves_of(l, ys);
    SubExp *res = NEW_ARRAY(l->a, SubExp, xl.len);
    for (int i = 0; i < xl.len; i++) {
        Type t = subexp_type(xl.items[i]);
        IrExp *e = lower_new_exp(l, IE_CONCAT);
        e->arrs = NEW_ARRAY(l->a, Var *, 2);
        e->arrs[0] = xl.items[i].v;
        e->arrs[1] = yl.items[i].v;
        e->narrs = 2;
        e->len = lower_binop(l, OP_ADD, t.shape[0], lower_dim(l, yl.items[i], 0), loc);
        Type rt = lower_outer_type(l, e->len, type_row(t));
        rt.unique = true;
        res[i] = lower_emit1(l, e, rt, loc);
    }
    int pos = 0;
    return sv_rebuild(l, xs, res, &pos);
}

/* zip checks that all arrays have the same length and pairs them up
 * (irregular arrays stay irregular). */
static SVal *do_zip(Lower *l, SVal **args, int nargs, SrcLoc loc) {
    if (!l->opts->unsafe) {
        SubExp w = lower_width(l, args[0], loc);
        for (int i = 1; i < nargs; i++) {
            SubExp wi = lower_width(l, args[i], loc);
            SubExp ok = lower_binop(l, OP_EQ, w, wi, loc);
            SubExp msg[2] = {w, wi};
            lower_assert(l, ok, "Cannot zip arrays of sizes {} and {}.", msg, 2, loc);
        }
    }
    return sv_tuple(l, args, nargs);
}

/* iota n is Futhark's 0..<n: a negative n is an invalid range (checked
 * here, so that the check stays where the iota is fused away). */
static SVal *do_iota(Lower *l, SubExp n, SrcLoc loc) {
    if (!l->opts->unsafe) {
        SubExp args[1] = {n};
        lower_assert(l, lower_binop(l, OP_GE, n, se_i64(0), loc), "Range 0..1..<{} is invalid.", args, 1, loc);
    }
    IrExp *e = lower_new_exp(l, IE_IOTA);
    e->n = n;
    e->start = se_i64(0);
    e->step = se_i64(1);
    e->t = PT_I64;
    SubExp *shape = NEW_ARRAY(l->a, SubExp, 1);
    shape[0] = n;
    Type t = type_array(l->a, PT_I64, 1, shape);
    t.unique = true;
    return sv_dyn(l, lower_emit1(l, e, t, loc));
}

/* ---- Flat slices (Futhark's intrinsics.flat_index_Nd, flat_update_Nd) ---------------- */

/* Asserts that the flat slice (off; lens[d] * strides[d]) of an array of n
 * rows stays within its rows: the lengths are not negative, and unless one
 * is 0 (no element), the first row and every extreme one is in [0, n).
 * Each dimension's span |stride| * (len - 1) is size_mul's (saturating) and
 * taken as at most n, so the running bounds stay within [-4n, 5n): exact for
 * any n below 2^60, and only arrays whose rows hold no elements are longer. */
static void flat_check(Lower *l, SubExp n, SubExp off, const SubExp *lens, const SubExp *strides, int k, SrcLoc loc) {
    if (l->opts->unsafe) return;
    SubExp zero = se_i64(0), one = se_i64(1);
    SubExp sizes_ok = se_bool(true), empty = se_bool(false);
    SubExp ok = lower_binop(l, OP_LAND, lower_binop(l, OP_LE, zero, off, loc), lower_binop(l, OP_LT, off, n, loc), loc);
    SubExp lo = off, hi = off;
    for (int d = 0; d < k; d++) {
        sizes_ok = lower_binop(l, OP_LAND, sizes_ok, lower_binop(l, OP_GE, lens[d], zero, loc), loc);
        empty = lower_binop(l, OP_LOR, empty, lower_binop(l, OP_EQ, lens[d], zero, loc), loc);
        SubExp ext = lower_binop(l, OP_SUB, lens[d], one, loc);
        SubExp span = lower_binop(l, OP_SIZE_MUL, ext, lower_unop(l, OP_ABS, strides[d], loc), loc);
        ok = lower_binop(l, OP_LAND, ok, lower_binop(l, OP_GE, span, zero, loc), loc);
        span = lower_binop(l, OP_MIN, lower_binop(l, OP_MAX, span, zero, loc), n, loc);
        SubExp sgn = lower_unop(l, OP_SGN, strides[d], loc);
        hi = lower_binop(l, OP_ADD, hi, lower_binop(l, OP_MUL, span, lower_binop(l, OP_MAX, sgn, zero, loc), loc), loc);
        lo = lower_binop(l, OP_ADD, lo, lower_binop(l, OP_MUL, span, lower_binop(l, OP_MIN, sgn, zero, loc), loc), loc);
    }
    ok = lower_binop(l, OP_LAND, ok, lower_binop(l, OP_LE, zero, lo, loc), loc);
    ok = lower_binop(l, OP_LAND, ok, lower_binop(l, OP_LT, hi, n, loc), loc);
    ok = lower_binop(l, OP_LAND, sizes_ok, lower_binop(l, OP_LOR, empty, ok, loc), loc);
    Buf msg = {0};
    buf_puts(&msg, "Flat slice out of bounds: offset {} and shape [");
    for (int d = 0; d < k; d++) buf_puts(&msg, d ? "][{}" : "{}");
    buf_puts(&msg, "] with strides [");
    for (int d = 0; d < k; d++) buf_puts(&msg, d ? ", {}" : "{}");
    buf_puts(&msg, "] in an array of {} elements.");
    SubExp *args = NEW_ARRAY(l->a, SubExp, 2 * k + 2);
    args[0] = off;
    for (int d = 0; d < k; d++) args[1 + d] = lens[d], args[1 + k + d] = strides[d];
    args[2 * k + 1] = n;
    lower_assert(l, ok, arena_strdup(l->a, msg.data), args, 2 * k + 2, loc);
    buf_free(&msg);
}

static DimSlice *flat_dims(Lower *l, const SubExp *lens, const SubExp *strides, int k) {
    DimSlice *sl = NEW_ARRAY(l->a, DimSlice, k);
    for (int d = 0; d < k; d++) sl[d] = (DimSlice){.is_slice = true, .start = se_i64(0), .len = lens[d], .stride = strides[d]};
    return sl;
}

/* flat_index xs off n_1 s_1 .. n_k s_k: a view of every leaf of xs. */
static SVal *do_flat_index(Lower *l, SVal **args, int nargs, SrcLoc loc) {
    int k = (nargs - 2) / 2;
    SubExpVec xl = leaves_of(l, args[0]);
    SubExp *lens = NEW_ARRAY(l->a, SubExp, k), *strides = NEW_ARRAY(l->a, SubExp, k);
    for (int d = 0; d < k; d++) lens[d] = args[2 + 2 * d]->se, strides[d] = args[3 + 2 * d]->se;
    if (xl.len) flat_check(l, lower_dim(l, xl.items[0], 0), args[1]->se, lens, strides, k, loc);
    DimSlice *sl = flat_dims(l, lens, strides, k);
    SubExp *res = NEW_ARRAY(l->a, SubExp, xl.len + 1);
    for (int i = 0; i < xl.len; i++) {
        Type t = subexp_type(xl.items[i]);
        int rank = k + t.rank - 1;
        SubExp *shape = NEW_ARRAY(l->a, SubExp, rank);
        for (int d = 0; d < rank; d++) shape[d] = d < k ? lens[d] : t.shape[d - k + 1];
        IrExp *e = lower_new_exp(l, IE_FLAT_INDEX);
        e->arr = xl.items[i].v;
        e->start = args[1]->se;
        e->slice = sl;
        e->nslice = k;
        res[i] = lower_emit1(l, e, type_array(l->a, t.elem, rank, shape), loc);
    }
    int pos = 0;
    return sv_rebuild(l, args[0], res, &pos);
}

/* flat_update xs off s_1 .. s_k vs: every leaf of xs (consumed) with the
 * flat slice of vs's shape written from vs's leaf. */
static SVal *do_flat_update(Lower *l, SVal **args, int nargs, SrcLoc loc) {
    int k = nargs - 3;
    SubExpVec xl = leaves_of(l, args[0]), vl = leaves_of(l, args[nargs - 1]);
    if (!xl.len || vl.len != xl.len) return args[0];
    Type vt = subexp_type(vl.items[0]);
    SubExp *lens = NEW_ARRAY(l->a, SubExp, k), *strides = NEW_ARRAY(l->a, SubExp, k);
    for (int d = 0; d < k; d++) lens[d] = vt.shape[d], strides[d] = args[2 + d]->se;
    flat_check(l, lower_dim(l, xl.items[0], 0), args[1]->se, lens, strides, k, loc);
    DimSlice *sl = flat_dims(l, lens, strides, k);
    SubExp *res = NEW_ARRAY(l->a, SubExp, xl.len);
    for (int i = 0; i < xl.len; i++) {
        Type t = subexp_type(xl.items[i]), got = subexp_type(vl.items[i]);
        for (int d = 1; d < t.rank && !l->opts->unsafe; d++) {
            /* the value's rows must have the array's row shape */
            SubExp ok = lower_binop(l, OP_EQ, t.shape[d], got.shape[k - 1 + d], loc);
            SubExp margs[2] = {got.shape[k - 1 + d], t.shape[d]};
            lower_assert(l, ok, "Value with rows of size [{}] cannot be written to rows of size [{}].", margs, 2, loc);
        }
        IrExp *e = lower_new_exp(l, IE_FLAT_UPDATE);
        e->arr = xl.items[i].v;
        e->start = args[1]->se;
        e->slice = sl;
        e->nslice = k;
        e->se = vl.items[i];
        res[i] = lower_emit1(l, e, t, loc);
    }
    int pos = 0;
    return sv_rebuild(l, args[0], res, &pos);
}

/* The sizes [n][m] that unflatten produces, from the call's checked type. */
static bool unflatten_dims(Lower *l, Exp *call, Env *env, const Intrinsic *in, SubExp out[2]) {
    const Ty *t = call ? call->ty : NULL;
    if (t && t->kind == TY_ARRAY && t->rank >= 2 && t->dims[0].kind != SZ_ANY && t->dims[1].kind != SZ_ANY) {
        for (int i = 0; i < 2; i++) out[i] = lower_size(l, env, &t->dims[i], call->loc);
        return true;
    }
    /* a function value (map unflatten, sized (n * m) >-> unflatten): the
     * sizes its use instantiated its size parameters [n][m] to */
    const Ref *inst = in ? in->inst : NULL;
    int k = 0;
    for (int i = 0; inst && in->decl && i < in->decl->ntparams && k < 2; i++) {
        if (in->decl->tparams[i].kind != TP_SIZE) continue;
        int j = 0;
        while (j < inst->ninst && inst->inst_keys[j] != in->decl->tparams[i].uid) j++;
        if (j == inst->ninst || !lower_try_size(l, in->inst_env, &inst->inst_sizes[j], &out[k])) return false;
        k++;
    }
    return k == 2;
}

SubExp lower_equal_arrays(Lower *l, SubExp a, SubExp b, SrcLoc loc) {
    Type ta = subexp_type(a), tb = subexp_type(b);
    if (ta.rank != tb.rank) return se_bool(false);
    SubExp same = se_bool(true);
    for (int d = 0; d < ta.rank; d++)
        same = lower_binop(l, OP_LAND, same, lower_binop(l, OP_EQ, ta.shape[d], tb.shape[d], loc), loc);
    /* the elements, compared only when the shapes agree: flattened, then
     * reduce (&&) true (map2 (==)) */
    Builder *saved = l->b, nb = {0};
    l->b = &nb;
    SubExp n = ta.shape[0];
    for (int d = 1; d < ta.rank; d++) n = lower_binop(l, OP_SIZE_MUL, n, ta.shape[d], loc);
    SubExp fa = reshape_leaf(l, a, ta.rank, &n, 1, loc), fb = reshape_leaf(l, b, tb.rank, &n, 1, loc);
    SegOp *all = NEW(l->a, SegOp); /* the statement keeps it */
    *all = (SegOp){lower_prim_op_lambda(l, OP_LAND, PT_BOOL), NEW_ARRAY(l->a, SubExp, 1), 1, true, false};
    all->neutral[0] = se_bool(true);
    Screma sc = {.w = n, .arrs = NEW_ARRAY(l->a, Var *, 2), .narrs = 2, .reds = all, .nreds = 1,
                 .map = lower_prim_op_lambda(l, OP_EQ, ta.elem)};
    sc.arrs[0] = fa.v, sc.arrs[1] = fb.v;
    Type bt = type_prim(PT_BOOL);
    SubExp eq = se_var(lower_emit_screma(l, &sc, &bt, 1, loc)[0]), differ = se_bool(false);
    Builder none = {0};
    Body *elems = lower_body_end(l, saved, &nb, &eq, 1);
    if (!same.is_var && !same.c.v.b) return differ;
    return lower_if_one(l, same, elems, lower_body_end(l, saved, &none, &differ, 1), bt, loc);
}

SVal *lower_intrinsic(Lower *l, const char *name, SVal **args, int nargs, Exp *call, Env *env, const Intrinsic *in) {
    SrcLoc loc = call ? call->loc : (SrcLoc){0};
    LeafCtx c = {.loc = loc};
    if (!strcmp(name, "map")) return do_map(l, args[0], args[1], loc);
    if (!strcmp(name, "reduce")) return do_reduce_or_scan(l, args[0], args[1], args[2], false, false, loc);
    if (!strcmp(name, "reduce_comm")) return do_reduce_or_scan(l, args[0], args[1], args[2], false, true, loc);
    if (!strcmp(name, "scan")) return do_reduce_or_scan(l, args[0], args[1], args[2], true, false, loc);
    if (!strcmp(name, "scatter")) return do_scatter(l, args[0], args[1], args[2], loc);
    if (!strcmp(name, "reduce_by_index")) return do_reduce_by_index(l, args[0], args[1], args[2], args[3], args[4], loc);
    if (!strcmp(name, "filter")) return do_filter(l, args[0], args[1], false, loc);
    if (!strcmp(name, "partition")) return do_filter(l, args[0], args[1], true, loc);
    if (!strcmp(name, "iota")) return do_iota(l, args[0]->se, loc);
    if (!strcmp(name, "replicate")) {
        c.n = args[0]->se;
        return each_leaf(l, args[1], leaf_replicate, &c);
    }
    if (!strcmp(name, "copy")) return each_leaf(l, args[0], leaf_copy, &c);
    if (!strcmp(name, "zip")) return do_zip(l, args, nargs, loc);
    if (!strcmp(name, "unzip")) return args[0];
    if (!strcmp(name, "unflatten_irregular")) return lower_unflatten_irregular(l, args[0], args[1], loc);
    if (!strcmp(name, "to_irregular")) return lower_to_irregular(l, args[0], loc);
    if (!strcmp(name, "from_irregular")) /* the record {elems, sizes} */
        return lower_unflatten_irregular(l, args[0]->elems[1], args[0]->elems[0], loc);
    if (!strcmp(name, "flatten"))
        return sv_irregular(args[0]) ? lower_flatten_irregular(l, args[0], loc) : each_leaf(l, args[0], leaf_flatten, &c);
    if (!strcmp(name, "transpose")) return each_leaf(l, args[0], leaf_transpose, &c);
    if (!strcmp(name, "concat")) return do_concat(l, args[0], args[1], loc);
    if (!strcmp(name, "flat_index")) return do_flat_index(l, args, nargs, loc);
    if (!strcmp(name, "flat_update")) return do_flat_update(l, args, nargs, loc);
    if (!strcmp(name, "unflatten")) {
        SubExp dims[2];
        if (!unflatten_dims(l, call, env, in, dims))
            lower_error(l, loc, "cannot determine the sizes of this unflatten (use a size coercion such as `xs :> [n*m]t`)");
        SubExpVec lv = leaves_of(l, args[0]);
        if (lv.len && !l->opts->unsafe) {
            /* n * m elements: size_mul is -1 when either is negative (-2 * -2
             * is 4) and never wraps (2^32 * 2^32 is not 0); flatten makes
             * its size with size_mul too, so unflatten (flatten xs) needs
             * no check */
            SubExp nm = lower_binop(l, OP_SIZE_MUL, dims[0], dims[1], loc);
            SubExp w = lower_dim(l, lv.items[0], 0);
            SubExp ok = lower_binop(l, OP_EQ, nm, w, loc);
            SubExp msg[3] = {w, dims[0], dims[1]};
            lower_assert(l, ok, "Cannot unflatten an array of size {} to shape [{}][{}].", msg, 3, loc);
        }
        c.shape = dims;
        return each_leaf(l, args[0], leaf_unflatten, &c);
    }
    lower_error(l, loc, "unknown intrinsic '%s'", name);
}

/* ---- Numeric modules ------------------------------------------------------------- */

typedef enum Lowering {
    L_OP, L_REDUCE, L_HIGHEST, L_LOWEST, L_GET_BIT, L_SET_BIT, L_PI, L_E, L_INF, L_NAN,
    L_CONVERT, L_NUM_BITS, L_MAD_HI, L_TIMES_PI, L_BY_PI, L_RECIP, L_FROM_FRACTION, L_MAD,
    L_LERP, L_LDEXP, L_EPSILON
} Lowering;

static const struct {
    const char *name;
    const char *sig;
    Lowering low;
    Op op;
} numeric_rows[] = {
#define X(name, cls, sig, low, op) {name, sig, low, op},
#include "../check/numeric.def"
#undef X
};

int lower_numeric_arity(int row) {
    int n = 0;
    for (const char *p = numeric_rows[row].sig; (p = strstr(p, "->")); p += 2) n++;
    return n;
}

/* The result type of a row's signature for module type t. */
static PrimType numeric_result(int row, PrimType t) {
    const char *sig = numeric_rows[row].sig;
    const char *last = strrchr(sig, ' ');
    last = last ? last + 1 : sig;
    PrimType r;
    if (!strcmp(last, "t")) return t;
    if (prim_from_name(last, &r)) return r;
    return t;
}

static PrimValue highest(PrimType t, bool high) {
    if (prim_is_float(t)) return prim_float(t, high ? INFINITY : -INFINITY);
    int bits = prim_size(t) * 8;
    if (prim_class(t) == PC_UNSIGNED) return prim_int(t, high ? -1 : 0);
    int64_t max = bits == 64 ? INT64_MAX : (((int64_t)1 << (bits - 1)) - 1);
    return prim_int(t, high ? max : -max - 1);
}

/* An operation of three operands (fma), folded when all are constants. */
static SubExp lower_op3(Lower *l, Op op, SubExp x, SubExp y, SubExp z, SrcLoc loc) {
    PrimType t = subexp_type(x).elem;
    if (!x.is_var && !y.is_var && !z.is_var) {
        PrimValue vals[3] = {x.c, y.c, z.c}, out;
        if (prim_eval(op, vals, &out)) return se_const(out);
    }
    IrExp *e = lower_new_exp(l, IE_OP);
    e->op = op;
    e->t = t;
    e->args = NEW_ARRAY(l->a, SubExp, 3);
    e->args[0] = x, e->args[1] = y, e->args[2] = z;
    e->nargs = 3;
    return lower_emit1(l, e, type_prim(op_result(op, t)), loc);
}

/* get_bit: bit `bit` of x (of a float's bits), as an i32. */
static SubExp lower_get_bit(Lower *l, SubExp bitno, SubExp x, SrcLoc loc) {
    if (prim_is_float(subexp_type(x).elem)) x = lower_unop(l, OP_TO_BITS, x, loc);
    PrimType t = subexp_type(x).elem;
    SubExp bit = lower_conv(l, bitno, t, loc);
    SubExp sh = lower_binop(l, OP_LSHR, x, bit, loc);
    SubExp one = lower_binop(l, OP_AND, sh, se_const(prim_int(t, 1)), loc);
    return lower_conv(l, one, PT_I32, loc);
}

/* set_bit: x with bit `bit` set to the lowest bit of b (of a float's bits). */
static SubExp lower_set_bit(Lower *l, SubExp bitno, SubExp x, SubExp b, SrcLoc loc) {
    bool flt = prim_is_float(subexp_type(x).elem);
    if (flt) x = lower_unop(l, OP_TO_BITS, x, loc);
    PrimType t = subexp_type(x).elem;
    SubExp bit = lower_conv(l, bitno, t, loc);
    SubExp mask = lower_binop(l, OP_SHL, se_const(prim_int(t, 1)), bit, loc);
    SubExp cleared = lower_binop(l, OP_AND, x, lower_unop(l, OP_COMPL, mask, loc), loc);
    SubExp low = lower_binop(l, OP_AND, lower_conv(l, b, t, loc), se_const(prim_int(t, 1)), loc);
    SubExp r = lower_binop(l, OP_OR, cleared, lower_binop(l, OP_SHL, low, bit, loc), loc);
    return flt ? lower_unop(l, OP_FROM_BITS, r, loc) : r;
}

/* Numeric-module members made of other operations (numeric.def's L_ rows
 * after L_NUM_BITS), as Futhark's prelude defines them. */
static SubExp lower_numeric_composite(Lower *l, Lowering low, Op op, PrimType t, SVal **args, SrcLoc loc) {
    SubExp pi = se_const(prim_float(t, 3.14159265358979323846)), one = se_const(prim_float(t, 1));
    SubExp x = args[0]->se;
    switch (low) {
    case L_MAD_HI: return lower_binop(l, OP_ADD, lower_binop(l, OP_MUL_HI, x, args[1]->se, loc), args[2]->se, loc);
    case L_TIMES_PI: return lower_unop(l, op, lower_binop(l, OP_MUL, pi, x, loc), loc);
    case L_BY_PI: {
        SubExp r = op_arity(op) == 1 ? lower_unop(l, op, x, loc) : lower_binop(l, op, x, args[1]->se, loc);
        return lower_binop(l, OP_DIV, r, pi, loc);
    }
    case L_RECIP: return lower_binop(l, OP_DIV, one, op ? lower_unop(l, op, x, loc) : x, loc);
    case L_FROM_FRACTION: return lower_binop(l, OP_DIV, lower_conv(l, x, t, loc), lower_conv(l, args[1]->se, t, loc), loc);
    case L_MAD: return lower_binop(l, OP_ADD, lower_binop(l, OP_MUL, x, args[1]->se, loc), args[2]->se, loc);
    case L_LERP: {
        SubExp d = lower_binop(l, OP_SUB, args[1]->se, x, loc);
        return lower_binop(l, OP_ADD, x, lower_binop(l, OP_MUL, d, args[2]->se, loc), loc);
    }
    case L_LDEXP: return lower_binop(l, OP_LDEXP, x, lower_conv(l, args[1]->se, t, loc), loc);
    default: ICE("lower_numeric_composite: row kind %d", (int)low);
    }
}

SVal *lower_numeric(Lower *l, int row, PrimType t, SVal **args, int nargs, SrcLoc loc) {
    Op op = numeric_rows[row].op;
    Lowering low = numeric_rows[row].low;
    switch (low) {
    case L_OP:
        if (nargs == 1) return sv_dyn(l, lower_unop(l, op, args[0]->se, loc));
        if (nargs == 3) return sv_dyn(l, lower_op3(l, op, args[0]->se, args[1]->se, args[2]->se, loc));
        return sv_dyn(l, lower_checked_binop(l, op, args[0]->se, args[1]->se, loc));
    case L_REDUCE: {
        SubExpVec arrs = leaves_of(l, args[0]);
        SubExp w = width_of(l, &arrs, loc);
        SegOp so = {.op = lower_prim_op_lambda(l, op, t), .neutral = NEW(l->a, SubExp), .k = 1, .commutative = true};
        PrimValue ne = op == OP_ADD ? prim_int(t, 0) : op == OP_MUL ? prim_int(t, 1) : highest(t, op == OP_MIN);
        if (prim_is_float(t) && (op == OP_ADD || op == OP_MUL)) ne = prim_float(t, op == OP_ADD ? 0 : 1);
        so.neutral[0] = se_const(ne);
        Screma sc = {.w = w, .arrs = leaf_vars(l, &arrs, 0), .narrs = arrs.len, .reds = NEW(l->a, SegOp), .nreds = 1,
                     .map = identity_lambda(l, &arrs)};
        sc.reds[0] = so;
        Type rt = type_prim(t);
        Var **pat = lower_emit_screma(l, &sc, &rt, 1, loc);
        return sv_dyn(l, se_var(pat[0]));
    }
    case L_HIGHEST: return sv_dyn(l, se_const(highest(t, true)));
    case L_LOWEST: return sv_dyn(l, se_const(highest(t, false)));
    case L_PI: return sv_dyn(l, se_const(prim_float(t, 3.14159265358979323846)));
    case L_E: return sv_dyn(l, se_const(prim_float(t, 2.71828182845904523536)));
    case L_INF: return sv_dyn(l, se_const(prim_float(t, INFINITY)));
    case L_NAN: return sv_dyn(l, se_const(prim_float(t, NAN)));
    case L_EPSILON: /* 2^-(the significand's bits) */
        return sv_dyn(l, se_const(prim_float(t, ldexp(1.0, t == PT_F16 ? -10 : t == PT_F32 ? -23 : -52))));
    case L_GET_BIT: return sv_dyn(l, lower_get_bit(l, args[0]->se, args[1]->se, loc));
    case L_SET_BIT: return sv_dyn(l, lower_set_bit(l, args[0]->se, args[1]->se, args[2]->se, loc));
    case L_CONVERT: return sv_dyn(l, lower_conv(l, args[0]->se, numeric_result(row, t), loc));
    case L_NUM_BITS: return sv_dyn(l, se_const(prim_int(PT_I32, prim_size(t) * 8)));
    default: return sv_dyn(l, lower_numeric_composite(l, low, op, t, args, loc));
    }
}
