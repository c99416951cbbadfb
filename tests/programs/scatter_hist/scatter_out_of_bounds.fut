-- scatter ignores out-of-bounds indices.
-- ==
-- input { [0.0f32, 0.0f32, 0.0f32] [-1i64, 1i64, 3i64, 100i64] [1.0f32, 2.0f32, 3.0f32, 4.0f32] }
-- output { [0.0f32, 2.0f32, 0.0f32] }

def main [n] (dest: *[]f32) (is: [n]i64) (vs: [n]f32) : []f32 = scatter dest is vs
