/* Printing of types during inference, for the checker's messages: the
 * current substitution applied, sizes by name or expression, flexible
 * variables by what constrains them. */
#include "check_internal.h"

/* A size expression as written in types: n + 1, (n + 1) * m. */
static void show_size_exp(Buf *b, Exp *e, bool nested) {
    switch (e->kind) {
    case EX_INT:
        buf_printf(b, "%lld", (long long)e->ivalue);
        break;
    case EX_VAR:
        for (int i = 0; i < e->name.nparts; i++) buf_printf(b, "%s%s", i ? "." : "", e->name.parts[i]);
        if (e->name.nparts == 0) buf_putc(b, '?');
        break;
    case EX_BINOP:
        if (nested) buf_putc(b, '(');
        show_size_exp(b, e->e1, true);
        buf_printf(b, " %s ", e->op);
        show_size_exp(b, e->e2, true);
        if (nested) buf_putc(b, ')');
        break;
    default:
        ast_print_exp(b, e);
    }
}

static void show_size(Buf *b, Size s) {
    s = tc_size_head(s);
    buf_putc(b, '[');
    if (s.kind == SZ_CONST) buf_printf(b, "%lld", (long long)s.c);
    else if (s.kind == SZ_VAR && s.uid > 0 && s.name) buf_puts(b, s.name);
    else if (s.kind == SZ_EXP) {
        Size r = tc_size_resolve(s);
        if (r.kind == SZ_EXP) show_size_exp(b, r.exp, false);
        else if (r.kind == SZ_CONST) buf_printf(b, "%lld", (long long)r.c);
        else if (r.kind == SZ_VAR && r.uid > 0 && r.name) buf_puts(b, r.name);
    }
    buf_putc(b, ']');
}

static void show(Buf *b, Ty *t, bool paren_arrow);

/* Constructors with their payloads, "#a i32 | #b"; an open list (the
 * constraints of a variable) ends in "| ...". */
static void show_constrs(Buf *b, const TyField *cs, const FieldCon *open, int n, bool paren) {
    if (paren) buf_putc(b, '(');
    for (int i = 0; open || i < n; i++) {
        const char *name = open ? open->name : cs[i].name;
        Ty *payload = tc_head(open ? open->ty : cs[i].ty);
        buf_printf(b, "%s#%s", i ? " | " : "", name);
        for (int k = 0; k < payload->n; k++) {
            buf_putc(b, ' ');
            show(b, payload->elems[k], true);
        }
        if (open && !(open = open->next)) {
            buf_puts(b, " | ...");
            break;
        }
    }
    if (paren) buf_putc(b, ')');
}

static void show(Buf *b, Ty *t, bool paren_arrow) {
    bool unique = t && t->unique;
    t = tc_head(t);
    if (unique || t->unique) buf_putc(b, '*');
    switch (t->kind) {
    case TY_PRIM:
        buf_puts(b, tc_prim_name(t->prim));
        break;
    case TY_ARRAY:
        for (int i = 0; i < t->rank; i++) show_size(b, t->dims[i]);
        show(b, t->elem, true);
        break;
    case TY_TUPLE:
        buf_putc(b, '(');
        for (int i = 0; i < t->n; i++) {
            if (i) buf_puts(b, ", ");
            show(b, t->elems[i], false);
        }
        buf_putc(b, ')');
        break;
    case TY_RECORD:
        buf_putc(b, '{');
        for (int i = 0; i < t->n; i++) {
            buf_printf(b, "%s%s: ", i ? ", " : "", t->fields[i].name);
            show(b, t->fields[i].ty, false);
        }
        buf_putc(b, '}');
        break;
    case TY_ARROW:
        if (paren_arrow) buf_putc(b, '(');
        if (t->pname) {
            buf_printf(b, "(%s: ", t->pname);
            show(b, t->param, false);
            buf_putc(b, ')');
        } else {
            show(b, t->param, true);
        }
        buf_puts(b, " -> ");
        show(b, t->result, false);
        if (paren_arrow) buf_putc(b, ')');
        break;
    case TY_ABSTRACT:
        if (paren_arrow && (t->n || t->rank)) buf_putc(b, '(');
        buf_puts(b, t->var_name ? t->var_name : "?");
        for (int i = 0; i < t->rank; i++) {
            buf_putc(b, ' ');
            show_size(b, t->dims[i]);
        }
        for (int i = 0; i < t->n; i++) {
            buf_putc(b, ' ');
            show(b, t->elems[i], true);
        }
        if (paren_arrow && (t->n || t->rank)) buf_putc(b, ')');
        break;
    case TY_SUM:
        show_constrs(b, t->fields, NULL, t->n, paren_arrow);
        break;
    case TY_VAR: {
        if (t->var >= tc.vars.len) { /* after checking: the variables are gone */
            buf_puts(b, t->var_name ? t->var_name : "a");
            break;
        }
        TVar *v = &tc.vars.items[t->var];
        if (!v->rigid && v->prims) buf_puts(b, tc_prim_name(tc_default_var(v)));
        else if (v->constrs) show_constrs(b, NULL, v->constrs, 0, paren_arrow);
        else if (v->name) buf_puts(b, v->name);
        else if (t->var_name) buf_puts(b, t->var_name);
        else buf_printf(b, "t%d", t->var);
        break;
    }
    }
}

const char *tc_show(Ty *t) {
    Buf b = {0};
    show(&b, t, false);
    char *s = arena_strndup(tc.a, b.data ? b.data : "", b.len);
    buf_free(&b);
    return s;
}

const char *check_type_text(Arena *a, Ty *t) {
    Buf b = {0};
    show(&b, t, false);
    char *s = arena_strndup(a, b.data ? b.data : "", b.len);
    buf_free(&b);
    return s;
}

/* A size as a message names it: 3, n, n + 1. */
const char *tc_size_text(Size s) {
    if (s.kind == SZ_CONST) return arena_printf(tc.a, "%lld", (long long)s.c);
    if (s.kind == SZ_EXP) {
        Buf b = {0};
        show_size_exp(&b, s.exp, false);
        const char *r = arena_strndup(tc.a, b.data ? b.data : "", b.len);
        buf_free(&b);
        return r;
    }
    return s.name ? s.name : "?";
}
