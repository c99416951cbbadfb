-- Benchmark: gather, out[i] = src[perm[i]] (peers: gather_f32_2^26).
-- Random reads, coalesced writes.
-- ==
-- input { [10.0f32, 20.0f32, 30.0f32, 40.0f32] [3, 0, 2, 1] }
-- output { [40.0f32, 10.0f32, 30.0f32, 20.0f32] }

def main [n][m] (src: [m]f32) (perm: [n]i32) : [n]f32 =
  map (\i -> src[i64.i32 i]) perm
