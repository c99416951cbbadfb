-- The inner map's width m is bound outside and its body reads the outer element k: still one flattened SegMap.
-- ==
-- structure gpu { SegMap 1 Kernel 1 }
-- input { [[1i32, 2i32, 3i32, 4i32], [5i32, 6i32, 7i32, 8i32]] [1i64, 3i64] }
-- output { [[1i32, 1i32, 1i32, 1i32], [5i32, 6i32, 7i32, 5i32]] }

def main [n][m] (xss: [n][m]i32) (ks: [n]i64) : [n][m]i32 =
  map2 (\row k -> map (\j -> row[j % k]) (iota m)) xss ks
