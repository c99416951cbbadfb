-- A concatenation of two maps: both are built in their parts of the
-- result's block, allocated before the first of them, so nothing is
-- copied. Empty parts work too.
-- ==
-- structure mem { Copy 0 Alloc 1 }
-- input { [1f32, 2f32] [3f32, 4f32, 5f32] }
-- output { [2f32, 3f32, 6f32, 8f32, 10f32] }
-- input { empty([0]f32) [3f32] }
-- output { [6f32] }
-- input { empty([0]f32) empty([0]f32) }
-- output { empty([0]f32) }

entry main [n][m] (x: [n]f32) (y: [m]f32) : []f32 =
  concat (map (+1) x) (map (*2) y)
