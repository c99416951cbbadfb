-- Offsets from sizes: clamp (map) -> inclusive scan -> exclusive scan as
-- map2 (-) over the scan result and the clamped sizes. The clamp map fuses
-- into the scan (kept as an extra result); the map2 after the scan stays a
-- SegMap of its own (Futhark does not fuse a map that consumes a scan's
-- result into the scan): SegScan + SegMap = 2 kernels.
-- ==
-- structure gpu { SegScan 1 SegMap 1 Kernel 2 }
-- input { [3i64, -1i64, 2i64, 5i64] }
-- output { [0i64, 3i64, 3i64, 5i64] }
-- input { [7i64] }
-- output { [0i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) }
-- input @ data/exclusive_scan.in
-- output @ data/exclusive_scan.out

def exscan [n] (xs: [n]i64) : [n]i64 = map2 (-) (scan (+) 0 xs) xs

def offsets_of_sizes [n] (sizes: [n]i64) : [n]i64 =
  exscan (map (i64.max 0) sizes)

def main (sizes: []i64) : []i64 = offsets_of_sizes sizes
