-- Concatenation with ++ and concat.
-- ==
-- input { [1, 2] [3, 4, 5] }
-- output { [1, 2, 3, 4, 5] [3, 4, 5, 1, 2] 5i64 }
-- input { empty([0]i32) [7] }
-- output { [7] [7] 1i64 }

def main (xs: []i32) (ys: []i32) : ([]i32, []i32, i64) =
  let zs = xs ++ ys
  in (zs, concat ys xs, length zs)
