-- A histogram of more 4-byte buckets than a work-group's local memory
-- holds (2^22 of them: 16 MiB), so every update is an atomic addition in
-- global memory; and one of few buckets (a sub-histogram in local
-- memory). The indices run from -10 to k + 9: those outside the buckets
-- are ignored.
-- ==
-- structure gpu { SegHist 1 }
-- input { 4194304i64 300000i64 }
-- output { 0i32 0i32 0i32 299999i32 }
-- input { 5i64 1000i64 }
-- output { 40i32 40i32 40i32 200i32 }

def main (k: i64) (n: i64) : (i32, i32, i32, i32) =
  let h = hist (+) 0 k (map (\i -> (i * 7919) % (k + 20) - 10) (iota n)) (replicate n 1i32)
  in (h[0], h[k - 1], h[k / 2], i32.sum h)
