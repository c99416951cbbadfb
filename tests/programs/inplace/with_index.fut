-- In-place update with `a with [i] = v`.
-- ==
-- input { [1, 2, 3] 1i64 9 }
-- output { [1, 9, 3] }
-- input { [1, 2, 3] 2i64 -1 }
-- output { [1, 2, -1] }

def main (xs: *[]i32) (i: i64) (v: i32) : []i32 = xs with [i] = v
