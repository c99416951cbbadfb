/* Writing PNG images (RGBA, 8 bits a channel) for futhorc literate's
 * :img and :video directives. */
#ifndef FUTHORC_TOOLS_PNG_H
#define FUTHORC_TOOLS_PNG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Writes the w x h image of rgba pixels (row-major, 4 bytes each) to f as a
 * PNG file; false on a write error. */
bool png_write(FILE *f, const uint8_t *rgba, uint32_t w, uint32_t h);

#endif
