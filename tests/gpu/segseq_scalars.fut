-- A reduction whose operator works on arrays runs as a SegSeq; its scalar
-- results (beside the row) travel back from its one work-item to the host.
-- ==
-- structure gpu { SegRed 0 SegSeq 1 Kernel 1 }
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32], [7i32, 8i32, 9i32]] [1i32, 20i32, 300i32] [true, false, true] }
-- output { [12i32, 15i32, 18i32] 321i32 2i64 true }
-- input { empty([0][2]i32) empty([0]i32) empty([0]bool) }
-- output { [0i32, 0i32] 0i32 0i64 false }

def main [n][m] (xss: [n][m]i32) (ys: [n]i32) (bs: [n]bool) : ([m]i32, i32, i64, bool) =
  reduce (\(a, x, c, p) (b, y, d, q) -> (map2 (+) a b, x + y, c + d, p || q))
         (replicate m 0, 0, 0, false)
         (zip4 xss ys (map (\b -> if b then 1 else 0) bs) bs)
