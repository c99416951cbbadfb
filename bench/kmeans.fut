-- Benchmark: one k-means step (peers: kmeans_step_2^20x16x32).  Each point
-- is assigned to its nearest centre (squared Euclidean distance; the first
-- of equally near centres wins), and each new centre is the mean of the
-- points assigned to it; an empty cluster divides by max(count, 1) and so
-- becomes the zero vector.  The assignment is a map over points with a
-- sequential loop over the centres; the centre sums are a histogram of the
-- points' rows combined by map2 (+), as futhark-benchmarks' Rodinia k-means
-- writes it, plus a histogram of counts.
-- ==
-- input { [[0.0f32, 0.0f32], [1.0f32, 0.0f32], [10.0f32, 10.0f32], [11.0f32, 12.0f32], [0.0f32, 1.0f32]]
--         [[0.0f32, 0.5f32], [10.0f32, 11.0f32], [-50.0f32, -50.0f32]] }
-- output { [[0.333333f32, 0.333333f32], [10.5f32, 11.0f32], [0.0f32, 0.0f32]] }

-- | The squared distance between two points.
def sqdist [d] (p: [d]f32) (c: [d]f32) : f32 =
  reduce (+) 0 (map2 (\a b -> (a - b) * (a - b)) p c)

-- | The index of the centre nearest to p.
def nearest [k][d] (cs: [k][d]f32) (p: [d]f32) : i64 =
  let (best, _) =
    loop (best, best_d) = (0i64, f32.inf) for c < k do
      let dc = sqdist p cs[c]
      in if dc < best_d then (c, dc) else (best, best_d)
  in best

def main [n][d][k] (pts: [n][d]f32) (cs: [k][d]f32) : [k][d]f32 =
  let membership = map (nearest cs) pts
  let sums = hist (map2 (+)) (replicate d 0) k membership pts
  let counts = hist (+) 0 k membership (replicate n 1i32)
  in tabulate_2d k d (\c j -> sums[c, j] / f32.i32 (i32.max counts[c] 1))
