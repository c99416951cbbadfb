-- floor, ceil and round (round to nearest, ties to even).
-- ==
-- input { [1.5f64, -1.5f64, 2.5f64, 2.4f64, -0.6f64, 3.0f64] }
-- output { [1.0f64, -2.0f64, 2.0f64, 2.0f64, -1.0f64, 3.0f64] [2.0f64, -1.0f64, 3.0f64, 3.0f64,
--    0.0f64, 3.0f64] [2.0f64, -2.0f64, 2.0f64, 2.0f64, -1.0f64, 3.0f64] [2.0f32, -2.0f32, 2.0f32,
--    2.0f32, -1.0f32, 3.0f32] }

def main (xs: []f64) : ([]f64, []f64, []f64, []f32) =
  (map f64.floor xs, map f64.ceil xs, map f64.round xs, map (\x -> f32.round (f32.f64 x)) xs)
