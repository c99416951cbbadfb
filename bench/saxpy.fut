-- Benchmark: saxpy, 2.5*a + b over f32 vectors (peers: saxpy_f32_2^27).
-- One flat map; bandwidth-bound.
-- ==
-- input { [1.0f32, 2.0f32, -4.0f32] [0.5f32, 1.0f32, 10.0f32] }
-- output { [3.0f32, 6.0f32, 0.0f32] }

def main [n] (a: [n]f32) (b: [n]f32) : [n]f32 =
  map2 (\x y -> 2.5 * x + y) a b
