-- for-in loop over an array.
-- ==
-- input { [1, 0, 1, 1] }
-- output { 27 }
-- input { empty([0]i32) }
-- output { 1 }

def main (xs: []i32) : i32 = loop acc = 1 for x in xs do acc * 2 + x
