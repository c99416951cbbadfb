-- A false assertion is a run-time error.
-- ==
-- input { 4.0f64 }
-- output { 2.0f64 }
-- input { -1.0f64 }
-- error: [Aa]ssert

def safe_sqrt (x: f64) : f64 = assert (x >= 0) (f64.sqrt x)

def main (x: f64) : f64 = safe_sqrt x
