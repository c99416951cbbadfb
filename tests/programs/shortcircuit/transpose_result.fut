-- A map whose elements return a transposition of an array they make:
-- that array is built transposed in the element's row of the result
-- (the inverse permutation of the row's layout), so there is neither a
-- per-element block nor a copy. Its twin transpose_used_twice keeps both.
-- ==
-- structure mem { Copy 0 Alloc 1 }
-- input { [[[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]], [[7i32, 8i32, 9i32], [10i32, 11i32, 12i32]]] }
-- output { [[[2i32, 5i32], [3i32, 6i32], [4i32, 7i32]], [[8i32, 11i32], [9i32, 12i32], [10i32, 13i32]]] }
-- input { empty([0][2][3]i32) }
-- output { empty([0][3][2]i32) }

entry main [n][m][k] (xsss: [n][m][k]i32) : [n][k][m]i32 =
  map (\xss -> transpose (map (map (+1)) xss)) xsss
