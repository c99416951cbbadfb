-- isnan and isinf, and NaN/inf produced by arithmetic.
-- ==
-- input { 1.0f64 0.0f64 }
-- output { false true f64.inf }
-- input { 0.0f64 0.0f64 }
-- output { true false f64.nan }
-- input { -3.0f64 2.0f64 }
-- output { false false -1.5f64 }
-- input { -1.0f64 0.0f64 }
-- output { false true -f64.inf }

def main (x: f64) (y: f64) : (bool, bool, f64) = (f64.isnan (x / y), f64.isinf (x / y), x / y)
