-- Negative: the map reads other elements of the row it would be built
-- in (a rotation), so building it there would overwrite what later
-- elements read. The copy stays, and the result is the rotation.
-- ==
-- structure mem { Copy 1 }
-- input { [[1i32, 2i32, 3i32, 4i32], [5i32, 6i32, 7i32, 8i32]] 1i64 }
-- output { [[1i32, 2i32, 3i32, 4i32], [6i32, 7i32, 8i32, 5i32]] }

entry main [n][m] (a: *[n][m]i32) (i: i64) : [n][m]i32 =
  let b = map (\j -> a[i, (j + 1) % m]) (iota m)
  let a[i] = b
  in a
