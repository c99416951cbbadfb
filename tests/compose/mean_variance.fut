-- (mean, variance) where variance calls mean twice (once on the input, once
-- on the squared deviations) and main calls mean again. The two identical
-- sums of xs become one (CSE or horizontal fusion); the deviation map needs
-- the mean first, then fuses into the second sum. 2 whole-array SegReds,
-- no SegMap: 4 kernels.
-- ==
-- structure gpu { SegRed 2 SegMap 0 Kernel 4 }
-- input { [2.0f64, 4.0f64, 4.0f64, 4.0f64, 5.0f64, 5.0f64, 7.0f64, 9.0f64] }
-- output { 5.0f64 4.0f64 }
-- input { [3.0f64] }
-- output { 3.0f64 0.0f64 }
-- input { [-1.0f64, 1.0f64] }
-- output { 0.0f64 1.0f64 }
-- input @ data/mean_variance.in
-- output @ data/mean_variance.out

def mean [n] (xs: [n]f64) : f64 = reduce (+) 0 xs / f64.i64 n

def variance [n] (xs: [n]f64) : f64 =
  let m = mean xs
  in mean (map (\x -> (x - m) * (x - m)) xs)

def main (xs: []f64) : (f64, f64) = (mean xs, variance xs)
