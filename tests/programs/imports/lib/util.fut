-- Helper functions imported by the programs in tests/programs/imports.
-- This file has no test block: it is not a test on its own.

def square (x: i32) : i32 = x * x

def sum [n] (xs: [n]i32) : i32 = reduce (+) 0 xs

type point = {x: f64, y: f64}

def dist (p: point) (q: point) : f64 = f64.sqrt ((p.x - q.x) ** 2 + (p.y - q.y) ** 2)
