-- Through reshapes, two outputs: both results of one element-wise map over flattened images are unflattened and read by one map over rows; the map becomes a nest over the images and fuses into it (one SegRed computing both reductions of each row).
-- ==
-- structure { Screma 2 Reshape 0 }
-- structure gpu { SegRed 1 SegMap 0 Kernel 1 }
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] [[1i32, 0i32, 2i32], [3i32, 1i32, 1i32]] }
-- output { [18i32, 100i32] }
-- input { empty([0][2]i32) empty([0][2]i32) }
-- output { empty([0]i32) }

def main [n][m] (a: [n][m]i32) (b: [n][m]i32) : [n]i32 =
  let (s, d) = unzip (map2 (\x y -> (x + y, x - y)) (flatten a) (flatten b))
  in map2 (\r q -> i32.sum r * i32.maximum q) (unflatten s : [n][m]i32) (unflatten d : [n][m]i32)
