-- Narrowing integer conversions keep the low bits.
-- ==
-- input { 300 4294967301i64 }
-- output { 44i8 44u8 300i16 5 }
-- input { -1 -1i64 }
-- output { -1i8 255u8 -1i16 -1 }
-- input { 200 2147483648i64 }
-- output { -56i8 200u8 200i16 -2147483648 }
-- input { 70000 7i64 }
-- output { 112i8 112u8 4464i16 7 }

def main (x: i32) (y: i64) : (i8, u8, i16, i32) = (i8.i32 x, u8.i32 x, i16.i32 x, i32.i64 y)
