-- Inclusive range a...b.
-- ==
-- input { 1 5 }
-- output { [1, 2, 3, 4, 5] }
-- input { 4 4 }
-- output { [4] }

def main (a: i32) (b: i32) : []i32 = a...b
