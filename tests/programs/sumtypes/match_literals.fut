-- match on values that are not sums: literal, negative, tuple and
-- wildcard patterns, the first matching case winning.
-- ==
-- input { 0 } output { 10 }
-- input { 3 } output { 20 }
-- input { -1 } output { 30 }

def classify (x: i32) : i32 =
  match (x, x < 0)
  case (0, _) -> 10
  case (-1, true) -> 30
  case _ -> 20

entry main (x: i32) = classify x
