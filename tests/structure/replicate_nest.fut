-- A replicate of replicates (an initial grid of zeros) is one replicate
-- of the element with the whole shape: one statement, one block, one
-- fill; the intermediate rows are never made.
-- ==
-- structure { Replicate 1 }
-- structure mem { Alloc 1 }
-- input { 2i64 3i64 }
-- output { [[[0f32, 0f32], [0f32, 0f32], [0f32, 0f32]], [[0f32, 0f32], [0f32, 0f32], [0f32, 0f32]]] }
-- input { 0i64 3i64 }
-- output { empty([0][3][2]f32) }

entry main (n: i64) (m: i64) : [n][m][2]f32 =
  replicate n (replicate m (replicate 2 0f32))
