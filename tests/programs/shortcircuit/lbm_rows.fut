-- An LBM-style loop: each iteration computes row i+1 from row i. The map
-- reads row i and is built in row i+1, which the prover shows disjoint,
-- so no iteration copies or allocates.
-- ==
-- structure mem { Copy 0 Alloc 0 }
-- input { [[1i32, 2i32], [0i32, 0i32], [0i32, 0i32]] [10i32, 20i32] }
-- output { [[1i32, 2i32], [11i32, 22i32], [21i32, 42i32]] }
-- input { [[1i32, 2i32]] [10i32, 20i32] }
-- output { [[1i32, 2i32]] }

entry main [n][m] (a: *[n][m]i32) (d: [m]i32) : [n][m]i32 =
  loop a for i < n - 1 do
    let a[i+1] = map2 (+) a[i] d
    in a
