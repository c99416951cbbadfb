-- An existential size from filter is shared by arrays mapped from it.
-- ==
-- input { [1, -2, 3, 0] }
-- output { [3, 9] }

def main (xs: []i32) : []i32 =
  let ys = filter (> 0) xs
  let zs = map (* 2) ys
  in map2 (+) ys zs
