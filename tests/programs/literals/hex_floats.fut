-- Hexadecimal float literals: hex digits, an optional fraction, a binary
-- exponent (p, signed, underscores allowed) and an optional suffix, which
-- follows the exponent (the f of f32 is no hex digit there). Without a
-- suffix the type is inferred (f64 by default). 0x1.fp without exponent
-- digits is no float literal.
-- ==
-- input {}
-- output { 16.0f64 3.0f32 5.34375f64 -0.375f32 0.9375f32 1024.0f64 15i32 }

def main : (f64, f32, f64, f32, f32, f64, i32) =
  (0x1p4, 0x1.8p1f32, 0xA.Bp-1f64, -0x1.8p-2, 0x0.f0p0f32, 0x1p1_0, 0xf)
