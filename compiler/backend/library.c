/* The library writer (`futhorc c --library` and `futhorc opencl --library`):
 * a program at STAGE_MEM (C) or STAGE_GPU (OpenCL) as a C library with the
 * Futhark C API (man/futhorc-c-api.3), in three texts:
 *   prog.h     the API: configuration, context, one struct futhark_T_Nd
 *              with its new/new_raw/free/values/values_raw/shape/index
 *              functions per array type of the entry points, and one
 *              futhark_entry_NAME per entry point, results first (out0,
 *              out1, ...: several results are unpacked, as the API that
 *              the futhark-ffi 0.16 binding reads), then the inputs;
 *   prog.c     self-contained: the executable's code without main
 *              (emit_c_entries or emit_opencl_entries), the header,
 *              runtime/library.c (the generic operations; for OpenCL
 *              followed by runtime/opencl_library.h, which keeps arrays
 *              on the device and adds the OpenCL functions of the API)
 *              and the generated functions, which only convert between
 *              the API's types and rt_values and call the generic
 *              operations with an element type and rank, the same for
 *              both backends;
 *   prog.json  the manifest in Futhark's schema (docs/manifest.schema.json).
 * Entry points take and return primitives and arrays of primitives only
 * (internalise flattens tuple and record results), so there are no opaque
 * types. */
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

/* The prototype of entry f, without ';' or body. */
static const char *entry_proto(Arena *a, const Prog *p, const Fun *f) {
    Buf b = {0};
    buf_printf(&b, "int %s(struct futhark_context *ctx", entry_cname(a, p, f));
    for (int k = 0; k < f->nret; k++) {
        ExtType t = lib_ext(f, k, true);
        buf_printf(&b, ", %s%sout%d", api_ctype(a, t), t.rank ? "*" : " *", k);
    }
    for (int k = 0; k < f->nparams; k++) {
        ExtType t = lib_ext(f, k, false);
        buf_printf(&b, ", const %s%sin%d", api_ctype(a, t), t.rank ? "" : " ", k);
    }
    buf_putc(&b, ')');
    const char *r = arena_strdup(a, b.data);
    buf_free(&b);
    return r;
}

static void emit_header(Buf *h, Arena *a, const Prog *p, const ArrTypeVec *types, const char *name, bool cl) {
    char *guard = arena_printf(a, "FUTHORC_LIB_%s_H", name);
    for (char *c = guard; *c; c++) *c = isalnum((unsigned char)*c) ? (char)toupper((unsigned char)*c) : '_';
    buf_printf(h, "/* Generated by futhorc: the Futhark C API of %s (see futhorc-c-api(3)). */\n", name);
    buf_printf(h, "#ifndef %s\n#define %s\n\n", guard, guard);
    buf_puts(h, "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n\n");
    if (cl) buf_puts(h, HEADER_OPENCL_INCLUDES);
    buf_puts(h, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    buf_printf(h, "#define FUTHARK_BACKEND_%s\n", cl ? "opencl" : "c");
    buf_puts(h, HEADER_CONTEXT);
    if (cl) buf_puts(h, HEADER_OPENCL);
    for (int i = 0; i < types->len; i++) {
        ExtType t = {types->items[i].elem, types->items[i].rank, false};
        buf_printf(h, "\n/* Arrays of type %s. */\nstruct %s;\n", fut_type(a, t), arr_name(a, t));
        for (int k = 0; k < NARRAY_OPS; k++) buf_printf(h, "%s;\n", arr_proto(a, t, ARRAY_OPS[k], cl));
    }
    buf_puts(h, "\n/* Entry points. */\n");
    for (int i = 0; i < p->nfuns; i++) buf_printf(h, "%s;\n", entry_proto(a, p, p->funs[i]));
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

/* The definition of entry f (index idx of futhorc_entries). */
static void emit_entry_def(Buf *c, Arena *a, const Prog *p, int idx) {
    const Fun *f = p->funs[idx];
    int nout = f->nret ? f->nret : 1;
    buf_printf(c, "%s {\n", entry_proto(a, p, f));
    buf_printf(c, "    const rt_entry *e = &futhorc_entries[%d];\n", idx);
    if (f->nparams) buf_printf(c, "    rt_value ins[%d];\n", f->nparams);
    buf_printf(c, "    rt_value outs[%d];\n    rt_lib_array *box[%d];\n", nout, nout);
    buf_printf(c, "    void *const outp[%d] = {", nout);
    for (int k = 0; k < f->nret; k++) buf_printf(c, "%sout%d", k ? ", " : "", k);
    buf_puts(c, f->nret ? "};\n" : "NULL};\n");
    buf_puts(c, "    int r;\n");
    for (int k = 0; k < f->nparams; k++) {
        if (lib_ext(f, k, false).rank)
            buf_printf(c, "    if ((r = rt_lib_arg(ctx, e, %d, in%d, &ins[%d])) != 0) return r;\n", k, k, k);
        else buf_printf(c, "    ins[%d] = rt_lib_scalar(e->in_types[%d], &in%d);\n", k, k, k);
    }
    buf_printf(c, "    if ((r = rt_lib_call(ctx, e, %s, outs, box, outp)) != 0) return r;\n",
               f->nparams ? "ins" : "NULL");
    for (int k = 0; k < f->nret; k++) {
        ExtType t = lib_ext(f, k, true);
        if (t.rank) buf_printf(c, "    *out%d = (struct %s *)box[%d];\n", k, arr_name(a, t), k);
        else buf_printf(c, "    *out%d = *(const %s *)outs[%d].data;\n", k, prim_ctype(t.elem), k);
    }
    buf_printf(c, "    rt_lib_end(outs, %d);\n    return 0;\n}\n\n", f->nret);
}

static void emit_source(Buf *c, Arena *a, const Prog *p, const ArrTypeVec *types, const Buf *h, bool cl) {
    if (cl) emit_opencl_entries(c, p);
    else emit_c_entries(c, p);
    buf_puts(c, "/* ---- the header ---- */\n");
    buf_puts(c, h->data);
    if (cl) buf_puts(c, "#define RTL_DEVICE_STORAGE 1\n");
    emit_c_runtime_file(c, "runtime/library.c");
    if (cl) emit_c_runtime_file(c, "runtime/opencl_library.h");
    buf_puts(c, "/* ---- the API of the program ---- */\n\n");
    for (int i = 0; i < types->len; i++) {
        ExtType t = {types->items[i].elem, types->items[i].rank, false};
        for (int k = 0; k < NARRAY_OPS; k++) emit_array_op(c, a, t, ARRAY_OPS[k], cl);
    }
    for (int i = 0; i < p->nfuns; i++) emit_entry_def(c, a, p, i);
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

static void emit_manifest_entry(Buf *m, Arena *a, const Prog *p, const Fun *f, bool last) {
    buf_printf(m, "    %s: {\n      \"cfun\": \"%s\",\n      \"tuning_params\": [],\n      \"attributes\": [],\n",
               json_str(a, f->name), entry_cname(a, p, f));
    buf_puts(m, "      \"inputs\": [");
    for (int k = 0; k < f->nparams; k++) {
        ExtType t = lib_ext(f, k, false);
        buf_printf(m, "%s\n        {\"name\": %s, \"type\": \"%s\", \"unique\": %s}", k ? "," : "",
                   json_str(a, f->params[k]->name), fut_type(a, t), t.unique ? "true" : "false");
    }
    buf_printf(m, "%s],\n      \"outputs\": [", f->nparams ? "\n      " : "");
    for (int k = 0; k < f->nret; k++) {
        ExtType t = lib_ext(f, k, true);
        buf_printf(m, "%s\n        {\"type\": \"%s\", \"unique\": %s}", k ? "," : "", fut_type(a, t),
                   t.rank && t.unique ? "true" : "false");
    }
    buf_printf(m, "%s]\n    }%s\n", f->nret ? "\n      " : "", last ? "" : ",");
}

static void emit_manifest(Buf *m, Arena *a, const Prog *p, const ArrTypeVec *types, const char *version, bool cl) {
    buf_printf(m, "{\n  \"backend\": \"%s\",\n  \"version\": %s,\n  \"entry_points\": {\n", cl ? "opencl" : "c",
               json_str(a, version));
    for (int i = 0; i < p->nfuns; i++) emit_manifest_entry(m, a, p, p->funs[i], i + 1 == p->nfuns);
    buf_puts(m, "  },\n  \"types\": {\n");
    for (int i = 0; i < types->len; i++) {
        ExtType t = {types->items[i].elem, types->items[i].rank, false};
        const char *n = arr_name(a, t) + 8;
        buf_printf(m, "    \"%s\": {\n      \"kind\": \"array\",\n      \"ctype\": \"struct %s *\",\n", fut_type(a, t),
                   arr_name(a, t));
        buf_printf(m, "      \"rank\": %d,\n      \"elemtype\": \"%s\",\n      \"ops\": {", t.rank, prim_name(t.elem));
        for (int k = 0; k < NARRAY_OPS; k++)
            buf_printf(m, "%s\n        \"%s\": \"futhark_%s_%s\"", k ? "," : "", ARRAY_OPS[k], ARRAY_OPS[k], n);
        buf_printf(m, "\n      }\n    }%s\n", i + 1 == types->len ? "" : ",");
    }
    buf_puts(m, "  }\n}\n");
}

void emit_library(Buf *h, Buf *c, Buf *manifest, const Prog *p, const char *name, const char *version, bool opencl) {
    if (p->stage != (opencl ? STAGE_GPU : STAGE_MEM))
        ICE("emit_library: the program must be at STAGE_%s", opencl ? "GPU" : "MEM");
    Arena a = {0};
    ArrTypeVec types = lib_array_types(p);
    emit_header(h, &a, p, &types, name, opencl);
    emit_source(c, &a, p, &types, h, opencl);
    emit_manifest(manifest, &a, p, &types, version, opencl);
    vec_free(&types);
    arena_free(&a);
}
