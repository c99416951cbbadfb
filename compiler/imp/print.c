/* The readable printer of Imp (`futhorc dump --stage=imp`): one statement
 * per line, nested code indented, variables as name_id, scalar operations
 * as the IR prints them (add.i32(x_1, 2i32)), loads and stores as
 * mem_3.f32[offset], LMADs as "offset + {(shape : stride), ...}"; blocks
 * are declared as mem (host), dmem (device) or lmem (local). Kernels follow
 * the entry points, and launches name them by number. */
#include "imp.h"

typedef struct Printer {
    Buf *out;
    Arena a;
    int indent;
    VEC(ImpVar *) vars; /* by id: the variables declared so far (for Syms) */
} Printer;

static const char *vname(Printer *P, const ImpVar *v) { return arena_printf(&P->a, "%s_%d", v->name, v->id); }

/* Records v's declaration, for the names of Sym variables. */
static void declare(Printer *P, ImpVar *v) {
    while (P->vars.len <= v->id) vec_push(&P->vars, NULL);
    P->vars.items[v->id] = v;
}

static const char *sym_name(int id, void *ctx) {
    Printer *P = ctx;
    if (id < P->vars.len && P->vars.items[id]) return vname(P, P->vars.items[id]);
    return arena_printf(&P->a, "?v%d", id);
}

static void line(Printer *P, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(Printer *P, const char *fmt, ...) {
    for (int i = 0; i < P->indent; i++) buf_puts(P->out, "  ");
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(P->out, fmt, ap);
    va_end(ap);
    buf_putc(P->out, '\n');
}

static const char *exp_str(Printer *P, const ImpExp *e);

static const char *exps_str(Printer *P, ImpExp *const *es, int n) {
    Buf b = {0};
    for (int i = 0; i < n; i++) buf_printf(&b, "%s%s", i ? ", " : "", exp_str(P, es[i]));
    const char *r = arena_strdup(&P->a, b.data ? b.data : "");
    buf_free(&b);
    return r;
}

static const char *const thread_names[] = {"global_id", "local_id", "group_id", "global_size", "local_size",
                                           "num_groups"};

static const char *exp_str(Printer *P, const ImpExp *e) {
    char num[64];
    switch (e->kind) {
    case IX_CONST: return arena_strdup(&P->a, prim_format(e->c, num, sizeof num));
    case IX_VAR: return vname(P, e->var);
    case IX_OP:
        return arena_printf(&P->a, "%s.%s(%s)", op_name(e->op), prim_name(e->t), exps_str(P, e->args, op_arity(e->op)));
    case IX_CONV:
        return arena_printf(&P->a, "%s->%s(%s)", prim_name(e->t), prim_name(e->to), exp_str(P, e->args[0]));
    case IX_LOAD: return arena_printf(&P->a, "%s.%s[%s]", vname(P, e->var), prim_name(e->t), exp_str(P, e->index));
    case IX_SYM: {
        Buf b = {0};
        sym_print_named(&b, e->sym, sym_name, P);
        const char *r = arena_printf(&P->a, "%s%s", e->t == PT_I32 ? "i32 " : "", b.data);
        buf_free(&b);
        return r;
    }
    case IX_THREAD: return thread_names[e->thread];
    case IX_TUNING:
        return arena_printf(&P->a, "tuning(kernel %d %s.%s%s%s)", e->kernel->index, e->kernel->name,
                            imp_tune_name(e->tune), imp_tune_arity(e->tune) ? "; " : "",
                            exps_str(P, e->args, imp_tune_arity(e->tune)));
    case IX_MEMSIZE: return arena_printf(&P->a, "memsize(%s)", vname(P, e->var));
    case IX_LOCAL_BUDGET: return "local_budget";
    case IX_MAX_GROUP: return "max_group";
    case IX_NUM_THREADS: return "num_threads";
    case IX_THRESHOLD: return arena_printf(&P->a, "threshold(%s; %s)", e->thr->name, exp_str(P, e->args[0]));
    }
    return "?";
}

static const char *lmad_str(Printer *P, const Lmad *l) {
    Buf b = {0};
    lmad_print_named(&b, l, sym_name, P);
    const char *r = arena_strdup(&P->a, b.data);
    buf_free(&b);
    return r;
}

static const char *loc_str(Printer *P, SrcLoc loc) {
    return loc.file ? arena_printf(&P->a, " @ %s:%d:%d", loc.file, loc.line, loc.col) : "";
}

/* "i32 x_4", "mem mem_5" or "dmem mem_6". */
static const char *typed(Printer *P, const ImpVar *v) {
    static const char *const blocks[] = {"mem", "dmem", "lmem"};
    return arena_printf(&P->a, "%s%s %s", v->is_volatile ? "volatile " : "",
                        v->kind == IMP_MEM ? blocks[v->space] : prim_name(v->t), vname(P, v));
}

/* "[n_1][2i64]f32" of an array argument or result. */
static const char *array_type(Printer *P, const ImpStm *s) {
    Buf b = {0};
    for (int d = 0; d < s->rank; d++)
        buf_printf(&b, "[%s]", s->kind == IMP_ARG ? vname(P, s->dims[d]) : exp_str(P, s->shape[d]));
    buf_puts(&b, prim_name(s->t));
    const char *r = arena_strdup(&P->a, b.data);
    buf_free(&b);
    return r;
}

static void print_code(Printer *P, const ImpCode *c);

static void nested(Printer *P, const ImpCode *c) {
    P->indent++;
    print_code(P, c);
    P->indent--;
}

static void print_call(Printer *P, const ImpStm *s) {
    Buf b = {0};
    for (int i = 0; i < s->nresults; i++) {
        declare(P, s->results[i]);
        buf_printf(&b, "%s%s", i ? ", " : "", typed(P, s->results[i]));
    }
    line(P, "call %s(%s) -> (%s)", s->fn->name, exps_str(P, s->args, s->nargs), b.data ? b.data : "");
    buf_free(&b);
}

static void print_arg(Printer *P, const ImpStm *s) {
    if (s->rank == 0) {
        declare(P, s->var);
        line(P, "arg %d: %s", s->k, typed(P, s->var));
        return;
    }
    declare(P, s->mem);
    for (int d = 0; d < s->rank; d++) declare(P, s->dims[d]);
    line(P, "arg %d: %s in %s%s", s->k, array_type(P, s), vname(P, s->mem), s->unique ? " (unique)" : "");
}

static void print_launch(Printer *P, const ImpStm *s) {
    line(P, "launch kernel %d %s<<<%s, %s>>>(%s)", s->kernel->index, s->kernel->name, exp_str(P, s->groups),
         exp_str(P, s->group_size), exps_str(P, s->args, s->nargs));
}

static void print_atomic(Printer *P, const ImpStm *s) {
    static const char *const names[] = {"add", "min", "max", "and", "or", "xor", "cmpxchg"};
    const char *old = "";
    if (s->var) {
        declare(P, s->var);
        old = arena_printf(&P->a, "%s = ", typed(P, s->var));
    }
    const char *exp = s->atomic == IMP_AT_CMPXCHG ? arena_printf(&P->a, "%s, ", exp_str(P, s->expected)) : "";
    line(P, "%satomic_%s %s.%s[%s], %s%s", old, names[s->atomic], vname(P, s->mem), prim_name(s->t),
         exp_str(P, s->index), exp, exp_str(P, s->value));
}

static void print_stm(Printer *P, const ImpStm *s) {
    switch (s->kind) {
    case IMP_DECL:
        declare(P, s->var);
        if (s->init && s->offset)
            line(P, "%s = %s + %s", typed(P, s->var), exp_str(P, s->init), exp_str(P, s->offset));
        else if (s->init) line(P, "%s = %s", typed(P, s->var), exp_str(P, s->init));
        else line(P, "%s", typed(P, s->var));
        break;
    case IMP_ASSIGN: line(P, "%s = %s", vname(P, s->var), exp_str(P, s->value)); break;
    case IMP_STORE:
        line(P, "%s%s.%s[%s] = %s", s->stream ? "stream " : "", vname(P, s->mem), prim_name(s->t),
             exp_str(P, s->index), exp_str(P, s->value));
        break;
    case IMP_ALLOC: line(P, "%s = alloc(%s)%s", vname(P, s->mem), exp_str(P, s->size), loc_str(P, s->loc)); break;
    case IMP_RETAIN: line(P, "retain %s", vname(P, s->mem)); break;
    case IMP_RELEASE: line(P, "release %s", vname(P, s->mem)); break;
    case IMP_COPY:
        line(P, "copy %s %s[%s] <- %s[%s]", prim_name(s->t), vname(P, s->dst), lmad_str(P, s->dst_lmad),
             vname(P, s->src), lmad_str(P, s->src_lmad));
        break;
    case IMP_FOR:
        declare(P, s->var);
        line(P, "for %s < %s%s%s {", vname(P, s->var), exp_str(P, s->bound), s->unroll ? " (unrolled)" : "",
             s->vector ? " (vector)" : "");
        nested(P, &s->body);
        line(P, "}");
        break;
    case IMP_PARFOR:
        declare(P, s->var);
        line(P, "parfor %s < %s {", vname(P, s->var), exp_str(P, s->bound));
        nested(P, &s->body);
        line(P, "}");
        break;
    case IMP_AWAIT:
        declare(P, s->var);
        line(P, "%s = await %s.i32[%s]", typed(P, s->var), vname(P, s->mem), exp_str(P, s->index));
        break;
    case IMP_SIGNAL:
        line(P, "signal %s.i32[%s] = %s", vname(P, s->mem), exp_str(P, s->index), exp_str(P, s->value));
        break;
    case IMP_WHILE:
        line(P, "while %s {", exp_str(P, s->cond));
        nested(P, &s->body);
        line(P, "}");
        break;
    case IMP_IF:
        line(P, "if %s {", exp_str(P, s->cond));
        nested(P, &s->body);
        if (s->orelse.n) {
            line(P, "} else {");
            nested(P, &s->orelse);
        }
        line(P, "}");
        break;
    case IMP_CALL: print_call(P, s); break;
    case IMP_RETURN: line(P, "return (%s)", exps_str(P, s->args, s->nargs)); break;
    case IMP_ASSERT: {
        const char *args = s->nargs ? arena_printf(&P->a, ", (%s)", exps_str(P, s->args, s->nargs)) : "";
        line(P, "assert %s, \"%s\"%s%s", exp_str(P, s->cond), s->msg, args, loc_str(P, s->loc));
        break;
    }
    case IMP_ARG: print_arg(P, s); break;
    case IMP_RESULT:
        if (s->rank == 0) line(P, "result %d = %s", s->k, exp_str(P, s->value));
        else line(P, "result %d = %s in %s at %s", s->k, array_type(P, s), vname(P, s->mem), lmad_str(P, s->lmad));
        break;
    case IMP_FILL:
        line(P, "fill %s %s[%s] = %s", prim_name(s->t), vname(P, s->dst), lmad_str(P, s->dst_lmad),
             exp_str(P, s->value));
        break;
    case IMP_IOTA:
        line(P, "iota %s %s[%s] = %s + c * %s for c < %s", prim_name(s->t), vname(P, s->dst), lmad_str(P, s->dst_lmad),
             exp_str(P, s->value), exp_str(P, s->step), exp_str(P, s->bound));
        break;
    case IMP_MAP:
        declare(P, s->mem);
        line(P, "%s = map %s", typed(P, s->mem), vname(P, s->src));
        break;
    case IMP_UNMAP: line(P, "unmap %s <- %s", vname(P, s->src), vname(P, s->mem)); break;
    case IMP_LAUNCH: print_launch(P, s); break;
    case IMP_SCOPE:
        line(P, "scope%s {", s->keep ? " (keep)" : "");
        nested(P, &s->body);
        line(P, "}");
        break;
    case IMP_BARRIER: line(P, "barrier%s", s->global ? " (global)" : ""); break;
    case IMP_FENCE: line(P, "fence"); break;
    case IMP_ATOMIC: print_atomic(P, s); break;
    }
}

static void print_code(Printer *P, const ImpCode *c) {
    for (int i = 0; i < c->n; i++) print_stm(P, c->stms[i]);
}

static void print_fun(Printer *P, const ImpFun *f) {
    Buf ps = {0}, rs = {0};
    for (int i = 0; i < f->nparams; i++) {
        declare(P, f->params[i]);
        buf_printf(&ps, "%s%s", i ? ", " : "", typed(P, f->params[i]));
    }
    for (int k = 0; k < f->nrets; k++) buf_printf(&rs, "%s%s", k ? ", " : "", prim_name(f->rets[k]));
    line(P, "fun %d %s(%s) -> (%s) {", f->index, f->name, ps.data ? ps.data : "", rs.data ? rs.data : "");
    buf_free(&ps);
    buf_free(&rs);
    nested(P, &f->body);
    line(P, "}");
}

static void print_kernel(Printer *P, const ImpKernel *k) {
    Buf ps = {0};
    for (int i = 0; i < k->nparams; i++) {
        declare(P, k->params[i]);
        buf_printf(&ps, "%s%s", i ? ", " : "", typed(P, k->params[i]));
    }
    const char *attrs = k->fixed_group_size ? arena_printf(&P->a, " group_size %d", k->fixed_group_size) : "";
    line(P, "kernel %d %s(%s)%s%s {", k->index, k->name, ps.data ? ps.data : "", attrs, k->contract ? " contract" : "");
    buf_free(&ps);
    P->indent++;
    for (int i = 0; i < k->nlocals; i++) {
        declare(P, k->locals[i].mem);
        line(P, "local %s: %s[%s]", typed(P, k->locals[i].mem), prim_name(k->locals[i].t),
             exp_str(P, k->locals[i].count));
    }
    print_code(P, &k->body);
    P->indent--;
    line(P, "}");
}

void imp_print(Buf *out, const ImpProg *p) {
    Printer P = {.out = out};
    buf_puts(out, "-- stage imp\n");
    for (int i = 0; i < p->nfuns; i++) print_fun(&P, p->funs[i]);
    for (int i = 0; i < p->nentries; i++) {
        line(&P, "entry %d %s {", i, p->entries[i]->src->name);
        nested(&P, &p->entries[i]->body);
        line(&P, "}");
    }
    for (int i = 0; i < p->nkernels; i++) print_kernel(&P, p->kernels[i]);
    vec_free(&P.vars);
    arena_free(&P.a);
}
