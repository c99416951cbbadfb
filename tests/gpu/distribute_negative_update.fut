-- Negative (distribution): a map whose stages are separated by an
-- in-place update of an array an earlier stage made (the update would
-- consume a row of another stage's result) is not distributed: it stays
-- one SegMap whose work-items run all of it on their own row.
-- It gets an intra-group version instead (issue 18: a SegGroup, a
-- work-group per element, under thresholds main.suff_outer_par_0 and
-- main.suff_intra_par_1).
-- ==
-- structure gpu { SegMap 1 SegRed 0 Threshold 2 SegGroup 1 Kernel 2 }
-- input { [[1i32, 2i32, 3i32], [4i32, 0i32, 1i32]] }
-- output { [[7i32, 5i32, 7i32], [6i32, 1i32, 3i32]] }
-- input { empty([0][3]i32) }
-- output { empty([0][3]i32) }

def main [n][m] (xss: [n][m]i32) : [n][m]i32 =
  map (\row -> let s = i32.sum row
               let r = map (* 2) row
               let r[0] = s
               in map (+ 1) r) xss
