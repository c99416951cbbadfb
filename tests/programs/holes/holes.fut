-- Typed holes: ??? has whatever type its context needs and fails with
-- "hole at FILE:LINE:COL" where it is evaluated; a hole of function type
-- fails where it is applied. Code that does not reach a hole runs.
-- ==
-- entry: pick
-- input { true } output { [1, 2, 3] }
-- input { false } error: hole at .*holes.fut:19:49
-- ==
-- entry: apply
-- input { 0i64 } error: hole at .*holes.fut:21:31
-- ==
-- entry: looped
-- input { 0 } output { 0 }
-- input { 2 } error: hole at
-- ==
-- entry: sized
-- input { 3i64 } error: hole at

entry pick (b: bool) = if b then [1, 2, 3] else ???

entry apply (x: i64) : bool = ??? (+ 1) x

def holey (x: i32) : i32 = ???

entry looped (n: i32) = loop acc = 0 for _i < n do holey acc

entry sized (n: i64) : *[n]i32 = ???
