-- Negative: the array each element transposes is also summed, so it
-- keeps a block of its own and its transposition is copied into the row.
-- ==
-- structure mem { Copy 1 }
-- input { [[[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]]] }
-- output { [[[2i32, 5i32], [3i32, 6i32], [4i32, 7i32]]] [27i32] }

entry main [n][m][k] (xsss: [n][m][k]i32) : ([n][k][m]i32, [n]i32) =
  unzip (map (\xss -> let t = map (map (+1)) xss
                      in (transpose t, i32.sum (flatten t))) xsss)
