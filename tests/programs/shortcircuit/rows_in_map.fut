-- Short-circuiting inside a map's body: each element copies its row,
-- updates a prefix of the copy with a map, and returns it. The copy is
-- made in the element's row of the result (the update's result is the
-- element's), and the inner map in the copy's prefix: one copy (of the
-- input row), one block (the result).
-- ==
-- structure mem { Copy 1 Alloc 1 }
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] 2i64 }
-- output { [[2i32, 3i32, 3i32], [5i32, 6i32, 6i32]] }

entry main [n][m] (xs: [n][m]i32) (k: i64) : [n][m]i32 =
  map (\r -> let r' = copy r
             let r'[0:k] = map (+1) r[0:k]
             in r') xs
