-- Matrix-vector product and vector norm in f32.
-- ==
-- input { [[1.0f32, 0.5f32, -1.0f32], [2.0f32, 0.0f32, 0.25f32]] [2.0f32, 4.0f32, 1.0f32] }
-- output { [3.0f32, 4.25f32] 5.202163f32 }

def matvec [n] [m] (a: [n][m]f32) (v: [m]f32) : [n]f32 =
  map (\row -> f32.sum (map2 (*) row v)) a

def main [n] [m] (a: [n][m]f32) (v: [m]f32) : ([n]f32, f32) =
  let r = matvec a v
  in (r, f32.sqrt (f32.sum (map (\x -> x * x) r)))
