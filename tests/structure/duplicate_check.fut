-- Reading xs[j] twice checks the bounds once.
-- ==
-- structure { Assert 1 Index 1 }
-- input { [1, 2, 3] 1i64 }
-- output { 4 }
-- input { [1, 2, 3] 3i64 }
-- error: [Oo]ut of bounds|[Ii]ndex

def main (xs: []i32) (j: i64) : i32 = xs[j] + xs[j]
