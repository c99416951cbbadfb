-- Horizontal: the sum and the maximum of one array are one pass.
-- ==
-- structure { Screma 1 Reduce 2 }
-- input { [-3i32, 0i32, 7i32, 10i32, -8i32, 2i32] }
-- output { 8i32 10i32 }
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] }
-- output { 15i32 5i32 }

def main (xs: []i32) : (i32, i32) = (reduce (+) 0 xs, reduce i32.max i32.lowest xs)
