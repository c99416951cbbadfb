-- Exclusive prefix sum built from an inclusive scan.
-- ==
-- input { [3i64, 1i64, 4i64, 1i64, 5i64] }
-- output { [0i64, 3i64, 4i64, 8i64, 9i64] }

def exscan [n] (xs: [n]i64) : [n]i64 =
  map2 (-) (scan (+) 0 xs) xs

def main (xs: []i64) : []i64 = exscan xs
