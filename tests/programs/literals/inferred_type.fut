-- Unsuffixed literals take their type from the context: integer literals
-- may be used at i64, u8 and float types.
-- ==
-- input { 41i64 1.25f32 254u8 }
-- output { 42i64 2.5f32 1u8 }

def main (x: i64) (y: f32) (z: u8) : (i64, f32, u8) =
  (x + 1, y * 2, z + 3)
