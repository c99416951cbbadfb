-- map with a named function.
-- ==
-- input { [1i64, -2i64, 3i64] }
-- output { [1i64, 4i64, 9i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) }

def square (x: i64) : i64 = x * x

def main (xs: []i64) : []i64 = map square xs
