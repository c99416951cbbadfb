-- A map of a reduction over few long rows: a work-group per row would
-- leave most of the device idle, so each row takes several groups, which
-- leave partial results that a second kernel combines in order (with the
-- map's code after the reduction). The operator hashes a row in order
-- (associative, not commutative). Short rows (the first input) take the
-- one-work-item-per-row kernel instead.
-- ==
-- structure gpu { SegRed 1 SegMap 0 }
-- input { [[1u8, 2u8, 3u8], [4u8, 5u8, 6u8]] }
-- output { [28765i64, 31738i64] }
-- input { empty([0][70000]u8) }
-- output { empty([0]i64) }
-- input @ data/segred_multi.in
-- output @ data/segred_multi.out

def hash_step (h1: i64, p1: i64) (h2: i64, p2: i64) : (i64, i64) = (h1 * p2 + h2, p1 * p2)

def main [n][m] (xss: [n][m]u8) : [n]i64 =
  map (\row -> let (h, p) = reduce hash_step (0, 1) (map (\v -> (i64.u8 v, 31)) row) in h ^ p) xss
