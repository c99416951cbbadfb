-- take, drop and split.
-- ==
-- input { [1, 2, 3, 4, 5] 2i64 }
-- output { [1, 2] [3, 4, 5] [1, 2] [3, 4, 5] }
-- input { [1, 2, 3] 0i64 }
-- output { empty([0]i32) [1, 2, 3] empty([0]i32) [1, 2, 3] }
-- input { [1, 2, 3] 3i64 }
-- output { [1, 2, 3] empty([0]i32) [1, 2, 3] empty([0]i32) }

def main [n] (xs: [n]i32) (k: i64) : ([]i32, []i32, []i32, []i32) =
  let (a, b) = split (xs :> [k + (n - k)]i32)
  in (take k xs, drop k xs, a, b)
