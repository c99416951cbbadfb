"""Checks that HTML files are well formed (every element closed in order,
void elements excepted) and, for a browser screenshot, that it shows a
rendered page: the navigation bar's colour across the top and dark text
pixels below it.

    python3 check_html.py html FILE...
    python3 check_html.py screenshot FILE.png

Prints one line per problem and exits 1 if there was any.
"""

import struct
import sys
import zlib
from html.parser import HTMLParser

VOID = {"meta", "link", "br", "img", "hr", "input"}


class Balance(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.errors = [], []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1][0] != tag:
            self.errors.append("</%s> at %s closes %s" % (tag, self.getpos(), self.stack[-1:] or "nothing"))
        else:
            self.stack.pop()


def check_html(path):
    b = Balance()
    b.feed(open(path, encoding="utf-8").read())
    return b.errors + ["<%s> at %s is not closed" % t for t in b.stack]


def png_pixels(path):
    """(width, height, rows of RGB triples) of an 8-bit RGB or RGBA PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    assert depth == 8 and colour in (2, 6), "unexpected PNG format"
    bpp = 3 if colour == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp : x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


def check_screenshot(path):
    w, h, rows = png_pixels(path)
    errors = []
    nav = sum(1 for p in rows[10] if abs(p[0] - 0x5F) < 24 and p[1] < 40 and abs(p[2] - 0x1F) < 24)
    if nav < w // 2:
        errors.append("no navigation bar across the top (%d of %d pixels)" % (nav, w))
    body = rows[h // 8 :]
    dark = sum(1 for r in body for p in r if sum(p) < 3 * 110)
    total = len(body) * w
    if not 0.005 < dark / total < 0.5:
        errors.append("%.4f of the page below the bar is dark: no text, or no page" % (dark / total))
    text_rows = sum(1 for r in body if any(sum(p) < 3 * 110 for p in r))
    if text_rows < len(body) // 5:
        errors.append("text on only %d of %d rows" % (text_rows, len(body)))
    return errors


def main():
    errors = []
    if sys.argv[1] == "html":
        for f in sys.argv[2:]:
            errors += ["%s: %s" % (f, e) for e in check_html(f)]
    else:
        errors += ["%s: %s" % (sys.argv[2], e) for e in check_screenshot(sys.argv[2])]
    for e in errors:
        print(e)
    sys.exit(1 if errors else 0)


main()
