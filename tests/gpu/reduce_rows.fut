-- Negative: a reduction whose operator works on arrays (rows) runs as a SegSeq.
-- ==
-- structure gpu { SegRed 0 SegSeq 1 Kernel 1 }
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32], [7i32, 8i32, 9i32]] }
-- output { [12i32, 15i32, 18i32] }

def main [n][m] (xss: [n][m]i32) : [m]i32 =
  reduce (map2 (+)) (replicate m 0) xss
