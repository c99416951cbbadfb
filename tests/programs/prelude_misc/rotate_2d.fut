-- rotate applied to rows and to the outer dimension.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { [[4, 5, 6], [1, 2, 3]] [[3, 1, 2], [6, 4, 5]] }

def main (a: [][]i32) : ([][]i32, [][]i32) = (rotate 1 a, map (rotate (-1)) a)
