-- Signed / and % round towards negative infinity; the sign of % follows
-- the divisor.
-- ==
-- input { [7, -7, 7, -7, 0, 1, -1] [2, 2, -2, -2, 3, 5, 5] }
-- output { [3, -4, -4, 3, 0, 0, -1] [1, 1, -1, -1, 0, 1, 4] }

def main [n] (xs: [n]i32) (ys: [n]i32) : ([n]i32, [n]i32) =
  (map2 (/) xs ys, map2 (%) xs ys)
