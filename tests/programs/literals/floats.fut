-- Float literals: suffixes, exponents and defaults.
-- ==
-- input {  }
-- output { 2.5f32 1000.0f64 0.015f64 0.125f32 6.0f64 }

def main : (f32, f64, f64, f32, f64) =
  (2.5f32, 1e3, 1.5e-2f64, 0.125f32, 3.0 * 2.0)
