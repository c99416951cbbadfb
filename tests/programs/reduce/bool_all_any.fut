-- all and any.
-- ==
-- input { [1, 2, 3] }
-- output { true false }
-- input { [1, -2, 30] }
-- output { false true }
-- input { empty([0]i32) }
-- output { true false }

def main (xs: []i32) : (bool, bool) = (all (> 0) xs, any (> 10) xs)
