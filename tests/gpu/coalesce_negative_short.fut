-- Negative: rows of two f32 (8 bytes: the shape is known, as the points
-- are the pairs of a flat array) traversed once per centre: a warp's
-- loads span two cache lines, which its next loads find again, so the
-- copy would not pay and the points are not copied. (An entry point's
-- array parameter has sizes known only at run time: coalesce_loop.fut.)
-- The second SegMap is the interchanged version's (a host loop over the
-- centres; issue 18), which copies nothing either.
-- The map also has an intra-group version (a SegGroup: a work-group per
-- element, under its own threshold main.suff_intra_par_N).
-- ==
-- structure gpu { Threshold 2 SegMap 2 SegGroup 1 Copy 0 }
-- input { [0f32, 0f32, 5f32, 5f32, 1f32, 4f32] [[0f32, 1f32], [4f32, 4f32]] }
-- output { [0i64, 1i64, 1i64] }

def main [m][k] (flat: [m]f32) (cs: [k][2]f32) : []i64 =
  let n = m / 2
  let pts = unflatten (flat[:n * 2] :> [n * 2]f32) :> [n][2]f32
  in map (\p -> let (best, _) =
                  loop (best, best_d) = (0i64, f32.inf) for c < k do
                    let dc = f32.sum (map2 (\a b -> (a - b) * (a - b)) p cs[c])
                    in if dc < best_d then (c, dc) else (best, best_d)
                in best) pts
