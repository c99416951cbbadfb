/* Printers for the AST: source text that parses back to the same tree
 * (every compound expression, pattern and type is parenthesised, so the
 * printer needs no precedence table), and ty_print for checked types;
 * and whether a name occurs in a syntax tree (for the parser's fresh names). */
#include "ast.h"
#include "syntax_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const prim_names[] = {
#define X(e, name, ctype, size, cls) name,
#include "../ir/prim.def"
#undef X
};

static const char *prim_text(PrimType t) {
    return (unsigned)t < sizeof prim_names / sizeof prim_names[0] ? prim_names[t] : "?";
}

static void print_pat(Buf *out, const Pat *p);
static void print_type(Buf *out, const TypeExp *t);

/* ---- Expressions ---- */

static void print_qualname(Buf *out, QualName qn) {
    for (int i = 0; i < qn.nparts; i++) {
        if (i) buf_putc(out, '.');
        buf_puts(out, qn.parts[i]);
    }
}

static void print_float(Buf *out, double v) {
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.17g", v);
    buf_puts(out, tmp);
    if (!strpbrk(tmp, ".eEn")) buf_puts(out, ".0");
}

/* Prints string bytes with escapes so that the lexer decodes them back. */
static void print_string(Buf *out, const char *s, int n) {
    buf_putc(out, '"');
    for (int i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') buf_printf(out, "\\%c", c);
        else if (c == '\n') buf_puts(out, "\\n");
        else if (c == '\t') buf_puts(out, "\\t");
        else if (c < 0x20 || c >= 0x7f) buf_printf(out, "\\x%02x", c);
        else buf_putc(out, (char)c);
    }
    buf_putc(out, '"');
}

static void print_exps(Buf *out, Exp *const *es, int n, const char *sep) {
    for (int i = 0; i < n; i++) {
        if (i) buf_puts(out, sep);
        ast_print_exp(out, es[i]);
    }
}

static void print_slice(Buf *out, const DimIndex *d, int n) {
    buf_putc(out, '[');
    for (int i = 0; i < n; i++) {
        if (i) buf_puts(out, ", ");
        if (!d[i].is_slice) {
            ast_print_exp(out, d[i].index);
            continue;
        }
        if (d[i].start) ast_print_exp(out, d[i].start);
        buf_putc(out, ':');
        if (d[i].end) ast_print_exp(out, d[i].end);
        if (d[i].stride) {
            buf_putc(out, ':');
            ast_print_exp(out, d[i].stride);
        }
    }
    buf_putc(out, ']');
}

static void print_tparams(Buf *out, const TypeParam *tps, int n) {
    static const char *const prefix[] = {"'", "'~", "'^"};
    for (int i = 0; i < n; i++) {
        if (tps[i].kind == TP_SIZE) buf_printf(out, " [%s]", tps[i].name);
        else buf_printf(out, " %s%s", prefix[tps[i].kind], tps[i].name);
    }
}

static void print_params(Buf *out, Pat *const *ps, int n) {
    for (int i = 0; i < n; i++) {
        buf_putc(out, ' ');
        print_pat(out, ps[i]);
    }
}

static void print_literal(Buf *out, const Exp *e) {
    switch (e->kind) {
    case EX_INT:
        buf_printf(out, "%llu", (unsigned long long)e->ivalue);
        if (e->has_suffix) buf_puts(out, prim_text(e->suffix));
        break;
    case EX_FLOAT:
        print_float(out, e->fvalue);
        if (e->has_suffix) buf_puts(out, prim_text(e->suffix));
        break;
    case EX_BOOL: buf_puts(out, e->bvalue ? "true" : "false"); break;
    case EX_STRING: print_string(out, e->str ? e->str : "", e->strlen); break;
    default: break;
    }
}

/* Atomic forms: literals, names, tuples, records, arrays, projections. */
static bool print_atomic(Buf *out, const Exp *e) {
    switch (e->kind) {
    case EX_INT: case EX_FLOAT: case EX_BOOL: case EX_STRING:
        print_literal(out, e);
        return true;
    case EX_HOLE: buf_puts(out, "???"); return true;
    case EX_VAR: print_qualname(out, e->name); return true;
    case EX_TUPLE:
        buf_putc(out, '(');
        print_exps(out, e->elems, e->nelems, ", ");
        buf_putc(out, ')');
        return true;
    case EX_RECORD:
        buf_putc(out, '{');
        for (int i = 0; i < e->nfields; i++) {
            buf_printf(out, "%s%s = ", i ? ", " : "", e->fields[i].name);
            ast_print_exp(out, e->fields[i].exp);
        }
        buf_putc(out, '}');
        return true;
    case EX_ARRAY:
        buf_putc(out, '[');
        print_exps(out, e->elems, e->nelems, ", ");
        buf_putc(out, ']');
        return true;
    case EX_PROJECT:
        buf_putc(out, '(');
        ast_print_exp(out, e->e1);
        buf_printf(out, ").%s", e->field);
        return true;
    case EX_INDEX:
        buf_putc(out, '(');
        ast_print_exp(out, e->e1);
        buf_putc(out, ')');
        print_slice(out, e->slice, e->nslice);
        return true;
    case EX_SECTION:
        buf_putc(out, '(');
        if (e->e1) { ast_print_exp(out, e->e1); buf_putc(out, ' '); }
        /* a function name used as an operator: (`i32.max` 0); a module's
         * operator: (i32.+) */
        if (syn_is_operator_name(e->op) || (strrchr(e->op, '.') && syn_is_operator_name(strrchr(e->op, '.') + 1)))
            buf_puts(out, e->op);
        else buf_printf(out, "`%s`", e->op);
        if (e->e2) { buf_putc(out, ' '); ast_print_exp(out, e->e2); }
        buf_putc(out, ')');
        return true;
    case EX_PROJ_SECTION:
        buf_putc(out, '(');
        for (int i = 0; i < e->npath; i++) buf_printf(out, ".%s", e->path[i]);
        buf_putc(out, ')');
        return true;
    default:
        return false;
    }
}

static void print_range(Buf *out, const Exp *e) {
    static const char *const ops[] = {"...", "..<", "..>"};
    ast_print_exp(out, e->start);
    if (e->second) {
        buf_puts(out, " .. ");
        ast_print_exp(out, e->second);
    }
    buf_printf(out, " %s ", ops[e->range]);
    ast_print_exp(out, e->end);
}

static void print_loop(Buf *out, const Exp *e) {
    buf_puts(out, "loop ");
    print_pat(out, e->pat);
    if (e->e1) {
        buf_puts(out, " = ");
        ast_print_exp(out, e->e1);
    }
    if (e->form == LOOP_FOR_UPTO) {
        buf_printf(out, " for %s < ", e->loop_var);
    } else if (e->form == LOOP_FOR_IN) {
        buf_puts(out, " for ");
        print_pat(out, e->pat2);
        buf_puts(out, " in ");
    } else {
        buf_puts(out, " while ");
    }
    ast_print_exp(out, e->e3);
    buf_puts(out, " do ");
    ast_print_exp(out, e->e2);
}

bool ast_is_let(const Exp *e) {
    return e && (e->kind == EX_LET || e->kind == EX_LETFUN || e->kind == EX_LET_UPDATE);
}

/* Let forms: "let p = e1 in e2", local functions and "let a[i] = v". A
 * chain of them is printed in a loop (a long chain needs no deep stack):
 * every link but the first opens a parenthesis closed after the body. */
static void print_let(Buf *out, const Exp *e) {
    int open = 0;
    for (;;) {
        buf_puts(out, "let ");
        if (e->kind == EX_LET) {
            for (int i = 0; i < e->ntparams; i++) buf_printf(out, "[%s]%s", e->tparams[i].name, i + 1 < e->ntparams ? "" : " ");
            print_pat(out, e->pat);
        } else if (e->kind == EX_LETFUN) {
            buf_puts(out, e->fname);
            print_tparams(out, e->tparams, e->ntparams);
            print_params(out, e->params, e->nparams);
            if (e->ret) {
                buf_puts(out, " : ");
                print_type(out, e->ret);
            }
        } else {
            buf_puts(out, e->fname);
            print_slice(out, e->slice, e->nslice);
        }
        buf_puts(out, " = ");
        ast_print_exp(out, e->e1);
        buf_puts(out, " in ");
        if (!ast_is_let(e->e2)) break;
        buf_putc(out, '(');
        open++;
        e = e->e2;
    }
    ast_print_exp(out, e->e2);
    while (open-- > 0) buf_putc(out, ')');
}

/* The inside of a parenthesised compound expression. */
static void print_compound(Buf *out, const Exp *e) {
    switch (e->kind) {
    case EX_RANGE: print_range(out, e); break;
    case EX_BINOP:
        ast_print_exp(out, e->e1);
        buf_putc(out, ' ');
        if (e->name.nparts > 1) print_qualname(out, e->name);
        else buf_puts(out, e->op);
        buf_putc(out, ' ');
        ast_print_exp(out, e->e2);
        break;
    case EX_NEG: buf_putc(out, '-'); ast_print_exp(out, e->e1); break;
    case EX_NOT: buf_putc(out, '!'); ast_print_exp(out, e->e1); break;
    case EX_APPLY:
        ast_print_exp(out, e->e1);
        buf_putc(out, ' ');
        print_exps(out, e->elems, e->nelems, " ");
        break;
    case EX_LAMBDA:
        buf_putc(out, '\\');
        print_params(out, e->params, e->nparams);
        if (e->ret) {
            buf_puts(out, " : ");
            print_type(out, e->ret);
        }
        buf_puts(out, " -> ");
        ast_print_exp(out, e->e1);
        break;
    case EX_IF:
        buf_puts(out, "if ");
        ast_print_exp(out, e->e1);
        buf_puts(out, " then ");
        ast_print_exp(out, e->e2);
        buf_puts(out, " else ");
        ast_print_exp(out, e->e3);
        break;
    case EX_LET: case EX_LETFUN: case EX_LET_UPDATE: print_let(out, e); break;
    case EX_LOOP: print_loop(out, e); break;
    case EX_UPDATE:
        ast_print_exp(out, e->e1);
        buf_puts(out, " with ");
        if (!e->nsteps) print_slice(out, e->slice, e->nslice);
        for (int i = 0; i < e->nsteps; i++) {
            if (e->steps[i].field) buf_printf(out, "%s%s", i ? "." : "", e->steps[i].field);
            else print_slice(out, e->steps[i].slice, e->steps[i].nslice);
        }
        buf_puts(out, " = ");
        ast_print_exp(out, e->e2);
        break;
    case EX_RECORD_UPDATE:
        ast_print_exp(out, e->e1);
        buf_puts(out, " with ");
        for (int i = 0; i < e->npath; i++) buf_printf(out, "%s%s", i ? "." : "", e->path[i]);
        buf_puts(out, " = ");
        ast_print_exp(out, e->e2);
        break;
    case EX_ASCRIBE: case EX_COERCE:
        ast_print_exp(out, e->e1);
        buf_puts(out, e->kind == EX_ASCRIBE ? " : " : " :> ");
        print_type(out, e->ret);
        break;
    case EX_ASSERT:
        buf_puts(out, "assert ");
        ast_print_exp(out, e->e1);
        buf_putc(out, ' ');
        ast_print_exp(out, e->e2);
        break;
    case EX_OPEN:
        print_qualname(out, e->name);
        buf_puts(out, ".(");
        ast_print_exp(out, e->e1);
        buf_putc(out, ')');
        break;
    case EX_CONSTR:
        buf_printf(out, "#%s", e->field);
        for (int i = 0; i < e->nelems; i++) {
            buf_putc(out, ' ');
            ast_print_exp(out, e->elems[i]);
        }
        break;
    case EX_MATCH:
        buf_puts(out, "match ");
        ast_print_exp(out, e->e1);
        for (int i = 0; i < e->nparams && i < e->nelems; i++) {
            buf_puts(out, " case ");
            print_pat(out, e->params[i]);
            buf_puts(out, " -> ");
            ast_print_exp(out, e->elems[i]);
        }
        break;
    default:
        buf_puts(out, "<?>");
        break;
    }
}

void ast_print_exp(Buf *out, const Exp *e) {
    if (!e) {
        buf_puts(out, "<null>");
        return;
    }
    if (print_atomic(out, e)) return;
    buf_putc(out, '(');
    print_compound(out, e);
    buf_putc(out, ')');
}

/* ---- Patterns ---- */

static void print_pat(Buf *out, const Pat *p) {
    switch (p->kind) {
    case P_ID: buf_puts(out, p->name); break;
    case P_WILD: buf_putc(out, '_'); break;
    case P_TUPLE:
        buf_putc(out, '(');
        for (int i = 0; i < p->nelems; i++) {
            if (i) buf_puts(out, ", ");
            print_pat(out, p->elems[i]);
        }
        buf_putc(out, ')');
        break;
    case P_RECORD:
        buf_putc(out, '{');
        for (int i = 0; i < p->nfields; i++) {
            buf_printf(out, "%s%s = ", i ? ", " : "", p->fields[i].name);
            print_pat(out, p->fields[i].pat);
        }
        buf_putc(out, '}');
        break;
    case P_ASCRIBE:
        buf_putc(out, '(');
        print_pat(out, p->inner);
        buf_puts(out, " : ");
        print_type(out, p->type);
        buf_putc(out, ')');
        break;
    case P_CONSTR:
        buf_printf(out, "(#%s", p->name);
        for (int i = 0; i < p->nelems; i++) {
            buf_putc(out, ' ');
            print_pat(out, p->elems[i]);
        }
        buf_putc(out, ')');
        break;
    case P_LIT:
        ast_print_exp(out, p->lit);
        break;
    }
}

/* ---- Type expressions ---- */

static void print_type_inner(Buf *out, const TypeExp *t) {
    switch (t->kind) {
    case TE_NAME:
        print_qualname(out, t->name);
        for (int i = 0; i < t->nargs; i++) {
            buf_putc(out, ' ');
            if (!t->args[i].is_size) {
                print_type(out, t->args[i].type);
            } else {
                buf_putc(out, '[');
                if (t->args[i].size) ast_print_exp(out, t->args[i].size);
                buf_putc(out, ']');
            }
        }
        break;
    case TE_ARRAY:
        buf_putc(out, '[');
        if (t->dim) ast_print_exp(out, t->dim);
        buf_putc(out, ']');
        print_type(out, t->elem);
        break;
    case TE_ARROW:
        if (t->pname) {
            buf_printf(out, "(%s: ", t->pname);
            print_type(out, t->param);
            buf_putc(out, ')');
        } else {
            print_type(out, t->param);
        }
        buf_puts(out, " -> ");
        print_type(out, t->result);
        break;
    case TE_UNIQUE:
        buf_putc(out, '*');
        print_type(out, t->elem);
        break;
    case TE_EXIST:
        buf_putc(out, '?');
        for (int i = 0; i < t->nexist; i++) buf_printf(out, "[%s]", t->exist_names[i]);
        buf_putc(out, '.');
        print_type(out, t->elem);
        break;
    case TE_SUM:
        for (int i = 0; i < t->nfields; i++) {
            buf_printf(out, "%s#%s", i ? " | " : "", t->fields[i].name);
            for (int k = 0; k < t->fields[i].type->nelems; k++) {
                buf_putc(out, ' ');
                print_type(out, t->fields[i].type->elems[k]);
            }
        }
        break;
    default:
        break;
    }
}

/* Prints t as an atom: names without arguments, tuples and records bare,
 * everything else in parentheses. */
static void print_type(Buf *out, const TypeExp *t) {
    if (!t) {
        buf_puts(out, "<null>");
        return;
    }
    switch (t->kind) {
    case TE_TUPLE:
        buf_putc(out, '(');
        for (int i = 0; i < t->nelems; i++) {
            if (i) buf_puts(out, ", ");
            print_type(out, t->elems[i]);
        }
        buf_putc(out, ')');
        return;
    case TE_RECORD:
        buf_putc(out, '{');
        for (int i = 0; i < t->nfields; i++) {
            buf_printf(out, "%s%s: ", i ? ", " : "", t->fields[i].name);
            print_type(out, t->fields[i].type);
        }
        buf_putc(out, '}');
        return;
    case TE_NAME:
        if (t->nargs == 0) {
            print_qualname(out, t->name);
            return;
        }
        break;
    default:
        break;
    }
    buf_putc(out, '(');
    print_type_inner(out, t);
    buf_putc(out, ')');
}

void ast_print_type_exp(Buf *out, const TypeExp *t) { print_type(out, t); }

/* ---- Declarations ---- */

static void print_doc(Buf *out, const char *doc, int indent) {
    const char *p = doc;
    bool first = true;
    while (p) {
        const char *nl = strchr(p, '\n');
        int n = nl ? (int)(nl - p) : (int)strlen(p);
        buf_printf(out, "%*s--%s%s%.*s\n", indent, "", first ? " |" : "", n ? " " : "", n, p);
        first = false;
        p = nl ? nl + 1 : NULL;
    }
}

static void print_decl(Buf *out, const Decl *d, int indent);
static void print_mod_type(Buf *out, const ModTypeExp *m, int indent);

static void print_op_name(Buf *out, const char *name) {
    if (syn_is_operator_name(name)) buf_printf(out, "(%s)", name);
    else buf_puts(out, name);
}

static const char *const type_kw[] = {"type", "type~", "type^"};

static void print_spec(Buf *out, const Spec *s, int indent) {
    buf_printf(out, "%*s", indent, "");
    switch (s->kind) {
    case SP_VAL:
        buf_puts(out, "val ");
        print_op_name(out, s->name);
        print_tparams(out, s->tparams, s->ntparams);
        buf_puts(out, " : ");
        print_type(out, s->type);
        break;
    case SP_TYPE:
        buf_printf(out, "%s %s", type_kw[s->lifted], s->name);
        print_tparams(out, s->tparams, s->ntparams);
        if (s->type) {
            buf_puts(out, " = ");
            print_type(out, s->type);
        }
        break;
    case SP_MODULE:
        buf_printf(out, "module %s : ", s->name);
        print_mod_type(out, s->mtype, indent);
        break;
    case SP_INCLUDE:
        buf_puts(out, "include ");
        print_mod_type(out, s->mtype, indent);
        break;
    }
    buf_putc(out, '\n');
}

/* A module type, parenthesised unless it is a name or a list of specs. */
static void print_mod_type(Buf *out, const ModTypeExp *m, int indent) {
    if (!m) {
        buf_puts(out, "<null>");
        return;
    }
    switch (m->kind) {
    case MT_NAME: print_qualname(out, m->name); break;
    case MT_SPECS:
        buf_puts(out, "{\n");
        for (int i = 0; i < m->nspecs; i++) print_spec(out, m->specs[i], indent + 2);
        buf_printf(out, "%*s}", indent, "");
        break;
    case MT_WITH:
        buf_putc(out, '(');
        print_mod_type(out, m->mt, indent);
        buf_puts(out, " with ");
        print_qualname(out, m->name);
        print_tparams(out, m->tparams, m->ntparams);
        buf_puts(out, " = ");
        print_type(out, m->type);
        buf_putc(out, ')');
        break;
    case MT_ARROW:
        buf_putc(out, '(');
        if (m->pname) buf_printf(out, "(%s: ", m->pname);
        print_mod_type(out, m->param, indent);
        if (m->pname) buf_putc(out, ')');
        buf_puts(out, " -> ");
        print_mod_type(out, m->res, indent);
        buf_putc(out, ')');
        break;
    }
}

/* A module expression, parenthesised unless it is a name or a structure. */
static void print_mod_exp(Buf *out, const ModExp *m, int indent) {
    if (!m) {
        buf_puts(out, "<null>");
        return;
    }
    switch (m->kind) {
    case ME_NAME: print_qualname(out, m->name); break;
    case ME_STRUCT:
        buf_puts(out, "{\n");
        for (int i = 0; i < m->ndecls; i++) print_decl(out, m->decls[i], indent + 2);
        buf_printf(out, "%*s}", indent, "");
        break;
    case ME_ASCRIBE:
        buf_putc(out, '(');
        print_mod_exp(out, m->e1, indent);
        buf_puts(out, " : ");
        print_mod_type(out, m->mtype, indent);
        buf_putc(out, ')');
        break;
    case ME_LAMBDA:
        buf_printf(out, "(\\(%s: ", m->pname);
        print_mod_type(out, m->mtype, indent);
        buf_putc(out, ')');
        if (m->result) {
            buf_puts(out, " : ");
            print_mod_type(out, m->result, indent);
        }
        buf_puts(out, " -> ");
        print_mod_exp(out, m->e1, indent);
        buf_putc(out, ')');
        break;
    case ME_APPLY:
        buf_putc(out, '(');
        print_mod_exp(out, m->e1, indent);
        buf_putc(out, ' ');
        print_mod_exp(out, m->e2, indent);
        buf_putc(out, ')');
        break;
    case ME_IMPORT: buf_printf(out, "(import \"%s\")", m->import ? m->import->path : ""); break;
    }
}

static void print_val(Buf *out, const Decl *d) {
    buf_puts(out, d->is_entry ? "entry " : "def ");
    print_op_name(out, d->name);
    print_tparams(out, d->tparams, d->ntparams);
    print_params(out, d->params, d->nparams);
    if (d->ret) {
        buf_puts(out, " : ");
        print_type(out, d->ret);
    }
    buf_puts(out, " = ");
    ast_print_exp(out, d->body);
}

static void print_decl_body(Buf *out, const Decl *d, int indent) {
    switch (d->kind) {
    case D_VAL: print_val(out, d); break;
    case D_TYPE:
        buf_printf(out, "%s %s", type_kw[d->lifted], d->name);
        print_tparams(out, d->tparams, d->ntparams);
        buf_puts(out, " = ");
        print_type(out, d->ret);
        break;
    case D_IMPORT: buf_printf(out, "import \"%s\"", d->path); break;
    case D_MODULE:
        buf_printf(out, "module %s = ", d->name);
        print_mod_exp(out, d->mexp, indent);
        break;
    case D_MODTYPE:
        buf_printf(out, "module type %s = ", d->name);
        print_mod_type(out, d->mtype, indent);
        break;
    case D_OPEN:
        buf_puts(out, "open ");
        print_mod_exp(out, d->mexp, indent);
        break;
    }
}

static void print_decl(Buf *out, const Decl *d, int indent) {
    if (d->doc) print_doc(out, d->doc, indent);
    for (int i = 0; i < d->nattrs; i++) buf_printf(out, "%*s#[%s]\n", indent, "", d->attrs[i].text);
    buf_printf(out, "%*s%s", indent, "", d->is_local ? "local " : "");
    print_decl_body(out, d, indent);
    buf_putc(out, '\n');
}

void ast_print_program(Buf *out, const Program *p) {
    for (int i = 0; i < p->ndecls; i++) {
        if (i) buf_putc(out, '\n');
        print_decl(out, p->decls[i], 0);
    }
}

/* ---- Checked types ---- */

static void print_size(Buf *out, const Size *s) {
    if (s->kind == SZ_CONST) buf_printf(out, "[%lld]", (long long)s->c);
    else if (s->kind == SZ_VAR && s->name) buf_printf(out, "[%s]", s->name);
    else buf_puts(out, "[]");
}

void ty_print(Buf *out, const Ty *t) {
    if (!t) {
        buf_puts(out, "<?>");
        return;
    }
    if (t->unique) buf_putc(out, '*');
    switch (t->kind) {
    case TY_PRIM: buf_puts(out, prim_text(t->prim)); break;
    case TY_ARRAY:
        for (int i = 0; i < t->rank; i++) print_size(out, &t->dims[i]);
        ty_print(out, t->elem);
        break;
    case TY_TUPLE:
        buf_putc(out, '(');
        for (int i = 0; i < t->n; i++) {
            if (i) buf_puts(out, ", ");
            ty_print(out, t->elems[i]);
        }
        buf_putc(out, ')');
        break;
    case TY_RECORD:
        buf_putc(out, '{');
        for (int i = 0; i < t->n; i++) {
            buf_printf(out, "%s%s: ", i ? ", " : "", t->fields[i].name);
            ty_print(out, t->fields[i].ty);
        }
        buf_putc(out, '}');
        break;
    case TY_ARROW: {
        bool paren = t->pname || (t->param && t->param->kind == TY_ARROW);
        if (t->pname) buf_printf(out, "(%s: ", t->pname);
        else if (paren) buf_putc(out, '(');
        ty_print(out, t->param);
        if (paren) buf_putc(out, ')');
        buf_puts(out, " -> ");
        ty_print(out, t->result);
        break;
    }
    case TY_VAR:
        if (t->var_name) buf_puts(out, t->var_name);
        else buf_printf(out, "'t%d", t->var);
        break;
    case TY_ABSTRACT:
        buf_puts(out, t->var_name ? t->var_name : "?");
        for (int i = 0; i < t->rank; i++) {
            buf_putc(out, ' ');
            print_size(out, &t->dims[i]);
        }
        for (int i = 0; i < t->n; i++) {
            buf_putc(out, ' ');
            ty_print(out, t->elems[i]);
        }
        break;
    case TY_SUM:
        for (int i = 0; i < t->n; i++) {
            buf_printf(out, "%s#%s", i ? " | " : "", t->fields[i].name);
            for (int k = 0; k < t->fields[i].ty->n; k++) {
                buf_putc(out, ' ');
                ty_print(out, t->fields[i].ty->elems[k]);
            }
        }
        break;
    }
}

/* ---- Names in expressions ---- */

static bool exp_mentions(const Exp *e, const char *name);

/* Whether name occurs anywhere in a type expression (its sizes). */
static bool type_mentions(const TypeExp *t, const char *name) {
    if (!t) return false;
    if (exp_mentions(t->dim, name) || type_mentions(t->elem, name) ||
        type_mentions(t->param, name) || type_mentions(t->result, name))
        return true;
    for (int i = 0; i < t->nargs; i++)
        if (exp_mentions(t->args[i].size, name) || type_mentions(t->args[i].type, name)) return true;
    for (int i = 0; i < t->nelems; i++)
        if (type_mentions(t->elems[i], name)) return true;
    for (int i = 0; i < t->nfields; i++)
        if (type_mentions(t->fields[i].type, name)) return true;
    return false;
}

/* Whether name occurs anywhere in a pattern (bound or in a type). */
static bool pat_mentions(const Pat *p, const char *name) {
    if (!p) return false;
    if ((p->name && strcmp(p->name, name) == 0) || pat_mentions(p->inner, name) ||
        type_mentions(p->type, name))
        return true;
    for (int i = 0; i < p->nelems; i++)
        if (pat_mentions(p->elems[i], name)) return true;
    for (int i = 0; i < p->nfields; i++)
        if (pat_mentions(p->fields[i].pat, name)) return true;
    return exp_mentions(p->lit, name);
}

/* Whether name occurs in the indices of a slice (see exp_mentions). */
bool syn_slice_mentions(const DimIndex *d, int n, const char *name) {
    for (int i = 0; i < n; i++)
        if (exp_mentions(d[i].index, name) || exp_mentions(d[i].start, name) ||
            exp_mentions(d[i].end, name) || exp_mentions(d[i].stride, name))
            return true;
    return false;
}

/* Whether name occurs anywhere in e, free, bound or as a field: an
 * over-approximation of "free in e" that is enough to pick a fresh name. */
static bool exp_mentions(const Exp *e, const char *name) {
    if (!e) return false;
    if ((e->name.nparts && strcmp(e->name.parts[0], name) == 0) ||
        (e->fname && strcmp(e->fname, name) == 0) || (e->loop_var && strcmp(e->loop_var, name) == 0))
        return true;
    const Exp *subs[] = {e->e1, e->e2, e->e3, e->start, e->second, e->end};
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        if (exp_mentions(subs[i], name)) return true;
    for (int i = 0; i < e->nelems; i++)
        if (exp_mentions(e->elems[i], name)) return true;
    for (int i = 0; i < e->nfields; i++)
        if (exp_mentions(e->fields[i].exp, name)) return true;
    for (int i = 0; i < e->nparams; i++)
        if (pat_mentions(e->params[i], name)) return true;
    return syn_slice_mentions(e->slice, e->nslice, name) || pat_mentions(e->pat, name) ||
           pat_mentions(e->pat2, name) || type_mentions(e->ret, name);
}

Ty *ty_copy_parts(Arena *a, const Ty *t) {
    Ty *c = NEW(a, Ty);
    *c = *t;
    if (t->kind == TY_TUPLE) {
        c->elems = NEW_ARRAY(a, Ty *, t->n + 1);
        COPY_ARRAY(c->elems, t->elems, t->n);
    } else {
        c->fields = NEW_ARRAY(a, TyField, t->n + 1);
        COPY_ARRAY(c->fields, t->fields, t->n);
    }
    return c;
}
