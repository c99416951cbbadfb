-- map returning triples, taken apart with unzip3.
-- ==
-- input { [0, 5, -5] }
-- output { [1, 6, -4] [-1, 4, -6] [false, true, false] }

def main (xs: []i32) : ([]i32, []i32, []bool) =
  unzip3 (map (\x -> (x + 1, x - 1, x > 0)) xs)
