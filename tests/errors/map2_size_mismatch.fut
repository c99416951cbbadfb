-- ==
-- error: 4:54: error: .*sizes n and m differ

def main [n][m] (a: [n]f32) (b: [m]f32) = map2 (+) a b
