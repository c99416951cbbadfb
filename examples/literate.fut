-- # A literate Futhark program
--
-- `futhorc literate examples/literate.fut` turns this file into
-- `examples/literate.md`: the comments become text, the code is shown in
-- code blocks, and each directive (a comment line starting with `>`)
-- shows what its FutharkScript expression evaluates to. Images and plots
-- go to `examples/literate-img/`.
--
-- ## Values
--
-- The escape time of a point of the Mandelbrot set's neighbourhood: how
-- many steps of z = z² + c it takes |z| to pass 2.

def escape (limit: i32) (cr: f32) (ci: f32) : i32 =
  let (_, _, n) =
    loop (zr, zi, n) = (0f32, 0f32, 0) while n < limit && zr * zr + zi * zi < 4 do
      (zr * zr - zi * zi + cr, 2 * zr * zi + ci, n + 1)
  in n

-- A directive shows its value:

-- > escape 100 0.3 0.5

-- ## Images
--
-- A two-dimensional array of floats in [0,1] is an image in shades of
-- grey; of integers, one of RGB colours (0xRRGGBB).

def mandelbrot (h: i64) (w: i64) (limit: i32) : [h][w]u32 =
  tabulate_2d h w (\y x ->
    let cr = -2.2 + 3 * f32.i64 x / f32.i64 w
    let ci = -1.2 + 2.4 * f32.i64 y / f32.i64 h
    let n = escape limit cr ci
    let t = f32.i32 n / f32.i32 limit
    in if n == limit then 0
       else (u32.f32 (255 * t) << 16) | (u32.f32 (255 * f32.sqrt t) << 8) | u32.f32 (255 * (1 - t)))

-- > :img mandelbrot 240 360 64

-- ## Plots
--
-- A pair of one-dimensional arrays is a line through the points (x, y);
-- a record of pairs draws one line per field (with gnuplot).

def curve (f: f64 -> f64) (n: i64) : ([]f64, []f64) =
  let xs = map (\i -> 4 * f64.pi * f64.i64 i / f64.i64 n) (iota n)
  in (xs, map f xs)

def sine (n: i64) = curve f64.sin n

def damped (n: i64) = curve (\x -> f64.exp (-x / 6) * f64.cos x) n

-- > :plot2d {sine = sine 200, damped = damped 200};
-- size: (600,300)
