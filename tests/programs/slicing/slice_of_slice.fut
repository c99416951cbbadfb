-- Slicing the result of a slice.
-- ==
-- input { [0, 1, 2, 3, 4, 5, 6, 7] }
-- output { [5, 4, 3] }

def main (xs: []i32) : []i32 =
  let ys = xs[1:7]
  in ys[::-1][1:4]
