-- Horizontal and vertical: sum and sum of squares of one array, then a scalar result.
-- ==
-- structure { Screma 1 Reduce 2 }
-- input { [1.0f64, 2.0f64, 3.0f64, 4.0f64] }
-- output { 1.25f64 }

def main [n] (xs: [n]f64) : f64 =
  let s = reduce (+) 0 xs
  let q = reduce (+) 0 (map (\x -> x * x) xs)
  let m = s / f64.i64 n
  in q / f64.i64 n - m * m
