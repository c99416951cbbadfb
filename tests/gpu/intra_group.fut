-- Intra-group versions (issue 18): maps whose elements run their parallel
-- operations together in one work-group (a SegGroup), chosen when the
-- rows (32 elements or more) do not reach the outer version's threshold
-- and reach main.suff_intra_par_N. One entry point per shape of the
-- group level; the shorter rows take the distributed versions. A map that
-- is not distributed (fused: a scan and a reduction of the same row fuse
-- into one operation) gets an intra-group version too, and so do the
-- maps of scan_reduce's and updates' interchanged loops.
-- Expected values from the C backend (auto output). tests/run.sh runs
-- these with every threshold at 0 (outer versions) and at 2^40
-- (distributed) too.
-- ==
-- structure gpu { Threshold 18 SegGroup 9 }
-- entry: softmax_rows
-- random input { [7][100]f32 } auto output
-- random input { [3][1000]f32 } auto output
-- random input { [5][16]f32 } auto output
-- random input { [0][40]f32 } auto output
-- random input { [4][0]f32 } auto output
-- ==
-- entry: scan_loop
-- random input { [6][300]i32 } auto output
-- random input { [2][33]i32 } auto output
-- random input { [9][5]i32 } auto output
-- ==
-- entry: scan_reduce
-- random input { [5][200]i32 } auto output
-- random input { [3][57]i32 } auto output
-- ==
-- entry: fused
-- random input { [5][200]i32 } auto output
-- random input { [7][9]i32 } auto output
-- ==
-- entry: affine
-- random input { [4][150]i32 [4][150]i32 } auto output
-- ==
-- entry: widths
-- random input { [3][40]i32 [90]i32 } auto output
-- random input { [3][90]i32 [40]i32 } auto output
-- ==
-- entry: updates
-- random input { [4][64]i32 } auto output

def softmax [m] (xs: [m]f32) : [m]f32 =
  let mx = reduce f32.max (-f32.inf) xs
  let es = map (\x -> f32.exp (x - mx)) xs
  let s = reduce (+) 0 es
  in map (/ s) es

entry softmax_rows [m][n] (xss: [m][n]f32) : [m][n]f32 = map softmax xss

entry scan_loop [m][n] (xss: [m][n]i32) : [m][n]i32 =
  map2 (\row i -> loop row for k < 3 do scan (+) 0 (map (\x -> (x + i32.i64 i + i32.i64 k) % 1000) row))
       xss (iota m)

entry scan_reduce [m][n] (xss: [m][n]i32) : [m][n]i32 =
  map (\row -> loop row for _k < 2 do
                 let s = scan (+) 0 row
                 let t = reduce (+) 0 (map (* 2) row)
                 in map (\x -> (x + t) % 10007) s) xss

entry fused [m][n] (xss: [m][n]i32) : [m][n]i32 =
  map (\row -> let s = scan (+) 0 row
               let t = reduce (+) 0 (map (* 2) row)
               in map (+ t) s) xss

-- A non-commutative reduction (composition of affine maps), then a map.
entry affine [m][n] (ass: [m][n]i32) (bss: [m][n]i32) : [m][n]i32 =
  map2 (\as bs -> let (a, b) = reduce (\(a1, b1) (a2, b2) -> (a1 * a2, b1 * a2 + b2)) (1, 0)
                                      (zip (map (% 3) as) (map (% 100) bs))
                  in map (\x -> x * a + b) as) ass bss

-- Group-level operations of two widths: the group is as wide as the wider.
entry widths [m][n][k] (xss: [m][n]i32) (ys: [k]i32) : [m][k]i32 =
  map (\row -> let s = reduce (+) 0 row
               let mx = reduce i32.max i32.lowest (map (+ s) ys)
               in map (\y -> y * s - mx) ys) xss

-- In-place updates, iota and replicate at the group level.
entry updates [m][n] (xss: [m][n]i32) : [m][n]i32 =
  map (\row -> loop row for k < 2 do
                 let mx = reduce i32.max i32.lowest row
                 let r = copy row with [0] = mx
                 let c = map2 (+) r (map i32.i64 (iota n))
                 let z = replicate n mx with [n - 1] = i32.i64 k
                 in scan (+) 0 (map2 (-) c z)) xss
