-- Negative: the row index is computed from the source itself, so it is
-- not known when the source is made; the copy stays.
-- ==
-- structure mem { Copy 1 }
-- input { [[0i32, 0i32], [0i32, 0i32], [0i32, 0i32]] [1i32, 2i32] }
-- output { [[0i32, 0i32], [0i32, 0i32], [2i32, 3i32]] }
-- input { [[0i32, 0i32]] [1i32, 2i32] }
-- error: [Oo]ut of bounds|[Ii]ndex

entry main [n][m] (a: *[n][m]i32) (b: [m]i32) : [n][m]i32 =
  let c = map (+1) b
  let a[i64.i32 c[0]] = c
  in a
