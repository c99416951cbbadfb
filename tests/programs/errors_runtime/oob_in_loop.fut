-- An error raised only in a later loop iteration.
-- ==
-- input { [1, 2, 3] 3i64 }
-- output { 6 }
-- input { [1, 2, 3] 4i64 }
-- error: [Oo]ut of bounds|[Ii]ndex

def main (xs: []i32) (n: i64) : i32 = loop acc = 0 for i < n do acc + xs[i]
