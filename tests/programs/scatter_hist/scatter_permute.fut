-- scatter used to invert a permutation.
-- ==
-- input { [2i64, 0i64, 3i64, 1i64] }
-- output { [1i64, 3i64, 0i64, 2i64] }

def main [n] (perm: [n]i64) : [n]i64 = scatter (replicate n 0) perm (iota n)
