-- Nested constructor patterns, records and tuples in payloads, enums
-- (constructors without payload) compared with ==, and sums in records.
-- ==
-- input { 1 } output { 11 true false }
-- input { 2 } output { 22 false true }
-- input { 3 } output { 3 false false }

type colour = #red | #green | #blue
type tree = #leaf i32 | #node {l: i32, r: (i32, colour)} | #pair (#a i32 | #b bool) i32

def value (t: tree) : i32 =
  match t
  case #leaf x -> x
  case #node {l, r = (x, #red)} -> l + x
  case #node {l = _, r = (x, _)} -> x * 2
  case #pair (#a a) b -> a * b
  case #pair (#b true) b -> b
  case #pair (#b false) _ -> 0

entry main (x: i32) : (i32, bool, bool) =
  let t : tree = if x == 1 then #node {l = 10, r = (1, #red)}
                 else if x == 2 then #pair (#a 11) x
                 else #leaf x
  let c : colour = if x == 1 then #red else if x == 2 then #blue else #green
  let s = {c, n = x}
  in (value t, s.c == #red, c != #green && c == #blue)
