-- flatten_3d and unflatten_3d (prelude): the elements in row-major order,
-- and back to three dimensions (here after a map over the flat array, and
-- with a size coercion to other dimensions of the same element count).
-- ==
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] }
-- output { [1, 2, 3, 4, 5, 6, 7, 8] [[[2, 3], [4, 5]], [[6, 7], [8, 9]]] [[[1, 2, 3, 4]], [[5, 6, 7, 8]]] }
-- input { empty([0][2][3]i32) }
-- output { empty([0]i32) empty([0][2][3]i32) empty([0][1][6]i32) }

def main [n][m][l] (c: [n][m][l]i32) : ([n * m * l]i32, [n][m][l]i32, [n][1][m * l]i32) =
  let f = flatten_3d c
  in (f, unflatten_3d (map (+ 1) f), unflatten_3d (f :> [n * 1 * (m * l)]i32))
