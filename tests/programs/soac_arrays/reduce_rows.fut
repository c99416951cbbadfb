-- A vectorised sum of the rows of a matrix: a reduction whose operator
-- works on arrays (its accumulator is updated in place).
-- ==
-- input { [[1.0f32, 2.0f32, 3.0f32], [4.0f32, 5.0f32, 6.0f32], [7.0f32, 8.0f32, 10.0f32], [0.5f32, 0.25f32, -1.0f32]] }
-- output { [12.5f32, 15.25f32, 18.0f32] }
-- input { empty([0][3]f32) }
-- output { [0f32, 0f32, 0f32] }

def main [n][m] (rows: [n][m]f32) : [m]f32 = reduce (map2 (+)) (replicate m 0f32) rows
