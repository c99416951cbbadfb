-- A histogram of 4-byte buckets whose operator has no atomic function
-- (i32 multiplication, which wraps): a compare-and-swap loop on the
-- bucket's 32 bits, in the work-group's sub-histogram in local memory,
-- which is then combined into the destination by the same loop. Indices
-- -2, -1 and k fall outside the buckets and are ignored.
-- ==
-- structure gpu { SegHist 1 Kernel 1 }
-- input { 6i64 4000i64 }
-- output { [0i32, 0i32, 0i32, 0i32, 0i32, 0i32] }

def main (k: i64) (n: i64) : [k]i32 =
  hist (*) 1 k (map (\i -> i % (k + 3) - 2) (iota n)) (map (\i -> i32.i64 (i % 7 + 1)) (iota n))
