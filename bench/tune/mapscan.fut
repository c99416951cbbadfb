-- The thesis's mapscan (seed 002 §5.1): each row is scanned 64 times in a
-- loop. Two versions so far (issue 18): the outer one (a work-item per
-- row runs the loop) and the interchanged one (a host loop of 64
-- segmented scans over all rows), chosen by main.suff_outer_par_0. The
-- thesis's third, intra-group version (a row per work-group in local
-- memory) is not built yet.
-- ==
-- random input { [16][1048576]i32 }
-- random input { [1024][16384]i32 }
-- random input { [65536][256]i32 }
-- random input { [1048576][16]i32 }

def main [m][n] (xss: [m][n]i32) : [m][n]i32 =
  map2 (\row i -> loop row for _k < 64 do scan (+) 0 (map (+ i32.i64 i) row)) xss (iota m)
