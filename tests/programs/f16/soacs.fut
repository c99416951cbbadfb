-- f16 arrays through the SOACs, scalars and arrays at entry points, and
-- the f16 module's constants. Sums of small integers are exact in any
-- order; the others are compared with the test tolerance.
-- ==
-- entry: sums
-- input { [1f16, 2f16, 3f16, 4f16, 5f16, 6f16, 7f16, 8f16] }
-- output { 36f16 [1f16, 3f16, 6f16, 10f16, 15f16, 21f16, 28f16, 36f16] [20f16, 16f16] }
-- ==
-- entry: scaled
-- input { 0.5f16 [[1f16, 2f16], [3f16, -4f16]] }
-- output { [[0.5f16, 1f16], [1.5f16, -2f16]] -4f16 }
-- ==
-- entry: consts
-- input { 0i32 }
-- output { 65504f16 0.0009765625f16 3.140625f16 f16.inf true 16i32 }
-- ==
-- entry: scatter_max
-- input { [0.5f16, 2f16, -1f16, 7.5f16] }
-- output { [7.5f16, 2f16, 0f16] [0.5f16, -1f16, 0f16] }

entry sums (xs: []f16) : (f16, []f16, [2]f16) =
  (f16.sum xs, scan (+) 0 xs, hist (+) 0 2 (map (\x -> i64.f16 x % 2) xs) xs)

entry scaled (s: f16) (xss: [][]f16) : ([][]f16, f16) =
  (map (map (* s)) xss, f16.minimum (flatten xss))

entry consts (_: i32) : (f16, f16, f16, f16, bool, i32) =
  (f16.f32 65504, f16.epsilon, f16.pi, f16.highest, f16.isnan f16.nan, f16.num_bits)

entry scatter_max (xs: []f16) : ([3]f16, [3]f16) =
  (reduce_by_index (replicate 3 0) f16.max f16.lowest [0, 1, 2, 0] xs,
   scatter (replicate 3 0) [0, 1] [xs[0], xs[2]])
