-- ==
-- error: 4:16: error: .*Unexpected

def main = let = 3 in 4
