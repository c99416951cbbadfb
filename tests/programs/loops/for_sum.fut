-- for loop summing 0..n-1.
-- ==
-- input { 10 }
-- output { 45 }
-- input { 0 }
-- output { 0 }
-- input { 1 }
-- output { 0 }

def main (n: i32) : i32 = loop acc = 0 for i < n do acc + i
