-- Rank of each element in a bucketed cumulative histogram: a histogram of
-- derived keys (key map and replicate fused: one SegHist), a scan over the
-- k bins (different width, needs the full histogram: one SegScan), then a
-- gather map over the input that recomputes each key and reads the CDF
-- (needs the whole scan: one SegMap). 3 kernels.
-- ==
-- structure gpu { SegHist 1 SegScan 1 SegMap 1 Kernel 3 }
-- input { 3i64 [5i32, 25i32, 12i32, 31i32, -4i32, 18i32] }
-- output { [2i32, 6i32, 4i32, 6i32, 2i32, 4i32] }
-- input { 1i64 [42i32] }
-- output { [1i32] }
-- input { 2i64 empty([0]i32) }
-- output { empty([0]i32) }
-- input @ data/cdf_rank.in
-- output @ data/cdf_rank.out

def bucket (k: i64) (x: i32) : i64 = i64.min (k - 1) (i64.max 0 (i64.i32 (x / 10)))

def cdf [n] (k: i64) (xs: [n]i32) : [k]i32 =
  hist (+) 0 k (map (bucket k) xs) (replicate n 1) |> scan (+) 0

def main [n] (k: i64) (xs: [n]i32) : [n]i32 =
  let c = cdf k xs
  in map (\x -> c[bucket k x]) xs
