/* What irregular.c and irregular_desc.c share: an irregular array's
 * descriptor (lower.h's Irreg) and the descriptor's arithmetic. */
#ifndef FUTHORC_LOWER_IRREGULAR_H
#define FUTHORC_LOWER_IRREGULAR_H

#include "lower.h"

/* Row i's size a * i + b: a a constant, b a constant or a variable bound
 * outside the rows (Lift's position-dependent sizes: a triangle's i + 1,
 * a band's constant width). */
typedef struct Affine {
    int64_t a;
    SubExp b;
} Affine;

struct Irreg {
    SubExp n;        /* rows */
    int rank;        /* a row's */
    SubExp *dims;    /* [rank]: the rows' size in dimension d, the same for every row, or
                        (vary[d]) an [n]i64 array of each row's */
    bool *vary;
    SubExp counts;   /* [n]i64: the elements of each row */
    SubExp offsets;  /* [n]i64: where each row starts in the flat array */
    bool view;       /* the rows are part of the flat array, not all of it (flat_of) */
    bool closed;     /* rank 1, counts[i] = f.a * i + f.b: offsets and counts have closed
                        forms (irr_offset_at, irr_count_at), which uses compute where needed */
    Affine f;
    bool shifted;    /* rank 1, row i starts at from[i] - shift: the rows are those of
                        another irregular array (of offsets from, into its flat array)
                        kept by a map that made them from position 0 on; irr_offset_at
                        and the search for a position's row read from, so that offsets
                        (made too, for what needs the array) is made only where needed */
    SubExp from, shift;
    SVal *rows;      /* an irregular array of irregular arrays: each row is counts[i]
                        rows of rows (an irregular array of rows of scalars) from
                        row offsets[i] on; the flat array is rows' */
};

/* The statement that l's current body (or the code around it, when it
 * is a branch's: Builder.up) binds v with, or NULL. */
const Stm *irr_bound_by(const Lower *l, const Var *v);
/* Element i of the array a (of scalars). */
SubExp irr_element(Lower *l, SubExp a, SubExp i, SrcLoc loc);
/* The identity function on i64, as a lambda (the map of a Screma that
 * only scans or reduces its input). */
Lambda *irr_identity_i64(Lower *l);
/* iota n, of i64. */
SubExp irr_iota(Lower *l, SubExp n, SrcLoc loc);
/* replicate n x. */
SubExp irr_replicate(Lower *l, SubExp n, SubExp x, SrcLoc loc);
/* Where row i of r starts, and its element count. */
SubExp irr_offset_at(Lower *l, const Irreg *r, SubExp i, SrcLoc loc);
SubExp irr_count_at(Lower *l, const Irreg *r, SubExp i, SrcLoc loc);
/* Addition of non-negative i64 (sizes) that gives -1 once the sum passes
 * 2^63-1 or an operand is -1. */
SegOp *irr_sum_op(Lower *l, SrcLoc loc);
/* The sum of the [n]i64 array sizes, checked not to pass 2^63-1. */
SubExp irr_sum_sizes(Lower *l, SubExp n, SubExp sizes, SrcLoc loc);
/* Sets r's offsets (or closed form) from its counts (r->n of them, iota
 * their indices) and returns the total. */
SubExp irr_offsets(Lower *l, Irreg *r, SubExp iota, SrcLoc loc);
/* The anchors of r's rows (total positions), and the row of position p
 * (in the current body) from them. */
SubExp irr_anchors(Lower *l, const Irreg *r, SubExp total, SrcLoc loc);
SubExp irr_row_at(Lower *l, const Irreg *r, SubExp anchor, SubExp p, SrcLoc loc);
/* [total]bool, true at the first position of each of r's rows: a
 * scatter at their offsets (an empty row's is the next row's first
 * position, or total, where nothing is written). */
SubExp irr_head_flags(Lower *l, const Irreg *r, SubExp total, SrcLoc loc);

#endif
