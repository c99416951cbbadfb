-- reduce_by_index into a two-dimensional destination: buckets are rows,
-- combined with an operator on arrays; out-of-bounds indices are ignored.
-- ==
-- input { 3i64 [0i64, 2i64, 1i64, 2i64, 5i64, -1i64, 0i64] [[1, 2], [3, 4], [5, 6], [7, 8], [9, 9], [9, 9], [10, 20]] }
-- output { [[11, 22], [5, 6], [10, 12]] }

def main [n][m] (k: i64) (is: [n]i64) (vs: [n][m]i32) : [k][m]i32 =
  reduce_by_index (replicate k (replicate m 0)) (map2 (+)) (replicate m 0) is vs
