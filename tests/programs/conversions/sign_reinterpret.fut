-- Same-width conversions between signed and unsigned keep the bits.
-- ==
-- input { -1 200u8 }
-- output { 4294967295u32 -56i8 -1 }
-- input { 123 5u8 }
-- output { 123u32 5i8 123 }

def main (x: i32) (y: u8) : (u32, i8, i32) = (u32.i32 x, i8.u8 y, i32.u32 (u32.i32 x))
