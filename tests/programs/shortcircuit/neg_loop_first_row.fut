-- Negative: in a loop that writes row i, an element of row 0 is read
-- between the map and the update. Row 0 is row i in the first iteration,
-- so b cannot be built in row i first: a loop index may be 0 (only the
-- destination's own sizes may be taken as >= 1). The sum reads the old
-- a[0, 0] once, then the new one: 100 + 6 + 6.
-- ==
-- structure mem { Copy 1 }
-- input { [[100i32, 0i32], [0i32, 0i32], [0i32, 0i32]] [5i32, 6i32] }
-- output { [[6i32, 7i32], [6i32, 7i32], [6i32, 7i32]] 112i32 }

entry main [n][m] (a: *[n][m]i32) (c: [m]i32) : ([n][m]i32, i32) =
  loop (a, s) = (a, 0) for i < n do
    let b = map (+ 1) c
    let x = a[0, 0]
    let a[i] = b
    in (a, s + x)
