-- map producing a matrix from a vector (outer product).
-- ==
-- input { [1.0f32, 2.0f32] [0.5f32, 1.0f32, 2.0f32] }
-- output { [[0.5f32, 1.0f32, 2.0f32], [1.0f32, 2.0f32, 4.0f32]] }

def main (xs: []f32) (ys: []f32) : [][]f32 = map (\x -> map (\y -> x * y) ys) xs
