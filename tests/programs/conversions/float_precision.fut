-- f64 to f32 rounds; f32 to f64 is exact.
-- ==
-- input { 0.1f64 }
-- output { 0.1f32 0.10000000149011612f64 }
-- input { 10000000000.0f64 }
-- output { 1e+10f32 10000000000.0f64 }

def main (x: f64) : (f32, f64) = (f32.f64 x, f64.f32 (f32.f64 x))
