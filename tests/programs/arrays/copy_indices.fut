-- copy and indices.
-- ==
-- input { [1.5f32, 2.5f32, 3.5f32] }
-- output { [1.5f32, 2.5f32, 3.5f32] [0i64, 1i64, 2i64] }

def main (xs: []f32) : ([]f32, []i64) =
  let ys = copy xs
  in (ys, indices ys)
