-- Sections of backticked functions.
-- ==
-- input { [-3, 2, 9] }
-- output { [0, 2, 9] [-3, 2, 5] }

def main (xs: []i32) : ([]i32, []i32) = (map (`i32.max` 0) xs, map (5 `i32.min`) xs)
