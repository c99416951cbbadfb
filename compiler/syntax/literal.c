/* Lexer support: source positions, decoding of numeric, character and
 * string literals (with range checks against their type suffixes),
 * qualified names and doc comments. Called from the actions in lexer.l. */
#include "syntax_internal.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest numeric literal we decode; longer ones cannot be valid numbers
 * of any supported type (u64 needs 64 binary digits plus prefix/suffix and
 * separators, and floats do not need more precision than this). */
enum { LIT_NUM_MAX = 512 };

PtrList *plist_push(Arena *a, PtrList *l, void *x) {
    if (!l) l = NEW(a, PtrList);
    if (l->len == l->cap) {
        int cap = l->cap ? 2 * l->cap : 4;
        void **items = NEW_ARRAY(a, void *, cap);
        COPY_ARRAY(items, l->items, l->len);
        l->items = items;
        l->cap = cap;
    }
    l->items[l->len++] = x;
    return l;
}

/* Sets loc to the span of text starting at the current position and moves
 * the position past it; also remembers the text for error messages. */
void lex_step(LexState *ls, SrcLoc *loc, const char *text, int len) {
    loc->file = ls->file;
    loc->line = ls->line;
    loc->col = ls->col;
    for (int i = 0; i < len; i++) {
        if (text[i] == '\n') {
            ls->line++;
            ls->col = 1;
        } else {
            ls->col++;
        }
    }
    loc->end_line = ls->line;
    loc->end_col = ls->col;
    int n = len < LEX_TEXT_MAX ? len : LEX_TEXT_MAX;
    memcpy(ls->last_text, text, (size_t)n);
    strcpy(ls->last_text + n, len > n ? "..." : "");
}

/* Copies text without '_' separators into out (of LIT_NUM_MAX bytes). */
static bool strip_underscores(const char *text, char *out) {
    size_t n = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '_') continue;
        if (n + 1 >= LIT_NUM_MAX) return false;
        out[n++] = *p;
    }
    out[n] = 0;
    return true;
}

static bool suffix_type(const char *s, PrimType *out) {
    static const struct { const char *name; PrimType t; } table[] = {
        {"i8", PT_I8},   {"i16", PT_I16}, {"i32", PT_I32}, {"i64", PT_I64},
        {"u8", PT_U8},   {"u16", PT_U16}, {"u32", PT_U32}, {"u64", PT_U64},
        {"f16", PT_F16}, {"f32", PT_F32}, {"f64", PT_F64},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (strcmp(s, table[i].name) == 0) {
            *out = table[i].t;
            return true;
        }
    }
    return false;
}

static int suffix_bits(PrimType t) {
    switch (t) {
    case PT_I8: case PT_U8: return 8;
    case PT_I16: case PT_U16: return 16;
    case PT_I32: case PT_U32: return 32;
    default: return 64;
    }
}

/* Accumulates the digits of s in base; false on overflow of 64 bits. */
static bool parse_digits(const char *s, int base, uint64_t *out) {
    uint64_t v = 0;
    for (; *s; s++) {
        int d = *s >= '0' && *s <= '9' ? *s - '0'
              : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
              : *s - 'A' + 10;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) return false;
        v = v * (uint64_t)base + (uint64_t)d;
    }
    *out = v;
    return true;
}

/* Decodes an integer literal such as 1_000, 0xFFu8 or 0b101i64. */
void lex_int(LexState *ls, Tok *t, const char *text, SrcLoc loc) {
    char buf[LIT_NUM_MAX];
    if (!strip_underscores(text, buf)) {
        diag_error(loc, "integer literal is too long");
        return;
    }
    char *suf = strpbrk(buf, "iu");
    if (suf) {
        t->has_suffix = suffix_type(suf, &t->suffix);
        *suf = 0;
    }
    int base = 10;
    const char *digits = buf;
    if (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) base = 16, digits = buf + 2;
    if (buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B')) base = 2, digits = buf + 2;
    if (!parse_digits(digits, base, &t->ival)) {
        diag_error(loc, "integer literal %s is too large", text);
        return;
    }
    /* a suffixed literal is its value modulo 2^N, as Futhark's lexer reads
     * it (fluid.fut's 255i8 is -1); an unsuffixed one is checked against
     * its inferred type */
    int bits = t->has_suffix ? suffix_bits(t->suffix) : 64;
    if (bits < 64) t->ival &= ((uint64_t)1 << bits) - 1;
}

/* Decodes a float literal: decimal, such as 0.5f32, 1e-3 or 2f64, or
 * hexadecimal with a binary exponent, such as 0xf.fp1 or 0x1.8p-2f32. */
void lex_float(LexState *ls, Tok *t, const char *text, SrcLoc loc) {
    char buf[LIT_NUM_MAX];
    if (!strip_underscores(text, buf)) {
        diag_error(loc, "decimal literal is too long");
        return;
    }
    /* a hexadecimal float's suffix follows its binary exponent (p) */
    bool hex = buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X');
    char *from = hex ? strpbrk(buf, "pP") : buf;
    char *suf = from ? strchr(from, 'f') : NULL;
    if (suf) {
        if (!suffix_type(suf, &t->suffix)) {
            diag_error(loc, "literal suffix %s is not supported", suf);
            return;
        }
        t->has_suffix = true;
        *suf = 0;
    }
    errno = 0;
    t->fval = strtod(buf, NULL);
    bool too_big = isinf(t->fval) || (t->has_suffix && t->suffix == PT_F32 && t->fval > FLT_MAX) ||
                   (t->has_suffix && t->suffix == PT_F16 && isinf(prim_float(PT_F16, t->fval).v.f));
    if (too_big) diag_error(loc, "literal %s is out of bounds for its type", text);
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Reads n hex digits at s into *out; false if they are not all there. */
static bool read_hex(const char *s, const char *end, int n, uint32_t *out) {
    uint32_t v = 0;
    for (int i = 0; i < n; i++) {
        if (s + i >= end || hexval(s[i]) < 0) return false;
        v = v * 16 + (uint32_t)hexval(s[i]);
    }
    *out = v;
    return true;
}

/* Appends code point c to b as UTF-8. */
static void put_utf8(Buf *b, uint32_t c) {
    if (c < 0x80) {
        buf_putc(b, (char)c);
    } else if (c < 0x800) {
        buf_putc(b, (char)(0xc0 | (c >> 6)));
        buf_putc(b, (char)(0x80 | (c & 0x3f)));
    } else if (c < 0x10000) {
        buf_putc(b, (char)(0xe0 | (c >> 12)));
        buf_putc(b, (char)(0x80 | ((c >> 6) & 0x3f)));
        buf_putc(b, (char)(0x80 | (c & 0x3f)));
    } else {
        buf_putc(b, (char)(0xf0 | ((c >> 18) & 0x07)));
        buf_putc(b, (char)(0x80 | ((c >> 12) & 0x3f)));
        buf_putc(b, (char)(0x80 | ((c >> 6) & 0x3f)));
        buf_putc(b, (char)(0x80 | (c & 0x3f)));
    }
}

/* Decodes one escape sequence at *p (just after the backslash) into b,
 * advancing *p. Returns false for an unknown or malformed escape. Bytes
 * from \xHH are stored as they are; \u and \U produce UTF-8. */
static bool decode_escape(const char **p, const char *end, Buf *b) {
    char c = **p;
    (*p)++;
    static const char simple_in[] = "ntr\\\"'0abfv";
    static const char simple_out[] = "\n\t\r\\\"'\0\a\b\f\v";
    const char *s = c ? strchr(simple_in, c) : NULL;
    if (s) {
        buf_putc(b, simple_out[s - simple_in]);
        return true;
    }
    int n = c == 'x' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
    uint32_t v;
    if (n == 0 || !read_hex(*p, end, n, &v) || v > 0x10ffff) return false;
    *p += n;
    if (c == 'x') buf_putc(b, (char)v);
    else put_utf8(b, v);
    return true;
}

/* Decodes the body of a string literal; text includes the quotes. */
void lex_string(LexState *ls, Tok *t, const char *text, int len, SrcLoc loc) {
    Buf b = {0};
    const char *p = text + 1, *end = text + len - 1;
    while (p < end) {
        if (*p != '\\') {
            buf_putc(&b, *p++);
            continue;
        }
        p++;
        if (!decode_escape(&p, end, &b)) {
            diag_error(loc, "invalid escape sequence in string literal");
            break;
        }
    }
    t->str = arena_strndup(ls->arena, b.data ? b.data : "", b.len);
    t->len = (int)b.len;
    buf_free(&b);
}

/* Decodes the code point of UTF-8 bytes s[0..n). */
static uint32_t utf8_decode(const unsigned char *s, int n) {
    if (n == 1) return s[0];
    uint32_t v = s[0] & (0xff >> (n + 1));
    for (int i = 1; i < n; i++) v = (v << 6) | (s[i] & 0x3f);
    return v;
}

/* Decodes a character literal ('a', '\n', '\u00e9', 'é') to its code
 * point; text includes the quotes. */
void lex_char(LexState *ls, Tok *t, const char *text, int len, SrcLoc loc) {
    const char *p = text + 1, *end = text + len - 1;
    if (*p != '\\') {
        t->ival = utf8_decode((const unsigned char *)p, (int)(end - p));
        return;
    }
    p++;
    Buf b = {0};
    if (!decode_escape(&p, end, &b) || p != end) {
        diag_error(loc, "invalid character literal");
    } else if (text[2] == 'u' || text[2] == 'U') {
        t->ival = utf8_decode((const unsigned char *)b.data, (int)b.len);
    } else {
        t->ival = (unsigned char)b.data[0];
    }
    buf_free(&b);
}

/* Splits "a.b.0" into interned parts. */
void lex_qualname(LexState *ls, Tok *t, const char *text, int len) {
    int n = 1;
    for (int i = 0; i < len; i++) n += text[i] == '.';
    t->qn.parts = NEW_ARRAY(ls->arena, const char *, n);
    t->qn.nparts = n;
    int k = 0, start = 0;
    for (int i = 0; i <= len; i++) {
        if (i == len || text[i] == '.') {
            t->qn.parts[k++] = intern_n(text + start, (size_t)(i - start));
            start = i + 1;
        }
    }
    t->text = t->qn.parts[n - 1];
}

/* Records a doc comment line: the first line ("-- | text") starts a new
 * pending doc, later lines ("-- more") extend it. */
void lex_doc_line(LexState *ls, const char *text, bool first) {
    const char *p = text + 2;
    if (first) {
        while (*p == ' ' || *p == '\t') p++;
        p++; /* the '|' */
    }
    if (*p == ' ') p++;
    size_t n = strlen(p);
    while (n && (p[n - 1] == '\r' || p[n - 1] == ' ')) n--;
    if (first || !ls->pending_doc) {
        ls->pending_doc = arena_strndup(ls->arena, p, n);
    } else {
        ls->pending_doc = arena_printf(ls->arena, "%s\n%.*s", ls->pending_doc, (int)n, p);
    }
    ls->doc_open = true;
}

/* Reports a character that starts no token. */
void lex_bad_char(LexState *ls, const char *text, SrcLoc loc) {
    unsigned char c = (unsigned char)text[0];
    if (c >= 0x20 && c < 0x7f)
        diag_error(loc, "Unexpected character '%c'", c);
    else
        diag_error(loc, "Unexpected byte 0x%02x", c);
}

bool syn_is_operator_name(const char *name) {
    return name && name[0] && strchr("+-*/%=!><|&^", name[0]) != NULL;
}
