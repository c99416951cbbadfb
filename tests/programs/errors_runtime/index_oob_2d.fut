-- Out-of-bounds index in the second dimension.
-- ==
-- input { [[1, 2], [3, 4]] 1i64 1i64 }
-- output { 4 }
-- input { [[1, 2], [3, 4]] 1i64 2i64 }
-- error: [Oo]ut of bounds|[Ii]ndex
-- input { [[1, 2], [3, 4]] 2i64 0i64 }
-- error: [Oo]ut of bounds|[Ii]ndex

def main (a: [][]i32) (i: i64) (j: i64) : i32 = a[i, j]
