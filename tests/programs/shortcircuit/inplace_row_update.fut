-- let a[i] = map f a[i]: the map reads the row it replaces, each element
-- before writing it, and nothing else of a: it runs in a's row in place.
-- The same for a column of a flat array through flat slices, and for a
-- nest of maps over a block.
-- ==
-- entry: row
-- structure mem { Copy 0 Alloc 0 }
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] 1i64 }
-- output { [[1i32, 2i32, 3i32], [14i32, 15i32, 16i32]] }
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] 2i64 }
-- error: [Oo]ut of bounds|[Ii]ndex

-- ==
-- entry: block
-- structure mem { Copy 0 Alloc 0 }
-- input { [1i32, 2i32, 3i32, 4i32, 5i32, 6i32, 7i32, 8i32, 9i32] }
-- output { [1i32, 2i32, 3i32, 4i32, 10i32, 12i32, 7i32, 16i32, 18i32] }

entry row [n][m] (a: *[n][m]i32) (i: i64) : [n][m]i32 =
  let a[i] = map (+ 10) a[i]
  in a

entry block [n] (xs: *[n]i32) : [n]i32 =
  let b = intrinsics.flat_index_2d xs 4 2 3 2 1
  in intrinsics.flat_update_2d xs 4 3 1 (map (map (* 2)) b)
