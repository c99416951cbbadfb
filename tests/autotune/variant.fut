-- A size-variant threshold: the loop compares main.suff_outer_par_0
-- with each value of ns (three distinct ones), so the tuner tries each
-- as the cut: one baseline and three runs (the attribute rules out the
-- map's intra-group version and its threshold; rows.fut's prefix sums
-- have no segmented reduction and its thresholds).
-- ==
-- input { [1f32, 2f32, 3f32, 4f32, 5f32, 6f32, 7f32, 8f32] [1i64, 2i64, 4i64, 2i64] }
-- output { 166f32 }

def cumul [m] (xs: [m]f32) : [m]f32 =
  let c = scan (+) 0 xs
  in map (* 0.5) c

def main [k] (xs: [k]f32) (ns: []i64) : f32 =
  loop acc = 0 for n in ns do
    let m = k / n
    let xss = unflatten (take (n * m) xs :> [n * m]f32)
    in acc + f32.sum (flatten (#[incremental_flattening(no_intra)] map cumul xss))
