-- reduce_by_index with min: earliest event per bucket.
-- ==
-- input { 3i64 [1i64, 0i64, 1i64, 0i64] [5, 9, 2, 4] }
-- output { [4, 2, 2147483647] }

def main [n] (k: i64) (buckets: [n]i64) (times: [n]i32) : []i32 =
  reduce_by_index (replicate k i32.highest) i32.min i32.highest buckets times
