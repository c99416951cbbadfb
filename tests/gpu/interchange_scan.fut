-- Map-loop interchange (issue 18; the thesis's mapscan): a map whose body
-- is a loop of a scan over its row becomes, as a second version, a host
-- loop of a segmented scan over all rows (a SegScan per iteration),
-- chosen when the rows do not reach main.suff_outer_par_0; the map as
-- written (one work-item per row running the loop: a SegMap) is the other.
-- tests/run.sh runs tests/gpu with every threshold at 0 too, so both
-- versions are checked. In the outer version each work-item's row, read
-- through a transposed copy of the input, is copied once into the block
-- its loop may overwrite (it was copied twice: once into row-major order,
-- and that copy again for double buffering): Copy 2 (3 before). Expected
-- values from a sequential reference (Python).
-- The map also has an intra-group version (a SegGroup: a work-group per
-- element, under its own threshold main.suff_intra_par_N).
-- ==
-- structure gpu { Threshold 2 SegMap 1 SegScan 1 SegGroup 1 Kernel 3 Copy 4 }
-- input { [[1, 2, 3], [4, 5, 6]] 2 }
-- output { [[1i32, 4i32, 10i32], [6i32, 18i32, 37i32]] }
-- input { [[7]] 5 }
-- output { [[7i32]] }
-- input { empty([0][4]i32) 3 }
-- output { empty([0][4]i32) }
-- input { [[1, -1], [0, 3], [2, 2]] 0 }
-- output { [[1i32, -1i32], [0i32, 3i32], [2i32, 2i32]] }

def main [m][n] (xss: [m][n]i32) (k: i64) : [m][n]i32 =
  map2 (\row i -> loop row for _j < k do scan (+) 0 (map (+ i32.i64 i) row)) xss (iota m)
