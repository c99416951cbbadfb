-- Flattening (compiler/passes/flatten.c): slices of an array bound
-- outside the map, with bounds of the element (views: made again where
-- lifted code reads them, never copied): one concatenated with an inner
-- array, one read inside an inner lambda whose bounds use a parameter
-- of the map (its operands must be those of the element, not of a stage
-- that rewrote them).
-- ==
-- structure gpu { Host 0 }
-- input { [3i64, 0i64, 2i64] [1i64, 2i64, 0i64] [5i64, 6i64, 7i64, 8i64, 9i64] }
-- output { [63i64, 0i64, 36i64] [44i64, 0i64, 17i64] }

def main (ns: []i64) (ks: []i64) (free: []i64) : ([]i64, []i64) =
  unzip (map2 (\n k -> let c = concat (iota n) free[0:n]
                       let v = free[k:k + n]
                       in (reduce (+) 0 (map (* 3) c),
                           i64.sum (scan (+) 0 (map (\i -> i + v[i]) (iota n))))) ns ks)
