-- A result whose constant shape cannot match the declared one: the
-- program compiles (the reshape after the failing shape check gets a
-- block of its own; the compiler used to stop with an internal error)
-- and fails at run time with the shapes.
-- ==
-- input { 10i64 }
-- error: \[11\].*\[10\]

def ap (f: (n: i64) -> [n]i64) (k: i64) : [k]i64 = f k

entry main (k: i64) : [10]i64 = ap (\n -> iota (n + 1)) 10 :> [10]i64
