-- Negative: a score map feeds a reduce (total) and a gather that reads it
-- at permuted indices. The map fuses into the reduce (its result kept as an
-- extra output), but the gather needs the whole score array first, so it
-- is a SegMap of its own: SegRed (2 kernels) + SegMap (1) = 3 kernels.
-- ==
-- structure gpu { SegRed 1 SegMap 1 Kernel 3 }
-- input { [1i32, 2i32, 3i32, 4i32] [3i64, 0i64, 2i64, 1i64] }
-- output { 34i32 [13i32, 4i32, 10i32, 7i32] }
-- input { [5i32] [0i64] }
-- output { 16i32 [16i32] }
-- input @ data/shared_producer.in
-- output @ data/shared_producer.out

def scores [n] (xs: [n]i32) : [n]i32 = map (\x -> x * 3 + 1) xs

def gather [n] 'a (src: [n]a) (is: [n]i64) : [n]a = map (\i -> src[i]) is

def main [n] (xs: [n]i32) (perm: [n]i64) : (i32, [n]i32) =
  let s = scores xs
  let total = reduce (+) 0 s
  in (total, gather s perm)
