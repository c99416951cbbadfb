-- Three and four flat dimensions, on an array of rows (the flat slice
-- takes the outer dimension; the rows come along) and on an array of
-- pairs (each component is sliced alike).
-- ==
-- entry: rows3
-- input { [[0i32, 0i32], [1i32, 10i32], [2i32, 20i32], [3i32, 30i32],
--          [4i32, 40i32], [5i32, 50i32], [6i32, 60i32], [7i32, 70i32]] }
-- output { [[[[7i32, 70i32], [6i32, 60i32]], [[5i32, 50i32], [4i32, 40i32]]],
--           [[[3i32, 30i32], [2i32, 20i32]], [[1i32, 10i32], [0i32, 0i32]]]] }
-- ==
-- entry: pairs4
-- input { [0i32, 1i32, 2i32, 3i32, 4i32, 5i32, 6i32, 7i32, 8i32, 9i32, 10i32, 11i32, 12i32, 13i32, 14i32, 15i32]
--         [0.0f32, 0.5f32, 1.0f32, 1.5f32, 2.0f32, 2.5f32, 3.0f32, 3.5f32,
--          4.0f32, 4.5f32, 5.0f32, 5.5f32, 6.0f32, 6.5f32, 7.0f32, 7.5f32] }
-- output { 120i32 60.0f32 }

entry rows3 (xs: [][2]i32) : [2][2][2][2]i32 =
  intrinsics.flat_index_3d xs 7 2 (-4) 2 (-2) 2 (-1)

entry pairs4 (is: [16]i32) (fs: [16]f32) : (i32, f32) =
  let v = intrinsics.flat_index_4d (zip is fs) 0 2 8 2 4 2 2 2 1
  let (a, b) = unzip (flatten (flatten (flatten v)))
  in (i32.sum a, f32.sum b)
