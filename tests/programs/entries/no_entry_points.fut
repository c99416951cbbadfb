-- A program of definitions only compiles, as in Futhark (its executable
-- reports that it has no entry points when run); the test block has no
-- cases, so the test is that it compiles on every backend.
-- ==

def inc (x: i32) = x + 1

type pair = (i32, i32)

def swap ((a, b): pair) : pair = (b, a)
