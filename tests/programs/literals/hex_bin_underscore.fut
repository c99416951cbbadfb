-- Hexadecimal, binary and underscore-separated literals.
-- ==
-- input {  }
-- output { 255 10 1000000i64 3735928559u32 240u8 }

def main : (i32, i32, i64, u32, u8) =
  (0xFF, 0b1010, 1_000_000i64, 0xdead_beefu32, 0b1111_0000u8)
