-- Negative: a map whose body does more parallel work than one scan (a
-- reduction, and a map over the scan's result) is not a segmented scan:
-- it stays a SegMap whose work-items scan their rows sequentially.
-- It gets an intra-group version instead (issue 18: a SegGroup, a
-- work-group per element, under thresholds main.suff_outer_par_0 and
-- main.suff_intra_par_1).
-- ==
-- structure gpu { SegScan 0 SegMap 1 Threshold 2 SegGroup 1 Kernel 2 }
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] }
-- output { [[7i32, 9i32, 12i32], [19i32, 24i32, 30i32]] }
-- input { empty([0][3]i32) }
-- output { empty([0][3]i32) }

def main [n][m] (xss: [n][m]i32) : [n][m]i32 =
  map (\row -> let t = reduce (+) 0 row in map (+ t) (scan (+) 0 row)) xss
