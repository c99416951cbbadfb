-- The bool module (Futhark's `from_prim with t = bool`): any non-zero
-- value is true.
-- ==
-- input { 0i32 }
-- output { [false, true, false, true, false, true, false, true, false, true, true, false] }
-- input { 7i32 }
-- output { [true, true, true, true, true, true, true, true, true, true, true, true] }

def main (x: i32) : []bool =
  [bool.i8 (i8.i32 x), bool.i16 (-1), bool.i32 x, bool.i64 5, bool.u8 (u8.i32 x), bool.u16 1,
   bool.u32 (u32.i32 x), bool.u64 9, bool.f32 (f32.i32 x), bool.f64 0.5, bool.bool true, bool.bool (x == 0) != bool.bool true]
