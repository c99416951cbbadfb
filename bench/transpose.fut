-- Benchmark: transpose of an f32 matrix into a fresh array
-- (peers: transpose_f32_8192).
-- ==
-- input { [[1.0f32, 2.0f32, 3.0f32], [4.0f32, 5.0f32, 6.0f32]] }
-- output { [[1.0f32, 4.0f32], [2.0f32, 5.0f32], [3.0f32, 6.0f32]] }

def main [n][m] (a: [n][m]f32) : [m][n]f32 =
  transpose a
