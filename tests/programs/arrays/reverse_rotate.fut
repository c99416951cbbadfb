-- reverse and rotate (rotate r shifts left by r; negative rotates right).
-- ==
-- input { [1, 2, 3, 4, 5] 0i64 }
-- output { [5, 4, 3, 2, 1] [1, 2, 3, 4, 5] }
-- input { [1, 2, 3, 4, 5] 1i64 }
-- output { [5, 4, 3, 2, 1] [2, 3, 4, 5, 1] }
-- input { [1, 2, 3, 4, 5] 2i64 }
-- output { [5, 4, 3, 2, 1] [3, 4, 5, 1, 2] }
-- input { [1, 2, 3, 4, 5] -1i64 }
-- output { [5, 4, 3, 2, 1] [5, 1, 2, 3, 4] }
-- input { [1, 2, 3, 4, 5] 7i64 }
-- output { [5, 4, 3, 2, 1] [3, 4, 5, 1, 2] }

def main (xs: []i32) (r: i64) : ([]i32, []i32) = (reverse xs, rotate r xs)
