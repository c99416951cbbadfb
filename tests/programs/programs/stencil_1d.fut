-- Three-point averaging stencil with clamped boundaries, applied a given
-- number of times.
-- ==
-- input { [0.0f64, 0.0f64, 9.0f64, 0.0f64, 0.0f64, 3.0f64] 0 }
-- output { [0.0f64, 0.0f64, 9.0f64, 0.0f64, 0.0f64, 3.0f64] }
-- input { [0.0f64, 0.0f64, 9.0f64, 0.0f64, 0.0f64, 3.0f64] 1 }
-- output { [0.0f64, 3.0f64, 3.0f64, 3.0f64, 1.0f64, 2.0f64] }
-- input { [0.0f64, 0.0f64, 9.0f64, 0.0f64, 0.0f64, 3.0f64] 3 }
-- output { [1.3333333333333333f64, 2.0f64, 2.4444444444444446f64, 2.4444444444444446f64,
--    2.0000000000000004f64, 1.777777777777778f64] }

def step [n] (xs: [n]f64) : [n]f64 =
  tabulate n (\i ->
    let l = xs[i64.max 0 (i - 1)]
    let r = xs[i64.min (n - 1) (i + 1)]
    in (l + xs[i] + r) / 3.0)

def main [n] (xs: [n]f64) (steps: i32) : [n]f64 =
  loop xs for _i < steps do step xs
