-- Integer to float conversion.
-- ==
-- input { -3 1099511627776i64 4000000000u32 }
-- output { -3.0f32 1099511627776.0f64 4000000000.0f64 1.0995116e+12f32 }

def main (x: i32) (y: i64) (z: u32) : (f32, f64, f64, f32) =
  (f32.i32 x, f64.i64 y, f64.u32 z, f32.i64 y)
