-- f32 and f64 arithmetic.
-- ==
-- input { 1.5f32 0.25f32 3.0f64 -1.5f64 }
-- output { 1.75f32 1.25f32 0.375f32 6.0f32 -7.5f64 2.0f64 }

def main (x: f32) (y: f32) (a: f64) (b: f64) : (f32, f32, f32, f32, f64, f64) =
  (x + y, x - y, x * y, x / y, a * b - a, -a / b)
