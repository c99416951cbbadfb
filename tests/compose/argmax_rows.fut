-- Row-wise argmax: a map over rows of a reduce with a tuple operator over
-- (row, iota m). A map of a reduce is one segmented SegRed: 1 kernel.
-- ==
-- structure gpu { SegRed 1 SegMap 0 Kernel 1 }
-- input { [[1i32, 5i32, 3i32], [9i32, 2i32, 9i32], [-1i32, -2i32, -3i32]] }
-- output { [1i64, 0i64, 0i64] }
-- input { [[4i32]] }
-- output { [0i64] }
-- input { empty([0][3]i32) }
-- output { empty([0]i64) }
-- input @ data/argmax_rows.in
-- output @ data/argmax_rows.out

def argmax [m] (row: [m]i32) : i64 =
  let pick (a: i32, i: i64) (b: i32, j: i64) : (i32, i64) =
    if a > b || (a == b && i < j) then (a, i) else (b, j)
  let (_, i) = reduce pick (i32.lowest, -1) (zip row (iota m))
  in i

def main [n][m] (xss: [n][m]i32) : [n]i64 = map argmax xss
