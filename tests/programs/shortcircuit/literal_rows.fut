-- An array literal of arrays: each row is built in its row of the
-- literal (x, a parameter, is copied). A grid assembled as a first row, a
-- map of inner rows and a last row, each inner row a corner, an edge and
-- a corner, is one block: only the two one-element corner literals,
-- which the simplifier hoists out of the map, are copied into each row.
-- Structure counts are the whole program's: 1 + 2 copies.
-- ==
-- entry: two_rows
-- structure mem { Copy 3 }
-- input { [1f32, 2f32] [3f32, 4f32] }
-- output { [[2f32, 3f32], [6f32, 8f32], [1f32, 2f32]] }

-- ==
-- entry: grid
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32], [7i32, 8i32, 9i32]] }
-- output { [[0i32, 0i32, 0i32], [-1i32, 10i32, -1i32], [0i32, 0i32, 0i32]] }
-- input { [[1i32, 2i32, 3i32, 4i32], [5i32, 6i32, 7i32, 8i32], [1i32, 1i32, 1i32, 1i32], [9i32, 9i32, 9i32, 9i32]] }
-- output { [[0i32, 0i32, 0i32, 0i32], [-1i32, 12i32, 14i32, -1i32], [-1i32, 2i32, 2i32, -1i32], [0i32, 0i32, 0i32, 0i32]] }

entry two_rows [n] (x: [n]f32) (y: [n]f32) : [3][n]f32 = [map (+1) x, map (*2) y, x]

entry grid [r][c] (g: [r][c]i32) : [r][c]i32 =
  let inner = map (\i -> [-1i32] ++ map (\j -> 2 * g[i, j]) (1..<c-1) ++ [-1i32] :> [c]i32) (1..<r-1)
  in [replicate c 0i32] ++ inner ++ [replicate c 0i32] :> [r][c]i32
