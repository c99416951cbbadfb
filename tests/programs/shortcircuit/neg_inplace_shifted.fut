-- Negative: the map reads a[i, 1:] and writes a[i, :m-1], so element j
-- is written before element j+1's work-item may read it. Not the same
-- region: the copy stays.
-- ==
-- structure mem { Copy 1 }
-- input { [[1i32, 2i32, 3i32, 4i32]] 0i64 }
-- output { [[12i32, 13i32, 14i32, 4i32]] }

entry main [n][m] (a: *[n][m]i32) (i: i64) : [n][m]i32 =
  let a[i, :m-1] = map (+ 10) a[i, 1:] :> [m-1]i32
  in a
