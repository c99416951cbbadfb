-- Lambdas with parameter and return type annotations.
-- ==
-- input { [1, 4, -3] }
-- output { [0.5f32, 2.0f32, -1.5f32] }

def main (xs: []i32) : []f32 = map (\(x: i32) : f32 -> f32.i32 x / 2f32) xs
