/* Helpers shared by the fuzz targets (fuzz.h). */
#include "fuzz.h"

#include <sanitizer/common_interface_defs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *fuzz_cstr(const uint8_t *data, size_t size) {
    char *s = malloc(size + 1);
    if (!s) abort();
    if (size) memcpy(s, data, size);
    s[size] = 0;
    return s;
}

void fuzz_fail(const char *file, int line, const char *fmt, ...) {
    char msg[1024];
    int k = snprintf(msg, sizeof msg, "fuzz oracle failed at %s:%d: ", file, line);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + k, sizeof msg - (size_t)k, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", msg);
    __sanitizer_report_error_summary(msg);
    abort();
}
