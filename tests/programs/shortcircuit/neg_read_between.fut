-- Negative: the destination's row is read between the map and the update
-- (s reads a[i, 0] after b exists), so b cannot be built in that row
-- first. The copy stays, and s is the old element.
-- ==
-- structure mem { Copy 1 }
-- input { [[1i32, 2i32], [3i32, 4i32]] [7i32, 8i32] 1i64 }
-- output { [[1i32, 2i32], [8i32, 9i32]] 3i32 }

entry main [n][m] (a: *[n][m]i32) (b: [m]i32) (i: i64) : ([n][m]i32, i32) =
  let c = map (+1) b
  let s = a[i, 0]
  let a[i] = c
  in (a, s)
