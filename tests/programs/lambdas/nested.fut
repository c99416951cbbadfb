-- Nested lambdas, the inner one using the outer parameter.
-- ==
-- input { [1, 2] [3, 4, 5] }
-- output { [[13, 14, 15], [23, 24, 25]] }

def main (xs: []i32) (ys: []i32) : [][]i32 =
  map (\x -> map (\y -> x * 10 + y) ys) xs
