-- && binds tighter than ||; ! binds tightest.
-- ==
-- input { true false false }
-- output { true false }
-- input { false true false }
-- output { false true }
-- input { false true true }
-- output { true true }
-- input { false false true }
-- output { false true }

def main (a: bool) (b: bool) (c: bool) : (bool, bool) =
  (a || b && c, !a && b || c)
