-- Array payloads, sums returned from a loop, irrefutable constructor
-- patterns in let and parameters (a sum type of one constructor).
-- ==
-- input { [1, 2, 3] } output { 6 3 }
-- input { empty([0]i32) } output { 0 0 }

type bag = #bag ([]i32) i64
type res = #sum i32 | #nothing

def total ((#bag xs _): bag) : res = if length xs == 0 then #nothing else #sum (i32.sum xs)

entry main (xs: []i32) : (i32, i32) =
  let b : bag = #bag xs (length xs)
  let #bag _ n = b
  in (match total b case #sum s -> s case #nothing -> 0, i32.i64 n)
