-- A map over iotas and ranges reads no memory for them: an iota used only
-- as the elements of maps is never built, and each element is computed
-- from the iteration index (start + i * step, in the iota's type: here
-- i64 from 0 and from 1, a step of 2, and i32).
-- ==
-- structure gpu { Iota 0 Alloc 1 SegMap 1 }
-- input { 5i64 }
-- output { [0i64, 10i64, 22i64, 36i64, 52i64] }
-- input { 0i64 }
-- output { empty([0]i64) }

def main (n: i64) : [n]i64 =
  let js = 1..<n + 1
  let ss = 0..2..<2 * n :> [n]i64
  let ks = 0i32..<i32.i64 n :> [n]i32
  in map4 (\i j s k -> i * (j + 1) + s * 3 + i64.i32 k) (iota n) js ss ks
