-- The map reads the part of column 0 above row i: a strided region
-- that the prover shows disjoint from row i, so b is built in the row.
-- ==
-- structure mem { Copy 0 Alloc 0 }
-- input { [[1i32, 2i32, 0i32], [3i32, 4i32, 0i32], [5i32, 6i32, 0i32]] 2i64 }
-- output { [[1i32, 2i32, 0i32], [3i32, 4i32, 0i32], [1i32, 3i32, 1i32]] }

entry main [n][m] (a: *[n][m]i32) (i: i64) : [n][m]i32 =
  let col = a[0:i, 0]
  let b = map (\j -> col[j % i]) (iota m)
  let a[i] = b
  in a
