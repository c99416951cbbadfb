-- Slices with a negative stride, including a[::-1].
-- ==
-- input { [0, 1, 2, 3, 4, 5, 6, 7] }
-- output { [7, 6, 5, 4, 3, 2, 1, 0] [6, 4, 2] [3, 2, 1, 0] }

def main (xs: []i32) : ([]i32, []i32, []i32) = (xs[::-1], xs[6:1:-2], xs[3::-1])
