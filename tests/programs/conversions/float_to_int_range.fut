-- Float to integer conversion out of range: NaN and the infinities give
-- 0 (as Futhark defines it), other values saturate to the type's range,
-- and a negative value converted to an unsigned type goes through the
-- signed type of its width (u8.f32 (-1) is 255, as Futhark's C does it).
-- The conversions of constants, which the compiler folds, give the same
-- values as at run time.
-- ==
-- input { [f32.nan, f32.inf, -f32.inf, -1f32, -3.5f32, 300f32, 4294967296f32]
--         [f64.nan, -f64.inf, 2147483648f64, -2147483649f64, 1e300f64, 36893488147419111424f64] }
-- output { [0u8, 0u8, 0u8, 255u8, 253u8, 255u8, 255u8]
--          [0i32, 0i32, 0i32, -1i32, -3i32, 300i32, 2147483647i32]
--          [0i32, 0i32, 2147483647i32, -2147483648i32, 2147483647i32, 2147483647i32]
--          [0u64, 0u64, 2147483648u64, 18446744071562067967u64, 18446744073709551615u64, 18446744073709551615u64]
--          253u8 255u8 2147483647i32 18446744071562067967u64 0i32 0i64 }

def main (xs: []f32) (ys: []f64) =
  (map u8.f32 xs, map i32.f32 xs, map i32.f64 ys, map u64.f64 ys,
   u8.f32 (-3.5), u8.f32 300, i32.f64 2147483648, u64.f64 (-2147483649), i32.f32 f32.inf, i64.f64 f64.nan)
