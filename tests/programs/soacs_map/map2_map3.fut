-- map2 and map3.
-- ==
-- input { [1.0f32, 2.0f32, 3.0f32] [0.5f32, 0.25f32, 2.0f32] [1.0f32, 1.0f32, 1.0f32] }
-- output { [1.5f32, 2.25f32, 5.0f32] [-0.5f32, -0.5f32, 5.0f32] }

def main [n] (a: [n]f32) (b: [n]f32) (c: [n]f32) : ([n]f32, [n]f32) =
  (map2 (+) a b, map3 (\x y z -> x * y - z) a b c)
