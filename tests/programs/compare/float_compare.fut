-- Float comparisons, including NaN, which compares false.
-- ==
-- input { 1.5f64 2.5f64 }
-- output { true false true false }
-- input { 2.5f64 2.5f64 }
-- output { false true false true }
-- input { f64.nan 1.0f64 }
-- output { false false true false }

def main (x: f64) (y: f64) : (bool, bool, bool, bool) =
  (x < y, x == y, x != y, x >= y)
