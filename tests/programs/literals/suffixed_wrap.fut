-- An integer literal with a type suffix is its value modulo 2^N, as
-- Futhark's lexer reads it (futhark-benchmarks' fluid.fut writes 255i8);
-- only literals whose type is inferred are checked against its bounds.
-- ==
-- input { 0i32 }
-- output { -1i8 -128i8 -1i8 0u16 255u8 1i32 44u8 }

def main (_: i32) : (i8, i8, i8, u16, u8, i32, u8) =
  (255i8, -128i8, 0x1FFi8, 65536u16, -1u8, 4294967297i32, 300u8)
