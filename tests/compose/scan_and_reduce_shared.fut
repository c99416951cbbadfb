-- Negative: one map feeds both a running maximum (scan) and a sum
-- (reduce). The three fuse into one scan-and-reduce, but a scan and a
-- reduction are different GPU operations: the map goes into the SegScan
-- (which also writes the mapped array) and the sum is a SegRed over it:
-- 1 + 2 = 3 kernels. (Running the fused scan-and-reduce in a single
-- work-item, as one SegSeq, is not an acceptable way to save kernels.)
-- ==
-- structure gpu { SegScan 1 SegRed 1 SegMap 0 Kernel 3 }
-- input { [3i32, 9i32, 4i32, 10i32] }
-- output { [-2i32, 4i32, 4i32, 5i32] 6i32 }
-- input { [5i32] }
-- output { [0i32] 0i32 }
-- input { empty([0]i32) }
-- output { empty([0]i32) 0i32 }
-- input @ data/scan_and_reduce_shared.in
-- output @ data/scan_and_reduce_shared.out

def running_max [n] (xs: [n]i32) : [n]i32 = scan i32.max i32.lowest xs

def main (xs: []i32) : ([]i32, i32) =
  let gains = map (\x -> x - 5) xs
  in (running_max gains, reduce (+) 0 gains)
