-- A row softmax whose map has two versions (threshold
-- main.suff_outer_par_0; the attribute rules out the intra-group one) and two datasets: tests/autotune/run.sh tunes
-- it. Each run compares the threshold once, so the tuner makes one
-- baseline run and one run per dataset.
-- ==
-- input { [[1f32, 2f32, 3f32], [0f32, 0f32, 0f32]] }
-- output { [[0.09003057f32, 0.24472846f32, 0.66524094f32], [0.33333334f32, 0.33333334f32, 0.33333334f32]] }
-- random input { [64][32]f32 }
-- notune random input { [3][3]f32 }

def softmax [m] (xs: [m]f32) : [m]f32 =
  let mx = reduce f32.max (-f32.inf) xs
  let es = map (\x -> f32.exp (x - mx)) xs
  let s = reduce (+) 0 es
  in map (/ s) es

def main [n][m] (xss: [n][m]f32) : [n][m]f32 = #[incremental_flattening(no_intra)] map softmax xss
