-- Tuple components accessed with .0 and .1.
-- ==
-- input { 4 1.5f32 }
-- output { 4.5f32 9 }

def main (x: i32) (y: f32) : (f32, i32) =
  let t = (x, y, (x + 1, y * 2f32))
  let u = t.2
  in (t.1 + u.1, t.0 + u.0)
