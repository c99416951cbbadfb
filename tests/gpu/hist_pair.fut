-- Negative: a histogram over pairs has no single scalar operator, so it runs in one work-item (SegSeq).
-- ==
-- structure gpu { SegHist 0 SegSeq 1 Kernel 1 }
-- input { 3i64 [0i64, 2i64, 2i64, 0i64, 7i64] [5i32, -1i32, 4i32, 2i32, 9i32] }
-- output { [7i32, 0i32, 3i32] [5i32, -2147483648i32, 4i32] }

def main [n] (k: i64) (is: [n]i64) (vs: [n]i32) : ([]i32, []i32) =
  unzip (hist (\(a, b) (c, d) -> (a + c, i32.max b d)) (0, i32.lowest) k is (zip vs vs))
