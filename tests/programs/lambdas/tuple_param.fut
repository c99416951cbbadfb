-- A lambda with a tuple pattern parameter.
-- ==
-- input { [5, 6, 7] [1, 1, 10] }
-- output { [4, 5, -3] }

def main [n] (xs: [n]i32) (ys: [n]i32) : []i32 = map (\(x, y) -> x - y) (zip xs ys)
