-- abs, min and max on integers and floats.
-- ==
-- input { -3 2 -1.5f64 0.5f64 }
-- output { 3 -3 2 1.5f64 -1.5f64 0.5f64 2i64 }

def main (a: i32) (b: i32) (x: f64) (y: f64) : (i32, i32, i32, f64, f64, f64, i64) =
  (i32.abs a, i32.min a b, i32.max a b, f64.abs x, f64.min x y, f64.max x y, i64.abs (i64.i32 b))
