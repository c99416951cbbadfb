-- Expected results made by the C backend's program (auto output): with
-- the C backend the case only has to run; with the others a reference
-- program is compiled by futhorc c and its results are compared with
-- theirs.
-- ==
-- input { [1f32, 2f32, 3f32] } auto output
-- random input { [1000]f32 } auto output
-- compiled random input { [100000]f32 } auto output
-- random compiled input { [5000]f32 } auto output
-- script input { mk 50i64 } auto output

entry main (xs: []f32) : (f32, []f32) =
  let ys = scan (+) 0 (map (\x -> x * x) xs)
  in (f32.sum ys / f32.i64 (i64.max 1 (length xs)), ys)

entry mk (n: i64) : []f32 = map (\i -> f32.i64 i / 7) (iota n)
