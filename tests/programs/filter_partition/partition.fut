-- partition into two arrays, preserving order.
-- ==
-- input { [3, -1, 4, -1, -5, 9] }
-- output { [-1, -1, -5] [3, 4, 9] }
-- input { empty([0]i32) }
-- output { empty([0]i32) empty([0]i32) }

def main (xs: []i32) : ([]i32, []i32) = partition (< 0) xs
