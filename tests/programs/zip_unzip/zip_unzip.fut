-- zip followed by unzip is the identity.
-- ==
-- input { [1, 2] [0.5f32, 1.5f32] }
-- output { [1, 2] [0.5f32, 1.5f32] }

def main [n] (xs: [n]i32) (ys: [n]f32) : ([n]i32, [n]f32) = unzip (zip xs ys)
