-- Benchmark: lower-triangular matrix-vector product on a packed triangle
-- (peers: trmv_f32_8192, which read the lower triangle of a full matrix).
-- Row i of the triangle holds its i + 1 elements, the rows stored one
-- after another (n(n+1)/2 elements in all, Lift's position-dependent
-- array of rows); an irregular array over them (futhorc-irregular(7)), of
-- whose rows each reduces its products with x.
-- ==
-- input { [1.0f32, 2.0f32, 3.0f32, 4.0f32, 5.0f32, 6.0f32] [1.0f32, 2.0f32, -1.0f32] }
-- output { [1.0f32, 8.0f32, 8.0f32] }

def main [n][m] (packed: [m]f32) (x: [n]f32) : [n]f32 =
  let tri = unflatten_irregular (map (+ 1) (iota n)) packed
  in map (\r -> reduce (+) 0 (map2 (*) r x[:length r])) tri
