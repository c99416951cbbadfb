-- Coalescing by layout through views: the row is traversed inside a loop
-- reversed and sliced, and a rank-3 input's rows (matrices) are traversed
-- row by row in an inner map, so both inputs are copied with their outer
-- dimension innermost and every view of a row takes the copy's layout.
-- The rank-3 copy merges its inner dimensions into one 2-D transpose.
-- ==
-- structure mem { Copy 0 }
-- structure gpu { SegMap 1 Copy 2 }
-- input { 3i64 [[1i32, 2i32, 3i32, 4i32], [5i32, 6i32, 7i32, 8i32]]
--         [[[1i32, 0i32], [0i32, 1i32]], [[2i32, 3i32], [4i32, 5i32]]] }
-- output { [[87i32, 3i32, 2i32], [555i32, 18i32, 14i32]] }
-- input { 0i64 [[1i32, 2i32]] [[[1i32]]] }
-- output { [[0i32, 0i32, 1i32]] }

def main [n][m][a][b] (k: i64) (xss: [n][m]i32) (yss: [n][a][b]i32) : [n][3]i32 =
  map2 (\row mat ->
          let r = loop acc = 0 for c < k do
                    acc + i32.sum (map2 (*) (reverse row) row) + i32.sum row[1:] * i32.i64 c
          let t = loop acc = 0 for c < k do
                    acc + i32.sum (map (\mr -> mr[0] * i32.i64 c) mat)
          let u = i32.sum (map (\mr -> i32.sum mr) mat)
          in [r, t, u])
       xss yss
