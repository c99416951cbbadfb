-- A sum type with payloads, matched with variable patterns; an array of
-- sums built by map (a tag array and payload arrays) is matched in a map.
-- ==
-- input { 2.0 } output { 12.56 4.0 }

type shape = #circle f64 | #square f64

def area (s: shape) : f64 =
  match s
  case #circle r -> 3.14 * r * r
  case #square a -> a * a

entry main (r: f64) : (f64, f64) =
  let shapes = map (\i -> if i == 0 then #circle r else #square r) (iota 2)
  in (area (#circle r), area shapes[1])
