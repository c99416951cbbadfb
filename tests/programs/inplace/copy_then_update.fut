-- Updating a copy leaves the original unchanged.
-- ==
-- input { [1, 2] }
-- output { [1, 2] [42, 2] }

def main (xs: []i32) : ([]i32, []i32) =
  let ys = copy xs
  let ys[0] = 42
  in (xs, ys)
