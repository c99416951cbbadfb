-- Out-of-bounds slices and indices inside an irregular segmented
-- reduction (a row's bounds are read from offsets): the failing rows
-- report the error, the other lanes of their work-group go on to the
-- group's barriers, and the run fails with the message.
-- ==
-- input { [0i64, 2i64, 3i64] [1i64, 0i64, 2i64] [1.0f32, 10.0f32, 100.0f32] }
-- output { [11.0f32, 100.0f32] }
-- input { [0i64, 2i64, 9i64] [1i64, 0i64, 2i64] [1.0f32, 10.0f32, 100.0f32] }
-- error: [Oo]ut of bounds
-- input { [0i64, 2i64, 3i64] [1i64, 7i64, 2i64] [1.0f32, 10.0f32, 100.0f32] }
-- error: [Oo]ut of bounds

def main [r] [nnz] [m] (offsets: [r]i64) (cols: [nnz]i64) (x: [m]f32) : []f32 =
  map (\i -> f32.sum (map (\c -> x[c]) cols[offsets[i]:offsets[i + 1]])) (iota (r - 1))
