-- Widening conversions: signed sources sign-extend into signed targets;
-- unsigned sources zero-extend.
-- ==
-- input { -5i8 250u8 -7 4000000000u32 }
-- output { -5 250 -7i64 4000000000i64 4000000000u64 }
-- input { 100i8 1u8 7 1u32 }
-- output { 100 1 7i64 1i64 1u64 }

def main (a: i8) (b: u8) (c: i32) (d: u32) : (i32, i32, i64, i64, u64) =
  (i32.i8 a, i32.u8 b, i64.i32 c, i64.u32 d, u64.u32 d)
