-- A scan fused with reductions whose operators do not commute (first and last non-zero element, composition of affine maps x -> a*x + b, that is a product of 2x2 matrices) and one that does (+), and a map output: one SegScan whose scan kernel folds the reductions in element order (through local memory), then the second kernel of a SegRed; 4097 and 100000 elements span several groups.
-- ==
-- structure gpu { Screma 1 SegScan 1 SegRed 0 SegSeq 0 Kernel 2 }
-- input { 0i64 }
-- output { 0i32 0i32 0i32 0i32 1i32 0i32 0i32 0i32 }
-- input { 1i64 }
-- output { 0i32 0i32 0i32 0i32 -1i32 -2i32 0i32 1i32 }
-- input { 5i64 }
-- output { 1757i32 3190i32 0i32 0i32 -1i32 0i32 0i32 1353i32 }
-- input { 4097i64 }
-- output { 1023018i32 2046908i32 993i32 999i32 1i32 -9i32 37i32 553i32 }
-- input { 100000i64 }
-- output { 24975650i32 49950000i32 993i32 998i32 1i32 -64i32 900i32 737i32 }

-- x -> a*x + b, then x -> c*x + d.
def compose (a: i32, b: i32) (c: i32, d: i32) : (i32, i32) = (a * c, c * b + d)

def main (n: i64) =
  let xs = map (\i -> i32.i64 ((i * 7919 + i / 1000 * 13) % 1000)) (iota n)
  let ps = scan (+) 0 xs
  let big = map (\x -> if x > 990 then x else 0) xs
  let first = reduce (\a b -> if a == 0 then b else a) 0 big
  let last = reduce (\a b -> if b == 0 then a else b) 0 big
  let (a, b) = reduce compose (1, 0) (map (\x -> (if x % 3 == 0 then -1 else 1, x % 5 - 2)) xs)
  let count = reduce (+) 0 (map (\x -> if x > 990 then 1 else 0) xs)
  let ws = map (\x -> x * 2 + 1) xs
  in (if n > 0 then ps[n / 2] else 0, if n > 0 then ps[n - 1] else 0, first, last, a, b, count,
      if n > 0 then ws[n - 1] else 0)
