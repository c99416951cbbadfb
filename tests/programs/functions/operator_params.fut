-- A parameter may be named by an operator, ((<=): t -> t -> bool), as
-- diku-dk/sorts writes its comparisons: in the body the operator is the
-- argument; outside it keeps its meaning.
-- ==
-- input { 3 5 }
-- output { 5 3 3 5 9 true }
-- input { 7 2 }
-- output { 7 2 2 7 49 false }

def sort_by 't ((<=): t -> t -> bool) (a: t) (b: t) : (t, t) = if a <= b then (a, b) else (b, a)

def twice ((+): i32 -> i32 -> i32) (x: i32) = x + x

entry main (x: i32) (y: i32) =
  let (a, b) = sort_by (>=) x y
  let (c, d) = sort_by (\p q -> p <= q) x y
  in (a, b, c, d, twice (*) x, x <= y)
