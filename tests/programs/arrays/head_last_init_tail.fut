-- head, last, init and tail.
-- ==
-- input { [4, 5, 6] }
-- output { 4 6 [4, 5] [5, 6] }
-- input { [9] }
-- output { 9 9 empty([0]i32) empty([0]i32) }

def main (xs: []i32) : (i32, i32, []i32, []i32) = (head xs, last xs, init xs, tail xs)
