-- Vertical: maps computing the indices and the values fuse into the scatter.
-- (Which of several values for one index is written is unspecified, so
-- the case with a repeated index writes the same value twice.)
-- ==
-- structure { Screma 0 Scatter 1 }
-- input { 4i64 [0i64, 1i64, 3i64, 7i64] [1i32, 2i32, 3i32, 4i32] }
-- output { [30i32, 0i32, 20i32, 10i32] }
-- input { 3i64 [2i64, 2i64] [6i32, 6i32] }
-- output { [60i32, 0i32, 0i32] }

def main [n] (k: i64) (is: [n]i64) (vs: [n]i32) : []i32 =
  scatter (replicate k 0) (map (\i -> k - 1 - i) is) (map (\v -> v * 10) vs)
