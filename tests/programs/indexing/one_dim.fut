-- Indexing a one-dimensional array.
-- ==
-- input { [10, 20, 30, 40] 1i64 }
-- output { 20 30 }
-- input { [10, 20, 30, 40] 0i64 }
-- output { 10 40 }

def main (xs: []i32) (i: i64) : (i32, i32) = (xs[i], xs[length xs - 1 - i])
