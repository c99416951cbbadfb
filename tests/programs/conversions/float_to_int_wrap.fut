-- Float to integer conversion as Futhark defines it: NaN and the
-- infinities give 0, other values are truncated towards zero and wrap
-- modulo 2^width (two's complement). The conversions of constants, which
-- the compiler folds, give the same values as at run time.
-- ==
-- input { [f32.nan, f32.inf, -f32.inf, -1f32, -3.5f32, 300f32, 4294967296f32]
--         [f64.nan, -f64.inf, 2147483648f64, -2147483649f64, 1e300f64, 36893488147419111424f64] }
-- output { [0u8, 0u8, 0u8, 255u8, 253u8, 44u8, 0u8]
--          [0i32, 0i32, 0i32, -1i32, -3i32, 300i32, 0i32]
--          [0i32, 0i32, -2147483648i32, 2147483647i32, 0i32, 8192i32]
--          [0u64, 0u64, 2147483648u64, 18446744071562067967u64, 0u64, 8192u64]
--          253u8 44u8 -2147483648i32 18446744071562067967u64 0i32 0i64 }

def main (xs: []f32) (ys: []f64) =
  (map u8.f32 xs, map i32.f32 xs, map i32.f64 ys, map u64.f64 ys,
   u8.f32 (-3.5), u8.f32 300, i32.f64 2147483648, u64.f64 (-2147483649), i32.f32 f32.inf, i64.f64 f64.nan)
