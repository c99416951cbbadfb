-- Bitwise operators on i64 and u16.
-- ==
-- input { 3i64 12u16 }
-- output { 25769803776i64 3i64 65523u16 8u16 }
-- input { -1i64 32768u16 }
-- output { -8589934592i64 -1i64 32767u16 0u16 }

def main (x: i64) (y: u16) : (i64, i64, u16, u16) =
  (x << 33, (x << 33) >> 33, y ^ 0xFFFFu16, y & (y - 1))
