/* Values of the runtime: reading Futhark's textual and binary data formats,
 * writing them, and comparing values as `futhark test` does (survey §2.2-2.4).
 *
 * This file is pasted into every generated program after rt.h, so every
 * file-scope name is either rt_ (external) or rtv_ (static) and macros are
 * #undef'd at the end. Bad input never crashes: every reader returns false
 * with a message naming the line and column (text) or byte offset (binary). */
#ifndef FUTHORC_RT_H
#include "rt.h"
#include "scalar.h"
#endif

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Relative and absolute float tolerance of `futhark test` (survey §2.4). */
#define RTV_TOLERANCE 0.002
/* Longest scalar literal read: far beyond any number's digits, and small
 * enough to copy the literal onto the stack for strtod. */
#define RTV_MAX_TOKEN 256
/* Deepest nesting rt_read_any accepts: the binary format stores the rank in
 * a signed byte, so no value can have more dimensions. */
#define RTV_MAX_RANK 127
/* Size of the binary header before the dimensions: 'b', version, rank, tag. */
#define RTV_BIN_HEADER 7
/* The only binary format version there is. */
#define RTV_BIN_VERSION 2

static const char *const rtv_names[RT_PRIM_COUNT] = {
    "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "f32", "f64", "bool"};
static const char *const rtv_tags[RT_PRIM_COUNT] = {
    "  i8", " i16", " i32", " i64", "  u8", " u16", " u32", " u64", " f16", " f32", " f64", "bool"};
static const int rtv_sizes[RT_PRIM_COUNT] = {1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 1};

const char *rt_prim_name(rt_prim t) {
    return (unsigned)t < RT_PRIM_COUNT ? rtv_names[t] : "?";
}

int rt_prim_size(rt_prim t) { return (unsigned)t < RT_PRIM_COUNT ? rtv_sizes[t] : 0; }

void rt_value_free(rt_value *v) {
    free(v->shape);
    free(v->data);
    v->shape = NULL;
    v->data = NULL;
}

bool rt_shape_bytes(const int64_t *shape, int rank, int64_t elem_size, int64_t *bytes) {
    bool empty = false;
    for (int i = 0; i < rank; i++) {
        if (shape[i] < 0) return false;
        empty = empty || shape[i] == 0;
    }
    int64_t n = elem_size;
    for (int i = 0; i < rank && !empty; i++)
        if ((n = rt_size_mul_i64(n, shape[i])) == INT64_MAX) return false; /* overflow */
    *bytes = empty ? 0 : n;
    return true;
}

int64_t rt_value_count(const rt_value *v) {
    int64_t n;
    return rt_shape_bytes(v->shape, v->type.rank, 1, &n) ? n : 0;
}

static bool rtv_is_int(rt_prim t) { return t <= RT_U64; }
static bool rtv_is_float(rt_prim t) { return t == RT_F16 || t == RT_F32 || t == RT_F64; }

static bool rtv_little_endian(void) {
    uint16_t x = 1;
    unsigned char b;
    memcpy(&b, &x, 1);
    return b == 1;
}

/* Writes a type in Futhark syntax ("[][]f32") into buf. */
static void rtv_type_str(rt_type t, char *buf, size_t n) {
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < t.rank && k + 3 < n; i++) k += (size_t)snprintf(buf + k, n - k, "[]");
    if (k < n) snprintf(buf + k, n - k, "%s", rt_prim_name(t.elem));
}

/* ---- Messages ------------------------------------------------------------- */

/* Formats a message into err (if any) and returns false. */
static bool rtv_fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool rtv_fail(char *err, size_t errlen, const char *fmt, ...) {
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* Like rtv_fail, prefixed with the line and column of pos in r. */
static bool rtv_text_fail(const rt_reader *r, size_t pos, char *err, size_t errlen,
                          const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static bool rtv_text_fail(const rt_reader *r, size_t pos, char *err, size_t errlen,
                          const char *fmt, ...) {
    if (!err || !errlen) return false;
    size_t line = 1, col = 1;
    for (size_t i = 0; i < pos && i < r->len; i++) {
        if (r->buf[i] == '\n') line++, col = 1;
        else col++;
    }
    int k = snprintf(err, errlen, "line %zu, column %zu: ", line, col);
    if (k >= 0 && (size_t)k < errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* Describes the input at pos for messages: a short quote or "end of input". */
static void rtv_quote(const rt_reader *r, size_t pos, char *buf, size_t n) {
    if (pos >= r->len) {
        snprintf(buf, n, "end of input");
        return;
    }
    size_t k = 0;
    buf[k++] = '\'';
    for (size_t i = pos; i < r->len && i < pos + 20 && k + 3 < n; i++) {
        unsigned char c = r->buf[i];
        if (isspace(c) || c == ',' || c == ']' || c == '[' || (i > pos && c == ')')) break;
        buf[k++] = isprint(c) ? (char)c : '?';
    }
    if (k == 1 && k + 3 < n) buf[k++] = isprint(r->buf[pos]) ? (char)r->buf[pos] : '?';
    buf[k++] = '\'';
    buf[k] = 0;
}

/* ---- Text: whitespace and literals --------------------------------------- */

static void rtv_skip_space(rt_reader *r) {
    while (r->pos < r->len) {
        unsigned char c = r->buf[r->pos];
        if (isspace(c)) {
            r->pos++;
        } else if (c == '-' && r->pos + 1 < r->len && r->buf[r->pos + 1] == '-') {
            while (r->pos < r->len && r->buf[r->pos] != '\n') r->pos++;
        } else {
            break;
        }
    }
}

unsigned char *rt_read_all(FILE *f, size_t *len) {
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        unsigned char *bigger = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
        if (!bigger) free(buf);
        buf = bigger;
        cap *= 2;
    }
    if (buf && ferror(f)) free(buf), buf = NULL;
    *len = n;
    return buf;
}

bool rt_reader_at_end(rt_reader *r) {
    rtv_skip_space(r);
    return r->pos >= r->len;
}

/* True if the input at r->pos starts with the word w (not followed by a
 * letter or digit). */
static bool rtv_at_word(const rt_reader *r, const char *w) {
    size_t n = strlen(w);
    if (r->len - r->pos < n || memcmp(r->buf + r->pos, w, n) != 0) return false;
    return r->pos + n >= r->len || !isalnum(r->buf[r->pos + n]);
}

/* End of the scalar literal starting at pos: letters, digits, '_', '.', a
 * leading '-', and a sign right after a decimal exponent. */
static size_t rtv_token_end(const rt_reader *r, size_t pos) {
    size_t p = pos;
    if (p < r->len && r->buf[p] == '-') p++;
    bool hex = r->len - p >= 2 && r->buf[p] == '0' && (r->buf[p + 1] | 0x20) == 'x';
    while (p < r->len) {
        unsigned char c = r->buf[p];
        if (isalnum(c) || c == '_' || c == '.') p++;
        else if ((c == '-' || c == '+') && !hex && p > pos && (r->buf[p - 1] | 0x20) == 'e') p++;
        else break;
    }
    return p;
}

enum { RTV_LIT_INT, RTV_LIT_FLOAT, RTV_LIT_BOOL, RTV_LIT_NAN, RTV_LIT_INF };

/* A scalar literal after lexing: its kind, suffix (-1 if none) and value. */
typedef struct rtv_lit {
    int kind;
    int suffix;
    bool neg, radix, bval;
    uint64_t mag;                  /* integer magnitude, modulo 2^64 */
    char clean[RTV_MAX_TOKEN + 1]; /* sign and digits without '_' or suffix */
} rtv_lit;

static int rtv_suffix(const char *s) {
    for (int t = 0; t < RT_PRIM_COUNT; t++)
        if (t != RT_BOOL && strcmp(s, rtv_names[t]) == 0) return t;
    return -2;
}

static int rtv_digit(int c, int base) {
    int d = isdigit(c) ? c - '0' : isalpha(c) ? (c | 0x20) - 'a' + 10 : 99;
    return d < base ? d : -1;
}

/* Scans digits of base (and '_') at s into the literal's magnitude and clean
 * text; returns the first character after them, or NULL if there were none. */
static const char *rtv_digits(const char *s, int base, rtv_lit *l, size_t *k) {
    const char *start = s;
    int ndigits = 0;
    for (; *s; s++) {
        if (*s == '_' && s != start) continue;
        int d = rtv_digit((unsigned char)*s, base);
        if (d < 0) break;
        l->mag = l->mag * (uint64_t)base + (uint64_t)d; /* modulo 2^64 */
        l->clean[(*k)++] = *s;
        ndigits++;
    }
    return ndigits ? s : NULL;
}

/* Parses a decimal literal body: digits, fraction, exponent. Returns the
 * position of the suffix, or NULL if malformed. */
static const char *rtv_decimal(const char *s, rtv_lit *l, size_t *k) {
    const char *p = rtv_digits(s, 10, l, k);
    bool any = p != NULL;
    if (!p) p = s;
    if (*p == '.') {
        l->kind = RTV_LIT_FLOAT;
        l->clean[(*k)++] = '.';
        const char *q = rtv_digits(p + 1, 10, l, k);
        any = any || q;
        p = q ? q : p + 1;
    }
    if (!any) return NULL;
    if ((*p | 0x20) == 'e') {
        l->kind = RTV_LIT_FLOAT;
        l->clean[(*k)++] = 'e';
        p++;
        if (*p == '+' || *p == '-') l->clean[(*k)++] = *p++;
        uint64_t keep = l->mag;
        p = rtv_digits(p, 10, l, k);
        l->mag = keep;
    }
    return p;
}

/* Lexes the literal text s into l; false if it is no literal at all. */
static bool rtv_lex_literal(const char *s, rtv_lit *l) {
    memset(l, 0, sizeof *l);
    l->suffix = -1;
    size_t k = 0;
    if (*s == '-') l->neg = true, l->clean[k++] = *s++;
    if (!strcmp(s, "true") || !strcmp(s, "false")) {
        l->kind = RTV_LIT_BOOL;
        l->bval = s[0] == 't';
        l->suffix = RT_BOOL;
        return !l->neg;
    }
    if ((!strncmp(s, "f16.", 4) || !strncmp(s, "f32.", 4) || !strncmp(s, "f64.", 4)) &&
        (!strcmp(s + 4, "nan") || !strcmp(s + 4, "inf"))) {
        l->kind = s[4] == 'n' ? RTV_LIT_NAN : RTV_LIT_INF;
        l->suffix = s[1] == '1' ? RT_F16 : s[2] == '2' ? RT_F32 : RT_F64;
        return true;
    }
    const char *p;
    l->kind = RTV_LIT_INT;
    if (s[0] == '0' && (s[1] | 0x20) == 'x') l->radix = true, p = rtv_digits(s + 2, 16, l, &k);
    else if (s[0] == '0' && (s[1] | 0x20) == 'b') l->radix = true, p = rtv_digits(s + 2, 2, l, &k);
    else p = rtv_decimal(s, l, &k);
    if (!p) return false;
    l->clean[k] = 0;
    if (*p) {
        l->suffix = rtv_suffix(p);
        if (l->suffix < 0) return false;
        if (l->radix && rtv_is_float((rt_prim)l->suffix)) return false;
    }
    return true;
}

/* Lexes the literal at r->pos into l and advances past it. */
static bool rtv_next_literal(rt_reader *r, rtv_lit *l, char *err, size_t errlen) {
    size_t start = r->pos, end = rtv_token_end(r, start);
    char q[40];
    rtv_quote(r, start, q, sizeof q);
    if (end == start) return rtv_text_fail(r, start, err, errlen, "expected a value, got %s", q);
    if (end - start > RTV_MAX_TOKEN)
        return rtv_text_fail(r, start, err, errlen, "literal %s... is too long", q);
    char tok[RTV_MAX_TOKEN + 1];
    memcpy(tok, r->buf + start, end - start);
    tok[end - start] = 0;
    if (!rtv_lex_literal(tok, l))
        return rtv_text_fail(r, start, err, errlen, "malformed literal '%s'", tok);
    r->pos = end;
    return true;
}

/* Writes an integer literal as an element of type t: its value modulo
 * 2^width, as Futhark reads data (fromInteger): a negative literal of an
 * unsigned type is its two's complement (-1u16 is 65535), and a literal
 * beyond the type's range wraps (255i8 is -1, 32767i8 too). */
static void rtv_store_int(const rtv_lit *l, rt_prim t, void *dst) {
    uint64_t u = l->neg ? (uint64_t)0 - l->mag : l->mag;
    switch (t) {
    case RT_I8: *(int8_t *)dst = (int8_t)u; break;
    case RT_I16: { int16_t x = (int16_t)u; memcpy(dst, &x, 2); break; }
    case RT_I32: { int32_t x = (int32_t)u; memcpy(dst, &x, 4); break; }
    case RT_I64: { int64_t x = (int64_t)u; memcpy(dst, &x, 8); break; }
    case RT_U8: *(uint8_t *)dst = (uint8_t)u; break;
    case RT_U16: { uint16_t x = (uint16_t)u; memcpy(dst, &x, 2); break; }
    case RT_U32: { uint32_t x = (uint32_t)u; memcpy(dst, &x, 4); break; }
    default: memcpy(dst, &u, 8); break;
    }
}

/* Converts a numeric literal to a float of type t and writes it to dst. */
static bool rtv_store_float(const rtv_lit *l, rt_prim t, void *dst, const char **why) {
    double d;
    if (l->kind == RTV_LIT_NAN) d = NAN;
    else if (l->kind == RTV_LIT_INF) d = l->neg ? -INFINITY : INFINITY;
    else if (l->radix) d = l->neg ? -(double)l->mag : (double)l->mag;
    else if (t == RT_F32) {
        errno = 0;
        float f = strtof(l->clean, NULL);
        if (errno == ERANGE && isinf(f)) return *why = "is out of range for", false;
        memcpy(dst, &f, 4);
        return true;
    } else {
        errno = 0;
        d = strtod(l->clean, NULL);
        if (errno == ERANGE && isinf(d)) return *why = "is out of range for", false;
    }
    if (t == RT_F16) {
        uint16_t h = rt_conv_f64_f16(d); /* beyond the largest half, infinity */
        memcpy(dst, &h, 2);
    } else if (t == RT_F32) {
        float f = (float)d;
        memcpy(dst, &f, 4);
    } else {
        memcpy(dst, &d, 8);
    }
    return true;
}

/* Stores literal l as an element of type t; the literal must fit the type. */
static bool rtv_store(const rtv_lit *l, rt_prim t, void *dst, const char **why) {
    *why = "is not a valid";
    if (l->suffix >= 0 && l->suffix != (int)t) return false;
    if (t == RT_BOOL) {
        if (l->kind != RTV_LIT_BOOL) return false;
        *(unsigned char *)dst = l->bval;
        return true;
    }
    if (rtv_is_int(t)) {
        if (l->kind != RTV_LIT_INT) return false;
        rtv_store_int(l, t, dst);
        return true;
    }
    if (l->kind == RTV_LIT_BOOL) return false;
    return rtv_store_float(l, t, dst, why);
}

/* Reads one scalar literal of type t at r->pos into dst. */
static bool rtv_read_scalar(rt_reader *r, rt_prim t, void *dst, char *err, size_t errlen) {
    size_t start = r->pos;
    rtv_lit l;
    if (!rtv_next_literal(r, &l, err, errlen)) return false;
    const char *why;
    if (rtv_store(&l, t, dst, &why)) return true;
    return rtv_text_fail(r, start, err, errlen, "literal '%.*s' %s %s", (int)(r->pos - start),
                         (const char *)r->buf + start, why, rt_prim_name(t));
}

/* ---- Text: arrays --------------------------------------------------------- */

/* A growable byte buffer for elements. */
typedef struct rtv_bytes {
    unsigned char *data;
    size_t len, cap;
} rtv_bytes;

/* Makes room for n more bytes; false when memory runs out. */
static bool rtv_reserve(rtv_bytes *b, size_t n) {
    if (b->cap - b->len >= n) return true;
    size_t cap = b->cap ? b->cap : 64;
    while (cap - b->len < n) {
        if (cap > SIZE_MAX / 2) return false;
        cap *= 2;
    }
    unsigned char *p = realloc(b->data, cap);
    if (!p) return false;
    b->data = p;
    b->cap = cap;
    return true;
}

/* Reads "empty([d1]...[dn]t)" into out. With typed, the type must be t;
 * otherwise the type comes from the text. */
static bool rtv_read_empty(rt_reader *r, rt_type t, bool typed, rt_value *out, char *err,
                           size_t errlen) {
    size_t start = r->pos;
    int64_t dims[RTV_MAX_RANK];
    int rank = 0;
    bool zero = false;
    r->pos += 5;
    rtv_skip_space(r);
    if (r->pos >= r->len || r->buf[r->pos] != '(')
        return rtv_text_fail(r, r->pos, err, errlen, "expected '(' after 'empty'");
    r->pos++;
    for (rtv_skip_space(r); r->pos < r->len && r->buf[r->pos] == '['; rtv_skip_space(r)) {
        if (rank == RTV_MAX_RANK)
            return rtv_text_fail(r, r->pos, err, errlen, "too many dimensions");
        r->pos++;
        rtv_skip_space(r);
        int64_t d = 0;
        while (r->pos < r->len && isdigit(r->buf[r->pos])) {
            int digit = r->buf[r->pos] - '0';
            if (d > (INT64_MAX - digit) / 10) /* every dimension the binary format allows fits */
                return rtv_text_fail(r, r->pos, err, errlen, "dimension is too large");
            d = d * 10 + digit;
            r->pos++;
        }
        rtv_skip_space(r);
        if (r->pos >= r->len || r->buf[r->pos] != ']')
            return rtv_text_fail(r, r->pos, err, errlen, "expected a dimension and ']'");
        r->pos++;
        zero = zero || d == 0;
        dims[rank++] = d;
    }
    size_t tpos = r->pos;
    while (r->pos < r->len && isalnum(r->buf[r->pos])) r->pos++;
    char name[8] = "";
    if (r->pos - tpos < sizeof name) memcpy(name, r->buf + tpos, r->pos - tpos), name[r->pos - tpos] = 0;
    int elem = -1;
    for (int e = 0; e < RT_PRIM_COUNT; e++)
        if (!strcmp(name, rtv_names[e])) elem = e;
    if (elem < 0) return rtv_text_fail(r, tpos, err, errlen, "expected an element type in empty()");
    rtv_skip_space(r);
    if (r->pos >= r->len || r->buf[r->pos] != ')')
        return rtv_text_fail(r, r->pos, err, errlen, "expected ')' to close empty(");
    r->pos++;
    if (rank == 0 || !zero)
        return rtv_text_fail(r, start, err, errlen, "empty() needs an array type with a 0 dimension");
    rt_type got = {(rt_prim)elem, rank};
    if (typed && (got.elem != t.elem || got.rank != t.rank)) {
        char a[300], b[300];
        rtv_type_str(t, a, sizeof a);
        rtv_type_str(got, b, sizeof b);
        return rtv_text_fail(r, start, err, errlen, "expected a value of type %s, got an empty %s",
                             a, b);
    }
    out->type = got;
    out->shape = malloc(sizeof(int64_t) * (size_t)rank);
    out->data = malloc(1);
    if (!out->shape || !out->data) return rt_value_free(out), rtv_fail(err, errlen, "out of memory");
    memcpy(out->shape, dims, sizeof(int64_t) * (size_t)rank);
    return true;
}

/* State of reading a text array: per nesting depth, the elements seen in the
 * open row and the length every row at that depth must have (-1: unknown). */
typedef struct rtv_nest {
    int64_t *count, *shape;
    rtv_bytes elems;
    int depth;
    bool want_elem; /* after '[' or ',' */
} rtv_nest;

/* Handles ']' while reading an array: checks regularity, closes a row. */
static bool rtv_close_row(rt_reader *r, rtv_nest *n, char *err, size_t errlen) {
    int d = n->depth - 1;
    if (n->want_elem && n->count[d] == 0)
        return rtv_text_fail(r, r->pos, err, errlen,
                             "empty array literal; write empty arrays as empty([0]t)");
    if (n->shape[d] < 0) n->shape[d] = n->count[d];
    else if (n->shape[d] != n->count[d])
        return rtv_text_fail(r, r->pos, err, errlen,
                             "irregular array: this row has %" PRId64
                             " elements but an earlier one has %" PRId64,
                             n->count[d], n->shape[d]);
    r->pos++;
    n->depth--;
    if (n->depth > 0) n->count[n->depth - 1]++;
    n->want_elem = false;
    return true;
}

/* Handles one token of an array body of type t: '[', ']', ',' or a scalar. */
static bool rtv_array_step(rt_reader *r, rt_type t, rtv_nest *n, char *err, size_t errlen) {
    unsigned char c = r->buf[r->pos];
    char q[40];
    rtv_quote(r, r->pos, q, sizeof q);
    if (c == ']') return rtv_close_row(r, n, err, errlen);
    if (!n->want_elem && c != ',')
        return rtv_text_fail(r, r->pos, err, errlen, "expected ',' or ']', got %s", q);
    if (c == ',') {
        if (n->want_elem) return rtv_text_fail(r, r->pos, err, errlen, "unexpected ','");
        n->want_elem = true;
        r->pos++;
        return true;
    }
    if (n->depth < t.rank) {
        if (c != '[')
            return rtv_text_fail(r, r->pos, err, errlen,
                                 "expected '[' (an array of rank %d), got %s", t.rank - n->depth,
                                 q);
        n->count[n->depth++] = 0;
        r->pos++;
        return true;
    }
    if (c == '[')
        return rtv_text_fail(r, r->pos, err, errlen,
                             "array nested too deeply: expected %s elements",
                             rt_prim_name(t.elem));
    size_t esz = (size_t)rtv_sizes[t.elem];
    if (!rtv_reserve(&n->elems, esz)) return rtv_fail(err, errlen, "out of memory");
    if (!rtv_read_scalar(r, t.elem, n->elems.data + n->elems.len, err, errlen)) return false;
    n->elems.len += esz;
    n->count[n->depth - 1]++;
    n->want_elem = false;
    return true;
}

/* Reads a bracketed array of type t (rank >= 1) into out. */
static bool rtv_read_text_array(rt_reader *r, rt_type t, rt_value *out, char *err, size_t errlen) {
    char want[300], q[40];
    rtv_type_str(t, want, sizeof want);
    rtv_quote(r, r->pos, q, sizeof q);
    if (r->buf[r->pos] != '[')
        return rtv_text_fail(r, r->pos, err, errlen, "expected a value of type %s, got %s", want, q);
    rtv_nest n = {calloc((size_t)t.rank, sizeof(int64_t)), malloc(sizeof(int64_t) * (size_t)t.rank),
                  {NULL, 0, 0}, 1, true};
    bool ok = n.count && n.shape;
    if (!ok) rtv_fail(err, errlen, "out of memory");
    for (int i = 0; ok && i < t.rank; i++) n.shape[i] = -1;
    for (r->pos++; ok && n.depth > 0;) {
        rtv_skip_space(r);
        if (r->pos >= r->len) {
            ok = rtv_text_fail(r, r->pos, err, errlen, "unexpected end of input inside an array");
            break;
        }
        ok = rtv_array_step(r, t, &n, err, errlen);
    }
    free(n.count);
    if (!ok) {
        free(n.shape);
        free(n.elems.data);
        return false;
    }
    out->type = t;
    out->shape = n.shape;
    out->data = n.elems.data ? n.elems.data : malloc(1);
    return true;
}

/* Reads a string literal "..." as a []u8 value (the bytes of the text, with
 * the escapes \n \t \r \0 \\ \" \' and \xHH). */
static bool rtv_read_string(rt_reader *r, rt_type t, rt_value *out, char *err, size_t errlen) {
    size_t start = r->pos;
    if (t.elem != RT_U8 || t.rank != 1)
        return rtv_text_fail(r, start, err, errlen, "a string literal is a []u8 value");
    unsigned char *bytes = malloc(r->len - start + 1);
    out->shape = malloc(sizeof(int64_t));
    if (!bytes || !out->shape) {
        free(bytes);
        free(out->shape);
        out->shape = NULL;
        return rtv_fail(err, errlen, "out of memory");
    }
    size_t n = 0;
    r->pos++;
    for (;;) {
        if (r->pos >= r->len || r->buf[r->pos] == '\n') {
            free(bytes);
            free(out->shape);
            out->shape = NULL;
            return rtv_text_fail(r, start, err, errlen, "unterminated string literal");
        }
        unsigned char c = r->buf[r->pos++];
        if (c == '"') break;
        if (c == '\\' && r->pos < r->len) {
            unsigned char e = r->buf[r->pos++];
            int h1, h2;
            if (e == 'n') c = '\n';
            else if (e == 't') c = '\t';
            else if (e == 'r') c = '\r';
            else if (e == '0') c = 0;
            else if (e == 'x' && r->pos + 1 < r->len && (h1 = rtv_digit(r->buf[r->pos], 16)) >= 0 &&
                     (h2 = rtv_digit(r->buf[r->pos + 1], 16)) >= 0) {
                c = (unsigned char)(h1 * 16 + h2);
                r->pos += 2;
            } else c = e;
        }
        bytes[n++] = c;
    }
    out->type = t;
    out->shape[0] = (int64_t)n;
    out->data = bytes;
    return true;
}

/* Reads a textual value of type t. */
static bool rtv_read_text(rt_reader *r, rt_type t, rt_value *out, char *err, size_t errlen) {
    if (rtv_at_word(r, "empty")) return rtv_read_empty(r, t, true, out, err, errlen);
    if (r->pos < r->len && r->buf[r->pos] == '"') return rtv_read_string(r, t, out, err, errlen);
    if (t.rank > 0) return rtv_read_text_array(r, t, out, err, errlen);
    out->type = t;
    out->data = malloc(8);
    if (!out->data) return rtv_fail(err, errlen, "out of memory");
    if (rtv_read_scalar(r, t.elem, out->data, err, errlen)) return true;
    rt_value_free(out);
    return false;
}

/* ---- Binary --------------------------------------------------------------- */

static uint64_t rtv_load_le(const unsigned char *p, int n) {
    uint64_t x = 0;
    for (int i = n - 1; i >= 0; i--) x = x << 8 | p[i];
    return x;
}

/* Reads the binary header at r->pos: rank and element type. */
static bool rtv_bin_header(rt_reader *r, rt_type *got, char *err, size_t errlen) {
    size_t at = r->pos;
    const unsigned char *p = r->buf + at;
    if (r->len - at < RTV_BIN_HEADER)
        return rtv_fail(err, errlen, "byte offset %zu: truncated binary value header", at);
    if (p[1] != RTV_BIN_VERSION)
        return rtv_fail(err, errlen, "byte offset %zu: binary format version %d is not supported "
                        "(expected %d)", at + 1, p[1], RTV_BIN_VERSION);
    if ((int8_t)p[2] < 0)
        return rtv_fail(err, errlen, "byte offset %zu: negative rank %d", at + 2, (int8_t)p[2]);
    got->rank = p[2];
    for (int e = 0; e < RT_PRIM_COUNT; e++)
        if (!memcmp(p + 3, rtv_tags[e], 4)) {
            got->elem = (rt_prim)e;
            r->pos += RTV_BIN_HEADER;
            return true;
        }
    char tag[5];
    for (int i = 0; i < 4; i++) tag[i] = isprint(p[3 + i]) ? (char)p[3 + i] : '?';
    tag[4] = 0;
    return rtv_fail(err, errlen, "byte offset %zu: unsupported binary type tag \"%s\"", at + 3, tag);
}

/* Reads the dimensions after the header and checks the data is all there,
 * before anything the size of the data is allocated. */
static bool rtv_bin_shape(rt_reader *r, rt_value *out, size_t *bytes, char *err, size_t errlen) {
    int rank = out->type.rank;
    if ((r->len - r->pos) / 8 < (size_t)rank)
        return rtv_fail(err, errlen, "byte offset %zu: truncated binary value: missing dimensions",
                        r->pos);
    out->shape = malloc(sizeof(int64_t) * (size_t)(rank ? rank : 1));
    if (!out->shape) return rtv_fail(err, errlen, "out of memory");
    for (int i = 0; i < rank; i++, r->pos += 8) {
        uint64_t d = rtv_load_le(r->buf + r->pos, 8);
        if (d > INT64_MAX)
            return rtv_fail(err, errlen, "byte offset %zu: dimension %" PRIu64 " is too large",
                            r->pos, d);
        out->shape[i] = (int64_t)d;
    }
    int64_t need;
    if (!rt_shape_bytes(out->shape, rank, rtv_sizes[out->type.elem], &need))
        return rtv_fail(err, errlen, "byte offset %zu: the shape's size overflows: out of memory", r->pos);
    if ((uint64_t)need > r->len - r->pos)
        return rtv_fail(err, errlen, "byte offset %zu: truncated binary value: %" PRId64 " bytes needed, "
                        "%zu remain", r->pos, need, r->len - r->pos);
    *bytes = (size_t)need;
    return true;
}

/* Copies little-endian elements into host order and checks bools are 0/1. */
static bool rtv_bin_elems(rt_reader *r, rt_value *out, size_t bytes, char *err, size_t errlen) {
    int esz = rtv_sizes[out->type.elem];
    unsigned char *dst = out->data;
    const unsigned char *src = r->buf + r->pos;
    if (rtv_little_endian() || esz == 1) {
        memcpy(dst, src, bytes);
    } else {
        for (size_t i = 0; i < bytes; i += (size_t)esz)
            for (int j = 0; j < esz; j++) dst[i + (size_t)j] = src[i + (size_t)(esz - 1 - j)];
    }
    if (out->type.elem == RT_BOOL)
        for (size_t i = 0; i < bytes; i++)
            if (src[i] > 1)
                return rtv_fail(err, errlen, "byte offset %zu: bool byte %d is not 0 or 1",
                                r->pos + i, src[i]);
    r->pos += bytes;
    return true;
}

/* Reads a binary value at r->pos; with expect, its type must be *expect. */
static bool rtv_read_binary(rt_reader *r, const rt_type *expect, rt_value *out, char *err,
                            size_t errlen) {
    size_t start = r->pos, bytes = 0;
    rt_type got;
    if (!rtv_bin_header(r, &got, err, errlen)) return false;
    if (expect && (got.rank != expect->rank || got.elem != expect->elem)) {
        char a[300], b[300];
        rtv_type_str(*expect, a, sizeof a);
        rtv_type_str(got, b, sizeof b);
        return rtv_fail(err, errlen, "byte offset %zu: expected a value of type %s, got a binary %s",
                        start, a, b);
    }
    out->type = got;
    if (!rtv_bin_shape(r, out, &bytes, err, errlen)) return rt_value_free(out), false;
    out->data = malloc(bytes ? bytes : 1);
    if (!out->data) return rt_value_free(out), rtv_fail(err, errlen, "out of memory");
    if (!rtv_bin_elems(r, out, bytes, err, errlen)) return rt_value_free(out), false;
    if (got.rank == 0) free(out->shape), out->shape = NULL;
    return true;
}

/* ---- Reading entry points -------------------------------------------------- */

bool rt_read_value(rt_reader *r, rt_type t, rt_value *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    if ((unsigned)t.elem >= RT_PRIM_COUNT || t.rank < 0)
        return rtv_fail(err, errlen, "invalid expected type");
    rtv_skip_space(r);
    if (r->pos >= r->len) {
        char want[300];
        rtv_type_str(t, want, sizeof want);
        return rtv_text_fail(r, r->pos, err, errlen,
                             "unexpected end of input (expected a value of type %s)", want);
    }
    if (r->buf[r->pos] == 'b') return rtv_read_binary(r, &t, out, err, errlen);
    return rtv_read_text(r, t, out, err, errlen);
}

/* Guesses the element type of the textual value at r->pos from its first
 * typed literal (suffix, bool, nan/inf); else f64 if any literal is a
 * decimal, else i32. Malformed text is left to the typed reader. */
static rt_prim rtv_guess_elem(const rt_reader *r0) {
    rt_reader r = *r0;
    bool decimal = false;
    int depth = 0;
    do {
        rtv_skip_space(&r);
        if (r.pos >= r.len) break;
        unsigned char c = r.buf[r.pos];
        if (c == '[' || c == ']' || c == ',') {
            depth += c == '[' ? 1 : c == ']' ? -1 : 0;
            r.pos++;
            continue;
        }
        rtv_lit l;
        if (!rtv_next_literal(&r, &l, NULL, 0)) break;
        if (l.suffix >= 0) return (rt_prim)l.suffix;
        decimal = decimal || l.kind == RTV_LIT_FLOAT;
    } while (depth > 0);
    return decimal ? RT_F64 : RT_I32;
}

bool rt_read_any(rt_reader *r, rt_value *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    rtv_skip_space(r);
    if (r->pos >= r->len)
        return rtv_text_fail(r, r->pos, err, errlen, "unexpected end of input (expected a value)");
    if (r->buf[r->pos] == 'b') return rtv_read_binary(r, NULL, out, err, errlen);
    rt_type t = {RT_I32, 0};
    if (rtv_at_word(r, "empty")) return rtv_read_empty(r, t, false, out, err, errlen);
    if (r->buf[r->pos] == '"') return rtv_read_string(r, (rt_type){RT_U8, 1}, out, err, errlen);
    rt_reader probe = *r;
    while (probe.pos < probe.len && (probe.buf[probe.pos] == '[' || isspace(probe.buf[probe.pos]))) {
        if (probe.buf[probe.pos++] == '[' && ++t.rank > RTV_MAX_RANK)
            return rtv_text_fail(r, probe.pos, err, errlen, "array nested too deeply");
        rtv_skip_space(&probe);
    }
    t.elem = rtv_guess_elem(r);
    return rtv_read_text(r, t, out, err, errlen);
}

/* ---- Writing -------------------------------------------------------------- */

/* Formats one element of type t at p in Futhark's output syntax. */
static void rtv_format_scalar(char *buf, size_t n, rt_prim t, const void *p) {
    union { int8_t i8; int16_t i16; int32_t i32; int64_t i64; uint8_t u8; uint16_t u16;
            uint32_t u32; uint64_t u64; float f32; double f64; } x;
    memcpy(&x, p, (size_t)rtv_sizes[t]);
    double d = t == RT_F16 ? rt_conv_f16_f32(x.u16) : t == RT_F32 ? x.f32 : x.f64;
    switch (t) {
    case RT_I8: snprintf(buf, n, "%di8", x.i8); break;
    case RT_I16: snprintf(buf, n, "%di16", x.i16); break;
    case RT_I32: snprintf(buf, n, "%" PRId32 "i32", x.i32); break;
    case RT_I64: snprintf(buf, n, "%" PRId64 "i64", x.i64); break;
    case RT_U8: snprintf(buf, n, "%uu8", x.u8); break;
    case RT_U16: snprintf(buf, n, "%uu16", x.u16); break;
    case RT_U32: snprintf(buf, n, "%" PRIu32 "u32", x.u32); break;
    case RT_U64: snprintf(buf, n, "%" PRIu64 "u64", x.u64); break;
    case RT_BOOL: snprintf(buf, n, "%s", x.u8 ? "true" : "false"); break;
    default:
        if (isnan(d)) snprintf(buf, n, "%s.nan", rtv_names[t]);
        else if (isinf(d)) snprintf(buf, n, "%s%s.inf", d < 0 ? "-" : "", rtv_names[t]);
        else snprintf(buf, n, t == RT_F16 ? "%.5g%s" : t == RT_F32 ? "%.9g%s" : "%.17g%s", d, rtv_names[t]);
    }
}

/* Writes the rows of v from dimension dim on, starting at element *p. */
static void rtv_write_rows(FILE *f, const rt_value *v, int dim, const unsigned char **p) {
    size_t esz = (size_t)rtv_sizes[v->type.elem];
    char buf[64];
    fputc('[', f);
    for (int64_t i = 0; i < v->shape[dim]; i++) {
        if (i > 0) fputs(", ", f);
        if (dim + 1 < v->type.rank) {
            rtv_write_rows(f, v, dim + 1, p);
        } else {
            rtv_format_scalar(buf, sizeof buf, v->type.elem, *p);
            fputs(buf, f);
            *p += esz;
        }
    }
    fputc(']', f);
}

void rt_write_text(FILE *f, const rt_value *v) {
    char buf[64];
    if (v->type.rank == 0) {
        rtv_format_scalar(buf, sizeof buf, v->type.elem, v->data);
        fputs(buf, f);
    } else if (rt_value_count(v) == 0) {
        fputs("empty(", f);
        for (int i = 0; i < v->type.rank; i++) fprintf(f, "[%" PRId64 "]", v->shape[i]);
        fprintf(f, "%s)", rt_prim_name(v->type.elem));
    } else {
        const unsigned char *p = v->data;
        rtv_write_rows(f, v, 0, &p);
    }
}

static void rtv_put_le(FILE *f, uint64_t x, int n) {
    for (int i = 0; i < n; i++) fputc((int)(x >> (8 * i) & 0xff), f);
}

void rt_write_binary(FILE *f, const rt_value *v) {
    fputc('b', f);
    fputc(RTV_BIN_VERSION, f);
    fputc(v->type.rank, f);
    fwrite(rtv_tags[v->type.elem], 1, 4, f);
    for (int i = 0; i < v->type.rank; i++) rtv_put_le(f, (uint64_t)v->shape[i], 8);
    int esz = rtv_sizes[v->type.elem];
    size_t n = (size_t)rt_value_count(v);
    const unsigned char *p = v->data;
    if (rtv_little_endian() || esz == 1) {
        fwrite(p, (size_t)esz, n, f);
        return;
    }
    for (size_t i = 0; i < n; i++) rtv_put_le(f, rtv_load_le(p + i * (size_t)esz, esz), esz);
}

/* ---- Comparing ------------------------------------------------------------ */

static double rtv_float_at(const rt_value *v, int64_t i) {
    if (v->type.elem == RT_F16) {
        uint16_t h;
        memcpy(&h, (const char *)v->data + 2 * i, 2);
        return rt_conv_f16_f32(h);
    }
    if (v->type.elem == RT_F32) {
        float f;
        memcpy(&f, (const char *)v->data + 4 * i, 4);
        return f;
    }
    double d;
    memcpy(&d, (const char *)v->data + 8 * i, 8);
    return d;
}

/* The absolute tolerance for comparing against exp: the larger of
 * RTV_TOLERANCE and RTV_TOLERANCE times the largest finite expected element
 * (signed, as Futhark does). */
static double rtv_tolerance(const rt_value *exp) {
    double tol = RTV_TOLERANCE;
    int64_t n = rt_value_count(exp);
    for (int64_t i = 0; i < n; i++) {
        double x = rtv_float_at(exp, i);
        if (isfinite(x) && RTV_TOLERANCE * x > tol) tol = RTV_TOLERANCE * x;
    }
    return tol;
}

static bool rtv_elem_match(const rt_value *got, const rt_value *exp, int64_t i, double tol) {
    if (!rtv_is_float(exp->type.elem)) {
        size_t esz = (size_t)rtv_sizes[exp->type.elem];
        return !memcmp((const char *)got->data + (size_t)i * esz,
                       (const char *)exp->data + (size_t)i * esz, esz);
    }
    double g = rtv_float_at(got, i), e = rtv_float_at(exp, i);
    if (isnan(g) || isnan(e)) return isnan(g) && isnan(e);
    if (isinf(g) || isinf(e)) return g == e;
    return fabs(g - e) <= tol;
}

/* Writes the multi-index of flat element i of v as "[a, b]". */
static void rtv_index_str(const rt_value *v, int64_t i, char *buf, size_t n) {
    int64_t idx[RTV_MAX_RANK];
    int rank = v->type.rank < RTV_MAX_RANK ? v->type.rank : RTV_MAX_RANK;
    for (int d = rank - 1; d >= 0; d--) {
        idx[d] = v->shape[d] ? i % v->shape[d] : 0;
        i = v->shape[d] ? i / v->shape[d] : 0;
    }
    size_t k = (size_t)snprintf(buf, n, "[");
    for (int d = 0; d < rank && k < n; d++)
        k += (size_t)snprintf(buf + k, n - k, "%s%" PRId64, d ? ", " : "", idx[d]);
    if (k < n) snprintf(buf + k, n - k, "]");
}

static void rtv_shape_str(const rt_value *v, char *buf, size_t n) {
    size_t k = 0;
    buf[0] = 0;
    for (int d = 0; d < v->type.rank && k < n; d++)
        k += (size_t)snprintf(buf + k, n - k, "[%" PRId64 "]", v->shape[d]);
}

bool rt_values_match(const rt_value *got, const rt_value *expected, char *err, size_t errlen) {
    char a[300], b[300];
    if (got->type.elem != expected->type.elem || got->type.rank != expected->type.rank) {
        rtv_type_str(expected->type, a, sizeof a);
        rtv_type_str(got->type, b, sizeof b);
        return rtv_fail(err, errlen, "expected a value of type %s, got a value of type %s", a, b);
    }
    for (int d = 0; d < got->type.rank; d++)
        if (got->shape[d] != expected->shape[d]) {
            rtv_shape_str(expected, a, sizeof a);
            rtv_shape_str(got, b, sizeof b);
            return rtv_fail(err, errlen, "expected shape %s, got shape %s", a, b);
        }
    int64_t n = rt_value_count(expected);
    double tol = rtv_is_float(expected->type.elem) ? rtv_tolerance(expected) : 0;
    size_t esz = (size_t)rtv_sizes[expected->type.elem];
    for (int64_t i = 0; i < n; i++) {
        if (rtv_elem_match(got, expected, i, tol)) continue;
        char e[64], g[64], idx[300] = "";
        rtv_format_scalar(e, sizeof e, expected->type.elem, (const char *)expected->data + i * esz);
        rtv_format_scalar(g, sizeof g, got->type.elem, (const char *)got->data + i * esz);
        if (got->type.rank > 0) {
            rtv_index_str(expected, i, idx + 9, sizeof idx - 9);
            memcpy(idx, "at index ", 9);
        }
        return rtv_fail(err, errlen, "%s%sexpected %s, got %s", idx, *idx ? ": " : "", e, g);
    }
    return true;
}

#undef RTV_TOLERANCE
#undef RTV_MAX_TOKEN
#undef RTV_MAX_RANK
#undef RTV_BIN_HEADER
#undef RTV_BIN_VERSION
