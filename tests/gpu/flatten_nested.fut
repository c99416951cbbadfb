-- Flattening two levels deep (compiler/passes/flatten.c): each element
-- builds an array of its length n, and a reduction over it runs, for each
-- m < n, a scan over an array of length m + 1 that reads the first array.
-- The reduction's map is lifted on its own, into a map over all the
-- elements' positions whose function builds arrays of varying length in
-- turn, and that map is flattened again (its reads of the first array
-- become segments of the flat array made again at each use); the
-- reduction then runs over the map's results as a segmented scan.
-- ==
-- structure gpu { Host 0 SegScan 6 }
-- input { [4i64, 0i64, 1i64, 6i64, 2i64] }
-- output { [40i64, 0i64, 0i64, 140i64, 4i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) }

def main (ns: []i64) : []i64 =
  map (\n -> let ys = map (* 2) (iota n)
             in reduce (+) 0 (map (\m -> let zs = scan (+) 0 (map (\i -> ys[i] + m) (iota (m + 1)))
                                         in zs[m]) (iota n))) ns
