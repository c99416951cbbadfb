-- A scan whose operator works on arrays: prefix sums of the rows.
-- ==
-- input { [[1, 2, 3], [4, 5, 6], [-1, 0, 2], [10, 20, 30]] }
-- output { [[1, 2, 3], [5, 7, 9], [4, 7, 11], [14, 27, 41]] }

def main [n][m] (rows: [n][m]i32) : [n][m]i32 = scan (map2 (+)) (replicate m 0) rows
