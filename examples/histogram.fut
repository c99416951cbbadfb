-- Histograms.
--
-- Values in the range [lo, hi] are sorted into num_bins bins of equal
-- width (a value equal to hi goes into the last bin); values outside the
-- range are dropped.  The program computes two histograms over the same
-- bins:
--
--   * the number of values in each bin, with hist, and
--   * the sum of the weights of the values in each bin, with
--     reduce_by_index.
--
-- Both are generalised reductions: many values may land in the same bin,
-- and the operator (+) combines them.  Out-of-range values get the bin
-- index -1, and indices outside the histogram are ignored.
-- ==
-- input { 5i64 0.0f32 1.0f32 [0.1f32, 0.35f32, 0.45f32, 0.55f32, 0.9f32, 1.0f32, 0.0f32, -0.3f32,
--    1.7f32, 0.62f32, 0.61f32, 0.25f32] [1.0f32, 2.0f32, 0.5f32, 1.5f32, 3.0f32, 1.0f32, 0.25f32,
--    9.0f32, 9.0f32, 0.75f32, 2.0f32, 1.0f32] }
-- output { [2, 2, 2, 2, 2] [1.25f32, 3.0f32, 2.0f32, 2.75f32, 4.0f32] }
-- input { 4i64 0.0f32 20.0f32 [2.5f32, 7.5f32, 7.5f32, 12.5f32, 17.5f32, 17.5f32, 17.5f32,
--    30.0f32] [1.0f32, 1.0f32, 1.0f32, 1.0f32, 1.0f32, 1.0f32, 1.0f32, 1.0f32] }
-- output { [1, 2, 1, 3] [1.0f32, 2.0f32, 1.0f32, 3.0f32] }
-- input { 3i64 0.0f32 1.0f32 empty([0]f32) empty([0]f32) }
-- output { [0, 0, 0] [0.0f32, 0.0f32, 0.0f32] }

-- | The bin of value x, or -1 if x lies outside [lo, hi].
def bin_of (num_bins: i64) (lo: f32) (hi: f32) (x: f32) : i64 =
  if x < lo || x > hi then -1
  else let t = (x - lo) / (hi - lo) * f32.i64 num_bins
       in i64.min (i64.f32 t) (num_bins - 1)

def main [n] (num_bins: i64) (lo: f32) (hi: f32) (xs: [n]f32) (weights: [n]f32)
       : ([num_bins]i32, [num_bins]f32) =
  let bins = map (bin_of num_bins lo hi) xs
  let counts = hist (+) 0 num_bins bins (replicate n 1)
  let sums = reduce_by_index (replicate num_bins 0) (+) 0 bins weights
  in (counts, sums)
