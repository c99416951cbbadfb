-- Conversions between bool and numbers.
-- ==
-- input { true 0 0.5f32 }
-- output { 1 1i64 1.0f32 false true }
-- input { false -3 0.0f32 }
-- output { 0 0i64 0.0f32 true false }

def main (x: bool) (y: i32) (z: f32) : (i32, i64, f32, bool, bool) =
  (i32.bool x, i64.bool x, f32.bool x, bool.i32 y, bool.f32 z)
