-- Negative (through reshapes): a map over rows of the image seen as m rows of n scales each row by its sum; its result, seen as n rows of m again, is summed by rows. The map's function takes rows, not elements, and the rows do not line up, so it must not fuse with the row sums. On the GPU the row map is distributed (a segmented SegRed of each row's sum, then a SegMap of the scaling over all elements), and the row sums are a third kernel; the row map as written stays as a second version (one more SegMap, chosen at run time by threshold main.suff_outer_par_0), and so does its intra-group version (a SegGroup under main.suff_intra_par_1).
-- ==
-- structure { Screma 5 Reshape 2 }
-- structure gpu { Threshold 2 SegMap 2 SegRed 2 SegGroup 1 Kernel 5 }
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] }
-- output { [30i32, 149i32] }
-- input { empty([0][3]i32) }
-- output { empty([0]i32) }

def main [n][m] (img: [n][m]i32) : [n]i32 =
  let rows = unflatten (flatten img :> [m * n]i32)
  let r = map (\row -> let s = i32.sum row in map (\x -> x * s) row) rows
  in map (reduce (+) 0) (unflatten (flatten r :> [n * m]i32))
