-- length of one- and two-dimensional arrays.
-- ==
-- input { [1, 2, 3] [[1.0f32, 2.0f32], [3.0f32, 4.0f32], [5.0f32, 6.0f32]] }
-- output { 3i64 3i64 2i64 }

def main (xs: []i32) (m: [][]f32) : (i64, i64, i64) = (length xs, length m, length (transpose m))
