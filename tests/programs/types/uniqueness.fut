-- Unique (*) parameter and result types for in-place updates.
-- ==
-- input { [1, 2, 3] }
-- output { [99, 2, 3] }

def set0 [n] (xs: *[n]i32) (v: i32) : *[n]i32 = xs with [0] = v

def main (xs: *[]i32) : []i32 = set0 xs 99
