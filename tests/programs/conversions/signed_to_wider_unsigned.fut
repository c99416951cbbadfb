-- Futhark's prelude zero-extends when converting a signed integer to a
-- wider unsigned type (u64.i32 (-1) is 4294967295, not 2**64-1), and
-- sign-extends when converting to a wider signed type.
-- ==
-- input { -1 -1i8 }
-- output { 4294967295u64 255u32 -1i64 -1i64 }
-- input { 7 7i8 }
-- output { 7u64 7u32 7i64 7i64 }

def main (x: i32) (y: i8) : (u64, u32, i64, i64) = (u64.i32 x, u32.i8 y, i64.i32 x, i64.i8 y)
