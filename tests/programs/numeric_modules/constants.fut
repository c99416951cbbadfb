-- pi, inf, nan, highest and lowest.
-- ==
-- input {  }
-- output { 3.141592653589793f64 3.1415927f32 f64.inf -f32.inf 2147483647 -128i8 65535u16 -9223372036854775808i64 true }

def main : (f64, f32, f64, f32, i32, i8, u16, i64, bool) =
  (f64.pi, f32.pi, f64.inf, -f32.inf, i32.highest, i8.lowest, u16.highest, i64.lowest, f64.isnan f64.nan)
