-- || does not evaluate its right operand when the left is true, so the
-- out-of-bounds index is never executed.
-- ==
-- input { [1, -2, 3] 7i64 }
-- output { true }
-- input { [1, -2, 3] 1i64 }
-- output { false }
-- input { [1, -2, 3] 2i64 }
-- output { true }

def main (xs: []i32) (i: i64) : bool = i >= length xs || xs[i] > 0
