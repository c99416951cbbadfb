-- Projection sections (.field) and (.0).
-- ==
-- input { [1, 2] [0.5f32, 1.5f32] }
-- output { [1, 2] [0.5f32, 1.5f32] [1, 2] }

def main [n] (xs: [n]i32) (ys: [n]f32) : ([]i32, []f32, []i32) =
  let ps = zip xs ys
  let rs = map (\(x, y) -> {a = x, b = y}) ps
  in (map (.0) ps, map (.b) rs, map (.a) rs)
