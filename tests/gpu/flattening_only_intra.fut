-- #[incremental_flattening(only_intra)] on a map that is not distributed
-- (a loop of a scan, a reduction and a map per row): the intra-group
-- version alone, no threshold. Rows of 5000 are wider than PoCL's
-- work-groups. Expected values from the C backend (auto output).
-- ==
-- random input { [4][100]i32 } auto output
-- random input { [2][5000]i32 } auto output
-- random input { [3][0]i32 } auto output
-- structure gpu { Threshold 0 SegGroup 1 }

entry main [n][m] (xss: [n][m]i32) : [n][m]i32 =
  #[incremental_flattening(only_intra)]
  map (\r -> loop r for i < 3 do
               let s = scan (+) 0 r
               let t = reduce (+) 0 s
               in map (+ (t + i32.i64 i)) s)
      xss
