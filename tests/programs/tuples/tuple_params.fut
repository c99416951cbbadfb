-- Tuple patterns as function parameters.
-- ==
-- input { 10 20 }
-- output { 31 32 }

def add_pairs ((a, b): (i32, i32)) ((c, d): (i32, i32)) : (i32, i32) = (a + c, b + d)

def main (x: i32) (y: i32) : (i32, i32) = add_pairs (x, y) (add_pairs (1, 2) (y, x))
