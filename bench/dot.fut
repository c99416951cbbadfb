-- Benchmark: the dot product of two f32 vectors (peers: dot_f32_2^27).
-- A map fused into a reduction; bandwidth-bound.
-- ==
-- input { [1.0f32, 2.0f32, 3.0f32] [4.0f32, -5.0f32, 0.5f32] }
-- output { -4.5f32 }

def main [n] (xs: [n]f32) (ys: [n]f32) : f32 =
  reduce (+) 0 (map2 (*) xs ys)
