-- filter whole rows of a matrix.
-- ==
-- input { [[1, -2], [3, 4], [-5, 1], [0, 1]] }
-- output { [[3, 4], [0, 1]] }

def main (a: [][]i32) : [][]i32 = filter (\r -> i32.sum r > 0) a
