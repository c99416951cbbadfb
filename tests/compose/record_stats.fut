-- A helper returning a record {lo, hi, total} of three reductions over the
-- same mapped array. The map fuses into all three (vertical) and the three
-- reductions fuse with each other (horizontal): one whole-array SegRed,
-- 2 kernels. Empty input: hi - lo = i32.lowest - i32.highest wraps to 1.
-- ==
-- structure gpu { SegRed 1 SegMap 0 Kernel 2 }
-- input { [1i32, 2i32, 3i32, 4i32] }
-- output { 6i32 4i32 0i64 }
-- input { [10i32] }
-- output { 0i32 70i32 70i64 }
-- input { empty([0]i32) }
-- output { 1i32 -2147483648i32 0i64 }
-- input @ data/record_stats.in
-- output @ data/record_stats.out

type summary = {lo: i32, hi: i32, total: i64}

def summarise [n] (xs: [n]i32) : summary =
  let ys = map (\x -> x * x - 3 * x) xs
  in { lo = reduce i32.min i32.highest ys
     , hi = reduce i32.max i32.lowest ys
     , total = reduce (+) 0 (map i64.i32 ys) }

def main (xs: []i32) : (i32, i32, i64) =
  let s = summarise xs
  in (s.hi - s.lo, s.hi, s.total)
