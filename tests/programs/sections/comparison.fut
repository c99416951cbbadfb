-- Sections of comparison operators.
-- ==
-- input { [1, 3, 5] }
-- output { [true, false, false] [false, false, true] }

def main (xs: []i32) : ([]bool, []bool) = (map (< 3) xs, map (3 <) xs)
