/* The checker of Imp's invariants (imp_check, run under --verify after the
 * lowering): scopes (every variable declared before its uses, in an
 * enclosing code block, and not again while in scope), types (operands, assignments, loads, stores,
 * calls and returns agree; sizes and offsets are i64 scalars, Sym
 * variables i64 or i32 ones), kinds (blocks used only as blocks, scalars only as scalars),
 * and where statements may stand: IMP_RETURN ends a function; failures
 * (IMP_ASSERT, IMP_ALLOC) and IMP_ARG/IMP_RESULT only in entry points,
 * where every argument and result is bound exactly once on every path
 * (never inside a loop, alike in both branches of an if). Host code
 * (functions, entries) and kernel code (kernel bodies, checked apart, each
 * with scopes of its own) hold only their own forms and blocks of their
 * spaces: kernel code no allocation, reference counts, arguments, results,
 * launches or host blocks; host code no IX_THREAD or local blocks, and a
 * load from a device block only as a transfer (the whole value of a
 * scalar's declaration or assignment); functions (which kernels call too)
 * none of the GPU forms. The body of an IMP_PARFOR (entry code) assigns
 * only variables declared in it and retains and releases only its own
 * blocks, and binds no arguments or results. Launches pass one argument of its
 * parameter's kind to each parameter, and each kernel is launched from one
 * place. The first violation ends the check (a longjmp out of the walk). */
#include <setjmp.h>
#include <string.h>

#include "imp.h"

typedef struct Checker {
    const ImpProg *p;
    Buf *err;
    jmp_buf fail;
    Arena a;
    const char *where;     /* "function f" or "entry main" */
    ImpVar **in_scope;     /* by id: the variable while it is in scope */
    VEC(ImpVar *) scope;   /* the variables in scope, innermost last */
    const ImpFun *fun;     /* the function being checked, or NULL */
    const ImpEntry *entry; /* the entry being checked, or NULL */
    const ImpKernel *kernel; /* the kernel being checked, or NULL */
    char *launches;        /* by kernel index: launched already */
    char *args, *results;  /* entry: bound on the current path, by index */
    int nargs, nresults;
    int loops;             /* loops around the current statement */
    int par;               /* IMP_PARFORs around the current statement */
    char *par_of;          /* by id: the par of the variable's declaration */
} Checker;

static void fail(Checker *C, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void fail(Checker *C, const char *fmt, ...) {
    buf_printf(C->err, "imp_check: %s: ", C->where);
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(C->err, fmt, ap);
    va_end(ap);
    longjmp(C->fail, 1);
}

static const char *vn(Checker *C, const ImpVar *v) { return arena_printf(&C->a, "%s_%d", v->name, v->id); }

static void in_range(Checker *C, const ImpVar *v) {
    if (!v) fail(C, "a statement lacks a variable");
    if (v->id < 0 || v->id >= C->p->next_id) fail(C, "%s has an id out of range (next_id %d)", vn(C, v), C->p->next_id);
}

/* ---- Scopes --------------------------------------------------------------------- */

static const char *const space_names[] = {"host", "device", "local"};

static void declare(Checker *C, ImpVar *v) {
    in_range(C, v);
    if (C->in_scope[v->id]) fail(C, "%s is declared again in its scope", vn(C, v));
    if (v->kind == IMP_MEM && (C->kernel ? v->space == IMP_SPACE_HOST : v->space == IMP_SPACE_LOCAL))
        fail(C, "%s is a %s block in %s code", vn(C, v), space_names[v->space], C->kernel ? "kernel" : "host");
    C->in_scope[v->id] = v;
    C->par_of[v->id] = (char)C->par;
    vec_push_in(&C->a, &C->scope, v);
}

/* v, which a statement assigns (or whose references it counts), is not a
 * variable from outside the IMP_PARFOR it is in. */
static void own(Checker *C, const ImpVar *v, const char *what) {
    if (C->par_of[v->id] < C->par) fail(C, "a parallel loop %s %s, which is declared outside it", what, vn(C, v));
}

/* Leaves the scopes opened since the scope held mark variables. */
static void leave(Checker *C, int mark) {
    while (C->scope.len > mark) C->in_scope[C->scope.items[--C->scope.len]->id] = NULL;
}

static void use(Checker *C, const ImpVar *v, ImpVarKind kind) {
    in_range(C, v);
    if (C->in_scope[v->id] != v) fail(C, "%s is used before its declaration or outside its scope", vn(C, v));
    if (v->kind != kind)
        fail(C, "%s is a %s used as a %s", vn(C, v), v->kind == IMP_MEM ? "block" : "scalar",
             kind == IMP_MEM ? "block" : "scalar");
}

/* ---- Expressions ------------------------------------------------------------------ */

static void sym_var_ok(int id, void *ctx) {
    Checker *C = ctx;
    if (id < 0 || id >= C->p->next_id || !C->in_scope[id]) fail(C, "a Sym mentions v%d, which is not in scope", id);
    const ImpVar *v = C->in_scope[id];
    if (v->kind != IMP_SCALAR || (v->t != PT_I64 && v->t != PT_I32))
        fail(C, "a Sym mentions %s, which is not an i64 or i32 scalar", vn(C, v));
}

static void check_lmad(Checker *C, const Lmad *l) {
    if (!l) fail(C, "a statement lacks an LMAD");
    sym_vars(l->offset, sym_var_ok, C);
    for (int d = 0; d < l->rank; d++) {
        sym_vars(l->dims[d].shape, sym_var_ok, C);
        sym_vars(l->dims[d].stride, sym_var_ok, C);
    }
}

static void only_host(Checker *C, const char *what) {
    if (C->kernel) fail(C, "%s in kernel code", what);
}

/* The GPU forms of host code, which a function (scalar code that kernels
 * call too) may not hold. */
static void only_entries(Checker *C, const char *what) {
    only_host(C, what);
    if (C->fun) fail(C, "%s in a function", what);
}

static void only_kernel(Checker *C, const char *what) {
    if (!C->kernel) fail(C, "%s outside a kernel", what);
}

static void is_space(Checker *C, const ImpVar *v, ImpSpace space, const char *what) {
    if (v->space != space) fail(C, "%s %s is a %s block, not a %s one", what, vn(C, v), space_names[v->space], space_names[space]);
}

static void check_kernel_ref(Checker *C, const ImpKernel *k) {
    if (!k || k->index < 0 || k->index >= C->p->nkernels || C->p->kernels[k->index] != k)
        fail(C, "a reference to no kernel of the program");
}

static PrimType check_exp(Checker *C, const ImpExp *e);
static void expect(Checker *C, const ImpExp *e, PrimType t, const char *what);

/* A load (in host code from a device block only when transfer: the whole
 * value of a scalar's declaration or assignment). */
static void check_load(Checker *C, const ImpExp *e, bool transfer) {
    use(C, e->var, IMP_MEM);
    if (!C->kernel && e->var->space == IMP_SPACE_DEVICE && !transfer)
        fail(C, "a load from device block %s inside an expression of host code", vn(C, e->var));
    if (check_exp(C, e->index) != PT_I64) fail(C, "a load from %s has an index that is not i64", vn(C, e->var));
}

static PrimType check_exp(Checker *C, const ImpExp *e) {
    if (!e) fail(C, "a statement lacks an expression");
    switch (e->kind) {
    case IX_CONST: return e->c.type;
    case IX_VAR: use(C, e->var, IMP_SCALAR); return e->var->t;
    case IX_OP:
        if (!op_accepts(e->op, e->t)) fail(C, "%s does not take %s", op_name(e->op), prim_name(e->t));
        for (int i = 0; i < op_arity(e->op); i++)
            if (check_exp(C, e->args[i]) != e->t)
                fail(C, "operand %d of %s.%s is not a %s", i + 1, op_name(e->op), prim_name(e->t), prim_name(e->t));
        break;
    case IX_CONV:
        if (check_exp(C, e->args[0]) != e->t)
            fail(C, "the operand of a conversion from %s has another type", prim_name(e->t));
        break;
    case IX_LOAD: check_load(C, e, false); break;
    case IX_SYM:
        if (e->t != PT_I64) {
            only_kernel(C, "a 32-bit Sym");
            if (e->t != PT_I32) fail(C, "a Sym of type %s", prim_name(e->t));
        }
        sym_vars(e->sym, sym_var_ok, C);
        break;
    case IX_THREAD: only_kernel(C, "IX_THREAD"); break;
    case IX_TUNING:
        only_entries(C, "IX_TUNING");
        check_kernel_ref(C, e->kernel);
        for (int i = 0; i < imp_tune_arity(e->tune); i++) expect(C, e->args[i], PT_I64, "a tuning parameter's argument");
        break;
    case IX_LOCAL_BUDGET: only_entries(C, "IX_LOCAL_BUDGET"); break;
    case IX_MAX_GROUP: only_entries(C, "IX_MAX_GROUP"); break;
    case IX_NUM_THREADS: only_entries(C, "IX_NUM_THREADS"); break;
    case IX_THRESHOLD:
        only_entries(C, "IX_THRESHOLD");
        expect(C, e->args[0], PT_I64, "a threshold's operand");
        break;
    case IX_MEMSIZE:
        only_entries(C, "IX_MEMSIZE");
        use(C, e->var, IMP_MEM);
        is_space(C, e->var, IMP_SPACE_DEVICE, "the size of");
        break;
    }
    return imp_exp_type(e);
}

static void expect(Checker *C, const ImpExp *e, PrimType t, const char *what) {
    PrimType got = check_exp(C, e);
    if (got != t) fail(C, "%s is a %s, not a %s", what, prim_name(got), prim_name(t));
}

/* The value of a declaration or assignment of v. */
static void check_value(Checker *C, const ImpVar *v, const ImpExp *e) {
    if (v->kind == IMP_SCALAR) {
        const char *what = arena_printf(&C->a, "the value given to %s", vn(C, v));
        if (e && e->kind == IX_LOAD) {
            check_load(C, e, true);
            if (e->t != v->t) fail(C, "%s is a %s, not a %s", what, prim_name(e->t), prim_name(v->t));
            return;
        }
        expect(C, e, v->t, what);
        return;
    }
    if (!e || e->kind != IX_VAR) fail(C, "block %s is given a value that is not a block variable", vn(C, v));
    use(C, e->var, IMP_MEM);
}

/* ---- Statements -------------------------------------------------------------------- */

static void check_code(Checker *C, const ImpCode *c);

static void check_nested(Checker *C, const ImpCode *c) {
    int mark = C->scope.len;
    check_code(C, c);
    leave(C, mark);
}

static void only_entry(Checker *C, const char *what) {
    if (!C->entry) fail(C, "%s outside an entry point", what);
}

/* The argument or result k of an IMP_ARG or IMP_RESULT: in range, bound
 * once on this path, not in a loop. */
static void bind_once(Checker *C, const char *what, char *bound, int n, int k) {
    only_entry(C, what);
    if (k < 0 || k >= n) fail(C, "%s %d of an entry point with %d", what, k, n);
    if (C->loops) fail(C, "%s %d inside a loop", what, k);
    if (bound[k]) fail(C, "%s %d is bound twice", what, k);
    bound[k] = 1;
}

static void check_arg(Checker *C, const ImpStm *s) {
    bind_once(C, "IMP_ARG", C->args, C->nargs, s->k);
    const Var *pv = C->entry->src->params[s->k];
    int rank = pv->type.kind == TK_ARRAY ? pv->type.rank : 0;
    if (s->rank != rank || s->t != pv->type.elem) fail(C, "IMP_ARG %d does not have the parameter's type", s->k);
    if (rank == 0) {
        in_range(C, s->var);
        if (s->var->kind != IMP_SCALAR || s->var->t != s->t)
            fail(C, "IMP_ARG %d binds %s of another type", s->k, vn(C, s->var));
        declare(C, s->var);
        return;
    }
    in_range(C, s->mem);
    if (s->mem->kind != IMP_MEM) fail(C, "IMP_ARG %d binds scalar %s as its block", s->k, vn(C, s->mem));
    declare(C, s->mem);
    for (int d = 0; d < rank; d++) {
        in_range(C, s->dims[d]);
        if (s->dims[d]->kind != IMP_SCALAR || s->dims[d]->t != PT_I64)
            fail(C, "IMP_ARG %d binds dimension %d to %s, not an i64 scalar", s->k, d, vn(C, s->dims[d]));
        declare(C, s->dims[d]);
    }
}

static void check_result(Checker *C, const ImpStm *s) {
    bind_once(C, "IMP_RESULT", C->results, C->nresults, s->k);
    if (s->rank == 0) {
        expect(C, s->value, s->t, arena_printf(&C->a, "result %d", s->k));
        return;
    }
    use(C, s->mem, IMP_MEM);
    check_lmad(C, s->lmad);
    if (s->lmad->rank != s->rank)
        fail(C, "IMP_RESULT %d has rank %d but an LMAD of rank %d", s->k, s->rank, s->lmad->rank);
    if (s->mem->space == IMP_SPACE_DEVICE && !lmad_is_row_major(s->lmad))
        fail(C, "IMP_RESULT %d of device block %s is not row-major", s->k, vn(C, s->mem));
    for (int d = 0; d < s->rank; d++)
        expect(C, s->shape[d], PT_I64, arena_printf(&C->a, "dimension %d of result %d", d, s->k));
}

/* Both branches of an if must bind the same arguments and results. */
static void check_if(Checker *C, const ImpStm *s) {
    expect(C, s->cond, PT_BOOL, "an if's condition");
    char *a0 = NULL, *r0 = NULL;
    if (C->entry) {
        a0 = util_memdup(&C->a, C->args, (size_t)C->nargs + 1);
        r0 = util_memdup(&C->a, C->results, (size_t)C->nresults + 1);
    }
    check_nested(C, &s->body);
    if (!C->entry) {
        check_nested(C, &s->orelse);
        return;
    }
    char *a1 = util_memdup(&C->a, C->args, (size_t)C->nargs + 1);
    char *r1 = util_memdup(&C->a, C->results, (size_t)C->nresults + 1);
    memcpy(C->args, a0, (size_t)C->nargs + 1);
    memcpy(C->results, r0, (size_t)C->nresults + 1);
    check_nested(C, &s->orelse);
    if (memcmp(a1, C->args, (size_t)C->nargs + 1) || memcmp(r1, C->results, (size_t)C->nresults + 1))
        fail(C, "the branches of an if bind different arguments or results");
}

static void check_call(Checker *C, const ImpStm *s) {
    const ImpFun *f = s->fn;
    if (!f || f->index < 0 || f->index >= C->p->nfuns || C->p->funs[f->index] != f)
        fail(C, "a call of no function of the program");
    if (C->fun && f->index >= C->fun->index)
        fail(C, "function %s calls %s, which does not come before it", C->fun->name, f->name);
    if (s->nargs != f->nparams || s->nresults != f->nrets)
        fail(C, "a call of %s with the wrong number of arguments or results", f->name);
    for (int i = 0; i < s->nargs; i++)
        expect(C, s->args[i], f->params[i]->t, arena_printf(&C->a, "argument %d of %s", i + 1, f->name));
    for (int i = 0; i < s->nresults; i++) {
        in_range(C, s->results[i]);
        if (s->results[i]->kind != IMP_SCALAR || s->results[i]->t != f->rets[i])
            fail(C, "result %d of %s is bound to %s of another type", i + 1, f->name, vn(C, s->results[i]));
        declare(C, s->results[i]);
    }
}

/* A block declared at offset bytes into another (kernel code). */
static void check_offset(Checker *C, const ImpStm *s) {
    only_kernel(C, "a block declared at an offset");
    if (s->var->kind != IMP_MEM || !s->init) fail(C, "an offset declaration of %s that is not a block's view", vn(C, s->var));
    expect(C, s->offset, PT_I64, "a block's offset");
}

static void check_copy(Checker *C, const ImpStm *s) {
    use(C, s->dst, IMP_MEM);
    use(C, s->src, IMP_MEM);
    if (s->dst->space != s->src->space)
        fail(C, "a copy from %s block %s to %s block %s", space_names[s->src->space], vn(C, s->src),
             space_names[s->dst->space], vn(C, s->dst));
    check_lmad(C, s->dst_lmad);
    check_lmad(C, s->src_lmad);
    if (s->dst_lmad->rank != s->src_lmad->rank)
        fail(C, "a copy between LMADs of ranks %d and %d", s->dst_lmad->rank, s->src_lmad->rank);
}

/* IMP_FILL and IMP_IOTA: host code, into a device block. */
static void check_fill(Checker *C, const ImpStm *s) {
    const char *what = s->kind == IMP_FILL ? "IMP_FILL" : "IMP_IOTA";
    only_entries(C, what);
    use(C, s->dst, IMP_MEM);
    is_space(C, s->dst, IMP_SPACE_DEVICE, arena_printf(&C->a, "the destination of %s", what));
    check_lmad(C, s->dst_lmad);
    expect(C, s->value, s->t, arena_printf(&C->a, "the value of %s", what));
    if (s->kind == IMP_FILL) return;
    PrimClass c = prim_class(s->t);
    if (c != PC_SIGNED && c != PC_UNSIGNED) fail(C, "IMP_IOTA of %s, not an integer type", prim_name(s->t));
    if (s->dst_lmad->rank != 1) fail(C, "IMP_IOTA into an LMAD of rank %d", s->dst_lmad->rank);
    expect(C, s->step, s->t, "the step of IMP_IOTA");
    expect(C, s->bound, PT_I64, "the count of IMP_IOTA");
}

static void check_map(Checker *C, const ImpStm *s) {
    only_entries(C, s->kind == IMP_MAP ? "IMP_MAP" : "IMP_UNMAP");
    use(C, s->src, IMP_MEM);
    is_space(C, s->src, IMP_SPACE_DEVICE, "the mapped block");
    in_range(C, s->mem);
    if (s->mem->kind != IMP_MEM) fail(C, "a mapping of %s into scalar %s", vn(C, s->src), vn(C, s->mem));
    is_space(C, s->mem, IMP_SPACE_HOST, "the mapping");
    if (s->kind == IMP_MAP) declare(C, s->mem);
    else use(C, s->mem, IMP_MEM);
}

/* A launch: the grid, and an argument of its parameter's kind for each
 * parameter (scalars of its type, device blocks); the counts of the
 * kernel's local arrays. */
static void check_launch(Checker *C, const ImpStm *s) {
    only_entries(C, "IMP_LAUNCH");
    const ImpKernel *k = s->kernel;
    check_kernel_ref(C, k);
    if (C->launches[k->index]++) fail(C, "kernel %d %s is launched twice", k->index, k->name);
    expect(C, s->groups, PT_I64, "a launch's number of work-groups");
    expect(C, s->group_size, PT_I64, "a launch's work-group size");
    if (s->nargs != k->nparams)
        fail(C, "a launch of kernel %d %s with %d arguments for %d parameters", k->index, k->name, s->nargs, k->nparams);
    for (int i = 0; i < s->nargs; i++) {
        const ImpVar *pv = k->params[i];
        const ImpExp *e = s->args[i];
        if (pv->kind == IMP_SCALAR) {
            expect(C, e, pv->t, arena_printf(&C->a, "argument %d of kernel %s", i, k->name));
            continue;
        }
        if (!e || e->kind != IX_VAR) fail(C, "argument %d of kernel %s is not a block variable", i, k->name);
        use(C, e->var, IMP_MEM);
        is_space(C, e->var, IMP_SPACE_DEVICE, arena_printf(&C->a, "argument %d of kernel %s,", i, k->name));
    }
    for (int i = 0; i < k->nlocals; i++)
        expect(C, k->locals[i].count, PT_I64, arena_printf(&C->a, "the count of local array %d of kernel %s", i, k->name));
}

/* An atomic update of a device or local block's element (kernel code). */
static void check_atomic(Checker *C, const ImpStm *s) {
    only_kernel(C, "IMP_ATOMIC");
    use(C, s->mem, IMP_MEM);
    expect(C, s->index, PT_I64, "an atomic update's index");
    PrimClass c = prim_class(s->t);
    int size = prim_size(s->t);
    bool ints = (c == PC_SIGNED || c == PC_UNSIGNED) && (size == 4 || size == 8);
    bool ok = s->atomic == IMP_AT_ADD ? ints || c == PC_FLOAT
              : s->atomic == IMP_AT_CMPXCHG ? s->t == PT_U32 || s->t == PT_U64
                                            : ints;
    if (!ok) fail(C, "an atomic update of type %s that the operation does not take", prim_name(s->t));
    expect(C, s->value, s->t, "an atomic update's value");
    if (s->atomic == IMP_AT_CMPXCHG) expect(C, s->expected, s->t, "a compare-and-swap's expected value");
    if (!s->var) return;
    if (c == PC_FLOAT) fail(C, "an atomic float addition binds %s", vn(C, s->var));
    in_range(C, s->var);
    if (s->var->kind != IMP_SCALAR || s->var->t != s->t)
        fail(C, "an atomic update of a %s binds %s of another type", prim_name(s->t), vn(C, s->var));
    declare(C, s->var);
}

static void check_stm(Checker *C, const ImpStm *s, bool last) {
    switch (s->kind) {
    case IMP_DECL:
        in_range(C, s->var);
        if (s->offset) check_offset(C, s);
        if (s->init) check_value(C, s->var, s->init);
        declare(C, s->var);
        break;
    case IMP_ASSIGN:
        use(C, s->var, s->var ? s->var->kind : IMP_SCALAR);
        own(C, s->var, "assigns");
        check_value(C, s->var, s->value);
        break;
    case IMP_STORE:
        use(C, s->mem, IMP_MEM);
        expect(C, s->index, PT_I64, "a store's index");
        expect(C, s->value, s->t, arena_printf(&C->a, "the value stored into %s", vn(C, s->mem)));
        break;
    case IMP_ALLOC:
        if (C->fun) fail(C, "an allocation in a function (functions cannot fail)");
        only_host(C, "an allocation");
        use(C, s->mem, IMP_MEM);
        own(C, s->mem, "allocates");
        expect(C, s->size, PT_I64, "an allocation's size");
        break;
    case IMP_RETAIN:
    case IMP_RELEASE:
        only_host(C, s->kind == IMP_RETAIN ? "IMP_RETAIN" : "IMP_RELEASE");
        use(C, s->mem, IMP_MEM);
        own(C, s->mem, "counts the references of");
        break;
    case IMP_COPY: check_copy(C, s); break;
    case IMP_FOR: {
        int mark = C->scope.len;
        in_range(C, s->var);
        if (s->var->kind != IMP_SCALAR || (s->var->t != PT_I64 && s->var->t != PT_I32))
            fail(C, "the counter %s is not an i64 or i32 scalar", vn(C, s->var));
        expect(C, s->bound, s->var->t, "a for loop's bound");
        declare(C, s->var);
        C->loops++;
        check_nested(C, &s->body);
        C->loops--;
        leave(C, mark);
        break;
    }
    case IMP_PARFOR: {
        only_entries(C, "IMP_PARFOR");
        int mark = C->scope.len;
        in_range(C, s->var);
        if (s->var->kind != IMP_SCALAR || s->var->t != PT_I64) fail(C, "the task %s is not an i64 scalar", vn(C, s->var));
        expect(C, s->bound, PT_I64, "a parallel loop's bound");
        C->loops++;
        C->par++;
        declare(C, s->var);
        check_nested(C, &s->body);
        C->par--;
        C->loops--;
        leave(C, mark);
        break;
    }
    case IMP_AWAIT:
    case IMP_SIGNAL:
        if (!C->par) fail(C, "%s outside a parallel loop", s->kind == IMP_AWAIT ? "IMP_AWAIT" : "IMP_SIGNAL");
        use(C, s->mem, IMP_MEM);
        expect(C, s->index, PT_I64, "a flag's index");
        if (s->kind == IMP_SIGNAL) {
            expect(C, s->value, PT_I32, "a flag's value");
            break;
        }
        in_range(C, s->var);
        if (s->var->kind != IMP_SCALAR || s->var->t != PT_I32) fail(C, "the flag %s is not an i32 scalar", vn(C, s->var));
        declare(C, s->var);
        break;
    case IMP_WHILE:
        expect(C, s->cond, PT_BOOL, "a while loop's condition");
        C->loops++;
        check_nested(C, &s->body);
        C->loops--;
        break;
    case IMP_IF: check_if(C, s); break;
    case IMP_CALL: check_call(C, s); break;
    case IMP_RETURN:
        if (!C->fun || !last) fail(C, "IMP_RETURN that does not end a function");
        if (s->nargs != C->fun->nrets)
            fail(C, "IMP_RETURN of %d values from a function of %d results", s->nargs, C->fun->nrets);
        for (int k = 0; k < s->nargs; k++)
            expect(C, s->args[k], C->fun->rets[k], arena_printf(&C->a, "returned value %d", k + 1));
        break;
    case IMP_ASSERT:
        if (!C->kernel) only_entry(C, "IMP_ASSERT");
        if (!s->msg) fail(C, "an assertion without a message");
        expect(C, s->cond, PT_BOOL, "an assertion's condition");
        for (int i = 0; i < s->nargs; i++) expect(C, s->args[i], PT_I64, "an assertion's argument");
        break;
    case IMP_ARG: check_arg(C, s); break;
    case IMP_RESULT: check_result(C, s); break;
    case IMP_FILL:
    case IMP_IOTA: check_fill(C, s); break;
    case IMP_MAP:
    case IMP_UNMAP: check_map(C, s); break;
    case IMP_LAUNCH: check_launch(C, s); break;
    case IMP_SCOPE:
        if (s->keep) check_code(C, &s->body);
        else check_nested(C, &s->body);
        break;
    case IMP_BARRIER: only_kernel(C, "IMP_BARRIER"); break;
    case IMP_FENCE: only_kernel(C, "IMP_FENCE"); break;
    case IMP_ATOMIC: check_atomic(C, s); break;
    }
}

static void check_code(Checker *C, const ImpCode *c) {
    for (int i = 0; i < c->n; i++) check_stm(C, c->stms[i], false);
}

/* ---- Functions, entries, programs ------------------------------------------------------ */

static void check_fun(Checker *C, const ImpFun *f) {
    C->where = arena_printf(&C->a, "function %s", f->name);
    C->fun = f;
    int mark = C->scope.len;
    for (int i = 0; i < f->nparams; i++) {
        in_range(C, f->params[i]);
        if (f->params[i]->kind != IMP_SCALAR) fail(C, "parameter %s is not a scalar", vn(C, f->params[i]));
        declare(C, f->params[i]);
    }
    for (int i = 0; i < f->body.n; i++) check_stm(C, f->body.stms[i], i == f->body.n - 1);
    if (f->body.n == 0 || f->body.stms[f->body.n - 1]->kind != IMP_RETURN)
        fail(C, "the body does not end in IMP_RETURN");
    leave(C, mark);
    C->fun = NULL;
}

static void check_entry(Checker *C, const ImpEntry *e) {
    C->where = arena_printf(&C->a, "entry %s", e->src->name);
    C->entry = e;
    C->nargs = e->src->nparams;
    C->nresults = e->src->nret;
    C->args = arena_alloc(&C->a, (size_t)C->nargs + 1);
    C->results = arena_alloc(&C->a, (size_t)C->nresults + 1);
    check_nested(C, &e->body);
    for (int k = 0; k < C->nargs; k++)
        if (!C->args[k]) fail(C, "argument %d is never bound", k);
    for (int k = 0; k < C->nresults; k++)
        if (!C->results[k]) fail(C, "result %d is never set", k);
    C->entry = NULL;
}

/* A kernel, with scopes of its own: its parameters (scalars and device
 * blocks), its local arrays and its body. */
static void check_kernel(Checker *C, const ImpKernel *k, ImpVar **in_scope) {
    C->where = arena_printf(&C->a, "kernel %d %s", k->index, k->name);
    if (!C->launches[k->index]) fail(C, "the kernel is never launched");
    ImpVar **host_scope = C->in_scope;
    C->in_scope = in_scope;
    C->kernel = k;
    int mark = C->scope.len;
    for (int i = 0; i < k->nparams; i++) {
        ImpVar *v = k->params[i];
        in_range(C, v);
        if (v->kind == IMP_MEM) is_space(C, v, IMP_SPACE_DEVICE, "parameter");
        declare(C, v);
    }
    for (int i = 0; i < k->nlocals; i++) {
        in_range(C, k->locals[i].mem);
        if (k->locals[i].mem->kind != IMP_MEM) fail(C, "local array %d is not a block", i);
        is_space(C, k->locals[i].mem, IMP_SPACE_LOCAL, "local array");
        declare(C, k->locals[i].mem);
    }
    check_code(C, &k->body);
    leave(C, mark);
    C->kernel = NULL;
    C->in_scope = host_scope;
}

/* The check proper; the Checker belongs to the caller, so that nothing
 * of this frame is needed after the longjmp. */
static bool check_prog(Checker *C) {
    if (setjmp(C->fail)) return false;
    const ImpProg *p = C->p;
    C->in_scope = NEW_ARRAY(&C->a, ImpVar *, p->next_id + 1);
    C->par_of = arena_alloc(&C->a, (size_t)p->next_id + 1);
    C->launches = arena_alloc(&C->a, (size_t)p->nkernels + 1);
    for (int i = 0; i < p->nkernels; i++)
        if (!p->kernels[i] || p->kernels[i]->index != i) fail(C, "kernel %d has another index", i);
    for (int i = 0; i < p->nfuns; i++) {
        if (p->funs[i]->index != i) fail(C, "function %s has index %d at %d", p->funs[i]->name, p->funs[i]->index, i);
        check_fun(C, p->funs[i]);
    }
    for (int i = 0; i < p->nentries; i++) check_entry(C, p->entries[i]);
    if (p->nkernels) {
        ImpVar **in_scope = NEW_ARRAY(&C->a, ImpVar *, p->next_id + 1);
        for (int i = 0; i < p->nkernels; i++) check_kernel(C, p->kernels[i], in_scope);
    }
    return true;
}

bool imp_check(const ImpProg *p, Buf *err) {
    Checker C = {.p = p, .err = err, .where = "program"};
    bool ok = check_prog(&C);
    arena_free(&C.a);
    return ok;
}
