/* Fuzz target: the C API of the library that `futhorc c --library` makes
 * of tests/fuzz/library.fut at build time (build/fuzz/gen/fuzzlib.h and
 * .c). The input is a program of API calls on one context: each action is
 * a byte choosing the call, then the bytes of its operands (value slots,
 * dimensions, indices, scalars); past the end of the input every byte
 * reads as 0. Arguments may be NULL, foreign pointers, freed values or
 * values of another type, which the API must refuse. Oracles: a call given
 * a bad argument, or dimensions that are negative or whose byte size
 * overflows, fails with an error message; new arrays hold their data;
 * index agrees with bounds; stored opaque values restore to the same
 * bytes, and stored bytes whose header is corrupt do not restore. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "fuzzlib.h"

/* Values live at once: few, so that actions often meet the same ones. */
#define FUZZ_SLOTS 8
/* Bytes of element data a new array may take (and of the values read back):
 * more is refused by the harness with NULL data, which the API must reject
 * before reading it. */
#define FUZZ_DATA_MAX 4096
/* Iterations of an entry point's loops that a call may take (fuzz_call):
 * as many as the elements of the largest array the harness makes. */
#define FUZZ_MAX_LOOPS FUZZ_DATA_MAX
/* Bytes before the first component of a stored cloud: the magic, the name's
 * length, the name and the number of components (runtime/library.c). */
#define FUZZ_CLOUD_PREFIX (8 + 4 + 5 + 4)

/* The kinds of value: the program's array types, and its opaque record. */
typedef enum FuzzKind { K_I32_1D, K_F32_2D, K_U8_3D, K_CLOUD, FUZZ_NKINDS } FuzzKind;

/* One kind's API, through wrappers of one signature per function. */
typedef struct FuzzOps {
    int rank, elem_size;
    void *(*new)(struct futhark_context *c, const void *data, const int64_t *dims);
    int (*free)(struct futhark_context *c, void *v);
    int (*values)(struct futhark_context *c, void *v, void *data);
    const int64_t *(*shape)(struct futhark_context *c, void *v);
    int (*index)(struct futhark_context *c, void *out, void *v, const int64_t *idx);
} FuzzOps;

#define FUZZ_UNPAREN(...) __VA_ARGS__
#define FUZZ_ARRAY_OPS(T, DIMS, IDX)                                                                          \
    static void *fuzz_new_##T(struct futhark_context *c, const void *data, const int64_t *d) {                 \
        return futhark_new_##T(c, data, FUZZ_UNPAREN DIMS);                                                     \
    }                                                                                                          \
    static int fuzz_free_##T(struct futhark_context *c, void *v) { return futhark_free_##T(c, v); }            \
    static int fuzz_values_##T(struct futhark_context *c, void *v, void *data) {                               \
        return futhark_values_##T(c, v, data);                                                                 \
    }                                                                                                          \
    static const int64_t *fuzz_shape_##T(struct futhark_context *c, void *v) { return futhark_shape_##T(c, v); } \
    static int fuzz_index_##T(struct futhark_context *c, void *out, void *v, const int64_t *i) {                \
        return futhark_index_##T(c, out, v, FUZZ_UNPAREN IDX);                                                  \
    }
FUZZ_ARRAY_OPS(i32_1d, (d[0]), (i[0]))
FUZZ_ARRAY_OPS(f32_2d, (d[0], d[1]), (i[0], i[1]))
FUZZ_ARRAY_OPS(u8_3d, (d[0], d[1], d[2]), (i[0], i[1], i[2]))

static int fuzz_free_cloud(struct futhark_context *c, void *v) { return futhark_free_opaque_cloud(c, v); }

static const FuzzOps fuzz_ops[FUZZ_NKINDS] = {
    {1, 4, fuzz_new_i32_1d, fuzz_free_i32_1d, fuzz_values_i32_1d, fuzz_shape_i32_1d, fuzz_index_i32_1d},
    {2, 4, fuzz_new_f32_2d, fuzz_free_f32_2d, fuzz_values_f32_2d, fuzz_shape_f32_2d, fuzz_index_f32_2d},
    {3, 1, fuzz_new_u8_3d, fuzz_free_u8_3d, fuzz_values_u8_3d, fuzz_shape_u8_3d, fuzz_index_u8_3d},
    {0, 0, NULL, fuzz_free_cloud, NULL, NULL, NULL},
};

/* A value made by the API: live, or freed (with its context, perhaps). */
typedef struct FuzzSlot {
    void *p; /* NULL: never filled */
    FuzzKind kind;
    bool live;
    bool huge; /* made of an array whose loops would run too long: see fuzz_call */
} FuzzSlot;

typedef struct FuzzState {
    const uint8_t *in, *end;
    struct futhark_context_config *cfg;
    struct futhark_context *ctx;
    FuzzSlot slots[FUZZ_SLOTS];
    FuzzSlot *arg; /* the slot of the last argument, or NULL */
    bool huge;     /* some argument of the action is huge */
} FuzzState;

/* What the API must make of a value argument. */
typedef enum FuzzExpect { E_GOOD, E_BAD, E_UNKNOWN } FuzzExpect;

/* Element data of new arrays, set for every input; new_raw arrays borrow
 * it (and an entry point that consumes one writes it). */
static unsigned char fuzz_data[FUZZ_DATA_MAX];

/* ---- Input ---------------------------------------------------------------------- */

static uint8_t fuzz_byte(FuzzState *s) { return s->in < s->end ? *s->in++ : 0; }

/* A dimension or index: mostly small, else any 64-bit value. */
static int64_t fuzz_int(FuzzState *s) {
    uint8_t b = fuzz_byte(s);
    if (b < 0xf0) return b % 8;
    uint64_t x = 0;
    for (int i = 0; i < 8; i++) x = x << 8 | fuzz_byte(s);
    return (int64_t)x;
}

/* ---- Checking results --------------------------------------------------------------- */

/* Checks the outcome of a call (failed: it returned an error code or NULL)
 * against what was expected, and takes the error message of a failure. */
static void fuzz_outcome(FuzzState *s, bool failed, FuzzExpect want, const char *call) {
    char *err = futhark_context_get_error(s->ctx);
    FUZZ_CHECK(!failed || err, "%s failed without an error message", call);
    FUZZ_CHECK(!(failed && want == E_GOOD), "%s failed on good arguments: %s", call, err);
    FUZZ_CHECK(!(!failed && want == E_BAD), "%s succeeded on a bad argument", call);
    free(err);
}

/* The worse of two expectations. */
static FuzzExpect fuzz_both(FuzzExpect a, FuzzExpect b) {
    return a == E_BAD || b == E_BAD ? E_BAD : a == E_UNKNOWN || b == E_UNKNOWN ? E_UNKNOWN : E_GOOD;
}

/* A value argument for a function taking kind k: a slot's value (s->arg
 * then points at its slot), NULL or a foreign pointer (s->arg NULL), and
 * what the API must make of it. */
static void *fuzz_arg(FuzzState *s, FuzzKind k, FuzzExpect *want) {
    static int foreign;
    uint8_t b = fuzz_byte(s);
    s->arg = NULL;
    if (b >= 0xf0) {
        *want = E_BAD;
        return b & 1 ? (void *)&foreign : NULL;
    }
    FuzzSlot *v = s->arg = &s->slots[b % FUZZ_SLOTS];
    *want = !v->p ? E_BAD : !v->live ? E_UNKNOWN : v->kind == k ? E_GOOD : E_BAD;
    s->huge = s->huge || v->huge;
    return v->p;
}

/* Puts a new value of kind k, made of the action's arguments, in a slot
 * chosen by the input (the value it held stays with the context, which
 * frees it). A slot holding the same address holds a freed value whose
 * memory was reused. */
static void fuzz_keep(FuzzState *s, void *p, FuzzKind k) {
    for (int i = 0; i < FUZZ_SLOTS; i++)
        if (s->slots[i].p == p) s->slots[i].live = false;
    s->slots[fuzz_byte(s) % FUZZ_SLOTS] = (FuzzSlot){p, k, true, s->huge};
}

/* Elements of dims[0..rank-1] times size in *bytes; false when a dimension
 * is negative or the bytes overflow int64_t (a 0 dimension makes 0 bytes
 * whatever the others). */
static bool fuzz_bytes_of(const int64_t *dims, int rank, int size, int64_t *bytes) {
    int64_t n = size;
    for (int d = 0; d < rank; d++)
        if (dims[d] < 0) return false;
    for (int d = 0; d < rank; d++)
        if (dims[d] == 0) return *bytes = 0, true;
    for (int d = 0; d < rank; d++)
        if (__builtin_mul_overflow(n, dims[d], &n)) return false;
    *bytes = n;
    return true;
}

/* The bytes of the elements of shape (rank and element size of ops), if
 * they fit the harness's buffers; else -1. */
static int64_t fuzz_small_bytes(const FuzzOps *ops, const int64_t *shape) {
    int64_t bytes;
    return shape && fuzz_bytes_of(shape, ops->rank, ops->elem_size, &bytes) && bytes <= FUZZ_DATA_MAX ? bytes : -1;
}

/* The iterations of loops over dims[0..rank-1] with the 0 dimensions left
 * out (at most INT64_MAX). */
static int64_t fuzz_loops(const int64_t *dims, int rank) {
    int64_t n = 1;
    for (int d = 0; d < rank; d++)
        if (dims[d] > 1 && __builtin_mul_overflow(n, dims[d], &n)) return INT64_MAX;
    return n;
}

/* ---- Arrays ------------------------------------------------------------------------ */

/* new (or new_raw for []i32) with dimensions from the input. */
static void fuzz_new(FuzzState *s, FuzzKind k) {
    const FuzzOps *ops = &fuzz_ops[k];
    int64_t dims[3], bytes = 0;
    for (int d = 0; d < ops->rank; d++) dims[d] = fuzz_int(s);
    s->huge = fuzz_loops(dims, ops->rank) > FUZZ_MAX_LOOPS;
    bool valid = fuzz_bytes_of(dims, ops->rank, ops->elem_size, &bytes);
    bool fits = valid && bytes <= FUZZ_DATA_MAX, raw = k == K_I32_1D && fuzz_byte(s) & 1;
    const void *data = valid && !fits ? NULL : fuzz_data;
    void *a = raw ? futhark_new_raw_i32_1d(s->ctx, (unsigned char *)(uintptr_t)data, dims[0])
                  : ops->new(s->ctx, data, dims);
    fuzz_outcome(s, !a, fits ? E_GOOD : E_BAD, "new");
    if (!a) return;
    const int64_t *shape = ops->shape(s->ctx, a);
    FUZZ_CHECK(shape && !memcmp(shape, dims, sizeof(int64_t) * (size_t)ops->rank), "new: another shape");
    unsigned char back[FUZZ_DATA_MAX + 1];
    FUZZ_CHECK(ops->values(s->ctx, a, back) == 0, "values of a new array failed");
    FUZZ_CHECK(!memcmp(back, fuzz_data, (size_t)bytes), "new: the values differ from the data");
    fuzz_keep(s, a, k);
}

/* index of an argument taken as kind k, at indices from the input; the
 * element must be the one values gives. */
static void fuzz_index(FuzzState *s, FuzzKind k, void *a, FuzzExpect want, const int64_t *shape) {
    const FuzzOps *ops = &fuzz_ops[k];
    int64_t idx[3], off = 0;
    bool inside = true;
    for (int d = 0; d < ops->rank; d++) {
        idx[d] = fuzz_int(s);
        inside = inside && shape && idx[d] >= 0 && idx[d] < shape[d];
    }
    unsigned char elem[8], all[FUZZ_DATA_MAX + 1];
    int r = ops->index(s->ctx, elem, a, idx);
    fuzz_outcome(s, r != 0, fuzz_both(want, inside ? E_GOOD : E_BAD), "index");
    if (r != 0 || fuzz_small_bytes(ops, shape) < 0 || ops->values(s->ctx, a, all) != 0) return;
    for (int d = 0; d < ops->rank; d++) off = off * shape[d] + idx[d];
    FUZZ_CHECK(!memcmp(elem, all + off * ops->elem_size, (size_t)ops->elem_size), "index: another element");
}

/* free, values or index (which) of an argument taken as kind k, after its
 * shape. */
static void fuzz_array_op(FuzzState *s, FuzzKind k, int which) {
    const FuzzOps *ops = &fuzz_ops[k];
    FuzzExpect want;
    void *a = fuzz_arg(s, k, &want);
    const int64_t *shape = ops->shape(s->ctx, a);
    fuzz_outcome(s, !shape, want, "shape");
    if (which == 0) {
        int r = ops->free(s->ctx, a);
        fuzz_outcome(s, r != 0, want, "free");
        if (r == 0 && s->arg) s->arg->live = false;
    } else if (which == 1 && (!shape || fuzz_small_bytes(ops, shape) >= 0)) {
        unsigned char out[FUZZ_DATA_MAX + 1];
        fuzz_outcome(s, ops->values(s->ctx, a, out) != 0, want, "values");
    } else if (which == 2) {
        fuzz_index(s, k, a, want, shape);
    }
}

/* ---- Entry points ------------------------------------------------------------------- */

/* A scalar of the input's bytes. */
static void fuzz_scalar(FuzzState *s, void *x, size_t n) {
    for (size_t i = 0; i < n; i++) ((unsigned char *)x)[i] = fuzz_byte(s);
}

/* Calls entry point `which` on arguments from the input; keeps an array or
 * opaque result. The generated code loops over the outer dimensions of an
 * empty array too (an optimising C compiler deletes the empty loops, this
 * build's -O1 with sanitizers does not), so scale of a [2^62][0]f32 array
 * would run for ever: calls with huge arguments (dimensions whose product,
 * leaving out zeros, exceeds FUZZ_MAX_LOOPS) are left out. */
static void fuzz_call(FuzzState *s, int which) {
    FuzzExpect w1, w2 = E_GOOD;
    void *out = NULL;
    int r;
    int32_t i32, j32;
    float f32;
    double f64;
    uint8_t u8;
    int64_t i64;
    switch (which) {
    case 0: {
        void *xs = fuzz_arg(s, K_I32_1D, &w1);
        r = s->huge ? 0 : futhark_entry_sum(s->ctx, &i32, xs);
        break;
    }
    case 1: {
        fuzz_scalar(s, &f32, sizeof f32);
        void *m = fuzz_arg(s, K_F32_2D, &w1);
        r = s->huge ? 0 : futhark_entry_scale(s->ctx, (struct futhark_f32_2d **)&out, f32, m);
        break;
    }
    case 2: {
        void *c = fuzz_arg(s, K_U8_3D, &w1);
        r = s->huge ? 0 : futhark_entry_cube_total(s->ctx, &u8, c);
        break;
    }
    case 3: {
        void *pts = fuzz_arg(s, K_F32_2D, &w1), *ids = fuzz_arg(s, K_I32_1D, &w2);
        fuzz_scalar(s, &f64, sizeof f64);
        r = s->huge ? 0 : futhark_entry_mk_cloud(s->ctx, (struct futhark_opaque_cloud **)&out, pts, ids, f64);
        w2 = w2 == E_GOOD ? E_UNKNOWN : w2; /* the sizes may disagree */
        break;
    }
    case 4: {
        void *c = fuzz_arg(s, K_CLOUD, &w1);
        r = s->huge ? 0 : futhark_entry_weigh(s->ctx, (struct futhark_f32_2d **)&out, c);
        w2 = E_UNKNOWN; /* new_opaque_cloud may have made c of fields whose sizes disagree */
        break;
    }
    case 5: {
        void *xs = fuzz_arg(s, K_I32_1D, &w1);
        i64 = fuzz_int(s);
        r = s->huge ? 0 : futhark_entry_bump(s->ctx, (struct futhark_i32_1d **)&out, xs, i64);
        w2 = E_UNKNOWN; /* the index may be out of bounds */
        break;
    }
    default:
        fuzz_scalar(s, &i32, sizeof i32);
        fuzz_scalar(s, &j32, sizeof j32);
        r = s->huge ? 0 : futhark_entry_checked_div(s->ctx, &i32, i32, j32);
        w1 = j32 ? E_GOOD : E_BAD;
        break;
    }
    if (s->huge) return; /* not called */
    fuzz_outcome(s, r != 0, fuzz_both(w1, w2), "an entry point");
    static const FuzzKind result[] = {K_I32_1D, K_F32_2D, K_I32_1D, K_CLOUD, K_F32_2D, K_I32_1D, K_I32_1D};
    if (r == 0 && out) fuzz_keep(s, out, result[which]);
}

/* ---- Opaque values ------------------------------------------------------------------ */

/* A new cloud from arguments, or the fields of one. */
static void fuzz_cloud_op(FuzzState *s, bool make) {
    FuzzExpect w1, w2;
    if (make) {
        void *ids = fuzz_arg(s, K_I32_1D, &w1), *pts = fuzz_arg(s, K_F32_2D, &w2), *c = NULL;
        double w;
        fuzz_scalar(s, &w, sizeof w);
        int r = futhark_new_opaque_cloud(s->ctx, (struct futhark_opaque_cloud **)&c, ids, pts, w);
        fuzz_outcome(s, r != 0, fuzz_both(w1, w2), "new_opaque_cloud");
        if (r == 0) fuzz_keep(s, c, K_CLOUD);
        return;
    }
    void *c = fuzz_arg(s, K_CLOUD, &w1), *ids = NULL, *pts = NULL;
    double w;
    int r = futhark_project_opaque_cloud_ids(s->ctx, (struct futhark_i32_1d **)&ids, c);
    fuzz_outcome(s, r != 0, w1, "project ids");
    if (r == 0) fuzz_keep(s, ids, K_I32_1D);
    r = futhark_project_opaque_cloud_pts(s->ctx, (struct futhark_f32_2d **)&pts, c);
    fuzz_outcome(s, r != 0, w1, "project pts");
    if (r == 0) fuzz_keep(s, pts, K_F32_2D);
    fuzz_outcome(s, futhark_project_opaque_cloud_w(s->ctx, &w, c) != 0, w1, "project w");
}

/* Corrupts one header field of stored cloud bytes b (n of them) as the
 * input says; returns what restoring them must do, or E_UNKNOWN when they
 * must not be restored (a dimension that makes sense, but not with the
 * data that follows). */
static FuzzExpect fuzz_corrupt(FuzzState *s, unsigned char *b, size_t n) {
    static const int ranks[] = {1, 2, 0}, sizes[] = {4, 4, 8}; /* ids, pts, w */
    uint8_t how = fuzz_byte(s), k = fuzz_byte(s) % 3;
    size_t at = FUZZ_CLOUD_PREFIX;
    int64_t dims[2], bytes;
    for (int j = 0; j < k; j++) {
        memcpy(dims, b + at + 2, 8 * (size_t)ranks[j]);
        fuzz_bytes_of(dims, ranks[j], sizes[j], &bytes);
        at += 2 + 8 * (size_t)ranks[j] + (size_t)bytes;
    }
    FUZZ_CHECK(at + 2 + 8 * (size_t)ranks[k] <= n, "stored bytes too short");
    if (how % 4 == 0) return E_GOOD;
    if (how % 4 == 1) {
        b[fuzz_byte(s) % FUZZ_CLOUD_PREFIX] ^= (uint8_t)(1 + fuzz_byte(s) % 255);
        return E_BAD;
    }
    if (how % 4 == 2) {
        b[at + fuzz_byte(s) % 2] ^= (uint8_t)(1 + fuzz_byte(s) % 255);
        return E_BAD;
    }
    if (ranks[k] == 0) return E_UNKNOWN;
    memcpy(dims, b + at + 2, 8 * (size_t)ranks[k]);
    dims[fuzz_byte(s) % ranks[k]] = fuzz_int(s);
    memcpy(b + at + 2, dims, 8 * (size_t)ranks[k]);
    return fuzz_bytes_of(dims, ranks[k], sizes[k], &bytes) ? E_UNKNOWN : E_BAD;
}

/* Stores a cloud and restores its bytes, perhaps corrupted: intact, they
 * must restore to a value that stores the same bytes. */
static void fuzz_store_restore(FuzzState *s) {
    FuzzExpect want;
    void *c = fuzz_arg(s, K_CLOUD, &want), *bytes = NULL, *again = NULL;
    size_t n = 0, m = 0;
    int r = futhark_store_opaque_cloud(s->ctx, c, &bytes, &n);
    fuzz_outcome(s, r != 0, want, "store_opaque_cloud");
    if (r != 0) return;
    FuzzExpect restore = fuzz_corrupt(s, bytes, n);
    void *back = restore == E_UNKNOWN ? NULL : futhark_restore_opaque_cloud(s->ctx, bytes);
    if (restore != E_UNKNOWN) fuzz_outcome(s, !back, restore, "restore_opaque_cloud");
    if (back) {
        r = futhark_store_opaque_cloud(s->ctx, back, &again, &m);
        FUZZ_CHECK(r == 0 && m == n && !memcmp(bytes, again, n), "a restored cloud stores other bytes");
        fuzz_keep(s, back, K_CLOUD);
    }
    free(bytes);
    free(again);
}

/* ---- Contexts ---------------------------------------------------------------------- */

/* A new context, with debugging, logging and profiling as the input says
 * (logging to nowhere). */
static void fuzz_context_new(FuzzState *s) {
    uint8_t flags = fuzz_byte(s);
    futhark_context_config_set_debugging(s->cfg, flags & 1);
    futhark_context_config_set_logging(s->cfg, flags & 2);
    futhark_context_config_set_profiling(s->cfg, flags & 4);
    s->ctx = futhark_context_new(s->cfg);
    FUZZ_CHECK(s->ctx != NULL, "futhark_context_new failed");
    static FILE *nowhere;
    if (!nowhere) nowhere = fopen("/dev/null", "w");
    futhark_context_set_logging_file(s->ctx, nowhere);
}

/* Frees the context with the values still in it; they are all dead. */
static void fuzz_context_free(FuzzState *s) {
    futhark_context_free(s->ctx);
    for (int i = 0; i < FUZZ_SLOTS; i++) s->slots[i].live = false;
}

/* The context's report, pausing or unpausing profiling, sync and clear. */
static void fuzz_context_op(FuzzState *s) {
    uint8_t b = fuzz_byte(s);
    if (b & 1) free(futhark_context_report(s->ctx));
    if (b & 2) futhark_context_pause_profiling(s->ctx);
    else futhark_context_unpause_profiling(s->ctx);
    FUZZ_CHECK(futhark_context_sync(s->ctx) == 0, "futhark_context_sync failed");
    FUZZ_CHECK(futhark_context_clear_caches(s->ctx) == 0, "futhark_context_clear_caches failed");
}

/* Actions: new, free, values and index per array kind, then the rest. */
enum { A_ARRAY = 0, A_CALL = 4 * 3, A_NEW_CLOUD = A_CALL + 7, A_PROJECT, A_STORE, A_FREE_CLOUD, A_CONTEXT,
       A_RENEW, FUZZ_NACTIONS };

static void fuzz_action(FuzzState *s, int a) {
    FuzzExpect want;
    s->arg = NULL;
    s->huge = false;
    if (a < A_CALL) {
        if (a % 4 == 0) fuzz_new(s, (FuzzKind)(a / 4));
        else fuzz_array_op(s, (FuzzKind)(a / 4), a % 4 - 1);
    } else if (a < A_NEW_CLOUD) {
        fuzz_call(s, a - A_CALL);
    } else if (a == A_NEW_CLOUD || a == A_PROJECT) {
        fuzz_cloud_op(s, a == A_NEW_CLOUD);
    } else if (a == A_STORE) {
        fuzz_store_restore(s);
    } else if (a == A_FREE_CLOUD) {
        void *c = fuzz_arg(s, K_CLOUD, &want);
        int r = futhark_free_opaque_cloud(s->ctx, c);
        fuzz_outcome(s, r != 0, want, "free_opaque_cloud");
        if (r == 0 && s->arg) s->arg->live = false;
    } else if (a == A_CONTEXT) {
        fuzz_context_op(s);
    } else {
        fuzz_context_free(s);
        fuzz_context_new(s);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    FuzzState s = {.in = data, .end = data + size, .cfg = futhark_context_config_new()};
    FUZZ_CHECK(s.cfg != NULL, "futhark_context_config_new failed");
    for (size_t i = 0; i < FUZZ_DATA_MAX; i++) fuzz_data[i] = (unsigned char)(i * 37 + 11);
    fuzz_context_new(&s);
    while (s.in < s.end) fuzz_action(&s, fuzz_byte(&s) % FUZZ_NACTIONS);
    fuzz_context_free(&s);
    futhark_context_config_free(s.cfg);
    return 0;
}
