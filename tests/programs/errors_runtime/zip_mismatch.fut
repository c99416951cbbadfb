-- Zipping arrays of different lengths (after a coercion) fails at run time.
-- ==
-- input { [1, 2] [10, 20] }
-- output { [11, 22] }
-- input { [1, 2] [10, 20, 30] }
-- error: [Ss]ize|[Ss]hape|cannot match

def main [n] [m] (xs: [n]i32) (ys: [m]i32) : [n]i32 =
  map (\(x, y) -> x + y) (zip xs (ys :> [n]i32))
