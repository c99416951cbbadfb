-- Summing floats (exactly representable values).
-- ==
-- input { [0.5f32, 1.25f32, 2.25f32, 4.0f32] }
-- output { 8.0f32 4.0f32 }

def main (xs: []f32) : (f32, f32) = (reduce (+) 0f32 xs, f32.sum (map (* 0.5f32) xs))
