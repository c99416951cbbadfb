-- Row-wise prefix sums of squares: a map over rows of (map then scan). The
-- inner map fuses into the scan, and a map of a scan is one segmented
-- SegScan: 1 kernel. (One SegMap with a sequential scan per row has the
-- same kernel count but only n-way parallelism.)
-- ==
-- structure gpu { SegScan 1 SegMap 0 Kernel 1 }
-- input { [[1.0f32, 2.0f32, 3.0f32], [0.0f32, -1.0f32, 2.0f32]] }
-- output { [[1.0f32, 5.0f32, 14.0f32], [0.0f32, 1.0f32, 5.0f32]] }
-- input { [[3.0f32]] }
-- output { [[9.0f32]] }
-- input { empty([0][4]f32) }
-- output { empty([0][4]f32) }
-- input @ data/row_scan.in
-- output @ data/row_scan.out

def cumsum_sq [m] (row: [m]f32) : [m]f32 = scan (+) 0 (map (\x -> x * x) row)

def main [n][m] (xss: [n][m]f32) : [n][m]f32 = map cumsum_sq xss
