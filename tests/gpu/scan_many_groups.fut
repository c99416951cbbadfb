-- Scans over inputs that span many work-groups (a group scans 4096
-- elements by default), so the look-back runs across groups and in rounds:
-- a sum, and a scan with an operator that is associative but does not
-- commute (composition of affine maps x -> a*x + b on i64, two values of
-- two status words each), read at positions on both sides of group
-- boundaries (the two scans fuse into one pass of three values). Expected
-- values from a sequential reference (Python).
-- ==
-- structure gpu { SegScan 1 }
-- input { 100000i64 }
-- output { [49950000i64, 24975000i64, 2045640i64, 2045864i64, 6166515i64]
--          [5254230734727078223i64, 6626516415565857455i64, 4501397543085671247i64, -4942551444452537875i64, 2981945651265332783i64]
--          [-3671126241518632270i64, 2671643275456256735i64, -5065689180391727582i64, 3249676532534368839i64, 7405151423402532463i64] }
-- input { 1i64 }
-- output { [0i64, 0i64, 0i64, 0i64, 0i64] [1i64, 1i64, 1i64, 1i64, 1i64] [-50i64, -50i64, -50i64, -50i64, -50i64] }

def at [n] (xs: [n]i64) : [5]i64 =
  map (\k -> xs[k % n]) [n - 1, n / 2, 4095, 4096, 12345]

def main (n: i64) : ([5]i64, [5]i64, [5]i64) =
  let s = scan (+) 0 (map (\i -> (i * 7919) % 1000) (iota n))
  let (as, bs) = unzip (scan (\(a1, b1) (a2, b2) -> (a1 * a2, b1 * a2 + b2)) (1, 0)
                              (map (\i -> (2 * (i % 3) + 1, (i * 31) % 101 - 50)) (iota n)))
  in (at s, at as, at bs)
