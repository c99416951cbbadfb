/* Arenas, vectors, buffers, interning, file reading and diagnostics. */
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void util_ice(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "futhorc: internal compiler error at %s:%d: ", file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "futhorc: out of memory (allocating %zu bytes)\n", n);
        exit(2);
    }
    return p;
}

/* ---- Arenas ---------------------------------------------------------------- */

/* Chunks are at least this big so small allocations amortise malloc calls. */
enum { ARENA_CHUNK_BYTES = 64 * 1024 };

struct ArenaChunk {
    ArenaChunk *next;
    size_t used, size;
    _Alignas(16) unsigned char data[];
};

void *arena_alloc(Arena *a, size_t size) {
    size = (size + 15) & ~(size_t)15;
    ArenaChunk *c = a->chunks;
    if (!c || c->size - c->used < size) {
        size_t cap = size > ARENA_CHUNK_BYTES ? size : ARENA_CHUNK_BYTES;
        c = xmalloc(sizeof(ArenaChunk) + cap);
        c->size = cap;
        c->used = 0;
        c->next = a->chunks;
        a->chunks = c;
    }
    void *p = c->data + c->used;
    c->used += size;
    memset(p, 0, size);
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n) {
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *arena_strdup(Arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

char *arena_printf(Arena *a, const char *fmt, ...) {
    Buf b = {0};
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    char *s = arena_strndup(a, b.data ? b.data : "", b.len);
    buf_free(&b);
    return s;
}

void arena_free(Arena *a) {
    ArenaChunk *c = a->chunks;
    while (c) {
        ArenaChunk *next = c->next;
        free(c);
        c = next;
    }
    a->chunks = NULL;
}

/* ---- Vectors ---------------------------------------------------------------- */

void util_grow(void **items, int *cap, size_t elem_size) {
    int ncap = *cap ? *cap * 2 : 8;
    void *p = realloc(*items, (size_t)ncap * elem_size);
    if (!p) {
        fprintf(stderr, "futhorc: out of memory\n");
        exit(2);
    }
    *items = p;
    *cap = ncap;
}

void util_grow_in(Arena *a, void **items, int *cap, size_t elem_size) {
    int ncap = *cap ? *cap * 2 : 8;
    void *p = arena_alloc(a, (size_t)ncap * elem_size);
    util_copy(p, *items, (size_t)*cap * elem_size);
    *items = p;
    *cap = ncap;
}

void *util_memdup(Arena *a, const void *p, size_t n) {
    if (n == 0) return NULL;
    void *q = arena_alloc(a, n);
    memcpy(q, p, n);
    return q;
}

/* ---- Arrays that may be empty -------------------------------------------------- */

void util_copy(void *dst, const void *src, size_t bytes) {
    if (bytes) memcpy(dst, src, bytes);
}

void util_sort(void *items, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
    if (n > 1) qsort(items, n, size, cmp);
}

/* ---- Buffers ---------------------------------------------------------------- */

static void buf_reserve(Buf *b, size_t extra) {
    if (b->len + extra + 1 <= b->cap) return;
    size_t ncap = b->cap ? b->cap * 2 : 256;
    while (ncap < b->len + extra + 1) ncap *= 2;
    char *p = realloc(b->data, ncap);
    if (!p) {
        fprintf(stderr, "futhorc: out of memory\n");
        exit(2);
    }
    b->data = p;
    b->cap = ncap;
}

void buf_putc(Buf *b, char c) {
    buf_reserve(b, 1);
    b->data[b->len++] = c;
    b->data[b->len] = 0;
}

void buf_puts(Buf *b, const char *s) {
    size_t n = strlen(s);
    buf_reserve(b, n);
    memcpy(b->data + b->len, s, n + 1);
    b->len += n;
}

void buf_vprintf(Buf *b, const char *fmt, va_list ap) {
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    buf_reserve(b, (size_t)n);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void buf_printf(Buf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void buf_free(Buf *b) {
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

/* ---- Interning ---------------------------------------------------------------- */

typedef struct InternEntry {
    struct InternEntry *next;
    uint64_t hash;
    size_t len;
    char str[];
} InternEntry;

/* The table starts with this many buckets (a power of two) and doubles
 * whenever it holds twice as many strings, so that chains stay short
 * however many names a program has (a long chain of lets has one per
 * link). It lives for the whole process. */
enum { INTERN_MIN_BUCKETS = 4096 };
static InternEntry **intern_table;
static size_t intern_buckets, intern_count;

/* Rehashes the table into twice as many buckets (or the first ones). */
static void intern_grow(void) {
    size_t n = intern_buckets ? 2 * intern_buckets : INTERN_MIN_BUCKETS;
    InternEntry **t = xmalloc(n * sizeof *t);
    memset(t, 0, n * sizeof *t);
    for (size_t i = 0; i < intern_buckets; i++)
        for (InternEntry *e = intern_table[i], *next; e; e = next) {
            next = e->next;
            e->next = t[e->hash & (n - 1)];
            t[e->hash & (n - 1)] = e;
        }
    free(intern_table);
    intern_table = t;
    intern_buckets = n;
}

const char *intern_n(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    if (intern_count >= 2 * intern_buckets) intern_grow();
    InternEntry **bucket = &intern_table[h & (intern_buckets - 1)];
    for (InternEntry *e = *bucket; e; e = e->next)
        if (e->len == n && memcmp(e->str, s, n) == 0) return e->str;
    InternEntry *e = xmalloc(sizeof(InternEntry) + n + 1);
    e->hash = h;
    e->len = n;
    memcpy(e->str, s, n);
    e->str[n] = 0;
    e->next = *bucket;
    *bucket = e;
    intern_count++;
    return e->str;
}

const char *intern(const char *s) { return intern_n(s, strlen(s)); }

/* ---- Files ---------------------------------------------------------------- */

char *util_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    Buf b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        buf_reserve(&b, n);
        memcpy(b.data + b.len, chunk, n);
        b.len += n;
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        buf_free(&b);
        errno = EIO;
        return NULL;
    }
    buf_reserve(&b, 0);
    b.data[b.len] = 0;
    if (len) *len = b.len;
    return b.data;
}

bool util_write_file(const char *path, const void *data, size_t len) {
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(data, 1, len, f) == len;
    if (!ok) errno = EIO;
    if (fclose(f) != 0) ok = false;
    return ok;
}

bool util_make_dirs(const char *path) {
    char *p = strdup(path);
    if (!p) return false;
    bool ok = true;
    for (char *s = p + 1; ok && *s; s++)
        if (*s == '/') {
            *s = 0;
            ok = mkdir(p, 0777) == 0 || errno == EEXIST;
            *s = '/';
        }
    ok = ok && (mkdir(p, 0777) == 0 || errno == EEXIST);
    int err = errno;
    free(p);
    errno = err;
    return ok;
}

/* ---- Diagnostics ------------------------------------------------------------ */

SrcLoc loc_span(SrcLoc from, SrcLoc to) {
    SrcLoc l = from;
    l.end_line = to.end_line;
    l.end_col = to.end_col;
    return l;
}

typedef struct Source {
    struct Source *next;
    const char *file;
    const char *text;
} Source;

static Source *sources;
static int error_count;

void diag_register_source(const char *file, const char *text) {
    const char *key = intern(file);
    for (Source *s = sources; s; s = s->next)
        if (s->file == key) {
            s->text = text;
            return;
        }
    Source *s = xmalloc(sizeof *s);
    s->file = key;
    s->text = text;
    s->next = sources;
    sources = s;
}

/* The registered text of loc's file, or NULL. */
static const char *source_text(SrcLoc loc) {
    const char *file = loc.file ? intern(loc.file) : NULL;
    for (Source *s = sources; s && file; s = s->next)
        if (s->file == file) return s->text;
    return NULL;
}

/* The offset in text of column col of line line (1-based), or -1. */
static long text_offset(const char *text, int line, int col) {
    const char *p = text;
    for (int l = 1; l < line; p++) {
        if (!*p) return -1;
        if (*p == '\n') l++;
    }
    for (int c = 1; c < col; c++, p++)
        if (!*p || *p == '\n') return -1;
    return (long)(p - text);
}

char *diag_source_span(SrcLoc loc) {
    const char *text = source_text(loc);
    if (!text) return NULL;
    long from = text_offset(text, loc.line, loc.col), to = text_offset(text, loc.end_line, loc.end_col);
    if (from < 0 || to <= from) return NULL;
    char *out = xmalloc((size_t)(to - from) + 1), *w = out;
    for (const char *p = text + from; p < text + to; p++) {
        if (*p != '\n') {
            *w++ = *p;
            continue;
        }
        while (w > out && (w[-1] == ' ' || w[-1] == '\t')) w--;
        *w++ = ' ';
        while (p + 1 < text + to && (p[1] == ' ' || p[1] == '\t')) p++;
    }
    *w = 0;
    return out;
}

/* Prints the source line of loc and a caret under its columns. */
static void print_source_line(SrcLoc loc) {
    const char *p = source_text(loc);
    if (!p) return;
    for (int l = 1; l < loc.line && *p; p++)
        if (*p == '\n') l++;
    const char *end = strchr(p, '\n');
    int n = end ? (int)(end - p) : (int)strlen(p);
    fprintf(stderr, "%5d | %.*s\n      | ", loc.line, n, p);
    for (int i = 1; i < loc.col && i <= n; i++) fputc(p[i - 1] == '\t' ? '\t' : ' ', stderr);
    int width = (loc.end_line == loc.line && loc.end_col > loc.col) ? loc.end_col - loc.col : 1;
    for (int i = 0; i < width; i++) fputc('^', stderr);
    fputc('\n', stderr);
}

static void diag_emit(const char *kind, SrcLoc loc, const char *fmt, va_list ap) {
    if (loc.file)
        fprintf(stderr, "%s:%d:%d: %s: ", loc.file, loc.line, loc.col, kind);
    else
        fprintf(stderr, "futhorc: %s: ", kind);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    if (loc.file && loc.line > 0) print_source_line(loc);
}

void diag_verror(SrcLoc loc, const char *fmt, va_list ap) {
    error_count++;
    if (error_count > DIAG_MAX_ERRORS) return;
    diag_emit("error", loc, fmt, ap);
}

void diag_error(SrcLoc loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_verror(loc, fmt, ap);
    va_end(ap);
}

void diag_note(SrcLoc loc, const char *fmt, ...) {
    if (error_count > DIAG_MAX_ERRORS) return;
    va_list ap;
    va_start(ap, fmt);
    diag_emit("note", loc, fmt, ap);
    va_end(ap);
}

int diag_error_count(void) { return error_count; }
void diag_reset(void) { error_count = 0; }
