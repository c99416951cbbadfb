-- A result type that refers to parameter sizes.
-- ==
-- input { [1, 2] }
-- output { [2, 4, 0] }
-- input { empty([0]i32) }
-- output { [0] }

def snoc [n] (xs: [n]i32) (x: i32) : [n + 1]i32 = xs ++ [x]

def pairs_sum [n] (xs: [n]i32) (ys: [n]i32) : [n]i32 = map2 (+) xs ys

def main [n] (xs: [n]i32) : [n + 1]i32 = snoc (pairs_sum xs xs) 0
