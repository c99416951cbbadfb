-- Short-circuiting an update: the map's result is built in row i of the
-- unique matrix, so there is no fresh block and no copy. The bounds check
-- runs before the map writes the row (an index out of range fails with
-- nothing written outside the matrix).
-- ==
-- structure mem { Copy 0 Alloc 0 }
-- input { [[1f32, 2f32], [3f32, 4f32], [5f32, 6f32]] [7f32, 8f32] 1i64 }
-- output { [[1f32, 2f32], [14f32, 16f32], [5f32, 6f32]] }
-- input { [[1f32, 2f32]] [7f32, 8f32] 0i64 }
-- output { [[14f32, 16f32]] }
-- input { [[1f32, 2f32], [3f32, 4f32]] [7f32, 8f32] 2i64 }
-- error: [Oo]ut of bounds|[Ii]ndex
-- input { [[1f32, 2f32], [3f32, 4f32]] [7f32, 8f32] -1i64 }
-- error: [Oo]ut of bounds|[Ii]ndex

entry main [n][m] (a: *[n][m]f32) (b: [m]f32) (i: i64) : [n][m]f32 =
  let a[i] = map (\x -> x * 2) b
  in a
