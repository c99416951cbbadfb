-- An out-of-bounds in-place update is a run-time error.
-- ==
-- input { [1, 2, 3] 0i64 }
-- output { [0, 2, 3] }
-- input { [1, 2, 3] 3i64 }
-- error: [Oo]ut of bounds|[Ii]ndex

def main (xs: *[]i32) (i: i64) : []i32 = xs with [i] = 0
