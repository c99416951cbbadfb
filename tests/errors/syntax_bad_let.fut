-- ==
-- error: 4:16: error: .*unexpected

def main = let = 3 in 4
