-- Prefix ! is bitwise complement on integers.
-- ==
-- input { 0 0u8 5i64 }
-- output { -1 255u8 -6i64 }
-- input { -43 240u8 -1i64 }
-- output { 42 15u8 0i64 }

def main (x: i32) (y: u8) (z: i64) : (i32, u8, i64) = (!x, !y, !z)
