-- map over an i32 range, converting to u8.
-- ==
-- input { 1 5 }
-- output { [2u8, 4u8, 6u8, 8u8] }
-- input { 126 130 }
-- output { [252u8, 254u8, 0u8, 2u8] }

def main (a: i32) (b: i32) : []u8 = map (\x -> u8.i32 x * 2) (a..<b)
