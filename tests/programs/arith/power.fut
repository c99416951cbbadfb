-- The ** operator on integers and floats.
-- ==
-- input { 3 4 16.0f64 }
-- output { 81 1099511627776i64 4.0f64 1024.0f32 }
-- input { -2 3 2.25f64 }
-- output { -8 1099511627776i64 1.5f64 1024.0f32 }
-- input { 7 0 1.0f64 }
-- output { 1 1099511627776i64 1.0f64 1024.0f32 }

def main (a: i32) (b: i32) (x: f64) : (i32, i64, f64, f32) =
  (a ** b, 2i64 ** 40, x ** 0.5, 2f32 ** 10f32)
