-- A slice outside the array is a run-time error.
-- ==
-- input { [1, 2, 3] 1i64 3i64 }
-- output { [2, 3] }
-- input { [1, 2, 3] 1i64 4i64 }
-- error: [Oo]ut of bounds|[Ii]ndex
-- input { [1, 2, 3] 2i64 1i64 }
-- error: [Oo]ut of bounds|[Ii]ndex

def main (xs: []i32) (i: i64) (j: i64) : []i32 = xs[i:j]
