-- Applying a named function infix with backticks.
-- ==
-- input { 1.0f64 4.0f64 }
-- output { 2.5f64 7 }

def avg (a: f64) (b: f64) : f64 = (a + b) / 2.0

def main (x: f64) (y: f64) : (f64, i32) = (x `avg` y, 7 `i32.max` 3)
