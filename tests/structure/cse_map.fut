-- Two identical maps are computed once (and fusion then merges the result into the map2).
-- ==
-- structure { Screma 1 }
-- input { [1i64, 2i64, 3i64] }
-- output { [4i64, 10i64, 20i64] }

def main (xs: []i64) : []i64 =
  map2 (+) (map (\x -> x * x + 1) xs) (map (\y -> y * y + 1) xs)
