-- A scan over matrices with a nested element-wise operator (rank-2
-- accumulators updated in place).
-- ==
-- input { [[[-5, -4, -3], [-2, -1, 0]], [[1, 2, 3], [4, 5, 6]], [[-10, -8, -6], [-4, -2, 0]], [[2, 4, 6], [8, 10, 12]]] }
-- output { [[[-5, -4, -3], [-2, -1, 0]], [[-4, -2, 0], [2, 4, 6]], [[-14, -10, -6], [-2, 2, 6]], [[-12, -6, 0], [6, 12, 18]]] }

def main [n][a][b] (xs: [n][a][b]i32) : [n][a][b]i32 =
  scan (map2 (map2 (+))) (replicate a (replicate b 0)) xs
