-- Flattened map nests (fuse.c's flatten_nest) at their edges, with results checked on every backend: a flattened
-- result coerced to a size (its check kept, and failing), an inner map over another map's result rather than an iota,
-- a scan and a map as consumers, rows of a matrix with an array bound outside, a nest inside another map's function,
-- empty outer and inner widths. (From a review of the rule; every case agreed between the backends.)
-- ==
-- entry: coerce
-- input { [1i64, 2i64, 3i64] 2i64 6i64 }
-- output { 30i64 }
-- input { [1i64, 2i64, 3i64] 2i64 5i64 }
-- error: cannot match shape
-- entry: stepped
-- input { [1i64, 2i64, 3i64] 4i64 }
-- output { [7i64, 11i64, 15i64, 19i64, 8i64, 12i64, 16i64, 20i64, 9i64, 13i64, 17i64, 21i64] }
-- input { empty([0]i64) 4i64 }
-- output { empty([0]i64) }
-- input { [1i64, 2i64] 0i64 }
-- output { empty([0]i64) }
-- entry: scanned
-- input { [1i64, 2i64, 3i64] 2i64 }
-- output { [1i64, 3i64, 5i64, 8i64, 11i64, 15i64] }
-- entry: two_arrays
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] [10i32, 20i32] }
-- output { [10i32, 40i32, 30i32, 80i32, 50i32, 120i32] }
-- entry: nested
-- input { [1i64, 2i64] [3i64, 4i64, 5i64] 2i64 }
-- output { [20i64, 26i64, 32i64] }

entry coerce (xs: []i64) (d: i64) (k: i64) : i64 =
  let ys = flatten (map (\x -> map (\j -> x + j) (iota d)) xs) :> [k]i64
  in i64.sum (map (*2) ys)

entry stepped (xs: []i64) (d: i64) : []i64 =
  map (+1) (flatten (map (\x -> map (\j -> x + j) (map (\j -> 5 + j*4) (iota d))) xs))

entry scanned (xs: []i64) (d: i64) : []i64 =
  scan (+) 0 (flatten (map (\x -> map (\j -> x + j) (iota d)) xs))

entry two_arrays [n][m] (rows: [n][m]i32) (ys: [m]i32) : []i32 =
  map (+0) (flatten (map (\r -> map2 (\a y -> a * y) r ys) rows))

entry nested (xs: []i64) (ks: []i64) (d: i64) : []i64 =
  map (\k -> i64.sum (flatten (map (\x -> map (\j -> x*k + j) (iota d)) xs))) ks
