-- Zipping with indices and sorting out pairs.
-- ==
-- input { [1.0f64, 2.5f64, -1.0f64] }
-- output { [2i64, 1i64, 0i64] [2.0f64, 5.0f64, -2.0f64] }

def main [n] (xs: [n]f64) : ([n]i64, [n]f64) =
  unzip (map (\(i, x) -> (n - 1 - i, x * 2.0)) (zip (iota n) xs))
