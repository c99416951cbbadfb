-- Iotas read element by element by a scatter (the positions of an
-- inverse permutation) and by a histogram (its bucket indices, a range
-- from 1) are not built either: each element is start + i * step.
-- ==
-- structure gpu { Iota 0 SegMap 1 SegHist 1 }
-- input { [2i64, 0i64, 3i64, 1i64] }
-- output { [1i64, 3i64, 0i64, 2i64] [1i32, 1i32, 1i32, 1i32] }
-- input { empty([0]i64) }
-- output { empty([0]i64) empty([0]i32) }

def main [n] (p: [n]i64) : ([n]i64, [n]i32) =
  let inv = scatter (replicate n 0) p (iota n)
  let h = hist (+) 0 n (map (\i -> i % n) (1..<n + 1 :> [n]i64)) (replicate n 1i32)
  in (inv, h)
