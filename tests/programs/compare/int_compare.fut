-- All six comparison operators on i32.
-- ==
-- input { [1, 2, 3, -4] [2, 2, 1, 4] }
-- output { [false, true, false, false] [true, false, true, true] [true, false, false, true] [true,
--    true, false, true] [false, false, true, false] [false, true, true, false] }

def main [n] (xs: [n]i32) (ys: [n]i32) : ([n]bool, [n]bool, [n]bool, [n]bool, [n]bool, [n]bool) =
  (map2 (==) xs ys, map2 (!=) xs ys, map2 (<) xs ys, map2 (<=) xs ys, map2 (>) xs ys, map2 (>=) xs ys)
