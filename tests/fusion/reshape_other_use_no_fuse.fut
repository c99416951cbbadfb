-- Negative (through reshapes): the flattened map's result is also summed as it is, so turning the map into a nest for the row sums would compute it twice. It fuses into the total instead (one whole-array SegRed that writes it) and the row sums read it back.
-- ==
-- structure { Screma 3 Reshape 2 }
-- structure gpu { SegRed 2 Kernel 3 }
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] }
-- output { [18i32, 45i32] 63i32 }
-- input { empty([0][2]i32) }
-- output { empty([0]i32) 0i32 }

def main [n][m] (img: [n][m]i32) : ([n]i32, i32) =
  let flat = map (\p -> p * 3) (flatten img)
  in (map (reduce (+) 0) (unflatten flat : [n][m]i32), reduce (+) 0 flat)
