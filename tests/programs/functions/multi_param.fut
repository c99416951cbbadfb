-- Top-level functions with several parameters and ascriptions.
-- ==
-- input { 2.0f64 6.0f64 }
-- output { 2.0f64 4.0f64 6.0f64 }

def lerp (a: f64) (b: f64) (t: f64) : f64 = a + (b - a) * t

def main (a: f64) (b: f64) : (f64, f64, f64) = (lerp a b 0.0, lerp a b 0.5, lerp a b 1.0)
