-- Negative: the map reads columns 1-2 and the update writes columns 0-1.
-- Built in place, row 0's element 1 could be overwritten before it is
-- read for element 0: the copy stays and the result is the copy's.
-- ==
-- structure mem { Copy 1 }
-- input { [1i32, 2i32, 3i32, 4i32, 5i32, 6i32, 7i32, 8i32] }
-- output { [12i32, 13i32, 3i32, 4i32, 16i32, 17i32, 7i32, 8i32] }

entry main [n] (xs: *[n]i32) : *[n]i32 =
  let vs = map (map (+ 10)) (intrinsics.flat_index_2d xs 1 2 4 2 1)
  in intrinsics.flat_update_2d xs 0 4 1 vs
