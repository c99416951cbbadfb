-- Through reshapes to another shape: the flattened n by m image is unflattened to m rows of n. An element-wise map keeps the row-major order of the elements, so it becomes a nest over the image reshaped to m by n and still fuses into the row sums.
-- ==
-- structure { Screma 2 }
-- structure gpu { SegRed 1 SegMap 0 Kernel 1 }
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] }
-- output { [5i32, 9i32, 13i32] }
-- input { empty([0][3]i32) }
-- output { [0i32, 0i32, 0i32] }
-- input { empty([3][0]i32) }
-- output { empty([0]i32) }

def main [n][m] (img: [n][m]i32) : [m]i32 =
  let flat = map (+1) (flatten img)
  in map (reduce (+) 0) (unflatten (flat :> [m * n]i32))
