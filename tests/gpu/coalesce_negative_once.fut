-- Negative: each work-item traverses its row once (a loop over it), which
-- reads every cache line a warp touches once anyway; a transposing copy
-- would read and write the whole array once more (H100, 2^22 x 16 f32:
-- 203 us in place, 377 with the copy), so the input is not copied.
-- ==
-- structure gpu { SegMap 1 Copy 0 }
-- input { [[1f32, 2f32], [3f32, -1f32], [0f32, 0f32]] }
-- output { [5f32, 10f32, 0f32] }
-- input { empty([0][2]f32) }
-- output { empty([0]f32) }

def main (xss: [][]f32) : []f32 =
  map (\row -> loop s = 0f32 for x in row do s + x * x) xss
