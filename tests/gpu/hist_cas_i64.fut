-- A histogram whose operator has no atomic function (i64 multiplication,
-- which wraps): a compare-and-swap loop on the bucket's 64 bits. Indices
-- -1 and k fall outside the buckets and are ignored.
-- ==
-- structure gpu { SegHist 1 Kernel 1 }
-- input { 7i64 3000i64 }
-- output { [0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64] }

def main (k: i64) (n: i64) : [k]i64 =
  hist (*) 1 k (map (\i -> i % (k + 2) - 1) (iota n)) (map (\i -> i % 5 + 1) (iota n))
