-- Row-wise softmax: the softmax helper (max reduce; exp map fused into a
-- sum reduce that also writes the exps; division map) mapped over rows.
-- Flattening distributes the row map over the three stages: two segmented
-- SegReds (1 kernel each) and one 2D SegMap for the division: 3 kernels.
-- The map as written (each row sequentially in one work-item: a SegMap)
-- stays as a second version, which a run takes when the rows reach
-- threshold main.suff_outer_par_0 (2^18 by default: millions of short
-- rows; issue 18), and a third, intra-group version (a SegGroup: a
-- work-group per row) below it when the rows reach
-- main.suff_intra_par_1 (32 elements by default): 5 kernels.
-- ==
-- structure gpu { Threshold 2 SegRed 2 SegMap 2 SegGroup 1 Kernel 5 }
-- input { [[1.0f32, 2.0f32, 3.0f32], [0.0f32, 0.0f32, 0.0f32], [3.0f32, 1.0f32, -1.0f32]] }
-- output { [[0.09003057f32, 0.24472846f32, 0.66524094f32], [0.33333334f32, 0.33333334f32, 0.33333334f32], [0.8668133f32, 0.11731042f32, 0.01587624f32]] }
-- input { [[7.0f32]] }
-- output { [[1.0f32]] }
-- input { empty([0][3]f32) }
-- output { empty([0][3]f32) }

def maximum [n] (xs: [n]f32) : f32 = reduce f32.max (-f32.inf) xs

def sum [n] (xs: [n]f32) : f32 = reduce (+) 0 xs

def softmax [n] (xs: [n]f32) : [n]f32 =
  let m = maximum xs
  let es = map (\x -> f32.exp (x - m)) xs
  let s = sum es
  in map (/ s) es

def main [n][m] (xss: [n][m]f32) : [n][m]f32 = map softmax xss
