-- i64 arithmetic beyond 32 bits with explicit widening.
-- ==
-- input { 100000 300000 }
-- output { 30000000000i64 -64771072 }
-- input { -65536 65536 }
-- output { -4294967296i64 0 }

def main (x: i32) (y: i32) : (i64, i32) =
  (i64.i32 x * i64.i32 y, x * y)
