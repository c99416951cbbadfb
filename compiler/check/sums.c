/* Sum types in the checker: sum type expressions, constructors (typed by
 * constraints on type variables until their sum type is known, as in
 * Futhark), match expressions, and the exhaustiveness of patterns, which is
 * checked once a definition's types are final: a match must cover every
 * value of its scrutinee's type ("Unmatched cases"), and the patterns of
 * lets, parameters and loops must be irrefutable. The check is Maranget's
 * usefulness algorithm ("Warnings for pattern matching", JFP 2007, section
 * 3.1), as Futhark's TypeChecker/Match.hs implements it: it finds a value,
 * written as a pattern, that no row of the pattern matrix matches. */
#include <string.h>

#include "check_internal.h"

static int cmp_constr(const void *a, const void *b) {
    return strcmp(((const TyField *)a)->name, ((const TyField *)b)->name);
}

/* The checked type of a sum type expression: its constructors sorted by
 * name, each with the tuple of its payload types. */
Ty *tc_sum_type(TypeExp *te, bool in_param) {
    if (te->nfields > 256)
        tc_fail(te->loc, "A sum type may have at most 256 constructors (its tag is a byte); this one has %d.",
                te->nfields);
    Ty *t = NEW(tc.a, Ty);
    t->kind = TY_SUM;
    t->n = te->nfields;
    t->fields = NEW_ARRAY(tc.a, TyField, te->nfields);
    for (int i = 0; i < te->nfields; i++) {
        for (int j = 0; j < i; j++)
            if (strcmp(te->fields[j].name, te->fields[i].name) == 0)
                tc_fail(te->fields[i].loc, "Duplicate constructor #%s in sum type.", te->fields[i].name);
        TypeExp *payload = te->fields[i].type;
        Ty **el = NEW_ARRAY(tc.a, Ty *, payload->nelems + 1);
        for (int k = 0; k < payload->nelems; k++) el[k] = tc_type_exp(payload->elems[k], in_param);
        t->fields[i].name = te->fields[i].name;
        t->fields[i].ty = tc_tuple(el, payload->nelems);
    }
    util_sort(t->fields, (size_t)t->n, sizeof(TyField), cmp_constr);
    return t;
}

/* A fresh type variable that must be a sum type with constructor name
 * whose payload is the tuple payload. */
static Ty *constr_var(SrcLoc loc, const char *name, Ty *payload) {
    Ty *v = tc_fresh(loc);
    FieldCon *c = NEW(tc.a, FieldCon);
    c->name = name;
    c->ty = payload;
    tc.vars.items[v->var].constrs = c;
    return v;
}

/* #c a1 ... an: a value of some sum type with constructor #c. */
Ty *tc_constr_exp(Exp *e) {
    Ty **el = NEW_ARRAY(tc.a, Ty *, e->nelems + 1);
    for (int i = 0; i < e->nelems; i++) el[i] = tc_exp(e->elems[i]);
    return constr_var(e->loc, e->field, tc_tuple(el, e->nelems));
}

/* The type a constructor pattern demands, given its payload patterns'. */
Ty *tc_constr_pat_type(Pat *p, Ty **payload) {
    return constr_var(p->loc, p->name, tc_tuple(payload, p->nelems));
}

/* match e1 case p1 -> b1 ...: every pattern has the scrutinee's type and
 * every body the match's; names bound by a pattern are in scope in its
 * body only, and sizes they name are unknown outside it. */
Ty *tc_match_exp(Exp *e) {
    if (!e->e1 || e->nparams < 1 || e->nparams != e->nelems) tc_fail(e->loc, "malformed match expression");
    Ty *scrut = tc_exp(e->e1), *result = NULL;
    for (int i = 0; i < e->nparams; i++) {
        int mark = tc_mark(), uid_mark = tc.next_uid;
        if (!e->params[i] || !e->elems[i]) tc_fail(e->loc, "malformed match expression");
        tc_bind_pat(e->params[i], scrut, false);
        tc_check_dup_names(&e->params[i], 1);
        Ty *t = tc_forget_sizes(tc_exp(e->elems[i]), uid_mark);
        tc_pop_to(mark);
        if (result) {
            tc_unify(e->elems[i]->loc, result, t, U_LENIENT_SIZES);
            result = tc_join(result, t);
        } else {
            result = t;
        }
    }
    if (tc_contains_arrow(result))
        tc_fail(e->loc, "Match expression returns type %s, but match-results may not be of function type.",
                tc_show(result));
    return result;
}

/* ---- Exhaustiveness ---------------------------------------------------------------- */

/* A pattern as the matrix sees it: ascriptions and parentheses looked
 * through, and NULL for one that matches anything (a name or _). */
static Pat *strip(Pat *p) {
    while (p && (p->kind == P_ASCRIBE || (p->kind == P_TUPLE && p->nelems == 1)))
        p = p->kind == P_ASCRIBE ? p->inner : p->elems[0];
    return p && (p->kind == P_ID || p->kind == P_WILD) ? NULL : p;
}

/* The constructors of a column of type t: a sum type's, true and false
 * for bool, or the one constructor of a tuple or record (returns -1 when
 * the values cannot be enumerated: other primitives and arrays). */
static int nconstrs(Ty *t) {
    switch (t->kind) {
    case TY_SUM: return t->n;
    case TY_TUPLE:
    case TY_RECORD: return 1;
    case TY_PRIM: return t->prim == PT_BOOL ? 2 : -1;
    default: return -1;
    }
}

/* The number of components of constructor k of type t, and their types
 * in tys (when not NULL). */
static int arity(Ty *t, int k, Ty **tys) {
    Ty *parts = t->kind == TY_SUM ? tc_head(t->fields[k].ty) : t;
    if (parts->kind == TY_PRIM) return 0;
    for (int i = 0; tys && i < parts->n; i++)
        tys[i] = parts->kind == TY_RECORD ? parts->fields[i].ty : parts->elems[i];
    return parts->n;
}

/* Whether the (stripped) pattern p matches constructor k of type t only
 * (a wildcard matches them all); sets its components in sub. */
static bool matches(Ty *t, int k, Pat *p, Pat **sub) {
    switch (t->kind) {
    case TY_SUM:
        if (p->kind != P_CONSTR || strcmp(p->name, t->fields[k].name) != 0) return false;
        for (int i = 0; i < p->nelems; i++) sub[i] = strip(p->elems[i]);
        return true;
    case TY_TUPLE:
        for (int i = 0; i < p->nelems && p->kind == P_TUPLE; i++) sub[i] = strip(p->elems[i]);
        return p->kind == P_TUPLE;
    case TY_RECORD:
        for (int i = 0; i < t->n; i++)
            for (int j = 0; j < p->nfields; j++)
                if (strcmp(p->fields[j].name, t->fields[i].name) == 0) sub[i] = strip(p->fields[j].pat);
        return p->kind == P_RECORD;
    default: /* bool: constructor 0 is true */
        return p->kind == P_LIT && p->lit->kind == EX_BOOL && p->lit->bvalue == (k == 0);
    }
}

/* Whether constructor k of t appears in the first column of the matrix. */
static bool appears(Pat ***rows, int nrows, Ty *t, int k) {
    Pat **sub = NEW_ARRAY(tc.a, Pat *, arity(t, k, NULL) + 1);
    for (int r = 0; r < nrows; r++)
        if (rows[r][0] && matches(t, k, rows[r][0], sub)) return true;
    return false;
}

/* An unmatched value's text: constructor k of t applied to the texts of
 * its components. */
static const char *show_value(Ty *t, int k, const char **parts) {
    Buf b = {0};
    int n = arity(t, k, NULL);
    if (t->kind == TY_SUM) {
        buf_printf(&b, "#%s", t->fields[k].name);
        for (int i = 0; i < n; i++)
            buf_printf(&b, strchr(parts[i], ' ') && parts[i][0] != '(' && parts[i][0] != '{' ? " (%s)" : " %s",
                       parts[i]);
    } else if (t->kind == TY_TUPLE || t->kind == TY_RECORD) {
        buf_putc(&b, t->kind == TY_TUPLE ? '(' : '{');
        for (int i = 0; i < n; i++) {
            if (i) buf_puts(&b, ", ");
            if (t->kind == TY_RECORD) buf_printf(&b, "%s = ", t->fields[i].name);
            buf_puts(&b, parts[i]);
        }
        buf_putc(&b, t->kind == TY_TUPLE ? ')' : '}');
    } else {
        buf_puts(&b, k == 0 ? "true" : "false");
    }
    const char *s = arena_strndup(tc.a, b.data ? b.data : "", b.len);
    buf_free(&b);
    return s;
}

/* A value of the types tys[ncols] that no row of the matrix rows[nrows]
 * matches, as one pattern text per column, or NULL when they cover every
 * value. */
static const char **unmatched(Pat ***rows, int nrows, Ty **tys, int ncols) {
    if (ncols == 0) return nrows ? NULL : NEW_ARRAY(tc.a, const char *, 1);
    Ty *t = tc_head(tys[0]);
    int nk = nconstrs(t), used = 0;
    for (int k = 0; k < nk; k++) used += t->kind == TY_TUPLE || t->kind == TY_RECORD || appears(rows, nrows, t, k);
    if (nk > 0 && used == nk) {
        /* every constructor appears: some constructor's values are unmatched */
        for (int k = 0; k < nk; k++) {
            int a = arity(t, k, NULL), n = a + ncols - 1, m = 0;
            Ty **sub_tys = NEW_ARRAY(tc.a, Ty *, n + 1);
            arity(t, k, sub_tys);
            COPY_ARRAY(sub_tys + a, tys + 1, ncols - 1);
            Pat ***spec = NEW_ARRAY(tc.a, Pat **, nrows + 1);
            for (int r = 0; r < nrows; r++) {
                Pat **row = NEW_ARRAY(tc.a, Pat *, n + 1);
                if (rows[r][0] && !matches(t, k, rows[r][0], row)) continue;
                COPY_ARRAY(row + a, rows[r] + 1, ncols - 1);
                spec[m++] = row;
            }
            const char **w = unmatched(spec, m, sub_tys, n);
            if (!w) continue;
            const char **res = NEW_ARRAY(tc.a, const char *, ncols);
            res[0] = show_value(t, k, w);
            COPY_ARRAY(res + 1, w + a, ncols - 1);
            return res;
        }
        return NULL;
    }
    /* some constructor (or value) is missing: the rows matching anything
     * in the first column must cover the rest */
    Pat ***def = NEW_ARRAY(tc.a, Pat **, nrows + 1);
    int m = 0;
    for (int r = 0; r < nrows; r++)
        if (!rows[r][0]) def[m++] = rows[r] + 1;
    const char **w = unmatched(def, m, tys + 1, ncols - 1);
    if (!w) return NULL;
    const char **res = NEW_ARRAY(tc.a, const char *, ncols);
    COPY_ARRAY(res + 1, w, ncols - 1);
    res[0] = "_";
    for (int k = 0; k < nk && used; k++) {
        if (appears(rows, nrows, t, k)) continue;
        const char **parts = NEW_ARRAY(tc.a, const char *, arity(t, k, NULL) + 1);
        for (int i = 0; i < arity(t, k, NULL); i++) parts[i] = "_";
        res[0] = show_value(t, k, parts);
        break;
    }
    return res;
}

/* A value of type t that none of the patterns pats[n] matches, or NULL. */
static const char *unmatched_value(Pat **pats, int n, Ty *t) {
    Pat ***rows = NEW_ARRAY(tc.a, Pat **, n + 1);
    for (int i = 0; i < n; i++) {
        rows[i] = NEW_ARRAY(tc.a, Pat *, 1);
        rows[i][0] = strip(pats[i]);
    }
    const char **w = unmatched(rows, n, &t, 1);
    return w ? w[0] : NULL;
}

/* Reports a binding pattern (of a let, a parameter, a loop) that some
 * value of its type would not match. */
void tc_check_irrefutable(Pat *p) {
    if (!p || !p->ty) return;
    const char *w = unmatched_value(&p, 1, p->ty);
    if (w) tc_fail(p->loc, "Refutable pattern not allowed here. Unmatched cases: %s", w);
}

/* After the definition's types are final: a match must be exhaustive,
 * and the patterns that e binds must be irrefutable. */
void tc_check_patterns(Exp *e) {
    if (e->kind == EX_MATCH) {
        const char *w = unmatched_value(e->params, e->nparams, e->e1->ty);
        if (w) tc_fail(e->loc, "Unmatched cases in match expression: %s", w);
        return;
    }
    tc_check_irrefutable(e->pat);
    tc_check_irrefutable(e->pat2);
    for (int i = 0; i < e->nparams; i++) tc_check_irrefutable(e->params[i]);
}
