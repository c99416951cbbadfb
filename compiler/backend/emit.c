/* The kernel emitter of the OpenCL backend's segmented operations that
 * Imp does not lower yet (emit.h; issue 13, step 2b removes it): OpenCL C
 * inside a kernel, straight from the memory IR at STAGE_GPU.
 *
 * Scalars are C variables named <name>_<id>; an array has no C variable: it
 * is its memory block (a __global pointer) read and written through its
 * LMAD, printed with sym_print_c. Blocks inside kernels are not reference
 * counted, and nothing is allocated. Failures (assertions) are recorded for
 * the host (opencl_legacy.c) and jump to the kernel's fail label. SOACs
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

static void ce_set_name(Emit *E, int id, const char *name) {
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
    ICE("OpenCL backend: LMAD variable %d has no C name", id);
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

/* "((__global float *)mem_3)" */
static const char *ce_mem_base(Emit *E, const Var *mem, PrimType t) {
    return arena_printf(E->a, "((__global %s *)%s)", ctype(t), ce_name(E, mem));
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

/* The C type of a block variable in a kernel. */
static const char *const block_type = "__global unsigned char *";

/* Declares the C variable of a scalar or memory Var (arrays have none). */
void ce_declare(Emit *E, const Var *v, const char *init) {
    if (v->type.kind == TK_ARRAY) return;
    const char *t = v->type.kind == TK_MEM ? block_type : arena_printf(E->a, "%s ", ctype(v->type.elem));
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

/* A failed assertion is recorded for the host (opencl_legacy.c). */
static void emit_assert(Emit *E, const Stm *s) { cl_kernel_fail(E, s); }

void ce_alloc_check(Emit *E, const char *block, const char *size, SrcLoc loc) {
    ce_line(E, "if (!%s) {", block);
    ce_line(E, "    rt_alloc_failed(ctx, \"%s\", %s);", ce_str(E, ce_loc(E, loc), false), size);
    ce_line(E, "    goto fail;");
    ce_line(E, "}");
}

/* ---- Calls ------------------------------------------------------------------ */

/* A function (printed from Imp, opencl_kernel.c) returns its result, or a
 * struct of its results r0, r1, ..., by value. */

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
    cl_kernel_call(E, idx);
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

/* ---- Control flow --------------------------------------------------------- */

/* Result handler of if branches: assign the pattern. */
static void res_assign(Emit *E, const Body *b, void *ctx) {
    const Stm *s = ctx;
    for (int i = 0; i < b->nres && i < s->npat; i++) {
        Var *v = s->pat[i];
        if (v->type.kind == TK_ARRAY) continue;
        ce_line(E, "%s = %s;", ce_name(E, v), ce_se(E, b->res[i]));
    }
}

static void emit_if(Emit *E, const Stm *s) {
    for (int i = 0; i < s->npat; i++) ce_declare(E, s->pat[i], NULL);
    ce_line(E, "if (%s) {", ce_se(E, s->e->cond));
    E->indent++;
    ce_body(E, s->e->tbody, res_assign, (void *)s);
    E->indent--;
    ce_line(E, "} else {");
    E->indent++;
    ce_body(E, s->e->fbody, res_assign, (void *)s);
    E->indent--;
    ce_line(E, "}");
}

/* Result handler of loop bodies: new parameter values through temporaries
 * (results may mention parameters). */
static void res_loop(Emit *E, const Body *b, void *ctx) {
    const Loop *l = ctx;
    int base = E->next_id;
    for (int i = 0; i < l->nparams; i++) {
        Var *p = l->params[i];
        if (p->type.kind == TK_ARRAY) continue;
        int t = ce_counter(E, "next");
        const char *ty = p->type.kind == TK_MEM ? block_type : arena_printf(E->a, "%s ", ctype(p->type.elem));
        ce_line(E, "%s%s = %s;", ty, ce_sym_name(t, E), ce_se(E, b->res[i]));
    }
    for (int i = 0, t = base; i < l->nparams; i++) {
        Var *p = l->params[i];
        if (p->type.kind == TK_ARRAY) continue;
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
    }
    if (l->kind == IR_LOOP_FOR) {
        const char *i = ce_name(E, l->i);
        ce_line(E, "for (int64_t %s = 0; %s < %s; %s++) {", i, i, ce_se(E, l->bound), i);
    } else {
        ce_line(E, "while (%s) {", ce_name(E, l->cond));
    }
    E->indent++;
    ce_body(E, l->body, res_loop, (void *)l);
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
    ce_body(E, op->op->body, res_to_accs, &o);
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
    ce_body(E, sc->map->body, ce_res_screma, &x);
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
    ce_body(E, lam->body, fn, ctx);
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

void ce_stm(Emit *E, const Stm *s) {
    const IrExp *e = s->e;
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
    case IE_ALLOC: ICE("OpenCL backend: an allocation inside a kernel");
    case IE_APPLY: emit_apply(E, s); break;
    case IE_SCRATCH:
    case IE_RESHAPE:
    case IE_REARRANGE: break; /* views and uninitialised arrays: no code */
    }
}

void ce_body(Emit *E, const Body *b, ResFn fn, void *ctx) {
    for (int j = 0; j < b->nstms; j++) ce_stm(E, b->stms[j]);
    if (fn) fn(E, b, ctx);
}

void ce_init(Emit *E, Buf *out, const Prog *p, Arena *a) {
    memset(E, 0, sizeof *E);
    E->out = out;
    E->p = p;
    E->a = a;
    E->next_id = p->next_var_id;
    E->fail_label = "fail";
}

void ce_fini(Emit *E) { vec_free(&E->names); }
