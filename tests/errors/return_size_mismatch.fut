-- ==
-- error: 4:38: error: .*sizes n and 3 differ

def main [n] (xs: [n]i32) : [n]i32 = [1, 2, 3]
