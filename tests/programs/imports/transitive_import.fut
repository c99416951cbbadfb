-- A library that itself imports another library.
-- ==
-- input { [1, 2, 3] [1.0f32, 2.0f32, 3.0f32] [0.5f32, 0.5f32, 2.0f32] }
-- output { 14 7.5f32 }

import "lib/vec"

def main [n] (xs: [n]i32) (a: [n]f32) (b: [n]f32) : (i32, f32) = (sum_squares xs, dot a b)
