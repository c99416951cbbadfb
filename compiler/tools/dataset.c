/* `futhorc dataset`: writes random values of the types given with -g (or the
 * literal values given there) in the textual or binary data format, like
 * `futhark dataset` (Futhark's docs/man/futhark-dataset.rst). Integers cover
 * their whole range and floats fall in [0,1) unless --T-bounds says
 * otherwise; the format and bounds options apply to the -g options after
 * them. Value i is drawn from a SplitMix64 generator seeded with seed + i,
 * so the output depends only on the seed and the command line. Without -g,
 * values read from stdin are written in the chosen format (or their types
 * with -t). */
#include "dataset.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../util/util.h"
#include "scalar.h"

/* Largest value generated, in bytes: far beyond any benchmark's input, and
 * a typo such as [1000000000000]f64 is refused instead of exhausting
 * memory. */
#define DATASET_MAX_BYTES ((int64_t)1 << 36)
/* The seed when -s is not given (Futhark's default). */
#define DATASET_DEFAULT_SEED 1
/* Size of a buffer for one error message. */
#define DATASET_MSG_LEN 512

typedef enum { FMT_TEXT, FMT_BINARY, FMT_TYPE } DatasetFormat;

/* One -g option: a random value of a type, or a literal value. */
typedef struct DatasetOrder {
    bool literal;
    DatasetType type;
    rt_value value; /* the literal */
    DatasetBounds bounds;
    DatasetFormat format;
} DatasetOrder;

/* ---- The generator ------------------------------------------------------------ */

void dataset_rng_seed(DatasetRng *r, uint64_t seed) { r->state = seed; }

uint64_t dataset_rng_next(DatasetRng *r) {
    uint64_t z = (r->state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* A uniform integer in [0, span] without modulo bias (rejection). */
static uint64_t rng_upto(DatasetRng *r, uint64_t span) {
    if (span == UINT64_MAX) return dataset_rng_next(r);
    uint64_t n = span + 1, limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do x = dataset_rng_next(r);
    while (x >= limit);
    return x % n;
}

/* ---- Types and bounds --------------------------------------------------------- */

static bool fail(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(char *err, size_t n, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
    return false;
}

/* The element type named exactly s[0..len-1]; -1 if none. */
static int prim_named(const char *s, size_t len) {
    for (int e = 0; e < RT_PRIM_COUNT; e++)
        if (strlen(rt_prim_name((rt_prim)e)) == len && !strncmp(s, rt_prim_name((rt_prim)e), len)) return e;
    return -1;
}

bool dataset_parse_type(const char *s, DatasetType *t, char *err, size_t errlen) {
    const char *p = s;
    t->rank = 0;
    while (*p == '[') {
        if (t->rank == DATASET_MAX_RANK) return fail(err, errlen, "'%s' has more than %d dimensions", s, DATASET_MAX_RANK);
        char *end;
        errno = 0;
        long long d = isdigit((unsigned char)p[1]) ? strtoll(p + 1, &end, 10) : -1;
        if (d < 0 || errno || *end != ']')
            return fail(err, errlen, "'%s': dimension %d needs a size, as in [100]i32", s, t->rank + 1);
        t->dims[t->rank++] = d;
        p = end + 1;
    }
    int e = prim_named(p, strlen(p));
    if (e < 0) return fail(err, errlen, "'%s': unknown element type '%s' (expected i8..i64, u8..u64, f16, f32, f64 or bool)", s, p);
    t->elem = (rt_prim)e;
    return true;
}

static bool is_float(rt_prim e) { return e == RT_F16 || e == RT_F32 || e == RT_F64; }
static bool is_signed(rt_prim e) { return e <= RT_I64; }

void dataset_default_bounds(DatasetBounds *b) {
    for (int e = 0; e < RT_PRIM_COUNT; e++) {
        int bits = 8 * rt_prim_size((rt_prim)e);
        uint64_t umax = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
        b->ilo[e] = is_signed((rt_prim)e) ? (uint64_t)-(int64_t)(umax / 2) - 1 : 0;
        b->ihi[e] = is_signed((rt_prim)e) ? umax / 2 : umax;
        b->flo[e] = 0.0;
        b->fhi[e] = 1.0;
    }
    b->ihi[RT_BOOL] = 1;
}

/* Parses one integer bound of element type e into *out (as its 64-bit
 * extension); false if malformed or out of the type's range. */
static bool parse_int_bound(const char *s, rt_prim e, uint64_t *out) {
    DatasetBounds full;
    dataset_default_bounds(&full);
    char *end;
    errno = 0;
    if (is_signed(e)) {
        long long x = strtoll(s, &end, 10);
        if (errno || end == s || *end || x < (int64_t)full.ilo[e] || x > (int64_t)full.ihi[e]) return false;
        *out = (uint64_t)x;
    } else {
        unsigned long long x = strtoull(s, &end, 10);
        if (errno || end == s || *end || *s == '-' || x > full.ihi[e]) return false;
        *out = x;
    }
    return true;
}

/* Parses MIN or MAX of a float bound; false unless a finite number. */
static bool parse_float_bound(const char *s, double *out) {
    char *end;
    *out = strtod(s, &end);
    return end != s && !*end && isfinite(*out);
}

bool dataset_set_bounds(DatasetBounds *b, const char *opt, char *err, size_t errlen) {
    const char *dash = strstr(opt, "-bounds="), *arg = dash ? dash + 8 : NULL;
    int e = dash ? prim_named(opt, (size_t)(dash - opt)) : -1;
    if (e < 0 || e == RT_BOOL) return fail(err, errlen, "unknown option '--%s'", opt);
    const char *colon = strchr(arg, ':');
    char lo[DATASET_MSG_LEN];
    if (!colon || (size_t)(colon - arg) >= sizeof lo) return fail(err, errlen, "--%s: expected MIN:MAX", opt);
    memcpy(lo, arg, (size_t)(colon - arg));
    lo[colon - arg] = 0;
    bool ok;
    if (is_float((rt_prim)e)) {
        double l, h;
        ok = parse_float_bound(lo, &l) && parse_float_bound(colon + 1, &h) && l <= h;
        if (ok) b->flo[e] = l, b->fhi[e] = h;
    } else {
        uint64_t l, h;
        ok = parse_int_bound(lo, (rt_prim)e, &l) && parse_int_bound(colon + 1, (rt_prim)e, &h) &&
             (is_signed((rt_prim)e) ? (int64_t)l <= (int64_t)h : l <= h);
        if (ok) b->ilo[e] = l, b->ihi[e] = h;
    }
    if (!ok) return fail(err, errlen, "--%s: expected MIN:MAX with MIN <= MAX, both %s values", opt, rt_prim_name((rt_prim)e));
    return true;
}

/* ---- Generating ---------------------------------------------------------------- */

/* Writes one random element of type e within bounds b at p. */
static void random_elem(rt_prim e, const DatasetBounds *b, DatasetRng *r, unsigned char *p) {
    if (e == RT_F16) { /* rounded to the nearest half, which may lie on a bound */
        double u = (double)(dataset_rng_next(r) >> 11) * 0x1p-53;
        uint16_t x = rt_conv_f64_f16(b->flo[e] + (b->fhi[e] - b->flo[e]) * u);
        memcpy(p, &x, sizeof x);
    } else if (e == RT_F32) {
        float u = (float)(dataset_rng_next(r) >> 40) * 0x1p-24f; /* in [0,1) */
        float x = (float)b->flo[e] + ((float)b->fhi[e] - (float)b->flo[e]) * u;
        memcpy(p, &x, sizeof x);
    } else if (e == RT_F64) {
        double u = (double)(dataset_rng_next(r) >> 11) * 0x1p-53;
        double x = b->flo[e] + (b->fhi[e] - b->flo[e]) * u;
        memcpy(p, &x, sizeof x);
    } else {
        uint64_t x = b->ilo[e] + rng_upto(r, b->ihi[e] - b->ilo[e]);
        uint8_t x8 = (uint8_t)x;
        uint16_t x16 = (uint16_t)x;
        uint32_t x32 = (uint32_t)x;
        int size = rt_prim_size(e);
        memcpy(p, size == 1 ? (void *)&x8 : size == 2 ? (void *)&x16 : size == 4 ? (void *)&x32 : (void *)&x,
               (size_t)size);
    }
}

bool dataset_generate(const DatasetType *t, const DatasetBounds *b, DatasetRng *r, rt_value *out,
                      char *err, size_t errlen) {
    int size = rt_prim_size(t->elem);
    int64_t count = 1;
    for (int i = 0; i < t->rank; i++) {
        if (t->dims[i] && count > DATASET_MAX_BYTES / size / t->dims[i])
            return fail(err, errlen, "value too large (more than %" PRId64 " bytes)", DATASET_MAX_BYTES);
        count *= t->dims[i];
    }
    out->type = (rt_type){t->elem, t->rank};
    out->shape = t->rank ? malloc(sizeof(int64_t) * (size_t)t->rank) : NULL;
    out->data = malloc((size_t)(count * size) + 1);
    if ((t->rank && !out->shape) || !out->data) {
        rt_value_free(out);
        return fail(err, errlen, "out of memory generating %" PRId64 " elements", count);
    }
    COPY_ARRAY(out->shape, t->dims, t->rank);
    unsigned char *p = out->data;
    for (int64_t i = 0; i < count; i++) random_elem(t->elem, b, r, p + i * size);
    return true;
}

/* ---- Output -------------------------------------------------------------------- */

/* Writes the type of v with its sizes ("[3][2]f32"). */
static void write_type(FILE *f, const rt_value *v) {
    for (int i = 0; i < v->type.rank; i++) fprintf(f, "[%" PRId64 "]", v->shape[i]);
    fprintf(f, "%s\n", rt_prim_name(v->type.elem));
}

static void write_value(FILE *f, const rt_value *v, DatasetFormat fmt) {
    if (fmt == FMT_BINARY) rt_write_binary(f, v);
    else if (fmt == FMT_TYPE) write_type(f, v);
    else rt_write_text(f, v), fputc('\n', f);
}

/* ---- The command line ------------------------------------------------------------ */

static void usage(FILE *f) {
    fprintf(f, "usage: futhorc dataset [options]\n\n"
               "Writes random values in Futhark's data format to stdout; without -g,\n"
               "converts the values read on stdin.\n\n"
               "  -g, --generate TYPE   a value of TYPE ([100]i32, [10][20]f32, i64) or a\n"
               "                        literal value (10i32)\n"
               "  -b, --binary          binary format for the following -g options\n"
               "  --text                textual format (the default)\n"
               "  -t, --type            print the types of the values instead\n"
               "  -s, --seed N          seed of the generator (default %d)\n"
               "  --T-bounds=MIN:MAX    inclusive bounds for values of element type T in\n"
               "                        the following -g options (default: integers over\n"
               "                        their whole range, floats in [0,1))\n"
               "  -h, --help            show this help\n",
            DATASET_DEFAULT_SEED);
}

/* The value of option `opt` (short "-g" or long "--generate") at argv[*i]:
 * attached ("-g[4]i32", "--generate=[4]i32") or the next argument. NULL if
 * argv[*i] is not that option or the value is missing (*missing set). */
static const char *opt_value(int argc, char **argv, int *i, const char *s, const char *l, bool *missing) {
    const char *a = argv[*i];
    size_t n = strlen(l);
    if (!strncmp(a, l, n) && a[n] == '=') return a + n + 1;
    if (!strncmp(a, s, 2) && a[2]) return a + 2;
    if (strcmp(a, s) && strcmp(a, l)) return NULL;
    if (*i + 1 < argc) return argv[++*i];
    *missing = true;
    return NULL;
}

/* Parses a -g argument: a type, else a literal value. */
static bool parse_order(const char *arg, DatasetOrder *o, char *err, size_t errlen) {
    if (dataset_parse_type(arg, &o->type, err, errlen)) return true;
    rt_reader r = {(const unsigned char *)arg, strlen(arg), 0};
    char verr[DATASET_MSG_LEN];
    if (rt_read_any(&r, &o->value, verr, sizeof verr)) {
        o->literal = rt_reader_at_end(&r);
        if (o->literal) return true;
        rt_value_free(&o->value);
    }
    size_t k = strlen(err);
    if (k < errlen) snprintf(err + k, errlen - k, "; nor is it a value");
    return false;
}

static bool parse_seed(const char *s, uint64_t *seed) {
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (errno || end == s || *end) return false;
    *seed = (uint64_t)x;
    return true;
}

typedef struct DatasetCmd {
    DatasetOrder *orders;
    int norders;
    DatasetFormat format;
    uint64_t seed;
    bool help;
} DatasetCmd;

/* Parses one option at argv[*i] into c; false with a message in err. */
static bool parse_option(int argc, char **argv, int *i, DatasetCmd *c, DatasetBounds *b, char *err, size_t n) {
    const char *a = argv[*i], *v;
    bool missing = false;
    if (!strcmp(a, "-b") || !strcmp(a, "--binary")) c->format = FMT_BINARY;
    else if (!strcmp(a, "--text")) c->format = FMT_TEXT;
    else if (!strcmp(a, "-t") || !strcmp(a, "--type")) c->format = FMT_TYPE;
    else if (!strcmp(a, "-h") || !strcmp(a, "--help")) c->help = true;
    else if ((v = opt_value(argc, argv, i, "-g", "--generate", &missing))) {
        DatasetOrder *o = &c->orders[c->norders];
        memset(o, 0, sizeof *o);
        if (!parse_order(v, o, err, n)) return false;
        o->bounds = *b;
        o->format = c->format;
        c->norders++;
    } else if (!missing && (v = opt_value(argc, argv, i, "-s", "--seed", &missing))) {
        if (!parse_seed(v, &c->seed)) return fail(err, n, "invalid seed '%s'", v);
    } else if (missing) return fail(err, n, "option %s needs a value", a);
    else if (!strncmp(a, "--", 2) && strstr(a, "-bounds=")) return dataset_set_bounds(b, a + 2, err, n);
    else return fail(err, n, "unknown option '%s'", a);
    return true;
}

/* Converts the values on in to the chosen format. */
static int convert_stdin(FILE *in, FILE *out, FILE *errf, DatasetFormat fmt) {
    char err[DATASET_MSG_LEN];
    size_t len;
    unsigned char *buf = rt_read_all(in, &len);
    if (!buf) {
        fprintf(errf, "futhorc dataset: cannot read standard input\n");
        return 1;
    }
    rt_reader r = {buf, len, 0};
    int status = 0;
    while (!rt_reader_at_end(&r)) {
        rt_value v;
        if (!rt_read_any(&r, &v, err, sizeof err)) {
            fprintf(errf, "futhorc dataset: malformed data on standard input: %s\n", err);
            status = 1;
            break;
        }
        write_value(out, &v, fmt);
        rt_value_free(&v);
    }
    free(buf);
    return status;
}

/* Writes the value of every order, each from its own seeded generator. */
static int generate_all(DatasetCmd *c, FILE *out, FILE *errf) {
    char err[DATASET_MSG_LEN];
    for (int k = 0; k < c->norders; k++) {
        DatasetOrder *o = &c->orders[k];
        if (!o->literal) {
            DatasetRng r;
            dataset_rng_seed(&r, c->seed + (uint64_t)k);
            if (!dataset_generate(&o->type, &o->bounds, &r, &o->value, err, sizeof err)) {
                fprintf(errf, "futhorc dataset: %s\n", err);
                return 1;
            }
        }
        write_value(out, &o->value, o->format);
        rt_value_free(&o->value);
    }
    return 0;
}

bool dataset_write_binary(FILE *out, const char *const *words, int nwords, uint64_t seed, char *err,
                          size_t errlen) {
    bool ok = true;
    for (int k = 0; ok && k < nwords; k++) {
        DatasetOrder o;
        memset(&o, 0, sizeof o);
        ok = parse_order(words[k], &o, err, errlen);
        if (ok && !o.literal) {
            DatasetRng r;
            DatasetBounds b;
            dataset_default_bounds(&b);
            dataset_rng_seed(&r, seed + (uint64_t)k);
            ok = dataset_generate(&o.type, &b, &r, &o.value, err, errlen);
        }
        if (ok) rt_write_binary(out, &o.value);
        if (ok) rt_value_free(&o.value);
    }
    if (ok && (fflush(out) != 0 || ferror(out))) ok = fail(err, errlen, "cannot write the data");
    return ok;
}

int dataset_run(int argc, char **argv, FILE *in, FILE *out, FILE *errf) {
    Arena a = {0};
    DatasetCmd c = {NEW_ARRAY(&a, DatasetOrder, argc + 1), 0, FMT_TEXT, DATASET_DEFAULT_SEED, false};
    DatasetBounds b;
    dataset_default_bounds(&b);
    char err[DATASET_MSG_LEN];
    int status = 0;
    for (int i = 1; i < argc && status == 0; i++) {
        if (!parse_option(argc, argv, &i, &c, &b, err, sizeof err)) {
            fprintf(errf, "futhorc dataset: %s\n", err);
            status = 1;
        }
    }
    if (status == 0 && c.help) usage(out);
    else if (status == 0 && c.norders == 0) status = convert_stdin(in, out, errf, c.format);
    else if (status == 0) status = generate_all(&c, out, errf);
    for (int k = 0; k < c.norders; k++) rt_value_free(&c.orders[k].value);
    if (fflush(out) != 0 || ferror(out)) {
        fprintf(errf, "futhorc dataset: cannot write the output\n");
        status = 1;
    }
    arena_free(&a);
    return status;
}

int tool_dataset(int argc, char **argv) { return dataset_run(argc, argv, stdin, stdout, stderr); }
