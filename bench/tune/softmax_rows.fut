-- Row softmax at five shapes of 2^24 elements (bench/RESULTS.md): its map
-- over rows has three versions (issue 18), the outer one (a work-item per
-- row), the intra-group one (a work-group per row, the row in local
-- memory) and the distributed one (segmented reductions and a map over
-- all elements), chosen by thresholds main.suff_outer_par_0 and
-- main.suff_intra_par_1. Short rows in their millions are faster in the
-- outer version, rows of hundreds in the intra-group one, long rows need
-- the distributed one. `futhorc autotune` tunes the thresholds on these
-- datasets; bench/tune/versions.sh times each version alone.
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
