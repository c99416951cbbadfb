-- A size-variant threshold (thesis §7.5): a loop views its 2^24 elements
-- as n rows of 2^24/n for each n of ns (powers of two) and replaces them
-- with each row's softmax, so one run compares the threshold of the map
-- over rows with several degrees of parallelism (the values of ns). The
-- tuner times each observed value as a cut between the two versions.
-- ==
-- entry: main
-- script input { (mk 16777216i64, [4i64, 64i64, 1024i64, 65536i64, 1048576i64]) }
-- script input { (mk 16777216i64, [1048576i64, 2097152i64, 4194304i64]) }
-- script input { (mk 16777216i64, [16i64, 256i64, 4096i64]) }

def softmax [m] (xs: [m]f32) : [m]f32 =
  let mx = reduce f32.max (-f32.inf) xs
  let es = map (\x -> f32.exp (x - mx)) xs
  let s = reduce (+) 0 es
  in map (/ s) es

-- Inputs made on the device: 2^24 pseudo-random values in [0, 1).
entry mk (k: i64) : [k]f32 =
  map (\i -> f32.u32 (u32.i64 (i * 2654435761) >> 8) / 16777216) (iota k)

entry main [k] (xs: [k]f32) (ns: []i64) : [k]f32 =
  loop ys = xs for n in ns do
    let yss = unflatten (ys :> [n * (k / n)]f32)
    in flatten (map softmax yss) :> [k]f32
