-- reduce with + and *.
-- ==
-- input { [1i64, 2i64, 3i64, 4i64, 5i64] }
-- output { 15i64 120i64 }
-- input { empty([0]i64) }
-- output { 0i64 1i64 }

def main (xs: []i64) : (i64, i64) = (reduce (+) 0 xs, reduce (*) 1 xs)
