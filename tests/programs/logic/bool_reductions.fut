-- and/or over boolean arrays via reduce.
-- ==
-- input { [true, true] }
-- output { true true 2 }
-- input { [true, false, true] }
-- output { false true 2 }
-- input { empty([0]bool) }
-- output { true false 0 }

def main (xs: []bool) : (bool, bool, i32) =
  (reduce (&&) true xs, reduce (||) false xs, i32.sum (map i32.bool xs))
