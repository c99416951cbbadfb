-- Left and right operator sections.
-- ==
-- input { [0, 3, 5] }
-- output { [1, 4, 6] [10, 7, 5] [0, 9, 15] [1, 8, 32] }

def main (xs: []i32) : ([]i32, []i32, []i32, []i32) =
  (map (+ 1) xs, map (10 -) xs, map (* 3) xs, map (2 **) xs)
