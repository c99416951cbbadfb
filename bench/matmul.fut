-- Benchmark: dense f32 matrix multiplication (peers: matmul_f32_4096).
-- A perfect map nest around a map-reduce dot product.
-- ==
-- input { [[1.0f32, 2.0f32], [3.0f32, 4.0f32], [5.0f32, 6.0f32]]
--         [[1.0f32, 0.0f32, -1.0f32], [2.0f32, 1.0f32, 0.5f32]] }
-- output { [[5.0f32, 2.0f32, 0.0f32], [11.0f32, 4.0f32, -1.0f32], [17.0f32, 6.0f32, -2.0f32]] }

def main [n][k][m] (a: [n][k]f32) (b: [k][m]f32) : [n][m]f32 =
  map (\row -> map (\col -> reduce (+) 0 (map2 (*) row col)) (transpose b)) a
