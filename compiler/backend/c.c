/* The sequential C backend: prints a program's Imp (compiler/imp/imp.h) as
 * one self-contained C11 program (runtime included) whose main calls
 * rt_main, or (emit_c_entries) as the same code without main, for the
 * library writer (library.c) to add the Futhark C API to. It decides how
 * Imp looks in C, never what the program does (cprint.c has the printing
 * it shares with the OpenCL backend):
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
#include "cprint.h"

#include <string.h>

/* Binds argument k: a scalar, or an array's dimensions and block (the
 * caller's memory wrapped, or a copy when the entry consumes it). */
static void c_arg(CPrint *C, const ImpStm *s) {
    int k = s->k;
    if (s->rank == 0) {
        cp_line(C, "%s = *(const %s *)ins[%d].data;", cp_decl(C, s->var), prim_ctype(s->t), k);
        return;
    }
    for (int d = 0; d < s->rank; d++) cp_line(C, "int64_t %s = ins[%d].shape[%d];", cp_name(C, s->dims[d]), k, d);
    const char *m = cp_name(C, s->mem);
    if (s->unique) {
        cp_line(C, "int64_t %s_bytes = rt_size_mul_i64(rt_value_count(&ins[%d]), %d);", m, k, prim_size(s->t));
        cp_line(C, "rt_block *%s = rt_block_new(pool, %s_bytes);", m, m);
        cp_line(C, "if (!%s) {", m);
        cp_oom(C, "copying an argument");
        cp_line(C, "}");
        cp_line(C, "memcpy(%s->data, ins[%d].data, (size_t)%s_bytes);", m, k, m);
        return;
    }
    cp_line(C, "rt_block *%s = rt_block_wrap(pool, ins[%d].data);", m, k);
    cp_line(C, "if (!%s) {", m);
    cp_oom(C, "wrapping an argument");
    cp_line(C, "}");
}

/* Writes result k into outs[k]: a scalar, or an array dense and row-major. */
static void c_result(CPrint *C, const ImpStm *s) {
    cp_result_head(C, s);
    if (s->rank == 0) return;
    int k = s->k;
    Sym **shape = NEW_ARRAY(C->a, Sym *, s->rank);
    for (int d = 0; d < s->rank; d++) shape[d] = s->lmad->dims[d].shape;
    cp_line(C, "outs[%d].data = rt_malloc_elems(rt_value_count(&outs[%d]), %d);", k, k, prim_size(s->t));
    cp_line(C, "if (!outs[%d].data) {", k);
    cp_oom(C, "writing a result");
    cp_line(C, "}");
    cp_copy_loops(C, arena_printf(C->a, "((%s *)outs[%d].data)", prim_ctype(s->t), k),
                  lmad_row_major(C->a, s->rank, shape), cp_host_base(C, s->mem, s->t), s->lmad, NULL);
}

/* The statements of the C target's own: entries' arguments and results. */
static int c_stm(CPrint *C, const ImpCode *c, int i) {
    const ImpStm *s = c->stms[i];
    if (s->kind == IMP_ARG) c_arg(C, s);
    else if (s->kind == IMP_RESULT) c_result(C, s);
    else return 0;
    return 1;
}

static const CTarget c_target = {cp_host_block_decl, cp_host_base, c_stm, NULL};

static const CEntry c_entry = {"", "", "", "", "free(outs[k].data);", NULL, NULL};

void emit_c_entries(Buf *out, const ImpProg *p, bool linked_rt) {
    Arena a = {0};
    CPrint C;
    cp_init(&C, out, &a, p, &c_target, NULL);
    ce_prologue(out, "", linked_rt);
    buf_puts(out, "/* ---- the program ---- */\n#include <string.h>\n\n");
    for (int i = 0; i < p->nfuns; i++) cp_function(&C, p->funs[i]);
    const Fun **srcs = NEW_ARRAY(&a, const Fun *, p->nentries + 1);
    for (int i = 0; i < p->nentries; i++) {
        cp_entry(&C, p->entries[i], i, &c_entry);
        srcs[i] = p->entries[i]->src;
    }
    emit_c_entry_table(out, &a, srcs, p->nentries);
    cp_fini(&C);
    arena_free(&a);
}

void emit_c_program(Buf *out, const ImpProg *p, bool server, bool linked_rt) {
    emit_c_entries(out, p, linked_rt);
    buf_printf(out, "int main(int argc, char **argv) { return %s(argc, argv, futhorc_entries, %d); }\n",
               server ? "rt_server_main" : "rt_main", p->nentries);
}
