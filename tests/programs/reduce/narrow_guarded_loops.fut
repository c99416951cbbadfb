-- Loops whose iterations past a point do nothing but add zero (or
-- multiply by one) stop there (compiler/imp/narrow.c): a triangular
-- matrix-vector product written with a mask, with the guard j <= i,
-- j < i and i >= j, floats, a product; and one whose iterations past the
-- point add 1, which must run to the end.
-- ==
-- entry: lower
-- input { [[-3i32, 0i32, 3i32, -1i32, 2i32, -2i32, 1i32, -3i32, 0i32], [2i32, -2i32, 1i32, -3i32, 0i32, 3i32, -1i32, 2i32, -2i32], [0i32, 3i32, -1i32, 2i32, -2i32, 1i32, -3i32, 0i32, 3i32], [-2i32, 1i32, -3i32, 0i32, 3i32, -1i32, 2i32, -2i32, 1i32], [3i32, -1i32, 2i32, -2i32, 1i32, -3i32, 0i32, 3i32, -1i32], [1i32, -3i32, 0i32, 3i32, -1i32, 2i32, -2i32, 1i32, -3i32], [-1i32, 2i32, -2i32, 1i32, -3i32, 0i32, 3i32, -1i32, 2i32], [-3i32, 0i32, 3i32, -1i32, 2i32, -2i32, 1i32, -3i32, 0i32], [2i32, -2i32, 1i32, -3i32, 0i32, 3i32, -1i32, 2i32, -2i32]] [-1i32, 1i32, 3i32, 0i32, 2i32, -1i32, 1i32, 3i32, 0i32] }
-- output { [3i32, -4i32, 0i32, -6i32, 4i32, -8i32, -6i32, 10i32, 1i32] }

entry lower [n] (a: [n][n]i32) (x: [n]i32) : [n]i32 =
  map2 (\i row -> reduce (+) 0 (map3 (\j aij xj -> if j <= i then aij * xj else 0) (iota n) row x)) (iota n) a

-- ==
-- entry: strict
-- input { [[-3i32, 0i32, 3i32, -1i32, 2i32, -2i32, 1i32, -3i32, 0i32], [2i32, -2i32, 1i32, -3i32, 0i32, 3i32, -1i32, 2i32, -2i32], [0i32, 3i32, -1i32, 2i32, -2i32, 1i32, -3i32, 0i32, 3i32], [-2i32, 1i32, -3i32, 0i32, 3i32, -1i32, 2i32, -2i32, 1i32], [3i32, -1i32, 2i32, -2i32, 1i32, -3i32, 0i32, 3i32, -1i32], [1i32, -3i32, 0i32, 3i32, -1i32, 2i32, -2i32, 1i32, -3i32], [-1i32, 2i32, -2i32, 1i32, -3i32, 0i32, 3i32, -1i32, 2i32], [-3i32, 0i32, 3i32, -1i32, 2i32, -2i32, 1i32, -3i32, 0i32], [2i32, -2i32, 1i32, -3i32, 0i32, 3i32, -1i32, 2i32, -2i32]] [-1i32, 1i32, 3i32, 0i32, 2i32, -1i32, 1i32, 3i32, 0i32] }
-- output { [0i32, -2i32, 3i32, -6i32, 2i32, -6i32, -9i32, 19i32, 1i32] }

entry strict [n] (a: [n][n]i32) (x: [n]i32) : [n]i32 =
  map2 (\i row -> reduce (+) 0 (map3 (\j aij xj -> if j < i then aij * xj else 0) (iota n) row x)) (iota n) a

-- ==
-- entry: flip
-- input { [[-3i32, 0i32, 3i32, -1i32, 2i32, -2i32, 1i32, -3i32, 0i32], [2i32, -2i32, 1i32, -3i32, 0i32, 3i32, -1i32, 2i32, -2i32], [0i32, 3i32, -1i32, 2i32, -2i32, 1i32, -3i32, 0i32, 3i32], [-2i32, 1i32, -3i32, 0i32, 3i32, -1i32, 2i32, -2i32, 1i32], [3i32, -1i32, 2i32, -2i32, 1i32, -3i32, 0i32, 3i32, -1i32], [1i32, -3i32, 0i32, 3i32, -1i32, 2i32, -2i32, 1i32, -3i32], [-1i32, 2i32, -2i32, 1i32, -3i32, 0i32, 3i32, -1i32, 2i32], [-3i32, 0i32, 3i32, -1i32, 2i32, -2i32, 1i32, -3i32, 0i32], [2i32, -2i32, 1i32, -3i32, 0i32, 3i32, -1i32, 2i32, -2i32]] [-1i32, 1i32, 3i32, 0i32, 2i32, -1i32, 1i32, 3i32, 0i32] }
-- output { [3i32, -4i32, 0i32, -6i32, 4i32, -8i32, -6i32, 10i32, 1i32] }

entry flip [n] (a: [n][n]i32) (x: [n]i32) : [n]i32 =
  map2 (\i row -> reduce (+) 0 (map3 (\j aij xj -> if i >= j then aij * xj else 0) (iota n) row x)) (iota n) a

-- ==
-- entry: ones
-- input { [[-3i32, 0i32, 3i32, -1i32, 2i32, -2i32, 1i32, -3i32, 0i32], [2i32, -2i32, 1i32, -3i32, 0i32, 3i32, -1i32, 2i32, -2i32], [0i32, 3i32, -1i32, 2i32, -2i32, 1i32, -3i32, 0i32, 3i32], [-2i32, 1i32, -3i32, 0i32, 3i32, -1i32, 2i32, -2i32, 1i32], [3i32, -1i32, 2i32, -2i32, 1i32, -3i32, 0i32, 3i32, -1i32], [1i32, -3i32, 0i32, 3i32, -1i32, 2i32, -2i32, 1i32, -3i32], [-1i32, 2i32, -2i32, 1i32, -3i32, 0i32, 3i32, -1i32, 2i32], [-3i32, 0i32, 3i32, -1i32, 2i32, -2i32, 1i32, -3i32, 0i32], [2i32, -2i32, 1i32, -3i32, 0i32, 3i32, -1i32, 2i32, -2i32]] [-1i32, 1i32, 3i32, 0i32, 2i32, -1i32, 1i32, 3i32, 0i32] }
-- output { [11i32, 3i32, 6i32, -1i32, 8i32, -5i32, -4i32, 11i32, 1i32] }

entry ones [n] (a: [n][n]i32) (x: [n]i32) : [n]i32 =
  map2 (\i row -> reduce (+) 0 (map3 (\j aij xj -> if j <= i then aij * xj else 1) (iota n) row x)) (iota n) a

-- ==
-- entry: prod
-- input { [[-3i32, 0i32, 3i32, -1i32, 2i32, -2i32, 1i32, -3i32, 0i32], [2i32, -2i32, 1i32, -3i32, 0i32, 3i32, -1i32, 2i32, -2i32], [0i32, 3i32, -1i32, 2i32, -2i32, 1i32, -3i32, 0i32, 3i32], [-2i32, 1i32, -3i32, 0i32, 3i32, -1i32, 2i32, -2i32, 1i32], [3i32, -1i32, 2i32, -2i32, 1i32, -3i32, 0i32, 3i32, -1i32], [1i32, -3i32, 0i32, 3i32, -1i32, 2i32, -2i32, 1i32, -3i32], [-1i32, 2i32, -2i32, 1i32, -3i32, 0i32, 3i32, -1i32, 2i32], [-3i32, 0i32, 3i32, -1i32, 2i32, -2i32, 1i32, -3i32, 0i32], [2i32, -2i32, 1i32, -3i32, 0i32, 3i32, -1i32, 2i32, -2i32]] }
-- output { [1i32, 6i32, 3i32, 4i32, 36i32, 18i32, 36i32, 36i32, 216i32] }

entry prod [n] (a: [n][n]i32) : [n]i32 =
  map2 (\i row -> reduce (*) 1 (map2 (\j aij -> if j <= i then aij % 3 + 1 else 1) (iota n) row)) (iota n) a

-- ==
-- entry: flower
-- input { [[-3f32, 0f32, 3f32, -1f32, 2f32, -2f32, 1f32, -3f32, 0f32], [2f32, -2f32, 1f32, -3f32, 0f32, 3f32, -1f32, 2f32, -2f32], [0f32, 3f32, -1f32, 2f32, -2f32, 1f32, -3f32, 0f32, 3f32], [-2f32, 1f32, -3f32, 0f32, 3f32, -1f32, 2f32, -2f32, 1f32], [3f32, -1f32, 2f32, -2f32, 1f32, -3f32, 0f32, 3f32, -1f32], [1f32, -3f32, 0f32, 3f32, -1f32, 2f32, -2f32, 1f32, -3f32], [-1f32, 2f32, -2f32, 1f32, -3f32, 0f32, 3f32, -1f32, 2f32], [-3f32, 0f32, 3f32, -1f32, 2f32, -2f32, 1f32, -3f32, 0f32], [2f32, -2f32, 1f32, -3f32, 0f32, 3f32, -1f32, 2f32, -2f32]] [-1f32, 1f32, 3f32, 0f32, 2f32, -1f32, 1f32, 3f32, 0f32] }
-- output { [3f32, -4f32, 0f32, -6f32, 4f32, -8f32, -6f32, 10f32, 1f32] }

entry flower [n] (a: [n][n]f32) (x: [n]f32) : [n]f32 =
  map2 (\i row -> reduce (+) 0 (map3 (\j aij xj -> if j <= i then aij * xj else 0) (iota n) row x)) (iota n) a
