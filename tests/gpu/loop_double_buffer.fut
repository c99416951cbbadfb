-- A loop in a map's body whose parameter is rebuilt every iteration (here
-- reversed and doubled, which cannot happen in place): the loop carries a
-- second block made once per element before the kernel, and each
-- iteration builds its array in the block the previous one left (double
-- buffering), so nothing allocates in the kernel and the map runs on the
-- device. In `owned` the parameter starts as a copy the loop may
-- overwrite; in `kept` it starts as the input row, which is copied first.
-- Without short-circuiting both are Host maps. In `kept` the loop also
-- has its interchanged version (issue 18: a host loop of a SegMap over
-- all rows, chosen below threshold kept.suff_outer_par_0); in `owned` the
-- initial copy is a map, which interchange does not move.
-- Both maps also have an intra-group version (a SegGroup: a work-group per
-- element, under its own threshold <entry>.suff_intra_par_N).
-- ==
-- entry: owned kept
-- structure gpu { Threshold 4 SegMap 3 SegGroup 2 Host 0 }
-- input { [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32]] 3 }
-- output { [[24f32, 16f32, 8f32], [48f32, 40f32, 32f32]] }
-- input { [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32]] 0 }
-- output { [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32]] }
-- input { [[1f32, 2f32]] 2 }
-- output { [[4f32, 8f32]] }

entry owned [n][m] (xss: [n][m]f32) (k: i32) : [n][m]f32 =
  map (\xs -> loop ys = map (+0) xs for _i < k do map (*2) (reverse ys)) xss

entry kept [n][m] (xss: [n][m]f32) (k: i32) : [n][m]f32 =
  map (\xs -> loop ys = xs for _i < k do map (*2) (reverse ys)) xss
