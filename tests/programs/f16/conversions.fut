-- Conversions to f16 round once to the nearest half (ties to even; from
-- 65520 on, infinity): from f64 directly, not through f32, which would
-- round 1 + 2^-11 + 2^-40 to the tie 1 + 2^-11 and then down to 1.
-- Conversions from f16 are exact. Expected bits from numpy's float16.
-- ==
-- entry: from_f64
-- input { [1.0004882812509095f64, 1.00048828125f64, 65519.99f64, -65520f64, 1e-8f64, 4.470348358154297e-8f64, 0.1f64] }
-- output { [15361u16, 15360u16, 31743u16, 64512u16, 0u16, 1u16, 11878u16] }
-- ==
-- entry: from_f32
-- input { [1.00048828125f32, 65504f32, 0.3333333f32, -2.5e-5f32] }
-- output { [15360u16, 31743u16, 13653u16, 33187u16] }
-- ==
-- entry: from_i64
-- input { [0i64, 1i64, -7i64, 2049i64, 65519i64, 65520i64, 70000i64, -100000i64] }
-- output { [0u16, 15360u16, 50944u16, 26624u16, 31743u16, 31744u16, 31744u16, 64512u16] }
-- ==
-- entry: to_others
-- input { [11878u16, 31743u16, 1u16, 50944u16] }
-- output { [0.0999755859375f64, 65504f64, 5.960464477539063e-8f64, -7f64]
--          [0.0999755859375f32, 65504f32, 5.960464477539063e-8f32, -7f32]
--          [0i32, 65504i32, 0i32, -7i32] [true, true, true, true] }

entry from_f64 (xs: []f64) : []u16 = map (f16.f64 >-> f16.to_bits) xs
entry from_f32 (xs: []f32) : []u16 = map (f16.f32 >-> f16.to_bits) xs
entry from_i64 (xs: []i64) : []u16 = map (f16.i64 >-> f16.to_bits) xs

entry to_others (bs: []u16) : ([]f64, []f32, []i32, []bool) =
  let xs = map f16.from_bits bs
  in (map f64.f16 xs, map f32.f16 xs, map i32.f16 xs, map bool.f16 xs)
