-- Operator sections of binary operators.
-- ==
-- input { [1, 2, 3, 4] }
-- output { 10 24 [1, 2, 6, 24] }

def main (xs: []i32) : (i32, i32, []i32) = (reduce (+) 0 xs, reduce (*) 1 xs, scan (*) 1 xs)
