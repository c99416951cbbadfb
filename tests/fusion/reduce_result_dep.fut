-- Negative (horizontal): a map that uses a reduction result through a scalar computed in between.
-- ==
-- structure { Screma 2 Reduce 1 }
-- input { [-3i32, 0i32, 7i32, 10i32, -8i32, 2i32] }
-- output { [-8i32, -5i32, 2i32, 5i32, -13i32, -3i32] }

def main (xs: []i32) : []i32 =
  let m = reduce i32.max i32.lowest xs
  let h = m / 2
  in map (\x -> x - h) xs
