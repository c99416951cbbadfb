-- Matrix product: the two outer maps form one SegMap, the dot product runs sequentially in each work-item.
-- ==
-- structure gpu { SegMap 1 SegRed 0 Kernel 1 }
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] [[1i32, 0i32, 2i32], [0i32, 1i32, -1i32]] }
-- output { [[1i32, 2i32, 0i32], [3i32, 4i32, 2i32], [5i32, 6i32, 4i32]] }

def main [n][m][p] (a: [n][m]i32) (b: [m][p]i32) : [n][p]i32 =
  map (\r -> map (\c -> reduce (+) 0 (map2 (*) r c)) (transpose b)) a
