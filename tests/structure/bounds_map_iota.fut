-- xs[i] for i in iota n, xs : [n]i32: the bounds check is removed.
-- ==
-- structure { Assert 0 Iota 1 }
-- input { [3, 1, 2] }
-- output { [3, 2, 6] }

def main [n] (xs: [n]i32) : [n]i32 =
  map (\i -> xs[i] * i32.i64 (i + 1)) (iota n)
