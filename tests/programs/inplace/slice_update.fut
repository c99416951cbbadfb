-- In-place update of a slice.
-- ==
-- input { [1, 2, 3, 4, 5] }
-- output { [1, 70, 80, -4, -5] }

def main (xs: *[]i32) : []i32 =
  let xs[1:3] = [70, 80]
  let xs[3:] = map (\x -> -x) xs[3:]
  in xs
