-- Sum types are not supported yet: the first constructor gets one error
-- saying so, and the rest of the file none.
-- ==
-- error: 6:14: error: sum types and their constructors \(such as '#some x'\) are not supported yet

type shape = #circle f64 | #square f64

def area (s: shape) : f64 =
  match s
  case #circle r -> 3.14 * r * r
  case #square a -> a * a

entry main (r: f64) = area (#circle r)
