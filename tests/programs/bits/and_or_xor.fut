-- Bitwise and, or and xor on i32.
-- ==
-- input { [12, -1, 3855, -256] [10, 255, 255, 7] }
-- output { [8, 255, 15, 0] [14, -1, 4095, -249] [6, -256, 4080, -249] }

def main [n] (xs: [n]i32) (ys: [n]i32) : ([n]i32, [n]i32, [n]i32) =
  (map2 (&) xs ys, map2 (|) xs ys, map2 (^) xs ys)
