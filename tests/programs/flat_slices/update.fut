-- flat_update_2d and _3d write an array into a flat slice in place:
-- here the anti-diagonal blocks of a 4x4 matrix, and a column written
-- with stride 4. The value is a fresh map result, built straight in the
-- slice (short-circuiting): no copy remains.
-- ==
-- entry: antidiag
-- structure mem { FlatUpdate 2 Copy 0 }
-- input { [0i64, 1i64, 2i64, 3i64, 4i64, 5i64, 6i64, 7i64,
--          8i64, 9i64, 10i64, 11i64, 12i64, 13i64, 14i64, 15i64] }
-- output { [0i64, 0i64, 1i64, 3i64, 4i64, 2i64, 3i64, 7i64,
--           8i64, 9i64, 4i64, 5i64, 12i64, 13i64, 6i64, 7i64] }
-- ==
-- entry: column
-- input { [1i32, 2i32, 3i32, 4i32, 5i32, 6i32, 7i32, 8i32] [10i32, 20i32] }
-- output { [1i32, 11i32, 3i32, 4i32, 5i32, 21i32, 7i32, 8i32] }
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] [10i32, 20i32] }
-- error: Flat slice out of bounds

entry antidiag [n] (xs: *[n]i64) : *[n]i64 =
  let vs = map (\i -> map (\j -> map (\k -> i * 4 + j * 2 + k) (iota 2)) (iota 2)) (iota 2)
  in intrinsics.flat_update_3d xs 1 9 4 1 vs

entry column [n] (xs: *[n]i32) (c: [2]i32) : *[n]i32 =
  intrinsics.flat_update_2d xs 1 4 1 (map (\x -> replicate 1 (x + 1)) c)
