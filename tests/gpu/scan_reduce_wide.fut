-- A scan of f64 values (two status words) fused with reductions whose
-- operators do not commute, of an i64 (the last non-zero element) and an
-- f32 (the first non-zero one), and one that does (|| of bools): the scan
-- kernel stages the reduction values through local memory after the scan
-- values, each work-item folds its elements in order, and the second
-- kernel of a reduction combines the work-groups' results in order. The
-- scan is sampled around work-group boundaries; expected values from a
-- sequential reference (Python).
-- ==
-- structure gpu { SegScan 1 Kernel 3 }
-- input { 100000i64 }
-- output { [0.0f64, -499.5f64, -312.0f64, -587.5f64, -120.0f64, -171.5f64, -1104.0f64] 99998000699986i64 33335.0f32 true }
-- input { 5i64 }
-- output { [692.5f64, 258.5f64, -499.5f64, -80.0f64, -80.0f64, 258.5f64, 258.5f64] 3000000021i64 0.0f32 false }
-- input { 1i64 }
-- output { [-499.5f64, -499.5f64, -499.5f64, -499.5f64, -499.5f64, -499.5f64, -499.5f64] 0i64 0.0f32 false }
-- input { 0i64 }
-- output { [0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64] 0i64 0.0f32 false }

def main (n: i64) =
  let is = iota n
  let s = scan (+) 0f64 (map (\i -> f64.i64 (i * 7919 % 1000) - 499.5) is)
  let last = reduce (\a b -> if b != 0 then b else a) 0i64
                    (map (\i -> if i % 7 == 3 then i * 1000000007 else 0) is)
  let first = reduce (\a b -> if a != 0 then a else b) 0f32
                     (map (\i -> if i > n / 3 && i % 11 == 5 then f32.i64 i else 0) is)
  let any = reduce (||) false (map (\i -> i == 77777) is)
  let at = map (\k -> if n == 0 then 0 else s[k % n]) [n - 1, n / 2, 4095, 4096, 8191, 8192, 77777]
  in (at, last, first, any)
