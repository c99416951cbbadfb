-- && does not evaluate its right operand when the left is false, so the
-- division by zero is never executed.
-- ==
-- input { 0 }
-- output { false }
-- input { 5 }
-- output { true }
-- input { 50 }
-- output { false }

def main (n: i32) : bool = n != 0 && 100 / n > 10
