-- #[incremental_flattening(only_intra)] on maps whose intra-group version
-- is all there is, with no threshold: a map that is not distributed (a
-- loop of a scan, a reduction and a map per row) and a map of one
-- reduction per row (otherwise a segmented reduction). Rows of 5000 are
-- wider than PoCL's work-groups. Expected values from the C backend (auto
-- output).
-- ==
-- entry: main row_sums
-- random input { [4][100]i32 } auto output
-- random input { [2][5000]i32 } auto output
-- random input { [3][0]i32 } auto output
-- structure gpu { Threshold 0 SegGroup 2 SegRed 0 }

entry main [n][m] (xss: [n][m]i32) : [n][m]i32 =
  #[incremental_flattening(only_intra)]
  map (\r -> loop r for i < 3 do
               let s = scan (+) 0 r
               let t = reduce (+) 0 s
               in map (+ (t + i32.i64 i)) s)
      xss

entry row_sums [n][m] (xss: [n][m]i32) : [n]i32 =
  #[incremental_flattening(only_intra)] map (\r -> reduce (+) 0 r) xss
