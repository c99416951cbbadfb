-- A large function as the operator of a reduction, a scan and a histogram
-- (its body simplifies to an addition, but it stays a function): the
-- operators of the SegScan (which also reduces) and SegHist kernels call
-- it, over many work-groups.
-- ==
-- structure { Apply 3 }
-- structure gpu { Apply 3 SegScan 1 SegHist 1 Kernel 3 }
-- input { 100000i64 }
-- output { 49950000u32 49950000u32 24975000u32 [9970000u32, 9990000u32, 10010000u32, 10030000u32] }
-- input { 7i64 }
-- output { 21u32 21u32 6u32 [7u32, 2u32, 3u32, 4u32] }

def op (a: u32) (b: u32) : u32 =
  let s = a + b
  let n = a ^ b
  let n = (n ^ (n >> 16)) * 0x45d9f3b
  let n = (n ^ (n >> 16)) * 0x45d9f3b
  let n = n ^ (n >> 16)
  let n = (n << 3) ^ (n >> 5) ^ a
  let n = n * 31 + b * 17 + (n >> 9)
  let n = (n ^ (n << 13)) + 0x6a09e667
  let n = n ^ (n >> 17) ^ (a << 2)
  let n = (n ^ (n << 5)) * 0x9e3779b1
  let n = n + (n >> 1) * 3 - (n << 2)
  let n = (n ^ (n >> 11)) * 0x27d4eb2d + (a >> 3)
  let n = n - (n >> 3) * 5 + (b << 1)
  in s + n * 0

entry main (n: i64) : (u32, u32, u32, []u32) =
  let xs = map (\i -> u32.i64 (i % 1000)) (iota n)
  let ys = scan op 0 xs
  in (reduce op 0 xs, ys[n - 1], ys[n / 2], hist op 0 4 (map (\i -> i % 5 - 1) (iota n)) xs)
