-- Run-length encoding: run values and run lengths via start flags and filter.
-- ==
-- input { [1, 1, 2, 2, 2, 3, 1, 1] }
-- output { [1, 2, 3, 1] [2i64, 3i64, 1i64, 2i64] }
-- input { empty([0]i32) }
-- output { empty([0]i32) empty([0]i64) }

def main [n] (xs: [n]i32) : ([]i32, []i64) =
  let starts = map (\i -> i == 0 || xs[i] != xs[i - 1]) (iota n)
  let start_is = filter (\i -> starts[i]) (iota n)
  let k = length start_is
  let ends = map (\j -> if j == k - 1 then n else start_is[j + 1]) (indices start_is)
  in (map (\i -> xs[i]) start_is, map2 (-) ends start_is)
