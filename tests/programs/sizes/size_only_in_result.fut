-- Definitions whose size parameter is in no parameter type: each use takes
-- the size from the type it is used at.
-- ==
-- input { 3i64 }
-- output { [0i64, 1i64, 2i64, 3i64, 4i64, 5i64] [7, 7, 7, 7, 7, 7] 15i64 [[0i64, 0i64], [1i64, 1i64]] }

def indices [n] : [n]i64 = iota n

def grid [n] [m] : [n][m]i64 = tabulate_2d n m (\i _ -> i)

def main (k: i64) =
  let (is, xs) = unzip (zip indices (replicate (2 * k) 7i32))
  in (is, xs, i64.sum (indices : [k + 3]i64), grid : [2][2]i64)
