-- Negative: a scan and a reduction fused into one Screma (both scans and reductions) run as a SegSeq.
-- ==
-- structure gpu { SegScan 0 SegRed 0 SegSeq 1 Kernel 1 }
-- input { [3i32, -1i32, 4i32, 1i32, 5i32] }
-- output { [3i32, 2i32, 6i32, 7i32, 12i32] 5i32 }

def main (xs: []i32) : ([]i32, i32) = (scan (+) 0 xs, reduce i32.max 0 xs)
