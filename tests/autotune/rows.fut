-- Halved prefix sums of rows (a scan and a map per row, distributed as a
-- segmented scan and a map: no segmented reduction and its thresholds),
-- whose map has two versions (threshold main.suff_outer_par_0; the
-- attribute rules out the intra-group one) and two datasets:
-- tests/autotune/run.sh tunes it. Each run compares the threshold once, so the tuner makes one
-- baseline run and one run per dataset.
-- ==
-- input { [[1f32, 2f32, 3f32], [0f32, 0f32, 0f32]] }
-- output { [[0.5f32, 1.5f32, 3f32], [0f32, 0f32, 0f32]] }
-- random input { [64][32]f32 }
-- notune random input { [3][3]f32 }

def cumul [m] (xs: [m]f32) : [m]f32 =
  let c = scan (+) 0 xs
  in map (* 0.5) c

def main [n][m] (xss: [n][m]f32) : [n][m]f32 = #[incremental_flattening(no_intra)] map cumul xss
