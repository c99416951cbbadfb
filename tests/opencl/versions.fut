-- Two host-level maps of several parallel stages each (a row softmax; a
-- row's maximum and its distance from it; over different row counts, so
-- that they do not fuse), distributed, each with its
-- outer version kept (tests/opencl/run.sh: thresholds, -L logging,
-- --default-threshold and the tuning file).

def softmax [m] (xs: [m]f32) : [m]f32 =
  let mx = reduce f32.max (-f32.inf) xs
  let es = map (\x -> f32.exp (x - mx)) xs
  let s = reduce (+) 0 es
  in map (/ s) es

def spread [m] (xs: [m]i32) : [m]i32 =
  let mx = reduce i32.max i32.lowest xs
  in map (\x -> mx - x) xs

def main [n][m][k] (xss: [n][m]f32) (yss: [k][m]i32) : ([n][m]f32, [k][m]i32) =
  (map softmax xss, map spread yss)
