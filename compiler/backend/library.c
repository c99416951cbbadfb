/* The library writer (`futhorc c|opencl|multicore --library`): a program
 * at STAGE_MEM (C, multicore) or STAGE_GPU (OpenCL) as a C library with
 * the Futhark C API (man/futhorc-c-api.3), in three texts:
 *   prog.h     the API: configuration, context, one struct futhark_T_Nd
 *              with its new/new_raw/free/values/values_raw/shape/index
 *              functions per array type of the entry points, and one
 *              futhark_entry_NAME per entry point, results first (out0,
 *              out1, ...: several results are unpacked, as the API that
 *              the futhark-ffi 0.16 binding reads), then the inputs;
 *   prog.c     self-contained: the executable's code without main
 *              (emit_c_entries or emit_opencl_entries of the
 *              program's Imp), the header,
 *              runtime/library.c (the generic operations; for OpenCL
 *              followed by runtime/opencl_library.h, which keeps arrays
 *              on the device and adds the OpenCL functions of the API)
 *              and the generated functions, which only convert between
 *              the API's types and rt_values and call the generic
 *              operations with an element type and rank, the same for
 *              both backends;
 *   prog.json  the manifest in Futhark's schema (docs/manifest.schema.json).
 * For multicore, prog.c has the runtime (the scheduler and the copies of
 * runtime/llvm included) but not the program's code: it declares the
 * table futhorc_entries, which the object the LLVM backend writes beside
 * it (prog.o) defines, and the context gets a scheduler and a cache of
 * blocks (RTL_MULTICORE in runtime/library.c).
 * The entry functions of the program (and so executables) take flattened
 * parameters and results (internalise splits tuples and records); the API
 * groups them again as the source has them (Fun's in_vals and out_vals): a
 * tuple, record or array of them is an opaque type, struct
 * futhark_opaque_NAME, with free, store and restore functions, and for a
 * tuple or record of primitives and arrays, new and project functions. A
 * top-level tuple result is several outputs. */
#include "backend.h"

#include <ctype.h>
#include <string.h>

/* An array type of the API. */
typedef struct ArrType {
    PrimType elem;
    int rank;
} ArrType;

typedef VEC(ArrType) ArrTypeVec;

/* The external type of parameter k (or result k when ret) of f. */
static ExtType lib_ext(const Fun *f, int k, bool ret) {
    if (ret) return f->ret_ext ? f->ret_ext[k] : (ExtType){f->ret[k].elem, f->ret[k].rank, true};
    if (f->param_ext) return f->param_ext[k];
    Type t = f->params[k]->type;
    return (ExtType){t.elem, t.kind == TK_ARRAY ? t.rank : 0, t.unique};
}

static void add_type(ArrTypeVec *v, ExtType t) {
    if (t.rank == 0) return;
    int i = 0;
    while (i < v->len && (v->items[i].elem < t.elem || (v->items[i].elem == t.elem && v->items[i].rank < t.rank)))
        i++;
    if (i < v->len && v->items[i].elem == t.elem && v->items[i].rank == t.rank) return;
    vec_push(v, ((ArrType){t.elem, t.rank}));
    memmove(&v->items[i + 1], &v->items[i], (size_t)(v->len - 1 - i) * sizeof(ArrType));
    v->items[i] = (ArrType){t.elem, t.rank};
}

/* The array types of p's entry points, sorted by element type and rank. */
static ArrTypeVec lib_array_types(const Prog *p) {
    ArrTypeVec v = {0};
    for (int i = 0; i < p->nfuns; i++) {
        const Fun *f = p->funs[i];
        for (int k = 0; k < f->nparams; k++) add_type(&v, lib_ext(f, k, false));
        for (int k = 0; k < f->nret; k++) add_type(&v, lib_ext(f, k, true));
    }
    return v;
}

/* An opaque type of the API: name and the types of its components. */
typedef struct OpaqueType {
    const char *name;  /* C name, unique in the library */
    const char *src;   /* the name internalise gave it */
    const EntryVal *v; /* one value of it, for its fields */
    ExtType *comps;
    int n;
} OpaqueType;

/* What the writer knows about the library it writes. */
typedef struct Lib {
    Arena *a;
    const Prog *p;
    const ImpProg *imp; /* p lowered to Imp, whose printer writes the code */
    LibTarget target;
    bool cl;             /* target == LIB_OPENCL */
    ArrTypeVec arrays;
    VEC(OpaqueType) opaques;
} Lib;

/* The API's values of f's parameters (or results): Fun's view, or one per
 * component. */
static const EntryVal *lib_vals(Lib *L, const Fun *f, bool ret, int *n) {
    const EntryVal *v = ret ? f->out_vals : f->in_vals;
    int nv = ret ? f->nout_vals : f->nin_vals;
    if (v) {
        /* a () value has no components: nothing to pass, as for the
         * executables, which read and write nothing for it */
        EntryVal *kept = NEW_ARRAY(L->a, EntryVal, nv + 1);
        *n = 0;
        for (int k = 0; k < nv; k++)
            if (v[k].n > 0) kept[(*n)++] = v[k];
        return kept;
    }
    *n = ret ? f->nret : f->nparams;
    EntryVal *each = NEW_ARRAY(L->a, EntryVal, *n + 1);
    for (int k = 0; k < *n; k++) each[k] = (EntryVal){.first = k, .n = 1};
    return each;
}

/* The component types of value v of f (uniqueness left out). */
static ExtType *val_comps(Lib *L, const Fun *f, bool ret, const EntryVal *v) {
    ExtType *ts = NEW_ARRAY(L->a, ExtType, v->n + 1);
    for (int i = 0; i < v->n; i++) {
        ts[i] = lib_ext(f, v->first + i, ret);
        ts[i].unique = false;
    }
    return ts;
}

static bool same_comps(const ExtType *x, int nx, const ExtType *y, int ny) {
    if (nx != ny) return false;
    for (int i = 0; i < nx; i++)
        if (x[i].elem != y[i].elem || x[i].rank != y[i].rank) return false;
    return true;
}

/* The opaque type of value v of f, added to L when new (a name already
 * taken by other components gets a number). */
static const OpaqueType *opaque_of(Lib *L, const Fun *f, bool ret, const EntryVal *v) {
    ExtType *comps = val_comps(L, f, ret, v);
    int taken = 0;
    for (int i = 0; i < L->opaques.len; i++) {
        OpaqueType *o = &L->opaques.items[i];
        if (strcmp(o->src, v->opaque)) continue;
        if (same_comps(o->comps, o->n, comps, v->n)) return o;
        taken++;
    }
    const char *name = taken ? arena_printf(L->a, "%s_%d", v->opaque, taken + 1) : v->opaque;
    vec_push(&L->opaques, ((OpaqueType){name, v->opaque, v, comps, v->n}));
    return &L->opaques.items[L->opaques.len - 1];
}

/* The opaque types of p's entry points, in order of appearance. */
static void lib_opaque_types(Lib *L) {
    for (int i = 0; i < L->p->nfuns; i++)
        for (int ret = 0; ret < 2; ret++) {
            int n;
            const EntryVal *vs = lib_vals(L, L->p->funs[i], ret, &n);
            for (int k = 0; k < n; k++)
                if (vs[k].opaque) opaque_of(L, L->p->funs[i], ret, &vs[k]);
        }
}

/* Whether opaque type o has new and project functions: a tuple or record
 * whose fields are primitives and arrays. */
static bool has_record_ops(const OpaqueType *o) {
    if (o->v->nfields == 0) return false;
    for (int i = 0; i < o->v->nfields; i++)
        if (o->v->fields[i].opaque || o->v->fields[i].n != 1) return false;
    return true;
}

/* "futhark_i32_2d" */
static const char *arr_name(Arena *a, ExtType t) {
    return arena_printf(a, "futhark_%s_%dd", prim_name(t.elem), t.rank);
}

/* The C type of a value of type t in the API ("float", "struct futhark_f32_1d *"). */
static const char *api_ctype(Arena *a, ExtType t) {
    return t.rank ? arena_printf(a, "struct %s *", arr_name(a, t)) : prim_ctype(t.elem);
}

/* "[][]f32" */
static const char *fut_type(Arena *a, ExtType t) {
    const char *s = prim_name(t.elem);
    for (int d = 0; d < t.rank; d++) s = arena_printf(a, "[]%s", s);
    return s;
}

static char *sanitized_entry(Arena *a, const Fun *f) {
    char *s = arena_printf(a, "futhark_entry_%s", f->name);
    for (char *c = s; *c; c++)
        if (!isalnum((unsigned char)*c)) *c = '_';
    return s;
}

/* The C function name of entry f: non-identifier characters become '_',
 * and when an earlier entry of p gets the same name, f's index follows. */
static const char *entry_cname(Arena *a, const Prog *p, const Fun *f) {
    char *s = sanitized_entry(a, f);
    for (int i = 0; i < p->nfuns && p->funs[i] != f; i++)
        if (!strcmp(s, sanitized_entry(a, p->funs[i]))) {
            int k = i;
            while (k < p->nfuns && p->funs[k] != f) k++;
            return arena_printf(a, "%s_%d", s, k);
        }
    return s;
}

/* ---- The header ------------------------------------------------------------ */

static const char *const HEADER_CONTEXT =
    "#define FUTHARK_SUCCESS 0\n"
    "#define FUTHARK_PROGRAM_ERROR 2\n"
    "#define FUTHARK_OUT_OF_MEMORY 3\n\n"
    "/* Configuration. */\n"
    "struct futhark_context_config;\n"
    "struct futhark_context_config *futhark_context_config_new(void);\n"
    "void futhark_context_config_free(struct futhark_context_config *cfg);\n"
    "void futhark_context_config_set_debugging(struct futhark_context_config *cfg, int flag);\n"
    "void futhark_context_config_set_profiling(struct futhark_context_config *cfg, int flag);\n"
    "void futhark_context_config_set_logging(struct futhark_context_config *cfg, int flag);\n"
    "void futhark_context_config_set_cache_file(struct futhark_context_config *cfg, const char *fname);\n"
    "int futhark_context_config_set_tuning_param(struct futhark_context_config *cfg, const char *param_name, "
    "size_t new_value);\n"
    "int futhark_get_tuning_param_count(void);\n"
    "const char *futhark_get_tuning_param_name(int i);\n"
    "const char *futhark_get_tuning_param_class(int i);\n\n"
    "/* Context. */\n"
    "struct futhark_context;\n"
    "struct futhark_context *futhark_context_new(struct futhark_context_config *cfg);\n"
    "void futhark_context_free(struct futhark_context *ctx);\n"
    "int futhark_context_sync(struct futhark_context *ctx);\n"
    "char *futhark_context_get_error(struct futhark_context *ctx);\n"
    "void futhark_context_set_logging_file(struct futhark_context *ctx, FILE *f);\n"
    "void futhark_context_pause_profiling(struct futhark_context *ctx);\n"
    "void futhark_context_unpause_profiling(struct futhark_context *ctx);\n"
    "char *futhark_context_report(struct futhark_context *ctx);\n"
    "int futhark_context_clear_caches(struct futhark_context *ctx);\n";

/* The OpenCL backend's header: the OpenCL types and its functions. */
static const char *const HEADER_OPENCL_INCLUDES =
    "#ifndef CL_TARGET_OPENCL_VERSION\n#define CL_TARGET_OPENCL_VERSION 120\n#endif\n"
    "#ifndef CL_USE_DEPRECATED_OPENCL_1_2_APIS\n#define CL_USE_DEPRECATED_OPENCL_1_2_APIS\n#endif\n"
    "#ifdef __APPLE__\n#include <OpenCL/cl.h>\n#else\n#include <CL/cl.h>\n#endif\n\n";

static const char *const HEADER_OPENCL =
    "\n/* OpenCL. */\n"
    "void futhark_context_config_set_device(struct futhark_context_config *cfg, const char *s);\n"
    "void futhark_context_config_set_platform(struct futhark_context_config *cfg, const char *s);\n"
    "void futhark_context_config_select_device_interactively(struct futhark_context_config *cfg);\n"
    "void futhark_context_config_list_devices(struct futhark_context_config *cfg);\n"
    "void futhark_context_config_set_default_group_size(struct futhark_context_config *cfg, int size);\n"
    "void futhark_context_config_set_default_thread_block_size(struct futhark_context_config *cfg, int size);\n"
    "void futhark_context_config_set_default_num_groups(struct futhark_context_config *cfg, int num);\n"
    "void futhark_context_config_set_default_grid_size(struct futhark_context_config *cfg, int num);\n"
    "void futhark_context_config_set_default_tile_size(struct futhark_context_config *cfg, int num);\n"
    "void futhark_context_config_add_build_option(struct futhark_context_config *cfg, const char *opt);\n"
    "const char *futhark_context_config_get_program(struct futhark_context_config *cfg);\n"
    "void futhark_context_config_set_program(struct futhark_context_config *cfg, const char *program);\n"
    "void futhark_context_config_dump_program_to(struct futhark_context_config *cfg, const char *path);\n"
    "void futhark_context_config_load_program_from(struct futhark_context_config *cfg, const char *path);\n"
    "void futhark_context_config_set_command_queue(struct futhark_context_config *cfg, cl_command_queue queue);\n"
    "cl_command_queue futhark_context_get_command_queue(struct futhark_context *ctx);\n";

static const char *const HEADER_MULTICORE =
    "\n/* Multicore. */\n"
    "void futhark_context_config_set_num_threads(struct futhark_context_config *cfg, int n);\n";

/* The backend's name ("c", "opencl", "multicore"). */
static const char *lib_backend(const Lib *L) {
    return L->target == LIB_OPENCL ? "opencl" : L->target == LIB_MULTICORE ? "multicore" : "c";
}

/* The prototype of array operation `op` of type t, without ';' or body;
 * the raw storage is a cl_mem for OpenCL. */
static const char *arr_proto(Arena *a, ExtType t, const char *op, bool cl) {
    const char *n = arr_name(a, t), *ct = prim_ctype(t.elem);
    const char *dims = "", *idx = "";
    for (int d = 0; d < t.rank; d++) {
        dims = arena_printf(a, "%s, int64_t dim%d", dims, d);
        idx = arena_printf(a, "%s, int64_t i%d", idx, d);
    }
    const char *name = arena_printf(a, "futhark_%s_%s", op, n + 8);
    const char *c = "struct futhark_context *ctx";
    if (!strcmp(op, "new")) return arena_printf(a, "struct %s *%s(%s, const %s *data%s)", n, name, c, ct, dims);
    if (!strcmp(op, "new_raw"))
        return arena_printf(a, "struct %s *%s(%s, %s data%s)", n, name, c, cl ? "cl_mem" : "unsigned char *", dims);
    if (!strcmp(op, "free")) return arena_printf(a, "int %s(%s, struct %s *arr)", name, c, n);
    if (!strcmp(op, "values")) return arena_printf(a, "int %s(%s, struct %s *arr, %s *data)", name, c, n, ct);
    if (!strcmp(op, "values_raw"))
        return arena_printf(a, "%s%s(%s, struct %s *arr)", cl ? "cl_mem " : "unsigned char *", name, c, n);
    if (!strcmp(op, "shape")) return arena_printf(a, "const int64_t *%s(%s, struct %s *arr)", name, c, n);
    return arena_printf(a, "int %s(%s, %s *out, struct %s *arr%s)", name, c, ct, n, idx);
}

/* The array operations, in the order of the header. */
static const char *const ARRAY_OPS[] = {"new", "new_raw", "free", "values", "values_raw", "shape", "index"};
enum { NARRAY_OPS = sizeof ARRAY_OPS / sizeof ARRAY_OPS[0] };

/* The C type of value v of f in the API, as an argument. */
static const char *val_ctype(Lib *L, const Fun *f, bool ret, const EntryVal *v) {
    if (v->opaque) return arena_printf(L->a, "struct futhark_opaque_%s *", opaque_of(L, f, ret, v)->name);
    return api_ctype(L->a, lib_ext(f, v->first, ret));
}

/* The prototype of entry f, without ';' or body. */
static const char *entry_proto(Lib *L, const Fun *f) {
    Buf b = {0};
    int nin, nout;
    const EntryVal *ins = lib_vals(L, f, false, &nin), *outs = lib_vals(L, f, true, &nout);
    buf_printf(&b, "int %s(struct futhark_context *ctx", entry_cname(L->a, L->p, f));
    for (int k = 0; k < nout; k++) {
        bool ptr = outs[k].opaque || lib_ext(f, outs[k].first, true).rank;
        buf_printf(&b, ", %s%sout%d", val_ctype(L, f, true, &outs[k]), ptr ? "*" : " *", k);
    }
    for (int k = 0; k < nin; k++) {
        bool ptr = ins[k].opaque || lib_ext(f, ins[k].first, false).rank;
        buf_printf(&b, ", const %s%sin%d", val_ctype(L, f, false, &ins[k]), ptr ? "" : " ", k);
    }
    buf_putc(&b, ')');
    const char *r = arena_strdup(L->a, b.data);
    buf_free(&b);
    return r;
}

/* The C name of field k of a tuple or record: "x", or "0" for tuples. */
static const char *field_cname(Lib *L, const OpaqueType *o, int k) {
    char *s = arena_strdup(L->a, o->v->field_names[k]);
    for (char *c = s; *c; c++)
        if (!isalnum((unsigned char)*c)) *c = '_';
    return s;
}

/* The prototype of operation op of opaque type o ("free", "store",
 * "restore", "new", or "project" of field k). */
static const char *opaque_proto(Lib *L, const OpaqueType *o, const char *op, int k) {
    const char *t = arena_printf(L->a, "struct futhark_opaque_%s", o->name), *c = "struct futhark_context *ctx";
    if (!strcmp(op, "free")) return arena_printf(L->a, "int futhark_free_opaque_%s(%s, %s *obj)", o->name, c, t);
    if (!strcmp(op, "store"))
        return arena_printf(L->a, "int futhark_store_opaque_%s(%s, const %s *obj, void **p, size_t *n)", o->name, c, t);
    if (!strcmp(op, "restore"))
        return arena_printf(L->a, "%s *futhark_restore_opaque_%s(%s, const void *p)", t, o->name, c);
    if (!strcmp(op, "project")) {
        ExtType f = o->comps[k];
        return arena_printf(L->a, "int futhark_project_opaque_%s_%s(%s, %s%sout, const %s *obj)", o->name,
                            field_cname(L, o, k), c, api_ctype(L->a, f), f.rank ? "*" : " *", t);
    }
    Buf b = {0};
    buf_printf(&b, "int futhark_new_opaque_%s(%s, %s **out", o->name, c, t);
    for (int i = 0; i < o->n; i++)
        buf_printf(&b, ", const %s%sf_%s", api_ctype(L->a, o->comps[i]), o->comps[i].rank ? "" : " ",
                   field_cname(L, o, i));
    buf_putc(&b, ')');
    const char *r = arena_strdup(L->a, b.data);
    buf_free(&b);
    return r;
}

/* The operations of opaque type o, in the order of the header ("project"
 * once per field). */
static int opaque_ops(const OpaqueType *o, const char **ops) {
    int n = 0;
    ops[n++] = "free", ops[n++] = "store", ops[n++] = "restore";
    if (has_record_ops(o)) ops[n++] = "new", ops[n++] = "project";
    return n;
}

/* Upper bound of opaque_ops's count. */
enum { MAX_OPAQUE_OPS = 5 };

static void emit_opaque_protos(Buf *h, Lib *L, const OpaqueType *o) {
    const char *ops[MAX_OPAQUE_OPS];
    int nops = opaque_ops(o, ops);
    buf_printf(h, "\n/* Opaque values of type %s. */\nstruct futhark_opaque_%s;\n", o->name, o->name);
    for (int i = 0; i < nops; i++) {
        if (strcmp(ops[i], "project")) buf_printf(h, "%s;\n", opaque_proto(L, o, ops[i], 0));
        else
            for (int k = 0; k < o->n; k++) buf_printf(h, "%s;\n", opaque_proto(L, o, ops[i], k));
    }
}

static void emit_header(Buf *h, Lib *L, const char *name) {
    Arena *a = L->a;
    bool cl = L->cl;
    char *guard = arena_printf(a, "FUTHORC_LIB_%s_H", name);
    for (char *c = guard; *c; c++) *c = isalnum((unsigned char)*c) ? (char)toupper((unsigned char)*c) : '_';
    buf_printf(h, "/* Generated by futhorc: the Futhark C API of %s (see futhorc-c-api(3)). */\n", name);
    buf_printf(h, "#ifndef %s\n#define %s\n\n", guard, guard);
    buf_puts(h, "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n\n");
    if (cl) buf_puts(h, HEADER_OPENCL_INCLUDES);
    buf_puts(h, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    buf_printf(h, "#define FUTHARK_BACKEND_%s\n", lib_backend(L));
    buf_puts(h, HEADER_CONTEXT);
    if (cl) buf_puts(h, HEADER_OPENCL);
    if (L->target == LIB_MULTICORE) buf_puts(h, HEADER_MULTICORE);
    for (int i = 0; i < L->arrays.len; i++) {
        ExtType t = {L->arrays.items[i].elem, L->arrays.items[i].rank, false};
        buf_printf(h, "\n/* Arrays of type %s. */\nstruct %s;\n", fut_type(a, t), arr_name(a, t));
        for (int k = 0; k < NARRAY_OPS; k++) buf_printf(h, "%s;\n", arr_proto(a, t, ARRAY_OPS[k], cl));
    }
    for (int i = 0; i < L->opaques.len; i++) emit_opaque_protos(h, L, &L->opaques.items[i]);
    buf_puts(h, "\n/* Entry points. */\n");
    for (int i = 0; i < L->p->nfuns; i++) buf_printf(h, "%s;\n", entry_proto(L, L->p->funs[i]));
    buf_puts(h, "\n#ifdef __cplusplus\n}\n#endif\n\n");
    buf_printf(h, "#endif\n");
}

/* ---- The C source ------------------------------------------------------------ */

/* The body of array operation op of type t: a call of the generic one. */
static void emit_array_op(Buf *c, Arena *a, ExtType t, const char *op, bool cl) {
    const char *fn = arena_printf(a, "futhark_%s_%s", op, arr_name(a, t) + 8);
    const char *args = arena_printf(a, "ctx, \"%s\"", fn);
    const char *ty = arena_printf(a, "%s, %d", emit_c_rt_prim(a, t.elem), t.rank);
    bool is_new = !strcmp(op, "new") || !strcmp(op, "new_raw"), is_index = !strcmp(op, "index");
    buf_printf(c, "%s {\n", arr_proto(a, t, op, cl));
    if (is_new || is_index) {
        buf_printf(c, "    const int64_t v[%d] = {", t.rank);
        for (int d = 0; d < t.rank; d++) buf_printf(c, "%s%s%d", d ? ", " : "", is_new ? "dim" : "i", d);
        buf_puts(c, "};\n");
    }
    if (is_new)
        buf_printf(c, "    return (struct %s *)rt_lib_new(%s, %s, data, v, %s);\n", arr_name(a, t), args, ty,
                   strcmp(op, "new") ? "false" : "true");
    else if (is_index) buf_printf(c, "    return rt_lib_index(%s, out, arr, %s, v);\n", args, ty);
    else if (!strcmp(op, "values")) buf_printf(c, "    return rt_lib_values(%s, arr, %s, data);\n", args, ty);
    else buf_printf(c, "    return rt_lib_%s(%s, arr, %s);\n", op, args, ty);
    buf_puts(c, "}\n\n");
}

/* A static table of rt_lib_val named name for vals. */
static void emit_val_table(Buf *c, Lib *L, const Fun *f, bool ret, const char *name, const EntryVal *vals, int n) {
    buf_printf(c, "    static const rt_lib_val %s[] = {", name);
    for (int k = 0; k < n; k++) {
        const char *o = vals[k].opaque ? arena_printf(L->a, "\"%s\"", opaque_of(L, f, ret, &vals[k])->name) : "NULL";
        buf_printf(c, "%s{%d, %d, %s}", k ? ", " : "", vals[k].first, vals[k].n, o);
    }
    buf_puts(c, n ? "};\n" : "{0, 0, NULL}};\n");
}

/* The definition of entry f (index idx of futhorc_entries): the
 * arguments' components into ins, the call, the results out of outs and
 * box (arrays and opaque values at their first component). */
static void emit_entry_def(Buf *c, Lib *L, int idx) {
    const Fun *f = L->p->funs[idx];
    int nout = f->nret ? f->nret : 1, nin, nvals;
    const EntryVal *ins = lib_vals(L, f, false, &nin), *outs = lib_vals(L, f, true, &nvals);
    buf_printf(c, "%s {\n", entry_proto(L, f));
    buf_printf(c, "    const rt_entry *e = &futhorc_entries[%d];\n", idx);
    if (f->nparams) buf_printf(c, "    rt_value ins[%d];\n", f->nparams);
    buf_printf(c, "    rt_value outs[%d];\n    rt_lib_array *box[%d];\n", nout, nout);
    buf_printf(c, "    void *const outp[%d] = {", nvals ? nvals : 1);
    for (int k = 0; k < nvals; k++) buf_printf(c, "%sout%d", k ? ", " : "", k);
    buf_puts(c, nvals ? "};\n" : "NULL};\n");
    emit_val_table(c, L, f, true, "outv", outs, nvals);
    emit_val_table(c, L, f, false, "inv", ins, nin);
    buf_puts(c, "    int r;\n    (void)inv;\n");
    for (int k = 0; k < nin; k++) {
        const EntryVal *v = &ins[k];
        if (v->opaque)
            buf_printf(c, "    if ((r = rt_lib_opaque_arg(ctx, e, &inv[%d], %d, in%d, ins)) != 0) return r;\n", k, k + 1,
                       k);
        else if (lib_ext(f, v->first, false).rank)
            buf_printf(c, "    if ((r = rt_lib_arg(ctx, e, %d, %d, in%d, &ins[%d])) != 0) return r;\n", v->first, k + 1,
                       k, v->first);
        else buf_printf(c, "    ins[%d] = rt_lib_scalar(e->in_types[%d], &in%d);\n", v->first, v->first, k);
    }
    buf_printf(c, "    if ((r = rt_lib_call(ctx, e, %s, outs, box, outp, outv, %d)) != 0) return r;\n",
               f->nparams ? "ins" : "NULL", nvals);
    for (int k = 0; k < nvals; k++) {
        const EntryVal *v = &outs[k];
        ExtType t = lib_ext(f, v->first, true);
        if (v->opaque || t.rank)
            buf_printf(c, "    *out%d = (%s)box[%d];\n", k, val_ctype(L, f, true, v), v->first);
        else buf_printf(c, "    *out%d = *(const %s *)outs[%d].data;\n", k, prim_ctype(t.elem), v->first);
    }
    buf_printf(c, "    rt_lib_end(outs, %d);\n    return 0;\n}\n\n", f->nret);
}

/* "{{RT_F32, 1}, ...}": the component types of o. */
static const char *comp_types(Lib *L, const OpaqueType *o) {
    Buf b = {0};
    buf_putc(&b, '{');
    for (int i = 0; i < o->n; i++)
        buf_printf(&b, "%s{%s, %d}", i ? ", " : "", emit_c_rt_prim(L->a, o->comps[i].elem), o->comps[i].rank);
    buf_puts(&b, o->n ? "}" : "{RT_I8, 0}}");
    const char *r = arena_strdup(L->a, b.data);
    buf_free(&b);
    return r;
}

/* The body of operation op (field k for "project") of opaque type o. */
static void emit_opaque_op(Buf *c, Lib *L, const OpaqueType *o, const char *op, int k) {
    const char *fn = arena_printf(L->a, "futhark_%s_opaque_%s", op, o->name);
    if (!strcmp(op, "project")) fn = arena_printf(L->a, "%s_%s", fn, field_cname(L, o, k));
    const char *args = arena_printf(L->a, "ctx, \"%s\"", fn);
    buf_printf(c, "%s {\n", opaque_proto(L, o, op, k));
    if (!strcmp(op, "free")) buf_printf(c, "    return rt_lib_free_opaque(%s, obj, \"%s\");\n", args, o->name);
    else if (!strcmp(op, "store"))
        buf_printf(c, "    return rt_lib_store_opaque(%s, obj, \"%s\", p, n);\n", args, o->name);
    else if (!strcmp(op, "project"))
        buf_printf(c, "    return rt_lib_project(%s, out, obj, \"%s\", %d);\n", args, o->name, k);
    else {
        buf_printf(c, "    static const rt_type types[] = %s;\n", comp_types(L, o));
        if (!strcmp(op, "restore"))
            buf_printf(c, "    return (struct futhark_opaque_%s *)rt_lib_restore_opaque(%s, p, \"%s\", types, %d);\n",
                       o->name, args, o->name, o->n);
        else {
            buf_puts(c, "    const void *const args[] = {");
            for (int i = 0; i < o->n; i++)
                buf_printf(c, "%s%sf_%s", i ? ", " : "", o->comps[i].rank ? "" : "&", field_cname(L, o, i));
            buf_printf(c, "};\n    return rt_lib_new_opaque(%s, (void **)out, \"%s\", types, %d, args);\n", args,
                       o->name, o->n);
        }
    }
    buf_puts(c, "}\n\n");
}

static void emit_source(Buf *c, Lib *L, const Buf *h) {
    if (L->cl) emit_opencl_entries(c, L->imp, false);
    else if (L->target == LIB_C) emit_c_entries(c, L->imp, false);
    else {
        emit_c_runtime(c);
        const char *const mc[] = {"runtime/sched.h", "runtime/sched.c", "runtime/llvm/copy.h", "runtime/llvm/copy.c"};
        for (int i = 0; i < 4; i++) emit_runtime_file(c, mc[i], false);
        buf_puts(c, "/* In the object of the program (futhorc multicore --library). */\n"
                    "extern const rt_entry futhorc_entries[];\n\n#define RTL_MULTICORE 1\n");
    }
    buf_puts(c, "/* ---- the header ---- */\n");
    buf_puts(c, h->data);
    if (L->cl) buf_puts(c, "#define RTL_DEVICE_STORAGE 1\n");
    emit_runtime_file(c, "runtime/library.c", false);
    if (L->cl) emit_runtime_file(c, "runtime/opencl_library.h", false);
    buf_puts(c, "/* ---- the API of the program ---- */\n\n");
    for (int i = 0; i < L->arrays.len; i++) {
        ExtType t = {L->arrays.items[i].elem, L->arrays.items[i].rank, false};
        for (int k = 0; k < NARRAY_OPS; k++) emit_array_op(c, L->a, t, ARRAY_OPS[k], L->cl);
    }
    for (int i = 0; i < L->opaques.len; i++) {
        const OpaqueType *o = &L->opaques.items[i];
        const char *ops[MAX_OPAQUE_OPS];
        int nops = opaque_ops(o, ops);
        for (int j = 0; j < nops; j++)
            for (int k = 0; k < (strcmp(ops[j], "project") ? 1 : o->n); k++) emit_opaque_op(c, L, o, ops[j], k);
    }
    for (int i = 0; i < L->p->nfuns; i++) emit_entry_def(c, L, i);
}

/* ---- The manifest -------------------------------------------------------------- */

/* s as a JSON string literal. */
static const char *json_str(Arena *a, const char *s) {
    Buf b = {0};
    buf_putc(&b, '"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') buf_printf(&b, "\\%c", ch);
        else if (ch < 32) buf_printf(&b, "\\u%04x", ch);
        else buf_putc(&b, (char)ch);
    }
    buf_putc(&b, '"');
    const char *r = arena_strdup(a, b.data);
    buf_free(&b);
    return r;
}

/* The manifest's name of the type of value v of f: "[]f32" or an opaque type. */
static const char *val_type(Lib *L, const Fun *f, bool ret, const EntryVal *v) {
    return v->opaque ? opaque_of(L, f, ret, v)->name : fut_type(L->a, lib_ext(f, v->first, ret));
}

/* Whether value v of f is unique: an input any of whose components is
 * consumed, or an output that is an array or opaque. */
static bool val_unique(const Fun *f, bool ret, const EntryVal *v) {
    if (ret) return v->opaque || lib_ext(f, v->first, true).rank;
    for (int i = 0; i < v->n; i++)
        if (lib_ext(f, v->first + i, false).unique) return true;
    return false;
}

static void emit_manifest_entry(Buf *m, Lib *L, const Fun *f, bool last) {
    Arena *a = L->a;
    int nin, nout;
    const EntryVal *ins = lib_vals(L, f, false, &nin), *outs = lib_vals(L, f, true, &nout);
    buf_printf(m, "    %s: {\n      \"cfun\": \"%s\",\n      \"tuning_params\": [],\n      \"attributes\": [],\n",
               json_str(a, f->name), entry_cname(a, L->p, f));
    buf_puts(m, "      \"inputs\": [");
    for (int k = 0; k < nin; k++)
        buf_printf(m, "%s\n        {\"name\": %s, \"type\": \"%s\", \"unique\": %s}", k ? "," : "",
                   json_str(a, f->params[ins[k].first]->name), val_type(L, f, false, &ins[k]),
                   val_unique(f, false, &ins[k]) ? "true" : "false");
    buf_printf(m, "%s],\n      \"outputs\": [", nin ? "\n      " : "");
    for (int k = 0; k < nout; k++)
        buf_printf(m, "%s\n        {\"type\": \"%s\", \"unique\": %s}", k ? "," : "", val_type(L, f, true, &outs[k]),
                   val_unique(f, true, &outs[k]) ? "true" : "false");
    buf_printf(m, "%s]\n    }%s\n", nout ? "\n      " : "", last ? "" : ",");
}

/* The manifest's entry of opaque type o: its operations, and for a tuple
 * or record of primitives and arrays its fields. */
static void emit_manifest_opaque(Buf *m, Lib *L, const OpaqueType *o, bool last) {
    buf_printf(m, "    \"%s\": {\n      \"kind\": \"opaque\",\n      \"ctype\": \"struct futhark_opaque_%s *\",\n",
               o->name, o->name);
    buf_printf(m, "      \"ops\": {\n        \"free\": \"futhark_free_opaque_%s\",\n", o->name);
    buf_printf(m, "        \"store\": \"futhark_store_opaque_%s\",\n", o->name);
    buf_printf(m, "        \"restore\": \"futhark_restore_opaque_%s\"\n      }", o->name);
    if (has_record_ops(o)) {
        buf_printf(m, ",\n      \"record\": {\n        \"new\": \"futhark_new_opaque_%s\",\n        \"fields\": [",
                   o->name);
        for (int k = 0; k < o->n; k++)
            buf_printf(m, "%s\n          {\"name\": %s, \"type\": \"%s\", \"project\": \"futhark_project_opaque_%s_%s\"}",
                       k ? "," : "", json_str(L->a, o->v->field_names[k]), fut_type(L->a, o->comps[k]), o->name,
                       field_cname(L, o, k));
        buf_puts(m, "\n        ]\n      }");
    }
    buf_printf(m, "\n    }%s\n", last ? "" : ",");
}

static void emit_manifest(Buf *m, Lib *L, const char *version) {
    Arena *a = L->a;
    buf_printf(m, "{\n  \"backend\": \"%s\",\n  \"version\": %s,\n  \"entry_points\": {\n", lib_backend(L),
               json_str(a, version));
    for (int i = 0; i < L->p->nfuns; i++) emit_manifest_entry(m, L, L->p->funs[i], i + 1 == L->p->nfuns);
    buf_puts(m, "  },\n  \"types\": {\n");
    for (int i = 0; i < L->arrays.len; i++) {
        ExtType t = {L->arrays.items[i].elem, L->arrays.items[i].rank, false};
        const char *n = arr_name(a, t) + 8;
        buf_printf(m, "    \"%s\": {\n      \"kind\": \"array\",\n      \"ctype\": \"struct %s *\",\n", fut_type(a, t),
                   arr_name(a, t));
        buf_printf(m, "      \"rank\": %d,\n      \"elemtype\": \"%s\",\n      \"ops\": {", t.rank, prim_name(t.elem));
        for (int k = 0; k < NARRAY_OPS; k++)
            buf_printf(m, "%s\n        \"%s\": \"futhark_%s_%s\"", k ? "," : "", ARRAY_OPS[k], ARRAY_OPS[k], n);
        buf_printf(m, "\n      }\n    }%s\n", i + 1 == L->arrays.len && !L->opaques.len ? "" : ",");
    }
    for (int i = 0; i < L->opaques.len; i++)
        emit_manifest_opaque(m, L, &L->opaques.items[i], i + 1 == L->opaques.len);
    buf_puts(m, "  }\n}\n");
}

void emit_library(Buf *h, Buf *c, Buf *manifest, const Prog *p, const ImpProg *imp, const char *name,
                  const char *version, LibTarget target) {
    bool opencl = target == LIB_OPENCL;
    if (p->stage != (opencl ? STAGE_GPU : STAGE_MEM))
        ICE("emit_library: the program must be at STAGE_%s", opencl ? "GPU" : "MEM");
    if (!imp) ICE("emit_library: a library needs the program's Imp");
    Arena a = {0};
    Lib L = {.a = &a, .p = p, .imp = imp, .target = target, .cl = opencl, .arrays = lib_array_types(p)};
    lib_opaque_types(&L);
    emit_header(h, &L, name);
    emit_source(c, &L, h);
    emit_manifest(manifest, &L, version);
    vec_free(&L.arrays);
    vec_free(&L.opaques);
    arena_free(&a);
}
