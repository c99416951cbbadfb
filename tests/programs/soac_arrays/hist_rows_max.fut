-- hist with array buckets (combined with f64.max through an accumulator
-- allocated once) and array values computed by a map.
-- ==
-- input { [1i64, 0i64, 1i64, 3i64, 0i64] [[1.5f64, -2.0f64], [0.25f64, 4.0f64], [3.0f64, 3.0f64], [-1.0f64, -1.0f64], [2.0f64, 8.0f64]] }
-- output { [[4.0f64, 16.0f64], [6.0f64, 6.0f64], [-f64.inf, -f64.inf], [-2.0f64, -2.0f64]] }

def main [n][m] (bs: [n]i64) (xs: [n][m]f64) : [4][m]f64 =
  hist (map2 f64.max) (replicate m (-f64.inf)) 4 bs (map (map (* 2)) xs)
