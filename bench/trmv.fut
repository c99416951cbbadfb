-- Benchmark: lower-triangular matrix-vector product, y = tril(A) x
-- (peers: trmv_f32_8192).  Entries above the diagonal are ignored.  A map
-- over rows of a map-reduce over columns.
-- ==
-- input { [[1.0f32, 9.0f32, 9.0f32], [2.0f32, 3.0f32, 9.0f32], [4.0f32, 5.0f32, 6.0f32]]
--         [1.0f32, 2.0f32, -1.0f32] }
-- output { [1.0f32, 8.0f32, 8.0f32] }

def main [n] (a: [n][n]f32) (x: [n]f32) : [n]f32 =
  map2 (\i row ->
          reduce (+) 0 (map3 (\j aij xj -> if j <= i then aij * xj else 0) (iota n) row x))
       (iota n) a
