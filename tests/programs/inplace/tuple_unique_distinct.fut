-- A tuple of two distinct unique arrays may be passed for a parameter
-- that consumes it; one that only reads may get the same array twice
-- (tests/errors/self_aliased_arg.fut: not for one that consumes).
-- ==
-- entry: distinct
-- input { [1, 2] [3, 4] } output { [0, 2] }

-- ==
-- entry: shared
-- input { [1, 2] } output { 3 }

def first [n] (x: *([n]i32, [n]i32)) : *[n]i32 = x.0 with [0] = 0

def sum2 [n] (x: ([n]i32, [n]i32)) = x.0[0] + x.1[1]

entry distinct [n] (a: *[n]i32) (b: *[n]i32) = first (a, b)

entry shared [n] (a: [n]i32) = sum2 (a, a)
