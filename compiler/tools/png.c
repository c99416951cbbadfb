/* A PNG encoder (W3C PNG, 2nd edition): one IHDR, IDAT chunks of zlib data
 * made of stored (uncompressed) deflate blocks (RFC 1950/1951), IEND. The
 * files are as large as the pixels, which keeps the encoder this small and
 * needs no library; any viewer reads them. */
#include "tools/png.h"

#include <stdlib.h>
#include <string.h>

/* Largest stored deflate block: its length field has 16 bits. */
enum { PNG_STORED_MAX = 65535 };

static uint32_t crc_table[256];

static void crc_init(void) {
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[n] = c;
    }
}

static uint32_t crc_update(uint32_t crc, const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) crc = crc_table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
    return crc;
}

static void put32(uint8_t *p, uint32_t x) {
    p[0] = (uint8_t)(x >> 24), p[1] = (uint8_t)(x >> 16), p[2] = (uint8_t)(x >> 8), p[3] = (uint8_t)x;
}

/* One chunk: length, type, data, CRC of type and data. */
static bool chunk(FILE *f, const char *type, const uint8_t *data, uint32_t len) {
    uint8_t head[8];
    put32(head, len);
    memcpy(head + 4, type, 4);
    uint32_t crc = crc_update(crc_update(0xffffffffu, head + 4, 4), data, len) ^ 0xffffffffu;
    uint8_t tail[4];
    put32(tail, crc);
    return fwrite(head, 1, 8, f) == 8 && (len == 0 || fwrite(data, 1, len, f) == len) && fwrite(tail, 1, 4, f) == 4;
}

bool png_write(FILE *f, const uint8_t *rgba, uint32_t w, uint32_t h) {
    if (!crc_table[1]) crc_init();
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    uint8_t ihdr[13];
    put32(ihdr, w), put32(ihdr + 4, h);
    ihdr[8] = 8, ihdr[9] = 6, ihdr[10] = ihdr[11] = ihdr[12] = 0; /* 8 bits, RGBA */
    if (fwrite(sig, 1, 8, f) != 8 || !chunk(f, "IHDR", ihdr, 13)) return false;
    /* the filtered image: each row starts with filter type 0 */
    size_t row = (size_t)w * 4 + 1, raw_len = row * h;
    size_t nblocks = raw_len / PNG_STORED_MAX + 1;
    size_t zlen = 2 + raw_len + 5 * nblocks + 4;
    uint8_t *z = malloc(zlen);
    if (!z) return false;
    size_t o = 0;
    z[o++] = 0x78, z[o++] = 0x01; /* deflate, 32 KiB window, no dictionary */
    uint32_t a = 1, b = 0; /* Adler-32 of the raw data */
    size_t done = 0, block_left = 0;
    for (uint32_t y = 0; y < h; y++)
        for (size_t x = 0; x < row; x++) {
            if (block_left == 0) {
                size_t n = raw_len - done < PNG_STORED_MAX ? raw_len - done : PNG_STORED_MAX;
                z[o++] = done + n == raw_len; /* BFINAL on the last block, BTYPE 00 */
                z[o++] = (uint8_t)n, z[o++] = (uint8_t)(n >> 8);
                z[o++] = (uint8_t)~n, z[o++] = (uint8_t)(~n >> 8);
                block_left = n;
            }
            uint8_t byte = x == 0 ? 0 : rgba[(size_t)y * w * 4 + x - 1];
            z[o++] = byte;
            a = (a + byte) % 65521, b = (b + a) % 65521;
            done++, block_left--;
        }
    if (raw_len == 0) z[o++] = 1, z[o++] = 0, z[o++] = 0, z[o++] = 0xff, z[o++] = 0xff;
    put32(z + o, (b << 16) | a);
    o += 4;
    bool ok = chunk(f, "IDAT", z, (uint32_t)o) && chunk(f, "IEND", NULL, 0);
    free(z);
    return ok;
}
