-- Views whose elements overlap: stride 0 repeats a row, and sliding
-- windows of width 3 and step 1 share elements. Reductions over the
-- views read through the LMAD.
-- ==
-- entry: windows
-- input { [1i64, 2i64, 3i64, 4i64, 5i64] }
-- output { [6i64, 9i64, 12i64] }
-- ==
-- entry: repeated
-- input { [1i64, 2i64, 3i64] 4i64 }
-- output { [[1i64, 2i64, 3i64], [1i64, 2i64, 3i64], [1i64, 2i64, 3i64], [1i64, 2i64, 3i64]] }
-- input { [1i64, 2i64, 3i64] 0i64 }
-- output { empty([0][3]i64) }
-- input { [1i64, 2i64, 3i64] -1i64 }
-- error: Flat slice out of bounds

entry windows [n] (xs: [n]i64) : []i64 =
  map i64.sum (intrinsics.flat_index_2d xs 0 (n - 2) 1 3 1)

entry repeated [n] (xs: [n]i64) (k: i64) : [k][n]i64 =
  intrinsics.flat_index_2d xs 0 k 0 n 1
