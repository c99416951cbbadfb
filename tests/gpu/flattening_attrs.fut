-- Futhark's #[incremental_flattening(...)] rules versions of a map out
-- (issue 18): softmax_a has no intra-group version (one threshold, no
-- SegGroup), softmax_b no outer version (one threshold, the intra-group
-- version or the distributed one), softmax_c the distributed version
-- alone (no threshold), softmax_d all three (two thresholds), softmax_e
-- the intra-group version alone (only_intra: no threshold, one SegGroup;
-- rows of 5000 are wider than PoCL's work-groups, whose work-items then
-- stride over them), softmax_f the map as written alone
-- (sequential_inner, in Futhark's newer spelling #[flattening(...)]: no
-- threshold), softmax_g as softmax_a in that spelling: Threshold 5,
-- SegGroup 3 in all. Expected values from the C backend (auto output).
-- ==
-- entry: softmax_a softmax_b softmax_c softmax_d softmax_e softmax_f softmax_g
-- random input { [5][64]f32 } auto output
-- random input { [3][7]f32 } auto output
-- random input { [2][5000]f32 } auto output
-- structure gpu { Threshold 5 SegGroup 3 }

def softmax [m] (xs: [m]f32) : [m]f32 =
  let mx = reduce f32.max (-f32.inf) xs
  let es = map (\x -> f32.exp (x - mx)) xs
  let s = reduce (+) 0 es
  in map (/ s) es

entry softmax_a [n][m] (xss: [n][m]f32) : [n][m]f32 = #[incremental_flattening(no_intra)] map softmax xss
entry softmax_b [n][m] (xss: [n][m]f32) : [n][m]f32 = #[incremental_flattening(no_outer)] map softmax xss
entry softmax_c [n][m] (xss: [n][m]f32) : [n][m]f32 = #[incremental_flattening(only_inner)] map softmax xss
entry softmax_d [n][m] (xss: [n][m]f32) : [n][m]f32 = map softmax xss
entry softmax_e [n][m] (xss: [n][m]f32) : [n][m]f32 = #[incremental_flattening(only_intra)] map softmax xss
entry softmax_f [n][m] (xss: [n][m]f32) : [n][m]f32 = #[flattening(sequential_inner)] map softmax xss
entry softmax_g [n][m] (xss: [n][m]f32) : [n][m]f32 = #[flattening(no_intra)] map softmax xss
