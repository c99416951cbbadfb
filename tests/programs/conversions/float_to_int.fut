-- Float to integer conversion truncates towards zero.
-- ==
-- input { [2.7f32, -2.7f32, 0.5f32, -0.5f32, 100.0f32] }
-- output { [2, -2, 0, 0, 100] [2i64, -2i64, 0i64, 0i64, 100i64] }

def main (xs: []f32) : ([]i32, []i64) = (map i32.f32 xs, map (\x -> i64.f64 (f64.f32 x)) xs)
