-- Type ascriptions on expressions.
-- ==
-- input { 2 }
-- output { 7i64 0.25f32 [1u8, 2u8, 3u8] }

def main (x: i32) : (i64, f32, []u8) =
  let a = (5 : i64) + i64.i32 x
  let b = (1 : f32) / 4
  let c = ([1, 2, 3] : []u8)
  in (a, b, c)
