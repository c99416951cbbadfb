-- Sections on float operators and qualified functions.
-- ==
-- input { [1.0f64, 4.0f64, 0.5f64] }
-- output { [0.5f64, 2.0f64, 0.25f64] [1.0f64, 0.25f64, 2.0f64] 4.0f64 }

def main (xs: []f64) : ([]f64, []f64, f64) =
  (map (/ 2.0) xs, map (1.0 /) xs, reduce f64.max f64.lowest xs)
