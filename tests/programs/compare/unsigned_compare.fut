-- Unsigned comparisons treat the top bit as magnitude.
-- ==
-- input { 1u32 4294967295u32 1 -1 }
-- output { true false true }
-- input { 2147483648u32 5u32 -5 3 }
-- output { false true false }

def main (x: u32) (y: u32) (a: i32) (b: i32) : (bool, bool, bool) =
  (x < y, a < b, u32.i32 a < u32.i32 b)
