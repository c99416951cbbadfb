-- Scans of values of every width in one pass over inputs that span many
-- work-groups: f64 and i64 values travel in two status words each (their
-- sums need the upper 32 bits), i8 (negative, wrapping), bool and f32 in
-- one; and an operator on a tuple of an f64 and an i32 that does not
-- commute (a sum, and the last non-zero element). Sampled around work-group
-- boundaries; expected values from a sequential reference (Python).
-- ==
-- structure gpu { SegScan 1 }
-- input { 100000i64 }
-- output { [0.0f64, -499.5f64, -312.0f64, -587.5f64, -120.0f64, -171.5f64, -1104.0f64]
--          [49950000349650000i64, 24975000174825000i64, 2002560014017920i64, 2002656014018592i64, 4014336028100352i64, 4014528028101696i64, 38763753271346271i64]
--          [91i8, -81i8, -3i8, -6i8, -5i8, -7i8, 43i8]
--          [true, true, false, false, false, false, true]
--          [100002.0f32, 100001.0f32, 99984.0f32, 99984.0f32, 100001.0f32, 100001.0f32, 100002.0f32]
--          [24999.75f64, 12500.25f64, 1023.75f64, 1024.0f64, 2047.75f64, 2048.25f64, 19444.5f64]
--          [99995i32, 50000i32, 4095i32, 4095i32, 8190i32, 8190i32, 77775i32] }
-- input { 1i64 }
-- output { [-499.5f64, -499.5f64, -499.5f64, -499.5f64, -499.5f64, -499.5f64, -499.5f64]
--          [0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64]
--          [-4i8, -4i8, -4i8, -4i8, -4i8, -4i8, -4i8]
--          [false, false, false, false, false, false, false]
--          [0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32]
--          [0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64]
--          [0i32, 0i32, 0i32, 0i32, 0i32, 0i32, 0i32] }
-- input { 0i64 }
-- output { [0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64]
--          [0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64]
--          [0i8, 0i8, 0i8, 0i8, 0i8, 0i8, 0i8]
--          [false, false, false, false, false, false, false]
--          [0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32]
--          [0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64]
--          [0i32, 0i32, 0i32, 0i32, 0i32, 0i32, 0i32] }

def at 't [n] (xs: [n]t) (z: t) : [7]t =
  map (\k -> if n == 0 then z else xs[k % n]) [n - 1, n / 2, 4095, 4096, 8191, 8192, 77777]

def main (n: i64) =
  let is = iota n
  let a = scan (+) 0f64 (map (\i -> f64.i64 (i * 7919 % 1000) - 499.5) is)
  let b = scan (+) 0i64 (map (\i -> i % 1000 * 1000000007) is)
  let c = scan (+) 0i8 (map (\i -> i8.i64 (i % 7) - 4) is)
  let d = scan (||) false (map (\i -> i % 40000 == 39999) is)
  let e = scan f32.max (-f32.inf) (map (\i -> f32.i64 (i * 7919 % 100003)) is)
  let (f, g) = unzip (scan (\(s1, l1) (s2, l2) -> (s1 + s2, if l2 != 0 then l2 else l1)) (0f64, 0i32)
                           (map (\i -> (f64.i64 (i % 3) * 0.25, if i % 5 == 0 then i32.i64 i else 0)) is))
  in (at a 0, at b 0, at c 0, at d false, at e 0, at f 0, at g 0)
