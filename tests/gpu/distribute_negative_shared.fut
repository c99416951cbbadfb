-- Negative (distribution): a map whose two stages both reduce the same
-- arrays for every element (an n-body-like step: each element sums over
-- all points, then over all points again with the first sum) gains no
-- parallelism from distribution (a segmented reduction needs rows that
-- differ between elements), so it stays one SegMap whose work-items run
-- both reductions.
-- It gets an intra-group version instead (issue 18: a SegGroup, a
-- work-group per element, under thresholds main.suff_outer_par_0 and
-- main.suff_intra_par_1).
-- ==
-- structure gpu { SegMap 1 SegRed 0 Threshold 2 SegGroup 1 Kernel 2 }
-- input { [1.0f32, 2.0f32, 4.0f32] [0.5f32, 1.5f32] }
-- output { [0.0f32, 0.0f32, 4.0f32] }
-- input { empty([0]f32) [0.5f32] }
-- output { empty([0]f32) }

def main [n][m] (xs: [n]f32) (ps: [m]f32) : [n]f32 =
  map (\x -> let s = f32.sum (map (\p -> f32.abs (x - p)) ps)
             in f32.sum (map (\p -> f32.abs (s - p)) ps) - s) xs
