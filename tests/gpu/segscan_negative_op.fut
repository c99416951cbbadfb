-- Negative: a scan whose operator reads a value of its row (addition
-- modulo the row's k) differs between segments, so the map of it is not
-- one segmented scan: it stays a SegMap.
-- ==
-- structure gpu { SegScan 0 SegMap 1 Kernel 1 }
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] [4i32, 7i32] }
-- output { [[1i32, 3i32, 2i32], [4i32, 2i32, 1i32]] }

def main [n][m] (xss: [n][m]i32) (ks: [n]i32) : [n][m]i32 =
  map2 (\row k -> scan (\a b -> (a + b) % k) 0 row) xss ks
