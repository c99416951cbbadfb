-- The inner map-reduce runs over a slice whose width depends on the outer
-- element: the segments are ragged, so this is an irregular segmented
-- SegRed (a few lanes per row), not a perfect nest; no allocation, as
-- slicing is free.
-- ==
-- structure gpu { SegMap 0 SegRed 1 Host 0 Kernel 1 }
-- input { [[1i32, 2i32, 3i32, 4i32], [5i32, 6i32, 7i32, 8i32], [9i32, 10i32, 11i32, 12i32]] [0i64, 4i64, 2i64] }
-- output { [0i32, 52i32, 38i32] }

def main [n][m] (xss: [n][m]i32) (ks: [n]i64) : [n]i32 =
  map2 (\row k -> reduce (+) 0 (map (*2) row[0:k])) xss ks
