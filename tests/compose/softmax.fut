-- softmax = maximum (reduce), then exp (map) feeding both a sum (reduce)
-- and the final division (map). The max must finish before the exp map
-- starts, so it stays a SegRed of its own. The exp map fuses into the sum
-- (a redomap that also writes the exps out as an extra result). The
-- division needs the whole sum, so it is a SegMap of its own.
-- 2 whole-array SegReds (2 kernels each) + 1 SegMap = 5 kernels.
-- The last case checks that the maximum really is subtracted (exp 100
-- overflows f32).
-- ==
-- structure gpu { SegRed 2 SegMap 1 Kernel 5 }
-- input { [1.0f32, 2.0f32, 3.0f32] }
-- output { [0.09003057f32, 0.24472846f32, 0.66524094f32] }
-- input { [0.0f32, 0.0f32, 0.0f32, 0.0f32] }
-- output { [0.25f32, 0.25f32, 0.25f32, 0.25f32] }
-- input { [5.0f32] }
-- output { [1.0f32] }
-- input { [-1.0f32, 0.5f32, 2.0f32, 100.0f32] }
-- output { [0.0f32, 0.0f32, 0.0f32, 1.0f32] }

def maximum [n] (xs: [n]f32) : f32 = reduce f32.max (-f32.inf) xs

def sum [n] (xs: [n]f32) : f32 = reduce (+) 0 xs

def softmax [n] (xs: [n]f32) : [n]f32 =
  let m = maximum xs
  let es = map (\x -> f32.exp (x - m)) xs
  let s = sum es
  in map (/ s) es

def main (xs: []f32) : []f32 = softmax xs
