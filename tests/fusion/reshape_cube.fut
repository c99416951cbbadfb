-- Through reshapes of rank 3: flatten twice, an element-wise map, unflatten twice. The simplifier folds each chain of reshapes into one, and the map becomes a nest of three maps over the cube that fuses into the sums of its innermost rows: one Screma per level, one segmented SegRed whose segments are the n by m rows.
-- ==
-- structure { Screma 3 Reshape 0 }
-- structure gpu { SegRed 1 Kernel 1 }
-- input { 2i32 [[[1i32, 2i32], [3i32, 4i32]], [[5i32, 6i32], [7i32, 8i32]]] }
-- output { [[8i32, 16i32], [24i32, 32i32]] }
-- input { 2i32 empty([0][2][2]i32) }
-- output { empty([0][2]i32) }
-- input { 2i32 empty([1][2][0]i32) }
-- output { [[0i32, 0i32]] }

def main [n][m][k] (c: i32) (cube: [n][m][k]i32) : [n][m]i32 =
  let flat = map (\p -> p * c + 1) (flatten (flatten cube))
  let back = unflatten (unflatten flat : [n * m][k]i32) : [n][m][k]i32
  in map (map (reduce (+) 0)) back
