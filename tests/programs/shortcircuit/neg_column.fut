-- Negative: the map reads column 0, which crosses the row it would be
-- built in. Its twin column_above reads only the rows above.
-- ==
-- structure mem { Copy 1 }
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] 1i64 }
-- output { [[1i32, 2i32], [1i32, 3i32], [5i32, 6i32]] }

entry main [n][m] (a: *[n][m]i32) (i: i64) : [n][m]i32 =
  let col = a[:, 0]
  let b = map (\j -> col[j % n]) (iota m)
  let a[i] = b
  in a
