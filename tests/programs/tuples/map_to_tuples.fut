-- map producing tuples, split with unzip.
-- ==
-- input { [1, 2, 3, -4] }
-- output { [1, 4, 9, 16] [false, true, false, true] }
-- input { empty([0]i32) }
-- output { empty([0]i32) empty([0]bool) }

def main (xs: []i32) : ([]i32, []bool) =
  unzip (map (\x -> (x * x, x % 2 == 0)) xs)
