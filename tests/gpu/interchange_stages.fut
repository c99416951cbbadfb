-- Map-loop interchange with two loop parameters (one starting from the
-- row, one from a constant, replicated), scalar code before the loop (the
-- row's first element), results in another order than the loop's, and a
-- loop body of two parallel stages (the row's maximum, then a map that
-- reads it). The interchanged version's map over all rows is distributed
-- in turn, a third threshold under the false branches of the first and
-- of the intra-group version's: a tree of versions (main.suff_outer_par_2
-- (threshold D (!main.suff_outer_par_0 !main.suff_intra_par_1));
-- tests/opencl/run.sh runs each leaf). Outer
-- version: a SegMap; interchanged and distributed: a segmented SegRed and
-- a SegMap; interchanged, outer inner map: a SegMap. Expected values
-- from a sequential reference (Python).
-- The map also has an intra-group version (a SegGroup: a work-group per
-- element, under its own threshold main.suff_intra_par_N).
-- ==
-- structure gpu { Threshold 4 SegMap 3 SegRed 1 SegGroup 2 Kernel 6 }
-- input { [[1f32, 2f32, 3f32], [4f32, 0f32, 1f32]] 3i64 }
-- output { [[0.25f32, 0.375f32, 0.5f32], [2.0f32, 1.5f32, 1.625f32]] [4.0f32, 8.0f32] }
-- input { empty([0][2]f32) 4i64 }
-- output { empty([0][2]f32) empty([0]f32) }
-- input { [[2f32]] 0i64 }
-- output { [[2f32]] [0f32] }

def main [m][n] (xss: [m][n]f32) (k: i64) : ([m][n]f32, [m]f32) =
  unzip (map (\row ->
                let c = row[0] * 0.5
                let (acc, r) = loop (acc, r) = (0f32, row) for _i < k do
                                 let mx = reduce f32.max (-f32.inf) r
                                 in (acc + mx, map (\x -> (x - mx) * 0.5 + c) r)
                in (r, acc)) xss)
