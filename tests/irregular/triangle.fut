-- futhorc-irregular(7)'s example: the lower triangle of a matrix times a
-- vector, through an irregular array of the triangle's rows. The rows are
-- slices, read element by element into the flat array by a map over its
-- positions (no loop over the rows, no host code: the loops are the
-- binary searches that find a position's row).
-- ==
-- structure gpu { Loop 2 Host 0 }
-- input { [[1f32, 9f32, 9f32], [2f32, 3f32, 9f32], [4f32, 5f32, 6f32]] [1f32, 2f32, -1f32] }
-- output { [1f32, 8f32, 8f32] }
-- input { empty([0][0]f32) empty([0]f32) }
-- output { empty([0]f32) }

def trmv [n] (a: [n][n]f32) (x: [n]f32) : [n]f32 =
  let tri = map (\i -> a[i, :i + 1]) (iota n)
  in map (\r -> reduce (+) 0 (map2 (*) r x[:length r])) tri

def main [n] (a: [n][n]f32) (x: [n]f32) : [n]f32 = trmv a x
