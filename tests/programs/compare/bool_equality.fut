-- Equality on booleans.
-- ==
-- input { true true 1 1 }
-- output { true false true }
-- input { true false 1 1 }
-- output { false true false }
-- input { false false 1 2 }
-- output { true false false }

def main (a: bool) (b: bool) (x: i32) (y: i32) : (bool, bool, bool) =
  (a == b, a != b, x == y && a == b)
