/* Type inference for expressions and patterns (Hindley-Milner with
 * overloaded primitive operators, record-field constraints and size types):
 * resolves every name, gives every binding a unique id and sets Exp->ty and
 * Pat->ty (still containing type variables until check.c substitutes them at
 * the end of the top-level definition). */
#include <string.h>

#include "check_internal.h"

static SrcLoc last_loc; /* for malformed nodes that have no location */

static Ty *exp_type(Exp *e);

/* Checks e and records its type. */
Ty *tc_exp(Exp *e) {
    if (!e) tc_fail(last_loc, "malformed expression");
    last_loc = e->loc;
    if (++tc.depth > TC_MAX_DEPTH) tc_fail(e->loc, "Expression is nested too deeply.");
    Ty *t = exp_type(e);
    tc.depth--;
    e->ty = t;
    return t;
}

static const char *qual_str(const QualName *q) {
    Buf b = {0};
    for (int i = 0; i < q->nparts; i++) buf_printf(&b, "%s%s", i ? "." : "", q->parts[i]);
    const char *s = arena_strndup(tc.a, b.data ? b.data : "", b.len);
    buf_free(&b);
    return s;
}

/* ---- Patterns ------------------------------------------------------------------ */

/* {0 = a, 1 = b} is the tuple pattern (a, b): rewrites such a record
 * pattern into P_TUPLE. */
static void canonical_tuple_pat(Pat *p) {
    const char **names = NEW_ARRAY(tc.a, const char *, p->nfields + 1);
    int *pos = NEW_ARRAY(tc.a, int, p->nfields + 1);
    for (int i = 0; i < p->nfields; i++) names[i] = p->fields[i].name;
    if (!tc_tuple_fields(names, p->nfields, pos)) return;
    Pat **elems = NEW_ARRAY(tc.a, Pat *, p->nfields + 1);
    for (int k = 0; k < p->nfields; k++) elems[k] = p->fields[pos[k]].pat;
    p->kind = P_TUPLE;
    p->elems = elems;
    p->nelems = p->nfields;
    p->fields = NULL;
    p->nfields = 0;
}

/* The type a pattern demands, with fresh variables where it says nothing;
 * sets Pat->ty of every sub-pattern. */
static Ty *pat_type(Pat *p, bool is_param) {
    if (!p) tc_fail(last_loc, "malformed pattern");
    if (p->kind == P_RECORD) canonical_tuple_pat(p);
    Ty *t;
    switch (p->kind) {
    case P_ID:
    case P_WILD:
        t = tc_fresh(p->loc);
        break;
    case P_TUPLE: {
        if (p->nelems == 1) {
            t = pat_type(p->elems[0], is_param);
            break;
        }
        Ty **el = NEW_ARRAY(tc.a, Ty *, p->nelems);
        for (int i = 0; i < p->nelems; i++) el[i] = pat_type(p->elems[i], is_param);
        t = tc_tuple(el, p->nelems);
        break;
    }
    case P_RECORD: {
        t = NEW(tc.a, Ty);
        t->kind = TY_RECORD;
        t->n = p->nfields;
        t->fields = NEW_ARRAY(tc.a, TyField, p->nfields);
        for (int i = 0; i < p->nfields; i++) {
            for (int j = 0; j < i; j++)
                if (strcmp(p->fields[j].name, p->fields[i].name) == 0)
                    tc_fail(p->loc, "Duplicate fields in a record pattern: \"%s\" appears twice.", p->fields[i].name);
            /* insertion into name order */
            int k = i;
            while (k > 0 && strcmp(t->fields[k - 1].name, p->fields[i].name) > 0) {
                t->fields[k] = t->fields[k - 1];
                k--;
            }
            t->fields[k].name = p->fields[i].name;
            t->fields[k].ty = pat_type(p->fields[i].pat, is_param);
        }
        break;
    }
    case P_ASCRIBE: {
        t = tc_type_exp(p->type, is_param);
        Ty *inner = pat_type(p->inner, is_param);
        tc_unify(p->loc, t, inner, U_STRICT);
        p->inner->ty = t;
        break;
    }
    case P_CONSTR: {
        Ty **el = NEW_ARRAY(tc.a, Ty *, p->nelems + 1);
        for (int i = 0; i < p->nelems; i++) el[i] = pat_type(p->elems[i], is_param);
        t = tc_constr_pat_type(p, el);
        break;
    }
    case P_LIT:
        if (!p->lit) tc_fail(p->loc, "malformed pattern");
        t = tc_exp(p->lit);
        break;
    default:
        tc_fail(p->loc, "malformed pattern");
    }
    p->ty = t;
    return t;
}

/* Gives every name of p a uid and brings it into scope. */
static void bind_names(Pat *p) {
    switch (p->kind) {
    case P_ID:
        p->uid = tc_new_uid();
        tc_push_local_value(p->name, p->uid, p->ty, p->loc);
        break;
    case P_TUPLE:
    case P_CONSTR:
        for (int i = 0; i < p->nelems; i++) bind_names(p->elems[i]);
        break;
    case P_RECORD:
        for (int i = 0; i < p->nfields; i++) bind_names(p->fields[i].pat);
        break;
    case P_ASCRIBE:
        p->inner->ty = p->ty;
        bind_names(p->inner);
        break;
    default:
        break;
    }
}

/* Binds pattern p (to a value of type expected, or of any type when NULL)
 * and returns its type. */
Ty *tc_bind_pat(Pat *p, Ty *expected, bool is_param) {
    Ty *t = pat_type(p, is_param);
    if (expected) tc_unify(p->loc, t, expected, U_STRICT);
    bind_names(p);
    return t;
}

typedef VEC(Pat *) PatVec;

static void collect_names(Pat *p, PatVec *out) {
    if (!p) return;
    switch (p->kind) {
    case P_ID:
        vec_push(out, p);
        break;
    case P_TUPLE:
    case P_CONSTR:
        for (int i = 0; i < p->nelems; i++) collect_names(p->elems[i], out);
        break;
    case P_RECORD:
        for (int i = 0; i < p->nfields; i++) collect_names(p->fields[i].pat, out);
        break;
    case P_ASCRIBE:
        collect_names(p->inner, out);
        break;
    default:
        break;
    }
}

/* Reports a name bound twice among pats. */
void tc_check_dup_names(Pat **pats, int npats) {
    PatVec names = {0};
    for (int i = 0; i < npats; i++) collect_names(pats[i], &names);
    for (int i = 0; i < names.len; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(names.items[i]->name, names.items[j]->name) == 0) {
                Pat *dup = names.items[i];
                SrcLoc first = names.items[j]->loc;
                vec_free(&names);
                diag_error(dup->loc, "Name \"%s\" also bound at %d:%d.", dup->name, first.line, first.col);
                diag_note(first, "\"%s\" was first bound here", dup->name);
                if (tc.bail) longjmp(*tc.bail, 1);
                return;
            }
    vec_free(&names);
}

/* Reports a parameter named like a size parameter ([m] (m: [m]i64)). */
static void check_size_param_names(TypeParam *tps, int ntps, Pat **params, int nparams) {
    PatVec names = {0};
    for (int i = 0; i < nparams; i++) collect_names(params[i], &names);
    for (int t = 0; t < ntps; t++)
        for (int i = 0; tps[t].kind == TP_SIZE && i < names.len; i++)
            if (strcmp(names.items[i]->name, tps[t].name) == 0) {
                SrcLoc at = names.items[i]->loc;
                vec_free(&names);
                tc_fail(at, "Name \"%s\" also bound at %d:%d.", tps[t].name, tps[t].loc.line, tps[t].loc.col);
            }
    vec_free(&names);
}

/* ---- Names ---------------------------------------------------------------------- */

/* Whether the arguments of a definition of scheme sch determine size uid:
 * it is a size of an array (outside function types) in the type of one of
 * its parameters (not of a function it returns, which is applied later). */
static bool size_of_arguments(Scheme *sch, int uid) {
    Ty *h = tc_head(sch->ty);
    for (int i = 0; i < sch->nparams && h->kind == TY_ARROW; i++, h = tc_head(h->result))
        if (tc_size_in_data(h->param, uid, false)) return true;
    return false;
}

/* Instantiates the scheme of b at its use e, recording in e->ref what its
 * size parameters stand for there, and in tc.size_uses the explicit ones
 * that only the instantiation can determine. */
static Ty *instantiate_use(Exp *e, Binding *b) {
    Scheme *sch = b->sch;
    Ty *t = tc_instantiate(sch, &e->ref.inst_sizes);
    e->ref.inst_keys = sch->svars;
    e->ref.ninst = sch->nsvars;
    for (int i = 0; i < sch->nsvars; i++)
        if (sch->svar_names[i] && !size_of_arguments(sch, sch->svars[i]))
            vec_push(&tc.size_uses, ((SizeUse){e->ref.inst_sizes, i, e->loc, b->name, sch->svar_names[i]}));
    return t;
}

static Ty *use_binding(Exp *e, Binding *b) {
    /* a constant does not see itself: its name means what it meant before
     * (a function with parameters would be recursive) */
    if (b->recursive) {
        Binding *outer = b->decl && b->decl->nparams == 0 ? tc_lookup_hidden(b) : NULL;
        if (!outer) tc_fail(e->loc, "Recursion is not supported: \"%s\" refers to itself.", b->name);
        b = outer;
    }
    e->ref.kind = b->ref;
    e->ref.uid = b->uid;
    e->ref.decl = b->decl;
    e->ref.numeric = b->numeric;
    e->ref.numeric_type = b->numeric_type;
    if (!b->sch) { /* its definition had errors */
        tc.saw_poisoned = true;
        return tc_fresh(e->loc);
    }
    return instantiate_use(e, b);
}

/* A qualified name inside a module: modules, then a value. Returns the
 * number of parts used. */
static int module_value(Exp *e, Module *m, Ty **out) {
    const QualName *q = &e->name;
    for (int i = 1; i < q->nparts; i++) {
        if (m->fun) tc_fail(e->loc, "Cannot have parametric module here.");
        Binding *v = tc_lookup_in(m, q->parts[i], NS_VALUE);
        if (v) {
            *out = use_binding(e, v);
            return i + 1;
        }
        Binding *sub = tc_lookup_in(m, q->parts[i], NS_MODULE);
        if (!sub) tc_fail(e->loc, "Unknown name \"%s\".", qual_str(q));
        m = sub->mod;
    }
    tc_fail(e->loc, "\"%s\" is a module, not a value.", qual_str(q));
}

/* Whether a value of type t may have fields. */
static bool has_fields(Ty *t) {
    t = tc_head(t);
    return t->kind == TY_RECORD || t->kind == TY_TUPLE || t->kind == TY_VAR;
}

static Ty *var_exp(Exp *e) {
    const QualName *q = &e->name;
    if (q->nparts < 1 || !q->parts[0]) tc_fail(e->loc, "malformed name");
    if (q->parts[0][0] == '_' && !tc.in_prelude)
        tc_fail(e->loc, "Name \"%s\" starts with an underscore: it may be bound, not used.", q->parts[0]);
    Ty *t = NULL;
    int used;
    Binding *b = tc_lookup(q->parts[0], NS_VALUE);
    Binding *m = q->nparts > 1 ? tc_lookup(q->parts[0], NS_MODULE) : NULL;
    /* "a.b" with both a value and a module a (after "open f32", whose i32
     * is a function): the value only if it may have fields */
    if (b && m && b->sch && !has_fields(b->sch->ty)) b = NULL;
    if (b) m = NULL;
    PrimType p;
    if (b) {
        t = use_binding(e, b);
        used = 1;
    } else if (m) {
        used = module_value(e, m->mod, &t);
    } else if (q->nparts >= 2 && tc_prim_from_name(q->parts[0], &p)) {
        int row = tc_numeric_row(q->parts[1], p);
        if (row < 0) tc_fail(e->loc, "Unknown name \"%s.%s\".", q->parts[0], q->parts[1]);
        e->ref.kind = REF_NUMERIC;
        e->ref.numeric = row;
        e->ref.numeric_type = p;
        t = tc_numeric_type(row, p);
        used = 2;
    } else {
        tc_fail(e->loc, "Unknown name \"%s\".", q->parts[0]);
    }
    e->ref.nvar_parts = used < q->nparts ? used : 0;
    for (int i = used; i < q->nparts; i++) t = tc_field_type(e->loc, t, q->parts[i]);
    return t;
}

/* ---- Application ------------------------------------------------------------------ */

/* The size an argument gives a dependent parameter: a literal, an i64
 * variable or a size expression over them; anything else is unknown. */
static Size arg_size(Exp *arg) {
    if (arg->kind == EX_INT) return tc_size_const((int64_t)arg->ivalue);
    return tc_exp_size(arg);
}

/* What an argument gives a dependent parameter: arg_size, or for a
 * parameter of another integer type (which sizes mention only inside
 * applications, [i64.u32 (1u32 << n)]) a term of that type. */
static Size dependent_size(Exp *arg) {
    Ty *t = arg->ty ? tc_head(arg->ty) : NULL;
    return t && t->kind == TY_PRIM && prim_is_int(t->prim) && t->prim != PT_I64 ? tc_int_size(arg) : arg_size(arg);
}

/* Arguments quoted in messages are cut to this many characters, so that
 * a long lambda does not swamp the message. */
enum { ARG_TEXT_MAX = 40 };

/* The source text of an argument for messages, on one line. */
static const char *exp_text(Exp *e) {
    if (!e) return "";
    Buf b = {0};
    ast_print_exp(&b, e);
    size_t n = b.len > ARG_TEXT_MAX ? ARG_TEXT_MAX : b.len;
    char *s = arena_strndup(tc.a, b.data ? b.data : "", n);
    for (char *c = s; *c; c++)
        if (*c == '\n' || *c == '\t') *c = ' ';
    if (b.len > ARG_TEXT_MAX) s = arena_printf(tc.a, "%s...", s);
    buf_free(&b);
    return s;
}

/* Applies a function of type fty (named fname, quoted, or NULL) to one
 * checked argument; mode is U_DIET for calls of named functions. */
static Ty *apply_arg(SrcLoc loc, Ty *fty, Exp *arg, Ty *argty, const char *fname, int mode) {
    Ty *h = tc_head(fty);
    if (h->kind == TY_VAR && !tc.vars.items[h->var].rigid) {
        tc_unify(loc, fty, tc_arrow(tc_fresh(loc), tc_fresh(loc), NULL), U_STRICT);
        h = tc_head(fty);
    }
    if (h->kind != TY_ARROW)
        tc_fail(loc, "Cannot apply %s as function, as it has type: %s.", fname ? fname : "expression",
                tc_show(fty));
    const char *ctx = fname ? arena_printf(tc.a, "Cannot apply %s to \"%s\" (invalid type).", fname, exp_text(arg))
                            : arena_printf(tc.a, "Cannot apply function to \"%s\" (invalid type).", exp_text(arg));
    tc_unify_in(arg->loc, h->param, argty, mode, ctx);
    Ty *res = h->result;
    if (h->pname) res = tc_subst_pname(res, h->pname, h->var, dependent_size(arg));
    return res;
}

static int count_arrows(Ty *t) {
    int n = 0;
    for (t = tc_head(t); t->kind == TY_ARROW; t = tc_head(t->result)) n++;
    return n;
}

/* The quoted name of an applied function, or NULL for an expression. */
static const char *fun_name(Exp *f) {
    if (f->kind == EX_VAR && f->name.nparts > 0) return arena_printf(tc.a, "\"%s\"", qual_str(&f->name));
    return NULL;
}

/* Reports an application to more arguments than the function takes. */
static void check_arity(Exp *e, Ty *fty, const char *name) {
    int arrows = count_arrows(fty);
    if (e->nelems <= arrows) return;
    Ty *last = fty;
    for (int i = 0; i < arrows; i++) last = tc_head(last)->result;
    Ty *h = tc_head(last);
    if (h->kind == TY_VAR && !tc.vars.items[h->var].rigid && !tc.vars.items[h->var].prims) return;
    const char *n = name ? name : "expression";
    if (arrows == 0) tc_fail(e->loc, "Cannot apply %s as function, as it has type: %s.", n, tc_show(fty));
    tc_fail(e->loc, "Cannot apply %s to argument #%d \"%s\", as %s only takes %d argument%s.", n, arrows + 1,
            exp_text(e->elems[arrows]), n, arrows, arrows == 1 ? "" : "s");
}

static Ty *apply_exp(Exp *e) {
    Ty *fty = tc_exp(e->e1);
    const char *name = fun_name(e->e1);
    check_arity(e, fty, name);
    Ty *t = fty;
    for (int i = 0; i < e->nelems; i++) t = apply_arg(e->elems[i] ? e->elems[i]->loc : e->loc, t,
                                                      e->elems[i], tc_exp(e->elems[i]), name, U_DIET);
    return t;
}

/* ---- Operators ---------------------------------------------------------------------- */

typedef struct OpInfo {
    const char *op;
    unsigned prims; /* operand constraint; 0 for the special cases below */
    int result;     /* 0: operand type, 1: bool */
} OpInfo;

static const OpInfo builtin_ops[] = {
    {"+", 0x1, 0},  {"-", 0x1, 0},  {"*", 0x1, 0},  {"/", 0x1, 0},   {"%", 0x1, 0},
    {"**", 0x1, 0}, {"//", 0x2, 0}, {"%%", 0x2, 0}, {"&", 0x2, 0},   {"|", 0x2, 0},
    {"^", 0x2, 0},  {"<<", 0x2, 0}, {">>", 0x2, 0}, {">>>", 0x2, 0}, {"==", 0x4, 1},
    {"!=", 0x4, 1}, {"<", 0x8, 1},  {"<=", 0x8, 1}, {">", 0x8, 1},   {">=", 0x8, 1},
    {"&&", 0x10, 1}, {"||", 0x10, 1},
};

/* The constraint class codes of builtin_ops as primitive-type masks; 0 means
 * equality (any non-function type). */
static unsigned op_mask(unsigned cls) {
    switch (cls) {
    case 0x1:
        return TC_NUMS;
    case 0x2:
        return TC_INTS;
    case 0x8:
        return TC_PRIMS;
    case 0x10:
        return TC_PRIM_BIT(PT_BOOL);
    default:
        return 0;
    }
}

static const OpInfo *find_op(const char *op) {
    for (size_t i = 0; i < sizeof builtin_ops / sizeof builtin_ops[0]; i++)
        if (strcmp(builtin_ops[i].op, op) == 0) return &builtin_ops[i];
    return NULL;
}

/* The type of a built-in operator used as a function value, or NULL. */
static Ty *builtin_op_type(const char *op, SrcLoc loc) {
    const OpInfo *oi = find_op(op);
    if (oi) {
        Ty *t = tc_fresh(loc);
        unsigned m = op_mask(oi->prims);
        if (m) tc_constrain(loc, t, m, "operator");
        else tc_constrain_eq(loc, t, "operator");
        tc.vars.items[t->var].literal = m != 0;
        Ty *r = oi->result ? tc_prim(PT_BOOL) : t;
        return tc_arrow(t, tc_arrow(t, r, NULL), NULL);
    }
    Ty *a = tc_fresh(loc), *b = tc_fresh(loc), *c = tc_fresh(loc);
    if (strcmp(op, "|>") == 0) return tc_arrow(a, tc_arrow(tc_arrow(a, b, NULL), b, NULL), NULL);
    if (strcmp(op, "<|") == 0) return tc_arrow(tc_arrow(a, b, NULL), tc_arrow(a, b, NULL), NULL);
    if (strcmp(op, ">->") == 0)
        return tc_arrow(tc_arrow(a, b, NULL),
                        tc_arrow(tc_arrow(b, c, NULL), tc_arrow(a, c, NULL), NULL), NULL);
    if (strcmp(op, "<-<") == 0)
        return tc_arrow(tc_arrow(b, c, NULL),
                        tc_arrow(tc_arrow(a, b, NULL), tc_arrow(a, c, NULL), NULL), NULL);
    return NULL;
}

/* A built-in binary operator applied to both operands. */
static Ty *builtin_binop(Exp *e, const OpInfo *oi) {
    Ty *t1 = tc_exp(e->e1);
    Ty *t2 = tc_exp(e->e2);
    unsigned m = op_mask(oi->prims);
    const char *what = arena_printf(tc.a, "operator \"%s\"", e->op);
    if (m) tc_constrain(e->e1->loc, t1, m, what);
    else tc_constrain_eq(e->e1->loc, t1, what);
    tc_unify(e->e2->loc, t1, t2, U_STRICT);
    return oi->result ? tc_prim(PT_BOOL) : t1;
}

/* The definition of operator op in scope, NULL for the built-in one; a
 * constant being defined as op means the one before it ("def (+) = add"
 * uses no + at all, but "def (+) = \a b -> a + b" does). */
static Binding *operator_binding(const char *op) {
    Binding *b = tc_lookup(op, NS_VALUE);
    return b && b->recursive && b->decl && b->decl->nparams == 0 ? tc_lookup_hidden(b) : b;
}

/* l M.op r: the operator of module M. */
static Ty *qualified_binop(Exp *e) {
    Exp v = {0};
    v.kind = EX_VAR;
    v.loc = e->loc;
    v.name = e->name;
    Ty *fty = var_exp(&v);
    if (v.ref.nvar_parts) tc_fail(e->loc, "\"%s\" is not an operator.", qual_str(&e->name));
    e->ref = v.ref;
    const char *name = arena_printf(tc.a, "\"%s\"", qual_str(&e->name));
    Ty *t = apply_arg(e->loc, fty, e->e1, tc_exp(e->e1), name, U_DIET);
    return apply_arg(e->loc, t, e->e2, tc_exp(e->e2), name, U_DIET);
}

/* x |> f and f <| x: the application f x, its operands checked from the
 * left (a lambda f then knows x's type). Its type is f's result, with the
 * result's uniqueness and sizes, which the operator's type
 * a -> (a -> b) -> b would lose. */
static Ty *pipe_exp(Exp *e) {
    bool right = e->op[0] == '|';
    Exp *fn = right ? e->e2 : e->e1, *arg = right ? e->e1 : e->e2;
    Ty *at = right ? tc_exp(arg) : NULL;
    Ty *ft = tc_exp(fn);
    if (!at) at = tc_exp(arg);
    return apply_arg(arg->loc, ft, arg, at, fun_name(fn), U_DIET);
}

static Ty *binop_exp(Exp *e) {
    if (!e->op || !e->e1 || !e->e2) tc_fail(e->loc, "malformed operator application");
    if (e->name.nparts > 1) return qualified_binop(e);
    Binding *b = operator_binding(e->op);
    if (b) {
        Ty *fty = use_binding(e, b);
        const char *name = arena_printf(tc.a, "\"%s\"", e->op);
        Ty *t = apply_arg(e->loc, fty, e->e1, tc_exp(e->e1), name, U_DIET);
        return apply_arg(e->loc, t, e->e2, tc_exp(e->e2), name, U_DIET);
    }
    const OpInfo *oi = find_op(e->op);
    if (oi) return builtin_binop(e, oi);
    if (!strcmp(e->op, "|>") || !strcmp(e->op, "<|")) return pipe_exp(e);
    Ty *opty = builtin_op_type(e->op, e->loc);
    if (!opty) tc_fail(e->loc, "Unknown operator \"%s\".", e->op);
    const char *name = arena_printf(tc.a, "\"%s\"", e->op);
    Ty *t = apply_arg(e->loc, opty, e->e1, tc_exp(e->e1), name, U_STRICT);
    return apply_arg(e->loc, t, e->e2, tc_exp(e->e2), name, U_STRICT);
}

/* Whether a section's op is a backticked function name ("f", "i32.max")
 * rather than an operator (operators consist of symbol characters). */
static bool is_name_op(const char *op) {
    return (op[0] >= 'a' && op[0] <= 'z') || (op[0] >= 'A' && op[0] <= 'Z') || op[0] == '_';
}

/* Splits a dotted name "m.f" into a QualName. */
static QualName split_name(const char *s) {
    QualName q = {0};
    int n = 1;
    for (const char *c = s; *c; c++) n += *c == '.';
    q.parts = NEW_ARRAY(tc.a, const char *, n);
    const char *start = s;
    for (const char *c = s;; c++) {
        if (*c != '.' && *c) continue;
        q.parts[q.nparts++] = intern(arena_strndup(tc.a, start, (size_t)(c - start)));
        if (!*c) break;
        start = c + 1;
    }
    return q;
}

/* The function of a backtick section (`f` e): resolved like a variable
 * (the section's name and ref are set as an EX_VAR's would be). */
static Ty *section_fun(Exp *e) {
    Exp v = {0};
    v.kind = EX_VAR;
    v.loc = e->loc;
    v.name = split_name(e->op);
    Ty *t = var_exp(&v);
    if (v.ref.nvar_parts)
        tc_fail(e->loc, "A backtick section of a record field (\"%s\") is not supported.", e->op);
    e->name = v.name;
    e->ref = v.ref;
    return t;
}

/* (op), (e op) and (op e); op may be a backticked function name. */
static Ty *section_exp(Exp *e) {
    if (!e->op) tc_fail(e->loc, "malformed operator section");
    Ty *fty;
    if (is_name_op(e->op)) {
        fty = section_fun(e);
    } else {
        Binding *b = operator_binding(e->op);
        fty = b ? use_binding(e, b) : builtin_op_type(e->op, e->loc);
    }
    if (!fty) tc_fail(e->loc, "Unknown operator \"%s\".", e->op);
    const char *name = arena_printf(tc.a, "\"%s\"", e->op);
    if (e->e1 && e->e2) {
        Ty *t = apply_arg(e->loc, fty, e->e1, tc_exp(e->e1), name, U_STRICT);
        return apply_arg(e->loc, t, e->e2, tc_exp(e->e2), name, U_STRICT);
    }
    if (e->e1) return apply_arg(e->loc, fty, e->e1, tc_exp(e->e1), name, U_STRICT);
    if (e->e2) {
        Ty *a = tc_fresh(e->loc), *bt = tc_fresh(e->loc), *c = tc_fresh(e->loc);
        tc_unify(e->loc, tc_arrow(a, tc_arrow(bt, c, NULL), NULL), fty, U_STRICT);
        tc_unify(e->e2->loc, bt, tc_exp(e->e2), U_STRICT);
        return tc_arrow(a, c, NULL);
    }
    return fty;
}

/* ---- Arrays -------------------------------------------------------------------------- */

/* An index or slice bound: any integer type (converted to i64 where it
 * is used). A variable not known yet stays open to every integer type, so
 * that map (\i -> xs[i]) is takes the type of is. */
static void index_operand(Exp *i) {
    Ty *t = tc_exp(i);
    Ty *h = tc_head(t);
    if (h->kind == TY_PRIM && (TC_INTS & TC_PRIM_BIT(h->prim))) return;
    if (h->kind == TY_VAR && !tc.vars.items[h->var].rigid && !tc.vars.items[h->var].fields &&
        !tc.vars.items[h->var].constrs) {
        tc_constrain(i->loc, t, TC_INTS, "an index");
        tc.vars.items[tc_head(t)->var].index = true;
        return;
    }
    tc_unify(i->loc, tc_prim(PT_I64), t, U_STRICT);
}

static bool is_lit(Exp *e, int64_t v) {
    return e && e->kind == EX_INT && e->ivalue == (uint64_t)v;
}

/* The size of a slice a[i:j:s] of dimension d: d for [:], j for [0:j] /
 * [:j] when j is simple, else unknown. */
static Size slice_size(DimIndex *di, Size d) {
    if (!di->start && !di->end && !di->stride) return d;
    /* a[::-1] reverses a */
    if (!di->start && !di->end && di->stride && di->stride->kind == EX_NEG && is_lit(di->stride->e1, 1)) return d;
    if ((!di->start || is_lit(di->start, 0)) && (!di->stride || is_lit(di->stride, 1)) && di->end)
        return arg_size(di->end);
    return tc_size_any();
}

/* The type of arr[slice]. */
static Ty *index_type(SrcLoc loc, Ty *arr, DimIndex *slice, int n) {
    if (n < 0 || (n > 0 && !slice)) tc_fail(loc, "malformed index");
    for (int i = 0; i < n; i++) {
        DimIndex *di = &slice[i];
        if (!di->is_slice) {
            index_operand(di->index);
            continue;
        }
        if (di->start) index_operand(di->start);
        if (di->end) index_operand(di->end);
        if (di->stride) index_operand(di->stride);
    }
    Ty *h = tc_head(arr);
    if (h->kind == TY_ARRAY && h->rank < n) {
        Ty *eh = tc_head(h->elem);
        if (eh->kind == TY_VAR && !tc.vars.items[eh->var].rigid) {
            Size *any = NEW_ARRAY(tc.a, Size, n - h->rank);
            for (int i = 0; i < n - h->rank; i++) any[i] = tc_size_any();
            tc_unify(loc, h->elem, tc_array(tc_fresh(loc), any, n - h->rank), U_STRICT);
            h = tc_head(arr);
        }
    }
    if (h->kind == TY_VAR && !tc.vars.items[h->var].rigid) {
        /* sizes to be inferred, as a parameter's []: a function that
         * updates its parameter returns an array of the same size */
        Size *any = NEW_ARRAY(tc.a, Size, n);
        for (int i = 0; i < n; i++) any[i] = tc_fresh_size();
        tc_unify(loc, arr, tc_array(tc_fresh(loc), any, n), U_STRICT);
        h = tc_head(arr);
    }
    if (h->kind != TY_ARRAY) tc_fail(loc, "Cannot index a value of type %s, which is not an array.", tc_show(arr));
    if (n > h->rank)
        tc_fail(loc, "Too many indices (%d) for an array of type %s.", n, tc_show(arr));
    Size *dims = NEW_ARRAY(tc.a, Size, h->rank);
    int k = 0;
    for (int i = 0; i < h->rank; i++) {
        if (i >= n) dims[k++] = h->dims[i];
        else if (slice[i].is_slice) dims[k++] = slice_size(&slice[i], h->dims[i]);
    }
    return k ? tc_array(h->elem, dims, k) : h->elem;
}

static Ty *array_exp(Exp *e) {
    if (e->nelems == 0) {
        Size z = tc_size_const(0);
        return tc_array(tc_fresh(e->loc), &z, 1);
    }
    Ty *t = tc_exp(e->elems[0]);
    for (int i = 1; i < e->nelems; i++) tc_unify(e->elems[i] ? e->elems[i]->loc : e->loc, t, tc_exp(e->elems[i]), U_STRICT);
    if (tc_contains_arrow(t)) tc_fail(e->loc, "Type %s found to be functional: arrays of functions are not allowed.", tc_show(t));
    Size n = tc_size_const(e->nelems);
    return tc_array(t, &n, 1);
}

static Ty *range_exp(Exp *e) {
    Ty *t = tc_exp(e->start);
    tc_constrain(e->start->loc, t, TC_INTS, "a range");
    if (e->second) tc_unify(e->second->loc, t, tc_exp(e->second), U_STRICT);
    tc_unify(e->end->loc, t, tc_exp(e->end), U_STRICT);
    Size n = tc_size_any();
    if (e->range == RANGE_UPTO && !e->second && is_lit(e->start, 0)) n = arg_size(e->end);
    return tc_array(t, &n, 1);
}

/* ---- Records ------------------------------------------------------------------------- */

/* {0 = a, 1 = b} is the tuple (a, b): rewrites such a record expression
 * into EX_TUPLE so that later phases see one representation. */
static void canonical_tuple_exp(Exp *e) {
    const char **names = NEW_ARRAY(tc.a, const char *, e->nfields + 1);
    int *pos = NEW_ARRAY(tc.a, int, e->nfields + 1);
    for (int i = 0; i < e->nfields; i++) names[i] = e->fields[i].name;
    if (!tc_tuple_fields(names, e->nfields, pos)) return;
    Exp **elems = NEW_ARRAY(tc.a, Exp *, e->nfields + 1);
    for (int k = 0; k < e->nfields; k++) elems[k] = e->fields[pos[k]].exp;
    e->kind = EX_TUPLE;
    e->elems = elems;
    e->nelems = e->nfields;
    e->fields = NULL;
    e->nfields = 0;
}

static Ty *record_exp(Exp *e) {
    Ty *t = NEW(tc.a, Ty);
    t->kind = TY_RECORD;
    t->n = e->nfields;
    t->fields = NEW_ARRAY(tc.a, TyField, e->nfields);
    for (int i = 0; i < e->nfields; i++) {
        ExpField *f = &e->fields[i];
        for (int j = 0; j < i; j++)
            if (strcmp(e->fields[j].name, f->name) == 0)
                tc_fail(f->loc, "Field \"%s\" previously defined at %d:%d.", f->name, e->fields[j].loc.line,
                        e->fields[j].loc.col);
        Ty *ft = tc_exp(f->exp);
        int k = i;
        while (k > 0 && strcmp(t->fields[k - 1].name, f->name) > 0) {
            t->fields[k] = t->fields[k - 1];
            k--;
        }
        t->fields[k].name = f->name;
        t->fields[k].ty = ft;
    }
    return t;
}

static Ty *tuple_exp(Exp *e) {
    if (e->nelems == 1) return tc_exp(e->elems[0]);
    Ty **el = NEW_ARRAY(tc.a, Ty *, e->nelems);
    for (int i = 0; i < e->nelems; i++) el[i] = tc_exp(e->elems[i]);
    return tc_tuple(el, e->nelems);
}

/* t with the field at path (n steps) of type v, where t is a known
 * record or tuple (else t itself): a record update may change the sizes
 * of an array field, as in Futhark. */
static Ty *with_field(Ty *t, const char *const *path, int n, Ty *v) {
    if (n == 0) return v;
    Ty *h = tc_head(t);
    if (h->kind == TY_RECORD) {
        Ty *r = NEW(tc.a, Ty);
        *r = *h;
        r->fields = NEW_ARRAY(tc.a, TyField, h->n);
        for (int i = 0; i < h->n; i++) {
            r->fields[i] = h->fields[i];
            if (strcmp(h->fields[i].name, path[0]) == 0) r->fields[i].ty = with_field(h->fields[i].ty, path + 1, n - 1, v);
        }
        return r;
    }
    char *end;
    long k = strtol(path[0], &end, 10);
    if (h->kind != TY_TUPLE || *end || k < 0 || k >= h->n) return t;
    Ty **el = NEW_ARRAY(tc.a, Ty *, h->n);
    for (int i = 0; i < h->n; i++) el[i] = i == k ? with_field(h->elems[i], path + 1, n - 1, v) : h->elems[i];
    return tc_tuple(el, h->n);
}

static Ty *record_update_exp(Exp *e) {
    Ty *t = tc_exp(e->e1);
    Ty *ft = t;
    for (int i = 0; i < e->npath; i++) ft = tc_field_type(e->loc, ft, e->path[i]);
    Ty *v = tc_exp(e->e2);
    if (tc_try_unify(ft, v, U_LENIENT_SIZES, NULL))
        tc_fail(e->e2->loc, "Type %s of the new value of record field \"%s\" does not match its type %s.", tc_show(v),
                e->path[e->npath - 1], tc_show(ft));
    return with_field(t, e->path, e->npath, v);
}

static Ty *proj_section_exp(Exp *e) {
    Ty *r = tc_fresh(e->loc);
    Ty *t = r;
    for (int i = 0; i < e->npath; i++) t = tc_field_type(e->loc, t, e->path[i]);
    return tc_arrow(r, t, NULL);
}

/* ---- Functions ------------------------------------------------------------------------- */

/* Brings type and size parameters into scope; returns their keys for the
 * function's scheme through keys (type variable ids) and sizes (uids). */
static void bind_tparams(TypeParam *tps, int n, Scheme *sch) {
    sch->tvars = NEW_ARRAY(tc.a, int, n + 1);
    sch->svars = NEW_ARRAY(tc.a, int, n + 1);
    sch->svar_names = NEW_ARRAY(tc.a, const char *, n + 1);
    for (int i = 0; i < n; i++) {
        TypeParam *tp = &tps[i];
        for (int j = 0; j < i; j++)
            if (strcmp(tps[j].name, tp->name) == 0)
                tc_fail(tp->loc, "Type parameter \"%s\" also bound at %d:%d.", tp->name, tps[j].loc.line,
                        tps[j].loc.col);
        int key = tc_bind_tparam(tp);
        if (tp->kind == TP_SIZE) {
            tc_set_strict(key);
            sch->svar_names[sch->nsvars] = tp->name;
            sch->svars[sch->nsvars++] = key;
        } else {
            sch->tvars[sch->ntvars++] = key;
        }
    }
}

/* The parameter name a dependent arrow can refer to, or NULL. */
static const char *param_name(Pat *p) {
    while (p && p->kind == P_ASCRIBE) p = p->inner;
    return p && p->kind == P_ID ? p->name : NULL;
}

static int param_uid(Pat *p) {
    while (p && p->kind == P_ASCRIBE) p = p->inner;
    return p && p->kind == P_ID ? p->uid : 0;
}

bool tc_is_intrinsic_body(Exp *e) {
    if (!e) return false;
    if (e->kind == EX_APPLY && e->e1 && e->e1->kind == EX_VAR && e->e1->name.nparts == 1 &&
        strcmp(e->e1->name.parts[0], "__intrinsic") == 0)
        return e->nelems == 1 && e->elems[0] && e->elems[0]->kind == EX_STRING;
    return false;
}

/* Checks a function (top-level or local): parameters, optional return type
 * and body. Returns a scheme holding its type and its explicit type and size
 * parameters (the caller adds what it generalises). */
Scheme *tc_function(SrcLoc loc, TypeParam *tps, int ntps, Pat **params, int nparams, TypeExp *ret,
                Exp *body, Ty **ret_out, bool intrinsic, Ty ***param_tys_out) {
    (void)loc;
    int mark = tc_mark();
    Scheme *sch = NEW(tc.a, Scheme);
    bind_tparams(tps, ntps, sch);
    Ty **pts = NEW_ARRAY(tc.a, Ty *, nparams + 1);
    for (int i = 0; i < nparams; i++) {
        pts[i] = tc_bind_pat(params[i], NULL, true);
        int uid = param_uid(params[i]);
        if (uid && tc_is_prim(pts[i], PT_I64)) tc_set_strict(uid);
    }
    tc_check_dup_names(params, nparams);
    check_size_param_names(tps, ntps, params, nparams);
    int uid_mark = tc.next_uid;
    Ty *rt = ret ? tc_type_exp(ret, false) : NULL;
    Ty *bt;
    if (intrinsic) {
        if (!tc.in_prelude) tc_fail(body->loc, "__intrinsic may only be used in the prelude.");
        if (!rt) tc_fail(body->loc, "An __intrinsic definition must declare its return type.");
        bt = rt;
        body->ty = rt;
    } else {
        bt = tc_exp(body);
        const char *why = rt ? tc_try_unify(rt, bt, U_DIET, NULL) : NULL;
        if (why) tc_fail(body->loc, "%s Function body does not have expected type.", why);
        else bt = tc_forget_sizes(bt, uid_mark);
    }
    Ty *res = rt ? rt : bt;
    if (ret_out) *ret_out = res;
    Ty *t = res;
    for (int i = nparams - 1; i >= 0; i--) t = tc_arrow_dep(pts[i], t, param_name(params[i]), param_uid(params[i]));
    if (param_tys_out) *param_tys_out = pts;
    tc_pop_to(mark);
    sch->ty = t;
    sch->nparams = nparams;
    return sch;
}

/* ---- Generalisation ---------------------------------------------------------------------- */

static void add_key(int **keys, int *n, int key) {
    for (int i = 0; i < *n; i++)
        if ((*keys)[i] == key) return;
    int *k = NEW_ARRAY(tc.a, int, *n + 1);
    COPY_ARRAY(k, *keys, *n);
    k[(*n)++] = key;
    *keys = k;
}

/* Quantifies the unconstrained variables of t created at a deeper level. */
static void gen_walk(Ty *t, Scheme *sch, int first_var, int first_svar) {
    t = tc_head(t);
    switch (t->kind) {
    case TY_VAR: {
        TVar *v = &tc.vars.items[t->var];
        if (t->var >= first_var && !v->rigid && v->level > tc.level && !v->prims && !v->fields && !v->constrs) {
            v->rigid = true;
            v->lifted = true;
            v->name = arena_printf(tc.a, "t%d", sch->ntvars);
            add_key(&sch->tvars, &sch->ntvars, t->var);
        }
        break;
    }
    case TY_ARRAY:
        for (int i = 0; i < t->rank; i++) {
            Size s = tc_size_head(t->dims[i]);
            if (s.kind == SZ_VAR && s.uid < 0 && -s.uid - 1 >= first_svar &&
                tc.svars.items[-s.uid - 1].level > tc.level)
                add_key(&sch->svars, &sch->nsvars, s.uid);
        }
        gen_walk(t->elem, sch, first_var, first_svar);
        break;
    case TY_TUPLE:
        for (int i = 0; i < t->n; i++) gen_walk(t->elems[i], sch, first_var, first_svar);
        break;
    case TY_RECORD:
    case TY_SUM:
        for (int i = 0; i < t->n; i++) gen_walk(t->fields[i].ty, sch, first_var, first_svar);
        break;
    case TY_ARROW:
        gen_walk(t->param, sch, first_var, first_svar);
        gen_walk(t->result, sch, first_var, first_svar);
        break;
    case TY_ABSTRACT:
        for (int i = 0; i < t->rank; i++) {
            Size s = tc_size_head(t->dims[i]);
            if (s.kind == SZ_VAR && s.uid < 0 && -s.uid - 1 >= first_svar &&
                tc.svars.items[-s.uid - 1].level > tc.level)
                add_key(&sch->svars, &sch->nsvars, s.uid);
        }
        for (int i = 0; i < t->n; i++) gen_walk(t->elems[i], sch, first_var, first_svar);
        break;
    default:
        break;
    }
}

/* The size variables generalised by gen_walk become implicit size
 * parameters: each is bound to a size named by a fresh uid, which stands
 * for it in the definition's (zonked) types and keys it in the scheme. */
static void name_sizes(Scheme *sch) {
    const char **names = NEW_ARRAY(tc.a, const char *, sch->nsvars + 1);
    for (int i = 0; i < sch->nsvars; i++) {
        if (sch->svars[i] > 0) {
            names[i] = sch->svar_names[i];
            continue;
        }
        SVar *v = &tc.svars.items[-sch->svars[i] - 1];
        sch->svars[i] = tc_new_uid();
        v->bound = true;
        v->val = tc_size_var(sch->svars[i], NULL);
    }
    sch->svar_names = names;
}

void tc_generalise(Scheme *sch, int first_var, int first_svar) {
    gen_walk(sch->ty, sch, first_var, first_svar);
    name_sizes(sch);
}

/* ---- Binding constructs ---------------------------------------------------------------- */

static Ty *lambda_exp(Exp *e) {
    int mark = tc_mark();
    int uid_mark = tc.next_uid;
    Ty **pts = NEW_ARRAY(tc.a, Ty *, e->nparams + 1);
    for (int i = 0; i < e->nparams; i++) pts[i] = tc_bind_pat(e->params[i], NULL, true);
    tc_check_dup_names(e->params, e->nparams);
    Ty *rt = e->ret ? tc_type_exp(e->ret, false) : NULL;
    Ty *bt = tc_exp(e->e1);
    if (rt) tc_unify(e->e1->loc, rt, bt, U_STRICT);
    Ty *t = tc_forget_sizes(rt ? rt : bt, uid_mark);
    for (int i = e->nparams - 1; i >= 0; i--) t = tc_arrow(pts[i], t, NULL);
    tc_pop_to(mark);
    return t;
}

/* let f params = e1 in ...: binds f, generalised. */
static void letfun_link(Exp *e) {
    int first_var = tc.vars.len, first_svar = tc.svars.len;
    tc.level++;
    Scheme *sch = tc_function(e->loc, e->tparams, e->ntparams, e->params, e->nparams, e->ret,
                              e->e1, NULL, false, NULL);
    tc.level--;
    tc_generalise(sch, first_var, first_svar);
    e->fname_uid = tc_new_uid();
    tc_push((Binding){.name = e->fname, .ns = NS_VALUE, .loc = e->loc, .ref = REF_LOCAL, .uid = e->fname_uid, .sch = sch});
}

static Binding *local_array_var(SrcLoc loc, const char *name) {
    Binding *b = tc_lookup(name, NS_VALUE);
    if (!b) tc_fail(loc, "Unknown name \"%s\".", name);
    if (b->ref != REF_LOCAL || b->recursive)
        tc_fail(loc, "\"%s\" is not a local variable and cannot be updated in place.", name);
    return b;
}

/* let a[i] = v in body: the body sees the updated array under the same
 * binding (fname_uid is the updated variable's uid). */
static void let_update_link(Exp *e) {
    if (!e->fname) tc_fail(e->loc, "malformed in-place update");
    Binding *b = local_array_var(e->loc, e->fname);
    e->fname_uid = b->uid;
    Ty *at = b->sch ? b->sch->ty : tc_fresh(e->loc);
    Ty *elem = index_type(e->loc, at, e->slice, e->nslice);
    tc_unify(e->e1->loc, elem, tc_exp(e->e1), U_LENIENT_SIZES);
}

static bool well_formed(Exp *e);

/* Reports a size binder that the pattern also binds as a value. */
static void binder_not_in_pat(const TypeParam *tp, Pat *p) {
    if (!p) return;
    switch (p->kind) {
    case P_ID:
        if (strcmp(p->name, tp->name) == 0)
            tc_fail(p->loc, "Name \"%s\" also bound as a size at %d:%d.", p->name, tp->loc.line, tp->loc.col);
        break;
    case P_TUPLE:
    case P_CONSTR:
        for (int i = 0; i < p->nelems; i++) binder_not_in_pat(tp, p->elems[i]);
        break;
    case P_RECORD:
        for (int i = 0; i < p->nfields; i++) binder_not_in_pat(tp, p->fields[i].pat);
        break;
    case P_ASCRIBE:
        binder_not_in_pat(tp, p->inner);
        break;
    default:
        break;
    }
}

/* let [n] (xs: [n]t) = e: each size binder is a size of e's value, named
 * in scope after e (not in it). As in Futhark, a binder is first an unknown
 * size that the pattern's type unifies with e's type (so [k][k] against
 * sizes n and m is an error): while the pattern is checked, the binder's
 * name is bound to that unknown (a negative uid, which dim_size turns into
 * the size variable). Then each binder becomes the size it was unified
 * with, when that is a name (the existential size of filter's result, a
 * size parameter), or else a size of its own that the lowering binds from
 * the value's shape (as for a function's size parameters; a constant or
 * expression is then checked against it at run time, never differing). */
static void size_binders_link(Exp *e) {
    Ty *t = tc_exp(e->e1);
    int n = e->ntparams, mark = tc_mark();
    Size *unknown = NEW_ARRAY(tc.a, Size, n);
    for (int i = 0; i < n; i++) {
        TypeParam *tp = &e->tparams[i];
        for (int j = 0; j < i; j++)
            if (strcmp(e->tparams[j].name, tp->name) == 0)
                tc_fail(tp->loc, "Size name also bound at %d:%d.", e->tparams[j].loc.line, e->tparams[j].loc.col);
        binder_not_in_pat(tp, e->pat);
        unknown[i] = tc_fresh_size();
        tc_push_local_value(tp->name, unknown[i].uid, tc_prim(PT_I64), tp->loc);
    }
    Ty *pt = pat_type(e->pat, false);
    for (int i = 0; i < n; i++)
        if (!tc_size_in_data(pt, unknown[i].uid, true)) {
            if (tc_contains_arrow(pt)) /* a size of a function's parameter or result is no value's */
                tc_fail(e->tparams[i].loc, "Cannot bind [%s] as it is never used as the size of a concrete (non-function) value.",
                        e->tparams[i].name);
            tc_fail(e->tparams[i].loc, "Size [%s] unused in pattern.", e->tparams[i].name);
        }
    tc_unify(e->pat->loc, pt, t, U_STRICT);
    tc_pop_to(mark);
    for (int i = 0; i < n; i++) {
        TypeParam *tp = &e->tparams[i];
        Size s = tc_size_resolve(unknown[i]);
        if (s.kind == SZ_VAR && s.uid > 0) {
            tp->uid = s.uid;
        } else {
            tp->uid = tc_new_uid();
            if (s.kind == SZ_VAR) { /* still unknown: it is the binder's own */
                Size own = tc_size_var(tp->uid, tp->name);
                tc_unify(tp->loc, tc_array(tc_prim(PT_I64), &own, 1), tc_array(tc_prim(PT_I64), &unknown[i], 1), U_STRICT);
            }
        }
        tc_push_local_value(tp->name, tp->uid, tc_prim(PT_I64), tp->loc);
    }
    tc_unify(e->pat->loc, tc_bind_pat(e->pat, NULL, false), t, U_LENIENT_SIZES);
}

/* Checks the bound part of one link of a chain of lets and brings its
 * names into scope; returns the uid mark of the sizes that go out of
 * scope after its body, or -1 when it binds none (an in-place update). */
static int let_link(Exp *e) {
    if (!well_formed(e)) tc_fail(e->loc, "malformed expression");
    last_loc = e->loc;
    int uid_mark = tc.next_uid;
    switch (e->kind) {
    case EX_LET:
        if (e->ntparams > 0) size_binders_link(e);
        else tc_bind_pat(e->pat, tc_exp(e->e1), false);
        tc_check_dup_names(&e->pat, 1);
        return uid_mark;
    case EX_LETFUN:
        letfun_link(e);
        return uid_mark;
    default:
        let_update_link(e);
        return -1;
    }
}

/* A chain of lets (let ... in let ... in body), checked link by link in a
 * loop rather than by recursion, so that a long chain needs no deep stack
 * (nor counts towards TC_MAX_DEPTH). As if nested, the names of every link
 * go out of scope after the body, and each link's type is that of its body
 * with the sizes it bound forgotten. */
static Ty *let_chain_exp(Exp *e) {
    int n = 0, mark = tc_mark();
    for (Exp *x = e; ast_is_let(x); x = x->e2) n++;
    Exp **links = NEW_ARRAY(tc.a, Exp *, n);
    int *uid_marks = NEW_ARRAY(tc.a, int, n);
    for (int i = 0; i < n; i++, e = e->e2) {
        links[i] = e;
        uid_marks[i] = let_link(e);
    }
    Ty *t = tc_exp(e);
    for (int i = n - 1; i >= 0; i--) {
        if (uid_marks[i] >= 0) t = tc_forget_sizes(t, uid_marks[i]);
        links[i]->ty = t;
    }
    tc_pop_to(mark);
    return t;
}

/* The type at path steps of a value of type t: fields and brackets in
 * order. A bracket before the last one holds indices only (then fields
 * and indices commute, as the lowering of arrays of records needs). */
static Ty *path_type(Ty *t, UpdStep *steps, int n) {
    int last = n - 1;
    while (last >= 0 && steps[last].field) last--;
    for (int i = 0; i < n; i++) {
        UpdStep *s = &steps[i];
        if (s->field) {
            t = tc_field_type(s->loc, t, s->field);
            continue;
        }
        for (int j = 0; i < last && j < s->nslice; j++)
            if (s->slice[j].is_slice) tc_fail(s->loc, "Only the last brackets of an update path may hold a slice.");
        t = index_type(s->loc, t, s->slice, s->nslice);
    }
    return t;
}

static Ty *update_exp(Exp *e) {
    Ty *t = tc_exp(e->e1);
    Ty *elem = e->nsteps ? path_type(t, e->steps, e->nsteps) : index_type(e->loc, t, e->slice, e->nslice);
    tc_unify(e->e2->loc, elem, tc_exp(e->e2), U_LENIENT_SIZES);
    return t;
}

static Ty *if_exp(Exp *e) {
    tc_unify(e->e1->loc, tc_prim(PT_BOOL), tc_exp(e->e1), U_STRICT);
    Ty *t2 = tc_exp(e->e2);
    Ty *t3 = tc_exp(e->e3);
    tc_unify(e->e3->loc, t2, t3, U_LENIENT_SIZES);
    if (tc_contains_arrow(t2))
        tc_fail(e->loc, "The branches of an \"if\" may not be of function type (here %s).", tc_show(t2));
    tc_no_functions(t2);
    return tc_join(t2, t3);
}

/* loop p for ...: with the initial value omitted, the pattern's names
 * refer to variables in scope; builds that expression into e->e1. */
static Exp *implicit_loop_init(Pat *p) {
    Exp *x = NEW(tc.a, Exp);
    x->loc = p->loc;
    switch (p->kind) {
    case P_ID:
        x->kind = EX_VAR;
        x->name.parts = NEW_ARRAY(tc.a, const char *, 1);
        x->name.parts[0] = p->name;
        x->name.nparts = 1;
        return x;
    case P_ASCRIBE:
        return implicit_loop_init(p->inner);
    case P_TUPLE:
        x->kind = EX_TUPLE;
        x->nelems = p->nelems;
        x->elems = NEW_ARRAY(tc.a, Exp *, p->nelems);
        for (int i = 0; i < p->nelems; i++) x->elems[i] = implicit_loop_init(p->elems[i]);
        return x;
    case P_RECORD:
        x->kind = EX_RECORD;
        x->nfields = p->nfields;
        x->fields = NEW_ARRAY(tc.a, ExpField, p->nfields);
        for (int i = 0; i < p->nfields; i++) {
            x->fields[i].name = p->fields[i].name;
            x->fields[i].exp = implicit_loop_init(p->fields[i].pat);
            x->fields[i].loc = p->loc;
        }
        return x;
    default:
        tc_fail(p->loc, "A loop pattern without an initial value must consist of names.");
    }
}

/* The array of a for-in loop, checked outside the loop's scope. */
static Ty *for_in_array(Exp *e) {
    Ty *xs = tc_exp(e->e3);
    Ty *h = tc_head(xs);
    if (h->kind == TY_VAR && !tc.vars.items[h->var].rigid) {
        Size any = tc_size_any();
        tc_unify(e->e3->loc, xs, tc_array(tc_fresh(e->loc), &any, 1), U_STRICT);
        h = tc_head(xs);
    }
    if (h->kind != TY_ARRAY)
        tc_fail(e->e3->loc, "A for-in loop needs an array, but got a value of type %s.", tc_show(xs));
    return h->rank > 1 ? tc_array(h->elem, h->dims + 1, h->rank - 1) : h->elem;
}

/* loop pat = e1 for ... do e2: the initial value and a for loop's bound or
 * array are outside the scope of the loop parameters; a while condition
 * is inside it. */
static Ty *loop_exp(Exp *e) {
    int uid_mark = tc.next_uid;
    if (!e->pat) tc_fail(e->loc, "malformed loop");
    if (!e->e1) e->e1 = implicit_loop_init(e->pat);
    Ty *t0 = tc_exp(e->e1);
    Ty *outer = NULL;
    if (e->form == LOOP_FOR_UPTO) {
        outer = tc_exp(e->e3);
        tc_constrain(e->e3->loc, outer, TC_INTS, "a for loop bound");
    } else if (e->form == LOOP_FOR_IN) {
        outer = for_in_array(e);
    }
    int mark = tc_mark();
    Ty *pt = pat_type(e->pat, false);
    tc_unify(e->e1->loc, pt, t0, U_LENIENT_SIZES);
    if (tc_contains_arrow(pt)) tc_fail(e->pat->loc, "A loop parameter may not be of function type (here %s).", tc_show(pt));
    tc_no_functions(pt);
    e->pat->ty = pt;
    bind_names(e->pat);
    tc_check_dup_names(&e->pat, 1);
    switch (e->form) {
    case LOOP_FOR_UPTO:
        e->loop_var_uid = tc_new_uid();
        tc_push_local_value(e->loop_var, e->loop_var_uid, outer, e->loc);
        break;
    case LOOP_FOR_IN:
        if (!e->pat2) tc_fail(e->loc, "malformed loop");
        tc_bind_pat(e->pat2, outer, false);
        break;
    case LOOP_WHILE:
        tc_unify(e->e3->loc, tc_prim(PT_BOOL), tc_exp(e->e3), U_STRICT);
        break;
    }
    Ty *bt = tc_exp(e->e2);
    tc_unify(e->e2->loc, pt, bt, U_LENIENT_SIZES);
    tc_pop_to(mark);
    return tc_forget_sizes(tc_join(pt, bt), uid_mark);
}

/* M.(e): e with the names of module M in scope. Once they are resolved the
 * node becomes e itself, so that later phases never see a local open. */
static Ty *open_exp(Exp *e) {
    Module *m = tc_lookup_module(e->loc, &e->name);
    if (m->poisoned) longjmp(*tc.bail, 1); /* its errors are reported */
    if (m->fun) tc_fail(e->loc, "Cannot have parametric module here.");
    int mark = tc_mark();
    for (int i = 0; i < m->n; i++) tc_push(m->binds[i]);
    Ty *t = tc_exp(e->e1);
    tc_pop_to(mark);
    *e = *e->e1;
    return t;
}

/* ---- Dispatch ------------------------------------------------------------------------------ */

static Ty *literal_type(Exp *e, unsigned prims) {
    if (e->has_suffix) {
        if (!(prims & TC_PRIM_BIT(e->suffix)))
            tc_fail(e->loc, "A literal of this form cannot have type %s.", tc_prim_name(e->suffix));
        return tc_prim(e->suffix);
    }
    return tc_fresh_lit(prims, e->loc);
}

/* Whether the children that e's kind requires are present (the parser may
 * leave holes after a syntax error). */
static bool well_formed(Exp *e) {
    switch (e->kind) {
    case EX_PROJECT:
    case EX_INDEX:
    case EX_NEG:
    case EX_NOT:
    case EX_APPLY:
    case EX_LAMBDA:
        return e->e1 != NULL;
    case EX_BINOP:
    case EX_LET_UPDATE:
    case EX_UPDATE:
    case EX_RECORD_UPDATE:
    case EX_ASSERT:
    case EX_LETFUN:
        return e->e1 && e->e2;
    case EX_IF:
        return e->e1 && e->e2 && e->e3;
    case EX_LET:
        return e->e1 && e->e2 && e->pat;
    case EX_LOOP:
        return e->e2 && e->e3 && e->pat;
    case EX_ASCRIBE:
    case EX_COERCE:
        return e->e1 && e->ret;
    case EX_OPEN:
    case EX_MATCH:
        return e->e1 != NULL;
    case EX_RANGE:
        return e->start && e->end;
    default:
        return true;
    }
}

static Ty *exp_type(Exp *e) {
    if (!well_formed(e)) tc_fail(e->loc, "malformed expression");
    switch (e->kind) {
    case EX_INT:
        return literal_type(e, TC_NUMS);
    case EX_FLOAT:
        return literal_type(e, TC_FLOATS);
    case EX_BOOL:
        return tc_prim(PT_BOOL);
    case EX_HOLE: /* any type: what its context needs */
        return tc_fresh(e->loc);
    case EX_STRING: {
        Size n = tc_size_const(e->strlen);
        return tc_array(tc_prim(PT_U8), &n, 1);
    }
    case EX_VAR:
        return var_exp(e);
    case EX_TUPLE:
        return tuple_exp(e);
    case EX_RECORD:
        canonical_tuple_exp(e);
        return e->kind == EX_TUPLE ? tuple_exp(e) : record_exp(e);
    case EX_ARRAY:
        return array_exp(e);
    case EX_RANGE:
        return range_exp(e);
    case EX_PROJECT:
        if (!e->field) tc_fail(e->loc, "malformed field access");
        return tc_field_type(e->loc, tc_exp(e->e1), e->field);
    case EX_INDEX:
        return index_type(e->loc, tc_exp(e->e1), e->slice, e->nslice);
    case EX_BINOP:
        return binop_exp(e);
    case EX_NEG: {
        Ty *t = tc_exp(e->e1);
        tc_constrain(e->e1->loc, t, TC_NUMS, "negation \"-\"");
        return t;
    }
    case EX_NOT: {
        Ty *t = tc_exp(e->e1);
        tc_constrain(e->e1->loc, t, TC_INTS | TC_PRIM_BIT(PT_BOOL), "operator \"!\"");
        return t;
    }
    case EX_APPLY:
        return apply_exp(e);
    case EX_LAMBDA:
        return lambda_exp(e);
    case EX_SECTION:
        return section_exp(e);
    case EX_PROJ_SECTION:
        return proj_section_exp(e);
    case EX_IF:
        return if_exp(e);
    case EX_LET:
    case EX_LETFUN:
    case EX_LET_UPDATE:
        return let_chain_exp(e);
    case EX_LOOP:
        return loop_exp(e);
    case EX_UPDATE:
        return update_exp(e);
    case EX_RECORD_UPDATE:
        return record_update_exp(e);
    case EX_ASCRIBE: {
        Ty *t = tc_exp(e->e1);
        Ty *d = tc_type_exp(e->ret, false);
        const char *why = tc_try_unify(d, t, U_DIET, NULL);
        if (why) tc_fail(e->loc, "%s Expression does not have expected type.", why);
        return d;
    }
    case EX_COERCE: {
        Ty *t = tc_exp(e->e1);
        Ty *d = tc_type_exp(e->ret, false);
        tc_unify(e->loc, d, t, U_LENIENT_SIZES | U_COERCE);
        return d;
    }
    case EX_ASSERT:
        tc_unify(e->e1->loc, tc_prim(PT_BOOL), tc_exp(e->e1), U_STRICT);
        return tc_exp(e->e2);
    case EX_OPEN:
        return open_exp(e);
    case EX_CONSTR:
        return tc_constr_exp(e);
    case EX_MATCH:
        return tc_match_exp(e);
    }
    tc_fail(e->loc, "malformed expression");
}
