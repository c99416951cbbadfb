-- Sums through SOACs: a reduction over options (the neutral element
-- #none), a scan, and a filter on the tag of an array of sums.
-- ==
-- input { [3, -2, 8, 1] } output { 8 [3, 3, 8, 8] 2i64 }
-- input { empty([0]i32) } output { -1 empty([0]i32) 0i64 }

type opt = #some i32 | #none

def max_opt (a: opt) (b: opt) : opt =
  match (a, b)
  case (#none, _) -> b
  case (_, #none) -> a
  case (#some x, #some y) -> #some (i32.max x y)

def get (o: opt) : i32 = match o case #some x -> x case #none -> -1

def is_big (o: opt) : bool = match o case #some x -> x > 2 case #none -> false

entry main (xs: []i32) : (i32, []i32, i64) =
  let os = map (\x -> #some x : opt) xs
  in (get (reduce max_opt #none os), map get (scan max_opt #none os), length (filter is_big os))
