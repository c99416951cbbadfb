-- unflatten with a coercion to the wrong size fails.
-- ==
-- input { [1, 2, 3, 4, 5, 6] 2i64 3i64 }
-- output { [[1, 2, 3], [4, 5, 6]] }
-- input { [1, 2, 3, 4, 5] 2i64 3i64 }
-- error: [Ss]ize|[Ss]hape|cannot match

def main [k] (xs: [k]i32) (n: i64) (m: i64) : [n][m]i32 = unflatten (xs :> [n * m]i32)
