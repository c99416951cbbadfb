-- A function whose body computes its result's size (an `if` of two ways
-- of making it, a `take` of a flattened tabulate) but declares it [n]:
-- after the check of its result, callers see [n], so a map of its calls
-- has rows of one size known outside the map (as diku-dk/sorts'
-- merge_sort needs; it was rejected as an irregular map). On the GPU the
-- branch's block, of n / 2 pairs (a division by a constant, which cannot
-- fail), is allocated once before the map for all its elements: the map
-- is a kernel, not a SOAC on the host.
-- ==
-- structure gpu { SegMap 1 Host 0 }
-- input { [[1, 2, 3, 4], [5, 6, 7, 8]] 2i64 }
-- output { [2, 1, 4, 3, 6, 5, 8, 7] }
-- input { [[1, 2, 3, 4], [5, 6, 7, 8]] 20i64 }
-- output { [1, 2, 3, 4, 5, 6, 7, 8] }
-- input { [[1, 2, 3]] 2i64 }
-- error: out of bounds

def swap_pairs [n] (xs: [n]i32) (limit: i64) : [n]i32 =
  if limit > n then xs
  else let pairs = n / 2
       in take n (flatten (tabulate pairs (\i -> [xs[2 * i + 1], xs[2 * i]])))

entry main [m] [n] (xss: [m][n]i32) (limit: i64) : []i32 =
  flatten (map (\xs -> swap_pairs xs limit) xss)
