-- i32 addition, subtraction and multiplication wrap around.
-- ==
-- input { [1, -5, 100000, 2147483647] [2, 7, 100000, 1] }
-- output { [3, 2, 200000, -2147483648] [-1, -12, 0, 2147483646] [2, -35, 1410065408, 2147483647] }

def main [n] (xs: [n]i32) (ys: [n]i32) : ([n]i32, [n]i32, [n]i32) =
  (map2 (+) xs ys, map2 (-) xs ys, map2 (*) xs ys)
