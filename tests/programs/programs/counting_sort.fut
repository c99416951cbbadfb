-- Counting sort of small keys: hist, exclusive scan, then expansion.
-- ==
-- input { [3i64, 1i64, 4i64, 1i64, 5i64, 9i64, 2i64, 6i64, 5i64, 3i64] }
-- output { [1i64, 1i64, 2i64, 3i64, 3i64, 4i64, 5i64, 5i64, 6i64, 9i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) }

def counting_sort [n] (k: i64) (xs: [n]i64) : []i64 =
  let counts = hist (+) 0 k xs (replicate n 1i64)
  let starts = map2 (-) (scan (+) 0 counts) counts
  let ranks = map (\i -> reduce (+) 0 (map (\j -> if xs[j] == xs[i] && j < i then 1 else 0) (iota n))) (iota n)
  let dest = map2 (\x r -> starts[x] + r) xs ranks
  in scatter (replicate n 0) dest xs

def main (xs: []i64) : []i64 = counting_sort 10 xs
