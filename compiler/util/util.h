/* Shared infrastructure for the whole compiler: arenas, growable vectors,
 * string interning, string buffers, source locations and diagnostics. */
#ifndef FUTHORC_UTIL_H
#define FUTHORC_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* ---- Internal compiler errors -------------------------------------------- */

/* Aborts with the compiler's own file and line: for broken invariants only,
 * never for bad user input. */
#define ICE(...) util_ice(__FILE__, __LINE__, __VA_ARGS__)
void util_ice(const char *file, int line, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));

/* ---- Arenas --------------------------------------------------------------- */

/* Bump allocator: everything allocated from an arena is freed at once by
 * arena_free. Memory is zero-initialised. */
typedef struct ArenaChunk ArenaChunk;
typedef struct Arena {
    ArenaChunk *chunks;
} Arena;

void *arena_alloc(Arena *a, size_t size);
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void arena_free(Arena *a);

#define NEW(arena, T) ((T *)arena_alloc((arena), sizeof(T)))
#define NEW_ARRAY(arena, T, n) ((T *)arena_alloc((arena), sizeof(T) * (size_t)(n)))

/* ---- Growable vectors ----------------------------------------------------- */

/* A vector is a struct { T *items; int len, cap; }. Declare one with VEC(T).
 * Storage is malloc'd; vec_free releases it, vec_to_arena copies it into an
 * arena (returning the arena array) so IR nodes can own it. */
#define VEC(T) struct { T *items; int len, cap; }
#define vec_push(v, x)                                                           \
    do {                                                                         \
        if ((v)->len == (v)->cap) util_grow((void **)&(v)->items, &(v)->cap,     \
                                            sizeof(*(v)->items));                \
        (v)->items[(v)->len++] = (x);                                            \
    } while (0)
/* vec_push_in is vec_push with the storage in arena: for vectors that a
 * longjmp may abandon (the internaliser's, see lower_error). Such a
 * vector's storage goes with its arena; never vec_free it. */
#define vec_push_in(arena, v, x)                                                 \
    do {                                                                         \
        if ((v)->len == (v)->cap) util_grow_in((arena), (void **)&(v)->items,    \
                                               &(v)->cap, sizeof(*(v)->items));  \
        (v)->items[(v)->len++] = (x);                                            \
    } while (0)
#define vec_free(v) (free((v)->items), (v)->items = NULL, (v)->len = (v)->cap = 0)
#define vec_to_arena(arena, v)                                                   \
    util_memdup((arena), (v)->items, sizeof(*(v)->items) * (size_t)(v)->len)
void util_grow(void **items, int *cap, size_t elem_size);
void util_grow_in(Arena *a, void **items, int *cap, size_t elem_size);
void *util_memdup(Arena *a, const void *p, size_t n);

/* ---- Arrays that may be empty --------------------------------------------- */

/* memcpy and qsort for arrays of n elements where n may be 0: then either
 * pointer may be NULL, as an empty vector's items are (the C library's
 * functions require valid pointers even for no elements). COPY_ARRAY copies
 * n elements of *dst's type. */
void util_copy(void *dst, const void *src, size_t bytes);
void util_sort(void *items, size_t n, size_t size, int (*cmp)(const void *, const void *));
#define COPY_ARRAY(dst, src, n) util_copy((dst), (src), sizeof *(dst) * (size_t)(n))

/* ---- String buffers ------------------------------------------------------- */

typedef struct Buf {
    char *data;
    size_t len, cap;
} Buf;

void buf_putc(Buf *b, char c);
void buf_puts(Buf *b, const char *s);
void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(Buf *b, const char *fmt, va_list ap);
void buf_free(Buf *b);

/* ---- Interned strings ----------------------------------------------------- */

/* Returns a canonical copy of s, so interned strings compare with ==. The
 * table lives for the whole process. */
const char *intern(const char *s);
const char *intern_n(const char *s, size_t n);

/* ---- Files ---------------------------------------------------------------- */

/* Reads a whole file; NULL (with errno set) when it cannot be read. The result
 * is malloc'd and NUL-terminated; *len receives its length if len != NULL. */
char *util_read_file(const char *path, size_t *len);

/* Writes len bytes of data to path, created or truncated; false (with errno
 * set) when it cannot. */
bool util_write_file(const char *path, const void *data, size_t len);

/* Creates the directory path and those above it that are missing (mkdir -p);
 * false (with errno set) when one cannot be created. */
bool util_make_dirs(const char *path);

/* ---- Source locations and diagnostics ------------------------------------ */

/* A half-open span in one source file; lines and columns count from 1. */
typedef struct SrcLoc {
    const char *file; /* interned path as given by the user */
    int line, col;
    int end_line, end_col;
} SrcLoc;

SrcLoc loc_span(SrcLoc from, SrcLoc to);

/* Source texts are registered so diagnostics can show the offending line;
 * registering a file again replaces its text. */
void diag_register_source(const char *file, const char *text);
/* The source text that loc spans, its lines joined by one space (to be
 * freed), or NULL when loc's file is not registered or loc spans nothing. */
char *diag_source_span(SrcLoc loc);

/* Prints "file:line:col: error: message", the source line and a caret line
 * to stderr and counts the error. */
void diag_error(SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_verror(SrcLoc loc, const char *fmt, va_list ap);
/* Same, with "note:" and without counting. */
void diag_note(SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int diag_error_count(void);
void diag_reset(void);

/* Stop collecting diagnostics after this many errors: more are rarely useful
 * and a cascade after a bad parse only hides the first cause. */
enum { DIAG_MAX_ERRORS = 20 };

#endif
