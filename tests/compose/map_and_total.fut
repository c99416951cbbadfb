-- A scaled copy (map) and the total (reduce) of the same input, returned
-- together. They fuse horizontally into one redomap that also writes the
-- mapped array: one whole-array SegRed, no SegMap: 2 kernels.
-- ==
-- structure gpu { SegRed 1 SegMap 0 Kernel 2 }
-- input { 2.0f32 [1.0f32, 2.0f32, 3.5f32] }
-- output { [2.0f32, 4.0f32, 7.0f32] 6.5f32 }
-- input { -1.0f32 [4.0f32] }
-- output { [-4.0f32] 4.0f32 }
-- input { 3.0f32 empty([0]f32) }
-- output { empty([0]f32) 0.0f32 }
-- input @ data/map_and_total.in
-- output @ data/map_and_total.out

def scale [n] (c: f32) (xs: [n]f32) : [n]f32 = map (* c) xs

def main (c: f32) (xs: []f32) : ([]f32, f32) = (scale c xs, reduce (+) 0 xs)
