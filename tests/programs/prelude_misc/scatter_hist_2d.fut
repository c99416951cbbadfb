-- scatter_2d, reduce_by_index_2d and hist_2d ignore out-of-bounds indices
-- (scatter gets distinct indices: which of two writes wins is unspecified).
-- ==
-- input { [0i64, 1i64, 5i64, 1i64] [1i64, 0i64, 0i64, 0i64] [10, 20, 30, 40] }
-- output { [[0, 10], [20, 0]] [[0, 10], [60, 0]] [[0, 10], [40, 0]] }

def main [k] (is: [k]i64) (js: [k]i64) (vs: [k]i32) =
  let ij = zip is js
  in (scatter_2d (replicate 2 (replicate 2 0)) (take 3 ij) (take 3 vs),
      reduce_by_index_2d (replicate 2 (replicate 2 0)) (+) 0 ij vs,
      hist_2d i32.max 0 2 2 ij vs)
