-- get_bit and set_bit from the integer modules.
-- ==
-- input { 5 0 }
-- output { 1 5 4 128u8 }
-- input { 5 1 }
-- output { 0 7 5 128u8 }
-- input { -1 31 }
-- output { 1 -1 2147483647 128u8 }
-- input { 0 30 }
-- output { 0 1073741824 0 128u8 }

def main (x: i32) (i: i32) : (i32, i32, i32, u8) =
  (i32.get_bit i x, i32.set_bit i x 1, i32.set_bit i x 0, u8.set_bit 7 0u8 1)
