-- A scan of f16 across many work-groups: each group publishes its
-- aggregate and prefix in status words as a half's bits (16 of a word's
-- 32), which the look-back reads back. One element in 50 is 0.5, the rest
-- 0, so every prefix (at most 1000, where halves are 0.5 apart) is exact
-- whatever the order of the additions; the result is checked against the
-- same scan of i64 (a conversion instead of the bits would lose the
-- halves).
-- ==
-- structure gpu { SegScan 1 }
-- input { 100000i64 }
-- output { true 1000f16 }
-- input { 1i64 }
-- output { true 0.5f16 }

def main (n: i64) : (bool, f16) =
  let ones = map (\i -> i % 50 == 0) (iota n)
  let s = scan (+) 0 (map (\b -> if b then 0.5f16 else 0) ones)
  let t = scan (+) 0 (map i64.bool ones)
  in (and (map2 (\x y -> f64.f16 x * 2 == f64.i64 y) s t), s[n - 1])
