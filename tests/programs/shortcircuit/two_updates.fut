-- Two rows updated one after the other from fresh maps: each map is built
-- in its row. The second map runs after the first update and reads row 0,
-- which it does not write.
-- ==
-- structure mem { Copy 0 Alloc 0 }
-- input { [[0i32, 0i32], [0i32, 0i32], [9i32, 9i32]] [1i32, 2i32] }
-- output { [[2i32, 3i32], [3i32, 5i32], [9i32, 9i32]] }

entry main [n][m] (a: *[n][m]i32) (b: [m]i32) : [n][m]i32 =
  let a[0] = map (+1) b
  let a[1] = map2 (+) a[0] (map (*1) b)
  in a
