-- ==
-- error: 4:12: error: .*sizes 3 and 2 differ

def main = [1, 2] : [3]i32
