/* Fuzz target: the runtime's value reader (runtime/values.c), textual and
 * binary. The input is read as a sequence of values whose types the data
 * gives (rt_read_any, as `futhorc test` reads expected results). Each
 * value read is read again from its start by rt_read_value as every
 * element type at its rank and as its own element type at other ranks,
 * which must give the same value for its own type; and it is written in
 * the textual and the binary format and read back, which must give it
 * again. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "rt.h"

/* Ranks tried besides a value's own: up to one more than the deepest
 * literal test blocks use, enough to reach every branch of the reader. */
#define FUZZ_MAX_RANK 4

/* Whether element i of a and b (same type) are the same: bit for bit, but
 * any NaN equals any NaN (the textual format has one NaN). */
static bool fuzz_same_elem(const rt_value *a, const rt_value *b, int64_t i) {
    size_t size = (size_t)rt_prim_size(a->type.elem);
    const char *x = (const char *)a->data + (size_t)i * size, *y = (const char *)b->data + (size_t)i * size;
    if (a->type.elem == RT_F16) {
        uint16_t f, g;
        memcpy(&f, x, 2), memcpy(&g, y, 2);
        if ((f & 0x7c00) == 0x7c00 && (f & 0x3ff) && (g & 0x7c00) == 0x7c00 && (g & 0x3ff)) return true;
    } else if (a->type.elem == RT_F32) {
        float f, g;
        memcpy(&f, x, 4), memcpy(&g, y, 4);
        if (isnan(f) && isnan(g)) return true;
    } else if (a->type.elem == RT_F64) {
        double f, g;
        memcpy(&f, x, 8), memcpy(&g, y, 8);
        if (isnan(f) && isnan(g)) return true;
    }
    return !memcmp(x, y, size);
}

/* Checks that b is the value a; what names where b came from. */
static void fuzz_check_same(const rt_value *a, const rt_value *b, const char *what) {
    FUZZ_CHECK(a->type.elem == b->type.elem && a->type.rank == b->type.rank, "%s: another type", what);
    for (int d = 0; d < a->type.rank; d++)
        FUZZ_CHECK(a->shape[d] == b->shape[d], "%s: dimension %d differs", what, d);
    int64_t n = rt_value_count(a);
    for (int64_t i = 0; i < n; i++) FUZZ_CHECK(fuzz_same_elem(a, b, i), "%s: element %lld differs", what, (long long)i);
}

/* Writes v with write and reads it back, which must give v. */
static void fuzz_round_trip(const rt_value *v, void (*write)(FILE *, const rt_value *), const char *what) {
    char *buf = NULL, err[512];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    FUZZ_CHECK(f != NULL, "open_memstream failed");
    write(f, v);
    fclose(f);
    rt_reader r = {(const unsigned char *)buf, len, 0};
    rt_value back;
    FUZZ_CHECK(rt_read_value(&r, v->type, &back, err, sizeof err), "%s: cannot read back: %s", what, err);
    FUZZ_CHECK(rt_reader_at_end(&r), "%s: bytes left after reading back", what);
    fuzz_check_same(v, &back, what);
    rt_value_free(&back);
    free(buf);
}

/* Reads the value at start of r again as type t; for v's own type, it must
 * be v and end at end. */
static void fuzz_reread(const rt_reader *r, size_t start, size_t end, rt_type t, const rt_value *v) {
    rt_reader again = {r->buf, r->len, start};
    rt_value w;
    char err[512];
    bool own = t.elem == v->type.elem && t.rank == v->type.rank;
    bool ok = rt_read_value(&again, t, &w, err, sizeof err);
    FUZZ_CHECK(ok || !own, "reading again as its own type failed: %s", err);
    if (!ok) return;
    if (own) {
        FUZZ_CHECK(again.pos == end, "reading again as its own type ended elsewhere");
        fuzz_check_same(v, &w, "reading again");
    }
    rt_value_free(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    rt_reader r = {data, size, 0};
    char err[512];
    while (!rt_reader_at_end(&r)) {
        size_t start = r.pos;
        rt_value v;
        if (!rt_read_any(&r, &v, err, sizeof err)) break;
        for (int e = 0; e < RT_PRIM_COUNT; e++) fuzz_reread(&r, start, r.pos, (rt_type){(rt_prim)e, v.type.rank}, &v);
        for (int rank = 0; rank <= FUZZ_MAX_RANK; rank++)
            if (rank != v.type.rank) fuzz_reread(&r, start, r.pos, (rt_type){v.type.elem, rank}, &v);
        fuzz_round_trip(&v, rt_write_text, "text");
        fuzz_round_trip(&v, rt_write_binary, "binary");
        rt_value_free(&v);
    }
    return 0;
}
