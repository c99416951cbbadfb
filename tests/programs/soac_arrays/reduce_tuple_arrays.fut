-- A reduction over pairs of rows with two array accumulators (sums and
-- maxima), and a reduction of a fresh per-element array.
-- ==
-- input { [[1, 5], [2, -3], [7, 0]] [[4, 4], [9, 1], [0, 2]] }
-- output { [10, 2] [9, 4] [25, 20] }

def main [n][m] (a: [n][m]i32) (b: [n][m]i32) : ([m]i32, [m]i32, [m]i32) =
  let (s, mx) = reduce (\(s1, m1) (s2, m2) -> (map2 (+) s1 s2, map2 i32.max m1 m2))
                       (replicate m 0, replicate m i32.lowest) (zip a b)
  let t = reduce (map2 (+)) (replicate m 0) (map2 (\r q -> map2 (\x y -> x * y + 1) r q) a b)
  in (s, mx, t)
