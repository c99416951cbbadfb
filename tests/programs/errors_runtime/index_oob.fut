-- Indexing out of bounds is a run-time error.
-- ==
-- input { [1, 2, 3] 2i64 }
-- output { 3 }
-- input { [1, 2, 3] 3i64 }
-- error: [Oo]ut of bounds|[Ii]ndex
-- input { [1, 2, 3] -1i64 }
-- error: [Oo]ut of bounds|[Ii]ndex
-- input { empty([0]i32) 0i64 }
-- error: [Oo]ut of bounds|[Ii]ndex

def main (xs: []i32) (i: i64) : i32 = xs[i]
