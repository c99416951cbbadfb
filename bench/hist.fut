-- Benchmark: histogram of i32 bin indices into `bins` counters
-- (peers: hist_256_2^27 and hist_1048576_2^27, i.e. bins = 256 and 2^20).
-- Indices outside [0, bins) are ignored, as `hist` does.
-- ==
-- input { 4i64 [0, 1, 1, 3, 3, 3, 7, -1] }
-- output { [1, 2, 0, 3] }
-- input { 2i64 empty([0]i32) }
-- output { [0, 0] }

def main [n] (bins: i64) (is: [n]i32) : [bins]i32 =
  hist (+) 0 bins (map i64.i32 is) (replicate n 1)
