-- Operations on empty arrays.
-- ==
-- input { empty([0]i32) }
-- output { 0i64 0 empty([0]i32) empty([2][0]i32) }

def main (xs: []i32) : (i64, i32, []i32, [][]i32) =
  (length xs, reduce (+) 0 xs, map (+ 1) xs, replicate 2 xs)
