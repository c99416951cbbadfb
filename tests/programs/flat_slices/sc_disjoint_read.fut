-- The map that makes the value reads the destination array, in a region
-- (columns 2-3 of a 2x4 matrix) that the prover shows disjoint from the
-- one written (columns 0-1): the map writes straight into it, no copy.
-- ==
-- structure mem { Copy 0 }
-- input { [1i32, 2i32, 3i32, 4i32, 5i32, 6i32, 7i32, 8i32] }
-- output { [13i32, 14i32, 3i32, 4i32, 17i32, 18i32, 7i32, 8i32] }

entry main [n] (xs: *[n]i32) : *[n]i32 =
  let vs = map (map (+ 10)) (intrinsics.flat_index_2d xs 2 2 4 2 1)
  in intrinsics.flat_update_2d xs 0 4 1 vs
