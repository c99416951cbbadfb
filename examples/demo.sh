#!/usr/bin/env bash
# `make demo`: compiles examples/mandelbrot.fut with futhorc, renders an
# image with it and writes it as a PPM file.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/demo
mkdir -p "$out"
bin/futhorc c examples/mandelbrot.fut -o "$out/mandelbrot"
width=800 height=600 iters=255
# The entry returns a [height][width][3]u8 image; in the binary value format
# that is a 31-byte header (magic, version, rank, type, three dimensions)
# followed by the pixels, which is exactly the body of a binary PPM file.
{
  printf 'P6\n%d %d\n255\n' "$width" "$height"
  echo "$width $height $iters" | "$out/mandelbrot" -b | tail -c +32
} > "$out/mandelbrot.ppm"
echo "futhorc demo: wrote a ${width}x${height} Mandelbrot image to $out/mandelbrot.ppm"
