-- The % operator on floats (positive operands).
-- ==
-- input { 7.5f64 2.0f64 }
-- output { 1.5f64 }
-- input { 9.0f64 3.0f64 }
-- output { 0.0f64 }
-- input { 0.75f64 0.5f64 }
-- output { 0.25f64 }

def main (x: f64) (y: f64) : f64 = x % y
