-- Several private arrays in one kernel, of different element types (f64,
-- i8, bool) and ranks (a k x k matrix also read through its transpose);
-- an if chooses between one of them and its reversal (existential offset
-- and stride). Every block is interleaved.
-- ==
-- entry: main
-- structure gpu { SegMap 1 SegRed 1 Private 8 Interleaved 8 }
-- input { 4i64 [0.5f64, 1.5f64, 3f64] }
-- output { [3f64, 7f64, 42f64] [3i8, 4i8, 3i8] [18f64, 54f64, 108f64] }

-- ==
-- entry: checksum
-- input { 3000i64 5i64 }
-- output { 267975f64 }

def body (k: i64) (x: f64) : (f64, i8, f64) =
  let a = map (\i -> x * f64.i64 i) (iota k)
  let b = map (\i -> i8.i64 ((i + i64.f64 x) % 3)) (iota k)
  let c = map (\i -> a[i] > 1.0) (iota k)
  let d = if x > 2 then a else reverse a
  let s = loop s = 0 for i < k do s + (if c[i] then d[i] * f64.i64 i else f64.i8 b[i])
  let m = tabulate_2d k k (\i j -> x * f64.i64 (i + 2 * j))
  let mt = transpose m
  let u = loop u = 0 for i < k do u + mt[i, 0] + m[k - 1, i]
  in (s, reduce (+) 0 b, u)

def main (k: i64) (xs: []f64) : ([]f64, []i8, []f64) = unzip3 (map (body k) xs)

entry checksum (n: i64) (k: i64) : f64 =
  let (s, b, u) = unzip3 (map (\i -> body k (f64.i64 (i % 10) / 4)) (iota n))
  in reduce (+) 0 s + f64.i64 (reduce (+) 0 (map i64.i8 b)) + reduce (+) 0 u
