-- Size-variant thresholds (thesis §7.5): a loop views its 2^22 elements
-- as n rows of 2^22/n for each n of ns (powers of two, none 2^11) and
-- replaces them with each row's softmax, then views the result as 2^22/n
-- rows of n and standardises each row. Each run compares the thresholds
-- of the two maps over rows with several degrees of parallelism (n and
-- 2^22/n for the values of ns). The tuner times each observed value as a
-- cut between the two versions of each map.
-- ==
-- entry: main
-- script input { (mk 4194304i64, [4i64, 64i64, 1024i64, 65536i64, 1048576i64]) }
-- script input { (mk 4194304i64, [262144i64, 524288i64, 1048576i64]) }
-- script input { (mk 4194304i64, [16i64, 256i64, 8192i64]) }

def softmax [m] (xs: [m]f32) : [m]f32 =
  let mx = reduce f32.max (-f32.inf) xs
  let es = map (\x -> f32.exp (x - mx)) xs
  let s = reduce (+) 0 es
  in map (/ s) es

-- Inputs made on the device: k pseudo-random values in [0, 1).
entry mk (k: i64) : [k]f32 =
  map (\i -> f32.u32 (u32.i64 (i * 2654435761) >> 8) / 16777216) (iota k)

def standardise [m] (xs: [m]f32) : [m]f32 =
  let mean = reduce (+) 0 xs / f32.i64 m
  let var = reduce (+) 0 (map (\x -> (x - mean) * (x - mean)) xs) / f32.i64 m
  let sd = f32.sqrt var + 1e-6
  in map (\x -> (x - mean) / sd) xs

entry main [k] (xs: [k]f32) (ns: []i64) : [k]f32 =
  loop ys = xs for n in ns do
    let yss = unflatten (ys :> [n * (k / n)]f32)
    let zss = unflatten (flatten (map softmax yss) :> [(k / n) * n]f32)
    in flatten (map standardise zss) :> [k]f32
