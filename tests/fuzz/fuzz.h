/* What the libFuzzer targets of tests/fuzz share: one C file per target
 * defines LLVMFuzzerTestOneInput, linked with fuzz.c (see README.md,
 * "Fuzzing"). */
#ifndef FUTHORC_FUZZ_H
#define FUTHORC_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* The path the compiler targets give their input: a directory that does
 * not exist, so that imports fail to load the same way every time. */
#define FUZZ_SOURCE_PATH "/nonexistent-futhorc-fuzz/input.fut"

/* Runs the target on one input; libFuzzer calls it. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A malloc'd copy of data with a NUL after it (data may hold NULs too). */
char *fuzz_cstr(const uint8_t *data, size_t size);

/* An oracle: when cond is false, reports the message (on stderr and as the
 * sanitizer's summary line, which libFuzzer prints even with stderr
 * closed) and aborts, a crash whose input libFuzzer keeps. */
#define FUZZ_CHECK(cond, ...) ((cond) ? (void)0 : fuzz_fail(__FILE__, __LINE__, __VA_ARGS__))
void fuzz_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));

#endif
