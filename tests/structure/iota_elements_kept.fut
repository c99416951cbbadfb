-- Negative for iota_elements: an iota that is also returned must exist, so
-- it is built (Iota 1) and the map reads it.
-- ==
-- structure gpu { Iota 1 SegMap 1 }
-- input { 3i64 }
-- output { [0i64, 1i64, 2i64] [0i64, 2i64, 4i64] }
def main (n: i64) : ([n]i64, [n]i64) = let is = iota n in (is, map (* 2) is)
