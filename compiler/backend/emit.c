/* The statement emitter of the OpenCL backend (emit.h): C for a program
 * at STAGE_GPU, as OpenCL host code (EM_HOST: scalars and control flow;
 * array statements and SOACs are handed to opencl.c), as OpenCL C inside
 * kernels (EM_KERNEL), or as sequential C over host blocks (EM_C: the
 * SegHost statements that run on the host over mapped device memory).
 * The sequential C backend no longer uses it: it prints Imp (c.c), and
 * step 2 of issue 13 moves the OpenCL backend onto Imp too, which deletes
 * this file.
 *
 * Scalars are C variables named <name>_<id>; an array has no C variable: it
 * is its memory block read and written through its LMAD, printed with
 * sym_print_c. Memory blocks are reference counted (not inside kernels):
 * each block variable owns one reference, released after the block's last
 * use in the body that binds it. Failures (assertions, size mismatches,
 * out of memory) call rt_error and jump to the entry's fail label (a
 * kernel records them for the host). SOACs in EM_C and kernel code
 * become sequential loops over their iter Var (ir.h); array lambda
 * parameters are views whose LMADs mention it. Array accumulators of
 * reductions, scans and histograms live in the places memory.c gave the
 * operators' parameters. */
#include "emit.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Names and small printers --------------------------------------------- */

void ce_set_name(Emit *E, int id, const char *name) {
    while (E->names.len <= id) vec_push(&E->names, NULL);
    E->names.items[id] = name;
}

const char *ce_name(Emit *E, const Var *v) {
    if (v->id < E->names.len && E->names.items[v->id]) return E->names.items[v->id];
    Buf b = {0};
    for (const char *s = v->name; *s; s++) buf_putc(&b, isalnum((unsigned char)*s) ? *s : '_');
    buf_printf(&b, "_%d", v->id);
    const char *n = arena_printf(E->a, "%s%s", isalpha((unsigned char)b.data[0]) ? "" : "v", b.data);
    buf_free(&b);
    ce_set_name(E, v->id, n);
    return n;
}

const char *ce_sym_name(int id, void *ctx) {
    Emit *E = ctx;
    if (id < E->names.len && E->names.items[id]) return E->names.items[id];
    ICE("C backend: LMAD variable %d has no C name", id);
}

/* A fresh loop counter: a synthetic id with a C name. */
int ce_counter(Emit *E, const char *base) {
    int id = E->next_id++;
    ce_set_name(E, id, arena_printf(E->a, "%s_%d", base, id));
    return id;
}

void ce_line(Emit *E, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ce_line(Emit *E, const char *fmt, ...) {
    for (int i = 0; i < E->indent; i++) buf_puts(E->out, "    ");
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(E->out, fmt, ap);
    va_end(ap);
    buf_putc(E->out, '\n');
}

static const char *ctype(PrimType t) { return prim_ctype(t); }

static const char *ce_rt_prim(Emit *E, PrimType t) { return emit_c_rt_prim(E->a, t); }

/* A constant as a C expression of its type. */
static const char *ce_const(Emit *E, PrimValue c) {
    switch (prim_class(c.type)) {
    case PC_BOOL: return c.v.b ? "true" : "false";
    case PC_SIGNED:
        if (c.v.i == INT64_MIN) return "INT64_MIN";
        return arena_printf(E->a, "((%s)%lldLL)", ctype(c.type), (long long)c.v.i);
    case PC_UNSIGNED: {
        int bits = prim_size(c.type) * 8;
        uint64_t u = (uint64_t)c.v.i;
        if (bits < 64) u &= (UINT64_C(1) << bits) - 1;
        return arena_printf(E->a, "((%s)%lluULL)", ctype(c.type), (unsigned long long)u);
    }
    case PC_FLOAT:
    default:
        if (isnan(c.v.f)) return arena_printf(E->a, "((%s)NAN)", ctype(c.type));
        if (isinf(c.v.f)) return arena_printf(E->a, "(%s(%s)INFINITY)", c.v.f < 0 ? "-" : "", ctype(c.type));
        return arena_printf(E->a, "((%s)%a)", ctype(c.type), c.v.f);
    }
}

const char *ce_se(Emit *E, SubExp se) { return se.is_var ? ce_name(E, se.v) : ce_const(E, se.c); }

Sym *ce_se_sym(Emit *E, SubExp se) {
    return se.is_var ? sym_var(E->a, se.v->id) : sym_const(E->a, se.c.v.i);
}

const char *ce_sym(Emit *E, const Sym *s) {
    Buf b = {0};
    sym_print_c(&b, s, ce_sym_name, E);
    const char *r = arena_strdup(E->a, b.data ? b.data : "0");
    buf_free(&b);
    return r;
}

/* "((float *)mem_3->data)" */
static const char *ce_mem_base(Emit *E, const Var *mem, PrimType t) {
    if (E->mode == EM_KERNEL) return arena_printf(E->a, "((__global %s *)%s)", ctype(t), ce_name(E, mem));
    return arena_printf(E->a, "((%s *)%s->data)", ctype(t), ce_name(E, mem));
}

/* "base[offset]" for index idx through l. */
const char *ce_elem_at(Emit *E, const char *base, const Lmad *l, Sym *const *idx) {
    return arena_printf(E->a, "%s[%s]", base, ce_sym(E, lmad_index(E->a, l, idx)));
}

const char *ce_arr_base(Emit *E, const Var *arr) { return ce_mem_base(E, arr->mem->mem, arr->type.elem); }

const char *ce_loc(Emit *E, SrcLoc loc) {
    if (!loc.file) return "";
    return arena_printf(E->a, "%s:%d:%d: ", loc.file, loc.line, loc.col);
}

/* A C string literal body for s (quotes and escapes; % doubled when
 * printf_safe). */
const char *ce_str(Emit *E, const char *s, bool printf_safe) { return emit_c_str(E->a, s, printf_safe); }

/* ---- Copies --------------------------------------------------------------- */

/* Emits loops over dst's shape (rank dims) that set each element of dst
 * (dbase through dl) to the element of src (sbase through sl, indexed by
 * the last sl->rank indices), or to the scalar sval when sbase is NULL.
 * Dimensions the layouts lay out contiguously alike share one loop, so a
 * copy of a row-major array of any rank is one loop (a loop per dimension
 * made the code of nested array literals cubic in their depth). */
static void ce_copy_nest(Emit *E, const char *dbase, const Lmad *dl, const char *sbase,
                           const Lmad *sl, const char *sval) {
    if (!sbase) lmad_merge_pair(E->a, dl, dl, &dl, &sl);
    else lmad_merge_pair(E->a, dl, sl, &dl, &sl);
    int r = dl->rank;
    Sym **idx = NEW_ARRAY(E->a, Sym *, r + 1);
    for (int d = 0; d < r; d++) {
        int c = ce_counter(E, "c");
        idx[d] = sym_var(E->a, c);
        ce_line(E, "for (int64_t %s = 0; %s < %s; %s++) {", ce_sym_name(c, E), ce_sym_name(c, E),
             ce_sym(E, dl->dims[d].shape), ce_sym_name(c, E));
        E->indent++;
    }
    const char *src = sbase ? ce_elem_at(E, sbase, sl, idx + (r - sl->rank)) : sval;
    ce_line(E, "%s = %s;", ce_elem_at(E, dbase, dl, idx), src);
    for (int d = 0; d < r; d++) {
        E->indent--;
        ce_line(E, "}");
    }
}

/* Copies array src into dst's block at layout dl, unless it is already there. */
static void ce_copy_array(Emit *E, const Var *dmem, const Lmad *dl, const Var *src) {
    if (src->mem->mem == dmem && lmad_equal(src->mem->ixfun, dl)) return;
    if (E->mode == EM_HOST) {
        cl_copy(E, dmem, dl, src->mem->mem, src->mem->ixfun, src->type.elem);
        return;
    }
    PrimType t = src->type.elem;
    ce_copy_nest(E, ce_mem_base(E, dmem, t), dl, ce_arr_base(E, src), src->mem->ixfun, NULL);
}

/* Stores se (a scalar or an array) at layout dl of block dmem. */
void ce_store(Emit *E, const Var *dmem, const Lmad *dl, SubExp se, PrimType t) {
    if (se.is_var && se.v->type.kind == TK_ARRAY) {
        ce_copy_array(E, dmem, dl, se.v);
        return;
    }
    if (dl->rank == 0) {
        ce_line(E, "%s = %s;", ce_elem_at(E, ce_mem_base(E, dmem, t), dl, NULL), ce_se(E, se));
        return;
    }
    ce_copy_nest(E, ce_mem_base(E, dmem, t), dl, NULL, NULL, ce_se(E, se));
}

Lmad *ce_fix_row(Emit *E, const Lmad *l, Sym *i) {
    LmadSlice s = {0};
    s.is_index = true;
    s.index = i;
    return lmad_slice(E->a, l, &s, 1);
}

/* ---- Declarations --------------------------------------------------------- */

/* The C type of a block variable in E's mode. */
static const char *ce_block_type(Emit *E) {
    static const char *const types[] = {"rt_block *", "rt_dblock *", "__global unsigned char *"};
    return types[E->mode];
}

/* Retains or releases block b (op "retain" or "release"); blocks inside
 * kernels are not counted. */
static void block_ref(Emit *E, const char *op, const char *b) {
    if (E->mode == EM_KERNEL) return;
    ce_line(E, "%s_%s(%s);", E->mode == EM_HOST ? "rt_dblock" : "rt_block", op, b);
}

/* Declares the C variable of a scalar or memory Var (arrays have none). */
void ce_declare(Emit *E, const Var *v, const char *init) {
    if (v->type.kind == TK_ARRAY) return;
    const char *t = v->type.kind == TK_MEM ? ce_block_type(E) : arena_printf(E->a, "%s ", ctype(v->type.elem));
    if (init) ce_line(E, "%s%s = %s;", t, ce_name(E, v), init);
    else ce_line(E, "%s%s = %s;", t, ce_name(E, v), v->type.kind == TK_MEM ? "NULL" : "0");
}

/* ---- Simple statements ---------------------------------------------------- */

/* The C operator of a float operation that a kernel may contract (fuse a
 * multiplication into an addition), or NULL. */
static const char *contractible(Op op) {
    return op == OP_ADD ? "+" : op == OP_SUB ? "-" : op == OP_MUL ? "*" : NULL;
}

static void emit_op(Emit *E, const Stm *s) {
    const IrExp *e = s->e;
    const char *infix = E->contract && prim_class(e->t) == PC_FLOAT ? contractible(e->op) : NULL;
    if (infix) {
        ce_declare(E, s->pat[0], arena_printf(E->a, "%s %s %s", ce_se(E, e->args[0]), infix, ce_se(E, e->args[1])));
        return;
    }
    Buf b = {0};
    buf_printf(&b, "rt_%s_%s(", op_name(e->op), prim_name(e->t));
    for (int i = 0; i < e->nargs; i++) buf_printf(&b, "%s%s", i ? ", " : "", ce_se(E, e->args[i]));
    buf_putc(&b, ')');
    ce_declare(E, s->pat[0], b.data);
    buf_free(&b);
}

static void emit_index(Emit *E, const Stm *s) {
    const IrExp *e = s->e;
    if (s->pat[0]->type.kind == TK_ARRAY) return; /* a view: memory.c set its LMAD */
    Sym **idx = NEW_ARRAY(E->a, Sym *, e->nslice + 1);
    for (int i = 0; i < e->nslice; i++) idx[i] = ce_se_sym(E, e->slice[i].index);
    ce_declare(E, s->pat[0], ce_elem_at(E, ce_arr_base(E, e->arr), e->arr->mem->ixfun, idx));
}

static void emit_update(Emit *E, const Stm *s) {
    const IrExp *e = s->e;
    LmadSlice *ls = NEW_ARRAY(E->a, LmadSlice, e->nslice + 1);
    for (int i = 0; i < e->nslice; i++) {
        ls[i].is_index = !e->slice[i].is_slice;
        if (ls[i].is_index) ls[i].index = ce_se_sym(E, e->slice[i].index);
        else {
            ls[i].start = ce_se_sym(E, e->slice[i].start);
            ls[i].len = ce_se_sym(E, e->slice[i].len);
            ls[i].stride = ce_se_sym(E, e->slice[i].stride);
        }
    }
    Lmad *region = lmad_slice(E->a, e->arr->mem->ixfun, ls, e->nslice);
    ce_store(E, e->arr->mem->mem, region, e->se, e->arr->type.elem);
}

static void emit_iota(Emit *E, const Stm *s) {
    const IrExp *e = s->e;
    Var *v = s->pat[0];
    int c = ce_counter(E, "c");
    const char *i = ce_sym_name(c, E), *t = prim_name(e->t);
    Sym *idx = sym_var(E->a, c);
    ce_line(E, "for (int64_t %s = 0; %s < %s; %s++)", i, i, ce_se(E, e->n), i);
    ce_line(E, "    %s = rt_add_%s(%s, rt_mul_%s((%s)%s, %s));", ce_elem_at(E, ce_arr_base(E, v), v->mem->ixfun, &idx),
         t, ce_se(E, e->start), t, ctype(e->t), i, ce_se(E, e->step));
}

static void emit_replicate(Emit *E, const Stm *s) {
    const IrExp *e = s->e;
    Var *v = s->pat[0];
    if (!e->se.is_var || e->se.v->type.kind != TK_ARRAY) {
        ce_store(E, v->mem->mem, v->mem->ixfun, e->se, v->type.elem);
        return;
    }
    Var *src = e->se.v;
    ce_copy_nest(E, ce_arr_base(E, v), v->mem->ixfun, ce_arr_base(E, src), src->mem->ixfun, NULL);
}

static void emit_concat(Emit *E, const Stm *s) {
    const IrExp *e = s->e;
    Var *v = s->pat[0];
    Sym *off = sym_const(E->a, 0);
    for (int i = 0; i < e->narrs; i++) {
        Var *a = e->arrs[i];
        LmadSlice sl = {0};
        sl.start = off;
        sl.len = a->mem->ixfun->dims[0].shape;
        sl.stride = sym_const(E->a, 1);
        ce_copy_array(E, v->mem->mem, lmad_slice(E->a, v->mem->ixfun, &sl, 1), a);
        off = sym_add(E->a, off, sl.len);
    }
}

static void emit_arraylit(Emit *E, const Stm *s) {
    const IrExp *e = s->e;
    Var *v = s->pat[0];
    for (int i = 0; i < e->nargs; i++)
        ce_store(E, v->mem->mem, ce_fix_row(E, v->mem->ixfun, sym_const(E->a, i)), e->args[i], v->type.elem);
}

/* Replaces each "{}" of msg by %lld and passes args, prefixed by the location. */
static void emit_assert(Emit *E, const Stm *s) {
    const IrExp *e = s->e;
    if (E->mode == EM_KERNEL) {
        cl_kernel_fail(E, s);
        return;
    }
    Buf fmt = {0}, args = {0};
    buf_puts(&fmt, ce_str(E, ce_loc(E, s->loc), true));
    const char *m = e->msg ? e->msg : "assertion failed";
    int used = 0;
    for (const char *q = m; *q; q++) {
        if (q[0] == '{' && q[1] == '}' && used < e->nargs) {
            buf_puts(&fmt, "%lld");
            buf_printf(&args, ", (long long)%s", ce_se(E, e->args[used++]));
            q++;
            continue;
        }
        char one[2] = {*q, 0};
        buf_puts(&fmt, ce_str(E, one, true));
    }
    ce_line(E, "if (!%s) {", ce_se(E, e->cond));
    ce_line(E, "    rt_error(ctx, \"%s\"%s);", fmt.data ? fmt.data : "", args.data ? args.data : "");
    ce_line(E, "    goto %s;", E->fail_label);
    ce_line(E, "}");
    buf_free(&fmt);
    buf_free(&args);
}

static void emit_alloc(Emit *E, const Stm *s) {
    const char *m = ce_name(E, s->pat[0]), *size = ce_se(E, s->e->size);
    ce_line(E, "rt_block *%s = rt_block_new(pool, %s);", m, size);
    ce_alloc_check(E, m, size, s->loc);
}

void ce_alloc_check(Emit *E, const char *block, const char *size, SrcLoc loc) {
    ce_line(E, "if (!%s) {", block);
    ce_line(E, "    rt_alloc_failed(ctx, \"%s\", %s);", ce_str(E, ce_loc(E, loc), false), size);
    ce_line(E, "    goto fail;");
    ce_line(E, "}");
}

/* ---- Functions ------------------------------------------------------------ */

/* A function returns its result, or a struct of its results r0, r1, ...,
 * by value (no pointers, so no address spaces in OpenCL C). */

/* The C name of function p->defs[idx]: "futhorc_fn_<idx>_<name>". */
static const char *ce_fn_name(Emit *E, int idx) {
    Buf b = {0};
    buf_printf(&b, "futhorc_fn_%d_", idx);
    for (const char *s = E->p->defs[idx]->name; *s; s++) buf_putc(&b, isalnum((unsigned char)*s) ? *s : '_');
    const char *n = arena_strdup(E->a, b.data);
    buf_free(&b);
    return n;
}

/* The C type function p->defs[idx] returns: its result's, or the struct
 * "<name>_res" of its results. */
static const char *ce_fn_ret(Emit *E, int idx) {
    const Fun *f = E->p->defs[idx];
    return f->nret == 1 ? ctype(f->ret[0].elem) : arena_printf(E->a, "%s_res", ce_fn_name(E, idx));
}

static void emit_apply(Emit *E, const Stm *s) {
    const IrExp *e = s->e;
    int idx = ir_def_index(E->p, e->fn);
    if (E->mode == EM_KERNEL) cl_kernel_call(E, idx);
    Buf b = {0};
    for (int i = 0; i < e->nargs; i++) buf_printf(&b, "%s%s", i ? ", " : "", ce_se(E, e->args[i]));
    const char *call = arena_printf(E->a, "%s(%s)", ce_fn_name(E, idx), b.data ? b.data : "");
    buf_free(&b);
    if (s->npat == 1) {
        ce_declare(E, s->pat[0], call);
        return;
    }
    const char *r = ce_sym_name(ce_counter(E, "call"), E);
    ce_line(E, "%s %s = %s;", ce_fn_ret(E, idx), r, call);
    for (int i = 0; i < s->npat; i++) ce_declare(E, s->pat[i], arena_printf(E->a, "%s.r%d", r, i));
}

/* Result handler of a function's body: returns the results (ctx: the
 * struct type of several). */
static void res_fn(Emit *E, const Body *b, void *ctx) {
    if (b->nres == 1) {
        ce_line(E, "return %s;", ce_se(E, b->res[0]));
        return;
    }
    ce_line(E, "%s rt_res;", (const char *)ctx);
    for (int k = 0; k < b->nres; k++) ce_line(E, "rt_res.r%d = %s;", k, ce_se(E, b->res[k]));
    ce_line(E, "return rt_res;");
}

void ce_function(Emit *E, int idx) {
    const Fun *f = E->p->defs[idx];
    const char *ret = ce_fn_ret(E, idx);
    Buf b = {0};
    if (f->nret > 1) {
        for (int k = 0; k < f->nret; k++) buf_printf(&b, "%s r%d; ", ctype(f->ret[k].elem), k);
        ce_line(E, "typedef struct { %s} %s;", b.data, ret);
        buf_free(&b);
    }
    for (int i = 0; i < f->nparams; i++)
        buf_printf(&b, "%s%s %s", i ? ", " : "", ctype(f->params[i]->type.elem), ce_name(E, f->params[i]));
    ce_line(E, "static %s %s(%s) {", ret, ce_fn_name(E, idx), b.data ? b.data : "void");
    buf_free(&b);
    E->indent++;
    ce_body(E, f->body, res_fn, (void *)ret, NULL, 0);
    E->indent--;
    ce_line(E, "}");
    buf_putc(E->out, '\n');
}

/* ---- Control flow --------------------------------------------------------- */

/* Result handler of if branches: assign the pattern (retaining blocks). */
static void res_assign(Emit *E, const Body *b, void *ctx) {
    const Stm *s = ctx;
    for (int i = 0; i < b->nres && i < s->npat; i++) {
        Var *v = s->pat[i];
        if (v->type.kind == TK_ARRAY) continue;
        ce_line(E, "%s = %s;", ce_name(E, v), ce_se(E, b->res[i]));
        if (v->type.kind == TK_MEM) block_ref(E, "retain", ce_name(E, v));
    }
}

static void emit_if(Emit *E, const Stm *s) {
    for (int i = 0; i < s->npat; i++) ce_declare(E, s->pat[i], NULL);
    ce_line(E, "if (%s) {", ce_se(E, s->e->cond));
    E->indent++;
    ce_body(E, s->e->tbody, res_assign, (void *)s, NULL, 0);
    E->indent--;
    ce_line(E, "} else {");
    E->indent++;
    ce_body(E, s->e->fbody, res_assign, (void *)s, NULL, 0);
    E->indent--;
    ce_line(E, "}");
}

/* Result handler of loop bodies: new parameter values through temporaries
 * (results may mention parameters), releasing the old blocks. */
static void res_loop(Emit *E, const Body *b, void *ctx) {
    const Loop *l = ctx;
    int base = E->next_id;
    for (int i = 0; i < l->nparams; i++) {
        Var *p = l->params[i];
        if (p->type.kind == TK_ARRAY) continue;
        int t = ce_counter(E, "next");
        const char *ty = p->type.kind == TK_MEM ? ce_block_type(E) : arena_printf(E->a, "%s ", ctype(p->type.elem));
        ce_line(E, "%s%s = %s;", ty, ce_sym_name(t, E), ce_se(E, b->res[i]));
        if (p->type.kind == TK_MEM) block_ref(E, "retain", ce_sym_name(t, E));
    }
    for (int i = 0, t = base; i < l->nparams; i++) {
        Var *p = l->params[i];
        if (p->type.kind == TK_ARRAY) continue;
        if (p->type.kind == TK_MEM) block_ref(E, "release", ce_name(E, p));
        ce_line(E, "%s = %s;", ce_name(E, p), ce_sym_name(t++, E));
    }
}

static void emit_loop(Emit *E, const Stm *s) {
    const Loop *l = &s->e->loop;
    for (int i = 0; i < s->npat; i++) ce_declare(E, s->pat[i], NULL);
    ce_line(E, "{");
    E->indent++;
    for (int i = 0; i < l->nparams; i++) {
        Var *p = l->params[i];
        if (p->type.kind == TK_ARRAY) continue;
        ce_declare(E, p, ce_se(E, l->inits[i]));
        if (p->type.kind == TK_MEM) block_ref(E, "retain", ce_name(E, p));
    }
    if (l->kind == IR_LOOP_FOR) {
        const char *i = ce_name(E, l->i);
        ce_line(E, "for (int64_t %s = 0; %s < %s; %s++) {", i, i, ce_se(E, l->bound), i);
    } else {
        ce_line(E, "while (%s) {", ce_name(E, l->cond));
    }
    E->indent++;
    ce_body(E, l->body, res_loop, (void *)l, NULL, 0);
    E->indent--;
    ce_line(E, "}");
    for (int i = 0; i < s->npat; i++)
        if (s->pat[i]->type.kind != TK_ARRAY) ce_line(E, "%s = %s;", ce_name(E, s->pat[i]), ce_name(E, l->params[i]));
    E->indent--;
    ce_line(E, "}");
}

/* ---- SOACs ---------------------------------------------------------------- */

/* Binds the scalar parameters of a SOAC lambda to row iter of arrs (array
 * parameters are views: memory.c gave them LMADs in terms of iter). */
void ce_bind_rows(Emit *E, const Lambda *lam, Var **arrs, const Var *iter) {
    Sym *i = sym_var(E->a, iter->id);
    for (int k = 0; k < lam->nparams; k++) {
        Var *p = lam->params[k];
        if (p->type.kind != TK_ARRAY) ce_declare(E, p, ce_elem_at(E, ce_arr_base(E, arrs[k]), arrs[k]->mem->ixfun, &i));
    }
}

/* Copies the array at (smem, sl) to (dmem, dl) unless they are the same. */
static void ce_copy_at(Emit *E, const Var *dmem, const Lmad *dl, const Var *smem, const Lmad *sl, PrimType t) {
    if (smem == dmem && lmad_equal(sl, dl)) return;
    ce_copy_nest(E, ce_mem_base(E, dmem, t), dl, ce_mem_base(E, smem, t), sl, NULL);
}

/* Binds operator parameters to accumulator expressions and values, runs
 * the operator and assigns its results to the accumulators. An array
 * operand has no accumulator expression (NULL): its accumulator is the
 * place of the operator's parameter (memory.c), which results are copied
 * into unless they were built there. */
typedef struct CeOpCtx {
    const SegOp *op;
    const char **accs;
} CeOpCtx;

static void res_to_accs(Emit *E, const Body *b, void *ctx) {
    CeOpCtx *o = ctx;
    for (int i = 0; i < b->nres; i++) {
        if (o->accs[i]) {
            ce_line(E, "%s = %s;", o->accs[i], ce_se(E, b->res[i]));
            continue;
        }
        const MemInfo *acc = o->op->op->params[i]->mem;
        ce_store(E, acc->mem, acc->ixfun, b->res[i], o->op->op->params[i]->type.elem);
    }
}

static void ce_segop(Emit *E, const SegOp *op, const char **accs, const SubExp *vals) {
    ce_line(E, "{");
    E->indent++;
    for (int i = 0; i < op->k; i++) {
        Var *pe = op->op->params[op->k + i];
        if (accs[i]) {
            ce_declare(E, op->op->params[i], accs[i]);
            ce_declare(E, pe, ce_se(E, vals[i]));
            continue;
        }
        ce_store(E, pe->mem->mem, pe->mem->ixfun, vals[i], pe->type.elem);
    }
    CeOpCtx o = {op, accs};
    ce_body(E, op->op->body, res_to_accs, &o, NULL, 0);
    E->indent--;
    ce_line(E, "}");
}


/* After the map body: the scans (writing their outputs), the reductions,
 * and the map outputs, all at row iter. */
void ce_res_screma(Emit *E, const Body *b, void *ctx) {
    CeScremaCtx *x = ctx;
    const Screma *sc = &x->s->e->screma;
    Sym *i = sym_var(E->a, sc->iter->id);
    int pos = 0, acc = 0;
    for (int j = 0; j < sc->nscans; j++) {
        ce_segop(E, &sc->scans[j], x->scan_accs + acc, b->res + pos);
        for (int k = 0; k < sc->scans[j].k; k++, pos++, acc++) {
            Var *out = x->s->pat[pos];
            const char *a = x->scan_accs[acc];
            if (a) {
                ce_line(E, "%s = %s;", ce_elem_at(E, ce_arr_base(E, out), out->mem->ixfun, &i), a);
                continue;
            }
            const MemInfo *am = sc->scans[j].op->params[k]->mem;
            ce_copy_at(E, out->mem->mem, ce_fix_row(E, out->mem->ixfun, i), am->mem, am->ixfun, out->type.elem);
        }
    }
    acc = 0;
    for (int j = 0; j < sc->nreds; j++) {
        ce_segop(E, &sc->reds[j], x->red_accs + acc, b->res + pos);
        pos += sc->reds[j].k;
        acc += sc->reds[j].k;
    }
    for (; pos < b->nres; pos++) {
        Var *out = x->s->pat[pos];
        ce_store(E, out->mem->mem, ce_fix_row(E, out->mem->ixfun, i), b->res[pos], out->type.elem);
    }
}

/* Declares the accumulators of ops (C temporaries when temps, else the
 * pattern Vars pat) set to the neutral elements; an array accumulator is
 * the place of its operator parameter, filled with the neutral element,
 * and gets a NULL expression. */
const char **ce_declare_accs(Emit *E, const SegOp *ops, int nops, Var **pat, bool temps) {
    int n = 0;
    for (int j = 0; j < nops; j++) n += ops[j].k;
    const char **accs = NEW_ARRAY(E->a, const char *, n + 1);
    n = 0;
    for (int j = 0; j < nops; j++)
        for (int k = 0; k < ops[j].k; k++, n++) {
            const SubExp ne = ops[j].neutral[k];
            PrimType t = subexp_type(ne).elem;
            const Var *pa = ops[j].op->params[k];
            if (pa->type.kind == TK_ARRAY) {
                ce_store(E, pa->mem->mem, pa->mem->ixfun, ne, t);
                accs[n] = NULL;
            } else if (temps) {
                accs[n] = ce_sym_name(ce_counter(E, "acc"), E);
                ce_line(E, "%s %s = %s;", ctype(t), accs[n], ce_se(E, ne));
            } else {
                accs[n] = ce_name(E, pat[n]);
                ce_declare(E, pat[n], ce_se(E, ne));
            }
        }
    return accs;
}

/* "for (int64_t i_7 = 0; i_7 < w; i_7++) {" over a SOAC's iter. */
static void ce_open_soac_loop(Emit *E, SubExp w, const Var *iter) {
    const char *i = ce_name(E, iter);
    ce_line(E, "for (int64_t %s = 0; %s < %s; %s++) {", i, i, ce_se(E, w), i);
    E->indent++;
}

static void emit_screma(Emit *E, const Stm *s) {
    const Screma *sc = &s->e->screma;
    int nscan = 0;
    for (int j = 0; j < sc->nscans; j++) nscan += sc->scans[j].k;
    CeScremaCtx x = {s, NULL, NULL};
    x.red_accs = ce_declare_accs(E, sc->reds, sc->nreds, s->pat + nscan, false);
    ce_line(E, "{");
    E->indent++;
    x.scan_accs = ce_declare_accs(E, sc->scans, sc->nscans, NULL, true);
    ce_open_soac_loop(E, sc->w, sc->iter);
    ce_bind_rows(E, sc->map, sc->arrs, sc->iter);
    ce_body(E, sc->map->body, ce_res_screma, &x, NULL, 0);
    E->indent--;
    ce_line(E, "}");
    E->indent--;
    ce_line(E, "}");
}

/* Scatter: writes value j (an element or a whole row) to dests[j] at
 * index j when in bounds. */
void ce_res_scatter(Emit *E, const Body *b, void *ctx) {
    const Scatter *sc = ctx;
    for (int j = 0; j < sc->ndests; j++) {
        Var *d = sc->dests[j];
        const Lmad *l = d->mem->ixfun;
        const char *ixc = ce_se(E, b->res[j]);
        ce_line(E, "if (%s >= 0 && %s < %s) {", ixc, ixc, ce_sym(E, l->dims[0].shape));
        E->indent++;
        ce_store(E, d->mem->mem, ce_fix_row(E, l, ce_se_sym(E, b->res[j])), b->res[sc->ndests + j], d->type.elem);
        E->indent--;
        ce_line(E, "}");
    }
}

static void emit_soac_loop(Emit *E, SubExp w, const Lambda *lam, Var **arrs, const Var *iter, ResFn fn,
                           void *ctx) {
    ce_open_soac_loop(E, w, iter);
    ce_bind_rows(E, lam, arrs, iter);
    ce_body(E, lam->body, fn, ctx, NULL, 0);
    E->indent--;
    ce_line(E, "}");
}

/* Hist: combines the values with the bucket's current contents. An array
 * bucket is copied into the operator's accumulator place, combined, and
 * copied back. */
static void ce_res_hist(Emit *E, const Body *b, void *ctx) {
    const Hist *h = ctx;
    const char *bk = ce_se(E, b->res[0]);
    Sym *ix = ce_se_sym(E, b->res[0]);
    ce_line(E, "if (%s >= 0 && %s < %s) {", bk, bk, ce_se(E, h->dest_w));
    E->indent++;
    const char **accs = NEW_ARRAY(E->a, const char *, h->op.k + 1);
    for (int j = 0; j < h->op.k; j++) {
        const Var *d = h->dests[j], *pa = h->op.op->params[j];
        if (pa->type.kind != TK_ARRAY) {
            accs[j] = ce_elem_at(E, ce_arr_base(E, d), d->mem->ixfun, &ix);
            continue;
        }
        ce_copy_at(E, pa->mem->mem, pa->mem->ixfun, d->mem->mem, ce_fix_row(E, d->mem->ixfun, ix), d->type.elem);
    }
    ce_segop(E, &h->op, accs, b->res + 1);
    for (int j = 0; j < h->op.k; j++) {
        const Var *d = h->dests[j], *pa = h->op.op->params[j];
        if (pa->type.kind == TK_ARRAY)
            ce_copy_at(E, d->mem->mem, ce_fix_row(E, d->mem->ixfun, ix), pa->mem->mem, pa->mem->ixfun, d->type.elem);
    }
    E->indent--;
    ce_line(E, "}");
}

/* ---- Statements and bodies ------------------------------------------------ */

/* Statements that touch array memory, which OpenCL host code runs on the
 * device (a scalar index reads one element back). */
static bool device_stm(const Stm *s) {
    switch (s->e->kind) {
    case IE_INDEX: return s->pat[0]->type.kind != TK_ARRAY;
    case IE_UPDATE:
    case IE_IOTA:
    case IE_REPLICATE:
    case IE_COPY:
    case IE_ARRAYLIT:
    case IE_SCREMA:
    case IE_SCATTER:
    case IE_HIST:
    case IE_ALLOC: return true;
    default: return false;
    }
}

void ce_stm(Emit *E, const Stm *s) {
    const IrExp *e = s->e;
    if (E->mode == EM_HOST && device_stm(s)) {
        cl_host_stm(E, s);
        return;
    }
    if (E->mode == EM_KERNEL && e->kind == IE_ALLOC) ICE("OpenCL backend: an allocation inside a kernel");
    switch (e->kind) {
    case IE_SUBEXP:
        if (s->pat[0]->type.kind != TK_ARRAY) ce_declare(E, s->pat[0], ce_se(E, e->se));
        break;
    case IE_OP: emit_op(E, s); break;
    case IE_CONV:
        ce_declare(E, s->pat[0], arena_printf(E->a, "rt_conv_%s_%s(%s)", prim_name(e->t), prim_name(e->to),
                                            ce_se(E, e->args[0])));
        break;
    case IE_IF: emit_if(E, s); break;
    case IE_LOOP: emit_loop(E, s); break;
    case IE_INDEX: emit_index(E, s); break;
    case IE_UPDATE: emit_update(E, s); break;
    case IE_IOTA: emit_iota(E, s); break;
    case IE_REPLICATE: emit_replicate(E, s); break;
    case IE_COPY: ce_copy_array(E, s->pat[0]->mem->mem, s->pat[0]->mem->ixfun, e->arr); break;
    case IE_CONCAT: emit_concat(E, s); break;
    case IE_ARRAYLIT: emit_arraylit(E, s); break;
    case IE_ASSERT: emit_assert(E, s); break;
    case IE_SCREMA: emit_screma(E, s); break;
    case IE_SCATTER:
        emit_soac_loop(E, e->scatter.w, e->scatter.lam, e->scatter.arrs, e->scatter.iter, ce_res_scatter,
                       (void *)&e->scatter);
        break;
    case IE_HIST:
        emit_soac_loop(E, e->hist.w, e->hist.lam, e->hist.arrs, e->hist.iter, ce_res_hist, (void *)&e->hist);
        break;
    case IE_ALLOC: emit_alloc(E, s); break;
    case IE_APPLY: emit_apply(E, s); break;
    case IE_SCRATCH:
    case IE_RESHAPE:
    case IE_REARRANGE: break; /* views and uninitialised arrays: no code */
    }
}

/* ---- Last uses of memory blocks -------------------------------------------- */

/* Records in last[] the statement index j for every block marked in E->mark
 * that statement j mentions (directly or through an array's MemInfo). */
typedef struct Uses {
    Emit *E;
    int *last;
    int j;
} Uses;

static void use_var(IrWalk *w, Var *v) {
    Uses *u = w->ctx;
    if (v->mem) use_var(w, v->mem->mem);
    if (v->id > 0 && v->id < u->E->p->next_var_id && u->E->mark[v->id]) u->last[u->E->mark[v->id] - 1] = u->j;
}

static void release_at(Emit *E, Var **mems, const int *last, int n, int j) {
    for (int k = 0; k < n; k++)
        if (last[k] == j) block_ref(E, "release", ce_name(E, mems[k]));
}

/* Emits b's statements, then fn for its results; each block bound in b (or
 * passed in extra, bound before it) is released after its last use. */
void ce_body(Emit *E, const Body *b, ResFn fn, void *ctx, Var **extra, int nextra) {
    VEC(Var *) mems = {0};
    VEC(int) last = {0};
    for (int k = 0; k < nextra; k++) {
        vec_push(&mems, extra[k]);
        vec_push(&last, -1);
    }
    for (int j = 0; j < b->nstms; j++)
        for (int k = 0; k < b->stms[j]->npat; k++)
            if (b->stms[j]->pat[k]->type.kind == TK_MEM) {
                vec_push(&mems, b->stms[j]->pat[k]);
                vec_push(&last, j);
            }
    for (int k = 0; k < mems.len; k++) E->mark[mems.items[k]->id] = k + 1;
    Uses u = {E, last.items, 0};
    IrWalk w = {use_var, use_var, NULL, &u};
    for (int j = 0; j < b->nstms; j++) {
        u.j = j;
        ir_walk_stm(&w, b->stms[j]);
    }
    u.j = b->nstms;
    for (int i = 0; i < b->nres; i++)
        if (b->res[i].is_var) use_var(&w, b->res[i].v);
    for (int k = 0; k < mems.len; k++) E->mark[mems.items[k]->id] = 0;
    release_at(E, mems.items, last.items, mems.len, -1);
    for (int j = 0; j < b->nstms; j++) {
        ce_stm(E, b->stms[j]);
        release_at(E, mems.items, last.items, mems.len, j);
    }
    if (fn) fn(E, b, ctx);
    release_at(E, mems.items, last.items, mems.len, b->nstms);
    vec_free(&mems);
    vec_free(&last);
}

/* ---- Entry points (OpenCL host code) ------------------------------------------ */

static void ce_oom(Emit *E, const char *what) {
    ce_line(E, "    rt_error(ctx, \"out of memory (%s)\");", what);
    ce_line(E, "    goto fail;");
}

/* Binds parameter k: sizes (checked where already bound), then the value
 * (an OpenCL library's arrays are on the device already). */
static void emit_param(Emit *E, const Fun *f, int k, char *bound) {
    Var *v = f->params[k];
    if (v->type.kind != TK_ARRAY) {
        ce_declare(E, v, arena_printf(E->a, "*(const %s *)ins[%d].data", ctype(v->type.elem), k));
        return;
    }
    for (int d = 0; d < v->type.rank; d++) {
        SubExp s = v->type.shape[d];
        if (s.is_var && !bound[s.v->id]) {
            bound[s.v->id] = 1;
            ce_line(E, "int64_t %s = ins[%d].shape[%d];", ce_name(E, s.v), k, d);
            continue;
        }
        ce_line(E, "if (ins[%d].shape[%d] != %s) {", k, d, ce_se(E, s));
        ce_line(E, "    rt_error(ctx, \"Entry point arguments have invalid sizes: argument %d of %s has size %%lld "
                "in dimension %d, but %%lld was expected.\", (long long)ins[%d].shape[%d], (long long)%s);",
             k + 1, ce_str(E, f->name, true), d + 1, k, d, ce_se(E, s));
        ce_line(E, "    goto fail;");
        ce_line(E, "}");
    }
    const char *m = ce_name(E, v->mem->mem);
    bool unique = v->type.unique || (f->param_ext && f->param_ext[k].unique);
    ce_line(E, "int64_t %s_bytes = rt_size_mul_i64(rt_value_count(&ins[%d]), %d);", m, k, prim_size(v->type.elem));
    ce_line(E, "rt_dblock *%s = ctx->device ? rt_cl_borrow(ctx, dpool, ins[%d].data, %s_bytes, %s)", m, k, m,
            unique ? "true" : "false");
    ce_line(E, "    : rt_cl_upload(ctx, dpool, ins[%d].data, %s_bytes);", k, m);
    ce_line(E, "if (!%s) goto fail;", m);
}

/* Writes the entry's results into outs after the device has finished and
 * reported no failure (cl_result hands over array results). ctx is the
 * entry's Fun. */
static void res_outputs(Emit *E, const Body *b, void *ctx) {
    cl_manifest(E, b, ((const Fun *)ctx)->loc);
    ce_line(E, "if (rt_cl_finish(ctx)) goto fail;");
    for (int k = 0; k < b->nres; k++) {
        SubExp r = b->res[k];
        Type t = subexp_type(r);
        ce_line(E, "outs[%d].type.elem = %s;", k, ce_rt_prim(E, t.elem));
        if (t.kind != TK_ARRAY) {
            ce_line(E, "outs[%d].type.rank = 0;", k);
            ce_line(E, "outs[%d].data = malloc(%d);", k, prim_size(t.elem));
            ce_line(E, "if (!outs[%d].data) {", k);
            ce_oom(E, "writing a result");
            ce_line(E, "}");
            ce_line(E, "*(%s *)outs[%d].data = %s;", ctype(t.elem), k, ce_se(E, r));
            continue;
        }
        const Lmad *l = r.v->mem->ixfun;
        ce_line(E, "outs[%d].type.rank = %d;", k, t.rank);
        ce_line(E, "outs[%d].shape = malloc(%d * sizeof(int64_t));", k, t.rank);
        ce_line(E, "if (!outs[%d].shape) {", k);
        ce_oom(E, "writing a result");
        ce_line(E, "}");
        for (int d = 0; d < t.rank; d++) ce_line(E, "outs[%d].shape[%d] = %s;", k, d, ce_sym(E, l->dims[d].shape));
        cl_result(E, r.v, k);
    }
}

static void emit_entry(Emit *E, const Fun *f, int idx) {
    E->fun = f;
    ce_line(E, "static int futhorc_entry_%d(rt_ctx *ctx, rt_pool *pool, rt_dpool *dpool, const rt_value *ins, rt_value *outs) {",
            idx);
    E->indent++;
    ce_line(E, "if (0) goto fail; /* the label is used whatever the body */");
    ce_line(E, "if (rt_cl_begin(ctx)) goto fail;");
    char *bound = arena_alloc(E->a, (size_t)E->p->next_var_id + 1);
    VEC(Var *) mems = {0};
    for (int k = 0; k < f->nparams; k++) {
        emit_param(E, f, k, bound);
        if (f->params[k]->type.kind == TK_ARRAY) vec_push(&mems, f->params[k]->mem->mem);
    }
    ce_line(E, "rt_cl_start_timer(ctx);");
    ce_body(E, f->body, res_outputs, (void *)f, mems.items, mems.len);
    vec_free(&mems);
    ce_line(E, "return 0;");
    E->indent--;
    ce_line(E, "fail:");
    ce_line(E, "    return 1;");
    ce_line(E, "}");
    buf_putc(E->out, '\n');
    ce_line(E, "static int futhorc_run_%d(rt_ctx *ctx, const rt_value *ins, rt_value *outs) {", idx);
    ce_line(E, "    rt_pool pool;");
    ce_line(E, "    rt_pool_init(&pool);");
    ce_line(E, "    rt_dpool dpool;\n    rt_dpool_init(&dpool);");
    ce_line(E, "    for (int k = 0; k < %d; k++) outs[k].shape = NULL, outs[k].data = NULL;", f->nret);
    ce_line(E, "    int r = futhorc_entry_%d(ctx, &pool, &dpool, ins, outs);", idx);
    ce_line(E, "    rt_pool_free(&pool);");
    ce_line(E, "    rt_dpool_free(&dpool);");
    ce_line(E, "    for (int k = 0; r && k < %d; k++) {", f->nret);
    ce_line(E, "        if (ctx->device && outs[k].data && outs[k].type.rank > 0) rt_dblock_release(outs[k].data);");
    ce_line(E, "        else free(outs[k].data);");
    ce_line(E, "        free(outs[k].shape);");
    ce_line(E, "        outs[k].shape = NULL, outs[k].data = NULL;");
    ce_line(E, "    }");
    ce_line(E, "    return r;");
    ce_line(E, "}");
    buf_putc(E->out, '\n');
}

void ce_init(Emit *E, Buf *out, const Prog *p, Arena *a, EmitMode mode) {
    memset(E, 0, sizeof *E);
    E->out = out;
    E->p = p;
    E->a = a;
    E->next_id = p->next_var_id;
    E->mark = calloc((size_t)p->next_var_id + 1, sizeof(int));
    if (!E->mark) ICE("out of memory");
    E->mode = mode;
    E->fail_label = "fail";
}

void ce_fini(Emit *E) {
    free(E->mark);
    vec_free(&E->names);
}

void ce_entries(Emit *E) {
    if (E->mode != EM_HOST) ICE("ce_entries: OpenCL host code only");
    for (int i = 0; i < E->p->ndefs; i++) ce_function(E, i);
    for (int i = 0; i < E->p->nfuns; i++) emit_entry(E, E->p->funs[i], i);
    emit_c_entry_table(E->out, E->a, (const Fun *const *)E->p->funs, E->p->nfuns);
}
