-- A scan and a reduction fused into one Screma (both scans and reductions) run as one SegScan whose scan kernel also folds the reduction, then the second kernel of a SegRed combines the groups' partial results: two kernels.
-- ==
-- structure gpu { Screma 1 SegScan 1 SegRed 0 SegSeq 0 Kernel 2 }
-- input { [3i32, -1i32, 4i32, 1i32, 5i32] }
-- output { [3i32, 2i32, 6i32, 7i32, 12i32] 5i32 }
-- input { empty([0]i32) }
-- output { empty([0]i32) 0i32 }
-- input { [-7i32] }
-- output { [-7i32] 0i32 }

def main (xs: []i32) : ([]i32, i32) = (scan (+) 0 xs, reduce i32.max 0 xs)
