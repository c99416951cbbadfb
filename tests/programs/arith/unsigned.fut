-- Unsigned arithmetic: wrapping subtraction, division and modulo.
-- ==
-- input { 10u32 3u32 }
-- output { 7u32 3u32 1u32 210u8 }
-- input { 3u32 10u32 }
-- output { 4294967289u32 0u32 3u32 203u8 }
-- input { 4000000000u32 7u32 }
-- output { 3999999993u32 571428571u32 3u32 200u8 }

def main (a: u32) (b: u32) : (u32, u32, u32, u8) =
  (a - b, a / b, a % b, u8.u32 a + 200u8)
