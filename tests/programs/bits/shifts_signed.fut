-- Left shift and arithmetic right shift on i32.
-- ==
-- input { 1 4 }
-- output { 16 0 }
-- input { -16 2 }
-- output { -64 -4 }
-- input { -1 31 }
-- output { -2147483648 -1 }
-- input { 1073741824 1 }
-- output { -2147483648 536870912 }

def main (x: i32) (k: i32) : (i32, i32) = (x << k, x >> k)
