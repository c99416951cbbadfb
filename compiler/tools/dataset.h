/* `futhorc dataset`: random values of given types in Futhark's textual or
 * binary data format, as `futhark dataset` writes them (survey §2.1). */
#ifndef FUTHORC_TOOLS_DATASET_H
#define FUTHORC_TOOLS_DATASET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rt.h"

/* Deepest array type generated: the binary format stores the rank in a
 * signed byte. */
enum { DATASET_MAX_RANK = 127 };

/* A type with sizes, such as [10][20]f32. */
typedef struct DatasetType {
    rt_prim elem;
    int rank;
    int64_t dims[DATASET_MAX_RANK];
} DatasetType;

/* Inclusive bounds of generated values per element type: integers as the
 * bit patterns of their 64-bit extension (signed or not), floats as doubles
 * (the default [0,1) is half-open). */
typedef struct DatasetBounds {
    uint64_t ilo[RT_PRIM_COUNT], ihi[RT_PRIM_COUNT];
    double flo[RT_PRIM_COUNT], fhi[RT_PRIM_COUNT];
} DatasetBounds;

/* The generator (SplitMix64): a fixed, portable sequence per seed. */
typedef struct DatasetRng {
    uint64_t state;
} DatasetRng;

void dataset_rng_seed(DatasetRng *r, uint64_t seed);
uint64_t dataset_rng_next(DatasetRng *r);

/* Parses "[10][20]f32", "i64" ...; false with a message in err. */
bool dataset_parse_type(const char *s, DatasetType *t, char *err, size_t errlen);

/* The default bounds: integers over their whole range, floats in [0,1). */
void dataset_default_bounds(DatasetBounds *b);

/* Applies an option "--T-bounds=MIN:MAX" (given without the leading dashes
 * as "T-bounds=MIN:MAX"); false with a message in err. */
bool dataset_set_bounds(DatasetBounds *b, const char *opt, char *err, size_t errlen);

/* Fills out with a random value of type t within bounds b, drawn from r;
 * false (with a message) when out of memory or too large. */
bool dataset_generate(const DatasetType *t, const DatasetBounds *b, DatasetRng *r, rt_value *out,
                      char *err, size_t errlen);

/* Writes one value per word (a type such as [100]i32 with the default
 * bounds, or a literal value such as 10i64) to out in the binary format,
 * value k drawn from a generator seeded with seed + k: the output of
 * `futhorc dataset -b -s SEED -g W1 -g W2 ...`. False with a message in err. */
bool dataset_write_binary(FILE *out, const char *const *words, int nwords, uint64_t seed, char *err,
                          size_t errlen);

/* Runs `futhorc dataset` (argv[0] is "dataset") reading stdin from in (when
 * no -g is given), writing values to out and messages to err. Returns the
 * exit status. */
int dataset_run(int argc, char **argv, FILE *in, FILE *out, FILE *err);

/* `futhorc dataset` on the process's standard streams. */
int tool_dataset(int argc, char **argv);

#endif
