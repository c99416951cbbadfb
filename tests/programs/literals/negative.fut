-- Negative literals and negation of literals.
-- ==
-- input {  }
-- output { -5 -127i8 -0.5f64 3i64 }

def main : (i32, i8, f64, i64) =
  (-5, -127i8, -0.5, -(-3i64))
