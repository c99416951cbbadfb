-- flatten an image, brighten every pixel (a map), unflatten and take row
-- sums (a map of reduce). The elementwise map fuses through the reshapes
-- into the row sums: one segmented SegRed, 1 kernel.
-- ==
-- structure gpu { SegRed 1 SegMap 0 Kernel 1 }
-- input { 10i32 [[1i32, 2i32, 3i32], [250i32, 100i32, 0i32]] }
-- output { [36i32, 375i32] }
-- input { 0i32 [[5i32]] }
-- output { [5i32] }
-- input { 1i32 empty([2][0]i32) }
-- output { [0i32, 0i32] }
-- input { 1i32 empty([0][3]i32) }
-- output { empty([0]i32) }
-- input @ data/flatten_rows.in
-- output @ data/flatten_rows.out

def brighten [k] (c: i32) (pix: [k]i32) : [k]i32 =
  map (\p -> i32.min 255 (p + c)) pix

def row_sums [n][m] (img: [n][m]i32) : [n]i32 = map (reduce (+) 0) img

def main [n][m] (c: i32) (img: [n][m]i32) : [n]i32 =
  let flat = brighten c (flatten img)
  in row_sums (unflatten flat : [n][m]i32)
