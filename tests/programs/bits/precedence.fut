-- Bitwise operators bind tighter than comparisons but looser than
-- arithmetic; shifts sit between.
-- ==
-- input { 4 3 }
-- output { true 8 6 0 }
-- input { 6 3 }
-- output { false 8 6 0 }

def main (x: i32) (y: i32) : (bool, i32, i32, i32) =
  (x & y == 0, 1 << 2 + 1, x | y ^ 1, x & 0xF + 1)
