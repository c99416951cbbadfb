-- scatter needs as many values as indices: its type gives is and vs one
-- size, so main's two anonymous sizes are one size, and arguments of
-- different sizes are an error of the entry point.
-- ==
-- input { [0i64, 1i64] [5, 6, 7] }
-- error: [Ss]ize|invalid
-- input { [0i64, 1i64] [5, 6] }
-- output { [5, 6, 0] }

def main (is: []i64) (vs: []i32) : []i32 = scatter (replicate 3 0) is vs
