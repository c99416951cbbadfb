-- Coalescing by layout: each work-item traverses its row twice (a sum,
-- then a map that scales the row by it), so the input is read through a
-- transposed copy; the results are written row by row as before.
-- ==
-- structure mem { Copy 0 }
-- structure gpu { SegMap 1 Copy 1 }
-- input { [[1i32, 2i32, 3i32], [0i32, -1i32, 1i32], [4i32, 0i32, 0i32]] }
-- output { [[6i32, 12i32, 18i32], [0i32, 0i32, 0i32], [16i32, 0i32, 0i32]] }
-- input { [[7i32]] }
-- output { [[49i32]] }
-- input { empty([0][5]i32) }
-- output { empty([0][5]i32) }

def main [n][m] (xss: [n][m]i32) : [n][m]i32 =
  map (\row -> let s = i32.sum row in map (* s) row) xss
