-- Negative (through reshapes): the unflattened result of the element-wise map is returned, not read by a SOAC, so nothing would fuse with a nest of maps; the map stays flat and joins the sum of the same flattened image horizontally (one pass over the image, one SegRed).
-- ==
-- structure { Screma 1 }
-- structure gpu { SegRed 1 SegMap 0 Kernel 2 }
-- input { [[1i32, 2i32], [3i32, 4i32]] }
-- output { [[3i32, 6i32], [9i32, 12i32]] 10i32 }
-- input { empty([0][2]i32) }
-- output { empty([0][2]i32) 0i32 }

def main [n][m] (img: [n][m]i32) : ([n][m]i32, i32) =
  let flat = map (\p -> p * 3) (flatten img)
  in (unflatten flat : [n][m]i32, reduce (+) 0 (flatten img))
