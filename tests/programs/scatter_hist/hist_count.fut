-- hist counting occurrences.
-- ==
-- input { 4i64 [0i64, 1i64, 1i64, 3i64, 3i64, 3i64, 7i64, -1i64] }
-- output { [1, 2, 0, 3] }

def main [n] (k: i64) (is: [n]i64) : []i32 = hist (+) 0 k is (replicate n 1)
