-- filter and partition keeping every element, none or some, and of empty arrays: the number kept is the last element of the flags' prefix sum (0 for an empty input), not a reduction, so the fused Screma of the two is one SegScan with no second kernel, then one SegMap per scatter: 3 kernels in each entry point, and large's three sums are SegReds (2 kernels each); the counts are of the whole program. 5000 and 100001 elements span several groups.
-- ==
-- entry: small
-- structure gpu { SegScan 2 SegMap 4 SegRed 3 Kernel 12 }
-- input { 0i32 empty([0]i32) }
-- output { empty([0]i32) 0i64 empty([0]i32) empty([0]i32) }
-- input { -1i32 [1i32, 2i32, 3i32] }
-- output { [1i32, 2i32, 3i32] 3i64 empty([0]i32) [1i32, 2i32, 3i32] }
-- input { 10i32 [1i32, 2i32, 3i32] }
-- output { empty([0]i32) 0i64 [1i32, 2i32, 3i32] empty([0]i32) }
-- input { 2i32 [3i32, 1i32, 2i32, 5i32, 0i32] }
-- output { [3i32, 5i32] 2i64 [1i32, 0i32] [3i32, 2i32, 5i32] }

-- ==
-- entry: large
-- input { -1i32 5000i64 }
-- output { 5000i64 2497500i64 81i64 0i64 0i64 -1i64 2497500i64 81i64 }
-- input { 1000i32 5000i64 }
-- output { 0i64 0i64 -1i64 5000i64 2497500i64 81i64 0i64 -1i64 }
-- input { 500i32 5000i64 }
-- output { 2495i64 1871250i64 567i64 2500i64 623750i64 81i64 1873750i64 567i64 }
-- input { 500i32 0i64 }
-- output { 0i64 0i64 -1i64 0i64 0i64 -1i64 0i64 -1i64 }
-- input { 0i32 100001i64 }
-- output { 99900i64 49950000i64 81i64 0i64 0i64 -1i64 49950000i64 0i64 }

entry small (t: i32) (xs: []i32) =
  let ys = filter (\x -> x > t) xs
  let (as, bs) = partition (\x -> x < t) xs
  in (ys, length ys, as, bs)

def last (xs: []i64) : i64 = if length xs > 0 then xs[length xs - 1] else -1

entry large (t: i32) (n: i64) =
  let xs = map (\i -> (i * 7919) % 1000) (iota n)
  let ys = filter (\x -> x > i64.i32 t) xs
  let (as, bs) = partition (\x -> x < i64.i32 t) xs
  in (length ys, i64.sum ys, last ys, length as, i64.sum as, last as, i64.sum bs, last bs)
