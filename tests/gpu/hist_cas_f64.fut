-- A histogram whose operator has no atomic function (f64 multiplication):
-- each update is a compare-and-swap loop on the bucket's 64 bits, in
-- global memory (8-byte buckets are never staged in local memory). The
-- indices run from -2 to k + 1, so some fall outside the buckets and are
-- ignored; the factors are powers of two, so every product is exact in
-- any order.
-- ==
-- structure gpu { SegHist 1 Kernel 1 }
-- input { 13i64 5000i64 }
-- output { [2.0f64, 0.5f64, 2.0f64, 0.25f64, 2.0f64, 0.25f64, 1.0f64, 0.25f64, 1.0f64, 4.0f64, 1.0f64, 4.0f64, 1.0f64] }
-- input { 3i64 0i64 }
-- output { [1f64, 1f64, 1f64] }

def main (k: i64) (n: i64) : [k]f64 =
  let is = map (\i -> (i * 31) % (k + 4) - 2) (iota n)
  let vs = map (\i -> f64.i64 (1 << ((i * 7) % 5)) / 4) (iota n)
  in hist (*) 1 k is vs
