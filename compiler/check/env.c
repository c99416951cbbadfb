/* Names for the type checker: the scope of values, types, modules and
 * module types, qualified names through modules, the built-in numeric
 * modules of numeric.def, and the translation of type expressions into
 * checked types. */
#include <stdlib.h>
#include <string.h>

#include "check_internal.h"

/* ---- Scope ----------------------------------------------------------------- */

int tc_new_uid(void) { return ++tc.next_uid; }

/* Marks uid as a size whose value is fixed for the current definition, so
 * that a mismatch with a different such size is a definite error. */
void tc_set_strict(int uid) {
    while (tc.strict.len <= uid) vec_push(&tc.strict, false);
    tc.strict.items[uid] = true;
}

/* The scope's hash bucket of a name (by its text: not every name is
 * interned). */
static int *bucket_of(const char *name) {
    uint32_t h = 2166136261u;
    for (const char *c = name ? name : ""; *c; c++) h = (h ^ (unsigned char)*c) * 16777619u;
    return &tc.buckets[h & (uint32_t)(tc.nbuckets - 1)];
}

/* Links binding i into its bucket, as the newest there. */
static void link_binding(int i) {
    int *head = bucket_of(tc.scope.items[i].name);
    tc.scope.items[i].prev = *head;
    *head = i;
}

/* Re-hashes the scope into n buckets. */
static void rehash_scope(int n) {
    tc.nbuckets = n;
    tc.buckets = NEW_ARRAY(tc.a, int, n);
    for (int i = 0; i < n; i++) tc.buckets[i] = -1;
    for (int i = 0; i < tc.scope.len; i++) link_binding(i);
}

void tc_push(Binding b) {
    tc.scope_version++;
    vec_push(&tc.scope, b);
    if (tc.scope.len > tc.nbuckets) rehash_scope(tc.nbuckets ? 2 * tc.nbuckets : TC_MIN_BUCKETS);
    else link_binding(tc.scope.len - 1);
}

int tc_mark(void) { return tc.scope.len; }

void tc_pop_to(int mark) {
    if (tc.scope.len > mark) tc.scope_version++;
    for (; tc.scope.len > mark; tc.scope.len--) {
        Binding *b = &tc.scope.items[tc.scope.len - 1];
        *bucket_of(b->name) = b->prev;
    }
}

static bool same_name(const char *a, const char *b) {
    return a == b || (a && b && strcmp(a, b) == 0);
}

Binding *tc_lookup(const char *name, BindNs ns) {
    if (!tc.nbuckets) return NULL;
    for (int i = *bucket_of(name); i >= 0; i = tc.scope.items[i].prev) {
        Binding *b = &tc.scope.items[i];
        if (b->ns == ns && same_name(b->name, name)) return b;
    }
    return NULL;
}

/* The binding that stands for every name of a module whose definition
 * had errors: uses of it cause no further messages. */
Binding *tc_poison_binding(const char *name, BindNs ns) {
    Binding *b = NEW(tc.a, Binding);
    b->name = name;
    b->ns = ns;
    b->ref = REF_GLOBAL;
    if (ns == NS_MODULE) {
        b->mod = NEW(tc.a, Module);
        b->mod->name = name;
        b->mod->poisoned = true;
    }
    return b;
}

/* The binding of b's name (and namespace) that b hides, or NULL. */
Binding *tc_lookup_hidden(Binding *b) {
    for (int i = b->prev; i >= 0; i = tc.scope.items[i].prev) {
        Binding *c = &tc.scope.items[i];
        if (c->ns == b->ns && same_name(c->name, b->name)) return c;
    }
    return NULL;
}

Binding *tc_lookup_in(Module *m, const char *name, BindNs ns) {
    if (m->poisoned) return ns == NS_MODTYPE ? NULL : tc_poison_binding(name, ns);
    for (int i = m->n - 1; i >= 0; i--)
        if (m->binds[i].ns == ns && same_name(m->binds[i].name, name)) return &m->binds[i];
    return NULL;
}

static Scheme *mono(Ty *t) {
    Scheme *s = NEW(tc.a, Scheme);
    s->ty = t;
    s->nparams = -1;
    return s;
}

void tc_push_local_value(const char *name, int uid, Ty *ty, SrcLoc loc) {
    tc_push((Binding){.name = name, .ns = NS_VALUE, .loc = loc, .ref = REF_LOCAL, .uid = uid, .sch = mono(ty)});
}

int tc_bind_tparam(TypeParam *tp) {
    if (tp->kind == TP_SIZE) {
        tp->uid = tc_new_uid();
        tc_push_local_value(tp->name, tp->uid, tc_prim(PT_I64), tp->loc);
        return tp->uid;
    }
    Ty *v = tc_fresh_rigid(tp->name, tp->kind == TP_TYPE_LIFTED);
    tc_push((Binding){.name = tp->name, .ns = NS_TYPE, .loc = tp->loc, .tparam = v});
    return v->var;
}

/* The names bound since mark that a module exports (not `local`), newest
 * last; a later binding of a name hides an earlier one in lookups. */
Module *tc_collect_module(const char *name, int mark) {
    Module *m = NEW(tc.a, Module);
    m->name = name;
    m->binds = NEW_ARRAY(tc.a, Binding, tc.scope.len - mark + 1);
    for (int i = mark; i < tc.scope.len; i++)
        if (!tc.scope.items[i].local && !tc.scope.items[i].recursive)
            m->binds[m->n++] = tc.scope.items[i];
    return m;
}

void tc_open_module(Module *m) {
    for (int i = 0; i < m->n; i++) tc_push(m->binds[i]);
}

static const char *qual_text(const QualName *q, int nparts) {
    Buf b = {0};
    for (int i = 0; i < nparts; i++) buf_printf(&b, "%s%s", i ? "." : "", q->parts[i]);
    const char *s = arena_strndup(tc.a, b.data ? b.data : "", b.len);
    buf_free(&b);
    return s;
}

/* The module named by the first nparts parts of q, through which a name
 * of namespace what ("name", "type", ...) is looked up: an unknown one is
 * reported as Futhark does, naming the whole of q. */
Module *tc_resolve_module(SrcLoc loc, const QualName *q, int nparts, const char *what) {
    Binding *b = tc_lookup(q->parts[0], NS_MODULE);
    if (!b) tc_fail(loc, "Unknown %s \"%s\".", what, qual_text(q, q->nparts));
    Module *m = b->mod;
    for (int i = 1; i < nparts; i++) {
        if (m->fun) tc_fail(loc, "Cannot have parametric module here.");
        Binding *c = tc_lookup_in(m, q->parts[i], NS_MODULE);
        if (!c) tc_fail(loc, "Unknown %s \"%s\".", what, qual_text(q, q->nparts));
        m = c->mod;
    }
    if (m->fun && nparts < q->nparts) tc_fail(loc, "Cannot have parametric module here.");
    return m;
}

Module *tc_lookup_module(SrcLoc loc, const QualName *q) {
    if (q->nparts < 1) tc_fail(loc, "malformed module name");
    Binding *b = tc_lookup(q->parts[0], NS_MODULE);
    /* Futhark's built-in module (the prelude's): its names only qualified */
    if (q->nparts == 1 && strcmp(q->parts[0], "intrinsics") == 0 && (!b || b->loc.file == tc.files[0]->file))
        tc_fail(loc, "The 'intrinsics' module may not be used in module expressions.");
    if (!b) tc_fail(loc, "Unknown module \"%s\".", qual_text(q, q->nparts));
    return tc_resolve_module(loc, q, q->nparts, "module");
}

Sig *tc_lookup_sig(SrcLoc loc, const QualName *q) {
    if (q->nparts < 1) tc_fail(loc, "malformed module type name");
    const char *last = q->parts[q->nparts - 1];
    Binding *b;
    if (q->nparts == 1) {
        b = tc_lookup(last, NS_MODTYPE);
    } else {
        Module *m = tc_resolve_module(loc, q, q->nparts - 1, "module type");
        if (m->poisoned) longjmp(*tc.bail, 1);
        b = tc_lookup_in(m, last, NS_MODTYPE);
    }
    if (!b) tc_fail(loc, "Unknown module type \"%s\".", qual_text(q, q->nparts));
    if (!b->sig) longjmp(*tc.bail, 1); /* its definition had errors (reported) */
    return b->sig;
}

/* ---- Numeric modules ---------------------------------------------------------- */

typedef enum NumClass { ALL, NUM, INT, FLT } NumClass;

static const struct NumRow {
    const char *name;
    NumClass cls;
    const char *sig;
} num_rows[] = {
#define X(name, cls, sig, lowering, op) {name, cls, sig},
#include "numeric.def"
#undef X
};
enum { NUM_ROWS = sizeof(num_rows) / sizeof(num_rows[0]) };

static bool in_class(NumClass c, PrimType t) {
    unsigned bit = TC_PRIM_BIT(t);
    switch (c) {
    case ALL:
        return true;
    case NUM:
        return (TC_NUMS & bit) != 0;
    case INT:
        return (TC_INTS & bit) != 0;
    case FLT:
        return (TC_FLOATS & bit) != 0;
    }
    return false;
}

int tc_numeric_row(const char *name, PrimType t) {
    for (int i = 0; i < NUM_ROWS; i++)
        if (strcmp(num_rows[i].name, name) == 0 && in_class(num_rows[i].cls, t)) return i;
    return -1;
}

/* One token of a numeric.def signature. */
static Ty *numeric_token(const char *tok, size_t len, PrimType t) {
    char buf[16];
    if (len >= sizeof buf) len = sizeof buf - 1;
    memcpy(buf, tok, len);
    buf[len] = 0;
    if (strcmp(buf, "t") == 0) return tc_prim(t);
    if (strcmp(buf, "u") == 0) return tc_prim(prim_is_float(t) ? op_result(OP_TO_BITS, t) : t);
    if (strcmp(buf, "[]t") == 0) {
        Size any = tc_size_any();
        return tc_array(tc_prim(t), &any, 1);
    }
    PrimType p;
    if (tc_prim_from_name(buf, &p)) return tc_prim(p);
    ICE("bad token '%s' in numeric.def", buf);
}

/* The type written by signature s of numeric.def, for module type t. */
static Ty *numeric_sig(const char *s, PrimType t) {
    const char *arrow = strstr(s, " -> ");
    if (!arrow) return numeric_token(s, strlen(s), t);
    return tc_arrow(numeric_token(s, (size_t)(arrow - s), t), numeric_sig(arrow + 4, t), NULL);
}

/* The type of T.name for row of numeric.def. */
Ty *tc_numeric_type(int row, PrimType t) { return numeric_sig(num_rows[row].sig, t); }

/* The built-in numeric module of primitive type t: its type t and every
 * row of numeric.def in its class. */
static Module *numeric_module(PrimType t) {
    Module *m = NEW(tc.a, Module);
    m->name = tc_prim_name(t);
    m->binds = NEW_ARRAY(tc.a, Binding, NUM_ROWS + 2);
    TypeAbbr *ab = NEW(tc.a, TypeAbbr);
    ab->name = intern("t");
    ab->body = tc_prim(t);
    m->binds[m->n++] = (Binding){.name = ab->name, .ns = NS_TYPE, .abbr = ab};
    if (prim_is_float(t)) { /* the integers of the same size, for to_bits */
        TypeAbbr *it = NEW(tc.a, TypeAbbr);
        it->name = intern("int_t");
        it->body = tc_prim(op_result(OP_TO_BITS, t));
        m->binds[m->n++] = (Binding){.name = it->name, .ns = NS_TYPE, .abbr = it};
    }
    for (int i = 0; i < NUM_ROWS; i++) {
        if (!in_class(num_rows[i].cls, t)) continue;
        Binding b = {.name = intern(num_rows[i].name), .ns = NS_VALUE, .ref = REF_NUMERIC,
                     .numeric = i, .numeric_type = t, .sch = mono(tc_numeric_type(i, t))};
        m->binds[m->n++] = b;
    }
    return m;
}

void tc_push_numeric_modules(void) {
    static const PrimType types[] = {PT_I8, PT_I16, PT_I32, PT_I64, PT_U8, PT_U16,
                                     PT_U32, PT_U64, PT_F16, PT_F32, PT_F64, PT_BOOL};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        Module *m = numeric_module(types[i]);
        tc_push((Binding){.name = intern(m->name), .ns = NS_MODULE, .mod = m});
    }
}

/* ---- Type expressions --------------------------------------------------------- */

/* The size written inside [ ] of a type: a literal, a name, a size
 * expression such as n * m, or unknown ([] outside parameter types). [] in
 * the type of a parameter is a size of its own, to be inferred: as in
 * Futhark, it is an implicit size parameter of the function unless the
 * function's body determines it. */
static Size dim_size(Exp *d, bool in_param) {
    if (!d) return in_param ? tc_fresh_size() : tc_size_any();
    if (d->kind == EX_INT && !d->has_suffix) {
        d->ty = tc_prim(PT_I64);
        return tc_size_const((int64_t)d->ivalue);
    }
    if (d->kind == EX_VAR && d->name.nparts == 1) {
        Binding *b = tc_lookup(d->name.parts[0], NS_VALUE);
        if (!b) tc_fail(d->loc, "Unknown size \"%s\".", d->name.parts[0]);
        Ty *t = tc_exp(d);
        tc_unify(d->loc, tc_prim(PT_I64), t, U_STRICT);
        if (b->ref == REF_LOCAL && b->uid > 0) return tc_size_var(b->uid, b->name);
        if (b->ref == REF_LOCAL && b->uid < 0) return tc_size_var(b->uid, b->name); /* a let's size binder being inferred */
        return tc_exp_size(d);
    }
    tc_unify(d->loc, tc_prim(PT_I64), tc_exp(d), U_STRICT);
    return tc_exp_size(d);
}

/* Applies abbreviation ab to the arguments of te. */
static Ty *apply_abbr(TypeAbbr *ab, TypeExp *te, bool in_param) {
    if (te->nargs != ab->nparams)
        tc_fail(te->loc, "Type \"%s\" expects %d argument%s but is given %d.", ab->name, ab->nparams,
                ab->nparams == 1 ? "" : "s", te->nargs);
    Subst s = {NEW_ARRAY(tc.a, int, ab->nparams), NEW_ARRAY(tc.a, Ty *, ab->nparams), 0,
               NEW_ARRAY(tc.a, int, ab->nparams), NEW_ARRAY(tc.a, Size, ab->nparams), 0};
    for (int i = 0; i < ab->nparams; i++) {
        TypeArg *arg = &te->args[i];
        bool want_size = ab->params[i].kind == TP_SIZE;
        if (arg->is_size != want_size)
            tc_fail(te->loc, "Argument %d of type \"%s\" must be a %s.", i + 1, ab->name,
                    want_size ? "size [n]" : "type");
        if (want_size) {
            s.skeys[s.ns] = ab->keys[i];
            /* [] is one unknown size shared by every use of the parameter */
            s.svals[s.ns++] = dim_size(arg->size, true);
        } else {
            s.tkeys[s.nt] = ab->keys[i];
            s.tvals[s.nt++] = tc_type_exp(arg->type, in_param);
        }
    }
    return tc_subst(ab->body, &s);
}

static Ty *type_name(TypeExp *te, bool in_param) {
    const QualName *q = &te->name;
    if (q->nparts < 1) tc_fail(te->loc, "malformed type");
    Binding *b;
    const char *last = q->parts[q->nparts - 1];
    if (q->nparts == 1) {
        b = tc_lookup(last, NS_TYPE);
        PrimType p;
        if (!b && tc_prim_from_name(last, &p)) {
            if (te->nargs) tc_fail(te->loc, "Type \"%s\" takes no arguments.", last);
            return tc_prim(p);
        }
    } else {
        b = tc_lookup_in(tc_resolve_module(te->loc, q, q->nparts - 1, "type"), last, NS_TYPE);
    }
    if (!b) tc_fail(te->loc, "Unknown type \"%s\".", qual_text(q, q->nparts));
    if (b->tparam) {
        if (te->nargs) tc_fail(te->loc, "Type parameter \"%s\" takes no arguments.", last);
        return b->tparam;
    }
    /* a type whose definition had errors (already reported): anything goes */
    if (!b->abbr) {
        tc.saw_poisoned = true;
        return tc_fresh(te->loc);
    }
    return apply_abbr(b->abbr, te, in_param);
}

static int cmp_field(const void *a, const void *b) {
    return strcmp(((const TyField *)a)->name, ((const TyField *)b)->name);
}

static Ty *record_type(TypeExp *te, bool in_param) {
    const char **names = NEW_ARRAY(tc.a, const char *, te->nfields + 1);
    int *pos = NEW_ARRAY(tc.a, int, te->nfields + 1);
    for (int i = 0; i < te->nfields; i++) names[i] = te->fields[i].name;
    if (tc_tuple_fields(names, te->nfields, pos)) { /* {0: a, 1: b} is (a, b) */
        Ty **el = NEW_ARRAY(tc.a, Ty *, te->nfields + 1);
        for (int k = 0; k < te->nfields; k++) el[k] = tc_type_exp(te->fields[pos[k]].type, in_param);
        return tc_tuple(el, te->nfields);
    }
    Ty *t = NEW(tc.a, Ty);
    t->kind = TY_RECORD;
    t->n = te->nfields;
    t->fields = NEW_ARRAY(tc.a, TyField, te->nfields);
    for (int i = 0; i < te->nfields; i++) {
        for (int j = 0; j < i; j++)
            if (strcmp(te->fields[j].name, te->fields[i].name) == 0)
                tc_fail(te->fields[i].loc, "Duplicate field \"%s\" in a record type.", te->fields[i].name);
        t->fields[i].name = te->fields[i].name;
        t->fields[i].ty = tc_type_exp(te->fields[i].type, in_param);
    }
    util_sort(t->fields, (size_t)t->n, sizeof(TyField), cmp_field);
    return t;
}

/* A dependent arrow (n: t1) -> t2: n is in scope in t2. The anonymous
 * sizes of t2 are unknown, even in a parameter's type: like a function's
 * result type, that of a function parameter may have any sizes (f: a -> []b
 * may be iota). */
static Ty *arrow_type(TypeExp *te, bool in_param) {
    Ty *param = tc_type_exp(te->param, in_param);
    if (!te->pname) return tc_arrow(param, tc_type_exp(te->result, false), NULL);
    int mark = tc_mark();
    int uid = tc_new_uid();
    tc_push_local_value(te->pname, uid, param, te->loc);
    Ty *result = tc_type_exp(te->result, false);
    tc_pop_to(mark);
    return tc_arrow_dep(param, result, te->pname, uid);
}

/* ?[n][m].t: the names stand for unknown sizes. */
static Ty *exist_type(TypeExp *te, bool in_param) {
    int mark = tc_mark();
    for (int i = 0; i < te->nexist; i++) tc_push_local_value(te->exist_names[i], 0, tc_prim(PT_I64), te->loc);
    Ty *t = tc_type_exp(te->elem, in_param);
    tc_pop_to(mark);
    return t;
}

/* The checked type of a type expression. */
Ty *tc_type_exp(TypeExp *te, bool in_param) {
    if (!te) tc_fail((SrcLoc){0}, "malformed type");
    switch (te->kind) {
    case TE_NAME:
        return type_name(te, in_param);
    case TE_TUPLE: {
        if (te->nelems == 1) return tc_type_exp(te->elems[0], in_param);
        Ty **el = NEW_ARRAY(tc.a, Ty *, te->nelems);
        for (int i = 0; i < te->nelems; i++) el[i] = tc_type_exp(te->elems[i], in_param);
        return tc_tuple(el, te->nelems);
    }
    case TE_RECORD:
        return record_type(te, in_param);
    case TE_ARRAY: {
        Size d = dim_size(te->dim, in_param);
        Ty *elem = tc_type_exp(te->elem, in_param);
        if (tc_contains_arrow(elem))
            tc_fail(te->loc, "Cannot create array with elements of lifted type \"%s\" (might contain function).",
                    tc_show(elem));
        if (tc_size_lifted(elem))
            tc_fail(te->loc, "Cannot create array with elements of size-lifted type \"%s\" (might cause irregular array).",
                    tc_show(elem));
        return tc_array(elem, &d, 1);
    }
    case TE_ARROW:
        return arrow_type(te, in_param);
    case TE_UNIQUE:
        return tc_copy_unique(tc_type_exp(te->elem, in_param), true);
    case TE_EXIST:
        return exist_type(te, in_param);
    case TE_SUM:
        return tc_sum_type(te, in_param);
    }
    tc_fail(te->loc, "malformed type");
}
