-- Coalescing by layout: each work-item of the map takes a row of pts and
-- reduces it once per centre inside a loop (k-means' assignment step), so
-- pts is copied once before the kernel into the layout with its outer
-- dimension innermost (a tiled transpose) and the kernel reads that copy;
-- cs, whose rows every work-item reads alike, is not copied. Cases: a
-- tie (the first centre wins), rows of one element, no points, empty rows.
-- The map also has its interchanged version (issue 18: a host loop over
-- the centres of a SegMap over all points, chosen below threshold
-- main.suff_outer_par_0), which reads the points as they are.
-- The map also has an intra-group version (a SegGroup: a work-group per
-- element, under its own threshold main.suff_intra_par_N).
-- ==
-- structure mem { Copy 0 }
-- structure gpu { Threshold 2 SegMap 2 SegGroup 1 Copy 1 Kernel 3 }
-- input { [[0f32, 0f32, 1f32], [5f32, 5f32, 5f32], [9f32, 8f32, 9f32], [2f32, 2f32, 2f32]]
--         [[0f32, 0f32, 0f32], [4f32, 4f32, 4f32], [9f32, 9f32, 9f32]] }
-- output { [0i64, 1i64, 2i64, 0i64] }
-- input { [[1f32], [3f32], [-1f32], [2f32], [7f32]] [[0f32], [2f32], [6f32]] }
-- output { [0i64, 1i64, 0i64, 1i64, 2i64] }
-- input { empty([0][4]f32) [[1f32, 2f32, 3f32, 4f32]] }
-- output { empty([0]i64) }
-- input { empty([3][0]f32) empty([2][0]f32) }
-- output { [0i64, 0i64, 0i64] }

def sqdist [d] (p: [d]f32) (c: [d]f32) : f32 =
  reduce (+) 0 (map2 (\a b -> (a - b) * (a - b)) p c)

def main [n][d][k] (pts: [n][d]f32) (cs: [k][d]f32) : [n]i64 =
  map (\p -> let (best, _) =
               loop (best, best_d) = (0i64, f32.inf) for c < k do
                 let dc = sqdist p cs[c]
                 in if dc < best_d then (c, dc) else (best, best_d)
             in best) pts
