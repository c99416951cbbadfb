-- The ** operator at f64, f32 and i32, including a negative float exponent.
-- ==
-- input { 2.0f64 10.0f64 }
-- output { 1024.0f64 0.5f32 243 }
-- input { 9.0f64 0.5f64 }
-- output { 3.0f64 0.5f32 243 }

def main (x: f64) (y: f64) : (f64, f32, i32) = (x ** y, 2f32 ** (-1f32), 3 ** 5)
