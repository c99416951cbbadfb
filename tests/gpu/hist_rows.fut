-- A histogram of rows combined by an elementwise operator (map2 (+)) is
-- a SegHist of scalars over the flat buckets (pass flatten): one update
-- per element of a row, not one work-item for the whole histogram.
-- Out-of-bounds indices, negative or past the buckets, are ignored, the
-- extreme ones too (-2^63 * d wraps to 0: bucket 0 if the flat index were
-- computed from it unguarded). The
-- counts are the program's: main's SegHist, and built's SegSeq below.
-- ==
-- structure gpu { SegHist 1 SegSeq 1 Kernel 2 }
-- input { 3i64 [0i64, 2i64, 1i64, 2i64, 5i64, -1i64, 0i64, 3i64, -9223372036854775808i64, 9223372036854775807i64]
--         [[1f32, 2f32], [3f32, 4f32], [5f32, 6f32], [7f32, 8f32], [9f32, 9f32], [9f32, 9f32], [10f32, 20f32], [1f32, 1f32],
--          [100f32, 100f32], [100f32, 100f32]] }
-- output { [[11f32, 22f32], [5f32, 6f32], [10f32, 12f32]] }
-- input { 2i64 empty([0]i64) empty([0][3]f32) }
-- output { [[0f32, 0f32, 0f32], [0f32, 0f32, 0f32]] }

def main [n][d] (k: i64) (is: [n]i64) (vs: [n][d]f32) : [k][d]f32 =
  hist (map2 (+)) (replicate d 0) k is vs

-- Negative: a neutral element that is not one scalar replicated, and a
-- lambda that builds its rows, keep the histogram in one work-item.
-- ==
-- entry: built
-- input { 3i64 [0i64, 2i64, 2i64, 7i64] }
-- output { [[0i64, 1i64], [0i64, 0i64], [3i64, 5i64]] }

entry built [n] (k: i64) (is: [n]i64) : [k][2]i64 =
  let rows = map (\i -> map (\j -> i + j) (iota 2)) (iota n)
  in reduce_by_index (replicate k [0, 0]) (map2 (+)) [0, 0] is rows
