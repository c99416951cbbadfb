-- A weighted histogram (key map and |weight| map fused into a SegHist, 1
-- kernel), then normalise: the sum over the k bins is a whole-array SegRed
-- (2 kernels), and the division map needs that sum (a SegMap, 1 kernel).
-- The histogram must be complete before the sum over its bins starts.
-- 4 kernels. Keys are reduced with `%` (rounds towards negative infinity,
-- so -1 % 3 == 2).
-- ==
-- structure gpu { SegHist 1 SegRed 1 SegMap 1 Kernel 4 }
-- input { 3i64 [0i64, 1i64, 2i64, 3i64, 4i64, -1i64] [1.0f32, -2.0f32, 3.0f32, 4.0f32, -5.0f32, 6.0f32] }
-- output { [0.238095238f32, 0.333333333f32, 0.428571429f32] }
-- input { 2i64 [5i64] [-2.0f32] }
-- output { [0.0f32, 1.0f32] }
-- input @ data/hist_normalise.in
-- output @ data/hist_normalise.out

def weighted_hist [n] (k: i64) (keys: [n]i64) (ws: [n]f32) : [k]f32 =
  hist (+) 0 k (map (\x -> x % k) keys) (map f32.abs ws)

def sum [n] (xs: [n]f32) : f32 = reduce (+) 0 xs

def normalise [n] (xs: [n]f32) : [n]f32 =
  let s = sum xs
  in map (/ s) xs

def main [n] (k: i64) (keys: [n]i64) (ws: [n]f32) : [k]f32 =
  normalise (weighted_hist k keys ws)
