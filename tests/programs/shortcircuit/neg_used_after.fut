-- Negative: the source is read after the update, so it keeps a block of
-- its own and is copied.
-- ==
-- structure mem { Copy 1 }
-- input { [[0i32, 0i32], [0i32, 0i32]] [1i32, 2i32] }
-- output { [[0i32, 0i32], [2i32, 3i32]] 5i32 }

entry main [n][m] (a: *[n][m]i32) (b: [m]i32) : ([n][m]i32, i32) =
  let c = map (+1) b
  let a[n-1] = c
  in (a, reduce (+) 0 c)
