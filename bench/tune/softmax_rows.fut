-- Row softmax at five shapes of 2^24 elements (bench/RESULTS.md): its map
-- over rows has two versions (issue 18), the outer one (a work-item per
-- row) and the distributed one (segmented reductions and a map over all
-- elements), chosen by threshold main.suff_outer_par_0. Short rows in
-- their millions are faster in the outer version, long rows need the
-- distributed one. `futhorc autotune` tunes the threshold on these
-- datasets; `futhorc bench -p --default-threshold=0` (outer) and
-- `=1099511627776` (distributed) time each version alone.
-- ==
-- random input { [4][4194304]f32 }
-- random input { [64][262144]f32 }
-- random input { [1024][16384]f32 }
-- random input { [65536][256]f32 }
-- random input { [1048576][16]f32 }

def softmax [m] (xs: [m]f32) : [m]f32 =
  let mx = reduce f32.max (-f32.inf) xs
  let es = map (\x -> f32.exp (x - mx)) xs
  let s = reduce (+) 0 es
  in map (/ s) es

def main [n][m] (xss: [n][m]f32) : [n][m]f32 = map softmax xss
