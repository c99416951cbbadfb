-- scatter needs as many values as indices.
-- ==
-- input { [0i64, 1i64] [5, 6, 7] }
-- error: 2 indices but 3 values
-- input { [0i64, 1i64] [5, 6] }
-- output { [5, 6, 0] }

def main (is: []i64) (vs: []i32) : []i32 = scatter (replicate 3 0) is vs
