-- The thesis's mapscan (seed 002 §5.1): each row is scanned 64 times in a
-- loop. Three versions (issue 18): the outer one (a work-item per row
-- runs the loop), the intra-group one (a work-group per row, the row in
-- local memory: when the row fits a work-group) and the interchanged one
-- (a host loop of 64 segmented scans over all rows), chosen by
-- main.suff_outer_par_0 and main.suff_intra_par_1;
-- bench/tune/versions.sh times each.
-- ==
-- random input { [16][1048576]i32 }
-- random input { [1024][16384]i32 }
-- random input { [65536][256]i32 }
-- random input { [1048576][16]i32 }

def main [m][n] (xss: [m][n]i32) : [m][n]i32 =
  map2 (\row i -> loop row for _k < 64 do scan (+) 0 (map (+ i32.i64 i) row)) xss (iota m)
