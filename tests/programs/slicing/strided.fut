-- Strided slices a[i:j:s] and a[::2].
-- ==
-- input { [0, 1, 2, 3, 4, 5, 6, 7] }
-- output { [1, 3, 5] [0, 2, 4, 6] [1, 4, 7] }

def main (xs: []i32) : ([]i32, []i32, []i32) = (xs[1:7:2], xs[::2], xs[1::3])
