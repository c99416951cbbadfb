-- Cheap scalar code before the inner map keeps the nest perfect: one SegMap.
-- ==
-- structure gpu { SegMap 1 Kernel 1 }
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] [1i32, 2i32] }
-- output { [[2i32, 4i32, 6i32], [20i32, 25i32, 30i32]] }

def main [n][m] (xss: [n][m]i32) (cs: [n]i32) : [n][m]i32 =
  map2 (\row c -> let k = c * c + 1 in map (\x -> x * k) row) xss cs
