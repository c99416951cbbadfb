-- Negative: an in-place update sits between a map and the scan that
-- consumes it, so the map is materialised (a SegMap); the second map (*2)
-- fuses into the scan (a SegScan): 2 kernels.
-- ==
-- structure gpu { SegMap 1 SegScan 1 Kernel 2 }
-- input { [1i32, 2i32, 3i32, 4i32] }
-- output { [0i32, 6i32, 14i32, 24i32] }
-- input { [9i32] }
-- output { [0i32] }
-- input @ data/update_between_scan.in
-- output @ data/update_between_scan.out

def shift [n] (c: i32) (xs: [n]i32) : *[n]i32 = map (+ c) xs

def main [n] (xs: [n]i32) : [n]i32 =
  let ys = shift 1 xs
  let ys[0] = 0
  in scan (+) 0 (map (* 2) ys)
