/* The sequential C backend: prints a program's Imp (compiler/imp/imp.h) as
 * one self-contained C11 program (runtime included) whose main calls
 * rt_main, or (emit_c_entries) as the same code without main, for the
 * library writer (library.c) to add the Futhark C API to. It decides how
 * Imp looks in C, never what the program does:
 *   - a scalar is a C variable <name>_<id>; a block is an rt_block *
 *     (runtime/memory.h) of the entry's pool, read and written as an array
 *     of its element type at Imp's element offsets (Syms printed with
 *     sym_print_c); allocation, retain and release are rt_block_new,
 *     rt_block_retain and rt_block_release;
 *   - a copy between LMAD layouts is a loop nest (dimensions laid out
 *     contiguously alike share one loop);
 *   - a failure (an assertion, an allocation) records the error (rt_error,
 *     rt_alloc_failed) and jumps to the entry's fail label; the wrapper
 *     then frees every block left in the pool;
 *   - functions (ImpFun) are static C functions futhorc_fn_<k>_<name> that
 *     return their result, or a struct of their results r0, r1, ...;
 *   - an entry point K is futhorc_entry_K(ctx, pool, ins, outs): IMP_ARG
 *     reads ins (an array in place, wrapped in a block, or copied when the
 *     entry consumes it), IMP_RESULT writes outs (arrays dense and
 *     row-major, malloc'd); futhorc_run_K(ctx, ins, outs) is the
 *     rt_entry_fn wrapper that owns the pool and frees partial outputs on
 *     error; the table futhorc_entries lists them (cshared.c). */
#include "cshared.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

typedef struct CPrint {
    Buf *out;
    Arena *a;
    const ImpProg *p;
    VEC(const char *) names; /* by variable id: its C name */
    int next_id;             /* ids of the printer's own variables (copy loop counters, call results) */
    int indent;
    const ImpFun *fun;       /* the function being printed, or NULL */
} CPrint;

/* ---- Names and small printers --------------------------------------------- */

static void set_name(CPrint *C, int id, const char *name) {
    while (C->names.len <= id) vec_push(&C->names, NULL);
    C->names.items[id] = name;
}

static const char *c_name(CPrint *C, const ImpVar *v) {
    if (v->id < C->names.len && C->names.items[v->id]) return C->names.items[v->id];
    Buf b = {0};
    for (const char *s = v->name; *s; s++) buf_putc(&b, isalnum((unsigned char)*s) ? *s : '_');
    buf_printf(&b, "_%d", v->id);
    const char *n = arena_printf(C->a, "%s%s", isalpha((unsigned char)b.data[0]) ? "" : "v", b.data);
    buf_free(&b);
    set_name(C, v->id, n);
    return n;
}

static const char *sym_name(int id, void *ctx) {
    CPrint *C = ctx;
    if (id < C->names.len && C->names.items[id]) return C->names.items[id];
    ICE("C backend: Sym variable %d has no C name", id);
}

/* A fresh variable of the printer's, named base_<id>. */
static const char *fresh(CPrint *C, const char *base, int *id) {
    int k = C->next_id++;
    const char *n = arena_printf(C->a, "%s_%d", base, k);
    set_name(C, k, n);
    if (id) *id = k;
    return n;
}

static void line(CPrint *C, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(CPrint *C, const char *fmt, ...) {
    for (int i = 0; i < C->indent; i++) buf_puts(C->out, "    ");
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(C->out, fmt, ap);
    va_end(ap);
    buf_putc(C->out, '\n');
}

static const char *ctype(PrimType t) { return prim_ctype(t); }

/* A constant as a C expression of its type. */
static const char *c_const(CPrint *C, PrimValue c) {
    switch (prim_class(c.type)) {
    case PC_BOOL: return c.v.b ? "true" : "false";
    case PC_SIGNED:
        if (c.v.i == INT64_MIN) return "INT64_MIN";
        return arena_printf(C->a, "((%s)%lldLL)", ctype(c.type), (long long)c.v.i);
    case PC_UNSIGNED: {
        int bits = prim_size(c.type) * 8;
        uint64_t u = (uint64_t)c.v.i;
        if (bits < 64) u &= (UINT64_C(1) << bits) - 1;
        return arena_printf(C->a, "((%s)%lluULL)", ctype(c.type), (unsigned long long)u);
    }
    case PC_FLOAT:
    default:
        if (isnan(c.v.f)) return arena_printf(C->a, "((%s)NAN)", ctype(c.type));
        if (isinf(c.v.f)) return arena_printf(C->a, "(%s(%s)INFINITY)", c.v.f < 0 ? "-" : "", ctype(c.type));
        return arena_printf(C->a, "((%s)%a)", ctype(c.type), c.v.f);
    }
}

static const char *c_sym(CPrint *C, const Sym *s) {
    Buf b = {0};
    sym_print_c(&b, s, sym_name, C);
    const char *r = arena_strdup(C->a, b.data ? b.data : "0");
    buf_free(&b);
    return r;
}

/* "((float *)mem_3->data)" */
static const char *c_base(CPrint *C, const ImpVar *mem, PrimType t) {
    return arena_printf(C->a, "((%s *)%s->data)", ctype(t), c_name(C, mem));
}

static const char *c_exp(CPrint *C, const ImpExp *e);

static const char *c_args(CPrint *C, ImpExp *const *args, int n) {
    Buf b = {0};
    for (int i = 0; i < n; i++) buf_printf(&b, "%s%s", i ? ", " : "", c_exp(C, args[i]));
    const char *r = arena_strdup(C->a, b.data ? b.data : "");
    buf_free(&b);
    return r;
}

static const char *c_exp(CPrint *C, const ImpExp *e) {
    switch (e->kind) {
    case IX_CONST: return c_const(C, e->c);
    case IX_VAR: return c_name(C, e->var);
    case IX_OP:
        return arena_printf(C->a, "rt_%s_%s(%s)", op_name(e->op), prim_name(e->t), c_args(C, e->args, op_arity(e->op)));
    case IX_CONV:
        return arena_printf(C->a, "rt_conv_%s_%s(%s)", prim_name(e->t), prim_name(e->to), c_exp(C, e->args[0]));
    case IX_LOAD: return arena_printf(C->a, "%s[%s]", c_base(C, e->var, e->t), c_exp(C, e->index));
    case IX_SYM: return c_sym(C, e->sym);
    }
    ICE("C backend: an unknown Imp expression");
}

/* "file:line:col: " of a failure, or nothing. */
static const char *c_loc(CPrint *C, SrcLoc loc) {
    if (!loc.file) return "";
    return arena_printf(C->a, "%s:%d:%d: ", loc.file, loc.line, loc.col);
}

/* "int32_t x_3" or "rt_block *mem_4". */
static const char *c_decl(CPrint *C, const ImpVar *v) {
    if (v->kind == IMP_MEM) return arena_printf(C->a, "rt_block *%s", c_name(C, v));
    return arena_printf(C->a, "%s %s", ctype(v->t), c_name(C, v));
}

/* ---- Copies --------------------------------------------------------------- */

/* Loops over dl's shape that set each element of dbase through dl to the
 * element of sbase through sl (the same shape). Dimensions the layouts
 * lay out contiguously alike share one loop, so a copy of a row-major
 * array of any rank is one loop (a loop per dimension made the code of
 * nested array literals cubic in their depth). */
static void c_copy(CPrint *C, const char *dbase, const Lmad *dl, const char *sbase, const Lmad *sl) {
    lmad_merge_pair(C->a, dl, sl, &dl, &sl);
    int r = dl->rank;
    Sym **idx = NEW_ARRAY(C->a, Sym *, r + 1);
    for (int d = 0; d < r; d++) {
        int id;
        const char *c = fresh(C, "c", &id);
        idx[d] = sym_var(C->a, id);
        line(C, "for (int64_t %s = 0; %s < %s; %s++) {", c, c, c_sym(C, dl->dims[d].shape), c);
        C->indent++;
    }
    line(C, "%s[%s] = %s[%s];", dbase, c_sym(C, lmad_index(C->a, dl, idx)), sbase,
         c_sym(C, lmad_index(C->a, sl, idx + (r - sl->rank))));
    for (int d = 0; d < r; d++) {
        C->indent--;
        line(C, "}");
    }
}

/* ---- Statements ------------------------------------------------------------ */

static void c_code(CPrint *C, const ImpCode *c);

static void c_nested(CPrint *C, const ImpCode *c) {
    C->indent++;
    c_code(C, c);
    C->indent--;
}

static void c_oom(CPrint *C, const char *what) {
    line(C, "    rt_error(ctx, \"out of memory (%s)\");", what);
    line(C, "    goto fail;");
}

/* m = a new block of size bytes, or a failure at loc; decl: declares m. */
static void c_alloc(CPrint *C, const ImpStm *s, bool decl) {
    const char *m = c_name(C, s->mem), *size = c_exp(C, s->size);
    line(C, "%s%s = rt_block_new(pool, %s);", decl ? "rt_block *" : "", m, size);
    line(C, "if (!%s) {", m);
    line(C, "    rt_alloc_failed(ctx, \"%s\", %s);", emit_c_str(C->a, c_loc(C, s->loc), false), size);
    line(C, "    goto fail;");
    line(C, "}");
}

/* Replaces each "{}" of the message by %lld and passes the arguments,
 * prefixed by the location. */
static void c_assert(CPrint *C, const ImpStm *s) {
    Buf fmt = {0}, args = {0};
    buf_puts(&fmt, emit_c_str(C->a, c_loc(C, s->loc), true));
    int used = 0;
    for (const char *q = s->msg; *q; q++) {
        if (q[0] == '{' && q[1] == '}' && used < s->nargs) {
            buf_puts(&fmt, "%lld");
            buf_printf(&args, ", (long long)%s", c_exp(C, s->args[used++]));
            q++;
            continue;
        }
        char one[2] = {*q, 0};
        buf_puts(&fmt, emit_c_str(C->a, one, true));
    }
    line(C, "if (!%s) {", c_exp(C, s->cond));
    line(C, "    rt_error(ctx, \"%s\"%s);", fmt.data ? fmt.data : "", args.data ? args.data : "");
    line(C, "    goto fail;");
    line(C, "}");
    buf_free(&fmt);
    buf_free(&args);
}

/* The C name of function f: "futhorc_fn_<idx>_<name>". */
static const char *fn_name(CPrint *C, const ImpFun *f) {
    Buf b = {0};
    buf_printf(&b, "futhorc_fn_%d_", f->index);
    for (const char *s = f->name; *s; s++) buf_putc(&b, isalnum((unsigned char)*s) ? *s : '_');
    const char *n = arena_strdup(C->a, b.data);
    buf_free(&b);
    return n;
}

/* The C type f returns: its result's, or the struct "<name>_res" of its
 * results. */
static const char *fn_ret(CPrint *C, const ImpFun *f) {
    return f->nrets == 1 ? ctype(f->rets[0]) : arena_printf(C->a, "%s_res", fn_name(C, f));
}

static void c_call(CPrint *C, const ImpStm *s) {
    const char *call = arena_printf(C->a, "%s(%s)", fn_name(C, s->fn), c_args(C, s->args, s->nargs));
    if (s->nresults == 1) {
        line(C, "%s = %s;", c_decl(C, s->results[0]), call);
        return;
    }
    const char *r = fresh(C, "call", NULL);
    line(C, "%s %s = %s;", fn_ret(C, s->fn), r, call);
    for (int i = 0; i < s->nresults; i++) line(C, "%s = %s.r%d;", c_decl(C, s->results[i]), r, i);
}

static void c_return(CPrint *C, const ImpStm *s) {
    if (s->nargs == 1) {
        line(C, "return %s;", c_exp(C, s->args[0]));
        return;
    }
    line(C, "%s rt_res;", fn_ret(C, C->fun));
    for (int k = 0; k < s->nargs; k++) line(C, "rt_res.r%d = %s;", k, c_exp(C, s->args[k]));
    line(C, "return rt_res;");
}

/* Binds argument k: a scalar, or an array's dimensions and block (the
 * caller's memory wrapped, or a copy when the entry consumes it). */
static void c_arg(CPrint *C, const ImpStm *s) {
    int k = s->k;
    if (s->rank == 0) {
        line(C, "%s = *(const %s *)ins[%d].data;", c_decl(C, s->var), ctype(s->t), k);
        return;
    }
    for (int d = 0; d < s->rank; d++) line(C, "int64_t %s = ins[%d].shape[%d];", c_name(C, s->dims[d]), k, d);
    const char *m = c_name(C, s->mem);
    if (s->unique) {
        line(C, "int64_t %s_bytes = rt_size_mul_i64(rt_value_count(&ins[%d]), %d);", m, k, prim_size(s->t));
        line(C, "rt_block *%s = rt_block_new(pool, %s_bytes);", m, m);
        line(C, "if (!%s) {", m);
        c_oom(C, "copying an argument");
        line(C, "}");
        line(C, "memcpy(%s->data, ins[%d].data, (size_t)%s_bytes);", m, k, m);
        return;
    }
    line(C, "rt_block *%s = rt_block_wrap(pool, ins[%d].data);", m, k);
    line(C, "if (!%s) {", m);
    c_oom(C, "wrapping an argument");
    line(C, "}");
}

/* Writes result k into outs[k]: a scalar, or an array dense and row-major. */
static void c_result(CPrint *C, const ImpStm *s) {
    int k = s->k;
    line(C, "outs[%d].type.elem = %s;", k, emit_c_rt_prim(C->a, s->t));
    if (s->rank == 0) {
        line(C, "outs[%d].type.rank = 0;", k);
        line(C, "outs[%d].data = malloc(%d);", k, prim_size(s->t));
        line(C, "if (!outs[%d].data) {", k);
        c_oom(C, "writing a result");
        line(C, "}");
        line(C, "*(%s *)outs[%d].data = %s;", ctype(s->t), k, c_exp(C, s->value));
        return;
    }
    line(C, "outs[%d].type.rank = %d;", k, s->rank);
    line(C, "outs[%d].shape = malloc(%d * sizeof(int64_t));", k, s->rank);
    line(C, "if (!outs[%d].shape) {", k);
    c_oom(C, "writing a result");
    line(C, "}");
    Sym **shape = NEW_ARRAY(C->a, Sym *, s->rank);
    for (int d = 0; d < s->rank; d++) {
        shape[d] = s->lmad->dims[d].shape;
        line(C, "outs[%d].shape[%d] = %s;", k, d, c_exp(C, s->shape[d]));
    }
    line(C, "outs[%d].data = rt_malloc_elems(rt_value_count(&outs[%d]), %d);", k, k, prim_size(s->t));
    line(C, "if (!outs[%d].data) {", k);
    c_oom(C, "writing a result");
    line(C, "}");
    c_copy(C, arena_printf(C->a, "((%s *)outs[%d].data)", ctype(s->t), k), lmad_row_major(C->a, s->rank, shape),
           c_base(C, s->mem, s->t), s->lmad);
}

/* Prints statement i of c; returns how many statements it printed (a
 * declaration of a block followed by its allocation is one line). */
static int c_stm(CPrint *C, const ImpCode *c, int i) {
    const ImpStm *s = c->stms[i];
    switch (s->kind) {
    case IMP_DECL:
        if (s->var->kind == IMP_MEM && !s->init && i + 1 < c->n && c->stms[i + 1]->kind == IMP_ALLOC &&
            c->stms[i + 1]->mem == s->var) {
            c_alloc(C, c->stms[i + 1], true);
            return 2;
        }
        line(C, "%s = %s;", c_decl(C, s->var), s->init ? c_exp(C, s->init) : s->var->kind == IMP_MEM ? "NULL" : "0");
        break;
    case IMP_ASSIGN: line(C, "%s = %s;", c_name(C, s->var), c_exp(C, s->value)); break;
    case IMP_STORE: line(C, "%s[%s] = %s;", c_base(C, s->mem, s->t), c_exp(C, s->index), c_exp(C, s->value)); break;
    case IMP_ALLOC: c_alloc(C, s, false); break;
    case IMP_RETAIN: line(C, "rt_block_retain(%s);", c_name(C, s->mem)); break;
    case IMP_RELEASE: line(C, "rt_block_release(%s);", c_name(C, s->mem)); break;
    case IMP_COPY: c_copy(C, c_base(C, s->dst, s->t), s->dst_lmad, c_base(C, s->src, s->t), s->src_lmad); break;
    case IMP_FOR: {
        const char *v = c_name(C, s->var);
        line(C, "for (int64_t %s = 0; %s < %s; %s++) {", v, v, c_exp(C, s->bound), v);
        c_nested(C, &s->body);
        line(C, "}");
        break;
    }
    case IMP_WHILE:
        line(C, "while (%s) {", c_exp(C, s->cond));
        c_nested(C, &s->body);
        line(C, "}");
        break;
    case IMP_IF:
        line(C, "if (%s) {", c_exp(C, s->cond));
        c_nested(C, &s->body);
        if (s->orelse.n) {
            line(C, "} else {");
            c_nested(C, &s->orelse);
        }
        line(C, "}");
        break;
    case IMP_CALL: c_call(C, s); break;
    case IMP_RETURN: c_return(C, s); break;
    case IMP_ASSERT: c_assert(C, s); break;
    case IMP_ARG: c_arg(C, s); break;
    case IMP_RESULT: c_result(C, s); break;
    }
    return 1;
}

static void c_code(CPrint *C, const ImpCode *c) {
    for (int i = 0; i < c->n;) i += c_stm(C, c, i);
}

/* ---- Functions and entry points ------------------------------------------- */

static void c_function(CPrint *C, const ImpFun *f) {
    const char *ret = fn_ret(C, f);
    Buf b = {0};
    if (f->nrets > 1) {
        for (int k = 0; k < f->nrets; k++) buf_printf(&b, "%s r%d; ", ctype(f->rets[k]), k);
        line(C, "typedef struct { %s} %s;", b.data, ret);
        buf_free(&b);
    }
    for (int i = 0; i < f->nparams; i++) buf_printf(&b, "%s%s", i ? ", " : "", c_decl(C, f->params[i]));
    line(C, "static %s %s(%s) {", ret, fn_name(C, f), b.data ? b.data : "void");
    buf_free(&b);
    C->fun = f;
    C->indent++;
    c_code(C, &f->body);
    C->indent--;
    C->fun = NULL;
    line(C, "}");
    buf_putc(C->out, '\n');
}

static void c_entry(CPrint *C, const ImpEntry *e, int idx) {
    line(C, "static int futhorc_entry_%d(rt_ctx *ctx, rt_pool *pool, const rt_value *ins, rt_value *outs) {", idx);
    C->indent++;
    line(C, "if (0) goto fail; /* the label is used whatever the body */");
    c_code(C, &e->body);
    line(C, "return 0;");
    C->indent--;
    line(C, "fail:");
    line(C, "    return 1;");
    line(C, "}");
    buf_putc(C->out, '\n');
    int nret = e->src->nret;
    line(C, "static int futhorc_run_%d(rt_ctx *ctx, const rt_value *ins, rt_value *outs) {", idx);
    line(C, "    rt_pool pool;");
    line(C, "    rt_pool_init(&pool);");
    line(C, "    for (int k = 0; k < %d; k++) outs[k].shape = NULL, outs[k].data = NULL;", nret);
    line(C, "    int r = futhorc_entry_%d(ctx, &pool, ins, outs);", idx);
    line(C, "    rt_pool_free(&pool);");
    line(C, "    for (int k = 0; r && k < %d; k++) {", nret);
    line(C, "        free(outs[k].data);");
    line(C, "        free(outs[k].shape);");
    line(C, "        outs[k].shape = NULL, outs[k].data = NULL;");
    line(C, "    }");
    line(C, "    return r;");
    line(C, "}");
    buf_putc(C->out, '\n');
}

void emit_c_entries(Buf *out, const ImpProg *p, bool linked_rt) {
    Arena a = {0};
    CPrint C = {.out = out, .a = &a, .p = p, .next_id = p->next_id};
    ce_prologue(out, "", linked_rt);
    buf_puts(out, "/* ---- the program ---- */\n#include <string.h>\n\n");
    for (int i = 0; i < p->nfuns; i++) c_function(&C, p->funs[i]);
    const Fun **srcs = NEW_ARRAY(&a, const Fun *, p->nentries + 1);
    for (int i = 0; i < p->nentries; i++) {
        c_entry(&C, p->entries[i], i);
        srcs[i] = p->entries[i]->src;
    }
    emit_c_entry_table(out, &a, srcs, p->nentries);
    vec_free(&C.names);
    arena_free(&a);
}

void emit_c_program(Buf *out, const ImpProg *p, bool server, bool linked_rt) {
    emit_c_entries(out, p, linked_rt);
    buf_printf(out, "int main(int argc, char **argv) { return %s(argc, argv, futhorc_entries, %d); }\n",
               server ? "rt_server_main" : "rt_main", p->nentries);
}
