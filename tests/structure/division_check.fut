-- Division by a constant zero is not folded: its check stays and fails.
-- ==
-- structure { Assert 1 }
-- input { 7 }
-- error: [Dd]ivision by zero

def main (x: i32) : i32 = x / (1 - 1)
