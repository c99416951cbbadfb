-- A table built with tabulate_2d, then row sums (map of reduce). The outer
-- maps fuse, the inner tabulated map fuses into the row reduce, and a map
-- of a reduce is one segmented SegRed: 1 kernel. No row is materialised.
-- ==
-- structure gpu { SegRed 1 SegMap 0 Kernel 1 }
-- input { 3i64 4i64 }
-- output { [10i64, 13i64, 16i64] }
-- input { 2i64 0i64 }
-- output { [0i64, 0i64] }
-- input { 0i64 5i64 }
-- output { empty([0]i64) }
-- input @ data/tabulate_rowsums.in
-- output @ data/tabulate_rowsums.out

def table (n: i64) (m: i64) : [n][m]i64 =
  tabulate_2d n m (\i j -> (i + 1) * (j + 1) % 7)

def main (n: i64) (m: i64) : [n]i64 =
  map (\row -> reduce (+) 0 row) (table n m)
