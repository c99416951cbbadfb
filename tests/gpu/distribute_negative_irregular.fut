-- Negative (distribution): a map whose stages run over a prefix of the
-- row whose length the body computes (it differs between rows) cannot
-- be split into maps of regular arrays, so it stays one SegMap whose
-- work-items run the stages over their own row.
-- ==
-- structure gpu { SegMap 1 SegRed 0 Kernel 1 }
-- input { [[5i32, 1i32, 4i32], [2i32, 9i32, 7i32], [0i32, 3i32, 3i32]] }
-- output { [5i32, 9i32, 0i32] }
-- input { empty([0][3]i32) }
-- output { empty([0]i32) }

def main [n][m] (xss: [n][m]i32) : [n]i32 =
  map (\row -> let k = i64.i32 (row[0] % 3) + 1
               let pre = row[0:k]
               let mx = i32.maximum pre
               in i32.sum (map (\x -> mx - x) pre)) xss
