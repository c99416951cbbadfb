-- for-in loop over an array of pairs with a tuple pattern.
-- ==
-- input { [1, 2, 3] [4, 5, 6] }
-- output { 32 }

def main [n] (xs: [n]i32) (ys: [n]i32) : i32 =
  loop acc = 0 for (x, y) in zip xs ys do acc + x * y
