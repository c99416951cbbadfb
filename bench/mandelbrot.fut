-- Benchmark: Mandelbrot escape counts on an n x n grid
-- (peers: mandelbrot_4096_256).  Pixel (i, j) takes c = x_j + y_i*i with
-- x from linspace(-2, 1, n) and y from linspace(-1.5, 1.5, n); the result
-- is the number of iterations z := z*z + c (from z = 0, at most `limit`)
-- that start with |z|^2 < 4, as in peers.py.  A perfect 2-D map around a
-- sequential while loop; compute-bound.
-- ==
-- input { 4i64 10 }
-- output { [[1, 2, 2, 2], [1, 5, 10, 2], [1, 5, 10, 2], [1, 2, 2, 2]] }

-- | The i'th of n points evenly spaced from lo to hi (both included).
def linspace (lo: f32) (hi: f32) (n: i64) (i: i64) : f32 =
  lo + f32.i64 i * ((hi - lo) / f32.i64 (n - 1))

-- | The number of iterations before the orbit of (cr, ci) escapes.
def escape (limit: i32) (cr: f32) (ci: f32) : i32 =
  let (_, _, count) =
    loop (zr, zi, count) = (0f32, 0f32, 0i32)
    while count < limit && zr * zr + zi * zi < 4 do
      (zr * zr - zi * zi + cr, 2 * zr * zi + ci, count + 1)
  in count

def main (n: i64) (limit: i32) : [n][n]i32 =
  tabulate_2d n n (\i j -> escape limit (linspace (-2) 1 n j) (linspace (-1.5) 1.5 n i))
