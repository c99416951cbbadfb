-- A range as the array of a for-in loop.
-- ==
-- input { 4 }
-- output { 30 }
-- input { 1 }
-- output { 1 }

def main (n: i32) : i32 = loop acc = 0 for i in 1...n do acc + i * i
