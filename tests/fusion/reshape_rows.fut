-- Through reshapes: an element-wise map2 over two flattened images, unflattened again, becomes a nest of maps over the images themselves and fuses into the row sums: one map of reductions, no reshape left, one segmented SegRed.
-- ==
-- structure { Screma 2 Reshape 0 }
-- structure gpu { SegRed 1 SegMap 0 Kernel 1 }
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] [[1i32, 0i32, 2i32], [3i32, 1i32, 1i32]] }
-- output { [10i32, 26i32] }
-- input { empty([0][3]i32) empty([0][3]i32) }
-- output { empty([0]i32) }
-- input { empty([2][0]i32) empty([2][0]i32) }
-- output { [0i32, 0i32] }

def main [n][m] (a: [n][m]i32) (b: [n][m]i32) : [n]i32 =
  let flat = map2 (\x y -> x * y + 1) (flatten a) (flatten b)
  in map (reduce (+) 0) (unflatten flat : [n][m]i32)
