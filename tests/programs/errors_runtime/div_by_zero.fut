-- Integer division by zero is a run-time error.
-- ==
-- input { 7 2 }
-- output { 3 }
-- input { 7 0 }
-- error: [Dd]ivision by zero

def main (x: i32) (y: i32) : i32 = x / y
