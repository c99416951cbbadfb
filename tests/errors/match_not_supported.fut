-- match is not supported yet, also on values of types that are not sums.
-- ==
-- error: 6:3: error: match expressions \(pattern matching on sum types\) are not supported yet

def classify (x: i32) : i32 =
  match x
  case 0 -> 10
  case _ -> 20

entry main (x: i32) = classify x
