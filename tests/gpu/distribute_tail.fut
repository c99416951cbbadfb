-- A map whose body is an inner map followed by code that uses its result
-- (a nest that is not perfect: a frame of pixels per step, then two
-- pixels of it, as futhark-benchmarks' crystal does) is distributed after
-- the inner map: the frames are one SegMap over (step, row, column), the
-- tail a SegMap over the steps. The outer version (one work-item per
-- step, its frame in private memory) stays, chosen when the steps reach
-- threshold main.suff_outer_par_0: with one step, 16 million pixels ran
-- in one work-item before.
-- ==
-- structure gpu { Threshold 1 SegMap 3 Private 1 }
-- input { 3i64 2i64 } output { [17u32, 19u32] }
-- input { 3i64 0i64 } output { empty([0]u32) }
-- input { 40i64 3i64 } output { [202u32, 204u32, 206u32] }

def frame (fs: i64) (s: i64) : [fs][fs]u32 =
  tabulate_2d fs fs (\y x -> u32.i64 ((x + 1) * (y + 2) + s))

def main (fs: i64) (steps: i64) : [steps]u32 =
  map (\s -> let fr = frame fs s in fr[fs - 1, 1] + fr[1, fs - 1]) (iota steps)
