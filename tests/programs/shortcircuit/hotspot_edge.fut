-- A Hotspot-style row of a grid: a corner, the edge and a corner joined.
-- The literals and the map are built in the result; only the parameter
-- w, which is not fresh, is copied.
-- ==
-- structure mem { Copy 1 }
-- input { [1i32, 2i32, 3i32] [7i32, 8i32] }
-- output { [0i32, 2i32, 4i32, 6i32, 0i32, 7i32, 8i32] }

entry main [n][m] (e: [n]i32) (w: [m]i32) : []i32 =
  [0i32] ++ map (*2) e ++ [0i32] ++ w
