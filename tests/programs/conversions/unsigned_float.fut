-- Conversions between unsigned integers and floats.
-- ==
-- input { 4294967295u32 200.9f64 }
-- output { 4294967295.0f64 200u32 200u8 }
-- input { 0u32 3.5f64 }
-- output { 0.0f64 3u32 3u8 }

def main (x: u32) (y: f64) : (f64, u32, u8) = (f64.u32 x, u32.f64 y, u8.f64 y)
