-- A stable two-way partition (evens first) written with a scan over pairs
-- of counters: the class map fuses into the pair scan (a tuple of scalars
-- is still one SegScan), and the index map2 over classes and offsets fuses
-- into the scatter: one SegScan + one SegMap = 2 kernels. Futhark's `%`
-- rounds towards negative infinity, so -3 % 2 == 1 (odd).
-- ==
-- structure gpu { SegScan 1 SegMap 1 Kernel 2 }
-- input { [1i32, 2i32, 3i32, 4i32, 5i32, 6i32] }
-- output { [2i32, 4i32, 6i32, 1i32, 3i32, 5i32] 3i64 }
-- input { [-3i32, 0i32] }
-- output { [0i32, -3i32] 1i64 }
-- input { [7i32] }
-- output { [7i32] 0i64 }
-- input { empty([0]i32) }
-- output { empty([0]i32) 0i64 }
-- input @ data/partition_parity.in
-- output @ data/partition_parity.out

def partition_by [n] 'a (p: a -> bool) (xs: [n]a) : ([n]a, i64) =
  let flags = map (\x -> if p x then (1i64, 0i64) else (0i64, 1i64)) xs
  let offs = scan (\(a1, b1) (a2, b2) -> (a1 + a2, b1 + b2)) (0, 0) flags
  let (k, _) = if n == 0 then (0, 0) else offs[n - 1]
  let is = map2 (\(f, _) (t, e) -> if f == 1 then t - 1 else k + e - 1) flags offs
  in (scatter (copy xs) is xs, k)

def main (xs: []i32) : ([]i32, i64) = partition_by (\x -> x % 2 == 0) xs
