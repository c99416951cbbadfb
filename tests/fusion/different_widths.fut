-- Negative (horizontal): maps over arrays of unrelated sizes stay apart.
-- ==
-- structure { Screma 2 }
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] [7i32, 8i32] }
-- output { [2i32, 3i32, 4i32, 5i32, 6i32] [14i32, 16i32] }

def main (xs: []i32) (ys: []i32) : ([]i32, []i32) = (map (+1) xs, map (*2) ys)
