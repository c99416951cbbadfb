-- Flattened map nests: the slots of a k-means step, flatten (map (\c -> map (\j -> c*d + j) (iota d)) membership), are computed element by element inside the reduce_by_index that reads them (slot t is membership[t / d] * d + t mod d): no [n][d] array of slots is built, and the nest's map does not join the assignment map.
-- ==
-- structure { Screma 2 Hist 1 Reshape 2 }
-- structure gpu { SegHist 1 }
-- input { [[0f32, 0f32], [1f32, 0f32], [10f32, 10f32], [11f32, 12f32], [0f32, 1f32]] [[0f32, 0.5f32], [10f32, 11f32], [-50f32, -50f32]] }
-- output { [[1f32, 1f32], [21f32, 22f32], [0f32, 0f32]] [0i64, 0i64, 1i64, 1i64, 0i64] }
-- input { empty([0][2]f32) [[1f32, 2f32]] }
-- output { [[0f32, 0f32]] empty([0]i64) }
-- input { empty([2][0]f32) empty([1][0]f32) }
-- output { empty([1][0]f32) [0i64, 0i64] }

def nearest [k][d] (cs: [k][d]f32) (p: [d]f32) : i64 =
  let (best, _) =
    loop (best, best_d) = (0i64, f32.inf) for c < k do
      let dc = f32.sum (map2 (\a b -> (a - b) * (a - b)) p cs[c])
      in if dc < best_d then (c, dc) else (best, best_d)
  in best

def main [n][d][k] (pts: [n][d]f32) (cs: [k][d]f32) : ([k][d]f32, [n]i64) =
  let membership = map (nearest cs) pts
  let slots = flatten (map (\c -> map (\j -> c * d + j) (iota d)) membership)
  let sums = reduce_by_index (replicate (k * d) 0) (+) 0 slots (flatten pts)
  in (unflatten sums, membership)
