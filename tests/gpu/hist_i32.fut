-- A histogram with a 4-byte scalar operator is a SegHist.
-- ==
-- structure gpu { SegHist 1 SegSeq 0 Kernel 1 }
-- input { 4i64 [0i64, 1i64, 3i64, 1i64, 5i64, -1i64, 3i64] [1i32, 2i32, 3i32, 4i32, 5i32, 6i32, 7i32] }
-- output { [1i32, 6i32, 0i32, 10i32] }
-- input { 2i64 empty([0]i64) empty([0]i32) }
-- output { [0i32, 0i32] }

def main [n] (k: i64) (is: [n]i64) (vs: [n]i32) : []i32 =
  hist (+) 0 k is vs
