-- map4 and map5.
-- ==
-- input { [1, 2] [3, 4] [5, 6] [7, 8] [9, 0] }
-- output { [9, 18] [13579, 24680] }

def main [n] (a: [n]i32) (b: [n]i32) (c: [n]i32) (d: [n]i32) (e: [n]i32) : ([n]i32, [n]i32) =
  (map4 (\p q r s -> p + q * r - s) a b c d,
   map5 (\p q r s t -> p * 10000 + q * 1000 + r * 100 + s * 10 + t) a b c d e)
