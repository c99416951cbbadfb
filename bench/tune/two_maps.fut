-- Two distributed maps, two thresholds (issue 18): a row softmax of xss
-- and a standardisation ((x - mean) / sd) of the rows of yss, whose
-- datasets give each map long rows on some and short rows on others, so
-- that each threshold is tuned on its own degrees of parallelism.
-- `futhorc autotune --exhaustive` tries every combination of the values
-- that make a difference, to measure the tuner against.
-- ==
-- random input { [8][1048576]f32 [1048576][8]f32 }
-- random input { [1048576][8]f32 [8][1048576]f32 }
-- random input { [16384][512]f32 [16384][512]f32 }
-- random input { [2097152][4]f32 [2048][4096]f32 }

def softmax [m] (xs: [m]f32) : [m]f32 =
  let mx = reduce f32.max (-f32.inf) xs
  let es = map (\x -> f32.exp (x - mx)) xs
  let s = reduce (+) 0 es
  in map (/ s) es

def standardise [m] (xs: [m]f32) : [m]f32 =
  let mean = reduce (+) 0 xs / f32.i64 m
  let var = reduce (+) 0 (map (\x -> (x - mean) * (x - mean)) xs) / f32.i64 m
  let sd = f32.sqrt var + 1e-6
  in map (\x -> (x - mean) / sd) xs

def main [n][m][k][l] (xss: [n][m]f32) (yss: [k][l]f32) : ([n][m]f32, [k][l]f32) =
  (map softmax xss, map standardise yss)
