-- Numeric module values used as ordinary functions.
-- ==
-- input { 3 10 }
-- output { 10 3 7.0f32 }

def main (x: i32) (y: i32) : (i32, i32, f32) = (i32.max x y, i32.min x y, f32.i32 (i32.abs (x - y)))
