-- Benchmark: the sum of a vector of f32 (peers: sum_f32_2^28).
-- A single reduction over a flat array; bandwidth-bound.
-- ==
-- input { [1.0f32, 2.0f32, 3.5f32, -0.5f32] }
-- output { 6.0f32 }
-- input { empty([0]f32) }
-- output { 0.0f32 }

def main [n] (xs: [n]f32) : f32 =
  reduce (+) 0 xs
