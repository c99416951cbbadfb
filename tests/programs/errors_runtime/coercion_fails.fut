-- A size coercion that does not hold is a run-time error.
-- ==
-- input { [1, 2, 3] 3i64 }
-- output { [1, 2, 3] }
-- input { [1, 2, 3] 2i64 }
-- error: [Ss]ize|[Ss]hape|cannot match

def main [n] (xs: [n]i32) (m: i64) : [m]i32 = xs :> [m]i32
