-- 1-D tiling (an n-body-like map whose elements each reduce over the same
-- arrays) at sizes around a work-group and a stage: no elements, no
-- reduction, one of each, partial stages and groups, few elements with a
-- long reduction (several lanes per element) and many with a short one.
-- Integers, so the results equal the C backend's exactly (the .out files).
-- ==
-- structure gpu { Tiled 1 }
-- input { 0i64 5i64 } output { empty([0]i32) }
-- input { 5i64 0i64 } output { [0i32, 0i32, 0i32, 0i32, 0i32] }
-- input { 1i64 1i64 } output { [30i32] }
-- input { 300i64 257i64 } output @ data/tile1_sizes_300x257.out
-- input { 1000i64 700i64 } output @ data/tile1_sizes_1000x700.out
-- input { 3i64 5000i64 } output @ data/tile1_sizes_3x5000.out
-- input { 5000i64 3i64 } output @ data/tile1_sizes_5000x3.out

def main (n: i64) (w: i64) : [n]i32 =
  let xs = map (\i -> i32.i64 (i * 7 % 13) - 6) (iota n)
  let ys = map (\j -> i32.i64 (j * 5 % 11) - 5) (iota w)
  let zs = map (\j -> i32.i64 (j % 17)) (iota w)
  in map (\x -> reduce (+) 0 (map2 (\y z -> x * y + z * z) ys zs)) xs
