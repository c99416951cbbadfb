-- Mandelbrot set renderer.
--
-- For every pixel of a width x height image we take the point c of the
-- complex plane that the pixel covers (real part -2..1, imaginary part
-- -1..1) and iterate z := z*z + c from z = 0 until |z| > 2 or max_iter
-- iterations have passed.  Points that never escape are inside the set and
-- drawn black; the others are coloured by how quickly they escaped.
--
-- The result is a [height][width][3]u8 array of RGB pixels, which
-- examples/demo.sh writes out as a PPM image.
-- ==
-- input { 6i64 4i64 20 }
-- output { [[[12u8, 8u8, 243u8], [25u8, 16u8, 230u8], [38u8, 24u8, 217u8], [51u8, 32u8, 204u8],
--    [0u8, 0u8, 0u8], [25u8, 16u8, 230u8]], [[12u8, 8u8, 243u8], [38u8, 24u8, 217u8], [63u8, 40u8,
--    192u8], [0u8, 0u8, 0u8], [0u8, 0u8, 0u8], [63u8, 40u8, 192u8]], [[0u8, 0u8, 0u8], [0u8, 0u8,
--    0u8], [0u8, 0u8, 0u8], [0u8, 0u8, 0u8], [0u8, 0u8, 0u8], [63u8, 40u8, 192u8]], [[12u8, 8u8,
--    243u8], [38u8, 24u8, 217u8], [63u8, 40u8, 192u8], [0u8, 0u8, 0u8], [0u8, 0u8, 0u8], [63u8,
--    40u8, 192u8]]] }
-- input { 9i64 5i64 50 }
-- output { [[[5u8, 8u8, 250u8], [10u8, 16u8, 245u8], [15u8, 24u8, 240u8], [15u8, 24u8, 240u8],
--    [20u8, 32u8, 235u8], [25u8, 40u8, 230u8], [0u8, 0u8, 0u8], [15u8, 24u8, 240u8], [10u8, 16u8,
--    245u8]], [[5u8, 8u8, 250u8], [15u8, 24u8, 240u8], [15u8, 24u8, 240u8], [20u8, 32u8, 235u8],
--    [35u8, 56u8, 220u8], [0u8, 0u8, 0u8], [0u8, 0u8, 0u8], [71u8, 112u8, 184u8], [15u8, 24u8,
--    240u8]], [[5u8, 8u8, 250u8], [20u8, 32u8, 235u8], [35u8, 56u8, 220u8], [0u8, 0u8, 0u8], [0u8,
--    0u8, 0u8], [0u8, 0u8, 0u8], [0u8, 0u8, 0u8], [0u8, 0u8, 0u8], [20u8, 32u8, 235u8]], [[5u8,
--    8u8, 250u8], [20u8, 32u8, 235u8], [35u8, 56u8, 220u8], [0u8, 0u8, 0u8], [0u8, 0u8, 0u8], [0u8,
--    0u8, 0u8], [0u8, 0u8, 0u8], [0u8, 0u8, 0u8], [20u8, 32u8, 235u8]], [[5u8, 8u8, 250u8], [15u8,
--    24u8, 240u8], [15u8, 24u8, 240u8], [20u8, 32u8, 235u8], [35u8, 56u8, 220u8], [0u8, 0u8, 0u8],
--    [0u8, 0u8, 0u8], [71u8, 112u8, 184u8], [15u8, 24u8, 240u8]]] }

-- | The number of iterations before the orbit of c escapes the circle
-- of radius 2, or max_iter if it never does.
def divergence (c_re: f64) (c_im: f64) (max_iter: i32) : i32 =
  let (_, _, i) =
    loop (z_re, z_im, i) = (0.0, 0.0, 0)
    while i < max_iter && z_re * z_re + z_im * z_im <= 4.0 do
      (z_re * z_re - z_im * z_im + c_re, 2.0 * z_re * z_im + c_im, i + 1)
  in i

-- | Map an escape count to a colour; points inside the set are black.
def colour (max_iter: i32) (i: i32) : [3]u8 =
  if i == max_iter then [0, 0, 0]
  else let t = (i * 255) / max_iter
       in [u8.i32 t, u8.i32 ((i * 8) % 256), u8.i32 (255 - t)]

-- | The point of the complex plane covered by pixel (row, col).
def pixel_point (width: i64) (height: i64) (row: i64) (col: i64) : (f64, f64) =
  (-2.0 + 3.0 * f64.i64 col / f64.i64 width,
   -1.0 + 2.0 * f64.i64 row / f64.i64 height)

def main (width: i64) (height: i64) (max_iter: i32) : [height][width][3]u8 =
  tabulate_2d height width (\row col ->
    let (c_re, c_im) = pixel_point width height row col
    in colour max_iter (divergence c_re c_im max_iter))
