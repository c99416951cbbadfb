-- Lower-bound binary search with a while loop, for many queries.
-- ==
-- input { [1, 3, 5, 7, 9, 11, 13] [0, 1, 4, 13, 14, 8] }
-- output { [0i64, 0i64, 2i64, 6i64, 7i64, 4i64] }

def lower_bound [n] (xs: [n]i32) (t: i32) : i64 =
  let (lo, _) =
    loop (lo, hi) = (0, n) while lo < hi do
      let mid = (lo + hi) / 2
      in if xs[mid] < t then (mid + 1, hi) else (lo, mid)
  in lo

def main (xs: []i32) (ts: []i32) : []i64 = map (lower_bound xs) ts
