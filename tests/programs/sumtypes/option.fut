-- A polymorphic sum type (an option) in function parameters and results,
-- instantiated at two types; constructors typed by the annotated result.
-- ==
-- input { [3, -1, 7] 5 } output { 3 -1 }
-- input { [3, 5, 7] 5 } output { 3 1 }

type opt 'a = #some a | #none

def find (p: i32 -> bool) (xs: []i32) : opt i64 =
  loop r = #none for i < length xs do
    match r
    case #none -> if p xs[i] then #some i else #none
    case #some j -> #some j

def get 'a (d: a) (o: opt a) : a =
  match o
  case #some x -> x
  case #none -> d

def first_bool (xs: []i32) : opt bool = if length xs > 0 then #some (xs[0] > 0) else #none

entry main (xs: []i32) (x: i32) : (i32, i32) =
  (xs[0], i32.i64 (get (-1) (find (== x) xs)) + (if get false (first_bool xs) then 0 else 100))
