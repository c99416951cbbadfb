-- flat_index_2d: a 2-D view of a flat array through an offset and two
-- strides, here the 2x3 block at row 1, column 1 of a 4x5 matrix stored
-- row-major, and a view with a negative stride (rows read backwards). A
-- view copies nothing.
-- ==
-- entry: block
-- structure mem { FlatIndex 2 Copy 0 }
-- input { [0i32, 1i32, 2i32, 3i32, 4i32, 5i32, 6i32, 7i32, 8i32, 9i32,
--          10i32, 11i32, 12i32, 13i32, 14i32, 15i32, 16i32, 17i32, 18i32, 19i32] }
-- output { [[6i32, 7i32, 8i32], [11i32, 12i32, 13i32]] }

-- ==
-- entry: backwards
-- input { [0i32, 1i32, 2i32, 3i32, 4i32, 5i32] }
-- output { [[4i32, 5i32], [2i32, 3i32], [0i32, 1i32]] }
-- input { [0i32, 1i32, 2i32, 3i32, 4i32] }
-- error: Flat slice out of bounds

entry block (xs: []i32) : [2][3]i32 =
  intrinsics.flat_index_2d xs 6 2 5 3 1

entry backwards (xs: []i32) : [3][2]i32 =
  intrinsics.flat_index_2d xs 4 3 (-2) 2 1
