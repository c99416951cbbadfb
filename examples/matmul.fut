-- Dense matrix multiplication.
--
-- Each element of the result is the dot product of a row of a and a
-- column of b.  Transposing b first turns the columns into rows, so the
-- whole product is a map over rows of a of a map over rows of b^T of a
-- dot product: a nest of parallel maps around a reduction, which is the
-- shape that compilers for data-parallel languages handle best.
--
-- The sizes in the type, [n][m] times [m][p] giving [n][p], are checked
-- when the program is type-checked: mismatched matrices are rejected
-- before the program ever runs.
-- ==
-- input { [[1.0f32, 2.0f32, 3.0f32], [4.0f32, 5.0f32, 6.0f32]] [[0.5f32, -1.0f32], [2.0f32,
--    0.25f32], [1.0f32, 1.0f32]] }
-- output { [[7.5f32, 2.5f32], [18.0f32, 3.25f32]] }
-- input { [[0.0f32, 0.25f32, 0.5f32, 0.75f32], [1.0f32, 1.25f32, 1.5f32, 1.75f32], [2.0f32,
--    2.25f32, 2.5f32, 2.75f32]] [[1.0f32, 0.0f32, 0.0f32, 0.0f32], [0.0f32, 1.0f32, 0.0f32,
--    0.0f32], [0.0f32, 0.0f32, 1.0f32, 0.0f32], [0.0f32, 0.0f32, 0.0f32, 1.0f32]] }
-- output { [[0.0f32, 0.25f32, 0.5f32, 0.75f32], [1.0f32, 1.25f32, 1.5f32, 1.75f32], [2.0f32,
--    2.25f32, 2.5f32, 2.75f32]] }
-- input { [[0.0f32, 1.0f32, 2.0f32], [0.25f32, 1.25f32, 2.25f32], [0.5f32, 1.5f32, 2.5f32],
--    [0.75f32, 1.75f32, 2.75f32]] [[0.0f32, 0.25f32, 0.5f32, 0.75f32], [1.0f32, 1.25f32, 1.5f32,
--    1.75f32], [2.0f32, 2.25f32, 2.5f32, 2.75f32]] }
-- output { [[5.0f32, 5.75f32, 6.5f32, 7.25f32], [5.75f32, 6.6875f32, 7.625f32, 8.5625f32], [6.5f32,
--    7.625f32, 8.75f32, 9.875f32], [7.25f32, 8.5625f32, 9.875f32, 11.1875f32]] }

-- | The dot product of two vectors of the same length.
def dotprod [n] (xs: [n]f32) (ys: [n]f32) : f32 =
  reduce (+) 0 (map2 (*) xs ys)

-- | The matrix product of a and b.
def matmul [n] [m] [p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 =
  let bt = transpose b
  in map (\a_row -> map (\b_col -> dotprod a_row b_col) bt) a

def main [n] [m] [p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 =
  matmul a b
