-- A chain: the concatenation is itself built in row i of a unique matrix,
-- and its first part, a map, in the first columns of that row. Only z,
-- a parameter, is copied.
-- ==
-- structure mem { Copy 1 Alloc 0 }
-- input { [[0i32, 0i32, 0i32], [0i32, 0i32, 0i32]] [1i32, 2i32] [5i32] 1i64 }
-- output { [[0i32, 0i32, 0i32], [2i32, 3i32, 5i32]] }

entry main [n][m][k] (a: *[n][k]i32) (y: [m]i32) (z: [k-m]i32) (i: i64) : [n][k]i32 =
  let a[i] = concat (map (+1) y) z :> [k]i32
  in a
