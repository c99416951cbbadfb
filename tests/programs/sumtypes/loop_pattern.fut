-- A loop whose parameter is an irrefutable constructor pattern (a sum
-- type of one constructor), bound again by a let.
-- ==
-- input { 10 } output { 55 }
-- input { 0 } output { 0 }

type acc = #acc i32 i32

entry main (n: i32) : i32 =
  let (#acc a _) = loop (#acc a b) = (#acc 0 1 : acc) for _i < n do #acc b (a + b)
  in a
