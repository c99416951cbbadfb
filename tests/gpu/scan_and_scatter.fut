-- Negative: the map's result feeds both a scan and a scatter, so it cannot vanish into both: one SegScan (map and index map fused in) plus one scatter SegMap.
-- ==
-- structure gpu { SegScan 1 SegMap 1 Kernel 2 }
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] }
-- output { [2i32, 6i32, 12i32, 20i32, 30i32] [10i32, 2i32, 4i32, 6i32, 8i32] }

def main [n] (xs: [n]i32) : ([n]i32, [n]i32) =
  let ys = map (\x -> x * 2) xs
  let ps = scan (+) 0 ys
  let is = map (\x -> i64.i32 x % n) xs
  let d = scatter (replicate n 0) is ys
  in (ps, d)
