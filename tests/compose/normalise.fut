-- normalise = a map over the result of a reduce over the same input. The
-- map needs the whole sum before it can start, so the reduce cannot fuse
-- into it: one whole-array SegRed (2 kernels) then one SegMap (1): 3 kernels.
-- ==
-- structure gpu { SegRed 1 SegMap 1 Kernel 3 }
-- input { [1.0f32, 3.0f32, 4.0f32] }
-- output { [0.125f32, 0.375f32, 0.5f32] }
-- input { [2.5f32] }
-- output { [1.0f32] }
-- input { empty([0]f32) }
-- output { empty([0]f32) }

def sum [n] (xs: [n]f32) : f32 = reduce (+) 0 xs

def normalise [n] (xs: [n]f32) : [n]f32 =
  let s = sum xs
  in map (/ s) xs

def main (xs: []f32) : []f32 = normalise xs
