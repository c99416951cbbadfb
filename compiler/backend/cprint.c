/* The printer of Imp as C shared by the C and OpenCL backends (cprint.h):
 * names, constants, expressions, statements on host blocks and control
 * flow, failures of host code (rt_error, rt_alloc_failed, then a jump to
 * the entry's fail label), functions, and the loops of copies. */
#include "cprint.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

void cp_init(CPrint *C, Buf *out, Arena *a, const ImpProg *p, const CTarget *t, void *ctx) {
    memset(C, 0, sizeof *C);
    C->out = out;
    C->a = a;
    C->p = p;
    C->t = t;
    C->ctx = ctx;
    C->next_id = p->next_id;
}

void cp_fini(CPrint *C) {
    vec_free(&C->names);
    vec_free(&C->narrow);
}

/* ---- Names and small printers --------------------------------------------- */

static void cp_set_name(CPrint *C, int id, const char *name) {
    while (C->names.len <= id) vec_push(&C->names, NULL);
    C->names.items[id] = name;
}

const char *cp_name(CPrint *C, const ImpVar *v) {
    if (v->id < C->names.len && C->names.items[v->id]) return C->names.items[v->id];
    Buf b = {0};
    for (const char *s = v->name; *s; s++) buf_putc(&b, isalnum((unsigned char)*s) ? *s : '_');
    buf_printf(&b, "_%d", v->id);
    const char *n = arena_printf(C->a, "%s%s", isalpha((unsigned char)b.data[0]) ? "" : "v", b.data);
    buf_free(&b);
    cp_set_name(C, v->id, n);
    if (v->kind == IMP_SCALAR && v->t == PT_I32) {
        while (C->narrow.len <= v->id) vec_push(&C->narrow, 0);
        C->narrow.items[v->id] = 1;
    }
    return n;
}

static const char *sym_var_name(CPrint *C, int id) {
    if (id < C->names.len && C->names.items[id]) return C->names.items[id];
    ICE("C printer: Sym variable %d has no C name", id);
}

static bool sym_var_narrow(CPrint *C, int id) { return id < C->narrow.len && C->narrow.items[id]; }

/* A variable of a Sym of i64 arithmetic (an i32 one widened). */
static const char *sym_name(int id, void *ctx) {
    CPrint *C = ctx;
    const char *n = sym_var_name(C, id);
    return sym_var_narrow(C, id) ? arena_printf(C->a, "(int64_t)%s", n) : n;
}

const char *cp_fresh(CPrint *C, const char *base, int *id) {
    int k = C->next_id++;
    const char *n = arena_printf(C->a, "%s_%d", base, k);
    cp_set_name(C, k, n);
    if (id) *id = k;
    return n;
}

void cp_line(CPrint *C, const char *fmt, ...) {
    for (int i = 0; i < C->indent; i++) buf_puts(C->out, "    ");
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(C->out, fmt, ap);
    va_end(ap);
    buf_putc(C->out, '\n');
}

static const char *ctype(PrimType t) { return prim_ctype(t); }

/* A constant as a C expression of its type. */
static const char *cp_const(CPrint *C, PrimValue c) {
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

/* A variable of a 32-bit Sym: its value as an int. */
static const char *sym_name32(int id, void *ctx) {
    CPrint *C = ctx;
    const char *n = sym_var_name(C, id);
    return sym_var_narrow(C, id) ? n : arena_printf(C->a, "(int)%s", n);
}

/* s evaluated in 32-bit arithmetic (IX_SYM of type i32). */
static const char *cp_sym32(CPrint *C, const Sym *s) {
    Buf b = {0};
    sym_print_c_as(&b, s, sym_name32, C, "int");
    const char *r = arena_strdup(C->a, b.data ? b.data : "0");
    buf_free(&b);
    return r;
}

const char *cp_sym(CPrint *C, const Sym *s) {
    Buf b = {0};
    sym_print_c(&b, s, sym_name, C);
    const char *r = arena_strdup(C->a, b.data ? b.data : "0");
    buf_free(&b);
    return r;
}

const char *cp_host_block_decl(CPrint *C, const ImpVar *mem) { return arena_printf(C->a, "rt_block *%s", cp_name(C, mem)); }

/* "((float *)mem_3->data)" */
const char *cp_host_base(CPrint *C, const ImpVar *mem, PrimType t) {
    return arena_printf(C->a, "((%s *)%s->data)", ctype(t), cp_name(C, mem));
}

static const char *c_args(CPrint *C, ImpExp *const *args, int n) {
    Buf b = {0};
    for (int i = 0; i < n; i++) buf_printf(&b, "%s%s", i ? ", " : "", cp_exp(C, args[i]));
    const char *r = arena_strdup(C->a, b.data ? b.data : "");
    buf_free(&b);
    return r;
}

const char *cp_exp(CPrint *C, const ImpExp *e) {
    const char *own = C->t->exp ? C->t->exp(C, e) : NULL;
    if (own) return own;
    switch (e->kind) {
    case IX_CONST: return cp_const(C, e->c);
    case IX_VAR: return cp_name(C, e->var);
    case IX_OP:
        if (C->contract && prim_class(e->t) == PC_FLOAT && (e->op == OP_ADD || e->op == OP_SUB || e->op == OP_MUL))
            return arena_printf(C->a, "(%s %s %s)", cp_exp(C, e->args[0]), e->op == OP_ADD ? "+" : e->op == OP_SUB ? "-" : "*",
                                cp_exp(C, e->args[1]));
        return arena_printf(C->a, "rt_%s_%s(%s)", op_name(e->op), prim_name(e->t), c_args(C, e->args, op_arity(e->op)));
    case IX_CONV:
        return arena_printf(C->a, "rt_conv_%s_%s(%s)", prim_name(e->t), prim_name(e->to), cp_exp(C, e->args[0]));
    case IX_LOAD: return arena_printf(C->a, "%s[%s]", C->t->base(C, e->var, e->t), cp_exp(C, e->index));
    case IX_SYM: return e->t == PT_I32 ? cp_sym32(C, e->sym) : cp_sym(C, e->sym);
    case IX_THREAD:
    case IX_TUNING:
    case IX_MEMSIZE:
    case IX_LOCAL_BUDGET:
    case IX_MAX_GROUP:
    case IX_THRESHOLD:
    case IX_NUM_THREADS: break;
    }
    ICE("C printer: an Imp expression this target does not print");
}

const char *cp_loc(CPrint *C, SrcLoc loc) { return imp_loc(C->a, loc); }

const char *cp_decl(CPrint *C, const ImpVar *v) {
    if (v->kind == IMP_MEM) return C->t->block_decl(C, v);
    return arena_printf(C->a, "%s %s", ctype(v->t), cp_name(C, v));
}

/* ---- Copies --------------------------------------------------------------- */

void cp_copy_loops(CPrint *C, const char *dbase, const Lmad *dl, const char *sbase, const Lmad *sl, const char *sval) {
    if (sbase) lmad_merge_pair(C->a, dl, sl, &dl, &sl);
    else lmad_merge_pair(C->a, dl, dl, &dl, &sl);
    int r = dl->rank;
    /* Inner dimensions that may be empty guard the loops: an outer loop of
     * 10^10 empty rows would take minutes. */
    Buf guard = {0};
    for (int d = 1; d < r; d++) {
        int64_t n;
        if (sym_is_const(dl->dims[d].shape, &n) && n > 0) continue;
        buf_printf(&guard, "%s%s > 0", guard.data ? " && " : "", cp_sym(C, dl->dims[d].shape));
    }
    if (guard.data) {
        cp_line(C, "if (%s) {", guard.data);
        C->indent++;
    }
    Sym **idx = NEW_ARRAY(C->a, Sym *, r + 1);
    for (int d = 0; d < r; d++) {
        int id;
        const char *c = cp_fresh(C, "c", &id);
        idx[d] = sym_var(C->a, id);
        cp_line(C, "for (int64_t %s = 0; %s < %s; %s++) {", c, c, cp_sym(C, dl->dims[d].shape), c);
        C->indent++;
    }
    const char *src = sbase ? arena_printf(C->a, "%s[%s]", sbase, cp_sym(C, lmad_index(C->a, sl, idx + (r - sl->rank))))
                            : sval;
    cp_line(C, "%s[%s] = %s;", dbase, cp_sym(C, lmad_index(C->a, dl, idx)), src);
    for (int d = 0; d < r + (guard.data != NULL); d++) {
        C->indent--;
        cp_line(C, "}");
    }
    buf_free(&guard);
}

/* ---- Statements ------------------------------------------------------------ */

/* c one level deeper. */
static void cp_nested(CPrint *C, const ImpCode *c) {
    C->indent++;
    cp_code(C, c);
    C->indent--;
}

void cp_oom(CPrint *C, const char *what) {
    cp_line(C, "    rt_error(ctx, \"out of memory (%s)\");", what);
    cp_line(C, "    goto fail;");
}

void cp_alloc_check(CPrint *C, const ImpStm *s, const char *m, const char *size) {
    cp_line(C, "if (!%s) {", m);
    cp_line(C, "    rt_alloc_failed(ctx, \"%s\", %s);", emit_c_str(C->a, cp_loc(C, s->loc), false), size);
    cp_line(C, "    goto fail;");
    cp_line(C, "}");
}

/* m = a new host block of size bytes, or a failure at loc; decl: declares m. */
static void c_alloc(CPrint *C, const ImpStm *s, bool decl) {
    const char *m = cp_name(C, s->mem), *size = cp_exp(C, s->size);
    cp_line(C, "%s%s = rt_block_new(pool, %s);", decl ? "rt_block *" : "", m, size);
    cp_alloc_check(C, s, m, size);
}

int cp_message(CPrint *C, const ImpStm *s, int max, Buf *fmt, Buf *args) {
    int used = imp_message_format(C->a, s, max, fmt);
    for (int k = 0; args && k < used; k++) buf_printf(args, ", (long long)%s", cp_exp(C, s->args[k]));
    return used;
}

/* Records the failure (rt_error) and jumps to the entry's fail label. */
static void c_assert(CPrint *C, const ImpStm *s) {
    Buf fmt = {0}, args = {0};
    cp_message(C, s, s->nargs, &fmt, &args);
    cp_line(C, "if (!%s) {", cp_exp(C, s->cond));
    cp_line(C, "    rt_error(ctx, \"%s\"%s);", emit_c_str(C->a, fmt.data, false), args.data ? args.data : "");
    cp_line(C, "    goto fail;");
    cp_line(C, "}");
    buf_free(&fmt);
    buf_free(&args);
}

/* The C name of f: "futhorc_fn_<idx>_<name>". */
static const char *cp_fn_name(CPrint *C, const ImpFun *f) {
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
    return f->nrets == 1 ? ctype(f->rets[0]) : arena_printf(C->a, "%s_res", cp_fn_name(C, f));
}

static void c_call(CPrint *C, const ImpStm *s) {
    const char *call = arena_printf(C->a, "%s(%s)", cp_fn_name(C, s->fn), c_args(C, s->args, s->nargs));
    if (s->nresults == 1) {
        cp_line(C, "%s = %s;", cp_decl(C, s->results[0]), call);
        return;
    }
    const char *r = cp_fresh(C, "call", NULL);
    cp_line(C, "%s %s = %s;", fn_ret(C, s->fn), r, call);
    for (int i = 0; i < s->nresults; i++) cp_line(C, "%s = %s.r%d;", cp_decl(C, s->results[i]), r, i);
}

static void c_return(CPrint *C, const ImpStm *s) {
    if (s->nargs == 1) {
        cp_line(C, "return %s;", cp_exp(C, s->args[0]));
        return;
    }
    cp_line(C, "%s rt_res;", fn_ret(C, C->fun));
    for (int k = 0; k < s->nargs; k++) cp_line(C, "rt_res.r%d = %s;", k, cp_exp(C, s->args[k]));
    cp_line(C, "return rt_res;");
}

void cp_result_head(CPrint *C, const ImpStm *s) {
    int k = s->k;
    cp_line(C, "outs[%d].type.elem = %s;", k, emit_c_rt_prim(C->a, s->t));
    if (s->rank == 0) {
        cp_line(C, "outs[%d].type.rank = 0;", k);
        cp_line(C, "outs[%d].data = malloc(%d);", k, prim_size(s->t));
        cp_line(C, "if (!outs[%d].data) {", k);
        cp_oom(C, "writing a result");
        cp_line(C, "}");
        cp_line(C, "*(%s *)outs[%d].data = %s;", ctype(s->t), k, cp_exp(C, s->value));
        return;
    }
    cp_line(C, "outs[%d].type.rank = %d;", k, s->rank);
    cp_line(C, "outs[%d].shape = malloc(%d * sizeof(int64_t));", k, s->rank);
    cp_line(C, "if (!outs[%d].shape) {", k);
    cp_oom(C, "writing a result");
    cp_line(C, "}");
    for (int d = 0; d < s->rank; d++) cp_line(C, "outs[%d].shape[%d] = %s;", k, d, cp_exp(C, s->shape[d]));
}

/* A block's declaration: "rt_block *m = NULL;", a host block and its
 * allocation at once, or (kernel code) a view at a byte offset. Returns how
 * many statements it printed. */
static int c_block_decl(CPrint *C, const ImpCode *c, int i) {
    const ImpStm *s = c->stms[i];
    if (s->var->space == IMP_SPACE_HOST && !s->init && i + 1 < c->n && c->stms[i + 1]->kind == IMP_ALLOC &&
        c->stms[i + 1]->mem == s->var) {
        c_alloc(C, c->stms[i + 1], true);
        return 2;
    }
    if (s->offset) cp_line(C, "%s = %s + %s;", cp_decl(C, s->var), cp_exp(C, s->init), cp_exp(C, s->offset));
    else cp_line(C, "%s = %s;", cp_decl(C, s->var), s->init ? cp_exp(C, s->init) : "NULL");
    return 1;
}

/* Prints statement i of c; returns how many statements it printed. */
static int c_stm(CPrint *C, const ImpCode *c, int i) {
    int own = C->t->stm ? C->t->stm(C, c, i) : 0;
    if (own) return own;
    const ImpStm *s = c->stms[i];
    switch (s->kind) {
    case IMP_DECL:
        if (s->var->kind == IMP_MEM) return c_block_decl(C, c, i);
        cp_line(C, "%s = %s;", cp_decl(C, s->var), s->init ? cp_exp(C, s->init) : "0");
        break;
    case IMP_ASSIGN: cp_line(C, "%s = %s;", cp_name(C, s->var), cp_exp(C, s->value)); break;
    case IMP_STORE:
        cp_line(C, "%s[%s] = %s;", C->t->base(C, s->mem, s->t), cp_exp(C, s->index), cp_exp(C, s->value));
        break;
    case IMP_ALLOC: c_alloc(C, s, false); break;
    case IMP_RETAIN: cp_line(C, "rt_block_retain(%s);", cp_name(C, s->mem)); break;
    case IMP_RELEASE: cp_line(C, "rt_block_release(%s);", cp_name(C, s->mem)); break;
    case IMP_COPY:
        cp_copy_loops(C, C->t->base(C, s->dst, s->t), s->dst_lmad, C->t->base(C, s->src, s->t), s->src_lmad, NULL);
        break;
    case IMP_FOR: {
        const char *v = cp_name(C, s->var);
        if (s->unroll) cp_line(C, "#pragma unroll");
        cp_line(C, "for (%s %s = 0; %s < %s; %s++) {", ctype(s->var->t), v, v, cp_exp(C, s->bound), v);
        cp_nested(C, &s->body);
        cp_line(C, "}");
        break;
    }
    case IMP_WHILE:
        cp_line(C, "while (%s) {", cp_exp(C, s->cond));
        cp_nested(C, &s->body);
        cp_line(C, "}");
        break;
    case IMP_IF:
        cp_line(C, "if (%s) {", cp_exp(C, s->cond));
        cp_nested(C, &s->body);
        if (s->orelse.n) {
            cp_line(C, "} else {");
            cp_nested(C, &s->orelse);
        }
        cp_line(C, "}");
        break;
    case IMP_SCOPE:
        if (s->keep) {
            cp_code(C, &s->body);
            break;
        }
        cp_line(C, "{");
        cp_nested(C, &s->body);
        cp_line(C, "}");
        break;
    case IMP_CALL: c_call(C, s); break;
    case IMP_RETURN: c_return(C, s); break;
    case IMP_ASSERT: c_assert(C, s); break;
    case IMP_ARG:
    case IMP_RESULT:
    case IMP_FILL:
    case IMP_IOTA:
    case IMP_MAP:
    case IMP_UNMAP:
    case IMP_LAUNCH:
    case IMP_BARRIER:
    case IMP_FENCE:
    case IMP_ATOMIC:
    case IMP_PARFOR:
    case IMP_AWAIT:
    case IMP_SIGNAL: ICE("C printer: an Imp statement this target does not print");
    }
    return 1;
}

void cp_code(CPrint *C, const ImpCode *c) {
    for (int i = 0; i < c->n;) i += c_stm(C, c, i);
}

/* ---- Entry points ----------------------------------------------------------- */

void cp_entry(CPrint *C, const ImpEntry *e, int idx, const CEntry *t) {
    cp_line(C, "static int futhorc_entry_%d(rt_ctx *ctx, rt_pool *pool%s, const rt_value *ins, rt_value *outs) {", idx,
            t->params);
    C->indent++;
    cp_line(C, "if (0) goto fail; /* the label is used whatever the body */");
    if (t->begin) t->begin(C, e);
    cp_code(C, &e->body);
    if (t->end) t->end(C, e);
    cp_line(C, "return 0;");
    C->indent--;
    cp_line(C, "fail:");
    cp_line(C, "    return 1;");
    cp_line(C, "}");
    buf_putc(C->out, '\n');
    int nret = e->src->nret;
    cp_line(C, "static int futhorc_run_%d(rt_ctx *ctx, const rt_value *ins, rt_value *outs) {", idx);
    cp_line(C, "    rt_pool pool;");
    cp_line(C, "    rt_pool_init(&pool);%s", t->pools);
    cp_line(C, "    for (int k = 0; k < %d; k++) outs[k].shape = NULL, outs[k].data = NULL;", nret);
    cp_line(C, "    int r = futhorc_entry_%d(ctx, &pool%s, ins, outs);", idx, t->args);
    cp_line(C, "    rt_pool_free(&pool);%s", t->free_pools);
    cp_line(C, "    for (int k = 0; r && k < %d; k++) {", nret);
    cp_line(C, "        %s", t->free_out);
    cp_line(C, "        free(outs[k].shape);");
    cp_line(C, "        outs[k].shape = NULL, outs[k].data = NULL;");
    cp_line(C, "    }");
    cp_line(C, "    return r;");
    cp_line(C, "}");
    buf_putc(C->out, '\n');
}

/* ---- Functions ------------------------------------------------------------- */

void cp_function(CPrint *C, const ImpFun *f) {
    const char *ret = fn_ret(C, f);
    Buf b = {0};
    if (f->nrets > 1) {
        for (int k = 0; k < f->nrets; k++) buf_printf(&b, "%s r%d; ", ctype(f->rets[k]), k);
        cp_line(C, "typedef struct { %s} %s;", b.data, ret);
        buf_free(&b);
    }
    for (int i = 0; i < f->nparams; i++) buf_printf(&b, "%s%s", i ? ", " : "", cp_decl(C, f->params[i]));
    cp_line(C, "static %s %s(%s) {", ret, cp_fn_name(C, f), b.data ? b.data : "void");
    buf_free(&b);
    C->fun = f;
    C->indent++;
    cp_code(C, &f->body);
    C->indent--;
    C->fun = NULL;
    cp_line(C, "}");
    buf_putc(C->out, '\n');
}
