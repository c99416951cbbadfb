-- Two scans (i64 +, i32 max), four commutative reductions of different widths (i32 +, i64 min, bool &&, u8 xor) and a map output all fused into one Screma: one SegScan whose scan kernel folds the reductions as it maps its elements, then the second kernel of a SegRed; 4097 and 100000 elements span several groups.
-- ==
-- structure gpu { Screma 1 SegScan 1 SegRed 0 SegSeq 0 Kernel 2 }
-- input { 0i64 }
-- output { 0i64 0i64 0i32 0i32 0i32 9223372036854775807i64 true 0u8 0i32 0i32 }
-- input { 1i64 }
-- output { 0i64 0i64 -500i32 -500i32 -500i32 11i64 true 0u8 -1500i32 -1500i32 }
-- input { 5i64 }
-- output { 1757i64 3190i64 419i32 419i32 690i32 11i64 true 128u8 528i32 1014i32 }
-- input { 4097i64 }
-- output { 1023018i64 2046908i64 499i32 499i32 -1592i32 0i64 false 236u8 -672i32 -1086i32 }
-- input { 100000i64 }
-- output { 24975650i64 49950000i64 499i32 499i32 -50000i32 0i64 false 0u8 -396i32 450i32 }

def main (n: i64) =
  let xs = map (\i -> (i * 7919 + i / 1000 * 13) % 1000) (iota n)
  let ys = map (\x -> i32.i64 x - 500) xs
  let ps = scan (+) 0 xs
  let ms = scan i32.max i32.lowest ys
  let s = reduce (+) 0 ys
  let lo = reduce i64.min i64.highest (map (\x -> (x * 37 + 11) % 1013) xs)
  let all = reduce (&&) true (map (\x -> x != 500) xs)
  let h = reduce (^) 0u8 (map u8.i64 xs)
  let zs = map (\y -> y * 3) ys
  in (if n > 0 then ps[n / 2] else 0, if n > 0 then ps[n - 1] else 0,
      if n > 0 then ms[n / 3] else 0, if n > 0 then ms[n - 1] else 0,
      s, lo, all, h, if n > 0 then zs[n - 1] else 0, if n > 0 then zs[n / 2] else 0)
