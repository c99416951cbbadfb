-- A conditional returning a tuple.
-- ==
-- input { 1 2 }
-- output { 1 2 }
-- input { 9 -2 }
-- output { -2 9 }

def main (a: i32) (b: i32) : (i32, i32) = if a <= b then (a, b) else (b, a)
