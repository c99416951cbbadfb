-- ==
-- error: 4:52: error: .*sizes n and m differ

def main [n][m] (xs: [n]i32) (ys: [m]i32) = zip xs ys
