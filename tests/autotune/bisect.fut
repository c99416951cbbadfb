-- A size-variant threshold compared with ten values of P in one run (the
-- loop views 1024 elements as 1, 2, 4, ..., 512 rows): the tuner finds
-- the cut by bisection, at most 8 runs besides the baseline instead of 10
-- (the attribute rules out the map's intra-group version and its threshold;
-- rows.fut's prefix sums have no segmented reduction and its thresholds).
-- (Expected value from the C backend.)
-- ==
-- input { [1i64, 2i64, 4i64, 8i64, 16i64, 32i64, 64i64, 128i64, 256i64, 512i64] }
-- output { 1574916f32 }

def cumul [m] (xs: [m]f32) : [m]f32 =
  let c = scan (+) 0 xs
  in map (* 0.5) c

def main (ns: []i64) : f32 =
  let xs = map (\i -> f32.i64 (i % 7)) (iota 1024)
  in loop acc = 0 for n in ns do
       let xss = unflatten (xs :> [n * (1024 / n)]f32)
       in acc + f32.sum (flatten (#[incremental_flattening(no_intra)] map cumul xss))
