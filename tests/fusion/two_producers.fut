-- Vertical: two producers over arrays of one asserted size feed one map3.
-- ==
-- structure { Screma 1 }
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] [5i32, 4i32, 3i32, 2i32, 1i32] }
-- output { [21i32, 26i32, 27i32, 24i32, 17i32] }

def main (xs: []i32) (ys: []i32) : []i32 =
  map3 (\a b c -> a * b + c) (map (+1) xs) (map (*2) ys) xs
