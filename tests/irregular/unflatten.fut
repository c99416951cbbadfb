-- unflatten_irregular: an irregular array over given data and row sizes,
-- such as a packed lower triangle or the rows of a CSR sparse matrix.
-- ==
-- entry: trmv
-- input { [1f32, 2f32, 3f32, 4f32, 5f32, 6f32] [1f32, 2f32, -1f32] }
-- output { [1f32, 8f32, 8f32] }

-- ==
-- entry: spmv
-- input { [0i64, 2i64, 2i64, 3i64] [0i64, 2i64, 1i64] [1f32, 2f32, 3f32] [10f32, 20f32, 30f32] }
-- output { [70f32, 0f32, 60f32] }

-- ==
-- entry: pairs
-- input { [2i64, 0i64, 1i64] [1i32, 2i32, 3i32] [4i32, 5i32, 6i32] }
-- output { [3i32, 0i32, 3i32] [9i32, 0i32, 6i32] [2i64, 0i64, 1i64] }

-- ==
-- entry: blocks
-- input { [1i64, 2i64] [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] }
-- output { [[1i32, 2i32]] [[3i32, 4i32], [5i32, 6i32]] [1i32, 2i32, 3i32, 4i32, 5i32, 6i32] }

-- ==
-- entry: pairs
-- input { [2i64, 2i64] [1i32, 2i32, 3i32] [4i32, 5i32, 6i32] }
-- error: add up to
-- input { [4i64, -1i64] [1i32, 2i32, 3i32] [4i32, 5i32, 6i32] }
-- error: add up to|2\^63

-- Row i of the packed lower triangle holds i + 1 elements.
entry trmv [n][m] (packed: [m]f32) (x: [n]f32) : [n]f32 =
  let tri = unflatten_irregular (map (+ 1) (iota n)) packed
  in map (\r -> reduce (+) 0 (map2 (*) r x[:length r])) tri

-- Compressed sparse rows: offsets (one more than rows), columns, values.
entry spmv [r1][nnz] (offsets: [r1]i64) (cols: [nnz]i64) (vals: [nnz]f32) (x: []f32) =
  let lens = map (\i -> offsets[i + 1] - offsets[i]) (iota (r1 - 1))
  let rows = unflatten_irregular lens (zip cols vals)
  in map (\row -> reduce (+) 0 (map (\(c, v) -> v * x[c]) row)) rows

entry pairs (sizes: []i64) (xs: []i32) (ys: []i32) =
  let rows = unflatten_irregular sizes (zip xs ys)
  in unzip3 (map (\r -> let (a, b) = unzip r in (i32.sum a, i32.sum b, length r)) rows)

entry blocks (sizes: []i64) (xs: [][2]i32) =
  let rows = unflatten_irregular sizes xs
  in (rows[0], rows[1], flatten (flatten rows))
