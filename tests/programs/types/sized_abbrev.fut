-- Type abbreviations with size parameters.
-- ==
-- input { [[1, 2], [3, 4]] }
-- output { 5 }
-- input { [[7]] }
-- output { 7 }

type matrix [n][m] = [n][m]i32

def trace [n] (a: matrix [n][n]) : i32 = reduce (+) 0 (map (\i -> a[i, i]) (iota n))

def main [n] (a: [n][n]i32) : i32 = trace a
