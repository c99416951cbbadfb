-- A tuple argument whose components alias one another may not be passed
-- for a parameter that consumes one of them: the callee could write one
-- and read the other.
-- ==
-- error: 9:31: error: Argument is self-aliased

def f [n] (x: *([n]i32, [n]i32)) = x with 0[0] = 0

def main [n] (x: *[n]i32) = f (x, x)
