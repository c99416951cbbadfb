-- Negative (vertical, no duplication): the bucket map is returned as well, so it cannot vanish into the histogram.
-- ==
-- structure { Screma 1 Hist 1 }
-- input { 3i64 [3i64, 8i64, 1i64, 4i64, 6i64, 9i64, 2i64, 5i64] }
-- output { [18i64, 5i64, 15i64] [0i64, 2i64, 1i64, 1i64, 0i64, 0i64, 2i64, 2i64] }

def main [n] (k: i64) (xs: [n]i64) : ([]i64, []i64) =
  let bs = map (\x -> x % k) xs
  in (hist (+) 0 k bs xs, bs)
