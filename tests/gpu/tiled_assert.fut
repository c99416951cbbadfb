-- Block tiling with an assertion in the code after the tiled reduction
-- (each point checks its dot product), which runs after the group's last
-- barrier: a failing point reports the failure. The second input has a
-- negative product in the last of 130 rows, in the second block's group.
-- ==
-- structure gpu { SegMap 1 Tiled 1 Kernel 1 }
-- input { [[1i32, 2i32], [3i32, 4i32]] [[1i32, 0i32, 2i32], [0i32, 1i32, 1i32]] }
-- output { [[1i32, 2i32, 4i32], [3i32, 4i32, 10i32]] }
-- input { [[1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32],
--           [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32],
--           [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32],
--           [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32],
--           [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32],
--           [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32],
--           [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32],
--           [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32],
--           [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32],
--           [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [1i32], [-1i32]]
--         [[1i32, 2i32]] }
-- error: [Aa]ssert

def main [n][k][m] (a: [n][k]i32) (b: [k][m]i32) : [n][m]i32 =
  map (\row -> map (\col -> let s = i32.sum (map2 (*) row col) in assert (s >= 0) s) (transpose b)) a
