-- A match that misses a constructor nested in a payload names a value it
-- does not cover.
-- ==
-- error: 9:3: error: Unmatched cases in match expression: #some #blue$

type colour = #red | #green | #blue

def f (x: #some colour | #none) : i32 =
  match x
  case #some #red -> 1
  case #some #green -> 2
  case #none -> 0

entry main (b: bool) = f (if b then #none else #some #red)
