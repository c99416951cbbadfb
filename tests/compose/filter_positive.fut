-- A hand-written filter: flags (map) -> offsets (scan) -> target indices
-- (map2 over flags and offsets) -> scatter. The flag map fuses into the
-- scan (it is kept as an extra result or recomputed); the index map2 reads
-- the scan result at the same index, so it fuses into the scatter. Scan
-- then scatter stay apart (the scatter needs the total count and every
-- offset): one SegScan + one SegMap = 2 kernels.
-- ==
-- structure gpu { SegScan 1 SegMap 1 Kernel 2 }
-- input { [3i32, -1i32, 0i32, 7i32, -5i32, 2i32] }
-- output { [3i32, 7i32, 2i32] }
-- input { [-1i32, -2i32] }
-- output { empty([0]i32) }
-- input { [9i32] }
-- output { [9i32] }
-- input { empty([0]i32) }
-- output { empty([0]i32) }
-- input @ data/filter_positive.in
-- output @ data/filter_positive.out

def keep_if [n] 'a (p: a -> bool) (dflt: a) (xs: [n]a) : []a =
  let flags = map (\x -> if p x then 1i64 else 0i64) xs
  let offs = scan (+) 0 flags
  let m = if n == 0 then 0 else offs[n - 1]
  let is = map2 (\f o -> if f == 1 then o - 1 else -1) flags offs
  in scatter (replicate m dflt) is xs

def main (xs: []i32) : []i32 = keep_if (> 0) 0 xs
