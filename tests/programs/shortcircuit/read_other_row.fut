-- The positive twin of neg_read_between: the element read between the
-- map and the update is in row 0 and the update writes row 1, disjoint
-- regions, so nothing is copied.
-- ==
-- structure mem { Copy 0 Alloc 0 }
-- input { [[1i32, 2i32], [3i32, 4i32]] [7i32, 8i32] }
-- output { [[1i32, 2i32], [8i32, 9i32]] 1i32 }
-- input { [[1i32, 2i32]] [7i32, 8i32] }
-- error: [Oo]ut of bounds|[Ii]ndex

entry main [n][m] (a: *[n][m]i32) (b: [m]i32) : ([n][m]i32, i32) =
  let c = map (+1) b
  let s = a[0, 0]
  let a[1] = c
  in (a, s)
