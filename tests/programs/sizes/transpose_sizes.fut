-- Sizes flow through transpose: [n][m] becomes [m][n].
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { [[1, 4], [2, 5], [3, 6]] 3i64 }

def main [n] [m] (a: [n][m]i32) : ([m][n]i32, i64) =
  let t = transpose a
  in (t, length t)
