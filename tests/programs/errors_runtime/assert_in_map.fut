-- An assertion inside a map that fails for one element.
-- ==
-- input { [1, 2, -3] }
-- output { [100, 50, -34] }
-- input { [1, 0, 2] }
-- error: [Aa]ssert|[Dd]ivision by zero

def main (xs: []i32) : []i32 = map (\x -> assert (x != 0) (100 / x)) xs
