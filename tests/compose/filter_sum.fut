-- The prelude's filter over a mapped array, then a sum and a count of the
-- kept elements. filter is a partition: the map and the flag computation
-- fuse into a SegScan of the offsets, and the placement is a scatter
-- (SegMap). The sum runs over the filtered array, whose length is only
-- known after the scan, so it is a separate whole-array SegRed:
-- 1 + 1 + 2 = 4 kernels.
-- ==
-- structure gpu { SegScan 1 SegMap 1 SegRed 1 Kernel 4 }
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] }
-- output { 42i32 4i64 }
-- input { [-2i32] }
-- output { 3i32 1i64 }
-- input { [3i32, 6i32] }
-- output { 0i32 0i64 }
-- input { empty([0]i32) }
-- output { 0i32 0i64 }
-- input @ data/filter_sum.in
-- output @ data/filter_sum.out

def keep_multiples [n] (d: i32) (xs: [n]i32) : []i32 = filter (\x -> x % d == 0) xs

def main (xs: []i32) : (i32, i64) =
  let kept = keep_multiples 3 (map (\x -> x * x - 1) xs)
  in (reduce (+) 0 kept, length kept)
