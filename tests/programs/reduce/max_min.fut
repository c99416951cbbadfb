-- reduce with max and min.
-- ==
-- input { [3, -7, 12, 0] }
-- output { 12 -7 }
-- input { empty([0]i32) }
-- output { -2147483648 2147483647 }

def main (xs: []i32) : (i32, i32) = (reduce i32.max i32.lowest xs, reduce i32.min i32.highest xs)
