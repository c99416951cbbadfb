-- Top-level constant definitions with type ascriptions.
-- ==
-- input { 8 }
-- output { 50 4.0f64 1099511627776i64 }

def answer : i32 = 42
def scale : f64 = 0.5
def big : i64 = 1 << 40

def main (x: i32) : (i32, f64, i64) = (answer + x, scale * f64.i32 x, big)
