/* `futhorc structure`: loads, checks and internalises a program, runs the
 * pipeline up to the requested stage and prints how many of each IR
 * construct it has (nested occurrences included, and the bodies of the
 * functions calls go to: Apply counts the calls), one "Name count" line per
 * kind present. Structure tests (`-- structure { Screma 1 }`) compare these
 * counts, as Futhark's structure tests do. */
#include "structure.h"

#include <stdio.h>
#include <string.h>

#include "../lower/internalise.h"
#include "../passes/pipeline.h"
#include "../syntax/ast.h"
#include "frontend.h"


/* The counted kinds, in print order. Ops are split by arity; Scan and
 * Reduce count the operators inside Scremas. */
typedef enum SKind {
    SK_SCREMA, SK_SCAN, SK_REDUCE, SK_SCATTER, SK_HIST, SK_LOOP, SK_IF, SK_BINOP, SK_UNOP, SK_CONV,
    SK_SUBEXP, SK_INDEX, SK_UPDATE, SK_FLAT_INDEX, SK_FLAT_UPDATE, SK_IOTA, SK_REPLICATE, SK_SCRATCH, SK_RESHAPE, SK_REARRANGE,
    SK_CONCAT, SK_COPY, SK_ARRAYLIT, SK_ASSERT, SK_ALLOC, SK_APPLY, SK_THRESHOLD,
    SK_SEGMAP, SK_SEGRED, SK_SEGSCAN, SK_SEGHIST, SK_SEGSEQ, SK_HOST, SK_SEGGROUP, SK_TILED, SK_KERNEL, SK_PRIVATE,
    SK_INTERLEAVED, SK_COUNT
} SKind;

static const char *const struct_names[SK_COUNT] = {
    "Screma", "Scan", "Reduce", "Scatter", "Hist", "Loop", "If", "BinOp", "UnOp", "Conv",
    "SubExp", "Index", "Update", "FlatIndex", "FlatUpdate", "Iota", "Replicate", "Scratch", "Reshape", "Rearrange",
    "Concat", "Copy", "ArrayLit", "Assert", "Alloc", "Apply", "Threshold",
    "SegMap", "SegRed", "SegScan", "SegHist", "SegSeq", "Host", "SegGroup", "Tiled", "Kernel", "Private",
    "Interleaved",
};

/* The kernels a SegInfo launches: a SegRed of a whole array two (per-group
 * partial results, then their combination), as does a SegScan that also
 * reduces (the scan kernel leaves the partial results); a segmented
 * SegRed one (two only when a few long segments take several groups
 * each, a choice made at run time); Host none; the others one. */
static int seg_kernels(const SegInfo *g) {
    switch (g->kind) {
    case SEG_RED: return g->depth == 1 ? 2 : 1;
    case SEG_SCAN: return g->levels[0]->e->screma.nreds ? 2 : 1;
    case SEG_HOST: return 0;
    default: return 1;
    }
}

/* GPU stage: a SOAC's segmented operation, whether it is block-tiled,
 * the kernels it launches, and its blocks that each work-item needs a
 * copy of (and how many of them are interleaved). */
static void struct_seg(int *counts, const SegInfo *g) {
    static const SKind kinds[] = {SK_SEGMAP, SK_SEGRED, SK_SEGSCAN, SK_SEGHIST, SK_SEGSEQ, SK_HOST, SK_SEGGROUP};
    counts[kinds[g->kind]]++;
    counts[SK_TILED] += g->tile != NULL;
    counts[SK_KERNEL] += seg_kernels(g);
    for (int i = 0; i < g->nfree; i++) {
        counts[SK_PRIVATE] += g->private_mem[i] != PRIV_NONE;
        counts[SK_INTERLEAVED] += g->private_mem[i] == PRIV_INTERLEAVED;
    }
}

static void struct_body(int *counts, const Body *b);

static void struct_lambda(int *counts, const Lambda *l) { struct_body(counts, l->body); }

static void struct_segops(int *counts, const SegOp *ops, int n) {
    for (int i = 0; i < n; i++) struct_lambda(counts, ops[i].op);
}

/* The kind of an expression without nested bodies. */
static SKind struct_simple_kind(const IrExp *e) {
    switch (e->kind) {
    case IE_SUBEXP: return SK_SUBEXP;
    case IE_OP: return op_arity(e->op) == 1 ? SK_UNOP : SK_BINOP;
    case IE_CONV: return SK_CONV;
    case IE_INDEX: return SK_INDEX;
    case IE_UPDATE: return SK_UPDATE;
    case IE_FLAT_INDEX: return SK_FLAT_INDEX;
    case IE_FLAT_UPDATE: return SK_FLAT_UPDATE;
    case IE_IOTA: return SK_IOTA;
    case IE_REPLICATE: return SK_REPLICATE;
    case IE_SCRATCH: return SK_SCRATCH;
    case IE_RESHAPE: return SK_RESHAPE;
    case IE_REARRANGE: return SK_REARRANGE;
    case IE_CONCAT: return SK_CONCAT;
    case IE_ARRAYLIT: return SK_ARRAYLIT;
    case IE_ASSERT: return SK_ASSERT;
    case IE_ALLOC: return SK_ALLOC;
    case IE_APPLY: return SK_APPLY;
    case IE_THRESHOLD: return SK_THRESHOLD;
    default: return SK_COUNT;
    }
}

/* Whether a copy of src into dst moves data (Imp's copies skip the others). */
static bool copied_into(const Var *src, const MemInfo *dst) { return !ir_at(src, dst); }

/* A Screma's array map results that are not built in their row of the
 * output (row iter of the pattern's layout) are copied there. */
static int struct_map_copies(Arena *a, const IrExp *e, Var *const *pats) {
    const Screma *sc = &e->screma;
    int first = 0, n = 0;
    for (int i = 0; i < sc->nscans; i++) first += sc->scans[i].k;
    for (int i = 0; i < sc->nreds; i++) first += sc->reds[i].k;
    for (int i = first; i < sc->map->body->nres; i++) {
        SubExp r = sc->map->body->res[i];
        if (!r.is_var || r.v->type.kind != TK_ARRAY || !r.v->mem) continue;
        LmadSlice fix = {.is_index = true, .index = sym_var(a, sc->iter->id)};
        MemInfo row = {pats[i]->mem->mem, lmad_slice(a, pats[i]->mem->ixfun, &fix, 1)};
        n += copied_into(r.v, &row);
    }
    return n;
}

/* Memory stage: the array copies e performs. An update, a concatenation
 * or an array literal copies each array operand that was not built in
 * its destination (short-circuited), a map each array result not built in
 * its row, a copy its source unless it is in place. Before the memory
 * stage, each copy statement counts one. */
static int struct_copies(const IrExp *e, Var *const *pats, int npat) {
    const Var *pat0 = npat ? pats[0] : NULL;
    bool mem = pat0 && pat0->mem;
    if (e->kind == IE_COPY) return !mem || copied_into(e->arr, pat0->mem);
    if (!mem) return 0;
    Arena a = {0};
    int n = 0;
    if (ir_is_update(e) && e->se.is_var && e->se.v->type.kind == TK_ARRAY) {
        MemInfo region = {e->arr->mem->mem, ir_region(&a, e->arr->mem->ixfun, e)};
        n = copied_into(e->se.v, &region);
    }
    if (e->kind == IE_SCREMA) n = struct_map_copies(&a, e, pats);
    Sym *off = sym_const(&a, 0);
    for (int i = 0; e->kind == IE_CONCAT && i < e->narrs; i++) {
        const Lmad *src = e->arrs[i]->mem->ixfun;
        LmadSlice sl = {.start = off, .len = src->dims[0].shape, .stride = sym_const(&a, 1)};
        MemInfo region = {pat0->mem->mem, lmad_slice(&a, pat0->mem->ixfun, &sl, 1)};
        n += copied_into(e->arrs[i], &region);
        off = sym_add(&a, off, sl.len);
    }
    for (int i = 0; e->kind == IE_ARRAYLIT && i < e->nargs; i++) {
        if (!e->args[i].is_var || e->args[i].v->type.kind != TK_ARRAY) continue;
        LmadSlice fix = {.is_index = true, .index = sym_const(&a, i)};
        MemInfo row = {pat0->mem->mem, lmad_slice(&a, pat0->mem->ixfun, &fix, 1)};
        n += copied_into(e->args[i].v, &row);
    }
    arena_free(&a);
    return n;
}

/* Counts e (binding pats) and what is nested in it. */
static void struct_exp(int *counts, const IrExp *e, Var *const *pats, int npat) {
    if (e->seg) struct_seg(counts, e->seg);
    counts[SK_COPY] += struct_copies(e, pats, npat);
    switch (e->kind) {
    case IE_IF:
        counts[SK_IF]++;
        struct_body(counts, e->tbody);
        struct_body(counts, e->fbody);
        break;
    case IE_LOOP:
        counts[SK_LOOP]++;
        struct_body(counts, e->loop.body);
        break;
    case IE_SCREMA:
        counts[SK_SCREMA]++;
        counts[SK_SCAN] += e->screma.nscans;
        counts[SK_REDUCE] += e->screma.nreds;
        struct_lambda(counts, e->screma.map);
        struct_segops(counts, e->screma.scans, e->screma.nscans);
        struct_segops(counts, e->screma.reds, e->screma.nreds);
        break;
    case IE_SCATTER:
        counts[SK_SCATTER]++;
        struct_lambda(counts, e->scatter.lam);
        break;
    case IE_HIST:
        counts[SK_HIST]++;
        struct_lambda(counts, e->hist.lam);
        struct_segops(counts, &e->hist.op, 1);
        break;
    default: {
        SKind k = struct_simple_kind(e);
        if (k != SK_COUNT) counts[k]++;
        break;
    }
    }
}

static void struct_body(int *counts, const Body *b) {
    for (int i = 0; i < b->nstms; i++) struct_exp(counts, b->stms[i]->e, b->stms[i]->pat, b->stms[i]->npat);
}

void structure_print(Buf *out, const Prog *p) {
    int counts[SK_COUNT] = {0};
    for (int i = 0; i < p->ndefs; i++) struct_body(counts, p->defs[i]->body);
    for (int i = 0; i < p->nfuns; i++) struct_body(counts, p->funs[i]->body);
    for (int k = 0; k < SK_COUNT; k++)
        if (counts[k]) buf_printf(out, "%s %d\n", struct_names[k], counts[k]);
}

/* The prelude and the program with its imports, checked and internalised;
 * NULL on errors (reported). */
static Prog *struct_internalise(Arena *a, const char *path, bool unsafe) {
    ProgramVec files = frontend_load(a, path);
    Prog *p = NULL;
    if (files.len) {
        InternaliseOpts o = {.unsafe = unsafe};
        p = internalise(a, files.items, files.len, &o);
    }
    vec_free(&files);
    return p;
}

static int struct_usage(const char *why, const char *arg) {
    fprintf(stderr,
            "futhorc structure: %s%s%s\n"
            "usage: futhorc structure [--stage soacs|gpu|mem] [--skip-pass=NAME] PROG.fut\n",
            why, arg ? " " : "", arg ? arg : "");
    return 1;
}

int tool_structure(int argc, char **argv) {
    const char *src = NULL, *stage_name = "soacs";
    enum { MAX_SKIPS = 8 };
    const char *skip[MAX_SKIPS];
    int nskip = 0;
    bool unsafe = false, verify = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--stage") && i + 1 < argc) stage_name = argv[++i];
        else if (!strncmp(a, "--stage=", 8)) stage_name = a + 8;
        else if (!strcmp(a, "--unsafe")) unsafe = true;
        else if (!strcmp(a, "--verify")) verify = true;
        else if (!strncmp(a, "--skip-pass=", 12) && pipeline_skippable(a + 12) && nskip < MAX_SKIPS)
            skip[nskip++] = a + 12;
        /* Options of the multicore backend's code, on which no count
         * depends: futhorc test passes the compiler's options here too. */
        else if (!strcmp(a, "--sanitize=address") || !strncmp(a, "--target-cpu=", 13)) continue;
        else if (a[0] == '-' && a[1]) return struct_usage("unknown option", a);
        else if (src) return struct_usage("more than one source file:", a);
        else src = a;
    }
    if (!src) return struct_usage("no source file given", NULL);
    Stage stage;
    if (!strcmp(stage_name, "soacs")) stage = STAGE_SOACS;
    else if (!strcmp(stage_name, "mem")) stage = STAGE_MEM;
    else if (!strcmp(stage_name, "gpu")) stage = STAGE_GPU;
    else return struct_usage("unknown stage (soacs, gpu or mem):", stage_name);
    Arena a = {0};
    int rc = 1;
    Prog *p = struct_internalise(&a, src, unsafe);
    if (p) {
        PipelineOpts po = {.verify = verify, .last_stage = stage, .skip = skip, .nskip = nskip};
        pipeline_run(p, &po);
        Buf b = {0};
        structure_print(&b, p);
        fputs(b.data ? b.data : "", stdout);
        buf_free(&b);
        rc = 0;
    }
    arena_free(&a);
    return rc;
}
