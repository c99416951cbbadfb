-- Vertical: bucket and value maps fuse into the histogram.
-- ==
-- structure { Screma 0 Hist 1 }
-- input { 3i64 [3i64, 8i64, 1i64, 4i64, 6i64, 9i64, 2i64, 5i64] }
-- output { [126i64, 17i64, 93i64] }
-- input { 4i64 [3i64, 8i64, 1i64, 4i64, 6i64, 9i64, 2i64, 5i64] }
-- output { [80i64, 107i64, 40i64, 9i64] }

def main [n] (k: i64) (xs: [n]i64) : []i64 =
  hist (+) 0 k (map (\x -> x % k) xs) (map (\x -> x * x) xs)
